"""The core built-ins: lists, piles, numbers, seats and pieces, and the effects that arrange a
table (for scenarios). Each runs on plain values; a pile argument declared `items` arrives as
the pile's list of cards, which a built-in reads and never changes.
"""
from __future__ import annotations

from typing import Any, Callable

from ..base.diagnostics import did_you_mean
from ..base.errors import RuleError
from ..lang.show import show
from ..lang.types import ANY, BOOL, CARD, DIE, INT, PIECE, PILE, SEAT, TEXT, Type, elem, listof
from .api import Builtin, Fixed, Table, builtin


@builtin("size", [("items", "what `size` counts")], INT,
         "the number of items of a list, or of cards in a pile")
def _size(st: Table, xs: list[Any]) -> int:
    return len(xs)


# `top` and `bottom` of a pile nobody sees draw chance in a bot's lookahead (state.Belief)
@builtin("top", [(PILE, "the pile `top` looks at")], CARD, "the top card of a pile, or none", chance=True)
def _top(st: Table, pile: int) -> int | None:
    return st.end(pile, -1)


@builtin("bottom", [(PILE, "the pile `bottom` looks at")], CARD, "the bottom card of a pile, or none",
         chance=True)
def _bottom(st: Table, pile: int) -> int | None:
    return st.end(pile, 0)


@builtin("cards", [(PILE, "the pile `cards` lists")], "list[card]", "the cards of a pile, bottom to top")
def _cards(st: Table, pile: int) -> list[int]:
    return st.seen(pile)[:]


@builtin("sum", [("items[int]", "what `sum` adds up")], INT, "the total of a list of ints")
def _sum(st: Table, xs: list[int]) -> int:
    return sum(xs)


def _extreme(name: str, pick: Callable[[list[int]], int]) -> Builtin:
    @builtin(name, [("items[int]", f"what `{name}` looks through")], INT,
             f"the {'smallest' if name == 'min' else 'largest'} of a list of ints; an error if it is empty")
    def run(st: Table, xs: list[int]) -> int:
        if not xs:
            raise RuleError(f"`{name}` of an empty list")
        return pick(xs)
    return run


@builtin("any", [("items[bool]", "what `any` looks through")], BOOL, "true if one item is true")
def _any(st: Table, xs: list[bool]) -> bool:
    return any(xs)


@builtin("all", [("items[bool]", "what `all` looks through")], BOOL, "true if every item is true")
def _all(st: Table, xs: list[bool]) -> bool:
    return all(xs)


@builtin("count", [("items[bool]", "what `count` counts (true values; to count items use `size`)")], INT,
         "how many items are true")
def _count(st: Table, xs: list[bool]) -> int:
    return sum(1 for x in xs if x)


@builtin("first", [("items", "the list `first` looks at")], "T", "the first item, or none")
def _first(st: Table, xs: list[Any]) -> Any:
    return xs[0] if xs else None


@builtin("last", [("items", "the list `last` looks at")], "T", "the last item, or none")
def _last(st: Table, xs: list[Any]) -> Any:
    return xs[-1] if xs else None


def _distinct_cards(st: Table, cards: list[int]) -> list[int]:
    kinds = st.plan.card_type
    seen = set()
    out = []
    for card in cards:
        k = kinds[card]
        if k not in seen:
            seen.add(k)
            out.append(card)
    return out


def _distinct_values(st: Table, xs: list[Any]) -> list[Any]:
    return list(dict.fromkeys(xs))


@builtin("distinct", [("items", "what `distinct` goes through")], "list[T]",
         "cards: the first card of each card type; other values: each value once; in order",
         typed=lambda types: _distinct_cards if types[0] in (PILE, listof(CARD)) else _distinct_values)
def _distinct(st: Table, xs: list[Any]) -> list[Any]:
    return _distinct_values(st, xs)


def _shuffler(item_type: Type) -> Callable[[Table, list[Any]], list[Any]]:
    def shuffled(st: Table, items: list[Any]) -> list[Any]:
        xs = list(items)
        st.rng.shuffle(xs)
        if st.believe is not None:
            st.believe.chance = True
        if st.trace is not None:
            st.trace.append(("chance", "shuffled list", [show(st.plan, item_type, x) for x in xs]))
        return xs
    return shuffled


def _item_type(t: Type) -> Type:
    return CARD if t == PILE else elem(t)


@builtin("shuffled", [("items", "what `shuffled` shuffles")], "list[T]",
         "the items in a random order, from the game's seeded generator",
         typed=lambda types: _shuffler(_item_type(types[0])), chance=True, rng=True)
def _shuffled(st: Table, xs: list[Any]) -> list[Any]:
    return _shuffler(ANY)(st, xs)


@builtin("reversed", [("items", "what `reversed` turns around")], "list[T]", "the items in reverse order")
def _reversed(st: Table, xs: list[Any]) -> list[Any]:
    return list(xs)[::-1]


@builtin("sorted_by", [("items", "what `sorted_by` orders"), ("list[int]", "the key of each item, in order")],
         "list[T]", "the items ordered by their keys, the smallest first (items with equal keys keep "
                    "their order)")
def _sorted_by(st: Table, xs: list[Any], keys: list[int]) -> list[Any]:
    xs = list(xs)
    if len(keys) != len(xs):
        raise RuleError(f"`sorted_by` got {len(xs)} items but {len(keys)} keys")
    order = sorted(range(len(xs)), key=keys.__getitem__)
    return [xs[i] for i in order]


@builtin("sorted", [("list[int]", "the numbers `sorted` orders")], "list[int]",
         "the numbers, the smallest first", pure=True)
def _sorted(st: Table, xs: list[int]) -> list[int]:
    return sorted(xs)


@builtin("seat", [(INT, "the seat number of `seat`")], SEAT,
         "the seat numbered n (from 1); an error outside 1..players", pure=True)
def _seat(st: Fixed, k: int | None) -> int:
    n = st.plan.n_seats
    if k is None or not 1 <= k <= n:
        raise RuleError(f"there is no seat {k} in a game of {n}")
    return k - 1


@builtin("piece", [(TEXT, "the piece's name given to `piece`")], PIECE,
         "the piece with this name; an error for an unknown name", pure=True)
def _piece(st: Fixed, text: str) -> int:
    names = st.plan.piece_names
    if text not in names:
        raise RuleError(f"no piece is named `{text}`")
    return names.index(text)


# ---- dice -----------------------------------------------------------------------------------------

@builtin("roll", [(DIE, "the die `roll` rolls")], INT,
         "a face of the die, at random (each face as likely; from the game's seeded generator)",
         chance=True, rng=True)
def _roll(st: Table, die: int) -> int:
    face = st.arranged(die) if st.rolls is not None else None   # by a scenario (`next_rolls`)
    if face is None:
        faces = st.plan.die_faces[die]
        face = faces[st.rng.randrange(len(faces))]
        if st.believe is not None:
            st.believe.chance = True
    if st.trace is not None:
        st.trace.append(("roll", st.plan.die_names[die], face))
    return face


@builtin("faces", [(DIE, "the die whose faces `faces` lists")], "list[int]",
         "the numbers on the die's faces, in the order declared", pure=True)
def _faces(st: Fixed, die: int) -> list[int]:
    return list(st.plan.die_faces[die])


@builtin("next_rolls", [(DIE, "the die `next_rolls` arranges"),
                        ("list[int]", "the faces of `next_rolls` (the die shows them next, in order)")], None,
         "arrange the next rolls of a die (a scenario's situation): each a face of it")
def _next_rolls(st: Table, die: int, faces: list[int]) -> None:
    plan = st.plan
    own = plan.die_faces[die]
    for face in faces:
        if face not in own:
            raise RuleError(f"{face} is not a face of die `{plan.die_names[die]}` (its faces: "
                            f"{', '.join(str(f) for f in own)})")
    if st.rolls is None:
        st.rolls = {}
    st.rolls.setdefault(die, []).extend(faces)


def die_of(family: dict[Any, int], key: Any, name: str) -> int:
    """A family's die by its key (`level(3)`); a key the family has not is a rule error."""
    die = family.get(key)
    if die is None:
        keys = ", ".join(str(k) if isinstance(k, int) else f'"{k}"' for k in family)
        shown = f'"{key}"' if isinstance(key, str) else str(key)
        raise RuleError(f"there is no die `{name}({shown})`: "
                        f"the family's dice are {keys}")
    return die


@builtin("abs", [(INT, "the number `abs` takes")], INT, "the absolute value")
def _abs(st: Table, k: int) -> int:
    return abs(k)


# ---- effects: statements that set the table (scenarios use them to arrange a situation) ----

_FACES = {"face up": True, "face down": False}


def _where_else(st: Table, cards: list[int]) -> str:
    """Where these cards lie, pile by pile, for a person: `hand(seat 1) (2), column(3)`."""
    count: dict[int, int] = {}
    for c in cards:
        count[st.where[c]] = count.get(st.where[c], 0) + 1
    return ", ".join(st.plan.pile_label(p) + (f" ({k})" if k > 1 else "") for p, k in sorted(count.items()))


def _missing(st: Table, name: str, dest: int, tname: str, wanted: int, have: int, others: list[int]) -> str:
    """Why `set_pile`/`stack_pile` cannot find a card of type `tname`: where the others are."""
    plan = st.plan
    ti = plan.card_types.index(tname)
    homes = ", ".join(dict.fromkeys(plan.pile_label(plan.card_start[k])
                                    for k, t in enumerate(plan.card_type) if t == ti))
    found = f"only {have} {'is' if have == 1 else 'are'}" if have else "none is"
    text = (f"`{name}` wants {wanted} `{tname}` in {plan.pile_label(dest)}, but {found} there or in "
            f"{homes}, where they start")
    if not others:
        return text + f"; the game has {have}"
    return text + (f"; the others are in {_where_else(st, others)}: move them first, or arrange that pile "
                   "first")


def _arranger(name: str, exact: bool, doc: str) -> Builtin:
    """set_pile(pile, ["type", ...]): the pile holds exactly these cards, bottom to top;
    stack_pile(pile, [...]): these cards go on top of what the pile holds (the last is the top).
    Both lay them face up, or as a third argument says ("face down").

    A card is taken from the pile itself, else from the pile it started in, else from the cards
    set aside, else from a pile the game dealt it to and no `set_pile`/`stack_pile` has arranged
    (another seat's hand): that pile gets in its place the top card of the pile the card started
    in, so that it holds as many (a scenario arranges what it needs whatever its seed dealt).
    Never from a pile arranged before: that is a rule error saying where the cards are. With
    set_pile, cards the pile held that are not named go back to the pile they started in, or,
    when that is this pile, are set aside: out of the game, where no rule sees them.
    """
    @builtin(name, [(PILE, f"the pile `{name}` fills"),
                    ("list[text]", f"the card types `{name}` puts there"),
                    (TEXT, f"how `{name}` lays the cards: \"face up\" (if left out) or \"face down\"", True)],
             None, doc)
    def arrange(st: Table, dest: int, names: list[str], face: str = "face up") -> None:
        plan = st.plan
        if face not in _FACES:
            raise RuleError(f"`{name}` lays cards \"face up\" or \"face down\", not \"{face}\"")
        owner = plan.pile_owner[dest]
        taken: list[int] = []
        chosen: set[int] = set()
        for tname in names:
            if tname not in plan.card_types:
                near = did_you_mean(str(tname), plan.card_types)
                raise RuleError(f"no card type `{tname}`" + (f" ({near})" if near else ""))
            ti = plan.card_types.index(tname)
            cards = [k for k, t in enumerate(plan.card_type) if t == ti and k not in chosen]
            arranged = st.arranged_piles or set()
            # this pile's own first, then those in their starting pile (one of the same seat or
            # piece as this pile first), then those set aside; never one a pile arranged before
            # holds (its starting pile too: a piece's own deck)
            free = [k for k in cards if st.where[k] == dest or (
                st.where[k] in (plan.card_start[k], plan.aside) and st.where[k] not in arranged)]
            free.sort(key=lambda k: (st.where[k] != dest, st.where[k] == plan.aside,
                                     plan.pile_owner[plan.card_start[k]] != owner))
            if not free:
                dealt = [k for k in cards if st.where[k] not in arranged]
                if not dealt:
                    raise RuleError(_missing(st, name, dest, tname, names.count(tname),
                                             sum(1 for k in taken if plan.card_type[k] == ti), cards))
                _replace(st, dealt[0], chosen, dest if exact else None, names)
                free = dealt
            taken.append(free[0])
            chosen.add(free[0])
        if exact:
            for card in st.piles[dest][:]:
                if card not in chosen:
                    home = plan.card_start[card]
                    st.move(card, plan.aside if home == dest else home)
        up = _FACES[face]
        for card in taken:
            st.move(card, dest, up)
        if st.arranged_piles is None:
            st.arranged_piles = set()
        st.arranged_piles.add(dest)
    return arrange


def _replace(st: Table, card: int, chosen: set[int], dest: int | None, names: list[str]) -> None:
    """`card` leaves the pile the game dealt it to: the top card of the pile it started in (one not
    chosen for the arrangement) takes its place there, as it lay; with none there (a game that
    deals every card), a card that `set_pile` (`dest`) is not to keep in the pile it arranges (an
    exchange)."""
    plan = st.plan
    where = st.where[card]
    kept = {plan.card_types.index(t) for t in names}
    spare = [k for k in reversed(st.piles[plan.card_start[card]]) if k not in chosen] + \
        [k for k in reversed(st.piles[dest] if dest is not None else ()) if k not in chosen
         and plan.card_type[k] not in kept]
    if spare:
        st.move(spare[0], where, st.up[card])


CORE: list[Builtin] = [
    _size, _top, _bottom, _cards, _sum, _extreme("min", min), _extreme("max", max), _any, _all,
    _count, _first, _last, _distinct, _shuffled, _reversed, _sorted_by, _sorted, _seat, _piece, _abs,
    _roll, _faces, _next_rolls,
    _arranger("set_pile", True, "the pile holds exactly cards of these types, bottom to top, face up (or as "
                                "the third argument says: \"face down\")"),
    _arranger("stack_pile", False, "cards of these types go on top of the pile in this order, face up (or as "
                                   "the third argument says: \"face down\")"),
]
