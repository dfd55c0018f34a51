"""An open road: a lane track from a start to a finish, not a loop (a cycling stage): moves end at
its last space, its lines lie once, its picture is a road in rows with a start and a finish, and
the spaces with the board's `shade` property (a climb) are tinted with their value."""
from __future__ import annotations

from pathlib import Path

import pytest

from authored import compiled, refused
from interpreter.engine.game import Game

# authored for this test: a stage of 30 spaces, the finish before space 26, a climb at 10-14
GAME = """\
language: 2
game: {id: stage, name: Stage, players: {min: 1, max: 2}}
pieces:
  riders: {count: 2}
boards:
  road:
    kind: lanes
    open: true
    spaces: 30
    spots: 2
    finish: 26
    shade: climb
    grid: [[0, 1], [0, 2]]
    lines:
      - {at: 10, kind: col, name: "Col du Test", limit: 3}
    space_props:
      - {at: 10, to: 14, props: {climb: 2}}
state:
  seen: {type: "list[int]"}
  ahead: {type: "list[int]"}
  none_ahead: {type: bool}
setup: |
  for r in riders:
      line_up(r, road)
  seen = [finish_at(road), size(lines_between(road, 0, 100, "col")), space_prop(road, 12, "climb", 0),
          size(next_lines(road, 11, "col", 3))]
  ahead = [space_steps_to(road, 3, "climb"), space_steps_to(road, 12, "climb")]
  none_ahead = space_steps_to(road, 15, "climb") == none
phases:
  - id: race
    order: "riders"
    turn: r
    steps:
      - id: ride
        do: |
          advance(r, 9 + space_prop(road, progress(r), "climb", 0))
    until: "all([progress(r) >= 29 for r in riders])"
result:
  rank: "0 - sum([progress(r) for r in seat.pieces])"
"""


def plan(tmp_path: Path, text: str = GAME):
    return compiled(tmp_path, "stage", text)


def test_a_road_is_raced_once_and_a_move_ends_at_its_last_space(tmp_path):
    g = Game(plan(tmp_path), 1, trace=True)
    assert g.over
    assert g.st.g["seen"] == [26, 1, 2, 0]   # the col lies once: none after space 11
    # the climb is 7 spaces ahead of space 3, under space 12, and behind space 15 (no lap after)
    assert g.st.g["ahead"] == [7, 0] and g.st.g["none_ahead"] is True
    k = g.plan.board_kinds[0]
    # 0 -> 9 -> 18 -> 27 -> 29 (the road ends there): never past the last space, where both fit
    assert sorted(g.st.bd[0][0]) == [29, 29] and sorted(g.st.bd[0][1]) == [1, 2]
    assert k._where(12, 1) == "space 12 spot 1" and k._where(27, 1) == "past the finish"


def test_a_roads_picture_has_a_start_a_finish_and_its_climb(tmp_path):
    from interpreter.picture.svg import table_picture

    p = plan(tmp_path)
    g = Game(p, 1)
    svg = table_picture(g.view(None), p, "Stage", "", None)
    assert ">start<" in svg and ">finish<" in svg and "start/finish" not in svg
    assert ">climb 2<" in svg and "#f3d6a4" in svg
    assert "an open road of 30 spaces, 2 spots, the finish before space 26" in svg


@pytest.mark.parametrize("change, said, words", [
    ("    finish: 26\n", "    finish: 26\n    laps: 2\n", "an open road is raced once: `laps` is 1"),
    ("    open: true\n", "", "`finish` is an open road's"),
    ("{at: 10, to: 14, props: {climb: 2}}", "{at: 14, to: 10, props: {climb: 2}}",
     "an open road's stretch goes forward"),
])
def test_a_road_refuses_what_only_a_loop_has(tmp_path, change, said, words):
    assert change in GAME
    text = refused(tmp_path, "stage", GAME.replace(change, said))
    assert words in text, text


LOOP = """\
language: 2
game: {id: oval, name: Oval, players: {min: 1, max: 2}}
pieces:
  cars: {count: 2}
boards:
  track:
    kind: lanes
    spots: 2
    laps: 2
    grid: [[0, 1], [0, 2]]
    segments:
      - {length: 10}
      - {length: 5, turn: 180, line: {kind: corner, limit: 4, name: "1"}, props: {narrow: true}}
      - {length: 10}
      - {length: 5, turn: 180, line: {kind: corner, limit: 5, name: "2"}}
state:
  ahead: {type: "list[int]"}
setup: |
  for c in cars:
      line_up(c, track)
  ahead = [space_steps_to(track, 20, "narrow"), space_steps_to(track, 35, "narrow"),
           space_steps_to(track, -2, "narrow")]
phases:
  - id: race
    order: "cars"
    turn: c
    steps:
      - id: go
        do: |
          advance(c, 7)
    until: "all([progress(c) >= finish_at(track) for c in cars])"
result:
  rank: "0"
"""


def test_a_track_written_as_segments_is_its_spaces_lines_properties_and_picture(tmp_path):
    from interpreter.picture.svg import table_picture

    p = plan(tmp_path, LOOP)
    k = p.board_kinds[0]
    assert k.L == 30 and k.finish == 60
    assert [(ln.at, ln.kind, ln.limit, ln.name) for ln in k.decl.lines] == [(10, "corner", 4, "1"),
                                                                            (25, "corner", 5, "2")]
    assert [s for s in range(30) if k.props[s]] == [10, 11, 12, 13, 14]
    assert k.decl.picture is not None and len(k.decl.picture.spots) == 60
    g = Game(p, 1)
    assert g.over and all(d >= 60 for d in g.st.bd[0][0])
    # the narrow spaces are 10-14: round the loop from 20, from 35 (lap 2's space 5), from the grid
    assert g.st.g["ahead"] == [20, 5, 12]
    svg = table_picture(g.view(None), p, "Oval", "", None)
    assert "corner 1 (4)" in svg and "corner 2 (5)" in svg


@pytest.mark.parametrize("change, said", [
    ("{length: 10}\n      - {length: 5, turn: 180, line",
     "{length: 12}\n      - {length: 5, turn: 180, line"),
    ("      - {length: 5, turn: 180, line: {kind: corner, limit: 5, name: \"2\"}}\n",
     "      - {length: 5, turn: 90, line: {kind: corner, limit: 5, name: \"2\"}}\n"),
    ("    segments:\n", "    segments:\n" + "      - {length: 1000}\n" * 3),
])
def test_a_loop_that_does_not_close_is_said(tmp_path, change, said):
    text = refused(tmp_path, "stage", LOOP.replace(change, said, 1))
    assert any(w in text for w in ("the loop does not close", "a loop turns once round",
                                   "a track has at most 1000")), text


def test_a_road_speaks_of_its_spaces_and_spots_in_the_games_words(tmp_path):
    """`words: {space: cell, spot: [lane, lanes]}`: the screen and what is said of a piece's place
    use the game's words (the engine said "space" and "spot" whatever the game called them)."""
    from interpreter.table.terminal.view import render_view

    text = GAME.replace("    spots: 2\n", "    spots: 2\n    words: {space: cell, spot: [lane, lanes]}\n")
    p = plan(tmp_path, text)
    k = p.board_kinds[0]
    assert k._where(12, 1) == "cell 12 lane 1" and k._where(27, 1) == "past the finish"
    shown = render_view(Game(p, 1).view(None), p)
    assert "a road of 30 cells, the finish before cell 26" in shown and " space" not in shown
    plain = plan(tmp_path / "plain")
    assert "a road of 30 spaces" in render_view(Game(plain, 1).view(None), plain)


def test_the_rules_read_how_many_spots_a_space_has(tmp_path):
    """`spot_count(road)`: a rule that fills a space to its last spot need not write the number."""
    text = GAME.replace("          size(next_lines(road, 11, \"col\", 3))]",
                        "          size(next_lines(road, 11, \"col\", 3)), spot_count(road)]")
    g = Game(plan(tmp_path, text), 1)
    assert g.st.g["seen"] == [26, 1, 2, 0, 2]
