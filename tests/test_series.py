"""Series of games (`racecraft championship`): season files, what a game hands on to the next, the
standings, saving and resuming exactly; Heat's seasons as the printed data lists them.

The Championship's rules inside one race (press, sponsors, the draft and its swap, the grid by points,
events) are pinned by scenarios (rulesets/heat/scenarios/championship-*.yaml, event-*.yaml).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from interpreter.agents.base import RandomAgent
from interpreter.cli import main
from interpreter.base.diagnostics import Report, RulesetError
from interpreter.lab.simulate import simulate_seasons
from interpreter.lab.series import Series, season_legs

ROOT = Path(__file__).resolve().parents[1]
HEAT = ROOT / "rulesets" / "heat"
DATA = ROOT.parent / "shared" / "data" / "heat" / "championship.yaml"
TRACK_OF = {"gb": "great-britain", "usa": "usa", "italia": "italy", "france": "france"}


class Person:
    """A person whose choice depends only on what is asked (so a resumed season, asked the same, answers
    the same); stops the game at its `stop_at`-th decision, as a Ctrl-C would."""
    person = True

    def __init__(self, stop_at: int | None = None):
        self.asked, self.stop_at = 0, stop_at

    def choose(self, game, d) -> int:
        self.asked += 1
        if self.stop_at is not None and self.asked == self.stop_at:
            raise KeyboardInterrupt
        return (len(d.prompt) + sum(map(len, d.labels()))) % d.count


def agents_with(person):
    return lambda seed: [person, RandomAgent(f"{seed}/1"), RandomAgent(f"{seed}/2")]


def play_out(series: Series, make_agents) -> None:
    while not series.done:
        series.play_next(make_agents)


@pytest.mark.skipif(not DATA.exists(), reason="the printed data (../shared/data) is not here")
@pytest.mark.parametrize("year", ["1961", "1962", "1963"])
def test_historical_seasons_are_the_printed_ones(year):
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    legs, standings, _ = season_legs(HEAT, year, 1, Report())
    printed = data["seasons"][int(year)]
    assert [(leg.track, leg.variants) for leg in legs] == \
        [(TRACK_OF[r["track"]], [f"event-{r['event']}"]) for r in printed]
    assert all(leg.modules == ["championship"] for leg in legs)
    assert standings is not None and list(standings.by) == ["points", "grid_position"]


@pytest.mark.skipif(not DATA.exists(), reason="the printed data (../shared/data) is not here")
def test_event_cards_give_the_printed_sponsors_and_press_corners():
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    for event in data["events"]:
        v = yaml.safe_load((HEAT / "variants" / f"event-{event['id']}.yaml").read_text(encoding="utf-8"))
        sets = {p["set"]: p["to"] for p in v["patches"] if "set" in p}
        assert sets.get("params.sponsors_at_start", 0) == event["sponsorship_cards_at_start"]
        assert sets["params.press_corners"] == event["press_indices"]


def test_custom_season_draws_four_tracks_and_four_events():
    first, _, _ = season_legs(HEAT, "custom", 7, Report())
    again, _, _ = season_legs(HEAT, "custom", 7, Report())
    assert [(x.track, x.variants) for x in first] == [(x.track, x.variants) for x in again]
    assert sorted(x.track or "" for x in first) == ["france", "great-britain", "italy", "usa"]
    events = [x.variants[0] for x in first]
    assert len(set(events)) == 4 and all(e.startswith("event-") for e in events)
    draws = {tuple(x.variants[0] for x in season_legs(HEAT, "custom", seed, Report())[0])
             for seed in range(8)}
    assert len(draws) > 1


def test_best_of_the_best_is_three_seasons_with_a_break_between():
    legs, standings, _ = season_legs(HEAT, "best-of-the-best", 1, Report())
    assert len(legs) == 10 and standings is not None
    assert [i for i, leg in enumerate(legs) if "new-season" in leg.variants] == [3, 6]
    assert [[v for v in leg.variants if v.startswith("event-")] for leg in legs] == \
        [[f"event-{k}"] for k in range(1, 11)]


def test_points_cards_and_grid_carry_from_race_to_race():
    s = Series.start("heat", "1961", 11, ["random"] * 3)
    play_out(s, lambda seed: [RandomAgent(f"{seed}/{i}") for i in range(3)])
    carried = [e["carried"] for e in s.played]
    points_by_place = [9, 6, 4, 3, 2, 1]
    for i, now in enumerate(carried):
        before = carried[i - 1]["seat"]["points"] if i else [0, 0, 0]
        gains = [a - b for a, b in zip(now["seat"]["points"], before)]
        bonus = 2 if i == 2 else 0  # event 3: the winner has 2 more
        assert sorted(gains, reverse=True) == [points_by_place[0] + bonus, *points_by_place[1:3]]
        # each player keeps one upgrade per race (the swap gives one back for one taken)
        for seat_cards in now["piles"]["garage"]:
            upgrades = [t for t in seat_cards if not t.startswith("sponsor_")]
            assert len(upgrades) == i + 1
        assert now["game"]["races_run"] == i + 1
    # the grid of races 2 and 3: by points, ties by the better place in the race before
    for i in (1, 2):
        prev = carried[i - 1]["seat"]
        order = sorted(range(3), key=lambda k: (-prev["points"][k], prev["last_place"][k]))
        grid = carried[i]["seat"]["grid_position"]
        assert sorted(range(3), key=lambda k: grid[k]) == order


def test_champion_ties_go_to_the_better_grid_position_in_the_last_race():
    s = Series.start("heat", "1961", 1, ["random"] * 3)
    s.played = [{"picks": [], "result": {}, "carried": {
        "seat": {"points": [20, 20, 15], "last_place": [2, 1, 3], "grid_position": [1, 2, 3]},
        "game": {}, "piles": {}}}]
    assert [r["seat"] for r in s.table()] == [0, 1, 2] and s.champions() == [0]


def test_an_event_changes_one_race_only():
    s = Series.start("heat", "1962", 1, ["random"] * 2)
    games = [s.loaded(i).ruleset.game for i in range(3)]
    # event 5 (Great Britain, race 2): a lap more and hands of 8; race 3 (France) as printed
    assert games[1].boards["track"].laps == 3 and games[1].params["hand_size"] == 8
    assert games[2].boards["track"].laps == 2 and games[2].params["hand_size"] == 7
    assert games[0].params["press_corners"] == [4] and games[2].params["press_corners"] == [2]


def test_a_season_stopped_mid_race_and_resumed_ends_as_if_never_stopped(tmp_path):
    whole = Series.start("heat", "1961", 3, ["human", "random", "random"])
    play_out(whole, agents_with(Person()))
    stopped = Series.start("heat", "1961", 3, ["human", "random", "random"])
    stopped.play_next(agents_with(Person()))
    person = Person(stop_at=12)
    with pytest.raises(KeyboardInterrupt):
        stopped.play_next(agents_with(person))
    save = tmp_path / "season.json"
    stopped.save(save)
    assert len(json.loads(save.read_text())["played"][1]["picks"]) > 0
    resumed = Series.resume(save)
    play_out(resumed, agents_with(Person()))
    assert [e["picks"] for e in resumed.played] == [e["picks"] for e in whole.played]
    assert resumed.table() == whole.table() and resumed.champions() == whole.champions()


def test_a_broken_save_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "season.json"
    bad.write_text('{"type": "series", "game": "heat"}')
    with pytest.raises(RulesetError) as e:
        Series.resume(bad)
    assert "E173" in e.value.report.render()
    bad.write_text("not json")
    assert main(["championship", "--resume", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "not a saved season" in err and "Traceback" not in err


def test_unknown_season_lists_the_seasons(capsys):
    assert main(["championship", "heat", "--season", "1960", "--seats", "random,random"]) == 1
    err = capsys.readouterr().err
    assert "E170" in err and "1961" in err and "best-of-the-best" in err


def test_championship_command_saves_stops_and_resumes(tmp_path, capsys):
    args = ["championship", "heat", "--season", "1961", "--seats", "random,random", "--seed", "4"]
    assert main(args) == 0
    whole = capsys.readouterr().out
    save = tmp_path / "s.json"
    assert main([*args, "--save", str(save), "--stop-after", "2"]) == 0
    first = capsys.readouterr().out
    assert "stopped after 2 game(s)" in first and "game 3 of 3" not in first
    assert main(["championship", "--resume", str(save)]) == 0
    rest = capsys.readouterr().out
    assert "game 3 of 3" in rest
    assert whole.split("Champion:")[1] == rest.split("Champion:")[1]
    standings = lambda out: out.split("=== game 3")[1].split("(season saved")[0].split("Champion")[0].strip()  # noqa: E731,E501
    assert standings(whole) == standings(rest)


def test_simulated_seasons_count_every_title():
    stats = simulate_seasons("heat", "1961", ["random", "random"], 3, 5)
    assert stats["finished"] == 3 and stats["failed"] == 0
    assert sum(c["titles"] for c in stats["champions"]) == pytest.approx(3)
    assert all(c["ci95"][0] <= c["rate"] <= c["ci95"][1] for c in stats["champions"])
    assert set(stats["mean"]) == {"points", "grid_position"}


def _project_with_seasons(tmp_path: Path, seasons: dict[str, str]) -> Path:
    import shutil

    for part in ("cards", "tracks"):
        shutil.copytree(ROOT / part, tmp_path / part)
    game = tmp_path / "rulesets" / "tilerace"
    shutil.copytree(ROOT / "rulesets" / "tilerace", game, ignore=shutil.ignore_patterns("scenarios"))
    (game / "seasons").mkdir()
    for name, text in seasons.items():
        (game / "seasons" / f"{name}.yaml").write_text(text, encoding="utf-8")
    return game


def test_a_season_of_another_game_and_its_errors_at_the_line(tmp_path, capsys):
    variant = sorted(p.stem for p in (ROOT / "rulesets" / "tilerace" / "variants").glob("*.yaml"))[0]
    game = _project_with_seasons(tmp_path, {
        "two": "season: {name: Two, description: two games}\nraces:\n  - {}\n"
               f"  - {{variants: [{variant}]}}\nstandings: {{by: [nothing_carried]}}\n",
        "bad": "season: {name: Bad, description: x}\nraces:\n  - {variants: [nope]}\nstandings: {by: [a]}\n",
        "loop": "season: {name: Loop, description: x}\ninclude: [loop2]\n",
        "loop2": "season: {name: Loop2, description: x}\ninclude: [loop]\n",
    })
    # the tile race hands nothing on: standings cannot read anything
    assert main(["validate", str(game / "seasons" / "two.yaml")]) == 1
    err = capsys.readouterr().err
    assert "E172" in err and "two.yaml:5:" in err and "nothing_carried" in err
    assert main(["validate", str(game / "seasons" / "bad.yaml")]) == 1
    err = capsys.readouterr().err
    assert "E040" in err and "bad.yaml:3:" in err and "nope" in err
    assert main(["championship", str(game), "--season", "loop", "--seats", "random,random"]) == 1
    assert "E171" in capsys.readouterr().err


def test_downforce_world_tour_is_a_season_whose_money_adds_up():
    s = Series.start("downforce", "world-tour", 2, ["random"] * 3)
    play_out(s, lambda seed: [RandomAgent(f"{seed}/{i}") for i in range(3)])
    first, second = (e["carried"]["seat"]["money"] for e in s.played)
    # the second game started with the first game's money and ranks seats by the sum
    assert s.played[1]["result"]["scores"] == second
    assert any(a != b for a, b in zip(first, second))
    best = max(second)
    assert all(second[c] == best for c in s.champions())


def test_a_seat_with_no_finished_car_has_no_first_place_and_reads_a_dash():
    """A standing value that is none (a world tour's seat whose cars did not finish, or that
    bought none) reads as a dash and ranks after every number: it read 99, the sentinel the
    rules used."""
    from interpreter.lab.series import standings_rows

    s = Series.start("downforce", "world-tour", 2, ["random"] * 6)
    play_out(s, lambda seed: [RandomAgent(f"{seed}/{i}") for i in range(6)])
    carried = s.played[-1]["carried"]["seat"]["first_place"]
    assert None in carried and {x for x in carried if x is not None} <= set(range(1, 7))
    head, body = standings_rows(s)
    column = head.index("first place")
    shown = [row[column] for row in body]
    assert "99" not in shown and "None" not in shown and "–" in shown
    rows = s.table()
    for above, below in zip(rows, rows[1:]):   # a tie on money goes to a first place over none
        if above["values"]["money"] == below["values"]["money"]:
            assert below["values"]["first_place"] is None or above["values"]["first_place"] is not None
    means = simulate_seasons("downforce", "world-tour", ["random"] * 6, 4, 2)["mean"]["first_place"]
    assert all(m is None or 1 <= m <= 6 for m in means)


# ---- a season's races at the table ---------------------------------------------------------------

class AtTheTable(Person):
    """A person at a season's table (`play_at_table`): takes back a decision when asked the
    `undo_at`-th, and then answers otherwise (`undone` undos so far change every answer)."""
    name = "human"

    def __init__(self, undo_at: int | None = None, stop_at: int | None = None, undone: int = 0):
        super().__init__(stop_at)
        self.undo_at, self.undone = undo_at, undone

    def choose(self, game, d) -> int:
        from interpreter.table.sitting import Undo

        if self.asked + 1 == self.undo_at:
            self.asked += 1
            self.undone += 1
            raise Undo(d.seat)
        return (super().choose(game, d) + self.undone) % d.count


def test_a_race_at_the_table_with_an_undo_stopped_and_resumed_ends_as_if_never_stopped(tmp_path):
    """Undo puts the bots back as they were at the decision taken back, so that the season saved
    after it, resumed (every bot asked again from the start of the race), ends the same. (The 17th
    question takes back a decision after which the bots decided: without the bots put back, a bot
    resumed chooses otherwise.)"""
    import io

    from interpreter.lab.terminal import play_at_table
    from interpreter.session.budget import budget

    seats = ["human", "random", "random"]
    whole = Series.start("heat", "1961", 3, seats)
    out = io.StringIO()
    play_at_table(whole, out, budget, lambda table: AtTheTable(undo_at=17))
    assert "(seat 1 takes back its last decision)" in out.getvalue()
    stopped = Series.start("heat", "1961", 3, seats)
    with pytest.raises(KeyboardInterrupt):
        play_at_table(stopped, io.StringIO(), budget, lambda table: AtTheTable(undo_at=17, stop_at=32))
    save = tmp_path / "season.json"
    stopped.save(save)
    resumed = Series.resume(save)
    out = io.StringIO()
    play_at_table(resumed, out, budget, lambda table: AtTheTable(undone=1))
    kept = len(json.loads(save.read_text())["played"][0]["picks"])
    assert f"resumed after {kept} decisions" in out.getvalue()
    assert resumed.played[0]["picks"] == whole.played[0]["picks"]
    assert resumed.table() == whole.table()


def test_a_championship_race_reads_as_play(monkeypatch, capsys):
    """A person's race in a season is told as `play` tells one: the rounds' headings and what is
    said, no hidden choice announced, undo offered."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("a\nb\nb\nb\n"))
    assert main(["championship", "heat", "--season", "1961", "--seats", "human,random,random",
                 "--seed", "2"]) == 130
    out = capsys.readouterr().out
    assert "Round 1: " in out and "(u: undo)" in out and "you are seat 1" in out
    assert "hidden" not in out and "»" not in out and "(decided" not in out
