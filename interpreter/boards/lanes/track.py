"""The lane track at run time: spaces in a loop, a few spots per space, lines across the track.

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

It reads the declaration (`model.py`) and the compiled game's plan (its pieces, its move rules);
it gives the class `Lanes`: the track's geometry, its moves, and what a seat sees of it (`view`),
which the built-ins (`builtins.py`) call and `kind.py` registers.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Any

from ...base.errors import RuleError
from ...base.limits import MAX_LIST
from ...lang.types import INT
from ...library.api import Table
from ..base import BLOCKED, ENTERED, MOVED, PASSED, BoardKind, in_space, move_events, passed
from .model import LanesModel

# the run-time data: [each piece's progress (None: off the track), each piece's spot]
Data = list[list[Any]]


# Lines are looked up in a table grown lap by lap for progress up to this far (a race is a few
# hundred spaces); beyond it (only a rule with absurd numbers goes there) they are computed.
_TABLE = 100_000


class Lanes(BoardKind):
    kind = "lanes"
    noun = "a lane track"
    events = move_events(INT, "progress")
    moves = True
    Model = LanesModel
    has_places = False
    piece_at = (0, None)

    def __init__(self, name: str, index: int, decl: Any, plan: Any) -> None:
        super().__init__(name, index, decl, plan)
        d = decl
        self.L = d.spaces
        self.spots = d.spots
        self.open = d.open
        # what players call a space and a spot: (one, more)
        self.space_word, self.spot_word = d.words.said("space"), d.words.said("spot")
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
    def line_kinds(cls, decl: Any) -> set[str]:
        return {ln.kind for ln in decl.lines}

    # ---- run-time data ------------------------------------------------------------------

    def init(self, st: Table) -> Data:
        return [[None] * self.n_pieces, [0] * self.n_pieces]

    def clone(self, data: Data) -> Data:
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

    # the `LaneLine` of this kind before d, or None (`view` asks where it knows there is one)
    def line_at(self, d: int, kind: str) -> Any:
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

    def occupants(self, data: Data, d: int, but: int | None = None) -> list[int]:
        """The pieces standing in the space of progress d: on a loop, a piece a lap (or more) ahead
        or behind stands in that space too (a lapped car fills its spot)."""
        return in_space(data[0], d, None if self.open else self.L, but)

    def free_spot(self, data: Data, d: int, but: int | None = None) -> int | None:
        spot = data[1]
        taken = {spot[pc] for pc in self.occupants(data, d, but)}
        if not taken:
            return self.prefer[d % self.L][0]
        for k in self.prefer[d % self.L]:
            if k not in taken:
                return k
        return None

    def settle(self, data: Data, pc: int, d: int, floor: int | None = None) -> None:
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

    def where_of(self, data: Data, pc: int) -> int | None:
        return data[0][pc]

    def in_order(self, data: Data) -> list[int]:
        return self.order(data)

    def move(self, st: Table, data: Data, pc: int, d: int, floor: int | None = None,
             heard: bool = False) -> list | None:
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

    def ruled(self, st: Table, data: Data, pc: int, d: int, floor: int | None) -> None:
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

    def spot_by_rule(self, st: Table, data: Data, pc: int, d: int) -> int | None:
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

    def order(self, data: Data) -> list[int]:
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
        space, spot_word = self.space_word[0], self.spot_word[0]
        if self.open:
            return f"{space} {d} {spot_word} {spot}"
        return f"{space} {d % self.L} {spot_word} {spot}, lap {max(d // self.L + 1, 1)}/{self.decl.laps}"

    def positions(self, st: Table) -> list[tuple[str, str]]:
        data = st.bd[self.index]
        names = self.plan.piece_names
        return [(names[pc], self._where(data[0][pc], data[1][pc])) for pc in self.order(data)]

    def view(self, st: Table, seat: int | None) -> dict:
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
                "open": self.open, "pieces": pieces,
                "words": {"space": self.space_word, "spot": self.spot_word}}
