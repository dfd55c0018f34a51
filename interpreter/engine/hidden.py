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
from itertools import chain
from typing import Any

from ..lang.types import CARD, Per, Type, elem, is_list, is_map, map_types
from .state import State


class Veil:
    """Other seats' hidden cards on a bot's copy of the table, not dealt anew yet: the copy (and
    every copy made of it) deals them (`redeal`'s cards, with a generator of the look's own seed,
    so that every copy deals the same) the first time it reads or changes a pile where some of
    them lie: another seat's hidden pile, or a pile nobody sees holding cards of the same kind
    (`State.seen`, `pile_w`, `end`, `draw`). A look that never reads them (the greedy bot's, in
    most games) costs no deal; one that does reads only what the seat may believe.

    A card the pending choice's locals or a state variable hold is dealt before the look (`held`,
    `believe_held`); a number the rules worked out of hidden cards before asking is read as it is."""

    __slots__ = ("seat", "seed", "others", "watch", "need")

    def __init__(self, seat: int, seed: int, others: frozenset[int], watch: frozenset[int]):
        self.seat = seat
        self.seed = seed
        self.others = others   # the other seats' hidden piles
        # those and the piles nobody sees: the state asks `lift` before it reads or changes one
        # (a pile nobody sees found to hold none of their kind is left out: no card of theirs can
        # come there unasked, from another seat's hidden pile or a pile nobody sees, each watched)
        self.watch = set(watch)
        # the starting piles of their cards that can be told apart (found when first asked: every
        # copy not dealt yet holds the same there)
        self.need: frozenset[int] | None = None

    def lift(self, st: State, pile: int) -> None:
        """Deal `st`'s hidden cards anew, if reading or changing `pile` (one of `watch`) could
        tell them: another seat's hidden pile, or a pile nobody sees holding some of their kind."""
        plan = st.plan
        if pile not in self.others:
            need = self.need
            if need is None:
                piles = st.piles
                need = self.need = plan.mixed_starts.intersection(map(
                    plan.card_start.__getitem__, chain.from_iterable(piles[p] for p in self.others)))
            if need.isdisjoint(map(plan.card_start.__getitem__, st.piles[pile])):
                self.watch.discard(pile)
                return
        self.deal(st)

    def deal(self, st: State) -> None:
        """Deal `st`'s hidden cards anew now, and leave the copy unveiled (it read what the seat
        cannot see: a card, or a variable only another seat sees, `helpers.peek_seat`)."""
        st.veil = None
        _redeal_cards(st, self.seat, random.Random(self.seed))


def veil(st: State, seat: int, rng: random.Random) -> Veil | None:
    """What `seat` cannot see on `st`, to be dealt anew when a copy first reads it; None when
    the game hides nothing from it that could be told apart."""
    plan = st.plan
    if not (plan.mixed_starts and plan.owned_piles) and not plan.secret_vars:
        return None
    others, watch = _others(st, seat)
    return Veil(seat, rng.getrandbits(64), others, watch)


def _others(st: State, seat: int) -> tuple[frozenset[int], frozenset[int]]:
    """The other seats' hidden piles (those of their pieces too), empty or not, and those with the
    piles nobody sees: the same while the pieces keep their owners (kept by the plan)."""
    plan = st.plan
    owners = tuple(st.values("owner")) if plan.owned_by_piece else ()
    key = (seat, owners)
    found = plan.others_piles.get(key)
    if found is None:
        if len(plan.others_piles) > 1000:
            plan.others_piles.clear()
        others = frozenset(p for p in plan.owned_piles if plan.pile_seat(p, owners) != seat)
        found = plan.others_piles[key] = (others, others | plan.unseen_piles)
    return found


def held(st: State, seat: int) -> list[int]:
    """The cards that the locals of the choice pending on `st` hold (a card a rule took before it
    asked: `let loot = best(hand(s))`), or the game's state variables, and that `seat` cannot see
    where they lie: in a pile nobody sees or in another seat's hidden pile."""
    pending = st.pending
    plan, where = st.plan, st.where
    if pending is None or not (pending[0].cards or plan.card_state):
        return []
    env = pending[2]
    cards = [c for name, typ in pending[0].cards for c in _cards(typ, env.get(name))]
    for _slot, typ, value in _state_cards(st):
        cards.extend(_cards(typ, value))
    cards = [c for c in cards if where[c] in plan.unseen_piles or where[c] in plan.owned_piles]
    if not cards:
        return []
    hidden = _others(st, seat)[1]   # (the other seats' hidden piles and the piles nobody sees)
    return [c for c in cards if where[c] in hidden]


def believe_held(st: State, seat: int, rng: random.Random, cards: list[int]) -> None:
    """On `st` (a copy), what `seat` cannot see dealt anew (`redeal`), the piles nobody sees that
    hold some of `cards` put in a believed order, and the pending choice's locals made to hold,
    for each such card, the card that now lies where it lay."""
    before = [list(p) for p in st.piles]
    redeal(st, seat, rng)
    for p in sorted({st.where[c] for c in cards} & st.plan.unseen_piles):
        pile = st.pile_w(p)
        pile.sort()
        rng.shuffle(pile)
    now = {a: b for old, new in zip(before, st.piles) if old != new for a, b in zip(old, new) if a != b}
    spec, _opts, env, _seat = st.pending
    for name, typ in spec.cards:
        if name in env:
            env[name] = _mapped(typ, env[name], now)
    for (where, key), typ, value in _state_cards(st):
        where[key] = _mapped(typ, value, now)


def _state_cards(st: State) -> list[tuple[tuple[Any, Any], Type, Any]]:
    """Each state variable that holds cards, one per game, seat or piece: ((its container, its key
    there), its type, its value)."""
    plan = st.plan
    out: list[tuple[tuple[Any, Any], Type, Any]] = []
    for per, name, typ in plan.card_state:
        if per is Per.GAME:
            out.append(((st.g, name), typ, st.g.get(name)))
        else:
            at = plan.var_at[name]
            for i in range(plan.n_seats if per is Per.SEAT else plan.n_pieces):
                out.append(((st.v, at + i), typ, st.v[at + i]))
    return out


def _cards(typ: Type, value: Any) -> list[int]:
    """The cards in a value of type `typ`."""
    if value is None:
        return []
    if typ == CARD:
        return [value]
    if is_list(typ):
        return [c for x in value for c in _cards(elem(typ), x)]
    if is_map(typ):
        k, v = map_types(typ)
        return [c for key, x in value.items() for c in _cards(k, key) + _cards(v, x)]
    return []


def _mapped(typ: Type, value: Any, now: dict[int, int]) -> Any:
    """`value` (of type `typ`) with each card `now` maps replaced."""
    if value is None:
        return None
    if typ == CARD:
        return now.get(value, value)
    if is_list(typ):
        return [_mapped(elem(typ), x, now) for x in value]
    if is_map(typ):
        k, v = map_types(typ)
        return {_mapped(k, key, now): _mapped(v, x, now) for key, x in value.items()}
    return value


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
    others, hidden = _others(st, seat)
    need = {start[c] for p in others for c in piles[p]} & plan.unseen_piles
    if not need:
        return
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
