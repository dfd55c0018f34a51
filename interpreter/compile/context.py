"""What the lowering knows of the function it is writing: how it reads a rule's locals, and, for
a resumable function (a unit), its waiting points and the locals it keeps across them."""
from __future__ import annotations

import ast
from typing import Any

from ..lang import nodes as n
from . import pyast as P
from .codegen import ident


def local_name(name: str) -> str:
    """The Python name of a rule's local."""
    return ident("v", name) if name.isidentifier() and name.isascii() else f"v_{name.encode().hex()}"


# The tests of `pc` in a unit's code that skip, when it resumes at a point, what ran before it.

def pc() -> ast.Name:
    return P.name("pc")


def not_pc() -> ast.expr:
    """`not pc`: running from the start (or past the last point), not resuming."""
    return ast.UnaryOp(ast.Not(), pc())


def within(lo: int, hi: int) -> ast.expr:
    """`lo <= pc <= hi` (`pc == lo` for one point): resuming at a point inside."""
    if lo == hi:
        return P.compare(pc(), ast.Eq(), P.const(lo))
    return ast.Compare(P.const(lo), [ast.LtE(), ast.LtE()], [pc(), P.const(hi)])


def resumed() -> list[ast.stmt]:
    """`pc = 0`: resumed at its point, the code after it runs as on the way in."""
    return [P.assign(P.store("pc"), P.const(0))]


class Unit:
    """A resumable function being written (`statements.py`): the game's flow, a procedure or a
    trigger that may wait, the block of a `simultaneously`. It runs in a frame `[fn, pc, env]`:
    `pc` is the waiting point it resumes at (0: from the start), `env` holds its locals while it
    waits, so that a game can be copied at any decision."""

    def __init__(self, live: dict[Any, frozenset[str]], returns: bool = False):
        self.points = 0                 # waiting points so far (numbered from 1, in the order written)
        self.locals: dict[str, str] = {}   # its locals and own temporaries: env key -> Python name
        self.types: dict[str, Any] = {}    # its locals' types (of those written so far): env key -> Type
        self.live = live                # the locals live at each waiting statement (`Analysis.liveness`)
        self.temps: list[str] = []      # its own temporaries live here (a loop's list and place)
        self.kept: dict[int, set[str]] = {}   # at each waiting point: what it keeps in `env` (env keys)
        self.saves: list[tuple[ast.If, int]] = []   # what `env` keeps at each point, filled at the end
        self.returns = returns          # a procedure that waits: `return` leaves its frame

    def point(self, key: Any) -> int:
        """A new waiting point, at the statement `key` names (for its live locals)."""
        self.points += 1
        self.kept[self.points] = set(self.live.get(key, ())) | set(self.temps)
        return self.points

    def keep(self, key: str, python: str) -> None:
        self.locals[key] = python

    def save(self, k: int) -> ast.If:
        """The statements keeping in `env` the locals kept at point `k`, filled in when the
        function is done (under an `if True:` that Python compiles away)."""
        block = ast.If(ast.Constant(True), [], [])
        self.saves.append((block, k))
        return block

    def finish(self) -> None:
        """Each point keeps only what is live there and is a local of its own, each in its own
        store (`env['x'] = v_x`)."""
        for k in self.kept:
            self.kept[k] &= set(self.locals)
        for block, k in self.saves:
            names = sorted(self.kept[k])
            values: list[ast.expr] = [ast.Name(self.locals[x], ast.Load()) for x in names]
            env = ast.Name("env", ast.Load())
            # one store each (`env['x'] = v_x`): cheaper than building a dict for `env.update`
            block.body = [ast.Assign([ast.Subscript(env, ast.Constant(x), ast.Store())], v)
                          for x, v in zip(names, values)] or [ast.Pass()]


class Fn:
    """How one generated function reads and writes a rule's locals: as Python locals (`fast`)
    or in the `env` dict it is given (an entry a view, a bot or a prompt calls with the
    locals of a waiting rule)."""

    def __init__(self, fast: bool, unit: Unit | None = None, rule: str = ""):
        self.fast = fast
        self.unit = unit                 # a resumable function: its points and kept locals
        self.rule = rule                 # the rule being lowered (where an error is, in a unit)
        self.comp: dict[int, str] = {}   # id(Local) of a comprehension variable -> its Python name
        self.count = 0
        # statements to run before the statement being lowered (the list a comprehension goes
        # through, and its count of steps), while what is lowered is evaluated unconditionally
        self.hoist: list | None = None
        self.in_iterable = False  # lowering a comprehension's list: Python allows no `:=` there
        self.given: dict[int, ast.expr] = {}  # id(Local) of an inlined function's parameter -> its argument
        self.decider: n.Expr | None = None    # who chooses when a `choose` says no `by`
        # id(node) of a part of a comprehension the same each time round -> the name its value is
        # kept in once computed (`Lowerer.x_Comp`)
        self.lazy: dict[int, str] = {}

    def tmp(self, base: str = "t") -> str:
        self.count += 1
        return f"{base}{self.count}"

    def kept(self, base: str) -> str:
        """A temporary of a unit that lives across its waiting points (kept in `env` as `__NAME`)."""
        name = self.tmp(base)
        if self.unit is not None:
            self.unit.keep(f"__{name}", name)
        return name
