"""How values read to a person: cards by their type, pieces by name, seats by number."""
from __future__ import annotations

from .types import BOOL, CARD, PIECE, PILE, SEAT, elem, is_list


def show(plan, typ: str, v) -> str:
    if v is None:
        return "none"
    if typ == CARD:
        return plan.card_types[plan.card_type[v]]
    if typ == PIECE:
        return plan.piece_names[v]
    if typ == SEAT:
        return f"seat {v + 1}"
    if typ == PILE:
        return plan.pile_names[v]
    if typ == BOOL:
        return "yes" if v else "no"
    if is_list(typ):
        return "[" + ", ".join(show(plan, elem(typ), x) for x in v) + "]"
    return str(v)
