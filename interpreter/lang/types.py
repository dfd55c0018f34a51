"""Static types of the rule language. Every expression has one, checked before play.

A type is a small immutable value: a plain type (`INT`, `BOOL`, `TEXT`, `SEAT`, `PIECE`,
`CARD`, `PILE`, `BOARD`, `DIE`, `NONE`, `ANY`), a list of a type (`ListType`) or a map from a plain
type to a type (`MapType`). Types compare and hash by value and read as the designer writes
them (`str(t)`: `list[int]`, `map[text,int]`). The types a designer declares (`type: list[piece]`)
are parsed once, where they are read (`parse_type`); nothing else reads a type's text.

Seats, pieces, cards, piles and dice are ints at run time; the type says which. Lists and maps are
values: changing an item makes a new one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar


@dataclass(frozen=True)
class Type:
    """A type of the language (an instance of one of the classes below)."""
    name: ClassVar[str] = "?"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Int(Type):
    name: ClassVar[str] = "int"


@dataclass(frozen=True)
class Bool(Type):
    name: ClassVar[str] = "bool"


@dataclass(frozen=True)
class Text(Type):
    name: ClassVar[str] = "text"


@dataclass(frozen=True)
class Seat(Type):
    name: ClassVar[str] = "seat"


@dataclass(frozen=True)
class Piece(Type):
    name: ClassVar[str] = "piece"


@dataclass(frozen=True)
class Card(Type):
    name: ClassVar[str] = "card"


@dataclass(frozen=True)
class Pile(Type):
    name: ClassVar[str] = "pile"


@dataclass(frozen=True)
class Board(Type):
    name: ClassVar[str] = "board"


@dataclass(frozen=True)
class Die(Type):
    name: ClassVar[str] = "die"


@dataclass(frozen=True)
class NoneValue(Type):
    """The type of `none` alone; anything may be `none`."""
    name: ClassVar[str] = "none"


@dataclass(frozen=True)
class AnyValue(Type):
    """Any value: the type of an expression after an error, of an empty list's items, of values
    a rule cannot know more about."""
    name: ClassVar[str] = "any"


@dataclass(frozen=True)
class ListType(Type):
    elem: Type

    def __str__(self) -> str:
        return f"list[{self.elem}]"


@dataclass(frozen=True)
class MapType(Type):
    key: Type
    value: Type

    def __str__(self) -> str:
        return f"map[{self.key},{self.value}]"


INT, BOOL, TEXT, SEAT, PIECE, CARD, PILE, BOARD, DIE, NONE, ANY = (
    Int(), Bool(), Text(), Seat(), Piece(), Card(), Pile(), Board(), Die(), NoneValue(), AnyValue())
DECLARABLE: dict[str, Type] = {t.name: t for t in (INT, BOOL, TEXT, SEAT, PIECE, CARD, PILE, DIE)}
KEY_TYPES = (INT, TEXT, SEAT, PIECE, CARD)
PLAIN: dict[str, Type] = {t.name: t for t in (INT, BOOL, TEXT, SEAT, PIECE, CARD, PILE, BOARD, DIE, NONE,
                                               ANY)}



class Per(str, Enum):
    """How many of a pile or a state variable there are, and whose each is (the files' `of:`):
    one per game, per seat, per piece, per card (variables only), or per place of a board (piles
    only: `Owner` names the board)."""
    GAME = "game"
    SEAT = "seat"
    PIECE = "piece"
    CARD = "card"
    PLACE = "place"


# piles that belong to a seat or a piece (a pile's owner number is that seat's or piece's)
HELD = (Per.SEAT, Per.PIECE)


@dataclass(frozen=True)
class Owner:
    """Whose a pile is: one per what, and the board's name for a pile on each of a board's places.
    Reads as the file writes it (`str(owner)`: `seat`, or the board's name)."""
    per: Per
    board: str | None = None

    @classmethod
    def read(cls, word: str, boards: list[str]) -> Owner | None:
        """The owner a pile's `of:` names, or None when it names none."""
        if word in ("game", "seat", "piece"):
            return cls(Per(word))
        return cls(Per.PLACE, word) if word in boards else None

    def __str__(self) -> str:
        return self.board if self.board is not None else self.per.value


def listof(t: Type) -> ListType:
    return ListType(t)


def mapof(k: Type, v: Type) -> MapType:
    return MapType(k, v)


def is_list(t: Type) -> bool:
    return isinstance(t, ListType)


def is_map(t: Type) -> bool:
    return isinstance(t, MapType)


def elem(t: Type) -> Type:
    """A list's item type (`any` for anything else)."""
    return t.elem if isinstance(t, ListType) else ANY


def holds_card(t: Type | None) -> bool:
    """Whether a value of type `t` is or holds a card (a list of cards, a map to cards, ...)."""
    if t is None:
        return False
    if t == CARD:
        return True
    if is_list(t):
        return holds_card(elem(t))
    if is_map(t):
        return any(holds_card(x) for x in map_types(t))
    return False


def map_types(t: Type) -> tuple[Type, Type]:
    """(key type, value type) of a map type."""
    return (t.key, t.value) if isinstance(t, MapType) else (ANY, ANY)


def iterable_elem(t: Type) -> Type | None:
    """What a `for` over a value of type t binds: lists give their items, piles their cards,
    maps their keys."""
    if isinstance(t, ListType):
        return t.elem
    if isinstance(t, MapType):
        return t.key
    if t == PILE:
        return CARD
    if t == ANY:
        return ANY
    return None


def mentions(t: Type, part: Type) -> bool:
    """Does `t` hold values of type `part` (itself, or inside lists and maps)?"""
    if t == part:
        return True
    if isinstance(t, ListType):
        return mentions(t.elem, part)
    if isinstance(t, MapType):
        return mentions(t.key, part) or mentions(t.value, part)
    return False


def zero(t: Type) -> Any:
    """What reading an absent key of a map gives: 0 for ints, false for bools, an empty list or
    map, else none. (The empty list or map is shared: lists and maps are never changed in place.)"""
    if is_list(t):
        return _EMPTY_LIST
    if is_map(t):
        return _EMPTY_MAP
    return 0 if t == INT else (False if t == BOOL else None)


_EMPTY_LIST: list = []
_EMPTY_MAP: dict = {}

_TOKEN = re.compile(r"\s*(?:([A-Za-z_]\w*)|(\S))")


def parse_type(text: str) -> Type | None:
    """A declared type (`int`, `list[piece]`, `map[text, int]`); None if it is not one."""
    tokens = [m.group(1) or m.group(2) for m in _TOKEN.finditer(str(text)) if m.group(1) or m.group(2)]
    found, rest = _declared(tokens)
    return found if not rest else None


def _declared(tokens: list[str]) -> tuple[Type | None, list[str]]:
    """A type read from the front of `tokens`, and the tokens after it."""
    if not tokens:
        return None, tokens
    word, rest = tokens[0], tokens[1:]
    if word in DECLARABLE:
        return DECLARABLE[word], rest
    if word in ("list", "map") and rest[:1] == ["["]:
        first, rest = _declared(rest[1:])
        if word == "list":
            return (ListType(first), rest[1:]) if first is not None and rest[:1] == ["]"] else (None, rest)
        if first not in KEY_TYPES or rest[:1] != [","]:
            return None, rest
        value, rest = _declared(rest[1:])
        if value is None or rest[:1] != ["]"]:
            return None, rest
        return MapType(first, value), rest[1:]
    return None, rest


def compatible(a: Type, b: Type) -> bool:
    """Can values of these types be compared for equality or stand in for each other?"""
    if a == b or ANY in (a, b):
        return True
    if NONE in (a, b):
        return True  # anything may be `none` (an empty slot, a missing property)
    if isinstance(a, ListType) and isinstance(b, ListType):
        return compatible(a.elem, b.elem)
    if isinstance(a, MapType) and isinstance(b, MapType):
        return compatible(a.key, b.key) and compatible(a.value, b.value)
    return False


def join(a: Type, b: Type) -> Type:
    """The type of a value that is either a or b (branches of `if ... then ... else`)."""
    if a == b or b == NONE:
        return a
    if a == NONE:
        return b
    if ANY in (a, b):
        return ANY
    if isinstance(a, ListType) and isinstance(b, ListType):
        return ListType(join(a.elem, b.elem))
    if isinstance(a, MapType) and isinstance(b, MapType):
        return MapType(join(a.key, b.key), join(a.value, b.value))
    return ANY


def of_value(v: Any) -> Type:
    """The type of a literal parameter value."""
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, str):
        return TEXT
    if isinstance(v, list):
        t: Type = NONE
        for x in v:
            t = join(t, of_value(x))
        return listof(ANY if t == NONE else t)
    if isinstance(v, dict):
        k: Type = NONE
        t = NONE
        for key, x in v.items():
            k, t = join(k, of_value(key)), join(t, of_value(x))
        return mapof(TEXT if k == NONE else k, ANY if t == NONE else t)
    if v is None:
        return NONE
    return ANY
