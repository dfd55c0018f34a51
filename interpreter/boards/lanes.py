"""The lane track: spaces in a loop, a few spots per space, lines across the track.

A piece on the track stands at a *progress* (spaces covered since the start/finish line:
`lap * spaces + space`, negative on a start grid that lies before the line) and a *spot*
(1..spots). Lines lie before a space (`at: P` is between space P-1 and P) and have a kind named
by the ruleset, optionally a limit, a name and the spot that is the race line from there on.

Run-time data is `st.bd[index] = [progress per piece, spot per piece]` (None: off the track),
copied in a clone as two short lists. The layout (lines, race line per space) stays on the
kind object. Moves pass through other pieces; a move that ends on a full space ends on the
nearest free spot behind it (blocking). In one space the piece on the race line is ahead.
"""
from __future__ import annotations

import ast
import html
import math
from bisect import bisect_right
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..lang.errors import RuleError
from ..engine.types import BOARD, BOOL, INT, PIECE, TEXT, listof
from ..engine.args import _arity, _want
from .base import BoardKind, register


class LaneLine(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="LaneLine")
    at: int = Field(ge=0, description="the line lies before this space (between space at-1 and at)")
    kind: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
                      description="what the line is; the rules ask for lines of a kind")
    limit: int | None = Field(None, description="a number the rules compare with (e.g. a limit)")
    name: str | None = Field(None, description="a label shown on the picture and in views")
    race_line: int | None = Field(None, ge=1, description="the spot that is the race line from this line on")


class LanesModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="LanesBoard")
    kind: Literal["lanes"] = Field(description="lanes: spaces in a loop with a few spots each, lines across it")
    spaces: int = Field(ge=2, le=1000, description="spaces per lap; space 0 is the first after the start/finish line")
    spots: int = Field(2, ge=1, le=6, description="spots per space")
    laps: int = Field(1, ge=1, le=50, description="laps to the finish")
    race_line: int = Field(1, ge=1, description="the race line spot where no line says otherwise")
    lines: list[LaneLine] = Field(default_factory=list)
    grid: list[list[int]] = Field(
        default_factory=list, description="start grid, slot 1 first: [space, spot]; spaces before "
                                          "the line count as the lap before the first")
    facts: dict[str, int] = Field(default_factory=dict,
                                  description="numbers printed on the board that the rules read with `board_fact`")

    @model_validator(mode="after")
    def _fits(self):
        for ln in self.lines:
            if ln.at >= self.spaces:
                raise ValueError(f"a line at space {ln.at} is outside the {self.spaces} spaces")
            if ln.race_line is not None and ln.race_line > self.spots:
                raise ValueError(f"race_line {ln.race_line} is not one of the {self.spots} spots")
        if self.race_line > self.spots:
            raise ValueError(f"race_line {self.race_line} is not one of the {self.spots} spots")
        for place in self.grid:
            if len(place) != 2:
                raise ValueError(f"a grid place is [space, spot], not {place}")
            space, spot = place
            if not (0 <= space < self.spaces and 1 <= spot <= self.spots):
                raise ValueError(f"grid place [{space}, {spot}] is not a spot of the track")
        if len({tuple(g) for g in self.grid}) != len(self.grid):
            raise ValueError("the grid names a spot twice")
        return self


@register
class Lanes(BoardKind):
    kind = "lanes"
    Model = LanesModel

    def __init__(self, name, index, decl, plan):
        super().__init__(name, index, decl, plan)
        d = decl
        self.L = d.spaces
        self.spots = d.spots
        self.finish = d.laps * d.spaces
        # race line per space: the last line with `race_line` at or before it (wrapping)
        rl_lines = sorted((ln.at, ln.race_line) for ln in d.lines if ln.race_line is not None)
        rl = [d.race_line] * self.L
        if rl_lines:
            current = rl_lines[-1][1]
            marks = dict(rl_lines)
            for s in range(self.L):
                current = marks.get(s, current)
                rl[s] = current
        # spots of each space in order of preference: the race line first, then the others
        self.prefer = [[r] + [k for k in range(1, self.spots + 1) if k != r] for r in rl]
        self.rank = [{k: i for i, k in enumerate(p)} for p in self.prefer]
        self.by_kind: dict[str, list] = {}
        for ln in sorted(d.lines, key=lambda x: x.at):
            self.by_kind.setdefault(ln.kind, []).append(ln)
        self.at_space = {k: {ln.at: ln for ln in lines} for k, lines in self.by_kind.items()}
        self.marks: dict[str, list[int]] = {}  # kind -> progress of its lines, lap after lap (grown when asked)
        self.n_pieces = plan.n_pieces if plan is not None else 0

    # ---- run-time data ------------------------------------------------------------------

    def init(self, st):
        return [[None] * self.n_pieces, [0] * self.n_pieces]

    def clone(self, data):
        return [data[0][:], data[1][:]]

    # ---- geometry (static) ----------------------------------------------------------------

    def space(self, d: int) -> int:
        return d % self.L

    def _marks(self, kind: str, upto: int) -> list[int]:
        lines = self.by_kind[kind]
        marks = self.marks.setdefault(kind, [])
        while len(marks) // len(lines) * self.L <= upto:
            base = len(marks) // len(lines) * self.L
            marks.extend(base + ln.at for ln in lines)
        return marks

    def lines_between(self, a: int, b: int, kind: str) -> list[int]:
        """Progress values P (the first space after the line) of the lines with a < P <= b."""
        out = []
        lines = self.by_kind.get(kind, ())
        if not lines or b <= a:
            return out
        if a >= 0:
            marks = self.marks.get(kind)
            if marks is None or marks[-1] < b:
                marks = self._marks(kind, b)
            return marks[bisect_right(marks, a):bisect_right(marks, b)]
        lap = a // self.L
        while lap * self.L <= b:
            base = lap * self.L
            for ln in lines:
                p = base + ln.at
                if a < p <= b:
                    out.append(p)
            lap += 1
        return out

    def line_at(self, d: int, kind: str):
        return self.at_space.get(kind, {}).get(d % self.L)

    def next_lines(self, d: int, kind: str, n: int) -> list[int]:
        lines = self.by_kind.get(kind, ())
        if not lines or n <= 0:
            return []
        if d >= 0:
            marks = self._marks(kind, d + (n // len(lines) + 1) * self.L)
            i = bisect_right(marks, d)
            return marks[i:i + n]
        out = []
        lap = d // self.L
        while len(out) < n:
            for ln in lines:
                p = lap * self.L + ln.at
                if p > d:
                    out.append(p)
                    if len(out) == n:
                        break
            lap += 1
        return out

    # ---- pieces ---------------------------------------------------------------------------

    def occupants(self, data, d: int, but=None) -> list:
        pos = data[0]
        return [pc for pc, p in enumerate(pos) if p == d and pc != but]

    def free_spot(self, data, d: int, but=None):
        taken = {data[1][pc] for pc in self.occupants(data, d, but)}
        for k in self.prefer[d % self.L]:
            if k not in taken:
                return k
        return None

    def settle(self, data, pc: int, d: int, floor=None) -> None:
        """Put pc on the nearest free spot at progress d or behind (never behind `floor`)."""
        while True:
            k = self.free_spot(data, d, pc)
            if k is not None or (floor is not None and d <= floor):
                break
            d -= 1
        if k is None:  # pragma: no cover - its own spot at `floor` is always free
            k = self.prefer[d % self.L][0]
        data[0][pc] = d
        data[1][pc] = k

    def order(self, data) -> list:
        pos, spot = data
        on = [pc for pc, p in enumerate(pos) if p is not None]
        on.sort(key=lambda pc: (-pos[pc], self.rank[pos[pc] % self.L][spot[pc]], pc))
        return on

    def view(self, st, seat):
        data = st.bd[self.index]
        names = self.plan.piece_names
        owners = st.values("owner")
        out = [f"{self.L} spaces a lap, {self.decl.laps} lap(s), finish at progress {self.finish}"]
        limited = [k for k, lines in self.by_kind.items() if any(ln.limit is not None for ln in lines)]
        for place, pc in enumerate(self.order(data), 1):
            d = data[0][pc]
            lap = d // self.L + 1
            who = owners[pc]
            tag = "" if who is None else (" (you)" if seat is not None and who == seat else f" (seat {who + 1})")
            ahead = []
            for k in limited:
                for p in self.next_lines(d, k, 2):
                    if p >= self.finish:
                        continue
                    ln = self.line_at(p, k)
                    label = ln.name or k
                    ahead.append(f"{k} {label} limit {ln.limit} in {p - d}")
            where = "finished" if d >= self.finish else f"lap {max(lap, 1)}/{self.decl.laps}"
            facts = "".join(f", {k} {fn(st, {'piece': pc})}" for k, fn in self.plan.shown.items())
            out.append(f"{place}. {names[pc]}{tag}: space {d % self.L} spot {data[1][pc]}, "
                       f"progress {d}, {where}{facts}" + (f"; next: {', '.join(ahead)}" if ahead else ""))
        return {"lines": out}

    # ---- picture ----------------------------------------------------------------------------

    def svg(self) -> str:
        """The loop as a stadium: spaces as cells, race line spots shaded, lines across."""
        d = self.decl
        L, k = self.L, self.spots
        cell, lane = 22.0, 16.0
        straight = L * cell * 0.32
        r0 = max(60.0, (L * cell - 2 * straight) / (2 * math.pi))
        width = k * lane
        pad = 90
        W = 2 * (r0 + width) + straight + 2 * pad
        H = 2 * (r0 + width) + 2 * pad
        cx1, cx2, cy = pad + r0 + width, pad + r0 + width + straight, pad + r0 + width
        perim = 2 * straight + 2 * math.pi * r0

        def point(t: float, r: float):
            """Position along the centre loop (t in [0,1), clockwise from the finish) at radius r."""
            s = (t % 1.0) * perim
            if s < straight:                       # top straight, left to right
                return cx1 + s, cy - r
            s -= straight
            if s < math.pi * r0:                   # right bend
                a = -math.pi / 2 + s / r0
                return cx2 + r * math.cos(a), cy + r * math.sin(a)
            s -= math.pi * r0
            if s < straight:                       # bottom straight, right to left
                return cx2 - s, cy + r
            s -= straight
            a = math.pi / 2 + s / r0
            return cx1 + r * math.cos(a), cy + r * math.sin(a)

        def radius(spot: int) -> float:
            return r0 + (spot - 0.5) * lane

        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W:.0f}" height="{H:.0f}" '
                 f'viewBox="0 0 {W:.0f} {H:.0f}" font-family="sans-serif">',
                 f'<rect width="{W:.0f}" height="{H:.0f}" fill="#f4f4ee"/>',
                 f'<text x="10" y="20" font-size="14">{html.escape(self.name)}: {L} spaces, {k} spots, '
                 f'{d.laps} lap(s); shaded spot = race line; line labels: kind name/limit</text>']
        for s in range(L):
            t0, t1 = s / L, (s + 1) / L
            for spot in range(1, k + 1):
                ri, ro = r0 + (spot - 1) * lane, r0 + spot * lane
                pts = [point(t0, ri), point(t0, ro), point(t1, ro), point(t1, ri)]
                fill = "#cfe3ff" if self.prefer[s][0] == spot else "#ffffff"
                parts.append('<polygon points="' + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
                             + f'" fill="{fill}" stroke="#777" stroke-width="0.6"/>')
            if s % 5 == 0:
                x, y = point((s + 0.5) / L, r0 - 10)
                parts.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="9" text-anchor="middle" '
                             f'dominant-baseline="middle">{s}</text>')
        colours = ["#d00", "#07a", "#a60", "#080", "#808"]
        kinds = list(self.by_kind)
        for ln in d.lines:
            colour = colours[kinds.index(ln.kind) % len(colours)]
            t = ln.at / L
            x1, y1 = point(t, r0 - 2)
            x2, y2 = point(t, r0 + width + 2)
            dash = "" if ln.limit is not None else ' stroke-dasharray="4,3"'
            parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                         f'stroke="{colour}" stroke-width="2.5"{dash}/>')
            label = "/".join(str(v) for v in (ln.kind, ln.name, ln.limit) if v is not None)
            xl, yl = point(t, r0 + width + 22)
            parts.append(f'<text x="{xl:.1f}" y="{yl:.1f}" font-size="11" fill="{colour}" '
                         f'text-anchor="middle" dominant-baseline="middle">{html.escape(label)}</text>')
        x1, y1 = point(0, r0 - 4)
        x2, y2 = point(0, r0 + width + 4)
        parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#000" '
                     f'stroke-width="5" stroke-dasharray="3,3"/>')
        parts.append(f'<text x="{x1:.1f}" y="{y1 - 14:.1f}" font-size="12" text-anchor="middle">start/finish</text>')
        for slot, (s, spot) in enumerate(d.grid, 1):
            x, y = point((s + 0.5) / L, radius(spot))
            parts.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="9" text-anchor="middle" '
                         f'dominant-baseline="middle" fill="#060">{slot}</text>')
        if d.facts:
            facts = ", ".join(f"{html.escape(n)}: {v}" for n, v in d.facts.items())
            parts.append(f'<text x="10" y="{H - 10:.0f}" font-size="12">{facts}</text>')
        parts.append("</svg>\n")
        return "\n".join(parts)


# ---- built-ins -----------------------------------------------------------------------------

def _lanes(plan) -> list:
    return [(i, k) for i, k in enumerate(plan.board_kinds) if isinstance(k, Lanes)]


def _placed(progress: list, p) -> bool:
    return p is not None and progress[p] is not None


def _finder(c, node):
    """fn(st, piece) -> (kind, data) of the lane track the piece stands on, or a rule error."""
    boards = _lanes(c.plan)
    loc = c.loc(node)
    names = c.plan.piece_names
    if not boards:
        c.error("E150", "this game has no board of kind lanes", node)

    def find(st, pc):
        if pc is None:
            raise RuleError("a piece was expected, not none", loc)
        for i, kind in boards:
            data = st.bd[i]
            if data[0][pc] is not None:
                return kind, data
        raise RuleError(f"`{names[pc]}` is not on a lane track", loc)
    return find


def _lane_board(c, tree, sc, what):
    src = _want(c, tree, sc, BOARD, what)
    loc = c.loc(tree)
    plan = c.plan

    def kind_of(b):
        k = plan.board_kinds[b]
        if not isinstance(k, Lanes):
            raise RuleError(f"board `{plan.board_names[b]}` is not a lane track", loc)
        return k
    if src.isdigit():  # a board named in the rule: known now
        k = plan.board_kinds[int(src)]
        if not isinstance(k, Lanes):
            c.error("E150", f"board `{plan.board_names[int(src)]}` is not a lane track", tree)
            return f"{c.k(kind_of)}({src})", src
        return c.k(k), src
    return f"{c.k(kind_of)}({src})", src


def _piece_fn(name, compute, typ, may_be_off=False):
    """A function of one piece on a lane track."""
    def build(c, args, node, sc):
        if not _arity(c, name, args, node, 1):
            return "None", typ
        pc = _want(c, args[0], sc, PIECE, f"`{name}` takes a piece;")
        if may_be_off:
            boards = [i for i, _k in _lanes(c.plan)]
            if len(boards) == 1:  # the usual game: one track
                return f"{c.k(_placed)}(st.bd[{boards[0]}][0], {pc})", typ

            def fn(st, p):
                if p is None:
                    return False
                return any(st.bd[i][0][p] is not None for i in boards)
            return f"{c.k(fn)}(st, {pc})", typ
        find = _finder(c, node)
        boards = _lanes(c.plan)
        if len(boards) == 1:  # the usual game: one track
            (i, kind), = boards

            def fn(st, p):
                data = st.bd[i]
                if p is None or data[0][p] is None:
                    find(st, p)  # says what is wrong
                return compute(kind, data, p)
            return f"{c.k(fn)}(st, {pc})", typ

        def fn(st, p):
            kind, data = find(st, p)
            return compute(kind, data, p)
        return f"{c.k(fn)}(st, {pc})", typ
    return build


def _race_order(c, args, node, sc):
    if not _arity(c, "race_order", args, node, 1):
        return "[]", listof(PIECE)
    k, b = _lane_board(c, args[0], sc, "`race_order` takes a lane track;")
    return f"{k}.order(st.bd[{b}])", listof(PIECE)


def _pieces_in_space(c, args, node, sc):
    if not _arity(c, "pieces_in_space", args, node, 2):
        return "[]", listof(PIECE)
    k, b = _lane_board(c, args[0], sc, "`pieces_in_space` takes a lane track")
    d = _want(c, args[1], sc, INT, "the progress of `pieces_in_space`")

    def fn(kind, data, d):
        pcs = kind.occupants(data, d)
        pcs.sort(key=lambda pc: kind.rank[d % kind.L][data[1][pc]])
        return pcs
    return f"{c.k(fn)}({k}, st.bd[{b}], {d})", listof(PIECE)


def _lines_between(c, args, node, sc):
    if not _arity(c, "lines_between", args, node, 4):
        return "[]", listof(INT)
    k, _b = _lane_board(c, args[0], sc, "`lines_between` takes a lane track")
    a = _want(c, args[1], sc, INT, "the progress a move starts from")
    b = _want(c, args[2], sc, INT, "the progress a move ends at")
    kind = _want(c, args[3], sc, TEXT, "the kind of line")
    return f"{k}.lines_between({a}, {b}, {kind})", listof(INT)


def _next_lines(c, args, node, sc):
    if not _arity(c, "next_lines", args, node, 4):
        return "[]", listof(INT)
    k, _b = _lane_board(c, args[0], sc, "`next_lines` takes a lane track")
    d = _want(c, args[1], sc, INT, "the progress to look ahead from")
    kind = _want(c, args[2], sc, TEXT, "the kind of line")
    n = _want(c, args[3], sc, INT, "how many lines")
    return f"{k}.next_lines({d}, {kind}, {n})", listof(INT)


_NO_LINE = object()


def _literal_text(src: str):
    """The text of a translated string written out in the rule (`'sector'`); None otherwise."""
    try:
        value = ast.literal_eval(src)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def _line_field(name, attr, typ):
    def build(c, args, node, sc):
        if not _arity(c, name, args, node, 3):
            return "None", typ
        k, b = _lane_board(c, args[0], sc, f"`{name}` takes a lane track")
        d = _want(c, args[1], sc, INT, "the progress of the line (the first space after it)")
        kind = _want(c, args[2], sc, TEXT, "the kind of line")
        loc = c.loc(node)
        track = c.plan.board_kinds[int(b)] if b.isdigit() else None
        kname = _literal_text(kind)
        if isinstance(track, Lanes) and kname is not None:
            # a named track and a kind written out: the field by space, looked up now
            values = {space: getattr(ln, attr) for space, ln in track.at_space.get(kname, {}).items()}
            L = track.L

            def field(d):
                v = values.get(d % L, _NO_LINE)
                if v is _NO_LINE:
                    raise RuleError(f"no line of kind `{kname}` lies before space {d % L}", loc)
                return v
            return f"{c.k(field)}({d})", typ

        def fn(kobj, d, kind):
            ln = kobj.line_at(d, kind)
            if ln is None:
                raise RuleError(f"no line of kind `{kind}` lies before space {d % kobj.L}", loc)
            return getattr(ln, attr)
        return f"{c.k(fn)}({k}, {d}, {kind})", typ
    return build


def _board_number(name, compute):
    def build(c, args, node, sc):
        if not _arity(c, name, args, node, 1):
            return "0", INT
        k, b = _lane_board(c, args[0], sc, f"`{name}` takes a lane track;")
        kind = c.plan.board_kinds[int(b)] if b.isdigit() else None
        if isinstance(kind, Lanes):
            return repr(compute(kind)), INT  # a number of the track itself
        return f"{c.k(compute)}({k})", INT
    return build


def _board_fact(c, args, node, sc):
    if not _arity(c, "board_fact", args, node, 2):
        return "0", INT
    k, _b = _lane_board(c, args[0], sc, "`board_fact` takes a lane track")
    fact = _want(c, args[1], sc, TEXT, "the name of the fact")
    loc = c.loc(node)

    def fn(kobj, name):
        if name not in kobj.decl.facts:
            raise RuleError(f"board `{kobj.name}` has no fact `{name}` (facts: "
                            f"{', '.join(kobj.decl.facts) or 'none'})", loc)
        return kobj.decl.facts[name]
    return f"{c.k(fn)}({k}, {fact})", INT


Lanes.functions = {
    "progress": _piece_fn("progress", lambda k, data, p: data[0][p], INT),
    "space_of": _piece_fn("space_of", lambda k, data, p: data[0][p] % k.L, INT),
    "spot_of": _piece_fn("spot_of", lambda k, data, p: data[1][p], INT),
    "lap_of": _piece_fn("lap_of", lambda k, data, p: data[0][p] // k.L + 1, INT),
    "on_race_line": _piece_fn("on_race_line", lambda k, data, p: k.prefer[data[0][p] % k.L][0] == data[1][p], BOOL),
    "on_track": _piece_fn("on_track", None, BOOL, may_be_off=True),
    "race_order": _race_order,
    "pieces_in_space": _pieces_in_space,
    "lines_between": _lines_between,
    "next_lines": _next_lines,
    "line_limit": _line_field("line_limit", "limit", INT),
    "line_name": _line_field("line_name", "name", TEXT),
    "finish_at": _board_number("finish_at", lambda k: k.finish),
    "lap_length": _board_number("lap_length", lambda k: k.L),
    "lap_count": _board_number("lap_count", lambda k: k.decl.laps),
    "board_fact": _board_fact,
}


# ---- effects -------------------------------------------------------------------------------

def _line_up(c, args, node, sc):
    """line_up(piece, board): the piece takes the next free place of the start grid."""
    if not _arity(c, "line_up", args, node, 2):
        return None
    pc = c.want(args[0], sc, PIECE, "the first argument of `line_up`")
    board = c.want(args[1], sc, BOARD, "the second argument of `line_up`")
    loc = c.loc(node)
    plan = c.plan

    def line_up(st, env):
        p, b = pc(st, env), board(st, env)
        kind = plan.board_kinds[b]
        if not isinstance(kind, Lanes):
            raise RuleError(f"board `{plan.board_names[b]}` is not a lane track", loc)
        data = st.bd[b]
        if p is None or data[0][p] is not None:
            raise RuleError("`line_up` needs a piece that is not on the track yet", loc)
        for space, spot in kind.decl.grid:
            d = space - kind.L
            if not any(data[0][q] == d and data[1][q] == spot for q in range(len(data[0]))):
                data[0][p], data[1][p] = d, spot
                return
        raise RuleError("the start grid is full", loc)
    return line_up


def _put_at(c, args, node, sc):
    """put_at(piece, board, progress, spot): stand exactly there (scenarios arrange the table)."""
    if not _arity(c, "put_at", args, node, 4):
        return None
    pc = c.want(args[0], sc, PIECE, "the first argument of `put_at`")
    board = c.want(args[1], sc, BOARD, "the second argument of `put_at`")
    dist = c.want(args[2], sc, INT, "the progress of `put_at`")
    spot = c.want(args[3], sc, INT, "the spot of `put_at`")
    loc = c.loc(node)
    plan = c.plan

    def put_at(st, env):
        p, b, d, k = pc(st, env), board(st, env), dist(st, env), spot(st, env)
        kind = plan.board_kinds[b]
        if not isinstance(kind, Lanes):
            raise RuleError(f"board `{plan.board_names[b]}` is not a lane track", loc)
        if not 1 <= k <= kind.spots:
            raise RuleError(f"spot {k} is not one of 1..{kind.spots}", loc)
        for i, _kind in _lanes(plan):
            st.bd[i][0][p] = None
        data = st.bd[b]
        if any(data[0][q] == d and data[1][q] == k for q in range(len(data[0]))):
            raise RuleError(f"spot {k} of progress {d} is taken", loc)
        data[0][p], data[1][p] = d, k
    return put_at


def _advance(c, args, node, sc):
    """advance(piece, n): n spaces forward through other pieces; a full space blocks."""
    if not _arity(c, "advance", args, node, 2):
        return None
    pc = c.want(args[0], sc, PIECE, "the first argument of `advance`")
    n = c.want(args[1], sc, INT, "how many spaces `advance` moves")
    find = _finder(c, node)

    def advance(st, env):
        p, k = pc(st, env), n(st, env)
        kind, data = find(st, p)
        if k <= 0:
            return
        start = data[0][p]
        kind.settle(data, p, start + k, floor=start)
    return advance


def _drop_back(c, args, node, sc):
    """drop_back(piece, progress): the nearest free spot at this progress or behind it."""
    if not _arity(c, "drop_back", args, node, 2):
        return None
    pc = c.want(args[0], sc, PIECE, "the first argument of `drop_back`")
    dist = c.want(args[1], sc, INT, "the progress of `drop_back`")
    find = _finder(c, node)

    def drop_back(st, env):
        p = pc(st, env)
        kind, data = find(st, p)
        kind.settle(data, p, dist(st, env))
    return drop_back


def _take_off(c, args, node, sc):
    """take_off(piece): the piece leaves the track."""
    if not _arity(c, "take_off", args, node, 1):
        return None
    pc = c.want(args[0], sc, PIECE, "`take_off` takes a piece")
    find = _finder(c, node)

    def take_off(st, env):
        p = pc(st, env)
        _kind, data = find(st, p)
        data[0][p] = None
        data[1][p] = 0
    return take_off


Lanes.effects = {"line_up": _line_up, "put_at": _put_at, "advance": _advance,
                 "drop_back": _drop_back, "take_off": _take_off}
