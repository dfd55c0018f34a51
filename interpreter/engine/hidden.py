"""What a seat cannot see, dealt anew as it may believe it: on a copy of the table that a bot or a
preview plays on, so that what lies hidden never steers what it finds.

- the cards in other seats' hidden piles (a hand only its owner sees) are dealt again, together
  with the cards of piles nobody sees that came from the same place (the pile each card starts
  in): another seat's hand is any hand its unseen cards could make;
- each board kind rearranges what the seat cannot see (`redeal_hidden`: face-down tiles).

The belief is the same whatever the truth: the cards of each group are put in order before they
are shuffled, so it depends on what the seat knows (which cards are unseen, where the unseen
places are) and on the generator only. The order of a pile nobody sees is believed when a rule
first reads it (`State.end`, on a belief copy). Hidden variables (`visible: owner` or `nobody`)
are read as they are: the engine cannot know what other values they could believably hold.
"""
from __future__ import annotations

import random

from ..lang.types import Per
from .plan import Plan
from .state import State


def hides(plan: Plan) -> bool:
    """Whether the game has anything for `redeal` to deal again (else a copy is not needed)."""
    return bool(plan.hiding_kinds or plan.owned_piles)


def redeal(st: State, seat: int, rng: random.Random) -> None:
    """Deal again, on `st` (a copy), what `seat` cannot see, with the generator `rng`."""
    _redeal_cards(st, seat, rng)
    for kind in st.plan.hiding_kinds:
        kind.redeal_hidden(st, seat, rng)


def _redeal_cards(st: State, seat: int, rng: random.Random) -> None:
    """Deal again the cards `seat` cannot see in other seats' piles, each group of cards that
    started in the same pile nobody sees among the places they now fill (in the piles only their
    owner sees and the piles nobody sees, in the order of the piles)."""
    plan = st.plan
    start, piles = plan.card_start, st.piles
    others = _others_piles(st, seat)
    need = {start[c] for p in others for c in piles[p]} & plan.unseen_piles
    if not need:
        return
    hidden = plan.unseen_piles.union(others)
    places: dict[int, list] = {s: [] for s in need}   # start pile -> [(pile, index)] its cards fill
    for p in plan.secret_piles:
        cards = piles[p]
        if cards and p in hidden and not need.isdisjoint(map(start.__getitem__, cards)):
            for i, c in enumerate(cards):
                if start[c] in need:
                    places[start[c]].append((p, i))
    st.own_cards()
    where, up = st.where, st.up
    for s in sorted(need):
        slots = places[s]
        cards = sorted(piles[p][i] for p, i in slots)  # the same belief whatever the truth
        faces = [up[piles[p][i]] for p, i in slots]
        rng.shuffle(cards)
        owned = -1
        for (p, i), c, face in zip(slots, cards, faces):
            if p != owned:
                w, owned = st.pile_w(p), p
            w[i] = c
            where[c] = p
            up[c] = face


def _others_piles(st: State, seat: int) -> list[int]:
    """The piles only their owner sees that belong to another seat (or to another seat's piece),
    with cards in them."""
    plan = st.plan
    per, owner_of, piles = plan.pile_per, plan.pile_owner, st.piles
    owners = None
    out = []
    for p in plan.owned_piles:
        if not piles[p]:
            continue
        if per[p] is Per.SEAT:
            owner = owner_of[p]
        elif per[p] is Per.PIECE:
            owners = owners if owners is not None else st.values("owner")
            owner = owners[owner_of[p]]  # type: ignore[index]  # (a piece's pile has its piece)
        else:
            owner = None
        if owner != seat:
            out.append(p)
    return out
