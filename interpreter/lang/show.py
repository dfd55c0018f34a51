"""How values read to a person: cards by their type, pieces by name, seats by number."""
from __future__ import annotations

import re
from typing import Any, Iterable, Protocol

from ..base.errors import RuleError
from ..base.limits import MAX_INT, MAX_TEXT
from .types import ANY, BOARD, BOOL, CARD, DIE, PIECE, PILE, SEAT, Type, elem, is_list, is_map, map_types


class Names(Protocol):
    """What a game calls its cards, pieces, piles, dice and boards (a compiled `Plan`)."""
    card_names: list[str]
    card_type: list[int]
    piece_names: list[str]
    pile_names: list[str]
    die_names: list[str]
    board_names: list[str]


def show(plan: Names, typ: Type, v: Any) -> str:
    if v is None:
        return "none"
    if typ == CARD:
        return plan.card_names[plan.card_type[v]]
    if typ == PIECE:
        return plan.piece_names[v]
    if typ == SEAT:
        return f"seat {v + 1}"
    if typ == PILE:
        return plan.pile_names[v]
    if typ == DIE:
        return plan.die_names[v]
    if typ == BOARD:
        return plan.board_names[v]
    if typ == BOOL:
        return "yes" if v else "no"
    if is_list(typ) or (typ == ANY and isinstance(v, list)):
        inner = elem(typ) if is_list(typ) else ANY
        return "[" + _joined(show(plan, inner, x) for x in v) + "]"
    if is_map(typ) or (typ == ANY and isinstance(v, dict)):
        k, t = map_types(typ) if is_map(typ) else (ANY, ANY)
        return "{" + _joined(f"{show(plan, k, a)}: {show(plan, t, b)}" for a, b in v.items()) + "}"
    if typ == ANY and isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int) and not -MAX_INT <= v <= MAX_INT:
        raise RuleError(f"a number beyond the engine's limit ({MAX_INT}) was reached here")
    return str(v)


def words(plan: Names, typ: Type, v: Any) -> str:
    """A value as a sentence reads it (`{...}` in a text): a list as `a, b and c` (`none` when
    empty; a list of lists as `a and b; c and d`), a map as `key: value, key: value`; anything
    else as `show` gives it. No brackets: a person reads it."""
    if is_list(typ) and isinstance(v, list):
        inner = elem(typ)
        items = [words(plan, inner, x) for x in v]
        if not items:
            return "none"
        if is_list(inner) or is_map(inner):
            return "; ".join(items)
        return items[0] if len(items) == 1 else _joined(items[:-1]) + " and " + items[-1]
    if is_map(typ) and isinstance(v, dict):
        k, t = map_types(typ)
        return _joined(f"{show(plan, k, a)}: {words(plan, t, b)}" for a, b in v.items()) or "none"
    return show(plan, typ, v)


def _joined(texts: Iterable[str]) -> str:
    """The texts joined with commas, stopped as soon as they pass the ceiling of a text."""
    out, size = [], 0
    for t in texts:
        size += len(t) + 2
        if size > MAX_TEXT:
            raise RuleError(f"a text of more than {MAX_TEXT} characters")
        out.append(t)
    return ", ".join(out)


def natural(text: str) -> list[tuple[int, int, str]]:
    """Sort key of cards as a player sorts them, by their names: numbers inside by value (`2`
    before `10`). A hand is shown in this order, and the options made for its cards too."""
    return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", text.lower())]
