"""The lane track: spaces in a loop, a few spots per space, lines across the track.

A piece on the track stands at a *progress* (spaces covered since the start/finish line:
`lap * spaces + space`, negative on a start grid that lies before the line) and a *spot*
(1..spots). Lines lie before a space (`at: P` is between space P-1 and P) and have a kind named
by the ruleset, optionally a limit, a name and the spot that is the race line from there on.

Run-time data is `st.bd[index] = [progress per piece, spot per piece]` (None: off the track),
copied in a clone as two short lists. The layout (lines, race line per space) stays on the
kind object. Moves pass through other pieces; a move that ends on a full space ends on the
nearest free spot behind it (blocking). Which spot of a space a piece takes first, and which of
two pieces in one space is ahead, is the board's `spot_order`: the race line first, or the
spots in number order. A game may decide these itself with its rules `moves.enter` (may a piece
go into a space on its way) and `moves.spot` (the spot it takes where it stops): `Lanes.ruled`.
Moves raise the board events (`boards/base.py`): each space entered, each piece passed, a move
blocked. Spaces may carry properties (`space_props`), read with `space_prop`.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...lang.errors import RuleError
from ...lang.limits import MAX_LIST
from ...lang.types import BOOL, INT, PIECE, TEXT, listof
from ...library.api import Builtin, Param, Read, Spec
from ..base import (BLOCKED, ENTERED, MOVED, PASSED, BoardKind, Props, heard_by_change, kind_at, move_events,
                    of_piece, on_board, passed, prop_value, register)
from ..segments import Segment, lines_of, problem, props_of, spaces_of, spots_picture


class LaneLine(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="LaneLine")
    at: int = Field(ge=0, description="the line lies before this space (between space at-1 and at)")
    kind: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
                      description="what the line is; the rules ask for lines of a kind")
    limit: int | None = Field(None, description="a number the rules compare with (e.g. a limit)")
    name: str | None = Field(None, description="a label shown on the picture and in views")
    race_line: int | None = Field(None, ge=1, description="the spot that is the race line from this line on")


class SpaceProps(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="SpaceProps")
    at: int = Field(ge=0, description="the space (0..spaces-1)")
    to: int | None = Field(None, ge=0, description="the last space of a stretch from `at` (round the finish "
                                                   "line when it is smaller than `at`)")
    props: Props = Field(description="what the rules read of these spaces with `space_prop`: name -> a "
                                     "number, a text or true/false (`width: 1`, `surface: gravel`)")

    def spaces(self, n: int) -> list[int]:
        """The spaces it covers, on a track of `n` spaces."""
        last = self.at if self.to is None else self.to
        return [(self.at + i) % n for i in range((last - self.at) % n + 1)]


class LanesPicture(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="LanesPicture")
    source: str | None = Field(None, description="where the positions come from (a printed board, a scan)")
    size: list[float] = Field(min_length=2, max_length=2,
                              description="[width, height] of the printed board, in the units of `spots`")
    spots: list[list[float]] = Field(
        description="where each spot lies on the printed board: [space, spot, x, y, angle], x to the right "
                    "and y down from the top left, angle the direction of travel in degrees "
                    "clockwise from +x; one row for every spot of every space")


class LanesModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="LanesBoard")
    kind: Literal["lanes"] = Field(description="lanes: spaces in a loop (or an open road) with a few spots "
                                               "each, lines across it")
    spaces: int | None = Field(None, ge=2, le=1000,
                               description="spaces per lap; space 0 is the first after the start/finish line "
                                           "(an open road: its spaces from the start); or `segments`")
    segments: list[Segment] | None = Field(
        None, min_length=1, description="the track as stretches of road (length, turn, properties, a line "
                                        "before each), in place of `spaces`, `space_props`, `lines` and "
                                        "`picture`: expanded into them, the picture drawn along them")
    open: bool = Field(False, description="an open road from a start to a finish, not a loop: a move that "
                                          "would go past its last space ends on it (or the nearest free "
                                          "spot behind); `laps` is 1")
    finish: int | None = Field(None, ge=1, description="an open road's finish line lies before this space "
                                                       "(default: before the last space; the spaces after "
                                                       "it are the run-off)")
    shade: str | None = Field(None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
                              description="a property of `space_props` the picture shades where a space has "
                                          "it (a climb, a cobbled stretch), with its value")
    spots: int = Field(2, ge=1, le=6, description="spots per space")
    laps: int = Field(1, ge=1, le=50, description="laps to the finish")
    race_line: int = Field(1, ge=1, description="the race line spot where no line says otherwise")
    spot_order: Literal["race_line", "number"] = Field(
        "race_line", description="which spot of a space a piece takes first, and which of two pieces in one "
                                 "space is ahead: `race_line`: the race line spot, then the others in number "
                                 "order; `number`: the spots in number order 1, 2, ... (the race line aside)")
    lines: list[LaneLine] = Field(default_factory=list)
    grid: list[list[int]] = Field(
        default_factory=list, description="start grid, slot 1 first: [space, spot]; spaces before "
                                          "the line count as the lap before the first")
    space_props: list[SpaceProps] = Field(
        default_factory=list, description="properties of spaces or stretches of spaces, which the rules read "
                                          "with `space_prop(board, progress, name, default)`")
    facts: dict[str, int] = Field(default_factory=dict,
                                  description="numbers printed on the board that the rules read "
                                              "with `board_fact`")
    picture: LanesPicture | None = Field(
        None, description="where the spots lie on the printed board, for `racecraft render` (without it "
                          "the track is drawn as an oval)")

    @model_validator(mode="after")
    def _fits(self):
        if self.segments is not None:
            return self._expanded()
        if self.spaces is None:
            raise ValueError("a lane track has `spaces` (and its lines, ...) or `segments`")
        if self.open:
            if self.laps != 1:
                raise ValueError("an open road is raced once: `laps` is 1")
            if self.finish is not None and self.finish >= self.spaces:
                raise ValueError(f"the finish before space {self.finish} is not within the road's "
                                 f"{self.spaces} spaces")
            for i, sp in enumerate(self.space_props):
                if sp.to is not None and sp.to < sp.at:
                    raise ValueError(f"space_props.{i}: an open road's stretch goes forward: `to` "
                                     f"{sp.to} lies before `at` {sp.at}")
        elif self.finish is not None:
            raise ValueError("`finish` is an open road's: a loop's finish is after its last lap")
        for ln in self.lines:
            if ln.at >= self.spaces:
                raise ValueError(f"a line at space {ln.at} is outside the {self.spaces} spaces")
            if ln.race_line is not None and ln.race_line > self.spots:
                raise ValueError(f"race_line {ln.race_line} is not one of the {self.spots} spots")
        given: set[tuple[int, str]] = set()
        for i, sp in enumerate(self.space_props):  # said at the item (`structure._model_error`)
            for key, at in (("at", sp.at), ("to", sp.to)):
                if at is not None and at >= self.spaces:
                    raise ValueError(f"space_props.{i}.{key}: space {at} is outside the {self.spaces} spaces")
            for space in sp.spaces(self.spaces):
                for name in sp.props:
                    if (space, name) in given:
                        raise ValueError(f"space_props.{i}.props.{name}: space {space} is given `{name}` "
                                         "twice")
                    given.add((space, name))
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
        if self.picture is not None:
            self._picture_fits(self.picture)
        return self

    def _expanded(self):
        """The track its segments describe: its spaces, properties, lines and picture."""
        given = [k for k in ("spaces", "space_props", "lines", "picture") if k in self.model_fields_set]
        if given:
            raise ValueError(f"`segments` describe the track: give no `{given[0]}` beside them")
        segs = self.segments
        assert segs is not None
        if spaces_of(segs) > 1000:
            raise ValueError(f"the segments make {spaces_of(segs)} spaces; a track has at most 1000")
        found = problem(segs, loop=not self.open)
        if found:
            raise ValueError(found)
        track = self.model_copy(update={
            "segments": None, "spaces": spaces_of(segs),
            "space_props": [SpaceProps(**x) for x in props_of(segs)],
            "lines": [LaneLine(**x) for x in lines_of(segs)],
            "picture": LanesPicture(**spots_picture(segs, self.spots))})
        return type(self).model_validate(track.model_dump(exclude_none=True, exclude={"segments"}))

    def _picture_fits(self, pic: LanesPicture) -> None:
        w, h = pic.size
        n = self.spaces
        assert n is not None   # (`_fits` said so)
        seen = set()
        for row in pic.spots:
            if len(row) != 5:
                raise ValueError(f"a picture spot is [space, spot, x, y, angle], not {row}")
            space, spot, x, y, _a = row
            key = (space, spot)
            if space != int(space) or spot != int(spot) or not (0 <= space < n and 1 <= spot <= self.spots):
                raise ValueError(f"picture spot [{space}, {spot}] is not a spot of the track")
            if key in seen:
                raise ValueError(f"the picture places spot [{space:g}, {spot:g}] twice")
            if not (0 <= x <= w and 0 <= y <= h):
                raise ValueError(f"picture spot [{space:g}, {spot:g}] at ({x:g}, {y:g}) is outside "
                                 f"the board's size {w:g} x {h:g}")
            seen.add(key)
        missing = n * self.spots - len(seen)
        if missing:
            raise ValueError(f"the picture places {len(seen)} spots, but the track has "
                             f"{n * self.spots}: place every spot of every space")


# Lines are looked up in a table grown lap by lap for progress up to this far (a race is a few
# hundred spaces); beyond it (only a rule with absurd numbers goes there) they are computed.
_TABLE = 100_000


@register
class Lanes(BoardKind):
    kind = "lanes"
    noun = "a lane track"
    events = move_events(INT, "progress")
    moves = True
    Model = LanesModel
    has_places = False
    piece_at = (0, None)

    def __init__(self, name, index, decl, plan):
        super().__init__(name, index, decl, plan)
        d = decl
        self.L = d.spaces
        self.spots = d.spots
        self.open = d.open
        # the finish: after the last lap; on an open road, before its `finish` space
        self.finish = (d.finish if d.finish is not None else d.spaces - 1) if d.open else d.laps * d.spaces
        # race line per space: the last line with `race_line` at or before it (wrapping)
        rl_lines = sorted((ln.at, ln.race_line) for ln in d.lines if ln.race_line is not None)
        rl = [d.race_line] * self.L
        if rl_lines:
            current = rl_lines[-1][1]
            marks = dict(rl_lines)
            for s in range(self.L):
                current = marks.get(s, current)
                rl[s] = current
        self.race = rl
        # spots of each space in order of preference (`spot_order`): the race line first, then
        # the others; or all in number order
        if d.spot_order == "number":
            self.prefer = [list(range(1, self.spots + 1)) for _r in rl]
        else:
            self.prefer = [[r] + [k for k in range(1, self.spots + 1) if k != r] for r in rl]
        self.rank = [{k: i for i, k in enumerate(p)} for p in self.prefer]
        self.by_kind: dict[str, list] = {}
        for ln in sorted(d.lines, key=lambda x: x.at):
            self.by_kind.setdefault(ln.kind, []).append(ln)
        self.at_space = {k: {ln.at: ln for ln in lines} for k, lines in self.by_kind.items()}
        # kind -> progress of its lines, lap after lap (grown when asked)
        self.marks: dict[str, list[int]] = {}
        self.n_pieces = plan.n_pieces if plan is not None else 0
        # each space's properties (`space_props`), None for a space without any
        self.props: list[dict | None] = [None] * self.L
        for sp in d.space_props:
            for space in sp.spaces(self.L):
                self.props[space] = {**(self.props[space] or {}), **sp.props}

    @classmethod
    def line_kinds(cls, decl) -> set[str]:
        return {ln.kind for ln in decl.lines}

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
        if self.open:   # a road's lines lie once
            if not marks:
                marks.extend(ln.at for ln in lines)
            return marks
        while len(marks) // len(lines) * self.L <= upto:
            base = len(marks) // len(lines) * self.L
            marks.extend(base + ln.at for ln in lines)
        return marks

    def lines_between(self, a: int, b: int, kind: str) -> list[int]:
        """Progress values P (the first space after the line) of the lines with a < P <= b."""
        out: list[int] = []
        lines = self.by_kind.get(kind, ())
        if not lines or b <= a:
            return out
        if (b - a) // self.L * len(lines) > MAX_LIST:
            raise RuleError(f"lines between {a} and {b}: more than {MAX_LIST} lines")
        if 0 <= a and b <= _TABLE or self.open:
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
        if n > MAX_LIST:
            raise RuleError(f"the next {n} lines: more than {MAX_LIST}")
        if 0 <= d <= _TABLE or self.open:
            marks = self._marks(kind, d + (n // len(lines) + 1) * self.L)
            i = bisect_right(marks, d)
            return marks[i:i + n]
        out: list[int] = []
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
        pos, spot = data
        taken = {spot[pc] for pc, p in enumerate(pos) if p == d and pc != but}
        if not taken:
            return self.prefer[d % self.L][0]
        for k in self.prefer[d % self.L]:
            if k not in taken:
                return k
        return None

    def settle(self, data, pc: int, d: int, floor=None) -> None:
        """Put pc on the nearest free spot at progress d or behind (never behind `floor`); an open
        road ends at its last space."""
        if self.open and d >= self.L:
            d = self.L - 1
        while True:
            k = self.free_spot(data, d, pc)
            if k is not None or (floor is not None and d <= floor):
                break
            d -= 1
        if k is None:  # pragma: no cover - its own spot at `floor` is always free
            k = self.prefer[d % self.L][0]
        data[0][pc] = d
        data[1][pc] = k

    # ---- moves by the ruleset's rules, and what happened --------------------------------------

    def where_of(self, data, pc):
        return data[0][pc]

    def in_order(self, data) -> list:
        return self.order(data)

    def move(self, st, data, pc: int, d: int, floor=None, heard: bool = False) -> list | None:
        """Move pc as `settle` does, by the game's move rules where it has any (`moves.enter`,
        `moves.spot`); with `heard`, what happened, as events (`boards/base.py`): moved, each space
        entered, each piece passed (going forward from `floor`), blocked (ended behind `d`)."""
        start = data[0][pc]
        before = self.order(data) if heard else None
        if self.plan.move_rules:
            self.ruled(st, data, pc, d, floor)
        else:
            self.settle(data, pc, d, floor)
        if before is None:
            return None
        end = data[0][pc]
        out: list[tuple] = []
        if end != start:
            out.append((MOVED, pc, start, end))
            spaces = range(start + 1, end + 1) if end > start else (end,)
            out.extend((ENTERED, pc, x) for x in spaces)
            if floor is not None:  # going forward (`advance`)
                out.extend((PASSED, pc, q) for q in passed(before, self.order(data), pc))
        if end < d:
            out.append((BLOCKED, pc, d, end))
        return out

    def ruled(self, st, data, pc: int, d: int, floor) -> None:
        """`settle` by the game's move rules: going forward (from `floor`, its start), the piece
        goes no further than the space before the first one `moves.enter` refuses it; it stops at
        the nearest progress there or behind where `moves.spot` gives it a spot (its own spot at
        its start, when nothing ahead of it will do). Without a floor it looks back a lap at most."""
        plan = self.plan
        enter, spot = plan.move_enter, plan.move_spot
        start = data[0][pc]
        if self.open and d >= self.L:   # an open road ends at its last space
            d = self.L - 1
        if enter is not None and floor is not None:
            for x in range(start + 1, d + 1):
                if not enter(st, {"piece": pc, "space": x}):
                    d = x - 1
                    break
        lowest = floor if floor is not None else d - self.L
        target = d
        while True:
            k = self.free_spot(data, d, pc) if spot is None else self.spot_by_rule(st, data, pc, d)
            if k or d <= lowest:
                break
            d -= 1
        if not k:
            if floor is None:
                raise RuleError(f"`moves.spot` gives `{plan.piece_names[pc]}` no spot at progress {target} "
                                f"nor in the {self.L} spaces behind it", plan.rules.get("moves.spot"),
                                "moves.spot")
            d, k = start, data[1][pc]  # it stays where it was
        data[0][pc] = d
        data[1][pc] = k

    def spot_by_rule(self, st, data, pc: int, d: int) -> int | None:
        """The spot `moves.spot` gives pc at progress d (None: no room), which must be free."""
        plan = self.plan
        k = plan.move_spot(st, {"piece": pc, "space": d})  # type: ignore[misc]
        if not k:
            return None
        where = plan.rules.get("moves.spot")
        if not 1 <= k <= self.spots:
            raise RuleError(f"`moves.spot` gives spot {k} at progress {d}: the track has spots "
                            f"1..{self.spots}", where, "moves.spot")
        for q in self.occupants(data, d, pc):
            if data[1][q] == k:
                raise RuleError(f"`moves.spot` gives `{plan.piece_names[pc]}` spot {k} at progress {d}, "
                                f"where `{plan.piece_names[q]}` stands", where, "moves.spot")
        return k

    def order(self, data) -> list:
        """The pieces on the track, the leader first: by progress, then the spot ahead in the
        space (`rank`), then the piece's number. Sorted as one number per piece (in C)."""
        pos, spot = data
        n, width, L, rank = len(pos), self.spots + 1, self.L, self.rank
        keys = sorted((rank[p % L][spot[pc]] - p * width) * n + pc
                      for pc, p in enumerate(pos) if p is not None)
        return [k % n for k in keys]

    # ---- what a seat sees -------------------------------------------------------------------

    def _where(self, d: int, spot: int) -> str:
        if d >= self.finish:
            return "past the finish"
        if self.open:
            return f"space {d} spot {spot}"
        return f"space {d % self.L} spot {spot}, lap {max(d // self.L + 1, 1)}/{self.decl.laps}"

    def positions(self, st) -> list[tuple[str, str]]:
        data = st.bd[self.index]
        names = self.plan.piece_names
        return [(names[pc], self._where(data[0][pc], data[1][pc])) for pc in self.order(data)]

    def view(self, st, seat) -> dict:
        """The track and each piece on it in race order: where it stands, and the next two lines
        (before the finish) of each kind of line that has limits or that the game's `view.lines`
        tells of (the game adds what it says of each: `Game.view`)."""
        data = st.bd[self.index]
        names = self.plan.piece_names
        told = getattr(self.plan, "line_facts", {})
        limited = [k for k, lines in self.by_kind.items()
                   if k in told or any(ln.limit is not None for ln in lines)]
        pieces = []
        for pc in self.order(data):
            d, spot = data[0][pc], data[1][pc]
            ahead = []
            for k in limited:
                for p in self.next_lines(d, k, 2):
                    if p >= self.finish:
                        continue
                    ln = self.line_at(p, k)
                    ahead.append({"kind": k, "name": ln.name, "limit": ln.limit, "in": p - d,
                                  "progress": p})
            pieces.append({"piece": names[pc], "where": self._where(d, spot), "space": d % self.L,
                           "spot": spot, "progress": d, "lap": d // self.L + 1,
                           "finished": d >= self.finish, "next": ahead})
        return {"kind": self.kind, "spaces": self.L, "laps": self.decl.laps, "finish": self.finish,
                "open": self.open, "pieces": pieces}


# ---- built-ins -----------------------------------------------------------------------------
# Functions of a piece find the track it stands on (`of_piece`: in a game with one track, found
# when compiling); functions of a board take the board first (`on_board`: a board named in the
# rule is found when compiling). What reads only the track's printed data is `pure`: computed
# once when compiling for a board named in the rule.

def _lanes(plan) -> list:
    return [(i, k) for i, k in enumerate(plan.board_kinds) if isinstance(k, Lanes)]


def _piece_fn(name: str, typ: Spec, doc: str, compute) -> Builtin:
    """A function of one piece on a lane track: compute(kind, data, piece)."""
    return of_piece(Lanes, name, [], typ, doc)(compute)


_progress = _piece_fn("progress", INT,
                      "spaces covered since the start/finish line (negative on a grid before it)",
                      lambda k, data, p: data[0][p])


def _progress_bind(plan, consts):
    boards = _lanes(plan)
    # in a game with one track, a read of the piece's progress (None: off the track, an error)
    return Read(boards[0][0], 0, None) if len(boards) == 1 else None


_progress.bind = _progress_bind
_space_of = _piece_fn("space_of", INT, "the space it stands on, 0..spaces-1",
                      lambda k, data, p: data[0][p] % k.L)
_spot_of = _piece_fn("spot_of", INT, "the spot it stands on, 1..spots", lambda k, data, p: data[1][p])
_lap_of = _piece_fn("lap_of", INT, "the lap it is on, from 1 (0 on a grid before the line)",
                    lambda k, data, p: data[0][p] // k.L + 1)
_on_race_line = _piece_fn("on_race_line", BOOL, "true if it stands on the race line spot of its space",
                          lambda k, data, p: k.race[data[0][p] % k.L] == data[1][p])


def _on_track_run(st, p):
    if p is None:
        return False
    return any(st.bd[i][0][p] is not None for i, _k in _lanes(st.plan))


def _on_track_bind(plan, consts):
    boards = [i for i, _k in _lanes(plan)]
    if len(boards) != 1:
        return None
    (i,) = boards  # the usual game: one track

    def on_track(st, p):
        return p is not None and st.bd[i][0][p] is not None
    return on_track


_on_track = Builtin("on_track", (Param(PIECE, "the piece of `on_track`"),), BOOL, _on_track_run,
                    "true if the piece stands on a lane track (false for none)", bind=_on_track_bind,
                    kind="lanes")


@on_board(Lanes, "race_order", [], listof(PIECE), "the pieces on the track, the leader first")
def _race_order(k, st, _b):
    return k.order(st.bd[k.index])


@on_board(Lanes, "pieces_in_space", [(INT, "the progress of `pieces_in_space`")], listof(PIECE),
          "the pieces at this progress, the one ahead first")
def _pieces_in_space(k, st, _b, d):
    data = st.bd[k.index]
    pcs = k.occupants(data, d)
    if len(pcs) > 1:
        rank, spot = k.rank[d % k.L], data[1]
        pcs.sort(key=lambda pc: rank[spot[pc]])
    return pcs


@on_board(Lanes, "lines_between", [(INT, "the progress a move starts from"),
                                   (INT, "the progress a move ends at"), (TEXT, "the kind of line")],
          listof(INT),
          "the progress (first space after it) of each line of this kind a move from a to b crosses")
def _lines_between(k, st, _b, a, b, kind):
    return k.lines_between(a, b, kind)


@on_board(Lanes, "next_lines", [(INT, "the progress to look ahead from"), (TEXT, "the kind of line"),
                                (INT, "how many lines")], listof(INT),
          "the progress (first space after it) of the next n lines of this kind ahead")
def _next_lines(k, st, _b, d, kind, n):
    return k.next_lines(d, kind, n)


_NO_LINE = object()


def _line_field(name: str, attr: str, typ: Spec, doc: str) -> Builtin:
    def field(k, st, _b, d, kind):
        ln = k.line_at(d, kind)
        if ln is None:
            raise RuleError(f"no line of kind `{kind}` lies before space {d % k.L}")
        return getattr(ln, attr)

    b = on_board(Lanes, name, [(INT, "the progress of the line (the first space after it)"),
                               (TEXT, "the kind of line")], typ, doc)(field)
    by_board = b.bind

    def bind(plan, consts):
        track, kname = consts[0], consts[2]
        if not isinstance(track, int) or not isinstance(kname, str) \
                or not isinstance(plan.board_kinds[track], Lanes):
            return by_board(plan, consts)
        # a named track and a kind written out: the field by space, looked up in a table made now
        k = plan.board_kinds[track]
        values = {space: getattr(ln, attr) for space, ln in k.at_space.get(kname, {}).items()}
        L = k.L

        def looked_up(st, _b, d, _kind):
            v = values.get(d % L, _NO_LINE)
            if v is _NO_LINE:
                raise RuleError(f"no line of kind `{kname}` lies before space {d % L}")
            return v
        return looked_up
    b.bind = bind
    return b


_line_limit = _line_field("line_limit", "limit", INT, "the limit of the line of this kind before progress d")
_line_name = _line_field("line_name", "name", TEXT, "the name of the line of this kind before progress d")


def _board_number(name: str, doc: str, compute) -> Builtin:
    # the track's printed data: a board named in the rule gives a constant
    return on_board(Lanes, name, [], INT, doc, pure=True)(lambda k, st, _b: compute(k))


_finish_at = _board_number("finish_at", "the progress of the finish (laps × spaces; an open road's finish "
                                        "space)", lambda k: k.finish)
_lap_length = _board_number("lap_length", "spaces per lap", lambda k: k.L)
_lap_count = _board_number("lap_count", "laps to the finish", lambda k: k.decl.laps)


@on_board(Lanes, "board_fact", [(TEXT, "the name of the fact")], INT,
          "a number printed on the board (`facts:`)", pure=True)
def _board_fact(k, st, _b, name):
    if name not in k.decl.facts:
        raise RuleError(f"board `{k.name}` has no fact `{name}` (facts: {', '.join(k.decl.facts) or 'none'})")
    return k.decl.facts[name]


@on_board(Lanes, "space_prop", [(INT, "the progress of `space_prop`"), (TEXT, "the property of `space_prop`"),
                                ("T:plain", "the value of `space_prop` where the space has none")], "T",
          "a property of the space at this progress (`space_props` of the track), or the default given "
          "where it has none", pure=True)
def _space_prop(k, st, _b, d, name, default):
    return prop_value(k.props[d % k.L], name, default, f"space {d % k.L} of `{k.name}`")


@on_board(Lanes, "space_steps_to", [(INT, "the progress `space_steps_to` counts from"),
                                    (TEXT, "the property `space_steps_to` looks for")], INT,
          "how many spaces ahead the nearest space with this property lies (`space_props`), 0 when the "
          "space at this progress has it (none when none lies ahead: on a loop, within a lap)", pure=True)
def _space_steps_to(k, st, _b, d, name):
    spaces = range(max(d, 0), k.L) if k.open else range(d, d + k.L)
    return next((sp - d for sp in spaces if (k.props[sp % k.L] or {}).get(name) is not None), None)


@on_board(Lanes, "race_line_spot", [(INT, "the progress of `race_line_spot`")], INT,
          "the spot that is the race line at this progress", pure=True)
def _race_line_spot(k, st, _b, d):
    return k.race[d % k.L]


# ---- effects -------------------------------------------------------------------------------

def _line_up_run(st, p, b):
    """The piece takes the next free place of the start grid."""
    k = kind_at(st, b, Lanes, "line_up")
    data = st.bd[b]
    if p is None or data[0][p] is not None:
        raise RuleError("`line_up` needs a piece that is not on the track yet")
    for space, spot in k.decl.grid:
        d = space if k.open else space - k.L   # (a loop's grid lies before the line, the lap before)
        if not any(data[0][q] == d and data[1][q] == spot for q in range(len(data[0]))):
            data[0][p], data[1][p] = d, spot
            return
    raise RuleError("the start grid is full")


_line_up = heard_by_change(Lanes, Builtin(
    "line_up", (Param(PIECE, "the first argument of `line_up`"),
                Param("lanes", "the second argument of `line_up`")), None, _line_up_run,
    "the piece takes the next free place of the track's start grid", kind="lanes"), (ENTERED,))


def _put_at_run(st, p, b, d, spot):
    """Stand exactly there (scenarios arrange the table)."""
    k = kind_at(st, b, Lanes, "put_at")
    if p is None:
        raise RuleError("`put_at`: a piece was expected, not none")
    if not 1 <= spot <= k.spots:
        raise RuleError(f"spot {spot} is not one of 1..{k.spots}")
    if k.open and not 0 <= d < k.L:
        raise RuleError(f"progress {d} is not on the road (its spaces are 0..{k.L - 1})")
    for i, _k in _lanes(st.plan):
        st.bd[i][0][p] = None
    data = st.bd[b]
    if any(data[0][q] == d and data[1][q] == spot for q in range(len(data[0]))):
        raise RuleError(f"spot {spot} of progress {d} is taken")
    data[0][p], data[1][p] = d, spot


_put_at = Builtin("put_at", (Param(PIECE, "the first argument of `put_at`"),
                             Param("lanes", "the second argument of `put_at`"),
                             Param(INT, "the progress of `put_at`"), Param(INT, "the spot of `put_at`")),
                  None, _put_at_run, "the piece stands exactly at this progress and spot (scenarios "
                                     "arrange the table)", kind="lanes")


def _moving(b: Builtin, where, events: tuple[str, ...]) -> Builtin:
    """An effect that moves a piece on a lane track (`advance`, `drop_back`): as declared, the
    board's own move; by the ruleset's move rules in a game that has some (`Lanes.ruled`); and
    saying what happened for a game that waits for its events (`heard`). `where(data, p, arg)` is
    where the piece goes, (progress, floor), or None when it does not move."""
    own_run, own_bind = b.run, b.bind

    def run(st, p, arg):
        if not st.plan.move_rules:
            return own_run(st, p, arg)
        heard(st, p, arg, False)

    def heard(st, p, arg, tell=True):
        k, data = _on_lanes(st, p, b.name)
        to = where(data, p, arg)
        if to is None:
            return []
        return k.move(st, data, p, to[0], to[1], tell)

    def bind(plan, consts):
        return own_bind(plan, consts) if not plan.move_rules else None  # type: ignore[misc]
    b.run, b.bind, b.heard, b.events = run, bind, heard, events
    return b


def _on_lanes(st, p, name: str):
    """(kind, data) of the lane track the piece stands on, or a rule error."""
    if p is not None:
        for i, k in _lanes(st.plan):
            if st.bd[i][0][p] is not None:
                return k, st.bd[i]
        raise RuleError(f"`{name}`: `{st.plan.piece_names[p]}` is not on {Lanes.noun}")
    raise RuleError(f"`{name}`: a piece was expected, not none")


@of_piece(Lanes, "advance", [(INT, "how many spaces `advance` moves")], None,
          "n spaces forward through other pieces; a full space blocks (the nearest free spot behind); "
          "the game's `moves` rules where it has them")
def _advance(k, data, p, n):
    if n <= 0:
        return
    start = data[0][p]
    k.settle(data, p, start + n, floor=start)


@of_piece(Lanes, "drop_back", [(INT, "the progress of `drop_back`")], None,
          "the nearest free spot at this progress or behind it; the game's `moves.spot` where it has one")
def _drop_back(k, data, p, d):
    k.settle(data, p, d)


_moving(_advance, lambda data, p, n: None if n <= 0 else (data[0][p] + n, data[0][p]),
        (MOVED, ENTERED, PASSED, BLOCKED))
_moving(_drop_back, lambda data, p, d: (d, None), (MOVED, ENTERED, BLOCKED))  # nobody is passed going back


@of_piece(Lanes, "free_spot", [(INT, "the progress of `free_spot`")], INT,
          "the spot the piece would take at this progress by the board's own rule (`spot_order`, the first "
          "spot no other piece stands on), 0 when there is none: what `moves.spot` is without a rule")
def _free_spot(k, data, p, d):
    return k.free_spot(data, d, p) or 0


@of_piece(Lanes, "take_off", [], None, "the piece leaves the track")
def _take_off(k, data, p):
    data[0][p] = None
    data[1][p] = 0


Lanes.builtins = [_progress, _space_of, _spot_of, _lap_of, _on_race_line, _on_track, _race_order,
                  _pieces_in_space, _lines_between, _next_lines, _line_limit, _line_name, _finish_at,
                  _lap_length, _lap_count, _board_fact, _space_prop, _space_steps_to, _race_line_spot,
                  _free_spot, _line_up, _put_at, _advance, _drop_back, _take_off]
