"""What a seat may believe the table is: a copy of the game with what it cannot see made up.

A search bot plays many games forward from the present; it must not play them on the hidden
truth. `believed(game, seat, rng)` gives a copy where

- chance and the order of every pile nobody sees come from the bot's generator (a belief copy,
  `state.Belief`, as the greedy bot's lookahead uses);
- the cards in other seats' hidden piles (a hand only its owner sees) are dealt again, together
  with the cards of piles nobody sees that came from the same place (the pile each card starts
  in): another seat's hand is any hand its unseen cards could make;
- each board kind rearranges what the seat cannot see (`redeal_hidden`: face-down tiles);
- in a `simultaneously` block, every other seat commits again (`Game.recommit`), those before
  this one in the block's list chosen by `policy` (the others after it, as the copy is played
  on): what they chose is hidden until it is revealed.

Hidden variables (`visible: owner` or `nobody`) are read as they are: the engine cannot know
what other values they could believably hold.
"""
from __future__ import annotations

from ..ir.models import Visibility
from ..lang.types import Per


def believed(game, seat: int, rng, policy):
    """A belief copy of `game` as `seat` may imagine it, at the same decision of `seat`.
    `policy(game)` answers the decisions of the seats that commit again."""
    g = game.clone(rng)
    st = g.st
    _redeal_cards(st, seat, rng)
    for kind in st.plan.hiding_kinds:
        kind.redeal_hidden(st, seat, rng)
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


def _redeal_cards(st, seat: int, rng) -> None:
    """Deal again the cards `seat` cannot see in other seats' piles, each group of cards that
    started in the same pile nobody sees among the places they now fill."""
    plan = st.plan
    unseen = plan.unseen_piles
    visible, per, owner_of, start = plan.pile_visible, plan.pile_per, plan.pile_owner, plan.card_start
    owners = None
    groups: dict[int, list] = {}   # start pile -> [(pile, index)] the cards from it fill
    hidden_seen = set()            # groups with a card in another seat's hidden pile
    for p, cards in enumerate(st.piles):
        if not cards:
            continue
        if p in unseen:
            others = False
        elif visible[p] is Visibility.OWNER:
            if per[p] is Per.SEAT:
                owner = owner_of[p]
            elif per[p] is Per.PIECE:
                owners = owners if owners is not None else st.values("owner")
                owner = owners[owner_of[p]]
            else:
                owner = None
            if owner == seat:
                continue
            others = True
        else:
            continue
        for i, c in enumerate(cards):
            s = start[c]
            if s in unseen:
                groups.setdefault(s, []).append((p, i))
                if others:
                    hidden_seen.add(s)
    if not hidden_seen:
        return
    st.own_cards()
    where, up = st.where, st.up
    for s in sorted(hidden_seen):
        places = groups[s]
        cards = sorted(st.piles[p][i] for p, i in places)  # the same belief whatever the truth
        faces = [up[st.piles[p][i]] for p, i in places]
        rng.shuffle(cards)
        for (p, i), c, face in zip(places, cards, faces):
            st.pile_w(p)[i] = c
            where[c] = p
            up[c] = face
