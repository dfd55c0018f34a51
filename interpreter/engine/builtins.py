"""Built-in functions (values) and effects (statements) of the rule language.

A function entry checks its arguments' types and returns `(python source, type)`; an effect
entry returns a closure `fn(st, env)`. All are generic: piles, lists, boards, seats, pieces.
"""
from __future__ import annotations

from lark import Tree

from .args import _arity, _want
from .show import show
from .state import RuleError
from .types import (ANY, BOARD, BOOL, CARD, INT, PIECE, PILE, SEAT, TEXT, compatible, elem,
                    is_list, iterable_elem, listof)


def _list_arg(c, name, args, node, sc):
    """One argument that is a list (or a pile, taken as its cards): (source, element type)."""
    if not _arity(c, name, args, node, 1):
        return None, ANY
    src, typ = c.gen(args[0], sc)
    et = iterable_elem(typ)
    if et is None:
        c.type_error(f"`{name}` needs a list or a pile, not {typ}", args[0])
        return None, ANY
    if typ == PILE:
        src = f"st.piles[{src}]"
    return src, et


def _size(c, args, node, sc):
    if not _arity(c, "size", args, node, 1):
        return "0", INT
    if isinstance(args[0], Tree) and args[0].data == "comprehension":
        src, typ, counted = c.comprehension(args[0], sc, "count")
        if counted:
            return src, INT
    else:
        src, typ = c.gen(args[0], sc)
    if typ == PILE:
        return f"len(st.piles[{src}])", INT
    if is_list(typ) or typ == ANY:
        return f"len({src})", INT
    return c.type_error(f"`size` counts a list or a pile, not {typ}", args[0])


def _end_of(xs, i):
    return xs[i] if xs else None


def _pile_end(index):
    def build(c, args, node, sc):
        name = "top" if index == -1 else "bottom"
        if not _arity(c, name, args, node, 1):
            return "None", CARD
        pile = _want(c, args[0], sc, PILE, f"`{name}` looks at a pile;")
        return f"st.end({pile}, {index})", CARD
    return build


def _cards(c, args, node, sc):
    if not _arity(c, "cards", args, node, 1):
        return "[]", listof(CARD)
    pile = _want(c, args[0], sc, PILE, "`cards` lists a pile;")
    return f"st.piles[{pile}][:]", listof(CARD)


def _numbers(name):
    def build(c, args, node, sc):
        if name == "sum" and len(args) == 1 and isinstance(args[0], Tree) and args[0].data == "comprehension":
            src, typ, summed = c.comprehension(args[0], sc, "sum")
            if summed:
                return src, INT
            et = iterable_elem(typ)
        else:
            src, et = _list_arg(c, name, args, node, sc)
        if src is None:
            return "0", INT
        if not compatible(et, INT):
            return c.type_error(f"`{name}` works on a list of ints, not of {et}", args[0])
        if name == "sum":
            return f"sum({src})", INT
        if isinstance(args[0], Tree) and args[0].data == "list" and any(x is not None for x in args[0].children):
            # a list written out is never empty: Python's own, given the items as arguments
            n = sum(x is not None for x in args[0].children)
            return (f"{name}({src[1:-1]})" if n > 1 else f"({src[1:-1]})"), INT
        loc = c.loc(node)
        pick = min if name == "min" else max

        def extreme(xs):
            if not xs:
                raise RuleError(f"`{name}` of an empty list", loc)
            return pick(xs)
        return f"{c.k(extreme)}({src})", INT
    return build


def _bools(name):
    def build(c, args, node, sc):
        src, et = _list_arg(c, name, args, node, sc)
        if src is None:
            return "False", BOOL
        if not compatible(et, BOOL):
            return c.type_error(f"`{name}` works on a list of true/false, not of {et}", args[0])
        return f"{name}({src})", BOOL
    return build


def _list_end(index):
    def build(c, args, node, sc):
        name = "first" if index == 0 else "last"
        src, et = _list_arg(c, name, args, node, sc)
        if src is None:
            return "None", ANY
        return f"{c.k(_end_of)}({src}, {index})", et
    return build


def _count(c, args, node, sc):
    src, et = _list_arg(c, "count", args, node, sc)
    if src is None:
        return "0", INT
    if not compatible(et, BOOL):
        return c.type_error(f"`count` counts the true values of a list of bool, not of {et}", args[0],
                            "to count items use `size`")
    return f"sum(1 for _x in {src} if _x)", INT


def _distinct_cards(kinds, cards):
    seen = set()
    out = []
    for card in cards:
        k = kinds[card]
        if k not in seen:
            seen.add(k)
            out.append(card)
    return out


def _distinct(c, args, node, sc):
    """Cards that look alike count once (the first of each card type): choices stay short."""
    src, et = _list_arg(c, "distinct", args, node, sc)
    if src is None:
        return "[]", listof(ANY)
    if et == CARD:
        return f"{c.k(_distinct_cards)}({c.k(c.plan.card_type)}, {src})", listof(CARD)
    return f"list({c.k(dict.fromkeys)}({src}))", listof(et)


def _shuffled(c, args, node, sc):
    src, et = _list_arg(c, "shuffled", args, node, sc)
    if src is None:
        return "[]", listof(ANY)
    plan = c.plan

    def shuffled(st, items):
        xs = list(items)
        st.rng.shuffle(xs)
        if st.believe is not None:
            st.believe.chance = True
        if st.trace is not None:
            st.trace.append(("chance", "shuffled list", [show(plan, et, x) for x in xs]))
        return xs
    return f"{c.k(shuffled)}(st, {src})", listof(et)


def _reversed(c, args, node, sc):
    src, et = _list_arg(c, "reversed", args, node, sc)
    if src is None:
        return "[]", listof(ANY)
    return f"list({src})[::-1]", listof(et)


def _at_slot(st, board, i):
    slots = st.slots[board]
    return slots[i - 1] if 1 <= i <= len(slots) else None


def _at(c, args, node, sc):
    if not _arity(c, "at", args, node, 2):
        return "None", PIECE
    board = _want(c, args[0], sc, BOARD, "the first argument of `at` (a board)")
    slot = _want(c, args[1], sc, INT, "the slot of `at`")
    return f"{c.k(_at_slot)}(st, {board}, {slot})", PIECE


def _slots(c, args, node, sc):
    if not _arity(c, "slots", args, node, 1):
        return "[]", listof(INT)
    board = _want(c, args[0], sc, BOARD, "`slots` lists a board's slots;")
    return f"list(range(1, {c.k(c.plan.board_slots)}[{board}] + 1))", listof(INT)


def _seat(c, args, node, sc):
    if not _arity(c, "seat", args, node, 1):
        return "None", SEAT
    num = _want(c, args[0], sc, INT, "`seat` takes a seat number;")
    n = c.plan.n_seats
    loc = c.loc(node)

    def seat(k):
        if not 1 <= k <= n:
            raise RuleError(f"there is no seat {k} in a game of {n}", loc)
        return k - 1
    return f"{c.k(seat)}({num})", SEAT


def _piece(c, args, node, sc):
    if not _arity(c, "piece", args, node, 1):
        return "None", PIECE
    name = _want(c, args[0], sc, TEXT, "`piece` takes a piece's name;")
    names = c.plan.piece_names
    loc = c.loc(node)

    def piece(text):
        if text not in names:
            raise RuleError(f"no piece is named `{text}`", loc, None)
        return names.index(text)
    return f"{c.k(piece)}({name})", PIECE


def _abs(c, args, node, sc):
    if not _arity(c, "abs", args, node, 1):
        return "0", INT
    return f"abs({_want(c, args[0], sc, INT, '`abs` takes an int;')})", INT


BUILTINS = {
    "size": _size, "top": _pile_end(-1), "bottom": _pile_end(0), "cards": _cards,
    "sum": _numbers("sum"), "min": _numbers("min"), "max": _numbers("max"),
    "any": _bools("any"), "all": _bools("all"), "count": _count,
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


def _add_board_builtins():
    """Board kinds bring their own built-ins (interpreter/boards)."""
    from ..boards import KINDS

    for kind in KINDS.values():
        for table, extra in ((BUILTINS, kind.functions), (EFFECTS, kind.effects)):
            for name, builder in extra.items():
                if name in BUILTINS or name in EFFECTS:
                    raise RuntimeError(f"board kind {kind.kind} redefines built-in `{name}`")
                table[name] = builder


_add_board_builtins()
