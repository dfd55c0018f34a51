"""Dice: declared with their faces (a die, or a family of dice by a number or a name), rolled
from the game's seeded generator, arranged by a scenario, said in a replay; every misuse one
diagnostic at its place."""
from __future__ import annotations

import collections
from pathlib import Path

import pytest

from authored import compiled, write_game
from interpreter.agents.base import RandomAgent
from interpreter.authoring.scenario import run_scenario
from interpreter.compile import compile_ruleset
from interpreter.engine.game import Game
from interpreter.base.diagnostics import Report
from interpreter.base.errors import RuleError
from interpreter.load.ruleset import load_ruleset
from interpreter.session.playing import play

GAME = """\
language: 2
game: {id: dice, name: Dice race, players: {min: 2, max: 4}}
dice:
  d6: [1, 2, 3, 4, 5, 6]
  gear:
    1: [1, 1, 2, 2]
    2: [2, 3, 3, 4]
    3: [4, 5, 6, 6, 7, 7, 8, 8]
  sky:
    calm: [0]
    gale: [2, 3]
state:
  distance: {of: seat}
  gear: {of: seat, initial: 1}
  rolled: {type: "list[int]"}
phases:
  - id: race
    order: "seats"
    turn: s
    steps:
      - id: shift
        do: |
          choose "gear":
              option "gear {g}" for g in [s.gear - 1, s.gear, s.gear + 1] if g >= 1 and g <= 3:
                  s.gear = g
      - id: move
        do: |
          let r = roll(gear(s.gear)) + roll(sky("gale"))
          rolled = rolled + [r]
          s.distance += r
          say "{s} rolls {r} with {gear(s.gear)} (faces {faces(gear(s.gear))})"
    until: "any([s.distance >= 30 for s in seats])"
result:
  rank: "seat.distance"
"""


def folder(tmp_path: Path, text: str = GAME) -> Path:
    return write_game(tmp_path, "dice", text)


def plan(tmp_path: Path, text: str = GAME, players: int = 2):
    return compiled(tmp_path, "dice", text, players)


def test_a_die_shows_its_faces_as_often_as_they_stand_on_it(tmp_path):
    p = plan(tmp_path, GAME.replace("roll(gear(s.gear)) + roll(sky(\"gale\"))", "roll(gear(3))"))
    seen: collections.Counter = collections.Counter()
    for seed in range(40):
        g = Game(p, seed)
        play(g, [RandomAgent(f"{seed}/{s}") for s in range(2)])
        seen.update(g.st.g["rolled"])
    assert set(seen) == {4, 5, 6, 7, 8}
    total = sum(seen.values())
    # 6, 7, 8 stand on two faces of eight, 4 and 5 on one: about a quarter and an eighth
    for face, share in ((4, 1 / 8), (5, 1 / 8), (6, 1 / 4), (7, 1 / 4), (8, 1 / 4)):
        assert abs(seen[face] / total - share) < 0.06, (face, seen)


def test_rolls_come_from_the_seed_and_a_replay_says_them(tmp_path):
    p = plan(tmp_path)

    def game(seed):
        g = Game(p, seed, trace=True)
        play(g, [RandomAgent(f"{seed}/{s}") for s in range(2)])
        return g
    a, b, c = game(3), game(3), game(4)
    assert a.st.g["rolled"] == b.st.g["rolled"] != c.st.g["rolled"]
    rolls = [e for e in a.st.trace if e[0] == "roll"]
    assert rolls[0][1].startswith("gear(") and rolls[1][1] == 'sky("gale")'
    from interpreter.table.replay import describe
    assert describe(rolls[0]).startswith("  chance: roll of gear(")


def test_a_family_is_read_by_its_key_and_a_key_it_has_not_is_a_rule_error(tmp_path):
    p = plan(tmp_path, GAME.replace("roll(gear(s.gear))", "roll(gear(s.gear + 3))"))
    with pytest.raises(RuleError, match=r"there is no die `gear\([456]\)`: the family's dice are 1, 2, 3"):
        play(Game(p, 1), [RandomAgent("a"), RandomAgent("b")])


@pytest.mark.parametrize("rule, code, said", [
    ("roll(gear)", "E121", "`gear` is a family of dice: say which, as `gear(...)`"),
    ("roll(d6(2))", "E122", "`d6` is a single die: write `d6` without parentheses"),
    ("roll(gear(\"high\"))", "E120", "the dice of `gear` are named by numbers, not by text"),
    ("roll(sky(1))", "E120", "the dice of `sky` are named by names, not by int"),
    ("roll(3)", "E120", "the die `roll` rolls must be die, not int"),
])
def test_a_die_misused_is_one_diagnostic_at_its_place(tmp_path, rule, code, said):
    text = GAME.replace("let r = roll(gear(s.gear)) + roll(sky(\"gale\"))", f"let r = {rule}")
    report = Report()
    rs = load_ruleset(folder(tmp_path, text), report=report)
    assert rs is not None and compile_ruleset(rs, 2, report) is None
    found = [d for d in report.items if d.severity == "error"]
    assert len(found) == 1 and found[0].code == code and said in found[0].message, report.render()
    assert found[0].loc.line == 28


def test_a_die_written_as_a_family_of_one_is_told_how_a_die_is_written(tmp_path):
    """`d6: {faces: [...]}` is a family of one die named `faces`: rolling `d6` is E121, whose hint
    says how a single die is written (it said only to name one of the family)."""
    text = GAME.replace("  d6: [1, 2, 3, 4, 5, 6]", "  d6: {faces: [1, 2, 3, 4, 5, 6]}").replace(
        "let r = roll(gear(s.gear)) + roll(sky(\"gale\"))", "let r = roll(d6)")
    report = Report()
    rs = load_ruleset(folder(tmp_path, text), report=report)
    assert rs is not None and compile_ruleset(rs, 2, report) is None
    found = [d for d in report.items if d.severity == "error"]
    assert [d.code for d in found] == ["E121"], report.render()
    assert "the family has one die, `faces`" in found[0].hint and "`d6: [1, 2, 3, 4, 5, 6]`" in found[0].hint


def test_a_die_cannot_be_rolled_in_a_line_said_aloud(tmp_path):
    text = GAME.replace("(faces {faces(gear(s.gear))})", "(again {roll(d6)})")
    report = Report()
    rs = load_ruleset(folder(tmp_path, text), report=report)
    assert rs is not None and compile_ruleset(rs, 2, report) is None
    assert any(d.code == "E147" for d in report.items), report.render()


def test_dice_of_one_family_are_named_by_numbers_or_by_names(tmp_path):
    text = GAME.replace("    calm: [0]", "    7: [0]")
    report = Report()
    assert load_ruleset(folder(tmp_path, text), report=report) is None or \
        compile_ruleset(load_ruleset(folder(tmp_path, text), report=Report()), 2, report) is None
    assert any(d.code == "E117" and "by numbers and by names" in d.message for d in report.items)


SCENARIO = """\
scenario: {name: arranged rolls, source: "tests/test_dice.py"}
ruleset: rulesets/dice
players: 2
situation: |
  next_rolls(gear(1), [2, 1])
  next_rolls(sky("gale"), [3, 3])
script:
  - choose: "gear 1"
  - step: move
    expect: 'seat(1).distance == 5'
  - choose: "gear 1"
  - step: move
    expect: 'seat(2).distance == 4'
"""


def test_a_scenario_arranges_the_next_rolls(tmp_path):
    folder(tmp_path)
    path = tmp_path / "arranged.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    out = run_scenario(path)
    assert out.passed, out.report.render()


def test_an_arranged_roll_that_is_not_a_face_of_the_die_is_said_at_its_line(tmp_path):
    folder(tmp_path)
    path = tmp_path / "wrong.yaml"
    path.write_text(SCENARIO.replace("[2, 1]", "[2, 5]"), encoding="utf-8")
    out = run_scenario(path)
    text = out.report.render()
    assert not out.passed
    assert f"{path}:5:3: error[E404]: rule error: 5 is not a face of die `gear(1)` " \
           "(its faces: 1, 1, 2, 2)" in text


def test_sorted_orders_numbers_so_that_dice_read_smallest_first(tmp_path):
    """`sorted(xs)`: a roll of several dice in order (a designer wrote `sorted_by(xs, xs)`)."""
    from conftest import stepping_game

    text = stepping_game("sorting", "Sorting", (1, 1)).replace("state:\n", """\
dice:
  d6: [1, 2, 3, 4, 5, 6]
setup: |
  rolled = [roll(d6) for i in 1..5]
  ordered = sorted(rolled)
state:
  rolled: {type: "list[int]"}
  ordered: {type: "list[int]"}
""")
    plan = compiled(tmp_path, "sorting", text)
    view = Game(plan, 3).view(None)["game"]
    assert view["ordered"] == sorted(view["rolled"]) and view["ordered"] != view["rolled"], view
