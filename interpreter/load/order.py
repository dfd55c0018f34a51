"""The order of a game's modules and variants, and what that order must not decide.

Modules apply first, then variants, each in the order listed: a module a variant requires is
applied with the modules. The order stays the designer's to choose only where it cannot change
the game: every `change:` (a whole number made more or less) applies after every other patch,
so that `set: laps` of one add-on and `change: laps by 1` of another give the same laps listed
either way, and two modules (or two variants) that `set:` one value to different values, neither
requiring the other, cannot be played together (E055): which one is listed last would decide. A
variant's value over a module's holds: variants apply after modules, however they are listed.
"""
from __future__ import annotations

import json
from typing import Any

from ..base.diagnostics import Report
from .patches import plain
from .yamlsrc import loc_of


def modules_first(needs: dict[str, list[str]], files: list) -> list:
    """The patch files (kind, name, path, data) with the modules first (those a variant requires
    too), then the variants, each in its order. A module that requires a variant stays after it,
    with the variants."""
    kinds = {str(f[2]): f[0] for f in files}

    def needs_variant(path: str, seen: frozenset = frozenset()) -> bool:
        return any(kinds.get(n) == "variant" or (n not in seen and needs_variant(n, seen | {n}))
                   for n in needs.get(path, []))
    early = [f for f in files if f[0] == "module" and not needs_variant(str(f[2]))]
    return early + [f for f in files if not any(f is e for e in early)]


def requires(needs: dict[str, list[str]], a: str, b: str) -> bool:
    """The add-on file `a` requires `b`, itself or through what it requires."""
    seen, todo = set(), list(needs.get(a, []))
    while todo:
        n = todo.pop()
        if n == b:
            return True
        if n not in seen:
            seen.add(n)
            todo.extend(needs.get(n, []))
    return False


class Clashes:
    """The values add-ons `set:`, to find two that set one value differently (`clash`)."""

    def __init__(self, needs: dict[str, list[str]], files: list):
        self.needs, self.files = needs, files
        self.set: dict[str, tuple[int, Any]] = {}   # address -> (its file's index, the value)

    def clash(self, i: int, patches: list[tuple], report: Report) -> None:
        """The `set:` patches of file `i` (applied): one that another file of its kind set to
        another value is E055, unless one of the two requires the other (then its value is meant
        to hold)."""
        kind, name, path = self.files[i][0], self.files[i][1], str(self.files[i][2])
        for patch, op, address in patches:
            if op != "set" or "to" not in patch:
                continue
            value = plain(patch["to"])
            j, before = self.set.get(address.text, (i, value))
            other = str(self.files[j][2])
            # (a variant's value over a module's is no clash: variants apply after modules)
            if j != i and before != value and self.files[j][0] == kind and \
                    not requires(self.needs, path, other) and not requires(self.needs, other, path):
                them = f"{self.files[j][0]} `{self.files[j][1]}`"
                report.add("E055", f"{kind} `{name}` sets `{address.text}` to {_said(value)}, {them} to "
                                   f"{_said(before)}: played together, the order they are listed in would "
                                   "decide", loc_of(patch[op]),
                           "play one of them; or, if one is made to go with the other, name the other in "
                           "its `requires:` (it is then applied after it, and its value holds)")
                continue
            self.set[address.text] = (i, value)


def _said(value: Any) -> str:
    """A value as a file writes it (YAML's flow style: `[1, 2]`, `"text"`)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)
