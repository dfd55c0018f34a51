"""The statements of the game's flow that no rule writes: the compiler builds the main program
from the rules with these (`program.py`) and lowers it like any rule (`statements.py`).

A phase's rounds are `Rounds`, its turns a `For` over its order, a step an `If` around the
step's `RuleBlock`, a built-in event an `Emit`: the phase machine is ordinary generated code.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..lang import nodes as n
from ..base.diagnostics import Loc


@dataclass(eq=False)
class RuleBlock(n.Stmt):
    """A rule's statements run by the flow (the setup, a phase's block, a step's block): traced
    and counted as the rule starting. `decider`: who chooses when a `choose` says no `by` (an
    expression of the turn), or None."""
    rule: str
    body: list[n.Stmt]
    mark: Loc | None                 # the position the trace gives for the rule starting
    decider: n.Expr | None = None


@dataclass(eq=False)
class StepIf(n.If):
    """A step's `if` around its block (`rule`: the test's own rule, `steps.ID.if`)."""
    rule: str = field(default="", kw_only=True)


@dataclass(eq=False)
class Turns(n.For):
    """A round's turns: the phase's order, gone through (`rule`: the order's, `phases.ID.order`)."""
    rule: str = field(default="", kw_only=True)


@dataclass(eq=False)
class Mark(n.Stmt):
    """A phase starting, in the trace."""
    rule: str


@dataclass(eq=False)
class Stop(n.Stmt):
    """A place a scenario may stop the game at (`step:ID`, `event:NAME`): a waiting point,
    compiled only for a scenario that asks for stops."""
    name: str


@dataclass(eq=False)
class HookCall(n.Stmt):
    """A scenario's block (`before_setup`, `situation`) run where the flow reaches it: a call of
    the unit the plan holds under `rule` (`Plan.hooks`), so that the flow itself is the same code
    for every scenario of a game (compiled once: `Compiler.hooked`). A waiting point."""
    rule: str


@dataclass(eq=False)
class Rounds(n.Stmt):
    """A phase's rounds: `round` set to `first`, then each round counted (and checked against the
    round limit) and `body` run, until `until` holds or `rounds` rounds are played."""
    rule: str
    first: int
    body: list[n.Stmt]
    until: n.Expr | None
    rounds: int | None


@dataclass(eq=False)
class Records(n.Stmt):
    """The game's `record:` values, kept for each seat when the game starts."""
    entries: dict[str, Callable[..., Any]] = field(default_factory=dict)


FLOW = (RuleBlock, Mark, Stop, HookCall, Rounds, Records)
