"""The cell graph: cells that touch (by an edge or at a point), each with the distance of its
front edge from the start line; pieces step forward from cell to cell.

A step goes to a touching cell whose front edge is farther from the start line than the front
edge of the cell the piece stands on: straight or diagonal, never sideways (same distance) or
back, and never into a taken cell. Nothing else is checked, so a piece may pass diagonally
between two taken cells, and a move of several cells is a sequence of steps chosen one by one
by the rules. Cells may carry tags (free names the rules can read: `curve`, `narrow`, ...) and a
number of the start grid, and lines lie across the track at a distance (a piece has passed a
line when the front edge of its cell is beyond it). On a looped track (`lap`) distances wrap
around: a piece's *progress* counts the laps. Pieces equally far along are ordered by lane, as
the board declares (`ties`).

Run-time data is `st.bd[index] = [cell per piece, progress per piece]` (cell index or None;
progress stays known after a piece leaves the board), two short lists copied by `clone`.
"""
from __future__ import annotations

from itertools import pairwise
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...base.diagnostics import Loc, Report, source_line
from ...base.errors import RuleError
from ...lang.types import BOOL, INT, PIECE, TEXT, listof
from ...lang.versions import OldForm
from ...library.api import Fixed, Table
from ..base import BoardKind, Props, heard_by_change, move_events, on_board, prop_value, register
from .segments import CellSegment, cells_of

Data = list[list[Any]]   # [cell per piece, progress per piece] (the module's doc)

_ID = r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
Tag = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]


# a coordinate of a cell's outline: a decimal number of at most 7 digits before the point and 12 after
# (`1.2.3` or a 400-digit number is refused by `validate`, not found by `render`)
_NUMBER = r"-?(?:[0-9]{1,7}(?:\.[0-9]{0,12})?|\.[0-9]{1,12})"
_POINT = f"{_NUMBER},{_NUMBER}"


class Cell(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="Cell")
    id: str = Field(pattern=_ID, description="the cell's name, as the rules and the views show it")
    front: int = Field(ge=0, description="distance of the cell's front edge from the start line")
    lane: int = Field(1, ge=1, le=20, description="lane across the track, 1 = the inner side")
    tags: list[Tag] = Field(default_factory=list,
                            description="names the rules can read with `cell_tagged` (e.g. `curve`); "
                                        "the picture shades a cell with tags")
    props: Props = Field(default_factory=dict,
                         description="what the rules read of the cell with `cell_prop`: name -> a number, a "
                                     "text or true/false (`width: 1`, `surface: gravel`)")
    grid: int | None = Field(None, ge=1, le=64, description="its number on the start grid, if any")
    touch: list[str] = Field(default_factory=list,
                             description="cells it touches by an edge or a point (either side may list it)")
    shape: str | None = Field(
        None, pattern=rf"^\s*{_POINT}(\s+{_POINT})*\s*$", max_length=100_000,
        description="the outline for the picture, as SVG points `x,y x,y ...`: back edge first, "
                    "the last two points are the front edge")

    def points(self) -> list[tuple[float, float]]:
        if not self.shape:
            return []
        return [(float(p.split(",")[0]), float(p.split(",")[1])) for p in self.shape.split()]


class CellsModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="CellsBoard")
    kind: Literal["cells"] = Field(description="cells: a graph of touching cells, forward steps only")
    lap: int | None = Field(None, ge=1, description="length of a lap if the track is a loop (distances wrap)")
    finish: int | None = Field(None, ge=0, description="distance of the finish line from the start line "
                                                       "(with `segments`: by default the lap, or the end)")
    lines: dict[str, int] = Field(default_factory=dict,
                                  description="other lines across the track: "
                                              "name -> distance from the start line")
    ties: Literal["inner_first", "outer_first"] = Field(
        "inner_first",
        description="the order of pieces equally far along (`cell_order`, views): inner_first = "
                    "the lower lane first (lane 1 = the inner side), outer_first = the higher lane first")
    cells: list[Cell] | None = Field(None, min_length=1, description="the cells, one by one; or `segments`")
    segments: list[CellSegment] | None = Field(
        None, min_length=1, description="the track as stretches (straights of rows, bends whose lanes have "
                                        "cells of their own), expanded into its cells, touches and outlines")
    lanes: int | None = Field(None, ge=1, le=20, description="with `segments`: the lanes across the road")
    row: int = Field(1, ge=1, description="with `segments`: the distance a straight row covers")
    loop: bool = Field(False, description="with `segments`: the road is a loop, its lap the segments' length")
    grid: list[str] = Field(default_factory=list,
                            description="with `segments`: the start grid's cells by id, number 1 first")

    @model_validator(mode="after")
    def _fits(self) -> CellsModel:
        if self.segments is not None:
            return self._expanded()
        if self.cells is None:
            raise ValueError("a cell board has its `cells` or `segments`")
        if self.finish is None:
            raise ValueError("a cell board has its `finish`: the finish line's distance from the start line")
        for key in ("lanes", "loop", "grid", "row"):
            if key in self.model_fields_set:
                raise ValueError(f"`{key}` goes with `segments`; a cell written one by one says it of itself")
        ids = [c.id for c in self.cells]
        seen = set()
        for i in ids:
            if i in seen:
                raise ValueError(f"cell `{i}` is defined twice")
            seen.add(i)
        for c in self.cells:
            for t in c.touch:
                if t not in seen:
                    raise ValueError(f"cell `{c.id}` touches `{t}`, which is not a cell")
                if t == c.id:
                    raise ValueError(f"cell `{c.id}` touches itself")
            if self.lap is not None and c.front > self.lap:
                raise ValueError(f"cell `{c.id}` lies at {c.front}, past the lap of {self.lap}")
        grid = [c.grid for c in self.cells if c.grid is not None]
        if len(set(grid)) != len(grid):
            raise ValueError("two cells have the same grid number")
        if "finish" in self.lines:
            raise ValueError("`finish` is the finish line's own name; name other lines differently")
        return self

    def _expanded(self) -> CellsModel:
        """The board its segments describe: its cells (ids, fronts, lanes, touches, outlines),
        its lap, finish and lines."""
        for key in ("cells", "lap"):
            if key in self.model_fields_set:
                raise ValueError(f"`segments` describe the track: give no `{key}` beside them"
                                 + (" (`loop: true` makes it a loop)" if key == "lap" else ""))
        if self.lanes is None:
            raise ValueError("a track written as `segments` says how many `lanes` it has")
        segs = self.segments
        assert segs is not None
        items, placed, length = cells_of(segs, self.lanes, self.row, self.loop, self.grid)
        for name in placed:
            if name in self.lines:
                raise ValueError(f"the line `{name}` is placed by a segment and in `lines`")
        data = self.model_dump(exclude_none=True, exclude={"segments", "lanes", "row", "loop", "grid"})
        data.update(cells=items, lines={**self.lines, **placed},
                    finish=self.finish if self.finish is not None else length)
        if self.loop:
            data["lap"] = length
        return type(self).model_validate(data)


# Language 1: a cell said whether it was rectangular (`rect: false`) and the rules asked
# `cell_rect(board, piece)`; a cell's tags replaced both, the old flag being the tag `curve`.
OLD_TAG = "curve"
RECT_SINCE = 2


def _rect_fix(loc: Loc | None, rect: bool, tags_too: bool) -> tuple[tuple[Loc, str, str], ...]:
    """The edit that rewrites a cell's `rect: ...` where it is written on one line."""
    line = source_line(loc) if loc is not None else None
    if loc is None or line is None:
        return ()
    rest = line[loc.col - 1:]
    written = "rect: " + ("true" if rect else "false")
    if not rest.startswith(written):
        return ()
    if not rect:  # the flag becomes the tag (beside tags written already: by hand)
        return () if tags_too else ((loc, written, f"tags: [{OLD_TAG}]"),)
    if rest[len(written):].startswith(", "):  # a key among others: taken out with its comma
        return ((loc, written + ", ", ""),)
    before = line[:loc.col - 1]
    if before.rstrip().endswith(","):  # the last key of a mapping on one line
        start = len(before.rstrip()) - 1
        return ((Loc(loc.file, loc.line, start + 1), line[start:loc.col - 1] + written, ""),)
    return ()


@register
class Cells(BoardKind):
    kind = "cells"
    noun = "a cell board"
    events = move_events(TEXT, "cell", blocked=False)
    Model = CellsModel
    has_places = False
    piece_at = (0, None)
    old_forms = (OldForm("cell_rect(board, piece)", f'not cell_tagged(board, piece, "{OLD_TAG}")',
                         RECT_SINCE),)

    @classmethod
    def read_old(cls, board: Any, version: int, said: list) -> Any:
        """A cell's `rect` (language 1): `rect: false` is the tag `curve`, `rect: true` nothing."""
        cells = board.get("cells")
        if not isinstance(cells, list) or not any(isinstance(c, dict) and "rect" in c for c in cells):
            return board
        new_cells = list(cells)
        for i, cell in enumerate(cells):
            if not isinstance(cell, dict) or "rect" not in cell:
                continue
            rect = cell["rect"] is not False
            where = getattr(cell, "key_locs", {}).get("rect")
            new_text = "" if rect else f"tags: [{OLD_TAG}]"
            report = Report()
            report.old_form(version, RECT_SINCE, f"cell `{cell.get('id')}`: `rect: {str(rect).lower()}`",
                            where, new_text or "tags: []", _rect_fix(where, rect, "tags" in cell))
            said.extend(report.items)
            if version < RECT_SINCE:
                new = type(cell)((k, v) for k, v in cell.items() if k != "rect")
                new.__dict__.update(cell.__dict__)
                if not rect:
                    new["tags"] = [*cell.get("tags", []), OLD_TAG]
                new_cells[i] = new
        out = type(board)(board)
        out.__dict__.update(board.__dict__)
        out["cells"] = type(cells)(new_cells)
        out["cells"].__dict__.update(cells.__dict__)
        return out

    def __init__(self, name: str, index: int, decl: Any, plan: Any) -> None:
        super().__init__(name, index, decl, plan)
        d = decl
        self.ids = [c.id for c in d.cells]
        self.index_of = {c.id: i for i, c in enumerate(d.cells)}
        self.front = [c.front for c in d.cells]
        self.tags = [tuple(str(t) for t in c.tags) for c in d.cells]
        self.props = [c.props or None for c in d.cells]
        self.lane = [c.lane for c in d.cells]
        self.lap = d.lap
        # equal progress: the lower lane first (inner_first) or the higher (outer_first)
        self.tie_sign = 1 if d.ties == "inner_first" else -1
        touch: list[set[int]] = [set() for _ in d.cells]
        for i, c in enumerate(d.cells):
            for t in c.touch:
                j = self.index_of[t]
                touch[i].add(j)
                touch[j].add(i)
        # forward neighbours and how far each step goes, computed once
        self.ahead: list[list[tuple[int, int]]] = []
        for i in range(len(d.cells)):
            out = []
            for j in sorted(touch[i], key=lambda j: (self.lane[j], self.ids[j])):
                delta = self.front[j] - self.front[i]
                if self.lap is not None:
                    delta %= self.lap
                    if delta * 2 >= self.lap:
                        continue
                if delta > 0:
                    out.append((j, delta))
            self.ahead.append(out)
        self.grid = {c.grid: i for i, c in enumerate(d.cells) if c.grid is not None}
        self.lines = dict(d.lines)
        self.lines["finish"] = d.finish
        self._strip = self._strip_geometry()
        self._steps: dict[int, dict[int, int]] = {}   # (`steps_from`)

    # ---- run-time data ----------------------------------------------------------------------

    def init(self, st: Table) -> Data:
        n = st.plan.n_pieces
        return [[None] * n, [None] * n]

    def clone(self, data: Data) -> Data:
        return [data[0][:], data[1][:]]


    def steps_from(self, start: int) -> dict[int, int]:
        """Each cell reachable going forward from `start`, with the fewest steps to it (`start`
        itself 0): a search over the forward neighbours, once per cell and kept. On a loop a
        cell behind is reached on the next lap."""
        found = self._steps.get(start)
        if found is None:
            found = {start: 0}
            frontier = [start]
            n = 0
            while frontier:
                n += 1
                nxt = []
                for i in frontier:
                    for j, _d in self.ahead[i]:
                        if j not in found:
                            found[j] = n
                            nxt.append(j)
                frontier = nxt
            self._steps[start] = found
        return found

    def next_cells(self, data: Data, pc: int) -> list[int]:
        at = data[0][pc]
        if at is None:
            return []
        taken = set(data[0])
        return [j for j, _d in self.ahead[at] if j not in taken]

    def where_of(self, data: Data, pc: int) -> str | None:
        at = data[0][pc]
        return None if at is None else self.ids[at]

    def in_order(self, data: Data) -> list[int]:
        return self.order(data)

    def order(self, data: Data) -> list[int]:
        """Pieces on the board, the farthest first; equal progress: by lane as `ties` says."""
        pos, prog = data
        on = [pc for pc, c in enumerate(pos) if c is not None]
        sign = self.tie_sign
        on.sort(key=lambda pc: (-prog[pc], sign * self.lane[pos[pc]], pc))
        return on

    # ---- views ------------------------------------------------------------------------------

    def positions(self, st: Table) -> list[tuple[str, str]]:
        data = st.bd[self.index]
        names = self.plan.piece_names
        return [(names[pc], f"cell {self.ids[data[0][pc]]}, lane {self.lane[data[0][pc]]}")
                for pc in self.order(data)]

    def view(self, st: Table, seat: int | None) -> dict:
        """The pieces on the board in its order (cell, lane, tags, progress, what is left to the
        finish, the free cells ahead), those that left it (farthest first), the lines, and the
        track's geometry for a strip (`text.py` draws it)."""
        data = st.bd[self.index]
        names = self.plan.piece_names
        finish = self.lines["finish"]
        pieces = []
        for pc in self.order(data):
            cell = data[0][pc]
            pieces.append({"piece": names[pc], "where": f"cell {self.ids[cell]}, lane {self.lane[cell]}",
                           "number": pc + 1, "cell": self.ids[cell], "lane": self.lane[cell],
                           "tags": list(self.tags[cell]), "progress": data[1][pc],
                           "to_go": finish - data[1][pc],
                           "next": [self.ids[j] for j in self.next_cells(data, pc)]})
        off = [pc for pc, c in enumerate(data[0]) if c is None and data[1][pc] is not None]
        off.sort(key=lambda pc: -data[1][pc])
        return {"kind": self.kind, "cells": len(self.ids), "lines": dict(self.lines),
                "facts": list(getattr(self.plan, "shown", {})),
                "pieces": pieces,
                "off": [{"piece": names[pc], "number": pc + 1, "progress": data[1][pc],
                         "to_go": finish - data[1][pc]} for pc in off],
                "strip": self._strip}

    def _strip_geometry(self) -> dict:
        """The track unrolled, for a text strip: its length, and per lane (inner first) each
        cell's span [back, front] of distance with its id and whether it has tags."""
        length = self.lap or max(max(self.front), self.lines["finish"])
        unit = length / 64
        lanes = []
        for ln in sorted(set(self.lane)):
            cells = sorted((i for i in range(len(self.ids)) if self.lane[i] == ln),
                           key=lambda i: self.front[i])
            steps = sorted(self.front[b] - self.front[a] for a, b in pairwise(cells))
            usual = steps[len(steps) // 2] if steps else unit
            spans = []
            prev = None
            for i in cells:
                back = self.front[i] - usual if prev is None or self.front[i] - self.front[prev] > 2 * usual \
                    else self.front[prev]
                spans.append([back, self.front[i], self.ids[i], bool(self.tags[i])])
                prev = i
            lanes.append([ln, spans])
        return {"length": length, "lap": self.lap, "lanes": lanes}


# ---- built-ins -----------------------------------------------------------------------------

# A built-in's piece argument may be none (a rule error, said by `_piece`): those that go on
# reading it after `_piece` take it as `Any`.
def _piece(name: str, p: int | None) -> int:
    if p is None:
        raise RuleError(f"`{name}`: a piece was expected, not none")
    return p


def _cell_index(k: Cells, cid: str, name: str) -> int:
    i = k.index_of.get(cid)
    if i is None:
        raise RuleError(f"`{name}`: board `{k.name}` has no cell `{cid}`")
    return i


def _line_at(k: Cells, name: str, line: str) -> int:
    if line not in k.lines:
        raise RuleError(f"`{name}`: board `{k.name}` has no line `{line}` (lines: {', '.join(k.lines)})")
    return k.lines[line]


@on_board(Cells, "cell_next", [(PIECE, "the piece of `cell_next`")], listof(TEXT),
          "the free cells one step forward of the piece (none when it is off the board)")
def _next(k: Cells, st: Table, _b: int, p: int | None) -> list[str]:
    return [k.ids[j] for j in k.next_cells(st.bd[k.index], _piece("cell_next", p))]


@on_board(Cells, "cell_of", [(PIECE, "the piece of `cell_of`")], TEXT,
          "the id of the piece's cell, or none when it is off the board")
def _of(k: Cells, st: Table, _b: int, p: int | None) -> str | None:
    at = st.bd[k.index][0][_piece("cell_of", p)]
    return None if at is None else k.ids[at]


@on_board(Cells, "cell_tagged", [(PIECE, "the piece of `cell_tagged`"), (TEXT, "the tag of `cell_tagged`")],
          BOOL, "whether the piece's cell has this tag (false when it is off the board)")
def _tagged(k: Cells, st: Table, _b: int, p: int | None, tag: str) -> bool:
    at = st.bd[k.index][0][_piece("cell_tagged", p)]
    return at is not None and tag in k.tags[at]


@on_board(Cells, "cell_prop", [(TEXT, "the cell of `cell_prop` (its id)"),
                               (TEXT, "the property of `cell_prop`"),
                               ("T:plain", "the value of `cell_prop` where the cell has none")], "T",
          "a property of the cell (its `props`), or the default given where it has none", pure=True)
def _prop(k: Cells, st: Fixed, _b: int, cid: str, name: str, default: Any) -> Any:
    i = _cell_index(k, cid, "cell_prop")
    return prop_value(k.props[i], name, default, f"cell `{cid}` of `{k.name}`")


@on_board(Cells, "cell_lane", [(PIECE, "the piece of `cell_lane`")], INT,
          "the lane of the piece's cell (1 = inner), 0 when it is off the board")
def _lane(k: Cells, st: Table, _b: int, p: int | None) -> int:
    at = st.bd[k.index][0][_piece("cell_lane", p)]
    return 0 if at is None else k.lane[at]


@on_board(Cells, "cell_on", [(PIECE, "the piece of `cell_on`")], BOOL, "whether the piece is on the board")
def _on(k: Cells, st: Table, _b: int, p: int | None) -> bool:
    return st.bd[k.index][0][_piece("cell_on", p)] is not None


@on_board(Cells, "cell_progress", [(PIECE, "the piece of `cell_progress`")], INT,
          "how far the piece has gone from the start line (laps counted; kept after it leaves), "
          "0 if never placed")
def _progress(k: Cells, st: Table, _b: int, p: int | None) -> int:
    return st.bd[k.index][1][_piece("cell_progress", p)] or 0


@on_board(Cells, "cell_to_go", [(PIECE, "the piece of `cell_to_go`")], INT,
          "the distance from the piece to the finish line (negative past it)")
def _to_go(k: Cells, st: Table, _b: int, p: int | None) -> int:
    return k.lines["finish"] - (st.bd[k.index][1][_piece("cell_to_go", p)] or 0)


@on_board(Cells, "cell_passed",
          [(PIECE, "the piece of `cell_passed`"), (TEXT, "the line of `cell_passed` (its name)")], BOOL,
          "whether the piece's progress is beyond the line (`finish` or a line of the board)")
def _passed(k: Cells, st: Table, _b: int, p: int | None, line: str) -> bool:
    prog = st.bd[k.index][1][_piece("cell_passed", p)]
    at = _line_at(k, "cell_passed", line)
    return prog is not None and prog > at


@on_board(Cells, "cell_line", [(TEXT, "the line of `cell_line` (its name)")], INT,
          "the distance of a line (`finish` or a line of the board) from the start line", pure=True)
def _line(k: Cells, st: Fixed, _b: int, line: str) -> int:
    return _line_at(k, "cell_line", line)


@on_board(Cells, "cell_grid", [(INT, "the grid number of `cell_grid`")], TEXT,
          "the id of the cell with this start grid number, or none", pure=True)
def _grid(k: Cells, st: Fixed, _b: int, n: int) -> str | None:
    i = k.grid.get(n)
    return None if i is None else k.ids[i]


@on_board(Cells, "cell_grid_size", [], INT, "how many cells have a start grid number", pure=True)
def _grid_size(k: Cells, st: Fixed, _b: int) -> int:
    return len(k.grid)


@on_board(Cells, "cell_at", [(TEXT, "the cell of `cell_at` (its id)")], PIECE,
          "the piece on this cell, or none")
def _at(k: Cells, st: Table, _b: int, cid: str) -> int | None:
    i = _cell_index(k, cid, "cell_at")
    return next((pc for pc, x in enumerate(st.bd[k.index][0]) if x == i), None)


@on_board(Cells, "cell_order", [], listof(PIECE),
          "the pieces on the board, the farthest first; equally far: by lane as the board's `ties` says")
def _order(k: Cells, st: Table, _b: int) -> list[int]:
    return k.order(st.bd[k.index])


# ---- a cell given by its id (an option's candidate, a cell read from a property) -------------

@on_board(Cells, "cell_lane_at", [(TEXT, "the cell of `cell_lane_at` (its id)")], INT,
          "the lane of this cell (1 = inner)", pure=True)
def _lane_at(k: Cells, st: Fixed, _b: int, cid: str) -> int:
    return k.lane[_cell_index(k, cid, "cell_lane_at")]


@on_board(Cells, "cell_tagged_at", [(TEXT, "the cell of `cell_tagged_at` (its id)"),
                                    (TEXT, "the tag of `cell_tagged_at`")], BOOL,
          "whether this cell has this tag", pure=True)
def _tagged_at(k: Cells, st: Fixed, _b: int, cid: str, tag: str) -> bool:
    return tag in k.tags[_cell_index(k, cid, "cell_tagged_at")]


@on_board(Cells, "cell_front_at", [(TEXT, "the cell of `cell_front_at` (its id)")], INT,
          "the distance of this cell's front edge from the start line", pure=True)
def _front_at(k: Cells, st: Fixed, _b: int, cid: str) -> int:
    return k.front[_cell_index(k, cid, "cell_front_at")]


@on_board(Cells, "cell_next_at", [(TEXT, "the cell of `cell_next_at` (its id)")], listof(TEXT),
          "the free cells one step forward of this cell")
def _next_at(k: Cells, st: Table, _b: int, cid: str) -> list[str]:
    taken = set(st.bd[k.index][0])
    return [k.ids[j] for j, _d in k.ahead[_cell_index(k, cid, "cell_next_at")] if j not in taken]


@on_board(Cells, "cell_steps", [(TEXT, "the cell `cell_steps` counts from (its id)"),
                                (TEXT, "the cell `cell_steps` counts to (its id)")], INT,
          "the fewest forward steps from the first cell to the second, whoever stands on the way "
          "(none when the second cannot be reached going forward)", pure=True)
def _steps(k: Cells, st: Fixed, _b: int, start: str, goal: str) -> int | None:
    j = _cell_index(k, goal, "cell_steps")
    return k.steps_from(_cell_index(k, start, "cell_steps")).get(j)


@on_board(Cells, "cell_steps_to_tag", [(TEXT, "the cell `cell_steps_to_tag` counts from (its id)"),
                                       (TEXT, "the tag of `cell_steps_to_tag`")], INT,
          "the fewest forward steps from this cell to a cell with this tag, 0 when the cell has it "
          "(none when no cell ahead has it)", pure=True)
def _steps_to_tag(k: Cells, st: Fixed, _b: int, start: str, tag: str) -> int | None:
    reach = k.steps_from(_cell_index(k, start, "cell_steps_to_tag"))
    found = [n for j, n in reach.items() if tag in k.tags[j]]
    return min(found) if found else None


# ---- effects -------------------------------------------------------------------------------

@on_board(Cells, "cell_place",
          [(PIECE, "the piece `cell_place` puts on the board"), (TEXT, "the cell of `cell_place`")], None,
          "the piece stands on this free cell, its progress that of the cell (setup, scenarios)")
def _place(k: Cells, st: Table, _b: int, p: Any, cid: str) -> None:
    _piece("cell_place", p)
    i = _cell_index(k, cid, "cell_place")
    data = st.bd[k.index]
    other = next((q for q, x in enumerate(data[0]) if x == i and q != p), None)
    if other is not None:
        raise RuleError(f"`cell_place`: cell `{cid}` is taken by `{st.plan.piece_names[other]}`")
    data[0][p] = i
    data[1][p] = k.front[i]


@on_board(Cells, "cell_step", [(PIECE, "the piece `cell_step` moves"), (TEXT, "the cell of `cell_step`")],
          None, "one step forward to a free touching cell")
def _step(k: Cells, st: Table, _b: int, p: Any, cid: str) -> None:
    _piece("cell_step", p)
    data = st.bd[k.index]
    at = data[0][p]
    if at is None:
        raise RuleError(f"`cell_step`: `{st.plan.piece_names[p]}` is not on board `{k.name}`")
    j = _cell_index(k, cid, "cell_step")
    for nxt, delta in k.ahead[at]:
        if nxt == j:
            if j in data[0]:
                raise RuleError(f"`cell_step`: cell `{cid}` is taken")
            data[0][p] = j
            data[1][p] += delta
            return
    raise RuleError(f"`cell_step`: `{cid}` is not a cell forward of `{k.ids[at]}` "
                    f"(forward: {', '.join(k.ids[x] for x, _d in k.ahead[at]) or 'none'})")


@on_board(Cells, "cell_remove", [(PIECE, "the piece `cell_remove` takes off")], None,
          "the piece leaves the board; its progress stays known")
def _remove(k: Cells, st: Table, _b: int, p: int | None) -> None:
    st.bd[k.index][0][_piece("cell_remove", p)] = None


@on_board(Cells, "cell_clear", [], None, "every piece leaves the board and its progress is forgotten")
def _clear(k: Cells, st: Table, _b: int) -> None:
    n = len(st.bd[k.index][0])
    st.bd[k.index] = [[None] * n, [None] * n]


for _effect in (_place, _step):
    heard_by_change(Cells, _effect)
Cells.builtins = [_next, _of, _tagged, _prop, _lane, _on, _progress, _to_go, _passed, _line, _grid,
                  _grid_size, _at, _order, _lane_at, _tagged_at, _front_at, _next_at, _steps, _steps_to_tag,
                  _place, _step, _remove, _clear]

__all__ = ["Cell", "Cells", "CellsModel"]
