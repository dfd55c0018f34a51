"""The balance lab: design metrics, comparisons on paired seeds, exports, charts and the report."""
import json
import shutil
import sys
from pathlib import Path

import pytest

from interpreter.agents.base import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.cli import main
from interpreter.engine.game import Game
from interpreter.lab import stats
from interpreter.lab.compare import compare
from interpreter.lab.metrics import _lead, _lead_summary
from interpreter.session.load import load
from interpreter.session.playing import play
from interpreter.lab.simulate import Setup, simulate

ROOT = Path(__file__).resolve().parents[1]
SEALED = str(ROOT / "tests" / "fixtures" / "sealed" / "rulesets" / "sealed")


def run(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


# ---- statistics ---------------------------------------------------------------------------------

def test_distributions_match_their_tables():
    assert stats.t_quantile(0.975, 10) == pytest.approx(2.2281, abs=1e-4)   # Student t tables
    assert stats.t_quantile(0.975, 100_000) == pytest.approx(1.96, abs=1e-3)
    assert stats.t_two_sided(2.0, 20) == pytest.approx(0.0593, abs=1e-4)
    # 2 of 12 discordant pairs one way: 2 * (1 + 12 + 66) / 4096
    assert stats.binomial_two_sided(2, 12) == pytest.approx(2 * 79 / 4096)
    assert stats.binomial_two_sided(6, 12) == 1.0 and stats.binomial_two_sided(0, 0) == 1.0
    assert stats.betainc(2, 3, 0.4) == pytest.approx(0.5248)
    assert stats.wilson(0, 200)[0] == 0.0 and stats.wilson(200, 200)[1] == 1.0   # no rounding error


def test_paired_differences_without_spread_do_not_crash():
    same = stats.paired([3, 5, 7], [3, 5, 7], binary=False)
    assert same["diff"] == 0 and same["ci"] == [0, 0] and same["p_value"] == 1.0
    shifted = stats.paired([3, 5, 7], [1, 3, 5], binary=False)   # always 2 fewer: certain
    assert shifted["diff"] == -2 and shifted["ci"] == [-2, -2] and shifted["p_value"] == 0.0
    assert stats.paired([], [], binary=True)["p_value"] is None
    one = stats.paired([1], [0], binary=True)   # one game says nothing
    assert one["p_value"] == 1.0
    # diffs 1, 1, 1, 2: mean 1.25, sd 0.5, t = 5 with 3 degrees of freedom
    t = stats.paired([1, 2, 3, 4], [2, 3, 4, 6], binary=False)
    assert t["p_value"] == pytest.approx(0.01539, abs=1e-4)
    assert t["ci"][0] == pytest.approx(1.25 - 3.1824 * 0.25, abs=1e-3)


def test_many_measures_are_adjusted_together():
    assert stats.adjust([0.01, 0.04, 0.03, None, 0.5]) == pytest.approx([0.04, 0.04 * 4 / 3, 0.04 * 4 / 3,
                                                                          None, 0.5])
    rates = stats.two_rates(30, 100, 45, 100)
    assert rates["diff"] == pytest.approx(0.15) and rates["ci"][0] > 0 and rates["p_value"] < 0.05
    assert stats.two_rates(0, 0, 3, 10)["p_value"] is None


def test_lead_changes_and_when_the_winner_took_the_lead():
    # seat 0 leads after setup, seat 1 after round 1, a tie after round 2 (no leader), seat 0 after 3
    # and 4: two changes of leader, and seat 0 took the lead for good after round 3
    samples = [(0, [5, 1]), (1, [5, 7]), (2, [8, 8]), (3, [9, 8]), (4, [12, 8])]
    assert _lead(samples, 0) == {"lead_changes": 2, "lead_taken": 3, "gap": 4}
    assert _lead(samples, 1) == {"lead_changes": 2, "lead_taken": None, "gap": -4}   # behind at the end
    assert _lead([(0, [3, 1]), (5, [9, 1])], 0)["lead_taken"] == 0                  # from the start
    assert _lead(samples, None)["gap"] is None


def test_a_winner_level_at_the_end_is_not_said_to_be_behind():
    """Won on the result's tie-break with the same progress as another seat: level, not behind
    (`simulate` said "behind at the end" of every winner not leading alone)."""
    rows = [{"outcome": "won", **_lead(samples, w)} for samples, w in [
        ([(0, [1, 1]), (1, [4, 4])], 0),    # level
        ([(0, [1, 1]), (1, [2, 4])], 0),    # behind
        ([(0, [1, 1]), (1, [5, 4])], 0),    # ahead
    ]]
    found = _lead_summary(rows)
    assert found is not None and (found["level_at_end"], found["behind_at_end"]) == (1, 1)


# ---- what the engine counts -----------------------------------------------------------------------

def test_counting_changes_no_game():
    plan = load("formula5").plan(3)
    for seed in range(3):
        games = []
        for tally in (None, "progress", "counts"):
            g = Game(plan, seed, tally=tally)
            res = play(g, [RandomAgent(f"{seed}/{s}") for s in range(3)])
            games.append((g.answers, res))
        assert games[0] == games[1] == games[2]


def test_counts_add_up():
    plan = load("formula5").plan(4)
    g = Game(plan, 7, tally="counts")
    play(g, [RandomAgent(f"c/{s}") for s in range(4)])
    counts = g.st.tally.counts
    options = {k: v for k, v in counts.items()
               if k.startswith("choices.play_card > ") and k.count(" > ") == 1}
    # each time a player's step runs, its one choice (named `play_card`) takes one option
    assert sum(options.values()) == counts["steps.player_plays"]
    for key, n in options.items():   # and each option over cards counts the card it took
        assert sum(v for k, v in counts.items() if k.startswith(key + " > ")) == n
    play_key = 'choices.play_card > play > '   # an option by its name (`as play`)
    played = {k.rsplit(" > ", 1)[1] for k in counts if k.startswith(play_key)}
    assert played and played <= {"red", "blue", "green", "yellow", "purple"}   # the cards' names
    assert counts["triggers.pit_stops_end"] == g.result()["rounds"]
    # an option over numbers counts each number taken (the squares a car drove onto)
    g = Game(load("tilerace", ["quick"]).plan(2), 3, tally="counts")
    play(g, [RandomAgent(f"t/{s}") for s in range(2)])
    counts = g.st.tally.counts
    drive = 'choices.action > drive'
    reveal = 'choices.action > reveal'
    for key in (drive, reveal):
        values = {k.rsplit(" > ", 1)[1]: v for k, v in counts.items() if k.startswith(key + " > ")}
        assert all(v.isdigit() for v in values) and sum(values.values()) == counts.get(key, 0)
    assert counts[reveal] > 0
    # a named statement counts each time it runs, in machine code (a `break` leaving a loop that
    # waits) as in plain code (`... as total_speed`, in step 3 of each car that did not overheat)
    g = Game(load("heat", track="usa").plan(2), 2, tally="counts")
    play(g, [RandomAgent(f"h/{s}") for s in range(2)])
    counts = g.st.tally.counts
    assert counts["statements.stop_reacting"] == counts["choices.react > done"] > 0
    assert 0 < counts["statements.total_speed"] <= counts["steps.reveal_and_move"]


def test_a_bots_look_ahead_and_secret_commitments_count_nothing():
    # greedy bots copy the table to look ahead, and seats of a `simultaneously` decide on copies: the
    # counts of the game they played equal those of its decisions replayed without a bot
    for ruleset, players, bot in (("formula5", 3, GreedyAgent), (SEALED, 3, RandomAgent)):
        plan = load(ruleset).plan(players)
        played = Game(plan, 5, tally="counts")
        play(played, [bot(f"b/{s}") for s in range(players)])
        again = Game(plan, 5, tally="counts")
        for pick in played.answers:
            again.choose(pick)
        assert again.over and again.st.tally.counts == played.st.tally.counts
        assert again.st.tally.chosen == played.st.tally.chosen


# ---- outcomes counted apart ---------------------------------------------------------------------------

def test_draws_are_counted_apart_from_wins():
    rows: list = []
    s = simulate("tilerace", 16, 2, seed=3, jobs=1, variants=["quick"], rows_out=rows)
    drawn = s["outcomes"]["drawn"]["games"]
    won = s["outcomes"]["won"]["games"]
    assert drawn > 0 and drawn + won == 16
    # a draw is no seat's win: the win rates add up to the games won, not to every game
    assert sum(r["wins"] for r in s["wins_by_seat"]) == won
    assert all(r["tied_first"] == drawn for r in s["wins_by_seat"])
    # the game's own metrics tell how each draw came about
    assert s["metrics"]["timed_out"]["games"] + s["metrics"]["stalemate"]["games"] == drawn


def test_games_stopped_at_the_round_limit_are_counted_apart(tmp_path):
    folder = tmp_path / "rulesets" / "f5"
    folder.mkdir(parents=True)
    shutil.copytree(ROOT / "cards" / "formula5", tmp_path / "cards" / "formula5")
    text = (ROOT / "rulesets" / "formula5" / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text.replace("max_rounds: 100", "max_rounds: 5"), encoding="utf-8")
    s = simulate(str(folder), 4, 3, seed=1, jobs=1)
    assert s["outcomes"]["round_limit"]["games"] == 4 and s["failed"] == 0
    assert sum(r["wins"] for r in s["wins_by_seat"]) == 0
    assert s["length"]["rounds_max"] == 5


# ---- compare -------------------------------------------------------------------------------------

def test_a_game_compared_with_itself_differs_in_nothing():
    base = Setup.of("formula5", ["random"] * 3, counts=True)
    same = compare(base, base, 30, seed=2, jobs=1)
    assert same["paired"] and same["pairs"] == 30 and same["significant"] == 0
    for m in same["metrics"]:
        if not m["name"].startswith("win rate when"):
            assert m["diff"] == 0 and m["p_value"] == 1.0, m


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_chance_alone_is_not_flagged(seed):
    # the same game on other seeds: the differences are chance's, and none may be flagged
    base = Setup.of("formula5", ["random", "greedy", "random"])
    result = compare(base, base, 60, seed=seed, jobs=1, variant_seed=seed + 100)
    assert not result["paired"]
    assert result["significant"] == 0, [m["name"] for m in result["metrics"] if m["significant"]]
    assert any(m["p_value"] < 1 for m in result["metrics"] if m["p_value"] is not None)


def test_a_shorter_race_is_flagged(capsys):
    rc, out, _ = run(capsys, "compare", "formula5", "--variant", "short-race", "--players", "3",
                     "--games", "20", "--jobs", "1", "--json")
    assert rc == 0
    result = json.loads(out)
    by = {m["name"]: m for m in result["metrics"]}
    for m in result["metrics"]:
        assert set(m) >= {"name", "base", "variant", "diff", "ci", "p_value", "significant"}
    rounds = by["rounds"]
    assert (rounds["base"], rounds["variant"], rounds["diff"]) == (12, 6, -6) and rounds["significant"]
    assert rounds["ci"] == [-6, -6]
    assert by["decisions"]["significant"] and by["decisions"]["diff"] < 0
    assert not by["seat 1 wins"]["significant"]


def test_a_params_change_and_other_seats_are_compared(capsys):
    rc, out, _ = run(capsys, "compare", "formula5", "--against-param", "hand_size=8", "--players", "2",
                     "--games", "15", "--jobs", "1", "--json")
    result = json.loads(out)
    assert rc == 0 and "hand_size=8" in result["variant"]["setup"]
    assert next(m for m in result["metrics"] if m["name"] == "rounds")["variant"] == 8
    rc, out, _ = run(capsys, "compare", "formula5", "--seats", "random,random", "--against-seats",
                     "greedy,random", "--games", "10", "--jobs", "1")
    assert rc == 0 and "seats greedy,random" in out and "seat 1 wins" in out
    rc, _, err = run(capsys, "compare", "formula5", "--seats", "random,random", "--against-seats", "greedy",
                     "--games", "10")
    assert rc == 2 and "--against-seats" in err


def test_two_tracks_are_compared(capsys):
    rc, out, _ = run(capsys, "compare", "heat", "--track", "usa", "--against-track", "italy",
                     "--players", "2", "--games", "2", "--jobs", "1", "--json")
    result = json.loads(out)
    assert rc == 0 and result["base"]["track"] == "usa" and result["variant"]["track"] == "italy"


# ---- exports -------------------------------------------------------------------------------------

def test_jsonl_rows_reproduce_the_printed_totals(tmp_path, capsys):
    export = tmp_path / "games.jsonl"
    rc, out, _ = run(capsys, "simulate", "formula5", "--games", "25", "--players", "4", "--seed", "5",
                     "--jobs", "1", "--counts", "--json", "--export", export)
    assert rc == 0
    s = json.loads(out)
    rows = [json.loads(line) for line in export.read_text(encoding="utf-8").splitlines()]
    assert [r["game"] for r in rows] == list(range(25)) and len({r["seed"] for r in rows}) == 25
    for seat in s["wins_by_seat"]:
        won = [r for r in rows if r["outcome"] == "won" and r["winners"] == [seat["seat"]]]
        assert seat["wins"] == len(won)
    for key, o in s["outcomes"].items():
        assert o["games"] == sum(1 for r in rows if r["outcome"] == key)
    assert s["length"]["rounds_mean"] == pytest.approx(sum(r["rounds"] for r in rows) / 25)
    assert s["length"]["decisions_mean"] == pytest.approx(sum(r["decisions"] for r in rows) / 25)
    for entry in s["wins_by"]["start_position"]:
        seats = [(r, i) for r in rows for i, v in enumerate(r["records"]["start_position"])
                 if v == entry["value"]]
        assert entry["seats"] == len(seats)
        assert entry["wins"] == sum(1 for r, i in seats if r["winners"] == [i + 1])
    for c in s["counts"]:
        assert c["per_game"] == pytest.approx(sum(r["counts"].get(c["name"], 0) for r in rows) / 25)
        if "seats" in c:
            assert c["seats"] == sum(1 for r in rows for keys in r["chose"] if c["name"] in keys)
    # and the same run, printed, shows the same numbers
    rc, text, _ = run(capsys, "simulate", "formula5", "--games", "25", "--players", "4", "--seed", "5",
                      "--jobs", "1")
    for seat in s["wins_by_seat"]:
        assert f"seat {seat['seat']}  random {seat['wins']:>6}" in text


def test_csv_and_compare_exports(tmp_path, capsys):
    jsonl, table = tmp_path / "g.jsonl", tmp_path / "g.csv"
    rc, _, err = run(capsys, "compare", "tilerace", "--variant", "fun-track", "--players", "2",
                     "--games", "3", "--jobs", "1", "--export", jsonl, "--csv", table)
    assert rc == 0 and "6 games written" in err
    rows = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    assert [r["side"] for r in rows] == ["base"] * 3 + ["variant"] * 3
    assert [r["seed"] for r in rows[:3]] == [r["seed"] for r in rows[3:]]   # paired seeds
    lines = table.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    assert len(lines) == 7 and header[:3] == ["side", "game", "seed"]
    assert "metric.timed_out" in header and "record.start_position" not in header


def test_output_files_are_checked_before_playing(tmp_path, capsys):
    rc, _, err = run(capsys, "simulate", "formula5", "--games", "5", "--export", tmp_path / "no" / "g.jsonl")
    assert rc == 2 and "--export" in err and "does not exist" in err


# ---- charts and the report ----------------------------------------------------------------------------

def test_charts_and_report_are_written(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    rc, _, err = run(capsys, "compare", "formula5", "--variant", "short-race", "--players", "3", "--games",
                     "12", "--jobs", "1", "--plot", tmp_path / "charts", "--report", tmp_path / "r.html")
    assert rc == 0
    names = sorted(p.name for p in (tmp_path / "charts").iterdir())
    assert names == ["differences.png", "lead.png", "length.png", "margin.png", "wins.png",
                     "wins_by_start_position.png"]
    assert all((tmp_path / "charts" / n).read_bytes()[:4] == b"\x89PNG" for n in names)
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert page.count('src="data:image/png;base64,') == 6 and "<table>" in page and "short-race" in page


def test_charts_draw_rates_of_0_and_100_percent():
    pytest.importorskip("matplotlib")
    from interpreter.lab import charts

    rows: list = []
    s = simulate("formula5", 5, 2, seed=1, jobs=1, rows_out=rows)
    for r in s["wins_by_seat"] + s["wins_by"]["start_position"]:   # one seat won them all
        won = r["seat"] == 1 if "seat" in r else r["value"] == 5
        r["rate"], r["ci95"] = (1.0, [0.98, 1.0000000001]) if won else (0.0, [1e-18, 0.02])  # rounded
    drawn = charts.images([("all", s, rows)], ["svg"])
    assert [stem for stem, _d in drawn][:2] == ["wins", "wins_by_start_position"]
    assert all(d["svg"].lstrip().startswith(b"<?xml") for _s, d in drawn)


def test_charts_without_matplotlib_say_how_to_get_it(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)   # `import matplotlib` fails
    rc, out, err = run(capsys, "simulate", "formula5", "--games", "5", "--plot", tmp_path / "c")
    assert rc == 2 and out == "" and "pip install -e '" in err and "[plots]'" in err


def test_progress_and_metrics_are_checked(tmp_path):
    from interpreter.base.diagnostics import RulesetError

    folder = tmp_path / "rulesets" / "f5"
    folder.mkdir(parents=True)
    shutil.copytree(ROOT / "cards" / "formula5", tmp_path / "cards" / "formula5")
    text = (ROOT / "rulesets" / "formula5" / "game.yaml").read_text(encoding="utf-8")
    text = text.replace('progress: "size(slots(grid)) + 1 - min([slot_of(c) for c in seat.pieces])"',
                        """progress: '"far"'""")
    (folder / "game.yaml").write_text(text + '\nmetrics:\n  passes: "[1, 2]"\n  pitted: "pit_stack"\n',
                                      encoding="utf-8")
    with pytest.raises(RulesetError) as e:
        load(str(folder)).plan(3)
    shown = e.value.report.render()
    assert "`progress` must be int, but this is text" in shown
    assert "metric `passes` must be a number or true/false, but this is list[int]" in shown
    assert "metric `pitted`" in shown and shown.count("E120") == 3


def test_statistics_speak_of_what_varies_in_words_a_designer_reads(capsys):
    """A measure the same in every game (the margin of a race, whose result is a place) is not
    reported, by `simulate` nor by `compare`; counted options read as their labels (`play …`, the
    card by its name), and a comparison's rows are whole, never cut into rows that read alike."""
    rc, out, _err = run(capsys, "simulate", "heat", "--games", "6", "--players", "3", "--jobs", "1",
                        "--counts")
    assert rc == 0
    assert "margin of victory" not in out and "final gap" not in out
    assert "procedures.play_cards > play … > 5 (upgrade)" in out
    assert "{" not in out and "speed_1" not in out and "upgrade_5" not in out
    rc, out, _err = run(capsys, "simulate", "downforce", "--games", "6", "--players", "3", "--jobs", "1")
    assert rc == 0 and "margin of victory (result, first to second): " in out   # money: a score
    rc, out, _err = run(capsys, "compare", "heat", "--variant", "sprint", "--games", "4", "--players", "2",
                        "--jobs", "1", "--counts")
    assert rc == 0
    assert "margin of victory" not in out and "final gap" not in out   # 1 in every game of both sides
    rows = [line.split("  ")[0] for line in out.splitlines() if line.startswith("count ")]
    assert len(rows) > 20 and len(set(rows)) == len(rows) and not any(r.endswith("...") for r in rows)
    rc, out, _err = run(capsys, "compare", "formula5", "--variant", "short-race", "--games", "20",
                        "--players", "3", "--jobs", "1")
    assert rc == 0 and "\nmargin of victory " in out   # a race of places won by 1 or 2: it varies


def test_an_install_hint_names_the_checkout_or_the_package(tmp_path, monkeypatch):
    """Installed in place from a checkout, the extra is installed from its folder (a package index
    would not know `racecraft`); installed from a package, by the package's name."""
    from interpreter.lab import extras

    assert extras.install_hint("plots") == f"pip install -e '{ROOT}[plots]'"
    installed = tmp_path / "site-packages" / "interpreter" / "lab" / "extras.py"
    monkeypatch.setattr(extras, "__file__", str(installed))
    assert extras.install_hint("plots") == "pip install 'racecraft[plots]'"


def test_counts_tell_apart_two_kinds_of_card_of_one_name():
    """A sprinter's `3` and a rouleur's `3` (two card types named alike) are counted apart, each
    with its type's id; a name only one type has is counted as players read it."""
    from types import SimpleNamespace

    from interpreter.engine.tally import _taken
    from interpreter.lang.types import CARD

    plan = SimpleNamespace(card_names=["3", "3", "5"], card_types=["s3", "r3", "e5"], card_type=[0, 1, 2])
    assert [_taken(plan, CARD, c) for c in (0, 1, 2)] == ["3 (s3)", "3 (r3)", "5"]
