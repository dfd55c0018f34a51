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

from dataclasses import replace

from ..check import check
from ..check.scenarios import Scenarios
from ..engine.plan import Plan
from ..lang import nodes as n
from ..base.diagnostics import Report
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
    if hooks is not None:
        errors = report.errors
        checker: Scenarios = checked.checker
        hooks = replace(hooks, before_setup=hooks.before_setup and checker.situation(hooks.before_setup),
                        situation=hooks.situation and checker.situation(hooks.situation))
        if report.errors > errors:
            return None
    compiler = Compiler(rs, checked, n_seats, python)
    try:
        compiler.build(hooks)
    except Uncompilable as e:  # what Python refused of a rule: said where the rule is
        report.extend(e.report)
        return None
    return compiler


def compile_ruleset(rs: Ruleset, n_seats: int, report: Report | None = None,
                    hooks: Hooks | None = None, python: bool = False) -> Plan | None:
    c = make_compiler(rs, n_seats, report, hooks, python=python)
    return None if c is None else c.plan


__all__ = ["compile_ruleset", "compile_checked", "make_compiler", "Compiler", "Hooks", "Uncompilable"]
