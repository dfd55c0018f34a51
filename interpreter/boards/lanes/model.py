"""The lane track's declaration: what a game's `boards:` entry (or a track file) says of a lane
track, as pydantic models, checked when the file is read (every line, grid place, property and
picture spot on the track).

It reads the declaration's data; it gives `LanesModel`, the kind's `Model`. A track written as
`segments` is expanded here, once, into the spaces, properties, lines and picture they describe
(`boards/segments.py`), so nothing after reading the file knows segments.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from ..base import Props
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


_WORD = r"^[^\x00-\x1f\x7f]{1,40}$"
Word = Annotated[str, StringConstraints(pattern=_WORD)]


class LaneWords(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="LaneWords")
    space: Word | Annotated[list[Word], Field(min_length=2, max_length=2)] = Field(
        "space", description="what players call a space (`cell`), or the words for one and for more "
                             "(`[cell, cells]`; one word takes an s for more)")
    spot: Word | Annotated[list[Word], Field(min_length=2, max_length=2)] = Field(
        "spot", description="what players call a spot of a space (`lane`), as `space`")

    def said(self, which: str) -> tuple[str, str]:
        """(the word for one, for more)."""
        given = getattr(self, which)
        return (given[0], given[1]) if isinstance(given, list) else (given, given + "s")


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
    words: LaneWords = Field(
        default_factory=LaneWords, description="what players call its spaces and spots (`{space: cell, spot: "
                                               "lane}`): the screen and what is said of a piece's place")

    @model_validator(mode="after")
    def _fits(self) -> LanesModel:
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
        # (`grid.N: ...`: said at that place of the grid, not at the board)
        seen: set[tuple] = set()
        for i, place in enumerate(self.grid):
            if len(place) != 2:
                raise ValueError(f"grid.{i}: a grid place is [space, spot], not {place}")
            space, spot = place
            if not (0 <= space < self.spaces and 1 <= spot <= self.spots):
                raise ValueError(f"grid.{i}: grid place [{space}, {spot}] is not a spot of the track")
            if (space, spot) in seen:
                raise ValueError(f"grid.{i}: the grid names the spot [{space}, {spot}] twice")
            seen.add((space, spot))
        if self.picture is not None:
            self._picture_fits(self.picture)
        return self

    def _expanded(self) -> LanesModel:
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
