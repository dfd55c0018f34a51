"""The bots a seat can hold, by the name a person writes in `--seats`.

`random`, `greedy`, and the search bot `mcts[:BUDGET[:ROLLOUT]]`: BUDGET games played forward per
decision (default 100), ROLLOUT the policy that plays them on below its tree, `random` (the
default) or `greedy` (slower, stronger where random play says little, as in a game whose moves
must be planned together).
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from .base import RandomAgent
from .greedy import GreedyAgent
from .mcts import BUDGET, ROLLOUTS, SearchAgent

# games played forward per decision: 1,000 keeps a decision of the largest shipped game (with greedy
# rollouts) within the 10 seconds a bot may take at a table (`session/budget.py`)
MAX_BUDGET = 1_000
NAMES = ("random", "greedy", "mcts")
FORMS = "random, greedy or mcts[:BUDGET[:ROLLOUT]]"


def bot(kind: str):
    """The bot `kind` names as a function of its seed; ValueError with a message for a person
    when it names none."""
    if kind == "random":
        return RandomAgent
    if kind == "greedy":
        return GreedyAgent
    parts = kind.split(":")
    if parts[0] != "mcts":
        raise ValueError(f"unknown bot `{kind}`: bots are {FORMS}")
    if len(parts) > 3:
        raise ValueError(f"`{kind}`: the search bot is written mcts, mcts:BUDGET or mcts:BUDGET:ROLLOUT, "
                         "e.g. mcts:200:greedy")
    budget = BUDGET
    if len(parts) > 1:
        text = parts[1]
        if not (text.isascii() and text.isdigit()):
            raise ValueError(f"`{kind}`: the search bot's budget is a whole number of games it plays "
                             "forward per decision, e.g. mcts:200")
        budget = int(text)
        if not 1 <= budget <= MAX_BUDGET:
            raise ValueError(f"`{kind}`: the search bot's budget is 1 to {MAX_BUDGET:,} games per decision "
                             "(the engine's cap: more takes too long for a decision)")
    rollout = parts[2] if len(parts) > 2 else ROLLOUTS[0]
    if rollout not in ROLLOUTS:
        raise ValueError(f"`{kind}`: the search bot's rollouts are {' or '.join(ROLLOUTS)}, "
                         f"e.g. mcts:{budget}:greedy")
    return partial(SearchAgent, budget=budget, rollout=rollout)


def problem(kind: str) -> str | None:
    """What is wrong with a bot's name, or None."""
    try:
        bot(kind)
    except ValueError as e:
        return str(e)
    return None


class _Bots(Mapping):
    """Bot names to their bots (a function of the seed): `BOTS["mcts:200"](seed)`."""

    def __getitem__(self, kind):
        try:
            return bot(kind)
        except ValueError:
            raise KeyError(kind) from None

    def __iter__(self):
        return iter(NAMES)

    def __len__(self) -> int:
        return len(NAMES)


BOTS = _Bots()
