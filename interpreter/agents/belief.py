"""What a seat may believe the table is: a copy of the game with what it cannot see made up.

A search bot plays many games forward from the present; it must not play them on the hidden
truth. `believed(game, seat, rng)` gives a copy where

- chance and the order of every pile nobody sees come from the bot's generator (a belief copy,
  `state.Belief`, as the greedy bot's lookahead uses);
- what the seat cannot see is dealt anew (`engine/hidden.py`: other seats' hands, face-down
  tiles), as for the greedy bot's look and an option's preview;
- in a `simultaneously` block, every other seat commits again (`Game.recommit`), those before
  this one in the block's list chosen by `policy` (the others after it, as the copy is played
  on): what they chose is hidden until it is revealed.
"""
from __future__ import annotations

from ..engine.hidden import redeal


def believed(game, seat: int, rng, policy):
    """A belief copy of `game` as `seat` may imagine it, at the same decision of `seat`.
    `policy(game)` answers the decisions of the seats that commit again."""
    g = game.clone(rng)
    st = g.st
    redeal(st, seat, rng)
    if g.collecting:
        g.recommit(seat)
        while g.waiting()[0] != seat:
            g.choose(policy(g))
    return g


def fresh(table, rng=None):
    """A copy of a believed table to play on once, the order of the piles nobody sees believed
    afresh (any order is one the seat may believe in); `rng`: the copy's own generator (else the
    table's is shared)."""
    g = table.clone(rng)
    sim = g.st.simul
    for st in [g.st] + ([c.st for c in sim.commits] if sim is not None else []):
        if st is not None and st.believe is not None:
            st.believe.ordered = frozenset()
    return g
