"""Heat on the lane track: the board kind's geometry, the four tracks, races that end, the view."""
from pathlib import Path

import pytest
import yaml

from interpreter.agents.base import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.boards.lanes.model import LanesModel
from interpreter.boards.lanes.track import Lanes
from interpreter.cli import main
from interpreter.engine.game import Game
from interpreter.session.load import load
from interpreter.session.playing import play
from interpreter.table.terminal.view import render_view

ROOT = Path(__file__).resolve().parents[1]
TRACKS = ["usa", "great-britain", "italy", "france"]
DATA = ROOT.parent / "shared" / "data" / "heat" / "tracks.yaml"
DATA_IDS = {"usa": "usa", "great-britain": "gb", "italy": "italia", "france": "france"}


def small_track(**kw):
    decl = LanesModel(kind="lanes", spaces=20, spots=2, laps=2,
                      lines=[{"at": 5, "kind": "bend", "limit": 3, "name": "A", "race_line": 2},
                             {"at": 15, "kind": "bend", "limit": 4, "name": "B", "race_line": 1},
                             {"at": 3, "kind": "mark"}],
                      grid=[[19, 1], [19, 2], [18, 1]], **kw)

    class _Plan:
        n_pieces = 4
    return Lanes("t", 0, decl, _Plan())


def test_lines_between_counts_every_lap_in_order():
    k = small_track()
    assert k.lines_between(-1, 5, "bend") == [5]
    assert k.lines_between(4, 36, "bend") == [5, 15, 25, 35]
    assert k.lines_between(5, 5, "bend") == []
    assert k.lines_between(0, 40, "mark") == [3, 23]
    assert k.next_lines(14, "bend", 3) == [15, 25, 35]
    assert k.line_at(35, "bend").limit == 4


def test_lines_between_and_next_lines_agree_with_walking_the_spaces():
    k = small_track()
    ats = {"bend": (5, 15), "mark": (3,)}
    for kind, at in ats.items():
        walked = [p for p in range(-25, 250) if p % 20 in at]
        for a in range(-22, 100, 3):
            for b in range(a - 2, a + 47, 5):
                assert k.lines_between(a, b, kind) == [p for p in walked if a < p <= b], (kind, a, b)
            for n in (1, 2, 5):
                assert k.next_lines(a, kind, n) == [p for p in walked if p > a][:n], (kind, a, n)
    assert k.line_at(43, "mark").at == 3 and k.line_at(44, "mark") is None and k.line_at(5, "sector") is None


def test_race_line_follows_the_sectors():
    k = small_track()
    assert [k.prefer[s][0] for s in (0, 4, 5, 14, 15, 19)] == [1, 1, 2, 2, 1, 1]


def test_blocking_and_race_order():
    k = small_track()
    data = k.init(None)
    pos, spot = data
    pos[0], spot[0] = 8, 2
    pos[1], spot[1] = 8, 1
    pos[2], spot[2] = 2, 1
    k.settle(data, 2, 8, floor=2)        # space 8 is full: back to 7, on its race line (2)
    assert (pos[2], spot[2]) == (7, 2)
    pos[3], spot[3] = 3, 1
    k.settle(data, 3, 7, floor=3)        # 7's race line is taken: its other spot
    assert (pos[3], spot[3]) == (7, 1)
    assert k.order(data) == [0, 1, 2, 3]  # in one space the race line spot is ahead


def test_spot_order_number_ignores_the_race_line():
    assert small_track().decl.spot_order == "race_line"   # the default: Heat's rule
    k = small_track(spot_order="number")
    assert k.race[5] == 2 and k.prefer[5] == [1, 2]      # the race line is still drawn, not preferred
    data = k.init(None)
    pos, spot = data
    pos[0], spot[0] = 2, 1
    k.settle(data, 0, 6, floor=2)        # space 6 is empty: spot 1 first, though its race line is 2
    assert (pos[0], spot[0]) == (6, 1)
    pos[1], spot[1] = 3, 1
    k.settle(data, 1, 6, floor=3)        # spot 1 is taken: spot 2
    assert (pos[1], spot[1]) == (6, 2)
    pos[2], spot[2] = 4, 1
    k.settle(data, 2, 6, floor=4)        # space 6 is full: back to 5, on spot 1 again
    assert (pos[2], spot[2]) == (5, 1)
    assert k.order(data) == [0, 1, 2]     # in one space spot 1 is ahead of spot 2
    pos[0], spot[0], pos[1], spot[1] = 6, 2, 6, 1
    assert k.order(data) == [1, 0, 2]
    # with `race_line` the same space orders the other way: its race line is spot 2
    assert small_track().order(data) == [0, 1, 2]


def test_a_bad_track_is_a_diagnostic(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("track: {id: bad, name: Bad, source: authored}\n"
                   "boards:\n  track: {kind: lanes, spaces: 10, spots: 2, race_line: 3}\n", encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "race_line 3" in err and "Traceback" not in err


@pytest.mark.parametrize("name", TRACKS)
def test_track_files_carry_the_printed_data(name):
    text = (ROOT / "tracks" / "heat" / f"{name}.yaml").read_text(encoding="utf-8")
    track = yaml.safe_load(text)
    assert "tracks.yaml" in track["track"]["source"]
    board = track["boards"]["track"]
    if DATA.is_file():
        src = next(t for t in yaml.safe_load(DATA.read_text(encoding="utf-8"))["tracks"]
                   if t["id"] == DATA_IDS[name])
        assert board["spaces"] == src["spaces_per_lap"] and board["laps"] == src["laps"]
        corners = [ln for ln in board["lines"] if ln["kind"] == "corner"]
        assert [(c["at"], c["limit"], c["race_line"]) for c in corners] == [
            (c["first_space_after"], c["speed_limit"], c["race_line_lane_after"]) for c in src["corners"]]
        assert board["facts"] == {"heat": src["heat_cards_in_engine"], "stress": src["stress_cards_in_deck"]}


@pytest.mark.parametrize("name", TRACKS)
def test_every_track_draws_and_races_end(name, tmp_path):
    out = tmp_path / f"{name}.svg"
    assert main(["render", str(ROOT / "tracks" / "heat" / f"{name}.yaml"), "-o", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and ">corner A (" in svg and "start/finish" in svg
    loaded = load("heat", track=name)
    for players in (2, 6):
        plan = loaded.plan(players)
        game = Game(plan, players)
        res = play(game, [RandomAgent(f"{name}/{s}") for s in range(players)])
        assert res["ended"] and sorted(res["scores"]) == list(range(1, players + 1))


def test_greedy_bots_finish_a_race_sensibly():
    plan = load("heat").plan(4)
    game = Game(plan, 3)
    res = play(game, [GreedyAgent(f"3/{s}") for s in range(4)])
    assert res["ended"] and sorted(res["scores"]) == [1, 2, 3, 4]
    assert res["rounds"] < 35   # random bots need about 45 rounds on USA


def test_unknown_track_is_a_diagnostic(capsys):
    assert main(["simulate", "heat", "--track", "monza", "--games", "1", "--players", "2"]) == 1
    err = capsys.readouterr().err
    assert "no track `monza`" in err and "usa" in err


def test_play_on_another_track_with_bots(capsys):
    assert main(["play", "heat", "--track", "italy", "--seats", "greedy,random", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "3 laps of" in out and "Result:" in out


def test_the_view_shows_the_track_the_next_corners_and_the_hand():
    plan = load("heat").plan(3)
    game = Game(plan, 1)
    text = render_view(game.view(0), plan)
    assert "ahead of black: corner A (limit 7) in" in text and " you " in text
    assert "your hand: " in text and "hand(seat" not in text
    assert "engine 6 heat" in text


def test_steps_one_and_two_are_committed_in_secret():
    plan = load("heat").plan(2)
    game = Game(plan, 1)
    d = game.decision()
    assert d.simultaneous and d.seat == 0
    game.choose(d.labels().index("shift to gear 2"))
    while game.decision().seat == 0:
        game.choose(0)
    # seat 2 decides on a table where seat 1 is still in gear 1 with 7 cards in hand
    mine = game.table_seen(1)
    assert mine.values("gear")[0] == 1 and len(mine.piles[plan.pile_base["hand"]]) == 7
    assert game.st.values("gear")[0] == 1


def test_a_track_must_fit_the_game(tmp_path, capsys):
    import shutil

    for folder in ("rulesets/heat", "cards/heat", "tracks/heat"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    (tmp_path / "tracks" / "heat" / "oval.yaml").write_text(
        "track: {id: oval, name: Oval, source: authored}\n"
        "boards:\n  circuit: {kind: lanes, spaces: 30, laps: 1, grid: [[29, 1], [29, 2]]}\n",
        encoding="utf-8")
    (tmp_path / "tracks" / "heat" / "broken.yaml").write_text(
        "track: {id: broken, name: Broken, source: authored}\n"
        "boards:\n  track: {kind: lanes, spaces: 30, lines: [{at: 40, kind: corner}]}\n", encoding="utf-8")
    game = str(tmp_path / "rulesets" / "heat")
    assert main(["simulate", game, "--track", "oval", "--games", "1", "--players", "2"]) == 1
    assert main(["simulate", game, "--track", "broken", "--games", "1", "--players", "2"]) == 1
    err = capsys.readouterr().err
    assert "error[E034]" in err and "board `circuit`" in err
    assert "outside the 30 spaces" in err and "Traceback" not in err


def _react_with_boost(seed=1):
    """A game stopped at a step-5 decision where the car may boost (flip its deck's top card)."""
    game = Game(load("heat").plan(3), seed)
    bots = [RandomAgent(f"{seed}/{s}") for s in range(3)]
    while True:
        d = game.decision()
        if d.rule == "steps.react" and any(lb.startswith("boost") for lb in d.labels()):
            return game, d, [lb.startswith("boost") for lb in d.labels()].index(True)
        game.choose(bots[d.seat].choose(game, d))


def test_greedy_scores_an_option_right_after_its_own_effects():
    import random

    from interpreter.engine import vm
    game, d, boost = _react_with_boost()
    st = game.st
    before = (st.clone().piles, st.v[:])
    done = d.labels().index("done reacting")
    assert vm.preview(st, done) is st          # `break`: nothing happens, the table is scored as is
    after = vm.preview(st, boost, random.Random(1))
    s = d.seat
    assert after is not st and after.values("boosted")[s] and not st.values("boosted")[s]
    assert (len(after.piles[after.plan.pile_base["engine"] + s])
            == len(st.piles[st.plan.pile_base["engine"] + s]) - 1)
    assert (st.piles, st.v) == before          # the real table is untouched
    # the copy stops right there: the machine did not go on (no frames to run), no car moved
    assert not after.frames and after.pending is None
    moved = [pc for pc, (a, b) in enumerate(zip(after.bd[0][0], st.bd[0][0])) if a != b]
    assert moved == [st.values("owner").index(s)]   # only the boosting car itself moved


def test_greedy_does_not_learn_the_order_of_its_deck():
    """Boosting flips the deck's top card. Two tables that differ only in the order of that
    face-down deck give the bot the same value for boosting, so the same choice."""
    import random

    from interpreter.engine import vm
    values, picks = [], []
    for shift in (0, 1, 2):
        game, d, boost = _react_with_boost()
        deck = game.st.piles[game.plan.pile_base["deck"] + d.seat]
        deck[:] = deck[shift:] + deck[:shift]
        values.append(game.plan.evaluate(vm.preview(game.st, boost, random.Random(7)), {"seat": d.seat}))
        picks.append(GreedyAgent("same").choose(game, d))
    assert len(set(values)) == 1 and len(set(picks)) == 1
    # whereas the real deck's order does change what the boost flips
    game, d, boost = _react_with_boost()
    flips = set()
    for shift in range(4):
        g = game.clone()
        deck = g.st.piles[g.plan.pile_base["deck"] + d.seat]
        deck[:] = deck[shift:] + deck[:shift]
        g.choose(boost)
        flips.add(g.st.values("speed")[d.seat])
    assert len(flips) > 1


def test_greedy_scores_a_boost_by_several_believed_flips():
    """Boosting flips an unseen card: the bot averages a few believed flips, one for the others."""
    from interpreter.agents import greedy
    game, d, boost = _react_with_boost()
    real = game.plan.evaluate
    calls = []

    def counting(st, env):
        calls.append(bool(st.believe and st.believe.chance))
        return real(st, env)
    game.plan.evaluate = counting
    try:
        greedy.GreedyAgent("x").choose(game, d)
    finally:
        game.plan.evaluate = real
    assert calls.count(True) == greedy.SAMPLES
    assert calls.count(False) == d.count - 1


@pytest.mark.parametrize("where, kind, expect", [
    ("12", '"corner"', "== 7"),            # USA corner A: the first space after it is 12, limit 7
    ("12 + 2 * 69", '"corner"', "== 7"),   # the same line on lap 3 (69 spaces a lap)
    ("13", '"corner"', "no line of kind `corner` lies before space 13"),
    ("12", '"hairpin"', "no line of kind `hairpin` lies before space 12"),
])
def test_a_line_field_of_a_named_track_is_looked_up_by_space(tmp_path, where, kind, expect):
    """`line_limit(track, d, "corner")` on the track named in the rule is a table lookup made at
    compile time; a space with no such line is still a rule error at its position."""
    from interpreter.authoring.scenario import run_scenario

    scenario = tmp_path / "limit.yaml"
    check = f"line_limit(track, {where}, {kind}) {expect}" if expect.startswith("==") else \
        f"line_limit(track, {where}, {kind}) == 0"
    scenario.write_text(
        "scenario: {name: limit, source: test}\n"
        f"ruleset: {ROOT / 'rulesets' / 'heat'}\n"
        "players: 2\n"
        f"expect:\n  - '{check}'\n", encoding="utf-8")
    out = run_scenario(scenario)
    if expect.startswith("=="):
        assert out.passed, out.report.render()
    else:
        assert not out.passed and expect in out.report.render()


def _facts(game, seat: int) -> list[str]:
    pieces = game.view(None)["pieces"]
    (car,) = [info for info in pieces.values() if info.get("owner") == seat + 1]
    return car.get("facts", [])


def _heat(facts: list[str], label: str) -> int:
    import re
    found = [int(m.group(1)) for f in facts if (m := re.fullmatch(rf"{label} (\d+) heat", f))]
    return found[0] if found else 0


def test_an_options_preview_says_the_heat_its_corners_will_cost_at_step_7():
    """A reaction that adds speed (adrenaline, slipstream) after the car crossed a corner costs heat
    at step 7: its preview says so (`corners cost N heat`), and N is what step 7 then takes from the
    engine (or the car spins out when the engine holds less)."""
    import random

    from interpreter.table.preview import previews

    plan = load("heat").plan(2)
    paid = spins = 0
    for seed in (1, 2, 3):
        game, rng = Game(plan, seed), random.Random(seed)
        while not game.over:
            d = game.decision()
            for i, effect in enumerate(previews(game, d)):
                if "corners cost" not in effect:
                    continue
                due, engine = _heat(effect.split(", "), "corners cost"), _heat(_facts(game, d.seat), "engine")
                if due > engine:
                    spins += 1
                    spin = "spins out at a corner"
                    assert spin in effect or spin in _facts(game, d.seat)
                    continue
                ahead = game.clone()
                ahead.choose(i)
                while "corners cost" in " ".join(_facts(ahead, d.seat)):  # to step 7, taking no other speed
                    e = ahead.decision()
                    quiet = [k for k, x in enumerate(e.labels()) if x in ("done reacting", "no slipstream")]
                    if e.seat != d.seat or not quiet:
                        break
                    ahead.choose(quiet[0])
                else:
                    assert _heat(_facts(ahead, d.seat), "engine") == engine - due, effect
                    paid += 1
            game.choose(rng.randrange(d.count))
    assert paid >= 5 and spins >= 1, (paid, spins)
