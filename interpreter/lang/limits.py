"""The engine's ceilings: what no ruleset can exceed, whatever its own `limits:` say.

A ruleset is untrusted input. Its rules may loop, build lists and compute numbers; these bounds
keep any of that within about a second and a few megabytes before it stops with a rule error.
"""
from __future__ import annotations

from enum import Enum

from .errors import GameTooLong

MAX_INT = 10 ** 18          # the largest number a rule may hold (either sign)
MAX_LIST = 100_000          # items in one list (a range, a joined list)
MAX_TEXT = 100_000          # characters in one text
MAX_STEPS = 10_000_000      # a ruleset's `max_steps` is capped here
MAX_ROUNDS = 100_000        # a ruleset's `max_rounds` is capped here
MAX_NUMBER_DIGITS = len(str(MAX_INT))


class Steps(Enum):
    """What a game's steps (`limits.max_steps`) were counting when it ran past them: every check
    of the step limit, in generated code or in the engine, says it through `too_many`."""
    LOOPS = "the rules went round their loops more than {limit} times (`limits.max_steps`)"
    CALLS = "the rules made more than {limit} steps (loops and calls) without ending (`limits.max_steps`)"
    WEIGHED = "the rules made more than {limit} steps (loops and calls) (`limits.max_steps`)"
    WHILE = "a `while` loop ran past the step limit ({limit})"
    COPIES = ("the rules made more than {limit} steps (loops, calls and copies of long lists, texts and "
              "maps) (`limits.max_steps`)")
    DRAW = "`draw` went on for more than {limit} steps (`limits.max_steps`)"


def too_many(why: Steps, limit: int) -> GameTooLong:
    """The error of a game that ran past its step limit counting `why`."""
    return GameTooLong(why.value.format(limit=limit))
