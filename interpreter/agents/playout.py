"""Playing a copy of a game on below what a bot looks at: the search bot's rollouts and the learned
bot's look to the next round (`learned:TABLES:FILE`). The bot's policy answers each decision, the
rules asking it in place (`Game.answer_with`), until a stop says so or the game ends."""
from __future__ import annotations


def moves(decision) -> dict:
    """The decision's distinct moves: each option label with the first option that reads so (two
    copies of the same card are one move)."""
    out: dict = {}
    for i, label in enumerate(decision.labels()):
        out.setdefault(label, i)
    return out


def play_on(g, pick, stop) -> None:
    """Play the copy `g` on, `pick(game)` answering each decision, until `stop(game, k)` says so
    (`k`: the decisions played so far) or the game ends."""
    k = 0

    def policy(game) -> int:
        """The pick at the pending decision, or -1 where the play stops."""
        nonlocal k
        if stop(game, k):
            return -1
        k += 1
        return pick(game)
    g.answer_with(policy)   # the rules ask it in place, decision after decision
    try:
        while not g.over:
            choice = policy(g)
            if choice < 0:
                return
            g.choose(choice)
    finally:
        g.answer_with(None)


def next_round(since: int, most: float):
    """A stop for `play_on`: at the first decision of a round after the round count `since`, even
    where a `simultaneously` block opens that round (its seats are asked, none has committed yet: a
    secret choice often opens a round); else after `most` decisions once no block is collecting
    commitments (a long round, a phase without rounds)."""
    def stop(game, k: int) -> bool:
        return game.st.g["__rounds"] != since or (k >= most and not game.collecting)
    return stop
