"""The cell graph: cells that touch (by an edge or at a point), each with the distance of its
front edge from the start line; pieces step forward from cell to cell.

A step goes to a touching cell whose front edge is farther from the start line than the front
edge of the cell the piece stands on: straight or diagonal, never sideways (same distance) or
back, and never into a taken cell. Nothing else is checked, so a piece may pass diagonally
between two taken cells, and a move of several cells is a sequence of steps chosen one by one
by the rules. Cells may be rectangular or not (a flag the rules can read), carry a number of the
start grid, and lines lie across the track at a distance (a piece has passed a line when the
front edge of its cell is beyond it). On a looped track (`lap`) distances wrap around: a piece's
*progress* counts the laps.

Run-time data is `st.bd[index] = [cell per piece, progress per piece]` (cell index or None;
progress stays known after a piece leaves the board), two short lists copied by `clone`.
"""
from __future__ import annotations

import html
from itertools import pairwise
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..lang.errors import RuleError
from ..engine.types import BOARD, BOOL, INT, PIECE, TEXT, listof
from ..engine.args import _arity, _want
from .base import BoardKind, register

_ID = r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$"


class Cell(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="Cell")
    id: str = Field(pattern=_ID, description="the cell's name, as the rules and the views show it")
    front: int = Field(ge=0, description="distance of the cell's front edge from the start line")
    lane: int = Field(1, ge=1, le=20, description="lane across the track, 1 = the inner side")
    rect: bool = Field(True, description="whether the cell is rectangular")
    grid: int | None = Field(None, ge=1, le=64, description="its number on the start grid, if any")
    touch: list[str] = Field(default_factory=list,
                             description="cells it touches by an edge or a point (either side may list it)")
    shape: str | None = Field(
        None, pattern=r"^\s*-?[0-9.]+,-?[0-9.]+(\s+-?[0-9.]+,-?[0-9.]+)*\s*$",
        description="the outline for the picture, as SVG points `x,y x,y ...`: back edge first, "
                    "the last two points are the front edge")

    def points(self) -> list[tuple[float, float]]:
        if not self.shape:
            return []
        return [tuple(float(v) for v in p.split(",")) for p in self.shape.split()]


class CellsModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="CellsBoard")
    kind: Literal["cells"] = Field(description="cells: a graph of touching cells, forward steps only")
    lap: int | None = Field(None, ge=1, description="length of a lap if the track is a loop (distances wrap)")
    finish: int = Field(ge=0, description="distance of the finish line from the start line")
    lines: dict[str, int] = Field(default_factory=dict,
                                  description="other lines across the track: name -> distance from the start line")
    cells: list[Cell] = Field(min_length=1)

    @model_validator(mode="after")
    def _fits(self):
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


@register
class Cells(BoardKind):
    kind = "cells"
    Model = CellsModel

    def __init__(self, name, index, decl, plan):
        super().__init__(name, index, decl, plan)
        d = decl
        self.ids = [c.id for c in d.cells]
        self.index_of = {c.id: i for i, c in enumerate(d.cells)}
        self.front = [c.front for c in d.cells]
        self.rect = [c.rect for c in d.cells]
        self.lane = [c.lane for c in d.cells]
        self.lap = d.lap
        touch = [set() for _ in d.cells]
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

    # ---- run-time data ----------------------------------------------------------------------

    def init(self, st):
        n = st.plan.n_pieces
        return [[None] * n, [None] * n]

    def clone(self, data):
        return [data[0][:], data[1][:]]

    def next_cells(self, data, pc) -> list[int]:
        at = data[0][pc]
        if at is None:
            return []
        taken = set(data[0])
        return [j for j, _d in self.ahead[at] if j not in taken]

    def order(self, data) -> list[int]:
        """Pieces on the board, the farthest first; equal progress: the inner lane first."""
        pos, prog = data
        on = [pc for pc, c in enumerate(pos) if c is not None]
        on.sort(key=lambda pc: (-prog[pc], self.lane[pos[pc]], pc))
        return on

    # ---- views ------------------------------------------------------------------------------

    def view(self, st, seat):
        data = st.bd[self.index]
        names = self.plan.piece_names
        owners = st.values("owner")

        def about(pc):
            who = owners[pc]
            tag = "" if who is None else (" (you)" if seat is not None and who == seat else f" (seat {who + 1})")
            facts = "".join(f", {k}: {fn(st, {'piece': pc})}" for k, fn in self.plan.shown.items())
            return f"{names[pc]}{tag}{facts}"
        if all(p is None for p in data[1]):
            return {"lines": ["(no pieces)"]}
        lines = ", ".join(f"{n} at {v}" for n, v in self.lines.items())
        out = [f"{len(self.ids)} cells; lines: {lines}"]
        for place, pc in enumerate(self.order(data), 1):
            cell = data[0][pc]
            nxt = ", ".join(self.ids[j] for j in self.next_cells(data, pc)) or "blocked"
            shape = "" if self.rect[cell] else ", not rectangular"
            to_go = self.lines["finish"] - data[1][pc]
            left = f"{to_go} to the finish" if to_go >= 0 else f"{-to_go} past the finish"
            out.append(f"{place}. {about(pc)}: cell {self.ids[cell]} (lane {self.lane[cell]}{shape}), "
                       f"{left}; next: {nxt}")
        off = [pc for pc, c in enumerate(data[0]) if c is None and data[1][pc] is not None]
        for pc in sorted(off, key=lambda pc: -data[1][pc]):
            out.append(f"off the board: {about(pc)}")
        out.extend(self.strip(data))
        return {"lines": out}

    def strip(self, data, width: int = 64) -> list[str]:
        """The track unrolled as one text line per lane, start line on the left: `.` a
        rectangular cell, `~` another cell, a blank where the lane is missing, a digit a piece
        (numbered below), `|` over a line, `F` over the finish."""
        length = self.lap or max(max(self.front), self.lines["finish"])
        unit = length / width
        lanes = sorted(set(self.lane))
        spans = {}
        for ln in lanes:
            cells = sorted((i for i in range(len(self.ids)) if self.lane[i] == ln), key=lambda i: self.front[i])
            steps = sorted(self.front[b] - self.front[a] for a, b in pairwise(cells))
            usual = steps[len(steps) // 2] if steps else unit
            prev = None
            for i in cells:
                back = self.front[i] - usual if prev is None or self.front[i] - self.front[prev] > 2 * usual \
                    else self.front[prev]
                spans.setdefault(ln, []).append((back, self.front[i], i))
                prev = i
        where = {c: pc for pc, c in enumerate(data[0]) if c is not None}
        head = [" "] * width
        for name, at in self.lines.items():
            k = min(width - 1, int((at % length if self.lap else at) / unit))
            head[k] = "F" if name == "finish" else "|"
        rows = ["        " + "".join(head)]
        for ln in reversed(lanes):
            row = [" "] * width
            for back, front, i in spans.get(ln, []):
                for k in range(width):
                    mid = (k + 0.5) * unit
                    if back < mid <= front or (self.lap and back < mid + self.lap <= front):
                        row[k] = str(where[i] + 1) if i in where else ("." if self.rect[i] else "~")
            rows.append(f"lane {ln}: " + "".join(row))
        names = self.plan.piece_names
        numbers = ", ".join(f"{pc + 1} {names[pc]}" for pc in sorted(where.values()))
        return ["the track unrolled (start line on the left):", *rows, f"        {numbers}"]

    def svg(self) -> str:
        d = self.decl
        outline = {c.id: c.points() for c in d.cells}
        pts = [p for ps in outline.values() for p in ps]
        if not pts:
            return None
        pad = 40
        x0, y0 = min(p[0] for p in pts) - pad, min(p[1] for p in pts) - pad
        w, h = max(p[0] for p in pts) - x0 + pad, max(p[1] for p in pts) - y0 + pad + 30
        parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
                  f'viewBox="{x0:.0f} {y0:.0f} {w:.0f} {h:.0f}" font-family="sans-serif">'),
                 f'<rect x="{x0:.0f}" y="{y0:.0f}" width="{w:.0f}" height="{h:.0f}" fill="#f4f4ee"/>']
        line_at = {}
        for name, v in self.lines.items():
            line_at.setdefault(v % self.lap if self.lap else v, []).append(name)
        for c in d.cells:
            shape = outline[c.id]
            if not shape:
                continue
            poly = " ".join(f"{x:.1f},{y:.1f}" for x, y in shape)
            fill = "#ffffff" if c.rect else "#dde8f6"
            if c.grid is not None:
                fill = "#e3f3dc"
            parts.append(f'<polygon points="{poly}" fill="{fill}" stroke="#666" stroke-width="0.8"/>')
            cx = sum(p[0] for p in shape) / len(shape)
            cy = sum(p[1] for p in shape) / len(shape)
            label = html.escape(c.id) + (f" [{c.grid}]" if c.grid is not None else "")
            parts.append(f'<text x="{cx:.1f}" y="{cy:.1f}" font-size="7" text-anchor="middle" '
                         f'dominant-baseline="middle">{label}</text>')
            key = c.front % self.lap if self.lap else c.front
            if key in line_at and len(shape) >= 2:
                (ax, ay), (bx, by) = shape[-2], shape[-1]
                colour = "#000" if "finish" in line_at[key] else "#d4a000"
                parts.append(f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" '
                             f'stroke="{colour}" stroke-width="4"/>')
        for v, names in line_at.items():
            cells = [c for c in d.cells if outline[c.id] and (c.front % self.lap if self.lap else c.front) == v]
            if cells:
                c = max(cells, key=lambda c: c.lane)
                x, y = outline[c.id][-2]
                parts.append(f'<text x="{x:.1f}" y="{y - 6:.1f}" font-size="11" fill="#a00">'
                             f'{html.escape("/".join(names))}</text>')
        parts.append(f'<text x="{x0 + 10:.0f}" y="{y0 + h - 12:.0f}" font-size="12">{html.escape(self.name)}: '
                     f'{len(d.cells)} cells; white rectangular, blue not, green start grid [number]; '
                     f'thick lines: finish (black) and other lines (yellow)</text>')
        parts.append("</svg>\n")
        return "\n".join(parts)


# ---- built-ins -----------------------------------------------------------------------------

def _board(c, tree, sc, name):
    """Source of the cell-graph kind object of a board argument (checked while playing)."""
    src = _want(c, tree, sc, BOARD, f"the first argument of `{name}` (a board)")
    loc = c.loc(tree)
    plan = c.plan
    if not any(isinstance(k, Cells) for k in plan.board_kinds):
        c.error("E150", f"`{name}` needs a board of kind cells, and this game has none", tree)

    def kind_of(b):
        k = plan.board_kinds[b] if b is not None else None
        if not isinstance(k, Cells):
            raise RuleError(f"`{name}`: board `{plan.board_names[b] if b is not None else b}` is not of kind cells", loc)
        return k
    return f"{c.k(kind_of)}({src})", src


def _piece_arg(c, tree, sc, name, loc):
    src = _want(c, tree, sc, PIECE, f"`{name}` takes a piece;")

    def piece(p):
        if p is None:
            raise RuleError(f"`{name}`: a piece was expected, not none", loc)
        return p
    return f"{c.k(piece)}({src})"


def _cell_index(k, cid, loc, name):
    i = k.index_of.get(cid)
    if i is None:
        raise RuleError(f"`{name}`: board `{k.name}` has no cell `{cid}`", loc)
    return i


def _of_piece(name, compute, typ):
    """A function of (board, piece): compute(kind, data, piece)."""
    def build(c, args, node, sc):
        if not _arity(c, name, args, node, 2):
            return "None", typ
        k, b = _board(c, args[0], sc, name)
        pc = _piece_arg(c, args[1], sc, name, c.loc(node))
        return f"{c.k(compute)}({k}, st.bd[{b}], {pc})", typ
    return build


def _passed(c, args, node, sc):
    if not _arity(c, "cell_passed", args, node, 3):
        return "False", BOOL
    k, b = _board(c, args[0], sc, "cell_passed")
    pc = _piece_arg(c, args[1], sc, "cell_passed", c.loc(node))
    line = _want(c, args[2], sc, TEXT, "the line of `cell_passed` (its name)")
    loc = c.loc(node)

    def passed(kind, data, p, name):
        if name not in kind.lines:
            raise RuleError(f"`cell_passed`: board `{kind.name}` has no line `{name}` "
                            f"(lines: {', '.join(kind.lines)})", loc)
        return data[1][p] is not None and data[1][p] > kind.lines[name]
    return f"{c.k(passed)}({k}, st.bd[{b}], {pc}, {line})", BOOL


def _line(c, args, node, sc):
    if not _arity(c, "cell_line", args, node, 2):
        return "0", INT
    k, _b = _board(c, args[0], sc, "cell_line")
    line = _want(c, args[1], sc, TEXT, "the line of `cell_line` (its name)")
    loc = c.loc(node)

    def at(kind, name):
        if name not in kind.lines:
            raise RuleError(f"`cell_line`: board `{kind.name}` has no line `{name}` "
                            f"(lines: {', '.join(kind.lines)})", loc)
        return kind.lines[name]
    return f"{c.k(at)}({k}, {line})", INT


def _grid(c, args, node, sc):
    if not _arity(c, "cell_grid", args, node, 2):
        return "None", TEXT
    k, _b = _board(c, args[0], sc, "cell_grid")
    n = _want(c, args[1], sc, INT, "the grid number of `cell_grid`")

    def grid(kind, n):
        i = kind.grid.get(n)
        return None if i is None else kind.ids[i]
    return f"{c.k(grid)}({k}, {n})", TEXT


def _grid_size(c, args, node, sc):
    if not _arity(c, "cell_grid_size", args, node, 1):
        return "0", INT
    k, _b = _board(c, args[0], sc, "cell_grid_size")
    return f"len({k}.grid)", INT


def _at(c, args, node, sc):
    if not _arity(c, "cell_at", args, node, 2):
        return "None", PIECE
    k, b = _board(c, args[0], sc, "cell_at")
    cell = _want(c, args[1], sc, TEXT, "the cell of `cell_at` (its name)")
    loc = c.loc(node)

    def at(kind, data, cid):
        i = _cell_index(kind, cid, loc, "cell_at")
        return next((pc for pc, x in enumerate(data[0]) if x == i), None)
    return f"{c.k(at)}({k}, st.bd[{b}], {cell})", PIECE


def _order(c, args, node, sc):
    if not _arity(c, "cell_order", args, node, 1):
        return "[]", listof(PIECE)
    k, b = _board(c, args[0], sc, "cell_order")
    return f"{k}.order(st.bd[{b}])", listof(PIECE)


def _info(attr):
    def fn(kind, data, p):
        at = data[0][p]
        if at is None:
            return None if attr == "id" else (False if attr == "rect" else 0)
        if attr == "id":
            return kind.ids[at]
        return getattr(kind, attr)[at]
    return fn


Cells.functions = {
    "cell_next": _of_piece("cell_next", lambda k, data, p: [k.ids[j] for j in k.next_cells(data, p)],
                           listof(TEXT)),
    "cell_of": _of_piece("cell_of", _info("id"), TEXT),
    "cell_rect": _of_piece("cell_rect", _info("rect"), BOOL),
    "cell_lane": _of_piece("cell_lane", _info("lane"), INT),
    "cell_on": _of_piece("cell_on", lambda k, data, p: data[0][p] is not None, BOOL),
    "cell_progress": _of_piece("cell_progress", lambda k, data, p: data[1][p] or 0, INT),
    "cell_to_go": _of_piece("cell_to_go", lambda k, data, p: k.lines["finish"] - (data[1][p] or 0), INT),
    "cell_passed": _passed,
    "cell_line": _line,
    "cell_grid": _grid,
    "cell_grid_size": _grid_size,
    "cell_at": _at,
    "cell_order": _order,
}


# ---- effects -------------------------------------------------------------------------------

def _effect_args(c, args, node, sc, name, n, what):
    if not _arity(c, name, args, node, n):
        return None
    board = c.want(args[0], sc, BOARD, f"the first argument of `{name}` (a board)")
    rest = [c.want(a, sc, t, f"{w} of `{name}`") for a, (t, w) in zip(args[1:], what)]
    return board, rest


def _kind(plan, b, loc, name):
    k = plan.board_kinds[b] if b is not None else None
    if not isinstance(k, Cells):
        raise RuleError(f"`{name}`: board `{plan.board_names[b] if b is not None else b}` is not of kind cells", loc)
    return k


def _place(c, args, node, sc):
    """cell_place(board, piece, cell): the piece stands on this free cell (setup, scenarios)."""
    got = _effect_args(c, args, node, sc, "cell_place", 3, [(PIECE, "the piece"), (TEXT, "the cell")])
    if got is None:
        return None
    board, (piece, cell) = got
    loc, plan = c.loc(node), c.plan

    def place(st, env):
        b, p, cid = board(st, env), piece(st, env), cell(st, env)
        k = _kind(plan, b, loc, "cell_place")
        if p is None:
            raise RuleError("`cell_place`: a piece was expected, not none", loc)
        i = _cell_index(k, cid, loc, "cell_place")
        data = st.bd[b]
        other = next((q for q, x in enumerate(data[0]) if x == i and q != p), None)
        if other is not None:
            raise RuleError(f"`cell_place`: cell `{cid}` is taken by `{plan.piece_names[other]}`", loc)
        data[0][p] = i
        data[1][p] = k.front[i]
    return place


def _step(c, args, node, sc):
    """cell_step(board, piece, cell): one step forward to a free touching cell."""
    got = _effect_args(c, args, node, sc, "cell_step", 3, [(PIECE, "the piece"), (TEXT, "the cell")])
    if got is None:
        return None
    board, (piece, cell) = got
    loc, plan = c.loc(node), c.plan

    def step(st, env):
        b, p, cid = board(st, env), piece(st, env), cell(st, env)
        k = _kind(plan, b, loc, "cell_step")
        if p is None:
            raise RuleError("`cell_step`: a piece was expected, not none", loc)
        data = st.bd[b]
        at = data[0][p]
        if at is None:
            raise RuleError(f"`cell_step`: `{plan.piece_names[p]}` is not on board `{k.name}`", loc)
        j = _cell_index(k, cid, loc, "cell_step")
        for nxt, delta in k.ahead[at]:
            if nxt == j:
                if j in data[0]:
                    raise RuleError(f"`cell_step`: cell `{cid}` is taken", loc)
                data[0][p] = j
                data[1][p] += delta
                return
        raise RuleError(f"`cell_step`: `{cid}` is not a cell forward of `{k.ids[at]}` "
                        f"(forward: {', '.join(k.ids[x] for x, _d in k.ahead[at]) or 'none'})", loc)
    return step


def _remove(c, args, node, sc):
    """cell_remove(board, piece): the piece leaves the board; its progress stays known."""
    got = _effect_args(c, args, node, sc, "cell_remove", 2, [(PIECE, "the piece")])
    if got is None:
        return None
    board, (piece,) = got
    loc, plan = c.loc(node), c.plan

    def remove(st, env):
        b, p = board(st, env), piece(st, env)
        _kind(plan, b, loc, "cell_remove")
        if p is None:
            raise RuleError("`cell_remove`: a piece was expected, not none", loc)
        st.bd[b][0][p] = None
    return remove


def _clear(c, args, node, sc):
    """cell_clear(board): every piece leaves the board and its progress is forgotten."""
    got = _effect_args(c, args, node, sc, "cell_clear", 1, [])
    if got is None:
        return None
    board, _ = got
    loc, plan = c.loc(node), c.plan

    def clear(st, env):
        b = board(st, env)
        _kind(plan, b, loc, "cell_clear")
        n = len(st.bd[b][0])
        st.bd[b] = [[None] * n, [None] * n]
    return clear


Cells.effects = {"cell_place": _place, "cell_step": _step, "cell_remove": _remove, "cell_clear": _clear}
