"""The ranking: an ordered row of slots 1..n, one piece each.

Run-time data is `st.bd[index] = [piece per slot (or None), slot per piece (0: not here)]`.
Places for piles: one per slot (`column(3)`: the pile of slot 3).
"""
from __future__ import annotations

from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...base.errors import RuleError
from ...lang.types import BOARD, INT, PIECE
from ...lang.versions import OldForm
from ...library.api import Builtin, Fixed, Param, PlanView, Read, Table
from ..base import ENTERED, BoardKind, heard_by_change, kind_at, move_events, on_board, register


class RankingModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="RankingBoard")
    kind: Literal["ranking"] = Field(description="ranking: an ordered row of slots 1..n")
    slots: int = Field(ge=1, le=64)


@register
class Ranking(BoardKind):
    kind = "ranking"
    # language 1 read a piece's slot as an attribute (`car.slot`)
    old_forms = (OldForm("piece.slot", "slot_of(piece)", 2),)
    noun = "a ranking"
    events = move_events(INT, "slot", blocked=False)
    Model = RankingModel
    has_places = True
    piece_at = (1, 0)

    @property
    def places(self) -> int:
        return self.decl.slots

    def init(self, st: Table) -> list[list[Any]]:
        return [[None] * self.decl.slots, [0] * st.plan.n_pieces]

    def clone(self, data: list[list[Any]]) -> list[list[Any]]:
        return [data[0][:], data[1][:]]


    def where_of(self, data: list[list[Any]], pc: int) -> int | None:
        return data[1][pc] or None

    def in_order(self, data: list[list[Any]]) -> list[int]:
        return [pc for pc in data[0] if pc is not None]

    def positions(self, st: Table) -> list[tuple[str, str]]:
        names = self.plan.piece_names
        slots = st.bd[self.index][0]
        return [(names[pc], f"position {i}") for i, pc in enumerate(slots, 1) if pc is not None]

    def view(self, st: Table, seat: int | None) -> dict:
        names = self.plan.piece_names
        return {"kind": self.kind,
                "slots": [None if pc is None else names[pc] for pc in st.bd[self.index][0]],
                "pieces": [{"piece": p, "where": w} for p, w in self.positions(st)]}


def _ranking_of(st: Table, p: int) -> tuple[Ranking | None, list[list[Any]] | None]:
    """(kind, data) of the ranking the piece stands on, or (None, None)."""
    for i, k in enumerate(st.plan.board_kinds):
        if isinstance(k, Ranking) and st.bd[i][1][p]:
            return k, st.bd[i]
    return None, None


@on_board(Ranking, "at", [(INT, "the slot of `at`")], PIECE,
          "the piece in slot n, or none (an empty slot, or n outside the board)")
def _at(k: Ranking, st: Table, _b: int, i: int | None) -> int | None:
    slots = st.bd[k.index][0]
    return slots[i - 1] if i is not None and 1 <= i <= len(slots) else None


def _slots_run(st: Fixed, b: int | None) -> list[int]:
    return list(range(1, kind_at(st, b, Ranking, "slots").decl.slots + 1))


_slots = Builtin("slots", (Param("ranking", "the board of `slots`"),), "list[int]", _slots_run,
                 "[1, 2, ..., n]", pure=True, kind="ranking")


def _slot_of_run(st: Table, p: int | None) -> int:
    if p is None:
        raise RuleError("`slot_of`: a piece was expected, not none")
    _k, data = _ranking_of(st, p)
    return 0 if data is None else data[1][p]


def _one_ranking(plan: PlanView) -> int | None:
    """The index of the game's only ranking, or None (no ranking, or several)."""
    found = [i for i, k in enumerate(plan.board_kinds) if isinstance(k, Ranking)]
    return found[0] if len(found) == 1 else None


def _slot_of_bind(plan: PlanView, consts: list[Any]) -> Read | None:
    i = _one_ranking(plan)
    return None if i is None else Read(i, 1)  # the slot per piece: 0 when not on the board


_slot_of = Builtin("slot_of", (Param(PIECE, "the piece of `slot_of`"),), INT, _slot_of_run,
                   "its slot on a ranking, from 1; 0 when it is on none", bind=_slot_of_bind, kind="ranking")


def _place_run(st: Table, p: int | None, b: int | None) -> None:
    k = kind_at(st, b, Ranking, "place")
    if p is None:
        raise RuleError("`place`: a piece was expected, not none")
    if _ranking_of(st, p)[0] is not None:
        raise RuleError(f"`{st.plan.piece_names[p]}` is already on a board")
    slots, where = st.bd[k.index]
    for i, occupant in enumerate(slots):
        if occupant is None:
            slots[i] = p
            where[p] = i + 1
            return
    raise RuleError("the board is full")


_place = Builtin("place", (Param(PIECE, "the piece `place` puts on a board"),
                           Param("ranking", "where `place` puts it")),
                 None, _place_run, "the piece takes the first empty slot of the board", kind="ranking")


def _swap_run(st: Table, a: int | None, b: int | None) -> None:
    ka = _ranking_of(st, a)[0] if a is not None else None
    kb = _ranking_of(st, b)[0] if b is not None else None
    if ka is None or kb is None or ka is not kb:
        raise RuleError("`swap` needs two pieces on the same board")
    slots, where = st.bd[ka.index]
    sa, sb = where[a], where[b]
    slots[sa - 1], slots[sb - 1] = b, a
    where[a], where[b] = sb, sa


def _swap_bind(plan: PlanView, consts: list[Any]) -> Callable[[Table, int | None, int | None], None] | None:
    i = _one_ranking(plan)
    if i is None:
        return None

    def swap(st: Table, a: int | None, b: int | None) -> None:
        slots, where = st.bd[i]
        if a is None or b is None or not where[a] or not where[b]:
            return _swap_run(st, a, b)  # says what is wrong
        sa, sb = where[a], where[b]
        slots[sa - 1], slots[sb - 1] = b, a
        where[a], where[b] = sb, sa
    return swap


_swap = Builtin("swap", (Param(PIECE, "the first piece `swap` exchanges"),
                         Param(PIECE, "the second piece `swap` exchanges")),
                None, _swap_run, "the two pieces exchange their slots (on the same board)",
                bind=_swap_bind, kind="ranking")


def _set_order_run(st: Table, b: int | None, pieces: list[int]) -> None:
    k = kind_at(st, b, Ranking, "set_order")
    slots, where = st.bd[k.index]
    if len(pieces) > len(slots):
        raise RuleError(f"{len(pieces)} pieces do not fit in {len(slots)} slots")
    for pc in slots:
        if pc is not None:
            where[pc] = 0
    for i in range(len(slots)):
        slots[i] = pieces[i] if i < len(pieces) else None
    for i, pc in enumerate(pieces):
        where[pc] = i + 1


_set_order = Builtin("set_order", (Param("ranking", "the board of `set_order`"),
                                   Param("list[piece]", "the pieces of `set_order`")),
                     None, _set_order_run,
                     "the pieces stand in slots 1, 2, ... in this order; the others leave",
                     kind="ranking")

# `set_order` arranges the table: it raises nothing; `place` puts a piece on no board yet
heard_by_change(Ranking, _place, (ENTERED,))
heard_by_change(Ranking, _swap)
Ranking.builtins = [_at, _slots, _slot_of, _place, _swap, _set_order]

__all__ = ["Ranking", "BOARD"]
