"""A track written as segments (stretches of road) rather than space by space: each segment has a
length in spaces, may turn (degrees over its length: a bend), may give its spaces properties (a
slope) and may have a line across the road before its first space (a bend's limit, a checkpoint).
The board kinds whose places are spaces in a row (a lane track, a stack track) expand them into
their spaces, properties and lines, and a lane track into the picture of its spots as well: the
road walked space by space from the start, so that a looped track's picture closes where its
description does. `validate` says where a loop's description does not come back to its start,
and where a road crosses itself.
"""
from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .base import Props


class SegmentLine(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="SegmentLine")
    kind: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", description="what the line is (a name rules use)")
    limit: int | None = Field(None, description="a number the rules compare with (a bend's limit)")
    name: str | None = Field(None, description="a label shown on the picture and in views")
    race_line: int | None = Field(None, ge=1, description="the spot that is the race line from this line on")


class Segment(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="Segment")
    length: int = Field(ge=1, le=1000, description="its spaces")
    turn: float = Field(0, ge=-360, le=360, description="how far it turns over its length, in degrees "
                                                        "(positive: to the right; a bend)")
    props: Props = Field(default_factory=dict, description="properties of its spaces (`climb: 2`)")
    line: SegmentLine | None = Field(None, description="a line across the road before its first space")


STEP = 40.0      # a space's length on the picture
SPOT = 16.0      # a spot's width across the road


def spaces_of(segments: list[Segment]) -> int:
    return sum(s.length for s in segments)


def props_of(segments: list[Segment]) -> list[dict[str, Any]]:
    """`space_props` items: each segment with properties, as a stretch of its spaces."""
    out, at = [], 0
    for s in segments:
        if s.props:
            out.append({"at": at, "to": at + s.length - 1, "props": dict(s.props)})
        at += s.length
    return out


def lines_of(segments: list[Segment]) -> list[dict[str, Any]]:
    """`lines` items: each segment's line, before its first space."""
    out, at = [], 0
    for s in segments:
        if s.line is not None:
            out.append({"at": at, **s.line.model_dump(exclude_none=True)})
        at += s.length
    return out


def walk(segments: list[Segment]) -> tuple[list[tuple[float, float, float]], tuple[float, float], float]:
    """The middle of each space as the road is walked from the start (x, y, heading in degrees,
    y down), the point past the last space, and how far the road turned in all."""
    x = y = 0.0
    heading = 0.0
    out = []
    for seg in segments:
        step = seg.turn / seg.length
        for _ in range(seg.length):
            heading += step / 2    # a space faces the middle of its share of the turn
            rad = math.radians(heading)
            out.append((x + math.cos(rad) * STEP / 2, y + math.sin(rad) * STEP / 2, heading))
            x, y = x + math.cos(rad) * STEP, y + math.sin(rad) * STEP
            heading += step / 2
    return out, (x, y), sum(s.turn for s in segments)


def problem(segments: list[Segment], loop: bool) -> str | None:
    """What keeps the description from being drawn: a loop that does not come back to its start
    (or does not turn once round), a road that crosses itself."""
    mids, end, turned = walk(segments)
    if loop:
        gap = math.hypot(*end) / STEP
        if abs(abs(turned) - 360) > 1:
            return f"a loop turns once round (360 degrees in all); these segments turn {turned:g}"
        if gap > 0.5:
            return (f"the loop does not close: past its last space it is {gap:.1f} spaces from its start "
                    "(make the straights on opposite sides as long)")
    hit = crossing([m[:2] for m in mids], STEP * 0.8, 3, loop)
    if hit is not None:
        return f"the road crosses itself: spaces {hit[0]} and {hit[1]} lie on each other"
    return None


def crossing(points: list[tuple[float, float]], near: float, apart: int,
             loop: bool) -> tuple[int, int] | None:
    """Two points of a road walked in order that lie nearer than `near` though at least `apart`
    steps apart along it (round the start too, on a loop): where it crosses itself. Points are
    put in squares of side `near`, so each is compared only with those of the squares about it."""
    squares: dict[tuple[int, int], list[int]] = {}
    for i, (x, y) in enumerate(points):
        squares.setdefault((int(x // near), int(y // near)), []).append(i)
    n = len(points)
    for (sx, sy), here in squares.items():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for a in here:
                    for b in squares.get((sx + dx, sy + dy), ()):
                        if b - a < apart or (loop and a + n - b < apart):
                            continue
                        if math.dist(points[a], points[b]) < near:
                            return a, b
    return None


def spots_picture(segments: list[Segment], spots: int) -> dict[str, Any]:
    """A lane track's `picture` from its segments: each spot beside the middle of its space,
    spot 1 on the left of the road (the inside of a right turn is spot `spots`)."""
    mids, _end, _t = walk(segments)
    rows = []
    for space, (x, y, heading) in enumerate(mids):
        rad = math.radians(heading)
        nx, ny = -math.sin(rad), math.cos(rad)    # to the right of the direction of travel
        for k in range(1, spots + 1):
            off = (k - (spots + 1) / 2) * SPOT
            rows.append([space, k, x + nx * off, y + ny * off, heading])
    xs = [r[2] for r in rows]
    ys = [r[3] for r in rows]
    pad = STEP
    for r in rows:
        r[2] = round(r[2] - min(xs) + pad, 2)
        r[3] = round(r[3] - min(ys) + pad, 2)
    size = [round(max(xs) - min(xs) + 2 * pad, 2), round(max(ys) - min(ys) + 2 * pad, 2)]
    return {"source": "drawn from the track's segments", "size": size, "spots": rows}
