"""No shipped module or variant copies a base rule: a module or variant changes the base through
patches and extensions (principle 2), so a fix of the base reaches every game made of it.

Each rule text a module or variant writes (an extension, an added or replaced procedure, step,
trigger or option) is compared with the rules of the game it patches (the base game with the
modules and variants the file requires, as merged): each block is read as the list of its
statements in the order they are written, nested ones included, each in the engine's own spelling
with what it says blanked (a copy that only rewords a `say` or a label is still a copy) and names
of statements left out; a run of `RUN` or more of them found in the same order in a base rule is
a copy.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Iterator

from interpreter.lang import nodes as n
from interpreter.lang import unparse
from interpreter.base.diagnostics import Report
from interpreter.lang.parser import parse_block, parse_option
from interpreter.load.rules import blocks
from interpreter.load.ruleset import load_ruleset
from interpreter.load.yamlsrc import parse_yaml

ROOT = Path(__file__).resolve().parents[1]
RUN = 6   # statements: a copy of six or more is flagged

# the keys of a patch file whose values are statements
_BLOCK_KEYS = ("do", "around", "before", "after")


def _blank(s: n.Stmt) -> None:
    """What it says to players blanked (a copy that rewords a line, a prompt or a label is still a
    copy)."""
    if isinstance(s, n.Say):
        s.message = n.Text(None, [""])
    elif isinstance(s, n.Choose):
        s.prompt = None
        for o in s.options:
            o.label = n.Text(None, [""])


def _lines(stmts: list[n.Stmt]) -> Iterator[str]:
    """Each statement of a block, nested ones included, in the order written: a compound
    statement by its header, a simple one whole."""
    for s in stmts:
        _blank(s)
        s.name_tag = None
        if isinstance(s, n.If):
            for i, br in enumerate(s.branches):
                yield f"{'if' if i == 0 else 'elif'} {unparse.expr(br.cond)}:"
                yield from _lines(br.body)
            if s.orelse is not None:
                yield "else:"
                yield from _lines(s.orelse)
        elif isinstance(s, (n.For, n.While, n.Simultaneously, n.Choose)):
            head = unparse.stmt(s).split("\n", 1)[0]
            yield head
            if isinstance(s, n.Choose):
                for o in s.options:
                    o.name_tag = None
                    yield unparse.stmt(n.Choose(None, None, None, [o])).split("\n")[1].strip()
                    yield from _lines(o.body)
            else:
                yield from _lines(s.body)
        else:
            yield unparse.stmt(s).strip()


def _texts(node: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """(key, text) of each string of a patch file's patches under a key that holds statements
    or an option."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _texts(v, str(k))
    elif isinstance(node, list):
        for v in node:
            yield from _texts(v, key)
    elif isinstance(node, str) and key in (*_BLOCK_KEYS, "option"):
        yield key, node


def _own_blocks(path: Path) -> list[list[str]]:
    data = parse_yaml(path.read_text(encoding="utf-8"), str(path), Report())
    out = []
    for key, text in _texts(data.get("patches", [])):
        report = Report()
        if key == "option":
            option = parse_option(text, report)
            tree = None if option is None else n.Choose(None, None, None, [option])
            body = [] if tree is None else [tree]
        else:
            block = parse_block(text, report)
            body = [] if block is None else block.body
        if body:
            out.append(list(_lines(body)))
    return out


def _base_lines(folder: Path, kind: str, requires: list[str]) -> list[list[str]]:
    modules = [r for r in requires if (folder / "modules" / f"{r}.yaml").exists()]
    variants = [r for r in requires if r not in modules]
    rs = load_ruleset(folder, modules=modules, variants=variants, report=Report())
    assert rs is not None, (folder, requires)
    return [list(_lines(body)) for _rule, body in blocks(rs.rules)]


def copies() -> list[tuple[str, list[str]]]:
    """(a module or variant file, the statements it copies) for each copy of RUN or more statements."""
    found = []
    for folder in sorted(p for p in (ROOT / "rulesets").iterdir() if (p / "game.yaml").is_file()):
        for kind in ("modules", "variants"):
            for path in sorted((folder / kind).glob("*.yaml")):
                data = parse_yaml(path.read_text(encoding="utf-8"), str(path), Report())
                header = data.get(kind[:-1], {})
                base = _base_lines(folder, kind, [str(r) for r in header.get("requires", [])])
                runs = {tuple(b[i:i + RUN]) for b in base for i in range(len(b) - RUN + 1)}
                for own in _own_blocks(path):
                    for i in range(len(own) - RUN + 1):
                        if tuple(own[i:i + RUN]) in runs:
                            found.append((str(path.relative_to(ROOT)), own[i:i + RUN]))
                            break
    return found


def test_no_module_or_variant_copies_a_base_rule():
    assert copies() == []


def test_the_check_finds_a_copy(tmp_path, monkeypatch):
    """A variant that restates the base game's pit stop is found."""
    import shutil

    for part in ("rulesets/formula5", "cards/formula5"):
        shutil.copytree(ROOT / part, tmp_path / part)
    (tmp_path / "tracks").mkdir()
    game = (ROOT / "rulesets/formula5/game.yaml").read_text(encoding="utf-8")
    start = game.index("      car.pitted = true")
    end = "      draw n from deck to hand(car.owner)\n"
    body = game[start:game.index(end) + len(end)]
    (tmp_path / "rulesets/formula5/variants/copy.yaml").write_text(
        "variant: {id: copy, name: Copy, description: a copy}\npatches:\n"
        "  - replace: procedures.pit_stop\n    with:\n      params: {car: piece}\n      do: |\n"
        + "".join("  " + line + "\n" for line in body.splitlines()), encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert [f for f, _run in copies()] == ["rulesets/formula5/variants/copy.yaml"]
