"""Heat's turn state is each car's: the variant `team` (two cars per player, authored) is content, a
few patches of rulesets/heat/variants/team.yaml. Full seeded games to their end with random and
greedy bots; what a player is asked and shown; a season; the files written when the state was each
seat's still read (the game's `renamed:`), with a warning that shows the new form.

The rules of a team turn are pinned by scenarios (rulesets/heat/scenarios/team-*.yaml)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.agents.base import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.authoring.scenario import run_scenario
from interpreter.check import check
from interpreter.engine.game import Game
from interpreter.lab.series import Series
from interpreter.base.diagnostics import Report
from interpreter.load.ruleset import load_ruleset
from interpreter.session.load import load, load_from
from interpreter.session.playing import play
from interpreter.table.terminal.view import render_view

ROOT = Path(__file__).resolve().parents[1]


def places(game: Game) -> dict[str, int]:
    plan = game.plan
    return dict(zip(plan.piece_names, game.st.values("place")))


def owners(game: Game) -> dict[str, int | None]:
    return dict(zip(game.plan.piece_names, game.st.values("owner")))


@pytest.mark.parametrize("players, bots, modules", [
    (2, RandomAgent, ()), (3, RandomAgent, ()), (2, GreedyAgent, ()), (3, GreedyAgent, ()),
    (2, RandomAgent, ("garage", "legends", "weather")), (2, GreedyAgent, ("garage", "weather"))])
def test_a_team_game_plays_to_its_end(players, bots, modules):
    plan = load("heat", variants=["team"], modules=modules).plan(players)
    for seed in (1, 2, 3):
        game = Game(plan, seed)
        result = play(game, [bots(f"{seed}/{s}") for s in range(players)])
        assert result["ended"], (players, seed)
        cars, who = places(game), owners(game)
        driven = {s: sorted(c for c, o in who.items() if o == s) for s in range(players)}
        assert all(len(mine) == 2 for mine in driven.values()), driven   # two cars each
        raced = [c for c in cars if cars[c] > 0]
        assert sorted(cars[c] for c in raced) == list(range(1, len(raced) + 1))   # every car placed once
        # each seat ranks by its better car; the winner's car won the race (or a legend did)
        assert result["scores"] == [min(cars[c] for c in driven[s]) for s in range(players)]
        first = next(c for c in raced if cars[c] == 1)
        assert who[first] is None or result["winners"] == [who[first]]


def test_each_question_says_which_car_it_is_about_in_a_team_game_only():
    base = Game(load("heat").plan(2), 1)
    assert base.decision().prompt == "Step 1: you are in gear 1; shift"
    team = Game(load("heat", variants=["team"]).plan(2), 1)
    asked = []
    while len(asked) < 6:
        d = team.decision()
        asked.append((d.seat, d.prompt))
        team.choose(0)
    # seat 1 commits for black, then green; seat 2 for blue, then red
    assert [(s, p.split(":")[0]) for s, p in asked[:1]] == [(0, "black")]
    assert any(p.startswith("green: Step 1: you are in gear 1; shift") for s, p in asked if s == 0)
    assert any(p.startswith("blue: Step 1: ") for s, p in asked if s == 1)
    assert all(p.split(": ", 1)[1].startswith("Step ") for _s, p in asked)


def test_a_player_sees_each_of_their_cars_hands_by_the_car():
    plan = load("heat", variants=["team"]).plan(2)
    text = render_view(Game(plan, 1).view(0), plan)
    assert "your hand of black: " in text and "your hand of green: " in text
    assert "hand of blue" not in text and "your hand: " not in text
    base = load("heat").plan(2)
    text = render_view(Game(base, 1).view(0), base)
    assert "your hand: " in text and "hand of black" not in text


def test_a_team_season_scores_both_cars_of_a_seat():
    series = Series.start("heat", "1961", 1, ["random", "random"], variants=["team"])
    entry = series.play_next(lambda seed: [RandomAgent(f"{seed}/{s}") for s in range(2)])
    game = entry["game"]
    table = [9, 6, 4, 3, 2, 1]
    cars, who = places(game), owners(game)
    eliminated = dict(zip(game.plan.piece_names, game.st.values("eliminated")))
    points = [sum(table[cars[c] - 1] for c in cars if who[c] == s and cars[c] > 0 and not eliminated[c])
              for s in range(2)]
    assert entry["carried"]["seat"]["points"] == points
    # what both cars kept (their upgrades) goes into the seat's garage, and back to its cars next race
    assert all(len(kept) >= 2 for kept in entry["carried"]["piles"]["garage"])
    while not series.done:
        series.play_next(lambda seed: [RandomAgent(f"{seed}/{s}") for s in range(2)])
    assert len(series.played) == 3 and series.champions()


# ---- files written when the turn's state was each seat's -----------------------------------------

OLD_SCENARIO = """\
scenario: {name: written when a seat had the gear and the cards, source: test}
ruleset: RULESET
players: 2
seed: 1
situation: |
  put_at(piece("black"), track, 20, 1)
  put_at(piece("blue"), track, 15, 1)
  seat(1).gear = 2
  set_pile(hand(seat(1)), ["speed_4", "speed_3", "heat"])
  set_pile(hand(seat(2)), ["speed_1"])
script:
  - choose: "stay in gear 2"
  - expect: 'heat_in_hand(seat(1)) == 1 and size(engine(seat(1))) == 6'
  - choose: "stay in gear 1"
  - expect: 'seat(1).speed == 7 and corner_limit(seat(1), 12) == 7'
"""


def test_a_scenario_written_for_the_seats_state_still_runs_with_warnings(tmp_path):
    path = tmp_path / "old.yaml"
    path.write_text(OLD_SCENARIO.replace("RULESET", str(ROOT / "rulesets" / "heat")), encoding="utf-8")
    out = run_scenario(path)
    assert out.passed, out.report.render()
    said = {d.message for d in out.report.items if d.code == "W107"}
    assert "`seat(1).gear`: since language 3 it is written `car_of(seat(1)).gear`" in said
    assert "`hand(seat(1))`: since language 3 it is written `hand(car_of(seat(1)))`" in said
    assert "`heat_in_hand(seat(1))`: since language 3 it is written `heat_in_hand(car_of(seat(1)))`" in said
    assert ("`corner_limit(seat(1), 12)`: since language 3 it is written `corner_limit(car_of(seat(1)), 12)`"
            in said)
    assert all(d.severity == "warning" for d in out.report.items)


def test_a_variant_of_language_2_written_for_the_seats_state_still_loads_with_warnings(tmp_path):
    project = tmp_path / "project"
    for part in ("rulesets/heat", "cards/heat", "tracks/heat"):
        shutil.copytree(ROOT / part, project / part)
    (project / "rulesets" / "heat" / "variants" / "old.yaml").write_text(
        "language: 2\nvariant: {id: old, name: Old, description: a house rule of last month}\npatches:\n"
        "  - extend: steps.replenish\n    after: |\n"
        "      if car.owner.gear == 4 and size(engine(car.owner)) > 0:\n"
        "          move top(engine(car.owner)) to discard(car.owner) face up\n", encoding="utf-8")
    report = Report()
    rs = load_ruleset(project / "rulesets" / "heat", variants=["old"], report=report)
    assert rs is not None and check(rs, report) is not None, report.render()
    old = [d for d in report.items if d.code == "W107"]
    assert len(old) == 4 and all("since language 3" in d.message for d in old), report.render()
    plan = load_from(project / "rulesets" / "heat", variants=["old"]).plan(2)
    assert play(Game(plan, 1), [RandomAgent("a"), RandomAgent("b")])["ended"]
