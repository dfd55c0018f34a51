"""The stack track: spaces in a row (or a loop) where pieces stand in stacks, one on another; a
piece that moves carries the pieces on its back, and lands on top of (or under) the stack where
it arrives. Markers (pieces of a kind declared `marker: true`) stand on a space beside the stack:
drawn, read by the rules, never in a stack, never in the board's order.

A piece stands at a *progress* (spaces from the start; on a loop it counts the laps) and a
*height* in its space's stack (1: the bottom; 0: a marker). The board's order puts the farthest
first, and in one space the top of the stack first (a runner that rides another is ahead of it).
On an open track (the default) a move that would go past the last space ends on it; on a loop
(`loop: true`) progress goes on lap after lap. Spaces may carry properties (`space_props`, as on
a lane track), read with `stack_prop`.

Run-time data is `st.bd[index] = [progress per piece, height per piece]` (None: off the board),
two short lists copied by `clone`.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...base.errors import RuleError
from ...lang.types import INT, PIECE, TEXT, listof
from ...library.api import Builtin, Fixed, Table
from ..base import BoardKind, Props, heard_by_change, in_space, move_events, on_board, prop_value, register
from ..segments import Segment, problem, props_of, spaces_of

Data = list[list[Any]]   # [progress per piece, height per piece] (the module's doc)


class StackProps(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="StackProps")
    at: int = Field(ge=0, description="the space")
    to: int | None = Field(None, ge=0, description="the last space of a stretch from `at`")
    props: Props = Field(description="what the rules read of these spaces with `stack_prop`")


class StacksModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="StacksBoard")
    kind: Literal["stacks"] = Field(description="stacks: spaces where pieces stand one on another and "
                                                "carry those on their backs")
    spaces: int | None = Field(None, ge=2, le=1000, description="spaces, 0 the first; or `segments`")
    segments: list[Segment] | None = Field(
        None, min_length=1, description="the track as stretches (length, properties), in place of `spaces` "
                                        "and `space_props`")
    loop: bool = Field(False, description="a loop: progress goes on past the last space, lap after lap "
                                          "(else a move that would go past the last space ends on it)")
    finish: int | None = Field(None, ge=1, description="the finish line lies before this progress "
                                                       "(default: before the last space)")
    space_props: list[StackProps] = Field(default_factory=list,
                                          description="properties of spaces, read with `stack_prop`")
    shade: str | None = Field(None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
                              description="a property the picture tints the spaces that have, with its value")

    @model_validator(mode="after")
    def _fits(self) -> StacksModel:
        if self.segments is not None:
            given = [k for k in ("spaces", "space_props") if k in self.model_fields_set]
            if given:
                raise ValueError(f"`segments` describe the track: give no `{given[0]}` beside them")
            if any(seg.line is not None for seg in self.segments):
                raise ValueError("a stack track has no lines across it: its finish is `finish`")
            if spaces_of(self.segments) > 1000:
                raise ValueError(f"the segments make {spaces_of(self.segments)} spaces; a track has at "
                                 "most 1000")
            found = problem(self.segments, loop=self.loop)
            if found:
                raise ValueError(found)
            data = self.model_dump(exclude_none=True, exclude={"segments"})
            data.update(spaces=spaces_of(self.segments), space_props=props_of(self.segments))
            return type(self).model_validate(data)
        if self.spaces is None:
            raise ValueError("a stack track has `spaces` (and its properties) or `segments`")
        for i, sp in enumerate(self.space_props):
            last = sp.at if sp.to is None else sp.to
            if sp.at >= self.spaces or last >= self.spaces:
                raise ValueError(f"space_props.{i}: a space outside the {self.spaces} spaces")
            if last < sp.at:
                raise ValueError(f"space_props.{i}: `to` {last} lies before `at` {sp.at}")
        if not self.loop and self.finish is not None and self.finish >= self.spaces:
            raise ValueError(f"the finish before {self.finish} is not within the {self.spaces} spaces")
        return self


@register
class Stacks(BoardKind):
    kind = "stacks"
    noun = "a stack track"
    events = move_events(INT, "progress", blocked=False)
    Model = StacksModel
    has_places = False
    piece_at = (0, None)

    def __init__(self, name: str, index: int, decl: Any, plan: Any) -> None:
        super().__init__(name, index, decl, plan)
        d = decl
        self.L = d.spaces
        self.loop = d.loop
        self.finish = d.finish if d.finish is not None else d.spaces - 1
        self.props: list[dict | None] = [None] * self.L
        for sp in d.space_props:
            for s in range(sp.at, (sp.at if sp.to is None else sp.to) + 1):
                self.props[s] = {**(self.props[s] or {}), **sp.props}
        self.marker = list(plan.piece_marker) if plan is not None else []

    def place_key(self, place: Any) -> str | None:
        """A progress names its space (on a loop, the progress of a later lap too)."""
        if not isinstance(place, int) or isinstance(place, bool):
            return None
        if self.loop:
            return str(place % self.L)
        return str(place) if 0 <= place < self.L else None

    # ---- run-time data ------------------------------------------------------------------------

    def init(self, st: Table) -> Data:
        n = st.plan.n_pieces
        return [[None] * n, [0] * n]

    def clone(self, data: Data) -> Data:
        return [data[0][:], data[1][:]]

    # ---- the stacks ---------------------------------------------------------------------------

    def _here(self, data: Data, d: int) -> list[int]:
        """The pieces in the space of progress d: on a loop, a piece a lap ahead or behind stands
        in that space too (in the same stack)."""
        return in_space(data[0], d, self.L if self.loop else None)

    def stack(self, data: Data, d: int) -> list[int]:
        """The pieces stacked at progress d, bottom to top (markers aside)."""
        height = data[1]
        on = [pc for pc in self._here(data, d) if height[pc] > 0]
        on.sort(key=height.__getitem__)
        return on

    def markers(self, data: Data, d: int) -> list[int]:
        height = data[1]
        return [pc for pc in self._here(data, d) if height[pc] == 0]

    def _restack(self, data: Data, pieces: list[int]) -> None:
        for h, pc in enumerate(pieces, 1):
            data[1][pc] = h

    def lift(self, data: Data, pc: int) -> list[int]:
        """Take pc and the pieces on its back off their space (those under it stay): them, bottom
        first."""
        d = data[0][pc]
        if data[1][pc] == 0:   # a marker: alone
            data[0][pc] = None
            return [pc]
        here = self.stack(data, d)
        cut = here.index(pc)
        for q in here[cut:]:
            data[0][q] = None
        return here[cut:]

    def land(self, data: Data, pieces: list[int], d: int, under: bool = False) -> None:
        """Put pieces (bottom first) at progress d, on top of the stack there (or under it)."""
        if not self.loop:
            d = max(0, min(d, self.L - 1))
        here = self.stack(data, d)
        for pc in pieces:
            data[0][pc] = d
        self._restack(data, pieces + here if under else here + pieces)

    def take_off(self, data: Data, pc: int) -> None:
        """pc leaves the board alone: the pieces on its back come down one."""
        d = data[0][pc]
        if d is None:
            return
        marker = data[1][pc] == 0
        data[0][pc] = None
        data[1][pc] = 0
        if not marker:
            self._restack(data, self.stack(data, d))

    def order(self, data: Data) -> list[int]:
        """The pieces in stacks, the farthest first; in one space the top of the stack first."""
        pos, height = data
        on = [pc for pc, p in enumerate(pos) if p is not None and height[pc] > 0]
        on.sort(key=lambda pc: (-pos[pc], -height[pc], pc))
        return on

    def where_of(self, data: Data, pc: int) -> int | None:
        return data[0][pc]

    def in_order(self, data: Data) -> list[int]:
        return self.order(data)

    # ---- what a seat sees ---------------------------------------------------------------------

    def _where(self, data: Data, pc: int) -> str:
        d, h = data[0][pc], data[1][pc]
        at = f"space {d % self.L}" + (f", lap {d // self.L + 1}" if self.loop else "")
        if h == 0:
            return f"{at} (a marker)"
        size = len(self.stack(data, d))
        place = "alone" if size == 1 else "on top" if h == size else "at the bottom" if h == 1 else \
            f"{h} of {size} from the bottom"
        return f"{at}, {place}" + (" (past the finish)" if d >= self.finish else "")

    def positions(self, st: Table) -> list[tuple[str, str]]:
        data = st.bd[self.index]
        names = self.plan.piece_names
        out = [(names[pc], self._where(data, pc)) for pc in self.order(data)]
        out += [(names[pc], self._where(data, pc)) for pc, p in enumerate(data[0])
                if p is not None and data[1][pc] == 0]
        return out

    def view(self, st: Table, seat: int | None) -> dict:
        """Each space that holds anything: its stack bottom to top and its markers; the pieces in
        the board's order with where they stand."""
        data = st.bd[self.index]
        names = self.plan.piece_names
        # one entry a space (on a loop, pieces a lap apart stand in one stack: it is named by the
        # progress of the farthest)
        first: dict[int, int] = {}
        for p in sorted((p for p in data[0] if p is not None), reverse=True):
            first.setdefault(p % self.L if self.loop else p, p)
        spaces = sorted(first.values())
        return {"kind": self.kind, "spaces": self.L, "loop": self.loop, "finish": self.finish,
                "stacks": [{"progress": d, "space": d % self.L,
                            "stack": [names[pc] for pc in self.stack(data, d)],
                            "markers": [names[pc] for pc in self.markers(data, d)]} for d in spaces],
                "pieces": [{"piece": name, "where": where} for name, where in self.positions(st)]}


# ---- built-ins -----------------------------------------------------------------------------

# A built-in's piece argument may be none (a rule error, said by `_piece`): those that go on
# reading it after `_piece` or `_on` take it as `Any`.
def _piece(name: str, p: int | None) -> int:
    if p is None:
        raise RuleError(f"`{name}`: a piece was expected, not none")
    return p


def _on(k: Stacks, st: Table, name: str, p: Any) -> Data:
    data = st.bd[k.index]
    if data[0][_piece(name, p)] is None:
        raise RuleError(f"`{name}`: `{st.plan.piece_names[p]}` is not on board `{k.name}`")
    return data


@on_board(Stacks, "stack_at", [(INT, "the progress of `stack_at`")], listof(PIECE),
          "the pieces stacked at this progress, bottom to top (markers aside)")
def _at(k: Stacks, st: Table, _b: int, d: int) -> list[int]:
    return k.stack(st.bd[k.index], d)


@on_board(Stacks, "stack_markers", [(INT, "the progress of `stack_markers`")], listof(PIECE),
          "the markers standing at this progress")
def _markers(k: Stacks, st: Table, _b: int, d: int) -> list[int]:
    return k.markers(st.bd[k.index], d)


@on_board(Stacks, "stack_space", [(PIECE, "the piece of `stack_space`")], INT,
          "the progress the piece stands at, or none when it is off the board")
def _space(k: Stacks, st: Table, _b: int, p: int | None) -> int | None:
    return st.bd[k.index][0][_piece("stack_space", p)]


@on_board(Stacks, "stack_height", [(PIECE, "the piece of `stack_height`")], INT,
          "the piece's place in its stack, 1 at the bottom (0 for a marker or off the board)")
def _height(k: Stacks, st: Table, _b: int, p: int | None) -> int:
    data = st.bd[k.index]
    return 0 if data[0][_piece("stack_height", p)] is None else data[1][p]


@on_board(Stacks, "stack_above", [(PIECE, "the piece of `stack_above`")], listof(PIECE),
          "the pieces on the piece's back, bottom to top (none for a marker)")
def _above(k: Stacks, st: Table, _b: int, p: Any) -> list[int]:
    data = _on(k, st, "stack_above", p)
    if data[1][p] == 0:
        return []
    here = k.stack(data, data[0][p])
    return here[here.index(p) + 1:]


@on_board(Stacks, "stack_order", [], listof(PIECE),
          "the pieces in stacks, the farthest first; in one space, the top of the stack first")
def _order(k: Stacks, st: Table, _b: int) -> list[int]:
    return k.order(st.bd[k.index])


@on_board(Stacks, "stack_finish", [], INT, "the progress of the finish line", pure=True)
def _finish(k: Stacks, st: Fixed, _b: int) -> int:
    return k.finish


@on_board(Stacks, "stack_prop", [(INT, "the progress of `stack_prop`"),
                                 (TEXT, "the property of `stack_prop`"),
                                 ("T:plain", "the value of `stack_prop` where the space has none")], "T",
          "a property of the space at this progress (`space_props`), or the default given", pure=True)
def _prop(k: Stacks, st: Fixed, _b: int, d: int, name: str, default: Any) -> Any:
    return prop_value(k.props[d % k.L] if k.loop or 0 <= d < k.L else None, name, default,
                      f"space {d} of `{k.name}`")


@on_board(Stacks, "stack_put", [(PIECE, "the piece `stack_put` puts"), (INT, "the progress of `stack_put`")],
          None, "the piece alone goes on top of the stack at this progress (a marker: beside it); the pieces "
                "on its back, if it stood on the board, come down one")
def _put(k: Stacks, st: Table, _b: int, p: Any, d: int) -> None:
    data = st.bd[k.index]
    k.take_off(data, _piece("stack_put", p))
    if st.plan.piece_marker[p]:
        data[0][p] = d if k.loop else max(0, min(d, k.L - 1))
        data[1][p] = 0
    else:
        k.land(data, [p], d)


def _mover(name: str, under: bool, doc: str) -> Builtin:
    @on_board(Stacks, name, [(PIECE, f"the piece `{name}` moves"), (INT, f"how many spaces `{name}` moves")],
              None, doc)
    def move(k: Stacks, st: Table, _b: int, p: Any, n: int) -> None:
        data = _on(k, st, name, p)
        if data[1][p] == 0:
            raise RuleError(f"`{name}`: `{st.plan.piece_names[p]}` is a marker: put it with `stack_put`")
        d = data[0][p]
        was = data[0][:]
        carried = k.lift(data, p)
        k.land(data, carried, d + n, under)
        if k.loop:   # on a loop each keeps its own lap: a piece a lap ahead stays a lap ahead
            for q in carried:
                data[0][q] = was[q] + n
    return move


_move = _mover("stack_move", False, "the piece and those on its back move this many spaces (back when "
                                    "negative) and land on top of the stack there, in their order")
_move_under = _mover("stack_move_under", True, "the piece and those on its back move this many spaces and "
                                               "land under the stack there, in their order")


@on_board(Stacks, "stack_remove", [(PIECE, "the piece `stack_remove` takes off")], None,
          "the piece alone leaves the board; the pieces on its back come down one")
def _remove(k: Stacks, st: Table, _b: int, p: int | None) -> None:
    k.take_off(st.bd[k.index], _piece("stack_remove", p))


for _effect in (_put, _move, _move_under):
    heard_by_change(Stacks, _effect)
Stacks.builtins = [_at, _markers, _space, _height, _above, _order, _finish, _prop, _put, _move, _move_under,
                   _remove]

__all__ = ["Stacks", "StacksModel"]
