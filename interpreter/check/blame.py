"""A problem the rules have with what a patch changed is said at the patch.

A module, a variant, a season or `--param` that gives a declaration a value the rules cannot use
(`set: params.hand_size` to a text) makes the base rules wrong where they read it, in another
file. The checker says which declarations each problem is about (`Diagnostic.about`: the params,
state variables, functions, piles and cards its expression reads, through the functions it calls
and the locals it was computed from); this pass moves each problem about a declaration a patch
changed to the patch's own line, with the rule's line second, and says it once per patch: the
other places that read it are counted, not listed.
"""
from __future__ import annotations

from typing import Iterable

from ..lang import nodes as n
from ..lang.diagnostics import Diagnostic, Loc, Report

# the declarations a bare name, an attribute or a call may be (a name is resolved by the checker
# in this order; a patch changed one of them)
_NAME_KINDS = ("params", "state", "piles", "boards", "pieces")


def names_in(tree: n.Node) -> set[str]:
    """The declarations the names of a tree may stand for, by their spelling (`hand_size` is
    `params.hand_size` or `state.hand_size`, ...; `s.score` is `state.score` or a card's property
    `props.score`; `f(x)` is
    `functions.f`, `procedures.f` or `piles.f`)."""
    out: set[str] = set()
    for x in n.walk(tree):
        if isinstance(x, n.Name):
            out.update(f"{k}.{x.id}" for k in _NAME_KINDS)
        elif isinstance(x, n.Attr):
            out.update((f"state.{x.name}", f"props.{x.name}"))
        elif isinstance(x, n.Call):
            out.update((f"functions.{x.name}", f"procedures.{x.name}", f"piles.{x.name}"))
    return out


def blame_patches(report: Report, start: int, changed: dict[str, Loc | None]) -> None:
    """The problems of `report` from `start` on, each about a declaration in `changed` (where the
    patch that changed it is written; None: on the command line) and found in another file than
    that patch, said at the patch instead: once per patch, with the first place in the rules that
    reads it, and how many more there are."""
    if not changed:
        return
    kept: list[Diagnostic] = []
    said: dict[object, tuple[Diagnostic, list[int]]] = {}   # by the patch (or the declaration)
    for d in report.items[start:]:
        culprit = _culprit(d, changed)
        if culprit is None:
            kept.append(d)
            continue
        key, at = culprit
        first = said.get(at if at is not None else key)
        if first is not None:
            first[1][0] += 1
            continue
        if at is not None:
            message, what = d.message, f"where the game has `{key}`, which this patch changes"
        else:
            message = f"`--param {key.split('.', 1)[1]}=...` (on the command line): {d.message}"
            what = f"where the game has `{key}`"
        moved = Diagnostic(d.code, message, at, d.hint, d.severity, d.notes,
                           also=(what, d.loc) if d.loc else None)
        count = [0]
        said[at if at is not None else key] = (moved, count)
        kept.append(moved)
    for moved, count in said.values():
        if count[0]:
            moved.notes = (*moved.notes, f"and {count[0]} more place{'s' if count[0] > 1 else ''}")
    report.items[start:] = kept


def _culprit(d: Diagnostic, changed: dict[str, Loc | None]) -> tuple[str, Loc | None] | None:
    """(the declaration, where its patch is) a problem is about, when a patch changed one of the
    declarations it is about and the problem is not in that patch's own file."""
    for key in _ordered(d.about, changed):
        at = changed[key]
        if d.loc is None or at is None or d.loc.file != at.file:
            return key, at
    return None


def _ordered(about: Iterable[str], changed: dict[str, Loc | None]) -> list[str]:
    """The declarations of `about` that were changed, in the order the patches changed them."""
    mine = set(about)
    return [k for k in changed if k in mine]


__all__ = ["blame_patches", "names_in"]
