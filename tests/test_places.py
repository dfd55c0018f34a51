"""Places as values: a cell board's built-ins read a cell given by its id (an option's candidate),
and count the fewest forward steps to a cell or to the nearest cell with a tag."""
from __future__ import annotations

from pathlib import Path

import pytest

from authored import compiled
from interpreter.engine.game import Game
from interpreter.base.errors import RuleError

# two lanes of six cells (authored for this test); the fourth pair is a curve
GAME = """\
language: 2
game: {id: road, name: Road, players: {min: 1, max: 2}}
pieces:
  cars: {count: 2}
boards:
  road:
    kind: cells
    finish: 60
    cells:
      - {id: a1, front: 10, lane: 1, touch: [a2, b2]}
      - {id: b1, front: 10, lane: 2, touch: [b2, a2]}
      - {id: a2, front: 20, lane: 1, touch: [a3, b3]}
      - {id: b2, front: 20, lane: 2, touch: [b3, a3]}
      - {id: a3, front: 30, lane: 1, touch: [a4, b4]}
      - {id: b3, front: 30, lane: 2, touch: [b4, a4]}
      - {id: a4, front: 40, lane: 1, tags: [curve], touch: [a5, b5]}
      - {id: b4, front: 40, lane: 2, tags: [curve], touch: [b5, a5]}
      - {id: a5, front: 50, lane: 1, touch: [a6, b6]}
      - {id: b5, front: 50, lane: 2, touch: [b6, a6]}
      - {id: a6, front: 60, lane: 1}
      - {id: b6, front: 60, lane: 2}
state:
  seen: {type: "list[int]"}
  said: {type: "list[bool]"}
  next: {type: "list[text]"}
setup: |
  cell_place(road, cars[1], "a1")
  cell_place(road, cars[2], "b3")
phases:
  - id: main
    order: "[seat(1)]"
    turn: s
    steps:
      - id: look
        do: |
          seen = [cell_lane_at(road, "b2"), cell_front_at(road, "a5"), cell_steps(road, "a1", "b6"),
                  cell_steps_to_tag(road, "a1", "curve"), cell_steps_to_tag(road, "a4", "curve")]
          said = [cell_tagged_at(road, "b4", "curve"), cell_tagged_at(road, "b5", "curve"),
                  cell_steps(road, "a3", "a1") == none, cell_steps_to_tag(road, "a5", "curve") == none]
          next = cell_next_at(road, "a2")
    rounds: 1
result:
  rank: "0"
"""


def plan(tmp_path: Path, text: str = GAME):
    return compiled(tmp_path, "road", text)


def test_a_cell_is_read_by_its_id_and_steps_are_counted_on_the_forward_graph(tmp_path):
    g = Game(plan(tmp_path), 1)
    assert g.over
    assert g.st.g["seen"] == [2, 50, 5, 3, 0]
    assert g.st.g["said"] == [True, False, True, True]
    assert g.st.g["next"] == ["a3"]   # b3 is taken by the second car


def test_a_cell_the_board_has_not_is_a_rule_error(tmp_path):
    text = GAME.replace('cell_lane_at(road, "b2")', 'cell_lane_at(road, "z9")')
    with pytest.raises(RuleError, match="`cell_lane_at`: board `road` has no cell `z9`"):
        Game(plan(tmp_path, text), 1)


def test_a_board_picked_while_playing_is_read_as_one_named(tmp_path):
    """A board given by a rule's value (`if ... then road else none`: a game that races one of
    its tracks by turns) is found by its number where the rule is played; none is a rule error
    said in a player's words."""
    picked = GAME.replace('cell_front_at(road, "a5")',
                          'cell_front_at(if size(seen) == 0 then road else none, "a5")')
    g = Game(plan(tmp_path, picked), 1)
    assert g.st.g["seen"] == [2, 50, 5, 3, 0]
    nothing = GAME.replace('cell_front_at(road, "a5")',
                           'cell_front_at(if size(seen) > 0 then road else none, "a5")')
    with pytest.raises(RuleError, match="`cell_front_at`: the board is none, not a cell board") as e:
        Game(plan(tmp_path / "none", nothing), 1)
    assert "None" not in str(e.value)
