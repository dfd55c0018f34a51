"""An option made for a place of a board (`option ... at BOARD, PLACE`): checked (a board, and a
place a board names: a number or a cell's id), read back as written, and told with each option
as the board's name and the place as the board's picture marks it (a ring there at the web table).
The game is authored for these tests: a loop of six spaces."""
from __future__ import annotations

import re

from authored import compiled, refused
from interpreter.engine.game import Game
from interpreter.lang import unparse
from interpreter.load.ruleset import load_ruleset
from interpreter.picture.svg import table_picture

GAME = """\
language: 2
game: {id: ring, name: Ring, players: {min: 1, max: 2}}
pieces:
  frogs: {count: 1}
boards:
  ring: {kind: stacks, loop: true, spaces: 6}
phases:
  - id: main
    order: "[seat(1)]"
    turn: s
    steps:
      - id: hop
        do: |
          choose "Where to?" by s:
              option "to {d}" for d in [2, 7, 20] at ring, d:
                  pass
              option "stay":
                  pass
    rounds: 1
result:
  rank: "0"
"""


def test_each_option_says_its_board_and_place_as_the_picture_marks_it(tmp_path):
    plan = compiled(tmp_path, "ring", GAME)
    game = Game(plan, 1)
    d = game.decision()
    assert d is not None and d.labels() == ["to 2", "to 7", "to 20", "stay"]
    # on a loop, a progress names the space of its lap: 7 is space 1, 20 is space 2
    assert d.places() == [("ring", "2"), ("ring", "1"), ("ring", "2"), None]
    svg = table_picture(game.view(0), plan, "Ring")
    assert sorted(set(re.findall(r'data-place="(ring:\d+)"', svg))) == [f"ring:{s}" for s in range(6)]


def test_an_option_at_reads_back_as_written(tmp_path):
    compiled(tmp_path, "ring", GAME)
    rs = load_ruleset(tmp_path / "rulesets" / "ring")
    text = unparse.block(rs.rules.tree("steps.hop").body)
    assert 'option "to {d}" for d in [2, 7, 20] at ring, d:' in text


def test_an_at_that_names_no_board_or_no_place_is_refused_at_its_line(tmp_path):
    said = refused(tmp_path, "ring", GAME.replace("at ring, d:", "at d, ring:"))
    assert "the board of an option's `at` must be board" in said, said
    assert "the place of an option's `at` is a number (or a cell's name), not board" in said, said
    line = GAME.splitlines().index('              option "to {d}" for d in [2, 7, 20] at ring, d:') + 1
    assert f"game.yaml:{line}:" in said, said
