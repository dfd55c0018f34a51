"""The docs say what the program does.

Every fenced `console` block of docs/*.md and README.md is a transcript: each `$ racecraft ...` line is
run and what it prints is compared with the lines under it, so that no example can drift from the
program (docs/README.md says how a block is written: `...` for what varies, `<!-- input: ... -->` for
what a person types, `<!-- setup: ... -->` for the files a block needs, `<!-- edit: ... -->` for a
change the reader makes to a file first). Each block is one test, run in a fresh copy of the
project's rulesets, cards and tracks. And the README's quick start works as
written on a Python that refuses to install outside a virtual environment; CI runs its test command.
"""
from __future__ import annotations

import contextlib
import difflib
import io
import os
import re
import shlex
import shutil
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
BLOCK = re.compile(r"^```console\n(.*?)^```", re.S | re.M)
NOTE = re.compile(r"<!--\s*(input|setup|edit):\s*(.*?)\s*-->", re.S)
MORE = "..."


class Block:
    """A console block: where it is, the notes just before it, its commands and their output."""

    def __init__(self, page: Path, line: int, text: str, notes: dict[str, list[str]]):
        self.page, self.line, self.notes = page, line, notes
        self.steps: list[tuple[str, list[str]]] = []   # (command, the lines it prints)
        self.problem = ""
        for row in text.splitlines():
            if row.startswith("$ "):
                self.steps.append((row[2:], []))
            elif self.steps:
                self.steps[-1][1].append(row)
            else:
                self.problem = "a console block starts with `$ COMMAND` (a block not to run is ```text)"

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


@lru_cache(maxsize=None)
def blocks() -> list[Block]:
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            before = text[:m.start()].rstrip().rsplit("\n\n", 1)[-1]  # the paragraph just before
            notes: dict[str, list[str]] = {}
            for kind, body in NOTE.findall(before):  # what is typed: lines split by `|`; else one a note
                notes.setdefault(kind, []).extend([p.strip() for p in body.split("|")] if kind == "input"
                                                  else [body if kind == "edit" else " ".join(body.split())])
            out.append(Block(page, text[:m.start()].count("\n") + 2, m.group(1), notes))
    return out


# ---- a transcript compared with what the program printed ------------------------------------------

def fits(expected: list[str], actual: list[str]) -> bool:
    """Whether the lines printed fit the lines written: a line `...` stands for any lines (none
    too), `...` inside a line for any text of that line; trailing spaces do not count."""
    pattern = [None if e.strip() == MORE else re.compile(".*?".join(map(re.escape, e.rstrip().split(MORE))))
               for e in expected]
    memo: dict[tuple[int, int], bool] = {}

    def at(i: int, j: int) -> bool:
        if (i, j) not in memo:
            if i == len(pattern):
                memo[i, j] = j == len(actual)
            elif pattern[i] is None:
                memo[i, j] = at(i + 1, j) or (j < len(actual) and at(i, j + 1))
            else:
                memo[i, j] = j < len(actual) and bool(pattern[i].fullmatch(actual[j].rstrip())) \
                    and at(i + 1, j + 1)
        return memo[i, j]

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * (len(expected) + len(actual)) + 1000))
    return at(0, 0)


class _Typed(io.StringIO):
    """What a person types, line by line (not a terminal: what is read is shown after the prompt)."""

    def isatty(self) -> bool:
        return False


def run(command: str, typed: list[str], last: int) -> tuple[int, str]:
    """A command of a block run here, as a terminal would show it: the output and the error stream in
    the order they were written, after the person typed `typed`; `echo $?` says the last exit code."""
    argv = shlex.split(command)
    if argv == ["echo", "$?"]:
        return last, f"{last}\n"
    assert argv[0] == "racecraft", f"a console block runs racecraft commands (and `echo $?`): {command}"
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown), contextlib.redirect_stderr(shown):
        old = sys.stdin
        sys.stdin = _Typed("".join(f"{t}\n" for t in typed))
        try:
            code = main(argv[1:])
        except SystemExit as e:  # argparse's usage errors
            code = e.code if isinstance(e.code, int) else 1
        finally:
            sys.stdin = old
    return code, shown.getvalue()


def _copy_project(folder: Path) -> Path:
    for part in ("rulesets", "cards", "tracks"):
        shutil.copytree(ROOT / part, folder / part)
    return folder


def _listing(folder: Path) -> list[tuple[str, int, int]]:
    return sorted((str(p.relative_to(folder)), p.stat().st_mtime_ns, p.stat().st_size)
                  for p in folder.rglob("*"))


@pytest.fixture(scope="session")
def shared_project(tmp_path_factory):
    """One copy of what the docs' commands read for the blocks that change nothing in it (most):
    a copy for each block was 250 files written and deleted each time."""
    return _copy_project(tmp_path_factory.mktemp("docs-project"))


@pytest.fixture
def project(request, shared_project, tmp_path, monkeypatch):
    """A copy of what the docs' commands read as it is shipped, as the current folder: a block that
    edits a file gets a copy of its own; any other shares one, made again when a block left it
    changed (a file written, as `--out` does)."""
    block = request.node.callspec.params["block"]
    folder = _copy_project(tmp_path / "project") if block.notes.get("edit") else shared_project
    before = _listing(folder) if folder is shared_project else None
    monkeypatch.chdir(folder)
    # progress is drawn on the error stream while games run (a bar on a terminal, gone when they
    # end): no part of a transcript
    monkeypatch.setattr("interpreter.lab.commands._progress_bar", lambda args, total, what: (None, None))
    monkeypatch.setenv("COLUMNS", "80")
    # one process a command: the suite's workers keep the cores busy already, and each command's own
    # workers (simulate's, validate's) were a quarter of these tests' processor time (the processes
    # are tested on their own: test_validate, test_engine)
    monkeypatch.setattr("os.cpu_count", lambda: 1)
    # a home of its own: what `play` keeps in the user's data folder is shown as a reader's would be
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    yield folder
    if before is not None and _listing(folder) != before:
        monkeypatch.chdir(tmp_path)
        shutil.rmtree(folder)
        folder.mkdir()
        _copy_project(folder)


@pytest.mark.parametrize("block", blocks(), ids=lambda b: b.name)
def test_a_console_block_is_what_the_program_prints(block, project):
    assert not block.problem, f"{block.name}: {block.problem}"
    for change in block.notes.get("edit", []):
        path, _, change = change.partition(": ")
        old, _, new = change.partition("→")
        old, new = (part.replace("\\n", "\n") for part in (old.removesuffix(" "), new.removeprefix(" ")))
        text = (project / path).read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{block.name}: the edit's `{old}` is not once in {path}"
        (project / path).write_text(text.replace(old, new), encoding="utf-8")
    code = 0
    for command in block.notes.get("setup", []):
        code, shown = run(command, [], code)
        assert code == 0, f"{block.name}: setup `{command}` failed:\n{shown}"
    typed = block.notes.get("input", [])
    for command, expected in block.steps:
        code, shown = run(command, typed, code)
        actual = shown.rstrip("\n").split("\n") if shown.strip() else []
        while expected and not expected[-1].strip():
            expected = expected[:-1]
        if not fits(expected, actual):
            diff = "\n".join(difflib.unified_diff(expected, actual, "the docs", "the program", lineterm=""))
            pytest.fail(f"{block.name}: `$ {command}` prints otherwise (exit {code}):\n{diff}\n\n"
                        f"what it prints:\n{shown}", pytrace=False)


def test_the_transcripts_are_read_as_written():
    assert fits(["a", "...", "d"], ["a", "b", "c", "d"]) and fits(["a", "...", "b"], ["a", "b"])
    assert fits(["took ... s (... games)"], ["took 3.2 s (40 games)"])
    assert not fits(["a", "b"], ["a", "c"]) and not fits(["a"], ["a", "b"]) and not fits(["a ... c"], ["a b"])
    assert len(blocks()) > 30


# ---- the quick start -----------------------------------------------------------------------------

def quick_start() -> list[str]:
    """The commands of the README's quick start (its `sh` blocks), in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [c.strip() for c in re.findall(r"```sh\n(.*?)```", section, re.S)]


def test_the_quick_start_is_two_commands_in_a_virtual_environment(capsys):
    commands = quick_start()
    assert len(commands) == 2
    for command in commands:
        assert "\n" not in command
        steps = [shlex.split(s) for s in command.split("&&")]
        # a virtual environment made first, then only its own programs: never a bare pip or python
        assert steps[0] == ["python3", "-m", "venv", ".venv"]
        for step in steps[1:]:
            assert step[0].startswith(".venv/bin/"), step
    play = shlex.split(commands[0].split("&&")[-1])
    assert play[0] == ".venv/bin/racecraft" and play[1] == "play"
    assert main(play[1:]) == 0
    assert "Result:" in capsys.readouterr().out
    assert shlex.split(commands[1].split("&&")[-1])[1:4] == ["-m", "pytest", "-q"]


def test_ci_runs_the_readmes_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert quick_start()[1] in ci
    assert os.access(ROOT / ".ci" / "run", os.X_OK)


def test_the_builtins_page_is_written_from_the_board_kinds():
    """docs/builtins.md is the board kinds' own declarations: a built-in added or changed without
    writing it again (`python -m interpreter.authoring.reference`) fails here."""
    from interpreter.authoring.reference import DOCS, reference

    assert DOCS.read_text(encoding="utf-8") == reference(), \
        "docs/builtins.md is stale: run `python -m interpreter.authoring.reference`"
    assert "| `put_at(piece, lanes, int, int)` | effect |" in reference()
