"""The engine's ceilings: what no ruleset can exceed, whatever its own `limits:` say.

A ruleset is untrusted input. Its rules may loop, build lists and compute numbers; these bounds
keep any of that within about a second and a few megabytes before it stops with a rule error.
"""
from __future__ import annotations

MAX_INT = 10 ** 18          # the largest number a rule may hold (either sign)
MAX_LIST = 100_000          # items in one list (a range, a joined list)
MAX_TEXT = 100_000          # characters in one text
MAX_STEPS = 10_000_000      # a ruleset's `max_steps` is capped here
MAX_ROUNDS = 100_000        # a ruleset's `max_rounds` is capped here
MAX_NUMBER_DIGITS = len(str(MAX_INT))
