"""A lane track drawn: in its real shape when the board declares where its spots lie (`picture:`),
else as a stadium-shaped loop, or an open road as rows that turn back and forth. Spaces as cells
(the race line's spot shaded, and the spaces with the board's `shade` property tinted, with its
value), lines across the track with their labels, the start/finish line (a road's start and
finish), the grid's numbers; in a game, the pieces on their spots and the tokens the game keeps by
a line's name."""
from __future__ import annotations

import math
from statistics import median
from typing import Any

from ...draw.canvas import Canvas
from ...draw.scene import Scene
from .model import LanesPicture
from .track import Lanes

LINE_COLOURS = ["#c00", "#06a", "#a60", "#080", "#808"]


class _Oval:
    """The loop as a stadium: space s, spot k lies between fractions s/L and (s+1)/L of the loop,
    at the k-th ring from the inside."""

    def __init__(self, spaces: int, spots: int):
        self.L, self.k = spaces, spots
        cell, self.lane = 22.0, 16.0
        self.straight = spaces * cell * 0.32
        self.r0 = max(60.0, (spaces * cell - 2 * self.straight) / (2 * math.pi))
        w = spots * self.lane
        pad = 40
        self.cx1, self.cy = pad + self.r0 + w, pad + self.r0 + w
        self.cx2 = self.cx1 + self.straight
        self.perim = 2 * self.straight + 2 * math.pi * self.r0
        self.scale = 1.0
        self.font = 11.0
        self.car = (16.0, 11.0)

    def point(self, t: float, r: float) -> tuple[float, float]:
        s = (t % 1.0) * self.perim
        st, r0 = self.straight, self.r0
        if s < st:                               # top straight, left to right
            return self.cx1 + s, self.cy - r
        s -= st
        if s < math.pi * r0:                     # right bend
            a = -math.pi / 2 + s / r0
            return self.cx2 + r * math.cos(a), self.cy + r * math.sin(a)
        s -= math.pi * r0
        if s < st:                               # bottom straight, right to left
            return self.cx2 - s, self.cy + r
        s -= st
        a = math.pi / 2 + s / r0
        return self.cx1 + r * math.cos(a), self.cy + r * math.sin(a)

    def centre(self, space: int, spot: int) -> tuple[float, float, float]:
        t = (space + 0.5) / self.L
        r = self.r0 + (spot - 0.5) * self.lane
        (x1, y1), (x2, y2) = self.point(t - 0.01, r), self.point(t + 0.01, r)
        x, y = self.point(t, r)
        return x, y, math.degrees(math.atan2(y2 - y1, x2 - x1))

    def cell(self, space: int, spot: int) -> list[tuple[float, float]]:
        t0, t1 = space / self.L, (space + 1) / self.L
        ri, ro = self.r0 + (spot - 1) * self.lane, self.r0 + spot * self.lane
        return [self.point(t0, ri), self.point(t0, ro), self.point(t1, ro), self.point(t1, ri)]

    def across(self, at: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The line before space `at`, from the inner edge to the outer edge."""
        t = at / self.L
        return self.point(t, self.r0 - 3), self.point(t, self.r0 + self.k * self.lane + 3)


class _Road:
    """An open road in rows of at most ROW spaces, left to right, then right to left below, and so
    on: space s, spot k is a cell of row s // ROW, the k-th band from the top of the row."""

    ROW = 20

    def __init__(self, spaces: int, spots: int):
        self.L, self.k = spaces, spots
        self.long, self.lane = 26.0, 14.0
        self.per = min(spaces, self.ROW)
        self.row = spots * self.lane + 30.0
        self.pad = 40.0
        self.scale = 1.0
        self.font = 11.0
        self.car = (20.0, 10.0)

    def _x(self, space: int, edge: bool = False) -> float:
        """The middle of a space's cell along its row (`edge`: the edge it is entered by)."""
        i = space % self.per
        ahead = space // self.per % 2 == 0
        slot = i if ahead else self.per - 1 - i
        return self.pad + slot * self.long + (0.0 if edge and ahead else self.long if edge else self.long / 2)

    def centre(self, space: int, spot: int) -> tuple[float, float, float]:
        y = self.pad + space // self.per * self.row + (spot - 0.5) * self.lane
        return self._x(space), y, 0.0 if space // self.per % 2 == 0 else 180.0

    def cell(self, space: int, spot: int) -> list[tuple[float, float]]:
        x, y, a = self.centre(space, spot)
        return _turned(x, y, a, self.long * 0.94, self.lane * 0.9)

    def across(self, at: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The line before space `at` (the end of the road for `at` = its length)."""
        space = min(at, self.L - 1)
        x = self._x(space, edge=True)
        if at >= self.L:   # past the last space: the far edge of its cell
            x = self._x(space) + (self.long / 2 if space // self.per % 2 == 0 else -self.long / 2)
        top = self.pad + space // self.per * self.row
        return (x, top - 3), (x, top + self.k * self.lane + 3)


class _Placed:
    """The spots where the board's `picture` puts them: each a cell as long as the usual distance
    between two spaces and as wide as the usual distance between two spots, turned to the
    direction of travel."""

    def __init__(self, spaces: int, spots: int, picture: LanesPicture) -> None:
        self.L, self.k = spaces, spots
        self.at = {(int(r[0]), int(r[1])): (r[2], r[3], r[4]) for r in picture.spots}
        steps = [math.dist(self.at[(s, k)][:2], self.at[((s + 1) % spaces, k)][:2])
                 for s in range(spaces) for k in range(1, spots + 1)]
        self.long = median(steps) * 0.92
        sides = [math.dist(self.at[(s, 1)][:2], self.at[(s, k)][:2])
                 for s in range(spaces) for k in range(2, spots + 1)]
        self.wide = (median(sides) / max(1, spots - 1)) * 0.92 if sides else self.long * 0.5
        width = picture.size[0]
        self.scale = min(1.0, 1100.0 / width)    # a printed board fits a screen
        self.font = 13.0
        self.car = (self.long * 0.8 * self.scale, self.wide * 0.72 * self.scale)

    def centre(self, space: int, spot: int) -> tuple[float, float, float]:
        return self.at[(space % self.L, spot)]

    def cell(self, space: int, spot: int) -> list[tuple[float, float]]:
        x, y, a = self.centre(space, spot)
        return _turned(x, y, a, self.long, self.wide)

    def across(self, at: int) -> tuple[tuple[float, float], tuple[float, float]]:
        before = (at - 1) % self.L
        mids = []
        for k in range(1, self.k + 1):
            (x1, y1, _a), (x2, y2, _b) = self.centre(before, k), self.centre(at, k)
            mids.append(((x1 + x2) / 2, (y1 + y2) / 2))
        (ax, ay), (bx, by) = mids[0], mids[-1]
        if self.k > 1:
            d = math.dist(mids[0], mids[-1]) or 1.0
            ux, uy = (bx - ax) / d, (by - ay) / d
        else:  # across the direction of travel
            a = math.radians(self.centre(at, 1)[2])
            ux, uy = -math.sin(a), math.cos(a)
        h = self.wide * 0.6
        return (ax - ux * h, ay - uy * h), (bx + ux * h, by + uy * h)


def _turned(x: float, y: float, angle: float, long: float, wide: float) -> list[tuple[float, float]]:
    """The four points of a `long` x `wide` rectangle centred at (x, y), its length along `angle`."""
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    vx, vy = -uy, ux
    hl, hw = long / 2, wide / 2
    return [(x - ux * hl - vx * hw, y - uy * hl - vy * hw), (x + ux * hl - vx * hw, y + uy * hl - vy * hw),
            (x + ux * hl + vx * hw, y + uy * hl + vy * hw), (x - ux * hl + vx * hw, y - uy * hl + vy * hw)]


def layout(kind: Lanes) -> Any:   # an `_Oval`, `_Road` or `_Placed` (`paint` reuses a name across them)
    d = kind.decl
    if d.picture is not None:
        return _Placed(d.spaces, d.spots, d.picture)
    return _Road(d.spaces, d.spots) if d.open else _Oval(d.spaces, d.spots)


SHADE = "#f3d6a4"        # a space with the board's `shade` property
SHADE_RACE = "#e0b873"   # ... its race line spot


def paint(canvas: Canvas, kind: Lanes, board: dict | None, table: Scene | None, top: float) -> None:
    d = kind.decl
    lay = layout(kind)
    canvas.frame_from([p for s in range(d.spaces) for k in range(1, d.spots + 1) for p in lay.cell(s, k)],
                      lay.scale, top)
    f = lay.font
    # spaces: one cell per spot, the race line's shaded, those with the `shade` property tinted;
    # labels keep off the track
    shaded = [(kind.props[s] or {}).get(d.shade) if d.shade else None for s in range(d.spaces)]
    for s in range(d.spaces):
        for spot in range(1, d.spots + 1):
            tint = shaded[s] not in (None, False, 0, "")
            race = kind.race[s] == spot
            fill = (SHADE_RACE if race else SHADE) if tint else ("#cfe3ff" if race else "#ffffff")
            pts = lay.cell(s, spot)
            canvas.polygon(pts, fill, attrs=f' class="spot" data-space="{s}" data-spot="{spot}" '
                                                 f'data-place="{kind.name}:{s}"')
            canvas.avoid(pts)
    # lines across: a colour per kind, dashed without a limit; the start/finish line
    kinds = list(kind.by_kind)
    for ln in d.lines:
        colour = LINE_COLOURS[kinds.index(ln.kind) % len(LINE_COLOURS)]
        a, b = lay.across(ln.at)
        canvas.line(a, b, colour, 3.0, None if ln.limit is not None else "5,4")
    a, b = lay.across(0)
    canvas.line(a, b, "#000", 5.0, "3,3")
    if kind.open:   # a road's finish line
        fa, fb = lay.across(kind.finish)
        canvas.line(fa, fb, "#000", 5.0, "3,3")
    # the pieces, before the labels so that the labels keep off them
    cars = []
    if board is not None and table is not None:
        for p in board["pieces"]:
            x, y, ang = lay.centre(p["space"], p["spot"])
            cw, ch = lay.car
            pts = _turned(x, y, ang, cw / lay.scale, ch / lay.scale)
            canvas.polygon(pts, table.colour(p["piece"]), "#111", 1.4, layer="pieces", obstacle=True,
                           attrs=f' class="piece" data-piece="{p["piece"]}"')
            cars.append((p, (x, y)))
    # labels: the start/finish line, lines, the tokens kept by a line's name, spaces, grid, cars
    if kind.open:
        canvas.label("start", b, f, away=f * 0.6)
        canvas.label("finish", fb, f, away=f * 0.6)
    else:
        canvas.label("start/finish", b, f, away=f * 0.6)
    for s, value in enumerate(shaded):   # the `shade` property, where a stretch of it begins
        if value not in (None, False, 0, "") and (s == 0 or shaded[s - 1] != value):
            x, y, _a = lay.centre(s, d.spots)
            canvas.label(f"{d.shade} {value}" if value is not True else d.shade, (x, y), f * 0.8, "#8a5a00",
                         away=f)
    tokens = table.tokens() if table is not None else {}
    named = set()  # a token lies by the first line of its name
    for ln in d.lines:
        colour = LINE_COLOURS[kinds.index(ln.kind) % len(LINE_COLOURS)]
        words = " ".join(str(v) for v in (ln.kind, ln.name) if v is not None)
        text = words + (f" ({ln.limit})" if ln.limit is not None else "")
        _a, b = lay.across(ln.at)
        canvas.label(text, b, f, colour, away=f * 0.6)
        if ln.name is not None and ln.name not in named:
            named.add(ln.name)
            for name, value in tokens.get(ln.name, []):
                canvas.label(f"{name} {ln.name}: {value}", b, f * 0.85, "#608", away=f * 1.8)
    for s in range(0, d.spaces, 5):
        x, y, _a = lay.centre(s, (d.spots + 1) // 2)
        canvas.label(str(s), (x, y), f * 0.75, "#555")
    if board is None:
        for slot, (s, spot) in enumerate(d.grid, 1):
            x, y, _a = lay.centre(s, spot)
            canvas.label(str(slot), (x, y), f * 0.8, "#060", over=True)
    for p, (x, y) in cars:
        canvas.label(p["piece"], (x, y), f, "#000", away=max(lay.car) * 0.6, bold=True)
    # the caption: what the picture shows
    facts = ", ".join(f"{n} {v}" for n, v in d.facts.items())
    laps = f"{d.laps} lap{'' if d.laps == 1 else 's'}"
    shape = (f"an open road of {d.spaces} spaces, {d.spots} spots, the finish before space {kind.finish}"
             if kind.open else f"{d.spaces} spaces, {d.spots} spots, {laps}")
    canvas.lines([f"{kind.name}: {shape}"
                  + (f"; {facts}" if facts else "")
                  + "; shaded spot: the race line"
                  + (f"; tinted spaces: {d.shade}" if d.shade else "")
                  + ("; lines: kind, name (limit)" if d.lines else "") + "; "
                  + ("green numbers: the start grid" if board is None else "the pieces on their spots")],
                 f * 0.9)
