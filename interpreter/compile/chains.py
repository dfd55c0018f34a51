"""Chains of `if ... elif ...` whose depth does not grow with their length.

Python nests each `elif` inside the `if` before it, and compiling a tree some thousand deep fails
(the compiler's own recursion limit). A chain the compiler writes for each waiting point of a
unit, or for each option of a `choose`, is as long as the game makes it: the flow of a game with
a thousand `choose`s in its steps, a named choice to which modules add hundreds of options. Up to
CHAIN branches, a chain is written as it always was; a longer one is split.
"""
from __future__ import annotations

import ast

from . import pyast as P

CHAIN = 32   # branches of one `if ... elif ...` chain


def by_value(var: str, cases: list[tuple[int, list[ast.stmt]]]) -> list[ast.stmt]:
    """`if var == k: BODY elif ...` for `cases` (k ascending, each k once); a longer chain than
    CHAIN is split into halves by `var < k` (a search in halves: fewer tests, and as deep as
    the halvings)."""
    if len(cases) <= CHAIN:
        chain: list[ast.stmt] = []
        for k, body in reversed(cases):
            chain = [ast.If(P.compare(P.name(var), ast.Eq(), P.const(k)), body, chain)]
        return chain
    half = len(cases) // 2
    return [ast.If(P.compare(P.name(var), ast.Lt(), P.const(cases[half][0])),
                   by_value(var, cases[:half]), by_value(var, cases[half:]))]


def exclusive(branches: list[ast.If]) -> list[ast.stmt]:
    """Branches (each an `if` without `else`) as `if ... elif ...`, when at most one of their tests
    holds and running a branch's body makes none of the tests after it hold: a longer chain than
    CHAIN is written as chains of CHAIN one after another (a test after the one that held is then
    tried too, and does not hold)."""
    out: list[ast.stmt] = []
    for start in range(0, len(branches), CHAIN):
        chain: list[ast.stmt] = []
        for branch in reversed(branches[start:start + CHAIN]):
            branch.orelse = chain
            chain = [branch]
        out += chain
    return out
