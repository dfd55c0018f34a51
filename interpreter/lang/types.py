"""Static types of the rule language. Every expression has one, checked before play.

Types are short strings: int, bool, text, seat, piece, card, pile, board, none, any,
`list[T]` and `map[K,V]` (keys of a plain type). Seats, pieces, cards and piles are ints at
run time; the type says which. Lists and maps are values: changing an item makes a new one.
"""
from __future__ import annotations

Type = str  # a type's canonical text

INT, BOOL, TEXT, SEAT, PIECE, CARD, PILE, BOARD, NONE, ANY = (
    "int", "bool", "text", "seat", "piece", "card", "pile", "board", "none", "any")
DECLARABLE = {"int": INT, "bool": BOOL, "text": TEXT, "seat": SEAT, "piece": PIECE, "card": CARD,
              "pile": PILE}


def listof(t: str) -> str:
    return f"list[{t}]"


def mapof(k: str, v: str) -> str:
    return f"map[{k},{v}]"


def is_map(t: str) -> bool:
    return t.startswith("map[")


def map_types(t: str) -> tuple[str, str]:
    """(key type, value type) of a map type."""
    inner = t[4:-1]
    depth = 0
    for i, ch in enumerate(inner):
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            return inner[:i], inner[i + 1:]
    return ANY, ANY


def zero(t: str):
    """What reading an absent key of a map gives: 0 for ints, false for bools, an empty list or
    map, else none. (The empty list or map is shared: lists and maps are never changed in place.)"""
    if is_list(t):
        return _EMPTY_LIST
    if is_map(t):
        return _EMPTY_MAP
    return 0 if t == INT else (False if t == BOOL else None)


_EMPTY_LIST: list = []
_EMPTY_MAP: dict = {}


KEY_TYPES = (INT, TEXT, SEAT, PIECE, CARD)


def parse_type(text: str) -> str | None:
    """A declared type (`int`, `list[piece]`, `map[text, int]`), canonical; None if it is not one."""
    text = "".join(str(text).split())
    if text in DECLARABLE:
        return DECLARABLE[text]
    if text.startswith("list[") and text.endswith("]"):
        inner = parse_type(text[5:-1])
        return None if inner is None else listof(inner)
    if text.startswith("map[") and text.endswith("]"):
        k, v = map_types(text)
        if k not in KEY_TYPES:
            return None
        value = parse_type(v)
        return None if value is None else mapof(k, value)
    return None


def is_list(t: str) -> bool:
    return t.startswith("list[")


def elem(t: str) -> str:
    return t[5:-1] if is_list(t) else ANY


def iterable_elem(t: str) -> str | None:
    """What a `for` over a value of type t binds: lists give their items, piles their cards,
    maps their keys."""
    if is_list(t):
        return elem(t)
    if is_map(t):
        return map_types(t)[0]
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
    if is_map(a) and is_map(b):
        return all(compatible(x, y) for x, y in zip(map_types(a), map_types(b)))
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
    if is_map(a) and is_map(b):
        (ka, va), (kb, vb) = map_types(a), map_types(b)
        return mapof(join(ka, kb), join(va, vb))
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
    if isinstance(v, dict):
        k = t = NONE
        for key, x in v.items():
            k, t = join(k, of_value(key)), join(t, of_value(x))
        return mapof(TEXT if k == NONE else k, ANY if t == NONE else t)
    if v is None:
        return NONE
    return ANY
