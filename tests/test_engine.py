"""The engine's own guarantees: commit-then-reveal, cheap clones, exact replays, determinism."""
import io
import json
import sys
from pathlib import Path

import pytest

from interpreter.agents.base import RandomAgent
from interpreter.cli import main
from interpreter.engine.game import Game
from interpreter.base.diagnostics import RulesetError
from interpreter.base.errors import RuleError
from interpreter.session.load import load
from interpreter.session.playing import play
from interpreter.lab.simulate import simulate, wilson

ROOT = Path(__file__).resolve().parents[1]
SEALED = str(ROOT / "tests" / "fixtures" / "sealed" / "rulesets" / "sealed")


def sealed(players=3, seed=1):
    return Game(load(SEALED).plan(players), seed)


def test_simultaneous_choices_are_hidden_until_all_have_committed():
    game = sealed()
    first = game.decision()
    assert first.simultaneous and first.seat == 0
    game.choose(2)  # seat 1 bids 3
    second = game.decision()
    assert second.seat == 1
    # Seat 2 decides on a table where seat 1's bid has not happened, and cannot see it anyway.
    view = game.view(1)
    assert "bid" not in view["seats"][0]
    assert game.table_seen(1).values("bid")[0] == 0 and game.st.values("bid")[0] == 0
    game.choose(0)
    game.choose(1)
    # All three committed: revealed in seat order.
    assert game.st.values("shown") == [3, 1, 2]
    assert game.view(1)["seats"][0] == {"shown": 3, "score": 3}
    assert game.view(0)["seats"][0]["bid"] == 3


def test_a_seat_that_is_not_committing_sees_the_real_table():
    """While seat 1 commits in secret (Heat: it shifts gear, paying heat, then picks cards), what
    it did so far is on its own copy: seat 2 and a spectator see the table as it was; seat 1 sees
    its copy."""
    game = Game(load("heat").plan(2), 1)
    before = game.view(1)
    shift = game.decision().labels().index("shift to gear 3 for 1 heat")
    game.choose(shift)
    assert game.decision().seat == 0 and game.decision().simultaneous
    assert "gear 3" in game.view(0)["pieces"]["black"]["facts"]
    for seat in (1, None):
        seen = game.view(seat)
        assert seen["pieces"]["black"] == before["pieces"]["black"]
        assert seen["piles"]["engine(black)"] == before["piles"]["engine(black)"]


def test_a_full_simultaneous_game_ends_with_the_right_ranking():
    game = sealed(2)
    while not game.over:
        game.choose(game.decision().count - 1)  # everybody always bids 3
    res = game.result()
    assert res["scores"] == [9, 9]
    assert res["order"] == [0, 1] and res["winners"] == [0]  # tie: the lower seat number
    assert res["rounds"] == 3 and res["decisions"] == 6


def test_clone_plays_on_independently():
    plan = load("formula5").plan(3)
    game = Game(plan, 5)
    for _ in range(7):
        game.choose(0)
    twin = game.clone()
    assert twin.decision().labels() == game.decision().labels()
    twin.choose(twin.decision().count - 1)
    assert twin.answers != game.answers
    # Both finish, and playing the original on is unaffected by the clone.
    ref = Game(plan, 5)
    for pick in game.answers:
        ref.choose(pick)
    while not game.over:
        game.choose(0)
        ref.choose(0)
    while not twin.over:
        twin.choose(0)
    assert game.result() == ref.result()


def test_clone_inside_a_commit_keeps_the_commits():
    game = sealed()
    game.choose(1)
    twin = game.clone()
    for g in (game, twin):
        g.choose(0)
        g.choose(2)
    assert game.st.values("shown") == twin.st.values("shown") == [2, 1, 3]


def test_same_seed_same_game():
    plan = load("formula5").plan(4)

    def run(seed):
        g = Game(plan, seed)
        res = play(g, [RandomAgent(f"{seed}/{s}") for s in range(4)])
        return g.answers, res

    assert run(3) == run(3)
    assert run(3) != run(4)


@pytest.mark.parametrize("game, track, players", [("formula5", None, 4), ("heat", "usa", 3)])
def test_calls_run_in_place_play_the_games_the_machine_plays(monkeypatch, game, track, players):
    """A call of a procedure that waits runs from inside its caller (`vm.call_in`) unless the
    frames are deep; left to `vm.run` every time (depth 0), the games are the same."""
    from interpreter.engine import vm
    plan = load(game, track=track).plan(players)

    def games():
        out = []
        for seed in (1, 2):
            g = Game(plan, seed)
            out.append((play(g, [RandomAgent(f"{seed}/{s}") for s in range(players)]), g.answers))
        return out

    in_place = games()
    monkeypatch.setattr(vm, "INLINE_DEPTH", 0)
    assert games() == in_place


def test_play_log_and_replay_reproduce_the_game(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert main(["play", "formula5", "--seats", "random,random,random", "--seed", "7",
                 "--log", str(log)]) == 0
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[0]["type"] == "game" and lines[0]["seed"] == 7
    assert lines[-1]["type"] == "result"
    played = capsys.readouterr().out
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "replayed exactly" in out
    # the replay tells the game in the very lines play printed
    told = played.split("\n", 1)[1].split("\nFinal table:")[0].strip("\n")
    assert told and out.split("\n", 1)[1].split("\nresult:")[0].strip("\n") == told
    assert main(["replay", str(log), "--rules"]) == 0
    out = capsys.readouterr().out
    assert "rule steps.player_plays" in out and "game.yaml:" in out and "replayed exactly" in out
    # A record that does not match the rules is refused, not replayed wrongly.
    lines[3]["label"] = "play something else"
    log.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    assert main(["replay", str(log)]) == 1
    assert "E306" in capsys.readouterr().err


def test_human_seat_sees_its_hand_and_is_told_about_a_wrong_entry(monkeypatch, capsys):
    # keys are letters: a number that names no option's card is no option
    answers = "hello\n0\n999\n" + "".join(f"{'abcdefghi'[i % 9]}\n" for i in range(900))
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    assert main(["play", "formula5", "--seats", "human,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "`hello` is not one of the options" in out
    assert "`999` is not one of the options" in out
    assert "your hand: " in out
    # The other player's hand is never shown to the human, not even its size in this game's view.
    assert "hand(seat 2)" not in out and "Result:" in out


def test_simulate_is_deterministic_whatever_the_processes():
    a = simulate("formula5", 40, 3, seed=9, jobs=1)
    b = simulate("formula5", 40, 3, seed=9, jobs=2)
    for key in ("completed", "wins_by_seat", "wins_by", "length"):
        assert a[key] == b[key]
    assert a["completed"] == 40
    assert sum(r["wins"] for r in a["wins_by_seat"]) == pytest.approx(40)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_simulate_workers_play_the_game_compiled_once_here():
    """The worker processes play the games this process compiled (they load and compile nothing):
    given another game's plan here under this setup, they play that one."""
    import interpreter.lab.simulate as sim

    setup = sim.Setup.of("formula5", ["random"] * 3)
    short = sim.Setup.of("formula5", ["random"] * 3, ["short-race"])
    games = sim.seeds(2, 24)
    (expected,), _ = sim.run([short], [games], sim.LocalBackend(1))
    sim._COMPILED[setup] = sim.compiled(short)
    try:
        (rows,), _ = sim.run([setup], [games], sim.LocalBackend(2))
    finally:
        del sim._COMPILED[setup]
    assert rows == expected


def test_simulate_json_has_the_promised_fields(capsys):
    assert main(["simulate", "formula5", "--games", "20", "--players", "5", "--seed", "1",
                 "--jobs", "1", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    for key in ("games", "completed", "wins_by_seat", "games_per_second"):
        assert key in stats
    assert stats["games"] == 20 and stats["completed"] == 20
    assert [r["seat"] for r in stats["wins_by_seat"]] == [1, 2, 3, 4, 5]
    assert [r["value"] for r in stats["wins_by"]["start_position"]] == [1, 2, 3, 4, 5]


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 0) == (0.0, 0.0)


def test_greedy_bot_uses_the_rulesets_evaluation_and_beats_random():
    stats = simulate("formula5", 150, 3, seed=4, jobs=1, seats=["greedy", "random", "random"])
    greedy, *randoms = stats["wins_by_seat"]
    assert stats["completed"] == 150
    assert greedy["bot"] == "greedy" and greedy["ci95"][0] > 1 / 3  # better than a fair share
    assert all(greedy["wins"] > r["wins"] for r in randoms)


def test_greedy_bot_without_evaluation_plays_legal_moves():
    from interpreter.agents.greedy import GreedyAgent

    game = sealed(2)
    assert game.plan.evaluate is None
    bots = [GreedyAgent(1), GreedyAgent(2)]
    while not game.over:
        d = game.decision()
        game.choose(bots[d.seat].choose(game, d))
    assert game.result()["rounds"] == 3


def test_a_rule_error_points_at_the_sub_expression_that_failed(tmp_path):
    from interpreter.authoring.scenario import run_scenario

    scenario = tmp_path / "broken.yaml"
    scenario.write_text(
        "scenario: {name: broken, source: test}\n"
        f"ruleset: {ROOT / 'rulesets' / 'formula5'}\n"
        "players: 2\n"
        "situation: |\n"
        "  let fine = 1\n"
        "  for c in cars:\n"
        "      let slot = slot_of(c)\n"
        "      let far = slot_of(at(grid, slot + 5))\n", encoding="utf-8")
    out = run_scenario(scenario)
    assert not out.passed
    text = out.report.render()
    # `at(grid, slot + 5)` is none: the error is at the call that cannot take it, not at the `let`
    # reported at the situation's own line (E404), the rule named in the hint
    assert f"{scenario}:8:17: error[E404]: rule error: a value is `none` here" in text, text
    assert "(in rule `situation`)" in text


def test_replay_works_from_another_folder(tmp_path, monkeypatch, capsys):
    log = tmp_path / "game.jsonl"
    assert main(["play", "formula5", "--seats", "random,random", "--seed", "2", "--log", str(log)]) == 0
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    assert "replayed exactly" in capsys.readouterr().out


def test_custom_events_fire_their_triggers_in_order(tmp_path):
    """`emit NAME` runs every trigger `on: NAME` whose `if` holds, in the order written."""
    import shutil

    folder = tmp_path / "rulesets" / "sealed"
    shutil.copytree(SEALED, folder)
    game_file = folder / "game.yaml"
    text = game_file.read_text(encoding="utf-8")
    text = text.replace("              s.score += s.bid\n",
                        "              s.score += s.bid\n          emit revealed\n")
    text = text.replace("  score: {of: seat, type: int}\n",
                        "  score: {of: seat, type: int}\n  fired: {of: game, type: int}\n"
                        "  order: {of: game, type: int}\n")
    text += ("triggers:\n"
             "  - id: count\n    on: revealed\n    do: |\n      fired += 1\n      order = order * 10 + 1\n"
             "  - id: only_late\n    on: revealed\n    if: 'round >= 2'\n"
             "    do: |\n      order = order * 10 + 2\n")
    game_file.write_text(text, encoding="utf-8")
    game = Game(load(str(folder)).plan(2), 1)
    while not game.over:
        game.choose(0)
    assert game.st.g["fired"] == 3          # one reveal a round, 3 rounds
    assert game.st.g["order"] == 11212      # round 1: trigger 1 only; rounds 2-3: 1 then 2


def test_preview_plays_an_option_that_decides_again_up_to_that_decision():
    from interpreter.engine import vm
    game = Game(load("formula5").plan(3), 2)
    d = game.decision()
    labels = d.labels()
    pit = next(i for i, lb in enumerate(labels) if lb.startswith("pit stop with"))
    play_ = next(i for i, lb in enumerate(labels) if lb.startswith("play"))
    after_pit = vm.preview(game.st, pit)
    spec, _opts, _env, _seat = after_pit.pending
    assert spec.prompt(after_pit, _env).startswith("Pit stop: discard")  # the next decision
    after_play = vm.preview(game.st, play_)
    assert after_play.pending[0] is game.st.pending[0]   # played its own effects only
    column = [p for p, cards in enumerate(after_play.piles) if len(cards) != len(game.st.piles[p])]
    assert len(column) == 2                              # the hand gave one card to a column



@pytest.mark.parametrize("name", ["formula5", "heat", "downforce", "tilerace"])
def test_previews_leave_the_real_table_as_it_was(name):
    """A bot's preview copy shares the piles with the real table and copies one only when it
    changes it: every option of the first decisions of a game leaves the real table intact."""
    import random

    from interpreter.agents.greedy import GreedyAgent
    from interpreter.engine import vm

    def table(st):
        return repr((st.piles, st.where, st.up, st.g, st.v, st.bd,
                     [(pc, env) for _code, pc, env in st.frames], st.steps))

    plan = load(name).plan(3)
    game, rng = Game(plan, 5), random.Random(1)
    bots = [GreedyAgent(s) for s in range(3)]
    previews = 0
    for _ in range(120):
        if game.over:
            break
        d = game.decision()
        before = table(d._st)
        for i in range(d.count):
            try:
                vm.preview(d._st, i, rng)
                previews += 1
            except RuleError:
                pass
        assert table(d._st) == before, d.rule
        game.choose(bots[d.seat].choose(game, d))
    assert previews > 100


TOKENS = """\
game: {id: tokens, name: Tokens, players: {min: 2, max: 2}}
state:
  left: {of: game, type: int, initial: 1}
  base: {of: game, type: int}
  got: {of: seat, type: int}
phases:
  - id: main
    order: "[seat(1)]"
    turn: leader
    steps:
      - id: take
        do: |
          simultaneously for s in seats:
              choose "Take?" by s:
                  option "take the last token" if left > 0:
                      left -= 1
                      s.got = 1
                  option "token {t % 10}" for t in [base + 1]:
                      base += 10
                      s.got = t
                  option "pass":
                      pass
    rounds: 1
result:
  rank: "seat.got"
"""


def _tokens(tmp_path):
    folder = tmp_path / "rulesets" / "tokens"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(TOKENS, encoding="utf-8")
    return Game(load(str(folder)).plan(2), 1)


def test_a_commitment_another_seat_made_impossible_is_a_rule_error(tmp_path):
    game = _tokens(tmp_path)
    game.choose(0)             # seat 1 takes the last token (on its own copy)
    with pytest.raises(RuleError,
                       match=r"seat 2.s committed choice \"take the last token\" is no longer an option "
                             r"when revealed: seat 1.s block, revealed before it, changed `left` at "
                             r".*game.yaml:16:23 \(`left -= 1`\)"):
        game.choose(0)         # so does seat 2: at the reveal there is none left for it


def test_a_commitment_that_reads_the_same_at_the_reveal_stands(tmp_path):
    game = _tokens(tmp_path)
    game.choose(1)             # seat 1: "token 1" (t = 1)
    game.choose(1)             # seat 2: "token 1" on its copy; revealed, it is t = 11, read "token 1"
    assert game.over and game.st.values("got") == [1, 11]


@pytest.mark.parametrize("bottom", [False, True])
@pytest.mark.parametrize("same", [False, True])
def test_moving_a_whole_pile_is_moving_its_cards_one_by_one(bottom, same):
    """`move PILE to ...` moves the pile at once; the result is that of moving its cards one
    by one (in order; onto the bottom they keep their order; onto itself only faces change)."""
    game = Game(load("heat").plan(2), 3)
    st = game.st
    hand, play = st.plan.pile_base["hand"], st.plan.pile_base["play"]
    dest = hand if same else play
    st.move(st.piles[hand][0], play, True)   # the destination is not empty
    one, bulk = st.clone(), st.clone()
    for c in (one.piles[hand][::-1] if bottom else one.piles[hand][:]):
        one.move(c, dest, False, bottom)
    bulk.move_all(hand, dest, False, bottom)
    assert (bulk.piles, bulk.where, bulk.up) == (one.piles, one.where, one.up)
    assert same or (not bulk.piles[hand] and len(bulk.piles[play]) == 7)


def test_sums_and_counts_over_cards_read_the_cards_whatever_their_form(tmp_path):
    """`sum`/`size` of a list of cards whose item reads only the card are computed through a
    table made at compile time; with an item that reads the table (the seat's gear) they are
    computed card by card. Both give the rulebook's numbers."""
    from interpreter.authoring.scenario import run_scenario

    scenario = tmp_path / "sums.yaml"
    scenario.write_text(
        "scenario: {name: sums, source: test}\n"
        f"ruleset: {ROOT / 'rulesets' / 'heat'}\n"
        "players: 2\n"
        "situation: |\n"
        '  set_pile(hand(seat(1)), ["speed_3", "speed_4", "heat", "stress", "heat"])\n'
        "  seat(1).gear = 3\n"
        "expect:\n"
        "  - 'size([c for c in hand(seat(1)) if c.kind == \"heat\"]) == 2'\n"
        "  - 'sum([c.speed for c in hand(seat(1)) if c.kind == \"speed\"]) == 7'\n"
        "  - 'sum([(if c.kind == \"heat\" then 10 else 1) for c in hand(seat(1))]) == 23'\n"
        "  - 'sum([c.speed + seat(1).gear for c in hand(seat(1)) if c.kind == \"speed\"]) == 13'\n"
        "  - 'size([c for c in hand(seat(1)) if c.kind == \"heat\" or seat(1).gear == 3]) == 5'\n"
        "  - 'sum([c.speed for c in hand(seat(2)) if c.kind == \"nothing\"]) == 0'\n",
        encoding="utf-8")
    out = run_scenario(scenario)
    assert out.passed, out.report.render()


@pytest.mark.parametrize("name,track,players", [("heat", "usa", 3), ("formula5", None, 4), (SEALED, None, 3)])
def test_answering_in_place_plays_the_game_choose_plays(name, track, players):
    """Agents answering from inside the rules (`Game.answer_with`, what `play` does) take the
    same decisions, commitments included, as the same agents asked between `choose`s; a copy
    made while a decision is answered in place plays on as one made between them."""
    plan = load(name, track=track).plan(players)
    stepped = Game(plan, 5)
    agents = [RandomAgent(f"a/{s}") for s in range(players)]
    while not stepped.over:
        seat, count = stepped.waiting()
        stepped.choose(agents[seat].rng.randrange(count))
    agents = [RandomAgent(f"a/{s}") for s in range(players)]
    copies = []

    def pick(g):
        seat, count = g.waiting()
        if len(g.answers) == 7:
            copies.append(g.clone())
        return agents[seat].rng.randrange(count)
    in_place = Game(plan, 5)
    in_place.answer_with(pick)
    while not in_place.over:
        in_place.choose(pick(in_place))
    assert in_place.answers == stepped.answers and in_place.result() == stepped.result()
    (copy,) = copies  # taken while the eighth decision was pending: it plays on from there
    again = [RandomAgent(f"a/{s}") for s in range(players)]
    replay = Game(plan, 5)
    for a in stepped.answers[:7]:
        seat, count = replay.waiting()
        again[seat].rng.randrange(count)
        replay.choose(a)
    for g in (copy, replay):
        g.choose(stepped.answers[7])
    assert copy.waiting() == replay.waiting() and copy.st.piles == replay.st.piles


def test_an_error_of_an_agent_answering_in_place_is_its_own():
    """An agent that fails while the rules ask it in place fails as itself: its error is not
    taken for the rules' (no rule error placed at the choice)."""
    game = Game(load("formula5").plan(3), 1)

    def pick(g):
        raise KeyError("the agent's own")
    game.answer_with(pick)
    with pytest.raises(KeyError, match="the agent's own"):
        game.choose(0)


RAID = """\
# (authored for this test, not from any rulebook) seat 1 may raid: its car gains the highest card
# of seat 2's hand, which seat 1 cannot see, less 3
game: {id: raid, name: Raid, players: {min: 2, max: 2}}
include: [cards.yaml]
pieces:
  cars: {count: 2}
boards:
  grid: {kind: ranking, slots: 2}
piles:
  deck: {visible: nobody}
  hand: {of: seat, visible: owner}
state:
  gain: {of: piece, type: int}
setup: |
  for s in seats:
      cars[s.number].owner = s
  for c in cars:
      place(c, grid)
  shuffle deck
  for s in seats:
      draw 2 from deck to hand(s)
phases:
  - id: race
    order: "[seat(1)]"
    turn: leader
    steps:
      - id: raid
        do: |
          choose "Raid seat 2?" by seat(1):
              option "raid":
                  cars[1].gain = max([c.value for c in hand(seat(2))]) - 3
              option "wait":
                  pass
    rounds: 1
result:
  rank: "sum([p.gain for p in seat.pieces])"
show:
  gain: "piece.gain"
evaluate: "sum([p.gain for p in seat.pieces])"
"""
RAID_CARDS = """\
source: "authored for Racecraft's tests"
cards:
  - {id: low, name: low, count: 3, props: {value: 1}, starts_in: deck}
  - {id: high, name: high, count: 3, props: {value: 5}, starts_in: deck}
"""


def _raid(tmp_path, text=RAID):
    folder = tmp_path / "raid"
    folder.mkdir()
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    (folder / "cards.yaml").write_text(RAID_CARDS, encoding="utf-8")
    return load(str(folder)).plan(2)


def _raid_dealt(plan, value: int) -> Game:
    """A game of Raid at its raid, seat 2 holding two cards of `value`."""
    hand, deck = plan.pile_names.index("hand(seat 2)"), plan.pile_names.index("deck")
    game = Game(plan, 3)
    st = game.st
    for c in list(st.piles[hand]):
        st.move(c, deck)
    for c in [c for c in list(st.piles[deck]) if plan.card_props["value"][c] == value][:2]:
        st.move(c, hand)
    if game.decision().rule == "steps.ready":
        game.choose(0)
    return game


# (seat 1 says it is ready first: the test deals seat 2's hand there, before the rules take its card)
LOOT = RAID.replace("""      - id: raid
        do: |
          choose "Raid seat 2?" by seat(1):
              option "raid":
                  cars[1].gain = max([c.value for c in hand(seat(2))]) - 3
""", """      - id: ready
        do: |
          choose "Ready?" by seat(1):
              option "ready":
                  pass
              option "set":
                  pass
      - id: raid
        do: |
          let loot = first([c for c in hand(seat(2)) if c.value == max([d.value for d in hand(seat(2))])])
          choose "Raid seat 2?" by seat(1):
              option "raid":
                  move loot to hand(seat(1))
                  cars[1].gain = loot.value - 3
""")


# (the card taken into a state variable of the game, not a local)
KEPT = LOOT.replace("""          let loot = first(""", """          loot = first(""").replace(
    "state:\n", "state:\n  loot: {of: game, type: card}\n", 1)
HIDDEN_READS = [RAID, LOOT, KEPT]
HOW = ["read in the option", "taken before the choice", "kept in a state variable"]


@pytest.mark.parametrize("text", HIDDEN_READS, ids=HOW)
def test_an_option_that_reads_another_seats_hand_shows_no_preview(tmp_path, text):
    """Seat 1's raid reads seat 2's hand, which seat 1 cannot see (in the option, or in a card the
    rules took before asking): its preview says nothing, whatever seat 2 holds (it said the true
    gain: "gain -2" against "gain 2"); waiting says nothing either (it changes nothing)."""
    from interpreter.table.preview import previews

    plan = _raid(tmp_path, text)
    assert [previews(_raid_dealt(plan, v), _raid_dealt(plan, v).decision()) for v in (1, 5)] == [["", ""]] * 2


# seat 2 keeps a number only it sees; seat 1's raid takes it, its own count reads seat 1's
STASH = RAID.replace("  gain: {of: piece, type: int}\n", "  gain: {of: piece, type: int}\n"
                     "  stash: {of: seat, type: int, visible: owner}\n"
                     "  spare: {of: piece, type: int, visible: owner}\n"
                     ).replace("""              option "raid":
                  cars[1].gain = max([c.value for c in hand(seat(2))]) - 3
              option "wait":
                  pass
""", """              option "raid":
                  cars[1].gain = seat(2).stash
              option "raid the spare":
                  cars[1].gain = cars[2].spare
              option "count mine":
                  cars[1].gain = seat(1).stash + cars[1].spare
""")


def test_an_option_that_reads_a_number_only_another_seat_sees_shows_no_preview(tmp_path):
    """A seat's or a piece's variable only its owner sees (`visible: owner`), read by an option
    of another seat: its preview says nothing, whatever the number (it said it: "gain 5"); the
    seat's own numbers are previewed."""
    from interpreter.table.preview import previews

    plan = _raid(tmp_path, STASH)
    shown = []
    for value in (2, 5):
        game = Game(plan, 3)
        st = game.st
        st.v[plan.var_at["stash"] + 1] = value
        st.v[plan.var_at["spare"] + 1] = value
        st.v[plan.var_at["stash"]] = 1
        st.v[plan.var_at["spare"]] = 2
        shown.append(previews(game, game.decision()))
    assert shown == [["", "", "gain 3"]] * 2


@pytest.mark.parametrize("text", HIDDEN_READS, ids=HOW)
def test_the_greedy_bots_look_deals_other_seats_hands_anew_when_it_reads_them(tmp_path, text):
    """The greedy bot's raid is judged on seat 2's hand as seat 1 may believe it: its choices are
    the same whichever cards seat 2 truly holds (on the true hand it waited on the low cards and
    raided on the high ones; the card taken before the choice made its look fail and leave the
    raid out); the deal is seeded by the bot's seed alone."""
    from interpreter.agents.greedy import GreedyAgent

    plan = _raid(tmp_path, text)
    picks = []
    for value in (1, 5):
        game = _raid_dealt(plan, value)
        picks.append([GreedyAgent(s).choose(game, game.decision()) for s in range(24)])
    assert picks[0] == picks[1]
    assert 0 < sum(picks[0]) < 24   # (a belief dealt per bot: some raid, some wait)


def test_a_veiled_copy_deals_what_the_seat_cannot_see_when_it_first_reads_it(tmp_path):
    """On copies of one look (`hidden.Veil`): reading seat 2's hand, or the deck its cards can
    come from, deals them anew on that copy only; every copy deals the same whatever the truth; a
    read of a pile everybody may count (its size) deals nothing; the table itself is left as it was."""
    import random

    from interpreter.engine.hidden import veil

    plan = _raid(tmp_path)
    hand, deck = plan.pile_names.index("hand(seat 2)"), plan.pile_names.index("deck")
    dealt = []
    for value in (1, 5):
        st = _raid_dealt(plan, value).st
        before = repr((st.piles, st.where, st.up))
        st.veil = veil(st, 0, random.Random(9))
        a, b, c = st.scratch(random.Random(1)), st.scratch(random.Random(2)), st.scratch(random.Random(3))
        assert len(a.piles[hand]) == 2 and a.veil is not None      # (what `size` reads)
        seen = sorted(a.seen(hand))
        assert a.veil is None and b.veil is not None
        assert sorted(b.seen(deck)) == sorted(a.piles[deck]) and b.veil is None   # the same deal
        assert sorted(c.clone().seen(hand)) == seen
        st.veil = None
        assert repr((st.piles, st.where, st.up)) == before
        dealt.append(seen)
    assert dealt[0] == dealt[1]


def test_a_fact_the_game_shows_is_said_once_though_its_variable_has_the_same_name(tmp_path):
    """Raid has no `view:` (its pieces' visible variables are shown by name) and shows `gain` itself."""
    from interpreter.engine.game import table_view

    game = _raid_dealt(_raid(tmp_path), 1)
    assert table_view(game.plan, game.st, 0)["pieces"]["cars1"]["facts"] == ["gain 0"]


def test_a_board_in_a_text_reads_as_its_name(tmp_path):
    """`say "{b}"` of a board value said its number (`the board: 0`)."""
    from interpreter.lang.show import show, words
    from interpreter.lang.types import BOARD, listof

    plan = _raid(tmp_path)
    assert show(plan, BOARD, 0) == "grid" and words(plan, listof(BOARD), [0, 0]) == "grid and grid"


GAIN = RAID.replace("""          choose "Raid seat 2?" by seat(1):
              option "raid":
                  cars[1].gain = max([c.value for c in hand(seat(2))]) - 3
              option "wait":
                  pass
""", """          let n = 0
          choose "How much?" by seat(1):
              option "a little":
                  n = 1
              option "a lot":
                  n = 4
          cars[1].gain = n
""")


def test_an_option_that_sets_only_what_the_next_statements_read_is_previewed_played_on(tmp_path):
    """Each option sets only how much the next statement gives: right after it the table is the
    same, so the preview says what the rules then do (it said nothing)."""
    from interpreter.table.preview import previews

    game = Game(_raid(tmp_path, GAIN), 3)
    assert previews(game, game.decision()) == ["gain 1", "gain 4"]


# a function of Raid's that reads the deck (nobody sees it)
TOP_VALUE = 'functions:\n  top_value:\n    value: "if size(deck) == 0 then 0 else top(deck).value"\n'


def _warned(tmp_path, text: str, code: str) -> list:
    """The warnings `code` that checking Raid written as `text` gives (it must check)."""
    from interpreter.check import check
    from interpreter.load.ruleset import load_ruleset
    from interpreter.base.diagnostics import Report

    folder = tmp_path / "raid"
    folder.mkdir()
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    (folder / "cards.yaml").write_text(RAID_CARDS, encoding="utf-8")
    report = Report()
    rs = load_ruleset(folder, report=report)
    assert rs is not None and check(rs, report) is not None, report.render()
    return [d for d in report.items if d.code == code]


@pytest.mark.parametrize("fact, said", [
    ('best: "max([c.value for c in hand(piece.owner)] + [0])"', ["hand"]),
    ('best: {value: "max([c.value for c in hand(piece.owner)] + [0])", seen_by: owner}', []),
    ('held: "size(hand(piece.owner)) + size(cards(deck))"', []),
    ('next: "top_value()"', ["deck"]),
])
def test_a_fact_everybody_sees_that_reads_a_hidden_pile_is_said(tmp_path, fact, said):
    """W162 at the fact, also through a function it calls; not for its owner's eyes only, nor for
    how many cards a pile holds (told to everybody)."""
    text = RAID.replace('show:\n  gain: "piece.gain"\n',
                        f'show:\n  gain: "piece.gain"\n  {fact}\n') + TOP_VALUE
    warned = _warned(tmp_path, text, "W162")
    assert [d.message.split("lies in ")[1].split(",")[0].strip("`") for d in warned] == said
    if said:
        assert warned[0].loc.line == text.splitlines().index(f"  {fact}") + 1


@pytest.mark.parametrize("line, said", [
    ('say "seat 2 holds {cards(hand(seat(2)))}"', ["hand"]),
    ('say "the deck: {size(deck)} cards, seat 2 {size(hand(seat(2)))}"', []),
    ('say "next: {top_value()}"', []),   # through a function: a rule may tell (a bid's value)
])
def test_a_line_said_that_tells_a_hidden_pile_is_warned(tmp_path, line, said):
    """W164 at the `say` whose own text reads a pile only its owner sees (or nobody); not for how
    many cards it holds."""
    text = RAID.replace("""              option "wait":
                  pass
""", f"""              option "wait":
                  {line}
""") + TOP_VALUE
    warned = _warned(tmp_path, text, "W164")
    assert [d.message.split("lies in ")[1].split(",")[0].strip("`") for d in warned] == said
    if said:
        assert warned[0].loc.line == next(i for i, t in enumerate(text.splitlines(), 1) if line in t)


@pytest.mark.parametrize("lines", [
    # a list first given [] and then grown, in a loop or at once
    ["let a = []", "for c in hand(seat(1)):", "    a = a + [c]"],
    ["let a = []", "a = a + cards(hand(seat(1)))"],
    ["let a = [] + cards(hand(seat(1)))"],
    ["let a = []", "if size(deck) >= 0:", "    a = cards(hand(seat(1)))"],
    ["let m = {}", "for c in hand(seat(1)):", "    m[c] = 1", "let a = [c for c in m]"],
    # an empty list in one branch: a list of what the other holds
    ["let a = if size(deck) < 0 then [] else cards(hand(seat(1)))"],
], ids=["grown in a loop", "grown at once", "joined to []", "given in a block", "a map's keys",
        "one branch []"])
def test_a_list_first_given_empty_is_a_list_of_what_is_put_in_it(tmp_path, lines):
    """`let a = []` then `a = a + [c]`, or `if ... then [] else cards(hand(s))`: a list of cards
    (it was a list of anything: `{a}` said numbers and `first(a).value` read none, with no
    warning)."""
    body = "".join(f"          {line}\n" for line in lines)
    text = RAID.replace('''      - id: raid
        do: |
''', f'''      - id: raid
        do: |
{body}          say "{{a}}: {{first(a).value}}"
''')
    plan = _raid(tmp_path, text)
    game = Game(plan, 3, trace=True)
    said = [e for e in game.st.trace if e[0] == "say"]
    hand = game.st.piles[plan.pile_names.index("hand(seat 1)")]
    names = " and ".join(plan.card_names[plan.card_type[c]] for c in hand)
    assert said and said[-1][-1] == f"{names}: {plan.card_props['value'][hand[0]]}"


def test_a_list_first_given_empty_keeps_the_type_it_was_given(tmp_path):
    """Once a list first given [] holds cards, numbers put in it are a type error at their line."""
    text = RAID.replace('''      - id: raid
        do: |
''', '''      - id: raid
        do: |
          let a = []
          a = a + cards(hand(seat(1)))
          a = a + [3]
''')
    with pytest.raises(RulesetError) as err:
        _raid(tmp_path, text)
    assert "list[card]" in str(err.value) and "list[int]" in str(err.value)
