"""The bots a seat can hold, by the name a person writes in `--seats`.

`random`, `greedy`, and the search bot `mcts[:BUDGET[:ROLLOUT[:TREES]]]`: BUDGET games played
forward per decision (default 100), ROLLOUT the policy that plays them on below its tree, `random`
(the default) or `greedy` (slower, stronger where random play says little, as in a game whose
moves must be planned together), TREES the trees the budget is shared among, searched side by
side on as many cores as there are (default 1; the same choices on any machine).
`learned:FILE`: the greedy bot judging with a value learned for one game (`racecraft train`);
`learned:TABLES:FILE`: the same, each option played on to the start of the next round by the greedy
bot on TABLES believed tables and the tables reached judged with it;
`mcts:BUDGET:learned:FILE`: the search bot judging with it the tables its rollouts reach at the start
of the next round (a quick greedy bot plays them on: one believed outcome, no follow-ups);
`learned` alone: the value `simulate` and `compare` train for each game first (`lab/train.py`).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from functools import partial

from .base import RandomAgent
from .greedy import GreedyAgent
from .learned import MAX_LOOK_TABLES, UNTRAINED, LearnedAgent, LookingAgent, ModelError, model_at, trained_for
from .mcts import BUDGET, LEARNED as LEARNED_LEAVES, ROLLOUTS, SearchAgent

# games played forward per decision: 1,000 keeps a decision of the largest shipped game (with greedy
# rollouts) within the 10 seconds a bot may take at a table (`session/budget.py`)
MAX_BUDGET = 1_000
MAX_TREES = 8      # trees a search bot's budget is shared among (more than a table's cores gains nothing)
NAMES = ("random", "greedy", "mcts")
FORMS = "random, greedy, mcts[:BUDGET[:ROLLOUT[:TREES]]], mcts:BUDGET:learned:FILE or learned[:TABLES]:FILE"
LEARNED = "learned:"


def bot(kind: str):
    """The bot `kind` names as a function of its seed; ValueError with a message for a person
    when it names none."""
    if kind == "random":
        return RandomAgent
    if kind == "greedy":
        return GreedyAgent
    if kind == "learned":   # the value trained for the game by simulate or compare (`train.py`)
        return LearnedAgent
    if kind.startswith(LEARNED):
        return _learned(kind)
    parts = kind.split(":")
    if parts[0] == "mcts" and len(parts) > 3 and parts[2] == LEARNED_LEAVES:
        return _searching_learned(kind, parts)
    if parts[0] != "mcts":
        raise ValueError(f"unknown bot `{kind}`: bots are {FORMS}")
    if len(parts) > 4:
        raise ValueError(f"`{kind}`: the search bot is written mcts, mcts:BUDGET, mcts:BUDGET:ROLLOUT or "
                         "mcts:BUDGET:ROLLOUT:TREES, e.g. mcts:200:greedy:2")
    budget = _budget(kind, parts[1], "mcts:200") if len(parts) > 1 else BUDGET
    rollout = parts[2] if len(parts) > 2 else ROLLOUTS[0]
    if rollout == LEARNED_LEAVES:
        raise ValueError(f"`{kind}`: name the learned bot's file, e.g. mcts:{budget}:learned:bot.json "
                         "(written by racecraft train)")
    if rollout not in ROLLOUTS:
        raise ValueError(f"`{kind}`: the search bot's rollouts are {' or '.join(ROLLOUTS)}, e.g. "
                         f"mcts:{budget}:greedy (or judged by a learned bot: mcts:{budget}:learned:FILE)")
    trees = 1
    if len(parts) > 3:
        text = parts[3]
        if not (text.isascii() and text.isdigit() and 1 <= int(text) <= min(MAX_TREES, budget)):
            raise ValueError(f"`{kind}`: the search bot's trees are 1 to {min(MAX_TREES, budget)} (they "
                             f"share its budget of {budget:,} games, searched side by side on the "
                             f"cores there are), e.g. mcts:{budget}:{rollout}:2")
        trees = int(text)
    return partial(SearchAgent, budget=budget, rollout=rollout, trees=trees)


def _budget(kind: str, text: str, example: str) -> int:
    """The search bot's budget written `text` in bot `kind`; ValueError with an example."""
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"`{kind}`: the search bot's budget is a whole number of games it plays "
                         f"forward per decision, e.g. {example}")
    budget = int(text)
    if not 1 <= budget <= MAX_BUDGET:
        raise ValueError(f"`{kind}`: the search bot's budget is 1 to {MAX_BUDGET:,} games per decision "
                         f"(the engine's cap: more takes too long for a decision), e.g. {example}")
    return budget


def _learned(kind: str):
    tables, path = _looking(kind)
    if not path:
        raise ValueError(f"`{kind}`: name the learned bot's file, e.g. learned:bot.json "
                         "(written by racecraft train)")
    _head, sep, rest = path.partition(":")
    if tables is None and sep and not os.path.exists(path):   # learned:x:FILE, learned:-1:FILE
        raise ValueError(f"`{kind}`: in learned:TABLES:FILE, TABLES is a whole number from 1 to "
                         f"{MAX_LOOK_TABLES} (the believed tables each option is played on), "
                         f"e.g. learned:4:{rest or 'bot.json'}")
    if tables is None:
        return partial(LearnedAgent, path=path, model=_model(kind, path))
    if not 1 <= tables <= MAX_LOOK_TABLES:
        raise ValueError(f"`{kind}`: the learned bot plays each option on 1 to {MAX_LOOK_TABLES} "
                         "believed tables, e.g. learned:4:bot.json")
    return partial(LookingAgent, path=path, model=_model(kind, path), tables=tables)


def _looking(kind: str) -> tuple[int | None, str]:
    """`learned:FILE` or `learned:TABLES:FILE`: the tables (None for the one look) and the file."""
    rest = kind[len(LEARNED):]
    head, sep, path = rest.partition(":")
    if sep and head.isascii() and head.isdigit():
        return int(head), path
    return None, rest


def _model(kind: str, path: str):
    """The learned value in file `path`, for the bot `kind`; ValueError saying what is wrong."""
    try:
        return model_at(path)
    except ModelError as e:
        raise ValueError(f"`{kind}`: {e}") from None


def _searching_learned(kind: str, parts: list[str]):
    """`mcts:BUDGET:learned:FILE`: the search bot judging its leaves by a learned value."""
    budget = _budget(kind, parts[1], "mcts:200:learned:bot.json")
    path = ":".join(parts[3:])
    if not path:
        raise ValueError(f"`{kind}`: name the learned bot's file, e.g. mcts:{budget}:learned:bot.json "
                         "(written by racecraft train)")
    model = _model(kind, path)
    return partial(SearchAgent, budget=budget, rollout=LEARNED_LEAVES, model=model)


def _file_of(kind: str) -> str | None:
    """The learned value's file a bot reads, or None."""
    if kind == "learned":
        return ""
    if kind.startswith(LEARNED):
        return _looking(kind)[1]
    parts = kind.split(":")
    if parts[0] == "mcts" and len(parts) > 3 and parts[2] == LEARNED_LEAVES:
        return ":".join(parts[3:])
    return None


def on_file(kind: str) -> bool:
    """Whether the bot reads a file of the machine it plays on (`learned:FILE`): a web table, where
    the file would be the server's, offers none."""
    return _file_of(kind) is not None


def unfit(kind: str, plan) -> str | None:
    """Why the bot `kind` cannot play the game `plan` is (a learned bot's file made for another
    game, other rules or another number of players), or None."""
    path = _file_of(kind)
    if path is None:
        return None
    if not path:
        return None if trained_for(plan) is not None else UNTRAINED
    try:
        bad = model_at(path).problem(plan)
    except ModelError as e:
        bad = str(e)
    return f"`{kind}`: {bad}" if bad else None


def notes(kinds: list[str], plan) -> list[str]:
    """What a person should know of the bots `kinds` at the game `plan` is, each said once: a greedy
    bot (or the search bot's greedy rollouts) plays at random where the game has no `evaluate:`; a
    learned bot's file trained for the other form of the learned bot (docs/bots.md)."""
    out = []
    # greedy, mcts:BUDGET:greedy[:TREES]
    greedy = [k for k in kinds if k == "greedy" or k.split(":")[0::2][:2] == ["mcts", "greedy"]]
    if greedy and plan.evaluate is None:
        who = "greedy plays" if "greedy" in greedy else "the search bot's greedy rollouts play"
        if "greedy" in greedy and len(set(greedy)) > 1:
            who = "greedy and the search bot's greedy rollouts play"
        out.append(f"{plan.name} has no evaluate:, so {who} at random; racecraft train makes a bot that "
                   "learns it (docs/bots.md)")
    for k in dict.fromkeys(kinds):
        note = _form_note(k)
        if note:
            out.append(note)
    return out


def _form_note(kind: str) -> str | None:
    """Where bot `kind` reads a learned file trained for the other form: which form it was for."""
    path = _file_of(kind)
    if not path:
        return None
    try:
        at = model_at(path).trained.get("at", "option")
    except ModelError:
        return None
    looks_on = not kind.startswith(LEARNED) or _looking(kind)[0] is not None
    if at == "round" and not looks_on:
        return (f"{path} was trained --at round, for learned:TABLES:FILE or mcts:BUDGET:learned:FILE: "
                f"as `{kind}` it plays weakly (docs/bots.md)")
    if at == "option" and looks_on:
        return (f"{path} was trained for learned:FILE (the tables right after an option); `{kind}` "
                "judges the start of a round, which racecraft train --at round fits (docs/bots.md)")
    return None


def thinks(kind: str) -> bool:
    """Whether the bot takes its time over a decision (the search bot, the learned bot looking on
    to the next round): a table shows it thinking, a simulation reports each game as it ends."""
    return kind.split(":")[0] == "mcts" or (kind.startswith(LEARNED) and _looking(kind)[0] is not None)


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
