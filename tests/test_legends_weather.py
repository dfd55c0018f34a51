"""Heat's Legends and Weather modules as a whole: races that end with them, alone or together and
with the Garage, at every player count the rulebook allows, on every track; legends ranked among
the seats; the tokens laid at setup, and after the draft in a championship. Each rule is pinned by
a scenario (rulesets/heat/scenarios/legends-*.yaml, weather-*.yaml, run by tests/test_scenarios.py)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from interpreter.agents.base import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.compile import make_compiler
from interpreter.compile import Hooks
from interpreter.engine.game import Game
from interpreter.base.diagnostics import Report
from interpreter.lang.parser import parse_block
from interpreter.load.ruleset import load_ruleset
from interpreter.session.load import load
from interpreter.session.playing import play

ROOT = Path(__file__).resolve().parents[1]
TRACKS = ["usa", "great-britain", "italy", "france"]


@lru_cache(maxsize=None)
def plan_for(modules: tuple, track, players: int, params: tuple = ()):
    return load("heat", modules=list(modules), track=track, params=dict(params) or None).plan(players)


def race(modules, track, players, bots, seed=5, params=None):
    plan = plan_for(tuple(modules), track, players, tuple(sorted((params or {}).items())))
    game = Game(plan, seed)
    kind = GreedyAgent if bots == "greedy" else RandomAgent
    return game, play(game, [kind(f"lw/{s}") for s in range(players)])


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("modules, players, bots", [
    (["legends"], 1, "greedy"),
    (["legends", "weather"], 4, "random"),
    (["weather", "legends", "garage"], 2, "random"),
])
def test_races_with_the_modules_end_on_every_track(track, modules, players, bots):
    game, result = race(modules, track, players, bots)
    assert result["ended"]
    # every car finished, each with its own place: the seats' and the legends'
    places = result["scores"] + [e["score"] for e in result["standings"] if "piece" in e]
    assert sorted(places) == list(range(1, len(places) + 1))
    assert len(places) == players + 2  # two legends by default


def test_the_number_of_legends_is_a_param_and_they_fill_the_cars_after_the_players():
    game, result = race(["legends"], None, 2, "random", params={"legends": 4})
    names = [e["piece"] for e in result["standings"] if "piece" in e]
    assert sorted(names) == ["gray", "green", "red", "yellow"]
    # cars 1 and 2 are the seats'; at most 6 cars in all
    game, result = race(["legends"], None, 3, "random", params={"legends": 9})
    assert sorted(e["piece"] for e in result["standings"] if "piece" in e) == ["gray", "red", "yellow"]


def test_the_standings_put_seats_and_legends_in_finishing_order():
    for seed in range(1, 6):
        game, result = race(["legends"], None, 1, "random", seed=seed)
        scores = [result["scores"][e["seat"]] if "seat" in e else e["score"] for e in result["standings"]]
        assert scores == sorted(scores)
        assert result["winners"] == ([0] if result["scores"][0] == 1 else [])


def test_the_weather_and_one_road_token_per_corner_are_laid_before_the_race():
    plan = load("heat", modules=["weather"]).plan(2)
    game = Game(plan, 3)
    road = game.st.g["road"]
    assert sorted(road) == ["A", "B", "C", "D"]          # USA's four corners
    assert len(set(road.values())) == 4                  # four different tokens (cards)
    assert len(game.st.piles[plan.pile_base["weather"]]) == 1
    view = game.view(None)["game"]
    assert set(view["road"]) == {"A", "B", "C", "D"}
    assert all(isinstance(v, str) and "(" in v for v in view["road"].values())  # names a player reads


def test_the_screen_shows_each_corners_token_and_the_limit_in_force():
    """Ruling W-2: the corners ahead of a car say their token and the limit the race uses (a speed
    limit token changes it), not the printed limit; the weather token is on the table too."""
    from interpreter.table.terminal.view import screen

    plan = plan_for(("weather",), None, 2)
    lines = load("heat").ruleset.game.boards["track"].lines
    printed = {ln.name: ln.limit for ln in lines if ln.kind == "corner"}
    changed = 0
    for seed in range(12):
        game = Game(plan, seed)
        road = {k: plan.card_label(c) for k, c in game.st.g["road"].items()}
        view = game.view(0)
        ahead = [ln for p in view["boards"]["track"]["pieces"] for ln in p["next"]]
        assert ahead
        for ln in ahead:
            step = {"speed limit +1 (corner)": 1, "speed limit -1 (corner)": -1}.get(road[ln["name"]], 0)
            assert ln["facts"] == [f"limit {printed[ln['name']] + step}", road[ln["name"]]]
            changed += step != 0
        text = " ".join(" ".join(screen(view, plan)).split())
        car = next(p for p in view["boards"]["track"]["pieces"] if view["pieces"][p["piece"]]["owner"] == 1)
        for ln in car["next"]:
            assert f"corner {ln['name']} ({', '.join(ln['facts'])}) in {ln['in']}" in text
        assert f"weather: {plan.card_label(game.st.piles[plan.pile_base['weather']][0])}" in text
    assert changed  # some seed lays a speed limit token ahead


def test_view_lines_must_tell_of_a_kind_of_line_a_board_has(tmp_path):
    from interpreter.compile import compile_ruleset

    folder = tmp_path / "rulesets" / "lined"
    folder.mkdir(parents=True)
    game = """\
game: {id: lined, name: Lined, players: {min: 2, max: 2}}
pieces:
  cars: {count: 2}
boards:
  track: {kind: lanes, spaces: 10, lines: [{at: 4, kind: corner, limit: 3, name: A}]}
phases:
  - id: main
    order: "seats"
    turn: s
    steps:
      - id: go
        do: |
          pass
    rounds: 1
result:
  rank: "0"
view:
  lines:
    CORNER:
      limit: "d + 1"
"""
    for kind, codes in (("corner", []), ("cornr", ["E153"])):
        (folder / "game.yaml").write_text(game.replace("CORNER", kind), encoding="utf-8")
        report = Report()
        rs = load_ruleset(folder, report=report)
        assert rs is not None
        plan = compile_ruleset(rs, 2, report)
        assert [d.code for d in report.items] == codes
        if codes:
            assert "`cornr`" in report.items[0].message and "corner" in (report.items[0].hint or "")
            assert (report.items[0].loc.line, report.items[0].loc.col) == (19, 5)
        else:
            assert plan is not None and plan.line_facts["corner"]["limit"]


def test_a_race_a_legend_wins_says_no_seat_won(capsys):
    from interpreter.cli import main

    assert main(["play", "heat", "--module", "legends", "--seats", "random", "--seed", "1"]) == 0
    result = capsys.readouterr().out.split("\nResult:\n")[1]
    assert "  1. green (driven by the game): finished 1st" in result and "winner" not in result
    assert "  no seat won: green, driven by the game, came first" in result


def _starting_cards(variants, modules, token, seed=3):
    """Each seat's stress cards (deck, hand, discard) and heat cards (engine; deck and hand; discard)
    when the first round begins, with `token` the only weather token in the stack; and whether the
    weather was turned up before the first decision of setup."""
    report = Report()
    rs = load_ruleset(ROOT / "rulesets" / "heat", variants, modules, report)
    hooks = Hooks(before_setup=parse_block(f'set_pile(weather_box, ["{token}"])', report))
    comp = make_compiler(rs, 2, report, hooks=hooks)
    assert comp is not None, report.render()
    game = Game(comp.plan, seed)
    p = game.plan
    laid_before = len(game.st.piles[p.pile_base["weather"]]) == 1
    while game.decision().rule != "procedures.shift_gear":   # the draft, if any: the first upgrade
        game.choose(0)
    assert game.st.piles[p.pile_base["weather"]], "the weather is laid when the race begins"

    def count(pile, seat, card_type):
        cards = game.st.piles[p.pile_base[pile] + seat]
        return sum(1 for c in cards if p.card_types[p.card_type[c]] == card_type)
    cards = [(count("deck", s, "stress") + count("hand", s, "stress") + count("discard", s, "stress"),
              count("engine", s, "heat"), count("deck", s, "heat") + count("hand", s, "heat"),
              count("discard", s, "heat")) for s in range(2)]
    return cards, laid_before


@pytest.mark.parametrize("token", ["weather_cloud", "weather_fog", "weather_storm", "weather_snow",
                                   "weather_rain", "weather_sun"])
def test_a_championship_turns_the_weather_up_after_the_draft_with_the_same_effect(token):
    """The Weather module lays its token before the draft (W-1); a championship race after it (C-11).
    Either way each seat starts with the stress and heat cards the token says (USA: 3 and 6)."""
    alone, laid_before = _starting_cards([], ["weather", "garage"], token)
    assert laid_before
    championship, laid_before = _starting_cards(["event-7"], [], token)
    assert not laid_before
    assert championship == alone
    stress, engine, in_deck, discarded = alone[0]
    assert (stress, engine + in_deck + discarded) == {
        "weather_cloud": (2, 6), "weather_storm": (4, 6), "weather_fog": (3, 7), "weather_snow": (3, 5),
        "weather_rain": (3, 6), "weather_sun": (3, 6)}[token]
    assert in_deck == (3 if token == "weather_rain" else 0)
    assert discarded == (3 if token == "weather_sun" else 0)


def test_the_result_says_where_each_car_finished_in_words(capsys, tmp_path):
    """`result.says` and `result.also.says`: beside each place the players read the game's words
    (`blue finished 3rd`, a legend `finished 1st`), not the number the result ranks by (it read
    `1` beside the legend's first place and each seat's place again as a number). A `says` that is
    not a text is a type error at its line."""
    from interpreter.cli import main

    plan = load("heat", modules=["legends"]).plan(2)
    game = Game(plan, 1)
    play(game, [RandomAgent(f"1/{s}") for s in range(2)])
    res = game.result()
    cars = [plan.piece_names[c] for c in (0, 1)]
    assert [said.split(" finished ")[0] for said in res["says"]] == cars
    legends = [e for e in res["standings"] if "piece" in e]
    assert legends and all(e["says"] == f"finished {e['place']}" + {1: "st", 2: "nd", 3: "rd"}.get(
        e["place"], "th") for e in legends)
    assert main(["play", "heat", "--module", "legends", "--seats", "random,random", "--seed", "1",
                 "--no-log"]) == 0
    out = capsys.readouterr().out.split("\nResult:\n")[1]
    assert f"(random): {cars[0]} finished" in out and f"(random): {cars[1]} finished" in out
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        'game: {id: tiny, name: "Tiny", players: {min: 2, max: 2}}\nstate:\n  score: {of: seat}\n'
        'phases:\n  - id: main\n    do: "pass"\n'
        'result:\n  rank: "seat.score"\n  says: "seat.score"\n', encoding="utf-8")
    assert main(["validate", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "game.yaml:9:" in err and "`says` must be text" in err and "Traceback" not in err
