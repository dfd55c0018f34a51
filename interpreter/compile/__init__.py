"""The compiler: a checked game to a `Plan` of Python functions and machine code.

    plan = compile_ruleset(ruleset, players, report)

`program.py` drives it: `layout.py` lays out the state, `analysis.py` works out what is known
before any code is written, `statements.py` (statements, a `choose` by `choices.py`) and
`lower.py` (expressions) turn typed trees into Python `ast`, each construct in one place, for code
that never waits and for resumable functions alike; `flownodes.py` are the game's flow as
statements; `inline.py` gives core built-ins Python's own forms; `codegen.py` compiles and records
what it generated.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from ..check import check
from ..check.checked import Checked
from ..check.scenarios import Scenarios
from ..engine.plan import Plan
from ..lang import nodes as n
from ..base.cache import Bounded
from ..base.diagnostics import Diagnostic, Report
from ..load.ruleset import Ruleset
from .codegen import Uncompilable
from .program import Compiler, Hooks, compile_checked


def make_compiler(rs: Ruleset, n_seats: int, report: Report | None = None, hooks: Hooks | None = None,
                  situation: n.Block | None = None, python: bool = False) -> Compiler | None:
    """Check and compile for `n_seats`, with what a scenario adds (`hooks`;
    `situation=` alone is short for `Hooks(situation=...)`); the compiler stays usable for more
    expressions (a scenario's expectations). None when anything is wrong (see `report`).
    `python`: keep each rule's Python (`explain --python`)."""
    report = report if report is not None else Report()
    if situation is not None and hooks is None:
        hooks = Hooks(situation=situation)
    compiler = _checked_compiler(rs, n_seats, report, python)
    if compiler is None:
        return None
    errors = report.errors
    hooks = _checked_hooks(compiler, hooks, report)
    if report.errors > errors:
        return None
    try:
        compiler.build(hooks)
    except Uncompilable as e:  # what Python refused of a rule: said where the rule is
        report.extend(e.report)
        return None
    return compiler


def _checked_compiler(rs: Ruleset, n_seats: int, report: Report, python: bool) -> Compiler | None:
    players = rs.game.game.players
    if not players.min <= n_seats <= players.max:
        count = str(players.min) if players.min == players.max else f"{players.min}-{players.max}"
        applied = f" (with {', '.join(rs.applied)})" if rs.applied else ""
        report.add("E139", f"{rs.game.game.name}{applied} takes {count} players, not {n_seats}",
                   getattr(rs.game.game.name, "loc", None))
        return None
    checked = check(rs, report)
    if checked is None:
        return None
    return Compiler(rs, checked, n_seats, python)


def _checked_hooks(compiler: Compiler, hooks: Hooks | None, report: Report) -> Hooks | None:
    """A scenario's blocks, typed by the game's checker (its problems said in `report`)."""
    if hooks is None:
        return None
    checker: Scenarios = compiler.ck.checker
    checker.problems.report = report
    return replace(hooks, before_setup=hooks.before_setup and checker.situation(hooks.before_setup),
                   situation=hooks.situation and checker.situation(hooks.situation))


@dataclass
class Hooked:
    """A game compiled with what a scenario adds (`compile_hooked`): its plan, and the compiler of
    its game, shared with the other scenarios of that game, for the scenario's expressions."""
    compiler: Compiler
    plan: Plan

    @property
    def ck(self) -> Checked:
        return self.compiler.ck

    @property
    def rules(self) -> Any:
        return self.compiler.rules

    def expectation(self, expr: n.Expr, rule: str = "scenario") -> Callable[..., Any]:
        return self.compiler.expectation(expr, rule)


# The games scenarios are played on, checked and compiled but for their flow, by what they are
# compiled from (as `_PLANS`): a game's scenarios differ only in the flow (what they run before and
# after the setup, where they may stop), and compiling the rest was most of checking one.
_SHARED: Bounded[tuple, tuple[Compiler, list[Diagnostic]]] = Bounded(8)


def _made_from(rs: Ruleset, n_seats: int) -> tuple | None:
    """What a compiled game is made from, as a key (None: a ruleset read from no file, made in memory):
    its files, its folder as it was reached (its positions name the files so), params, seats."""
    return (tuple(rs.files), str(rs.folder), rs.given, n_seats) if rs.files else None


def compile_hooked(rs: Ruleset, n_seats: int, report: Report, hooks: Hooks) -> Hooked | None:
    """The game compiled with a scenario's hooks; None when anything is wrong (see `report`)."""
    key = _made_from(rs, n_seats)
    errors = report.errors
    kept = _SHARED.get(key) if key is not None else None
    if kept is not None:
        compiler = kept[0]
        report.items.extend(kept[1])
    else:
        start = len(report.items)
        made = _checked_compiler(rs, n_seats, report, False)
        if made is None or report.errors > errors:
            return None
        compiler = made
        try:
            compiler.build_rules()
        except Uncompilable as e:
            report.extend(e.report)
            return None
        if key is not None:
            _SHARED[key] = (compiler, report.items[start:])
    checked = _checked_hooks(compiler, hooks, report)
    if report.errors > errors:
        return None
    assert checked is not None
    try:
        return Hooked(compiler, compiler.hooked(checked))
    except Uncompilable as e:
        report.extend(e.report)
        return None


# Games compiled in this process, by what they are compiled from (each file read, where it is and
# the digest of its bytes: positions in a game name its files; the params given to it; the number
# of seats). Playing a game never changes its plan, and a process that
# plays one game many times (a season, the web table, the test suite) compiles it once; what
# checking it said is said again.
_PLANS: Bounded[tuple, tuple[Plan, list[Diagnostic]]] = Bounded(32)


def compile_ruleset(rs: Ruleset, n_seats: int, report: Report | None = None,
                    hooks: Hooks | None = None, python: bool = False) -> Plan | None:
    key = _made_from(rs, n_seats) if hooks is None and not python else None
    kept = _PLANS.get(key) if key is not None else None
    if kept is not None:
        if report is not None:
            report.items.extend(kept[1])
        return kept[0]
    report = report if report is not None else Report()
    start = len(report.items)
    c = make_compiler(rs, n_seats, report, hooks, python=python)
    if c is None:
        return None
    if key is not None:
        _PLANS[key] = (c.plan, report.items[start:])
    return c.plan


def forget_compiled() -> None:
    """Compile every game again from now on (a test that changes the compiler itself)."""
    _PLANS.clear()
    _SHARED.clear()


__all__ = ["compile_ruleset", "compile_hooked", "Hooked", "forget_compiled", "compile_checked",
           "make_compiler", "Compiler", "Hooks", "Uncompilable"]
