"""Static types of the rule language. Every expression has one, checked before play.

Types are short strings: int, bool, text, seat, piece, card, pile, board, none, any, and
`list[T]`. Seats, pieces, cards and piles are ints at run time; the type says which.
"""
from __future__ import annotations

INT, BOOL, TEXT, SEAT, PIECE, CARD, PILE, BOARD, NONE, ANY = (
    "int", "bool", "text", "seat", "piece", "card", "pile", "board", "none", "any")
DECLARABLE = {"int": INT, "bool": BOOL, "text": TEXT, "seat": SEAT, "piece": PIECE, "card": CARD,
              "pile": PILE}


def listof(t: str) -> str:
    return f"list[{t}]"


def is_list(t: str) -> bool:
    return t.startswith("list[")


def elem(t: str) -> str:
    return t[5:-1] if is_list(t) else ANY


def iterable_elem(t: str) -> str | None:
    """What a `for` over a value of type t binds: lists give their items, piles their cards."""
    if is_list(t):
        return elem(t)
    if t == PILE:
        return CARD
    if t == ANY:
        return ANY
    return None


def compatible(a: str, b: str) -> bool:
    """Can values of these types be compared for equality or stand in for each other?"""
    if a == b or ANY in (a, b):
        return True
    if NONE in (a, b):
        return True  # anything may be `none` (an empty slot, a missing property)
    if is_list(a) and is_list(b):
        return compatible(elem(a), elem(b))
    return False


def join(a: str, b: str) -> str:
    """The type of a value that is either a or b (branches of `if ... then ... else`)."""
    if a == b or b == NONE:
        return a
    if a == NONE:
        return b
    if ANY in (a, b):
        return ANY
    if is_list(a) and is_list(b):
        return listof(join(elem(a), elem(b)))
    return ANY


def of_value(v) -> str:
    """The type of a literal parameter value."""
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, str):
        return TEXT
    if isinstance(v, list):
        t = NONE
        for x in v:
            t = join(t, of_value(x))
        return listof(ANY if t == NONE else t)
    if v is None:
        return NONE
    return ANY
