"""A cell track written as segments (stretches of road) rather than cell by cell: a straight of
`rows` (one cell per lane each), or a stretch of `length` whose lanes are cut into `cells` of
their own (a bend, where the outer lanes have more cells than the inner one), each with the lanes
present (a stretch where the road narrows), the tags and properties of its cells, a named line
at its start and a turn for the picture.

The expansion gives each cell its id (the lane's letter and its number along the lane: `a1`,
`b17`), its front edge, its lane, tags and properties, the cells it touches and its outline:

- cells touch when they are neighbours in one lane (within a stretch where the lane is present:
  a lane that ends and comes back does not join across the gap), or when they lie in lanes side
  by side and their spans of distance [back, front] meet, even at a point (touching diagonally);
- the outline is the road walked from the start line, each lane a band beside the middle of the
  road, lane 1 on the side a loop turns to (the inner side; the right of an open road).

`validate` says where a loop does not turn once round or does not close, where a bend turns too
sharply for its lanes, and where the road crosses itself.
"""
from __future__ import annotations

import math
import string
from bisect import bisect_left
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..base import Props
from ..segments import crossing

Tag = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]
LETTERS = string.ascii_lowercase

ROW_PX = 33.0     # a straight row's length on the picture
LANE_PX = 30.0    # a lane's width


class CellSegment(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="CellSegment")
    rows: int | None = Field(None, ge=1, le=1000,
                             description="a straight of this many rows, one cell per lane each, `row` long")
    length: int | None = Field(None, ge=1, description="a stretch of this distance whose lanes are cut "
                                                       "into `cells` (a bend)")
    cells: int | list[int] | None = Field(
        None, description="with `length`: the cells of each lane present, inner lane first (or one "
                          "number for every lane); each lane's cells share its length equally")
    lanes: list[int] | None = Field(None, min_length=1,
                                    description="the lanes present (the road narrows): by default all")
    turn: float = Field(0, ge=-360, le=360, description="how far the road turns over the segment, in "
                                                        "degrees (positive: to the right), for the picture")
    tags: list[Tag] = Field(default_factory=list, description="tags of its cells (`cell_tagged`)")
    props: Props = Field(default_factory=dict, description="properties of its cells (`cell_prop`)")
    line: str | None = Field(None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
                             description="a line across the track at the segment's start: its name")

    @model_validator(mode="after")
    def _one_form(self) -> CellSegment:
        if (self.rows is None) == (self.length is None):
            raise ValueError("a segment is `rows: N` (a straight) or `length: D` with `cells` (a bend)")
        if self.rows is not None and self.cells is not None:
            raise ValueError("a straight of `rows` has one cell per lane in each row: give no `cells`")
        if self.length is not None and self.cells is None:
            raise ValueError("a stretch of `length` says how many `cells` each lane has")
        if self.lanes is not None and len(set(self.lanes)) != len(self.lanes):
            raise ValueError("`lanes` names a lane twice")
        return self


class _Cell:
    """One cell as it is expanded, before it is written as the board's `cells` item."""
    __slots__ = ("lane", "number", "back", "front", "seg", "part", "parts")

    def __init__(self, lane: int, number: int, back: int, front: int, seg: int, part: int,
                 parts: int) -> None:
        self.lane, self.number, self.back, self.front = lane, number, back, front
        self.seg, self.part, self.parts = seg, part, parts

    @property
    def id(self) -> str:
        return f"{LETTERS[self.lane - 1]}{self.number}"


def _lane_cells(seg: CellSegment, present: list[int], row: int, where: str) -> dict[int, int]:
    """How many cells each present lane has in the segment."""
    if seg.rows is not None:
        return {ln: seg.rows for ln in present}
    assert seg.length is not None and seg.cells is not None
    counts = seg.cells if isinstance(seg.cells, list) else [seg.cells] * len(present)
    if len(counts) != len(present):
        raise ValueError(f"{where}: `cells` gives {len(counts)} numbers for {len(present)} lanes")
    for ln, n in zip(present, counts):
        if n < 1 or seg.length % n:
            raise ValueError(f"{where}: lane {ln}'s {n} cells do not share the length {seg.length} "
                             "equally (a cell's front is a whole distance)")
    return dict(zip(present, counts))


MAX_CELLS = 10_000     # a track's cells, and its length in rows: a description stays readable
MAX_ROWS = 5_000


def expand(segments: list[CellSegment], lanes: int, row: int) -> tuple[list[_Cell], int]:
    """The cells of the segments in the order they are written (a straight row by row, a bend
    lane by lane), and the track's length."""
    total = sum((s.rows * row if s.rows is not None else s.length or 0) for s in segments)
    if total > MAX_ROWS * row:
        raise ValueError(f"the segments are {total / row:g} rows long; a track is at most {MAX_ROWS} rows")
    cells = sum(s.rows * len(s.lanes or range(lanes)) if s.rows is not None else
                sum(s.cells) if isinstance(s.cells, list) else (s.cells or 0) * len(s.lanes or range(lanes))
                for s in segments)
    if cells > MAX_CELLS:
        raise ValueError(f"the segments make {cells} cells; a track has at most {MAX_CELLS}")
    out: list[_Cell] = []
    number = dict.fromkeys(range(1, lanes + 1), 0)
    at = 0
    for i, seg in enumerate(segments):
        where = f"segments.{i}"
        present = sorted(seg.lanes) if seg.lanes is not None else list(range(1, lanes + 1))
        for ln in present:
            if not 1 <= ln <= lanes:
                raise ValueError(f"{where}: lane {ln} is not one of the track's {lanes} lanes")
        count = _lane_cells(seg, present, row, where)
        length = seg.rows * row if seg.rows is not None else seg.length
        assert length is not None
        if seg.rows is not None:   # row by row, inner lane first
            for r in range(seg.rows):
                for ln in present:
                    number[ln] += 1
                    out.append(_Cell(ln, number[ln], at + r * row, at + (r + 1) * row, i, r, seg.rows))
        else:                      # lane by lane
            for ln in present:
                n = count[ln]
                for k in range(n):
                    number[ln] += 1
                    back, front = at + length * k // n, at + length * (k + 1) // n
                    out.append(_Cell(ln, number[ln], back, front, i, k, n))
        at += length
    return out, at


def touching(cells: list[_Cell], lap: int | None) -> dict[str, list[str]]:
    """Each cell's touches, listed once (on the cell written first): neighbours in a lane where it
    runs on, and cells side by side whose spans meet."""
    index = {id(c): i for i, c in enumerate(cells)}
    pairs: set[tuple[int, int]] = set()
    by_lane: dict[int, list[_Cell]] = {}
    for c in cells:
        by_lane.setdefault(c.lane, []).append(c)
    for run in by_lane.values():
        run.sort(key=lambda c: c.front)
        ring = list(zip(run, run[1:] + run[:1])) if lap is not None else list(zip(run, run[1:]))
        for a, b in ring:
            if b.back == a.front or (lap is not None and b.back + lap == a.front):
                pairs.add(tuple(sorted((index[id(a)], index[id(b)]))))  # type: ignore[arg-type]
    shifts = (0, lap, -lap) if lap is not None else (0,)
    for ln, run in by_lane.items():
        beside = by_lane.get(ln + 1, [])   # in order along the lane, spans apart
        fronts = [b.front for b in beside]
        for a in run:
            for s in shifts:   # b (moved a lap on a loop) meets a: b.front >= a.back, b.back <= a.front
                k = bisect_left(fronts, a.back - s)
                while k < len(beside) and beside[k].back + s <= a.front:
                    pairs.add(tuple(sorted((index[id(a)], index[id(beside[k])]))))  # type: ignore[arg-type]
                    k += 1
    touch: dict[str, list[str]] = {c.id: [] for c in cells}
    for i, j in sorted(pairs):
        touch[cells[i].id].append(cells[j].id)
    return touch


# ---- the picture ------------------------------------------------------------------------------

def _frames(segments: list[CellSegment], row: int) -> list[tuple[float, float, float, float, float]]:
    """Where each segment starts on the picture (x, y, heading in radians), its length in pixels
    and its turn in radians."""
    x = y = h = 0.0
    out = []
    for seg in segments:
        length = (seg.rows * row if seg.rows is not None else seg.length) or 0
        px = length * ROW_PX / row
        t = math.radians(seg.turn)
        out.append((x, y, h, px, t))
        x, y = _along(x, y, h, px, t, 1.0)
        h += t
    return out


def _along(x: float, y: float, h: float, px: float, t: float, f: float) -> tuple[float, float]:
    """The middle of the road a fraction f along a stretch that starts at (x, y) heading h, is px
    long and turns t (an arc; y down, so a positive turn is to the right)."""
    if abs(t) < 1e-9:
        return x + math.cos(h) * px * f, y + math.sin(h) * px * f
    r = px / t
    cx, cy = x - math.sin(h) * r, y + math.cos(h) * r
    hf = h + t * f
    return cx + math.sin(hf) * r, cy - math.cos(hf) * r


def problem(segments: list[CellSegment], lanes: int, row: int, loop: bool) -> str | None:
    """What keeps the description from being drawn: a loop that does not turn once round or
    does not come back to its start, a bend too sharp for its lanes, a road that crosses itself."""
    frames = _frames(segments, row)
    half = lanes * LANE_PX / 2
    for i, (_x, _y, _h, px, t) in enumerate(frames):
        if abs(t) > 1e-9 and abs(px / t) < half:
            return (f"segments.{i}: it turns {segments[i].turn:g} degrees over too short a length for "
                    f"{lanes} lanes: make it longer or turn less")
    turned = sum(s.turn for s in segments)
    if loop:
        x, y, h, px, t = frames[-1]
        ex, ey = _along(x, y, h, px, t, 1.0)
        gap = math.hypot(ex, ey) / ROW_PX
        if abs(abs(turned) - 360) > 1:
            return f"a loop turns once round (360 degrees in all); these segments turn {turned:g}"
        if gap > 0.5:
            return (f"the loop does not close: past its last segment it is {gap:.1f} rows from its start "
                    "(make the straights on opposite sides as long)")
    # the middle of the road every half row; two points far apart along it must not be close
    pts: list[tuple[float, float]] = []
    for x, y, h, px, t in frames:
        n = max(1, math.ceil(px / (ROW_PX / 2)))
        pts.extend(_along(x, y, h, px, t, k / n) for k in range(n))
    near = lanes * LANE_PX * 0.9
    if crossing(pts, near, math.ceil(near * 2 / (ROW_PX / 2)) + 2, loop) is not None:
        return "the road crosses itself (or runs too close beside itself): move its segments apart"
    return None


def outlines(segments: list[CellSegment], cells: list[_Cell], lanes: int, row: int,
             loop: bool) -> dict[str, str]:
    """Each cell's outline as SVG points: back edge (right, left), front edge (left, right)."""
    frames = _frames(segments, row)
    turned = sum(s.turn for s in segments)
    side = -1 if loop and turned < 0 else 1      # lane 1 on the inside of the loop

    def point(seg: int, f: float, off: float) -> tuple[float, float]:
        x, y, h, px, t = frames[seg]
        mx, my = _along(x, y, h, px, t, f)
        hf = h + t * f
        return mx - math.sin(hf) * off, my + math.cos(hf) * off

    out = {}
    for c in cells:
        mid = side * ((lanes + 1) / 2 - c.lane) * LANE_PX
        right, left = mid + LANE_PX / 2, mid - LANE_PX / 2
        f0, f1 = c.part / c.parts, (c.part + 1) / c.parts
        pts = [point(c.seg, f0, right), point(c.seg, f0, left),
               point(c.seg, f1, left), point(c.seg, f1, right)]
        out[c.id] = " ".join(f"{round(px, 1):g},{round(py, 1):g}" for px, py in pts)
    return out


def cells_of(segments: list[CellSegment], lanes: int, row: int, loop: bool, grid: list[str],
             ) -> tuple[list[dict[str, Any]], dict[str, int], int]:
    """The board's `cells` items, its lines placed by the segments, and the track's length."""
    cells, length = expand(segments, lanes, row)
    found = problem(segments, lanes, row, loop)
    if found:
        raise ValueError(found)
    touch = touching(cells, length if loop else None)
    shapes = outlines(segments, cells, lanes, row, loop)
    ids = {c.id for c in cells}
    for g in grid:
        if g not in ids:
            raise ValueError(f"the grid names `{g}`, which is not a cell of the segments "
                             f"(cells are named by lane letter and number: a1, b1, ...)")
    if len(set(grid)) != len(grid):
        raise ValueError("the grid names a cell twice")
    number = {g: i + 1 for i, g in enumerate(grid)}
    items = []
    for c in cells:
        seg = segments[c.seg]
        item: dict[str, Any] = {"id": c.id, "front": c.front, "lane": c.lane}
        if seg.tags:
            item["tags"] = list(seg.tags)
        if seg.props:
            item["props"] = dict(seg.props)
        if c.id in number:
            item["grid"] = number[c.id]
        item["touch"] = touch[c.id]
        item["shape"] = shapes[c.id]
        items.append(item)
    lines: dict[str, int] = {}
    at = 0
    for i, seg in enumerate(segments):
        if seg.line is not None:
            if seg.line in lines:
                raise ValueError(f"segments.{i}: the line `{seg.line}` is placed twice")
            lines[seg.line] = at
        at += seg.rows * row if seg.rows is not None else (seg.length or 0)
    return items, lines, length
