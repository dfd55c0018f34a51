"""Racecraft: check, a scenario's rules. Stage: after the whole game passed (`check`), once for
each scenario that plays it. Reads what the typing pass knows of the game (its names, the types
of its functions and procedures) and what may wait for a decision (`calls.py`); its one output
is a scenario's rule typed: a copy of its situation (statements that arrange the table), of an
expectation (a condition), or of a value it remembers.

A scenario's names are its own: the values it remembered so far (`names`), which may not hide
the game's. Its situation may not wait for a decision: the decisions are the script's.
"""
from __future__ import annotations

from ..lang import nodes as n
from ..base.diagnostics import Loc, Report
from ..lang.parser import keywords
from ..lang.types import BOOL, Type
from .blame import Problems
from .calls import may_wait
from .checked import Checked, Local
from .expressions import Scope
from .statements import Statements


class Scenarios:
    """Checks the rules a scenario adds to a checked game (`Checked.checker`), with the game's
    typing pass (`st`, and its expressions' `st.ex`): each problem said in `report`."""

    def __init__(self, st: Statements, problems: Problems, checked: Checked):
        self.st = st
        self.problems = problems
        self.checked = checked

    @property
    def report(self) -> Report:
        return self.problems.report

    @report.setter
    def report(self, report: Report) -> None:
        self.problems.report = report

    def type_error(self, msg: str, node: n.Node | Loc | None, hint: str | None = None) -> Type:
        """A scenario's own type error (`expect_seat` of another type), said as the checker says one."""
        return self.problems.type_error(msg, node, hint)

    def situation(self, block: n.Block) -> n.Block:
        """A scenario's block of statements, typed (a copy)."""
        block = n.clone(block)
        self.st.block(block.body, Scope({}, "situation"))
        if may_wait(block.body, self.checked.waits):
            self.problems.error("E142", "a scenario's situation cannot wait for a decision", block,
                                "arrange the table with statements; script the decisions under `script:`")
        return block

    def expectation(self, expr: n.Expr, names: dict[str, Type] | None = None) -> n.Expr:
        """A scenario's condition, typed (a copy); `names`: the values it remembered so far, by type."""
        expr = n.clone(expr)
        self.st.ex.want(expr, _scope(names), BOOL, "an expectation", loose=True)
        return expr

    def scenario_value(self, expr: n.Expr, names: dict[str, Type] | None = None) -> tuple[n.Expr, Type]:
        """A value a scenario remembers, or the seat it expects to decide: typed (a copy), and its type."""
        expr = n.clone(expr)
        return expr, self.st.ex.expr(expr, _scope(names))

    def scenario_name(self, name: str) -> str | None:
        """Why a scenario cannot `remember` a value under this name, or None when it can."""
        if name in keywords():
            return f"`{name}` is a word of the rule language, not a name"
        if name.startswith("__"):
            return f"`{name}`: names starting with `__` are the engine's"
        if name in self.checked.symbols.global_names():
            return f"`{name}` is a name of the game: a remembered value would hide it"
        return None


def _scope(names: dict[str, Type] | None) -> Scope:
    return Scope({k: Local(k, t) for k, t in (names or {}).items()}, "scenario")
