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

# The size of the program itself, each checked once, early, with a diagnostic at the rule's position
# (a file under the 2 MB limit could otherwise hold rules that take minutes to read or compile):
# (the figures in brackets: the largest shipped game with all its modules)
MAX_RULE_CHARS = 20_000     # characters in one rule text (a `do:`, a `value:`, ...; the longest: 2,300)
MAX_GAME_RULE_CHARS = 200_000  # characters in all the rule texts of a game (30,000)
MAX_GAME_RULES = 2_000      # rule texts of a game: functions, steps, triggers, ... (200)
MAX_ELIF = 100              # `elif` branches of one `if`
MAX_LOOP_DEPTH = 16         # loops (`for`, `while`, `simultaneously`, an option's `for`) inside each other
MAX_CALL_DEPTH = 100        # functions, procedures and triggers (through `emit`) calling each other
MAX_CALL_NESTING = 200      # and the rules and blocks inside each other along such a chain (20)
MAX_EXPANDED = 20_000       # parts of a rule as extensions make it (`proceed` and `base` copy the rule)


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
