"""Argument checks shared by every built-in: the core ones and those of board kinds."""
from __future__ import annotations

from .types import compatible


def _arity(c, name, args, node, n):
    if len(args) != n:
        c.error("E124", f"`{name}` takes {n} argument(s), got {len(args)}", node)
        return False
    return True


def _want(c, tree, sc, want, what):
    """The source of an argument that must have type `want` (reported otherwise)."""
    src, typ = c.gen(tree, sc)
    if not compatible(typ, want):
        c.type_error(f"{what} must be {want}, not {typ}", tree)
    return src
