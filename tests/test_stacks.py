"""The stack track: runners that land on each other stack up, a runner that moves carries those
on its back, markers stand beside the stacks; its order, its events, its text and its picture."""
from __future__ import annotations

from pathlib import Path

import pytest

from authored import compiled
from interpreter.engine.game import Game
from interpreter.base.errors import RuleError

# authored for this test: five runners and an oasis marker on a track of 16 spaces
GAME = """\
language: 2
game: {id: stacked, name: Stacked, players: {min: 1, max: 2}}
pieces:
  runners: {count: 5, names: [red, blue, green, white, black]}
  tiles: {count: 1, names: [oasis], marker: true}
boards:
  track:
    kind: stacks
    spaces: 16
    finish: 14
    shade: sand
    space_props:
      - {at: 6, to: 8, props: {sand: 1}}
state:
  passed: {type: "list[text]"}
  log: {type: "list[text]"}
setup: |
  stack_put(track, piece("red"), 0)
  stack_put(track, piece("blue"), 0)
  stack_put(track, piece("green"), 0)
  stack_put(track, piece("white"), 2)
  stack_put(track, piece("oasis"), 3)
SCRIPT
phases:
  - id: race
    order: "[seat(1)]"
    turn: s
    steps:
      - id: look
        do: |
          log = ["x"]
    rounds: 1
triggers:
  - id: passing
    on: piece_passed
    params: {p: piece, q: piece}
    do: |
      passed = passed + ["{p.name}>{q.name}"]
result:
  rank: "0"
"""


def game(tmp_path: Path, script: str = "", players: int = 1, text: str = GAME) -> Game:
    setup = "".join(f"  {line}\n" for line in script.splitlines())
    return Game(compiled(tmp_path, "stacked", text.replace("SCRIPT", setup), players), 1, trace=True)


def stacks(g: Game) -> dict[int, list[str]]:
    names = g.plan.piece_names
    k = g.plan.board_kinds[0]
    data = g.st.bd[0]
    return {d: [names[pc] for pc in k.stack(data, d)] for d in sorted({x for x in data[0] if x is not None})
            if k.stack(data, d)}


def test_a_runner_carries_those_on_its_back_and_lands_on_top(tmp_path):
    g = game(tmp_path, 'stack_move(track, piece("blue"), 2)')
    # blue carried green; they land on white at 2, in their order; red stays at 0
    assert stacks(g) == {0: ["red"], 2: ["white", "blue", "green"]}
    # each passed white (they were ahead of red already: on its back), in the board's order after
    assert g.st.g["passed"] == ["green>white", "blue>white"]


def test_landing_under_a_stack_and_coming_down_when_a_piece_leaves(tmp_path):
    g = game(tmp_path, 'stack_move_under(track, piece("green"), 2)\nstack_remove(track, piece("red"))')
    assert stacks(g) == {0: ["blue"], 2: ["green", "white"]}


def test_the_order_is_farthest_first_and_the_top_of_a_stack_ahead(tmp_path):
    g = game(tmp_path, 'stack_move(track, piece("white"), -2)')
    k = g.plan.board_kinds[0]
    names = [g.plan.piece_names[pc] for pc in k.order(g.st.bd[0])]
    assert names == ["white", "green", "blue", "red"]   # white on top at 0; the oasis is no runner


def test_markers_stand_beside_the_stacks_and_are_no_runners(tmp_path):
    g = game(tmp_path, 'stack_move(track, piece("white"), 1)')
    k = g.plan.board_kinds[0]
    data = g.st.bd[0]
    assert [g.plan.piece_names[pc] for pc in k.stack(data, 3)] == ["white"]
    assert [g.plan.piece_names[pc] for pc in k.markers(data, 3)] == ["oasis"]
    with pytest.raises(RuleError, match="`oasis` is a marker: put it with `stack_put`"):
        game(tmp_path / "m", 'stack_move(track, piece("oasis"), 1)')


def test_an_open_track_ends_at_its_last_space(tmp_path):
    g = game(tmp_path, 'stack_move(track, piece("red"), 40)')
    assert stacks(g)[15] == ["red", "blue", "green"]


def test_a_stack_track_is_told_and_drawn(tmp_path):
    from interpreter.picture.svg import table_picture

    g = game(tmp_path, 'stack_move(track, piece("blue"), 2)')
    view = g.view(0)
    lines = g.plan.board_kinds[0].text(view["boards"]["track"], view)
    assert lines[0] == "a track of 16 spaces, the finish before 14"
    said = "space  2: green (no player) on blue (no player) on white"
    assert any(line.startswith(said) for line in lines), lines
    assert any("marker oasis" in line for line in lines)
    svg = table_picture(view, g.plan, "Stacked", "", None)
    assert 'data-piece="green"' in svg and 'class="marker"' in svg and ">finish<" in svg and ">sand 1<" in svg


def test_a_stack_track_written_as_segments_is_its_spaces_and_properties(tmp_path):
    # the same 16 spaces as segments: 6 plain, 3 of sand, 7 plain
    text = GAME.replace("    spaces: 16\n", "").replace(
        "    space_props:\n      - {at: 6, to: 8, props: {sand: 1}}\n",
        "    segments:\n      - {length: 6}\n      - {length: 3, props: {sand: 1}}\n      - {length: 7}\n")
    assert text != GAME
    g = game(tmp_path, 'stack_move(track, piece("white"), 5)', text=text)
    k = g.plan.board_kinds[0]
    assert k.decl.spaces == 16
    assert [s for s in range(16) if k.props[s]] == [6, 7, 8]
    assert stacks(g)[7] == ["white"]


def test_on_a_loop_pieces_a_lap_apart_share_a_stack_and_each_keeps_its_lap(tmp_path):
    text = GAME.replace("    finish: 14\n", "    loop: true\n")
    # white goes round to progress 16, the space where red, blue and green stand: on top of them
    g = game(tmp_path, 'stack_move(track, piece("white"), 14)', text=text)
    assert stacks(g)[0] == ["red", "blue", "green", "white"]
    # green carries white on: each moves 2 spaces, white still a lap ahead of green
    g = game(tmp_path / "b", 'stack_move(track, piece("white"), 14)\nstack_move(track, piece("green"), 2)',
             text=text)
    data, names = g.st.bd[0], g.plan.piece_names
    assert (data[0][names.index("green")], data[0][names.index("white")]) == (2, 18)
    assert stacks(g)[2] == ["green", "white"] and stacks(g)[0] == ["red", "blue"]
