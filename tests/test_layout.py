"""The layout is the pipeline (docs/architecture.md): each package of `interpreter/` imports only
the packages before it, no module reaches itself through imports, the table's view model holds
no terminal code, and every board kind brings all it owes."""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

from interpreter.boards import KINDS

ROOT = Path(__file__).resolve().parents[1] / "interpreter"

# the packages in pipeline order (and the command line last)
PIPELINE = ["base", "lang", "library", "draw", "boards", "ir", "load", "check", "engine", "compile", "agents",
            "session", "table", "lab", "picture", "authoring", "editor", "web", "cli"]


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module of `interpreter` the file imports, at its top or inside a function."""
    mod = _module(path)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("interpreter"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("interpreter"):
                continue
            for a in node.names:  # `from . import x` may import a module
                sub = f"{target}.{a.name}"
                out.add(sub if sub in MODULES else target)
    return {m for m in out if m != mod}


MODULES = {_module(p): p for p in ROOT.rglob("*.py")}


@lru_cache(maxsize=None)
def graph() -> dict[str, set[str]]:
    """Each module's imports of modules of `interpreter` (read when a test first asks: not while
    the suite is collected, in every process)."""
    return {m: {t for t in _imports(p) if t in MODULES} for m, p in MODULES.items()}


def _part(mod: str) -> str:
    return mod.split(".")[1] if "." in mod else "interpreter"


def test_each_package_imports_only_packages_before_it():
    wrong = []
    for mod, targets in graph().items():
        here = _part(mod)
        if here not in PIPELINE:
            continue
        for t in targets:
            there = _part(t)
            if there != "interpreter" and there != here and PIPELINE.index(there) > PIPELINE.index(here):
                wrong.append(f"{mod} imports {t}")
    assert not wrong, "\n".join(sorted(wrong))
    assert {_part(m) for m in MODULES} - {"interpreter"} == set(PIPELINE), "a package missing from PIPELINE"


def _circles() -> list[list[str]]:
    """The strongly connected parts of the import graph with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph()[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(graph()):
        if v not in index:
            visit(v)
    return out


def test_no_module_reaches_itself_through_imports():
    circles = _circles()
    assert not circles, "import circles: " + "; ".join(" ↔ ".join(c) for c in circles)


def test_the_tables_view_model_has_no_terminal_code():
    """What a seat sees, as data, is `table/` outside `table/terminal/`: a web page will draw it too."""
    model = [m for m in MODULES if m.startswith("interpreter.table.") and ".terminal" not in m
             and not m.endswith(".commands")]
    assert "interpreter.table.ask" in model
    for mod in model:
        seen, todo = set(), [mod]
        while todo:  # everything it imports, however far
            m = todo.pop()
            if m in seen:
                continue
            seen.add(m)
            todo.extend(graph()[m])
        terminal = [m for m in seen if ".terminal" in m or m.endswith(".text")]
        assert not terminal, f"{mod} reaches {terminal}"
        tree = ast.parse(MODULES[mod].read_text(encoding="utf-8"))
        outside = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        outside |= {(n.module or "").split(".")[0] for n in ast.walk(tree)
                    if isinstance(n, ast.ImportFrom) and not n.level}
        assert not outside & {"rich", "curses", "termios", "readline"}, mod


def test_generic_drawing_names_no_board_kind():
    """The screen, the picture and the drawing helpers ask the kind; they never name one."""
    generic = [p for m, p in MODULES.items()
               if m.startswith(("interpreter.draw", "interpreter.picture", "interpreter.table"))]
    for path in generic:
        text = path.read_text(encoding="utf-8")
        for kind in KINDS:
            assert f'"{kind}"' not in text and f"'{kind}'" not in text, f"{path} names the kind {kind}"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_board_kind_brings_its_model_built_ins_text_and_picture(kind):
    cls = KINDS[kind]
    assert cls.Model is not None and cls.Model.model_fields["kind"].annotation.__args__ == (kind,)
    assert cls.builtins and all(b.kind == kind for b in cls.builtins)
    text, picture = cls.drawing("text"), cls.drawing("picture")
    assert text is not None and callable(text.lines)
    assert picture is not None and callable(picture.paint)


def test_a_command_that_draws_nothing_imports_no_drawing():
    import subprocess
    import sys

    code = ("import sys, interpreter.cli; from interpreter.session.load import load;"
            "from interpreter.engine.game import Game;"
            "from interpreter.session.playing import play; from interpreter.agents.base import RandomAgent;"
            "plan = load('formula5').plan(3); g = Game(plan, 1); play(g, [RandomAgent(i) for i in range(3)]);"
            "print(sorted(m for m in sys.modules if m.startswith('interpreter.boards.')"
            " and m.endswith(('.text', '.picture'))"
            " or m in ('interpreter.draw.canvas', 'interpreter.picture.svg')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT.parent).stdout
    assert out.strip() == "[]"


def test_the_command_line_starts_without_loading_what_its_commands_run():
    """`racecraft --help` (and every command before it runs) imports the command modules only: no
    loader, checker, compiler, engine or web server (the commands import those when they run)."""
    import subprocess
    import sys

    code = ("import sys, interpreter.cli; "
            "print(sorted(m for m in sys.modules if m.startswith('interpreter.')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            cwd=ROOT.parent).stdout
    passes = ("load", "check", "compile", "engine", "agents")
    heavy = [m for m in ast.literal_eval(loaded) if m.split(".")[1] in passes
             or m.startswith(("interpreter.web.app", "interpreter.authoring.validate"))]
    assert heavy == [], heavy


def test_the_command_line_is_thin_and_its_commands_simple():
    """`cli.py` gathers the commands; each lives beside what it runs, in steps a reader follows
    (McCabe complexity at most 10, as ruff counts it)."""
    import subprocess
    import sys

    files = [str(p) for p in [ROOT / "cli.py", *sorted(ROOT.glob("*/commands.py"))]]
    assert len(files) == 6
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "C901", "--config",
                          "lint.mccabe.max-complexity = 10", *files], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert len((ROOT / "cli.py").read_text(encoding="utf-8").splitlines()) < 150


def test_simulate_and_compare_load_the_game_once(monkeypatch, capsys):
    """Reading the player count from the game is the load the run compiles."""
    from interpreter.cli import main
    from interpreter.session import load as session_load

    calls = []
    real = session_load.load_ruleset
    monkeypatch.setattr(session_load, "load_ruleset", lambda *a, **k: calls.append(a) or real(*a, **k))
    assert main(["simulate", "formula5", "--games", "2", "--jobs", "1", "--seed", "915"]) == 0
    assert len(calls) == 1
    calls.clear()
    assert main(["compare", "formula5", "--variant", "short-race", "--games", "2", "--jobs", "1",
                 "--seed", "915"]) == 0
    assert len(calls) == 2  # the base and the variant
    capsys.readouterr()


def test_a_kinds_built_ins_are_names_only_in_games_with_its_board(capsys, tmp_path):
    """A game without a ranking may name a function `place`; with one, `place` is the ranking's."""
    from test_compiler import TINY, game_file

    from interpreter.cli import main

    mine = TINY.replace("functions:\n", 'functions:\n  place:\n    params: {x: int}\n    value: "x + 1"\n', 1)
    mine = mine.replace("s.score += 1", "s.score += place(1)")
    assert main(["validate", str(game_file(tmp_path / "a", mine).parent)]) == 0
    ranked = mine.replace("functions:\n", "boards:\n  grid: {kind: ranking, slots: 2}\nfunctions:\n", 1)
    assert main(["validate", str(game_file(tmp_path / "b", ranked).parent)]) == 1
    assert "`place` is a built-in: it cannot be the name of a function" in capsys.readouterr().err
    # (a built-in of a kind the game has no board of is still found, to say which board it needs:
    # E150, test_diagnostics.py)


# A hand-written module past this many lines does several jobs, and a folder past this many modules
# is several packages (a newcomer reads a file whole, a folder's list at once): split them. A module
# written by a program (it says "do not edit" at its top) is data.
MAX_LINES = 700
MAX_MODULES = 12


def _written_by_hand(path: Path) -> bool:
    return "do not edit" not in path.read_text(encoding="utf-8")[:400]


def test_no_hand_written_module_is_over_700_lines():
    long = [f"{p.relative_to(ROOT.parent)}: {n} lines" for p in MODULES.values()
            if _written_by_hand(p) and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES]
    assert not long, "split these by job:\n" + "\n".join(sorted(long))


def test_no_folder_holds_more_than_12_modules():
    folders: dict[Path, int] = {}
    for p in MODULES.values():
        if p.name != "__init__.py":
            folders[p.parent] = folders.get(p.parent, 0) + 1
    full = [f"{f.relative_to(ROOT.parent)}: {n} modules" for f, n in folders.items() if n > MAX_MODULES]
    assert not full, "make packages of these:\n" + "\n".join(sorted(full))
