"""Built-in functions (values) and effects (statements) of the rule language.

Each entry compiles its arguments, checks their types and returns `(fn, type)` for a
function or `fn` for an effect. All are generic: piles, lists, boards, seats, pieces.
"""
from __future__ import annotations

from .expr import _const
from .show import show
from .state import RuleError
from .types import (ANY, BOARD, BOOL, CARD, INT, PIECE, PILE, SEAT, TEXT, compatible, elem,
                    is_list, iterable_elem, listof)


def _arity(c, name, args, node, n):
    if len(args) != n:
        c.error("E124", f"`{name}` takes {n} argument(s), got {len(args)}", node)
        return False
    return True


def _list_arg(c, name, args, node, sc):
    """One argument that is a list (or a pile, taken as its cards): (fn, element type)."""
    if not _arity(c, name, args, node, 1):
        return None, ANY
    fn, typ = c.expr(args[0], sc)
    et = iterable_elem(typ)
    if et is None:
        c.type_error(f"`{name}` needs a list or a pile, not {typ}", args[0])
        return None, ANY
    return c.as_items(fn, typ), et


def _size(c, args, node, sc):
    if not _arity(c, "size", args, node, 1):
        return _const(0), INT
    fn, typ = c.expr(args[0], sc)
    if typ == PILE:
        return (lambda st, env: len(st.piles[fn(st, env)])), INT
    if is_list(typ) or typ == ANY:
        return (lambda st, env: len(fn(st, env))), INT
    return c.type_error(f"`size` counts a list or a pile, not {typ}", args[0])


def _pile_end(index):
    def build(c, args, node, sc):
        name = "top" if index == -1 else "bottom"
        if not _arity(c, name, args, node, 1):
            return _const(None), CARD
        fn = c.want(args[0], sc, PILE, f"`{name}` looks at a pile;")

        def end(st, env):
            pile = st.piles[fn(st, env)]
            return pile[index] if pile else None
        return end, CARD
    return build


def _cards(c, args, node, sc):
    if not _arity(c, "cards", args, node, 1):
        return _const([]), listof(CARD)
    fn = c.want(args[0], sc, PILE, "`cards` lists a pile;")
    return (lambda st, env: st.piles[fn(st, env)][:]), listof(CARD)


def _numbers(name, reduce):
    def build(c, args, node, sc):
        fn, et = _list_arg(c, name, args, node, sc)
        if fn is None:
            return _const(0), INT
        if not compatible(et, INT):
            return c.type_error(f"`{name}` works on a list of ints, not of {et}", args[0])
        loc = c.loc(node)

        def run(st, env):
            xs = fn(st, env)
            if not xs and name != "sum":
                raise RuleError(f"`{name}` of an empty list", loc)
            return reduce(xs)
        return run, INT
    return build


def _bools(name, reduce):
    def build(c, args, node, sc):
        fn, et = _list_arg(c, name, args, node, sc)
        if fn is None:
            return _const(False), BOOL
        if not compatible(et, BOOL):
            return c.type_error(f"`{name}` works on a list of true/false, not of {et}", args[0])
        return (lambda st, env: reduce(fn(st, env))), BOOL
    return build


def _list_end(index):
    def build(c, args, node, sc):
        name = "first" if index == 0 else "last"
        fn, et = _list_arg(c, name, args, node, sc)
        if fn is None:
            return _const(None), ANY

        def end(st, env):
            xs = fn(st, env)
            return xs[index] if xs else None
        return end, et
    return build


def _count(c, args, node, sc):
    fn, et = _list_arg(c, "count", args, node, sc)
    if fn is None:
        return _const(0), INT
    if not compatible(et, BOOL):
        return c.type_error(f"`count` counts the true values of a list of bool, not of {et}", args[0],
                            "to count items use `size`")
    return (lambda st, env: sum(1 for x in fn(st, env) if x)), INT


def _distinct(c, args, node, sc):
    """Cards that look alike count once (the first of each card type): choices stay short."""
    fn, et = _list_arg(c, "distinct", args, node, sc)
    if fn is None:
        return _const([]), listof(ANY)
    if et == CARD:
        kinds = c.plan.card_type

        def distinct_cards(st, env):
            seen = set()
            out = []
            for card in fn(st, env):
                k = kinds[card]
                if k not in seen:
                    seen.add(k)
                    out.append(card)
            return out
        return distinct_cards, listof(CARD)
    return (lambda st, env: list(dict.fromkeys(fn(st, env)))), listof(et)


def _shuffled(c, args, node, sc):
    fn, et = _list_arg(c, "shuffled", args, node, sc)
    if fn is None:
        return _const([]), listof(ANY)
    plan = c.plan

    def shuffled(st, env):
        xs = list(fn(st, env))
        st.rng.shuffle(xs)
        if st.trace is not None:
            st.trace.append(("chance", "shuffled list", [show(plan, et, x) for x in xs]))
        return xs
    return shuffled, listof(et)


def _reversed(c, args, node, sc):
    fn, et = _list_arg(c, "reversed", args, node, sc)
    if fn is None:
        return _const([]), listof(ANY)
    return (lambda st, env: fn(st, env)[::-1]), listof(et)


def _at(c, args, node, sc):
    if not _arity(c, "at", args, node, 2):
        return _const(None), PIECE
    board = c.want(args[0], sc, BOARD, "the first argument of `at` (a board)")
    slot = c.want(args[1], sc, INT, "the slot of `at`")

    def at(st, env):
        slots = st.slots[board(st, env)]
        i = slot(st, env)
        return slots[i - 1] if 1 <= i <= len(slots) else None
    return at, PIECE


def _slots(c, args, node, sc):
    if not _arity(c, "slots", args, node, 1):
        return _const([]), listof(INT)
    board = c.want(args[0], sc, BOARD, "`slots` lists a board's slots;")
    sizes = c.plan.board_slots
    return (lambda st, env: list(range(1, sizes[board(st, env)] + 1))), listof(INT)


def _seat(c, args, node, sc):
    if not _arity(c, "seat", args, node, 1):
        return _const(None), SEAT
    n_fn = c.want(args[0], sc, INT, "`seat` takes a seat number;")
    n = c.plan.n_seats
    loc = c.loc(node)

    def seat(st, env):
        k = n_fn(st, env)
        if not 1 <= k <= n:
            raise RuleError(f"there is no seat {k} in a game of {n}", loc)
        return k - 1
    return seat, SEAT


def _piece(c, args, node, sc):
    if not _arity(c, "piece", args, node, 1):
        return _const(None), PIECE
    name_fn = c.want(args[0], sc, TEXT, "`piece` takes a piece's name;")
    names = c.plan.piece_names
    loc = c.loc(node)

    def piece(st, env):
        name = name_fn(st, env)
        if name not in names:
            raise RuleError(f"no piece is named `{name}`", loc)
        return names.index(name)
    return piece, PIECE


def _abs(c, args, node, sc):
    if not _arity(c, "abs", args, node, 1):
        return _const(0), INT
    fn = c.want(args[0], sc, INT, "`abs` takes an int;")
    return (lambda st, env: abs(fn(st, env))), INT


BUILTINS = {
    "size": _size, "top": _pile_end(-1), "bottom": _pile_end(0), "cards": _cards,
    "sum": _numbers("sum", sum), "min": _numbers("min", min), "max": _numbers("max", max),
    "any": _bools("any", any), "all": _bools("all", all), "count": _count,
    "first": _list_end(0), "last": _list_end(-1), "distinct": _distinct, "shuffled": _shuffled,
    "reversed": _reversed, "at": _at, "slots": _slots, "seat": _seat, "piece": _piece, "abs": _abs,
}


# ---- effects: statements that set the table (scenarios use them to arrange a situation) ----

def _arranger(name: str, exact: bool):
    """set_pile(pile, ["type", ...]): the pile holds exactly these cards, bottom to top;
    stack_pile(pile, [...]): these cards go on top of what the pile holds (the last is the top).

    Named cards are taken from wherever they are, preferring the pile itself, then the pile
    their card started in. With set_pile, cards already there go back where they started.
    """
    def build(c, args, node, sc):
        if not _arity(c, name, args, node, 2):
            return None
        pile = c.want(args[0], sc, PILE, f"the first argument of `{name}`")
        fn, typ = c.expr(args[1], sc)
        if not (is_list(typ) and compatible(elem(typ), TEXT)):
            c.type_error(f"`{name}` takes a list of card type names, not {typ}", args[1])
            return None
        plan = c.plan
        loc = c.loc(node)

        def arrange(st, env):
            dest = pile(st, env)
            taken = []
            for tname in fn(st, env):
                if tname not in plan.card_types:
                    raise RuleError(f"no card type `{tname}`", loc)
                ti = plan.card_types.index(tname)
                candidates = [k for k, t in enumerate(plan.card_type) if t == ti and k not in taken]
                candidates.sort(key=lambda k: (st.where[k] != dest, st.where[k] != plan.card_start[k]))
                if not candidates:
                    raise RuleError(f"every card of type `{tname}` is already placed", loc)
                taken.append(candidates[0])
            if exact:
                for card in st.piles[dest][:]:
                    if card not in taken:
                        home = plan.card_start[card]
                        if home == dest:
                            raise RuleError(f"`{name}` cannot empty the pile where cards start; use `stack_pile`", loc)
                        st.move(card, home)
            for card in taken:
                st.move(card, dest, True)
        return arrange
    return build


def _set_order(c, args, node, sc):
    """set_order(board, [pieces]): the pieces stand in slots 1, 2, ... in this order."""
    if not _arity(c, "set_order", args, node, 2):
        return None
    board = c.want(args[0], sc, BOARD, "the first argument of `set_order`")
    fn, typ = c.expr(args[1], sc)
    if not (is_list(typ) and compatible(elem(typ), PIECE)):
        c.type_error(f"`set_order` takes a list of pieces, not {typ}", args[1])
        return None
    loc = c.loc(node)

    def set_order(st, env):
        b = board(st, env)
        pieces = fn(st, env)
        slots = st.slots[b]
        if len(pieces) > len(slots):
            raise RuleError(f"{len(pieces)} pieces do not fit in {len(slots)} slots", loc)
        for pc in slots:
            if pc is not None:
                st.pslot[pc] = 0
                st.pboard[pc] = -1
        for i in range(len(slots)):
            slots[i] = pieces[i] if i < len(pieces) else None
        for i, pc in enumerate(pieces):
            st.pslot[pc] = i + 1
            st.pboard[pc] = b
    return set_order


EFFECTS = {"set_pile": _arranger("set_pile", True), "stack_pile": _arranger("stack_pile", False),
           "set_order": _set_order}
