"""A cell track written as segments: straights of rows and bends whose lanes have cells of their
own expand into the cells (ids, fronts, lanes, tags, touches, outlines) a designer would write one
by one; River Station is written so and is the board it was; descriptions that cannot be drawn
are said where they are."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from authored import compiled, refused
from interpreter.boards.cells.kind import CellsModel
from interpreter.engine.game import Game

ROOT = Path(__file__).resolve().parents[1]


def board_of(path: Path) -> CellsModel:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return CellsModel.model_validate(next(iter(data["boards"].values())))


def test_river_station_from_segments_is_the_board_it_was_cell_by_cell():
    new = board_of(ROOT / "tracks" / "downforce" / "river-station.yaml")
    old = board_of(ROOT / "tests" / "fixtures" / "river-station-cells.yaml")
    assert (new.lap, new.finish, new.lines, new.ties) == (old.lap, old.finish, old.lines, old.ties)
    assert new.cells is not None and old.cells is not None and len(new.cells) == 161

    def cells(b):
        return [(c.id, c.front, c.lane, c.tags, c.grid, c.points()) for c in b.cells]

    def touches(b):
        return {frozenset((c.id, t)) for c in b.cells for t in c.touch}

    assert cells(new) == cells(old)
    assert touches(new) == touches(old) and len(touches(new)) == 457


# authored for this test: an open road of two lanes, a bend whose lanes have 2 and 3 cells, a
# one-lane bridge, a line at the bridge
ROAD = """\
language: 2
game: {id: road, name: Road, players: {min: 1, max: 2}}
pieces:
  cars: {count: 2}
boards:
  road:
    kind: cells
    lanes: 2
    row: 6
    grid: [a1, b1]
    segments:
      - {rows: 2}
      - {length: 12, cells: [2, 3], turn: 90, tags: [bend], props: {limit: 2}}
      - {rows: 2, lanes: [2], line: bridge}
      - {rows: 2}
state:
  seen: {type: "list[int]"}
  next: {type: "list[text]"}
setup: |
  cell_place(road, cars[1], "a2")
phases:
  - id: main
    order: "[seat(1)]"
    turn: s
    steps:
      - id: look
        do: |
          seen = [cell_front_at(road, "b4"), cell_prop(road, "a3", "limit", 0), cell_steps(road, "a2", "a6"),
                  cell_line(road, "bridge"), cell_line(road, "finish"), cell_steps_to_tag(road, "a1", "bend")]
          next = cell_next_at(road, "b5")
    rounds: 1
result:
  rank: "0"
"""


def test_an_open_road_of_segments_is_read_by_the_rules(tmp_path):
    p = compiled(tmp_path, "road", ROAD)
    k = p.board_kinds[0]
    assert k.ids == ["a1", "b1", "a2", "b2", "a3", "a4", "b3", "b4", "b5", "b6", "b7", "a5", "b8", "a6", "b9"]
    assert k.lap is None and k.lines == {"bridge": 24, "finish": 48}
    g = Game(p, 1)
    assert g.over
    # b4 is the bend's second cell of three in lane 2 (fronts 16, 20, 24); a3 is in the bend;
    # a2 -> a3 -> a4 -> b6 (the bridge has lane 2 only) -> b7 -> a5 -> a6: six steps; the bend
    # is two steps from a1; the road's end is the finish
    assert g.st.g["seen"] == [20, 2, 6, 24, 48, 2]
    # from the bend's last cell of lane 2 the only step is onto the bridge (a4 is as far)
    assert g.st.g["next"] == ["b6"]

    def ahead(cell):
        return sorted(k.ids[j] for j, _d in k.ahead[k.index_of[cell]])

    # on the bridge lane 1 is not beside; where it comes back a step may go to it
    assert ahead("b6") == ["b7"] and ahead("b7") == ["a5", "b8"] and ahead("a4") == ["b6"]


def test_lane_one_is_inside_the_loop_whichever_way_it_turns(tmp_path):
    def loop(turn: int) -> CellsModel:
        return CellsModel.model_validate({
            "kind": "cells", "lanes": 2, "row": 10, "loop": True,
            "segments": [{"rows": 6}, {"length": 40, "cells": [2, 4], "turn": turn}, {"rows": 6},
                         {"length": 40, "cells": [2, 4], "turn": turn}]})

    for turn in (180, -180):
        b = loop(turn)
        assert b.cells is not None and b.lap == 200 and b.finish == 200
        xs = {c.id: c.points() for c in b.cells}
        # the middle of the loop: lane 1's cells of the first straight are nearer to it
        mid_y = sum(y for ps in xs.values() for _x, y in ps) / sum(len(ps) for ps in xs.values())
        a_y = sum(y for _x, y in xs["a1"]) / 4
        b_y = sum(y for _x, y in xs["b1"]) / 4
        assert abs(a_y - mid_y) < abs(b_y - mid_y), turn


@pytest.mark.parametrize("change, said, at, words", [
    ("      - {rows: 2}\nstate", "      - {rows: 2}\n      - {length: 120, cells: 20, turn: 360}\n"
                                "      - {rows: 2}\nstate", "7:5", "the road crosses itself"),
    ("cells: [2, 3]", "cells: [2, 5]", "13:9", "lane 2's 5 cells do not share the length 12 equally"),
    ("cells: [2, 3]", "cells: [2, 3, 4]", "13:9", "`cells` gives 3 numbers for 2 lanes"),
    ("lanes: [2]", "lanes: [3]", "14:9", "lane 3 is not one of the track's 2 lanes"),
    ("grid: [a1, b1]", "grid: [a1, z1]", "7:5", "the grid names `z1`, which is not a cell"),
    ("    row: 6\n", "    row: 6\n    loop: true\n", "7:5", "a loop turns once round"),
    ("length: 12, cells: [2, 3], turn: 90", "length: 12, cells: [2, 3], turn: 200", "13:9",
     "turns 200 degrees over too short a length for 2 lanes"),
    ("    lanes: 2\n", "", "7:5", "says how many `lanes` it has"),
    ("      - {rows: 2}\n      - {length", "      - {rows: 2, cells: 2}\n      - {length", "12:9",
     "a straight of `rows` has one cell per lane"),
    # a description too big to be a board is refused before it is expanded (in no time)
    ("      - {rows: 2}\nstate",
     "      - {rows: 2}\n      - {length: 600000, cells: [600000, 600000]}\nstate",
     "7:5", "a track is at most 5000 rows"),
    ("      - {rows: 2}\nstate", "      - {rows: 2}\n      - {length: 6000, cells: [6000, 6000]}\nstate",
     "7:5", "a track has at most 10000"),
    ("    grid: [a1, b1]\n", "    grid: [a1, b1]\n    cells: [{id: x, front: 1}]\n", "11:12",
     "give no `cells` beside them"),
])
def test_a_description_that_cannot_be_a_track_is_said_where_it_is(tmp_path, change, said, at, words):
    assert change in ROAD
    text = refused(tmp_path, "road", ROAD.replace(change, said, 1))
    assert f"game.yaml:{at}:" in text and words in text, text
