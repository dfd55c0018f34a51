"""Errors a ruleset causes while a game runs, and the exception that ends a game.

They live with the language, not the machine: board kinds and built-ins raise them too. A
built-in raises a `RuleError` with a message only; the error boundary (`engine/boundary.py`)
places it at the rule's sub-expression that called the built-in.
"""
from __future__ import annotations

from .diagnostics import Loc


CALLERS = 3   # the calls a rule error names, nearest first


class RuleError(Exception):
    """A rule did something impossible while playing (the ruleset's fault, with its position)."""

    def __init__(self, message: str, loc: Loc | None = None, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.loc = loc
        self.rule = rule
        # the calls that led to the failing rule, outermost first: [(Loc, rule id)]
        self.calls: list[tuple[Loc | None, str]] = []

    def context(self) -> str:
        """Where the failing rule was called from, for a person, the nearest call first (at most
        `CALLERS` of them, the outermost last): empty when it was not."""
        said = [f"`{rule}` at {loc}" if loc is not None else f"`{rule}`"
                for loc, rule in reversed(self.calls[-CALLERS:])]
        if not said:
            return ""
        more = len(self.calls) - CALLERS
        return "called from " + ", from ".join(said) + (f" (and {more} more)" if more > 0 else "")

    def __str__(self) -> str:
        where = f"{self.loc}: " if self.loc else ""
        rule = f" (in rule `{self.rule}`" if self.rule else ""
        ctx = self.context()
        if rule:
            rule += f", {ctx})" if ctx else ")"
        elif ctx:
            rule = f" ({ctx})"
        return f"{where}{self.message}{rule}"


class GameTooLong(RuleError):
    """The game passed its round or step limit: it may never end."""


class RoundLimit(GameTooLong):
    """The game passed its round limit (`limits.max_rounds`): statistics count such a game as
    stopped, apart from games that failed."""


class EndGame(Exception):
    """`end game` unwinds the machine."""


class Outside(Exception):
    """An error raised by whoever answered a decision in place (`State.ask`: an agent called
    from inside the rules), carried out through the rules' error boundary unchanged: it is not
    the rules' error. The machine raises `error` again where it was asked to run."""

    def __init__(self, error: BaseException):
        super().__init__(str(error))
        self.error = error
