"""A file's outline: its sections, and in each what it declares (a function, a pile, a phase and its
steps, a trigger), or its patches (`add functions the_value`, `extend setup`), each with the lines
it spans. Read from the file's text as the loader reads YAML (`parse_yaml`); any kind of file has
one (a cards file's cards, a scenario's sections). A text that is not YAML has none.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..base.diagnostics import Report
from ..load.patches import OPS
from ..load.yamlsrc import loc_of, parse_yaml

MAX_DEPTH = 3   # sections, what they declare, a phase's steps


@dataclass
class Entry:
    """One item of the outline: its name, what it is (the section it is in), and its lines (from 1;
    `last`: the line before the next item)."""
    name: str
    what: str
    line: int
    col: int
    last: int = 0
    children: list["Entry"] = field(default_factory=list)


def outline(text: str, name: str) -> list[Entry] | None:
    """The outline of a file's text (None: it is not YAML that can be read)."""
    data = parse_yaml(text, name, Report())
    if not isinstance(data, dict):
        return None
    entries = _of_map(data, "section", 1)
    _close(entries, text.count("\n") + 1)
    return entries


def _of_map(data: dict, what: str, depth: int) -> list[Entry]:
    out = []
    for key, value in data.items():
        loc = loc_of(key)
        if loc is None or not loc.line:
            continue
        entry = Entry(str(key), what, loc.line, loc.col)
        if depth == 1 or (depth < MAX_DEPTH and isinstance(value, list)):   # (not a function's `do`)
            entry.children = _of(value, str(key), depth + 1)
        out.append(entry)
    return out


def _of(value: Any, section: str, depth: int) -> list[Entry]:
    if isinstance(value, dict):
        return _of_map(value, section, depth)
    if not isinstance(value, list):
        return []
    out = []
    for item in value:
        loc = loc_of(item)
        if not isinstance(item, dict) or loc is None or not loc.line:
            continue
        named = _named(item, section)
        if named is None:
            continue
        entry = Entry(named[0], named[1], loc.line, loc.col)
        if depth < MAX_DEPTH:   # a phase's steps
            entry.children = [c for key, inner in item.items() if isinstance(inner, list)
                              for c in _of(inner, str(key), depth + 1)]
        out.append(entry)
    return out


def _named(item: dict, section: str) -> tuple[str, str] | None:
    """An item of a list: by its `id` (a phase, a step, a trigger, a card), or a patch by what it
    does and to what (`add functions the_value`)."""
    ops = [op for op in OPS if item.get(op) is not None]
    if section == "patches" and len(ops) == 1:
        target = item[ops[0]]
        ident = item.get("id")
        return " ".join(str(x) for x in (ops[0], target, ident) if isinstance(x, (str, int))), "patch"
    ident = item.get("id")
    if isinstance(ident, (str, int)):
        return str(ident), section
    return None


def _close(entries: list[Entry], end: int) -> None:
    """Each entry's last line: the line before the next one's (the last one's: its parent's)."""
    for i, e in enumerate(entries):
        e.last = max(e.line, (entries[i + 1].line - 1) if i + 1 < len(entries) else end)
        _close(e.children, e.last)
