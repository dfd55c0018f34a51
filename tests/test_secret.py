"""Simultaneous choices: every seat of a `simultaneously` block decides at once on its own copy, its
chance drawn from a stream of its own that the reveal reads again, blocks that touch only their
seat's places taken into the table from the copy (played once), and a choice gone at the reveal
said with its cause.

The toy game `tests/fixtures/draft` is the case that failed before streams: each seat draws four
cards from its own deck in secret (its recycled cards shuffled back mid-draw), rolls a die, keeps
one card; the blocks are revealed together."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from interpreter.agents.base import RandomAgent
from interpreter.engine import secret
from interpreter.engine.game import Game
from interpreter.engine.state import Tape
from interpreter.base.diagnostics import Report
from interpreter.base.errors import RuleError
from interpreter.lab.simulate import simulate
from interpreter.load.ruleset import load_ruleset
from interpreter.compile import compile_ruleset, forget_compiled
from interpreter.session.load import load
from interpreter.session.playing import play

ROOT = Path(__file__).resolve().parents[1]
DRAFT = str(ROOT / "tests" / "fixtures" / "draft" / "rulesets" / "draft")
SEALED = str(ROOT / "tests" / "fixtures" / "sealed" / "rulesets" / "sealed")


def draft(players: int = 3, seed: int = 1, **kw) -> Game:
    return Game(load(DRAFT).plan(players), seed, **kw)


def table(game: Game):
    st = game.st
    return (st.piles, st.where, st.up, st.g, st.v, st.bd, st.steps, st.ended)


def played(game: Game, order, seed: int) -> Game:
    """`game` played to its end by random picks (each seat its own generator), the seats of each
    secret block answering in the order `order(seats)` gives."""
    rngs = [random.Random(f"{seed}/{s}") for s in range(game.plan.n_seats)]
    while not game.over:
        seats = game.deciding()
        seat = order(seats)[0] if game.collecting else None
        d = game.decision(seat)
        game.choose(rngs[d.seat].randrange(d.count), seat)
    return game


# ---- chance of its own ------------------------------------------------------------------------------

def test_a_secret_phase_that_draws_shuffles_and_rolls_simulates_without_failing():
    """Before streams every game of this kind stopped at its first reshuffle: the seat's block drew
    one way on its copy and another at the reveal ("no longer an option when revealed")."""
    stats = simulate(DRAFT, 300, 3, seed=1, jobs=1)
    assert stats["games"] == 300 and not stats.get("failed"), stats.get("failed")


def test_the_seats_may_commit_in_any_order_and_the_game_is_the_same():
    plan = load(DRAFT).plan(3)
    for seed in (1, 2, 3):
        ahead = played(Game(plan, seed, trace=True), lambda s: s, seed)
        behind = played(Game(plan, seed, trace=True), lambda s: s[::-1], seed)
        assert table(ahead) == table(behind)
        assert ahead.result() == behind.result()
        said = [e for e in ahead.st.trace if e[0] in ("say", "choice", "chance")]
        assert said == [e for e in behind.st.trace if e[0] in ("say", "choice", "chance")]


def test_every_seat_of_a_block_is_asked_at_once_each_on_its_own_copy():
    game = draft(3)
    assert game.collecting and game.deciding() == [0, 1, 2]
    hands = {s: game.view(s)["piles"]["drawn(seat %d)" % (s + 1)]["cards"] for s in range(3)}
    assert all(len(h) == 4 for h in hands.values())
    # seat 3 answers first; seats 1 and 2 still decide, and see nothing of it
    before = [game.view(s) for s in (0, 1, None)]
    game.choose(0, seat=2)
    assert game.deciding() == [0, 1] and game.decision(2) is None
    assert [game.view(s) for s in (0, 1, None)] == before
    with pytest.raises(ValueError, match="seat 3 has no decision"):
        game.choose(0, seat=2)
    assert "kept(seat 3)" in game.view(2)["piles"] and game.view(2)["piles"]["kept(seat 3)"]["count"] == 1
    game.choose(0, seat=1)
    game.choose(0, seat=0)
    assert game.st.g["round"] == 2 and game.deciding() == [0, 1, 2]   # revealed; the next block asks
    assert [seat for seat, _pick in game.moves()[:3]] == [2, 1, 0]


def test_a_record_of_seats_committing_out_of_order_replays_exactly(tmp_path):
    """A record says who took each decision; a replay takes each for its seat."""
    import json

    from interpreter.session.record import header
    from interpreter.table.replay import Replay

    loaded = load(DRAFT)
    plan = loaded.plan(3)
    game = played(Game(plan, 4, trace=True), lambda s: s[::-1], 4)
    head = header(loaded, plan, 4, ["random"] * 3)
    decisions = [{"type": "decision", "n": i + 1, "seat": seat, "pick": pick}
                 for i, (seat, pick) in enumerate(game.moves())]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(x) + "\n" for x in [head, *decisions]))
    r = Replay(plan, head, decisions, tmp_path / "r.jsonl")
    while r.forward():
        pass
    assert r.game.over and table(r.game) == table(game)


def test_a_record_from_before_streams_replays_as_it_was_played():
    """A record without `chance` was played with the seats borrowing the game's generator: it
    replays so (this game then fails as it did, which is how such records were made)."""
    old = draft(3, seed=2, streams=False)
    with pytest.raises(RuleError, match="no longer an option when revealed"):
        played(old, lambda s: s, 2)


def test_a_tape_reads_its_numbers_again_and_a_belief_keeps_only_those_drawn():
    tape = Tape("k")
    first = [tape.randrange(100) for _ in range(5)]
    again = tape.rewound()
    assert [again.randrange(100) for _ in range(5)] == first
    assert again.randrange(10**9) == tape.randrange(10**9)   # going on, from where the copy left off
    twin = tape.copy()
    assert [twin.random() for _ in range(3)] == [tape.random() for _ in range(3)]
    xs, ys = list(range(20)), list(range(20))
    Tape("k").shuffle(xs)
    random.Random("k").shuffle(ys)
    assert xs == ys   # the same numbers as a generator seeded alike
    bot = random.Random(9)
    believed = tape.believed(bot)
    rewound = believed.rewound()
    assert [rewound.randrange(100) for _ in range(5)] == first


# ---- every seat at once, bots and people ------------------------------------------------------------

def test_bots_decide_secret_blocks_on_what_they_may_know():
    from interpreter.agents.greedy import GreedyAgent
    from interpreter.agents.mcts import SearchAgent

    plan = load(DRAFT).plan(2)
    game = Game(plan, 3)
    game.choose(0, seat=1)   # seat 2 committed: seat 1's search cannot know to what
    bot = SearchAgent(1, budget=30)
    pick = bot.choose(game, game.decision(0))
    assert 0 <= pick < game.decision(0).count
    result = play(Game(plan, 5), [GreedyAgent(1), SearchAgent(2, budget=20)])
    assert result["rounds"] == 8


# ---- played once where that is safe -----------------------------------------------------------------

CASES = [("heat", (), (), "usa", 4), ("heat", (), ("garage",), "usa", 3),
         ("heat", (), ("weather",), "usa", 3), ("heat", ("tournament",), (), "usa", 3),
         ("heat", (), ("legends",), "usa", 2),
         ("downforce", (), (), None, 4), (DRAFT, (), (), None, 3), (SEALED, (), (), None, 3)]


@pytest.mark.parametrize("name, variants, modules, track, players", CASES)
def test_blocks_taken_from_their_copies_play_the_games_played_again_blocks_play(
        monkeypatch, name, variants, modules, track, players):
    """The property the proof of `check/secret.py` promises: every shipped game with a secret block
    (and the toy ones) plays the same taken in once or played twice: decisions, tables, the steps
    counted, the narrated log and the statistics' counts."""
    plan = load(name, list(variants), list(modules), track).plan(players)

    def games():
        out = []
        for seed in (1, 2):
            g = Game(plan, seed, trace=True, tally="counts")
            play(g, [RandomAgent(f"{seed}/{s}") for s in range(players)])
            out.append((g.answers, table(g), g.st.trace, g.st.tally.counts, g.result()))
        return out

    merged = []
    real = secret._merge

    def counting(st, sim, i):
        ok = real(st, sim, i)
        merged.append(ok)
        return ok
    monkeypatch.setattr(secret, "_merge", counting)
    once = games()
    assert merged and all(merged), "every block of these games is taken from its copy"
    monkeypatch.setattr(secret, "_merge", lambda st, sim, i: False)
    assert games() == once


def test_a_copy_that_changed_more_than_its_seat_is_played_again(monkeypatch, tmp_path):
    """The engine checks what a copy really changed before taking it in: a block the compiler was
    (wrongly) told touches only its seat's places is played again when it does not (here it counts
    the cards drawn in a game variable)."""
    import shutil

    from interpreter.check.secret import Secrecy
    from interpreter.compile.statements import Statements

    shutil.copytree(Path(DRAFT).parents[1], tmp_path, dirs_exist_ok=True)
    game_file = tmp_path / "rulesets" / "draft" / "game.yaml"
    text = game_file.read_text(encoding="utf-8")
    text = text.replace("  wind: {of: seat, visible: owner}\n",
                        "  wind: {of: seat, visible: owner}\n  drawn_in_all: {}\n")
    draw = "              draw 4 from deck(s) to drawn(s) face down\n"
    text = text.replace(draw, draw + "              drawn_in_all += 4\n")
    game_file.write_text(text, encoding="utf-8")
    folder = str(game_file.parent)
    plan = load(folder).plan(3)
    normal = [played(Game(plan, seed, trace=True), lambda s: s, seed) for seed in (1, 2)]
    assert normal[0].st.g["drawn_in_all"] == 3 * 8 * 4
    monkeypatch.setattr(Statements, "secrecy", lambda self, s: Secrecy(True, "told so", s.loc))
    forget_compiled()
    told = load(folder).plan(3)
    merged: list[bool] = []
    real = secret._merge
    monkeypatch.setattr(secret, "_merge", lambda st, sim, i: merged.append(real(st, sim, i)) or merged[-1])
    for seed, g in zip((1, 2), normal):
        again = played(Game(told, seed, trace=True), lambda s: s, seed)
        assert table(again) == table(g) and again.st.trace == g.st.trace
    assert merged and not any(merged)


# ---- a choice gone at the reveal ----------------------------------------------------------------------

SHARED_DECK = """\
language: 2
game: {id: shared, name: Shared deck, players: {min: 2, max: 3}}
include:
  - ../../cards/shared/cards.yaml
piles:
  deck: {visible: nobody}
  drawn: {of: seat, visible: owner}
  kept: {of: seat, visible: all}
setup: |
  shuffle deck
phases:
  - id: main
    order: "[seat(1)]"
    turn: leader
    steps:
      - id: pick
        do: |
          simultaneously for s in seats:
              draw 2 from deck to drawn(s) face down
              choose "Keep one" by s:
                  option "keep {c}" for c in distinct(drawn(s)):
                      move c to kept(s) face up
              move drawn(s) to deck face down at bottom
    rounds: 2
result:
  rank: "size(kept(seat))"
"""

SHARED_CARDS = """\
source: "authored for tests/test_secret.py (not printed data)"
cards:
  - {id: a, count: 1, starts_in: deck}
  - {id: b, count: 1, starts_in: deck}
  - {id: c, count: 1, starts_in: deck}
  - {id: d, count: 1, starts_in: deck}
  - {id: e, count: 1, starts_in: deck}
  - {id: f, count: 1, starts_in: deck}
"""


def _shared_deck(tmp_path: Path) -> Path:
    folder = tmp_path / "rulesets" / "shared"
    folder.mkdir(parents=True)
    (tmp_path / "cards" / "shared").mkdir(parents=True)
    (tmp_path / "cards" / "shared" / "cards.yaml").write_text(SHARED_CARDS, encoding="utf-8")
    path = folder / "game.yaml"
    path.write_text(SHARED_DECK, encoding="utf-8")
    return path


def test_a_choice_another_seats_block_took_away_names_the_seat_and_the_statement(tmp_path):
    path = _shared_deck(tmp_path)
    game = Game(load(str(path.parent)).plan(2), 1)
    # both seats drew the same two cards on their copies; seat 1's block takes them at the reveal
    assert game.decision(0).labels() == game.decision(1).labels()
    game.choose(0, seat=1)
    with pytest.raises(RuleError) as e:
        game.choose(0, seat=0)
    said = str(e.value)
    assert f"{path}:20:15: seat 2's committed choice \"keep " in said
    assert "is no longer an option when revealed: seat 1's block, revealed before it, took " in said
    assert f"from deck at {path}:19:15 (`draw 2 from deck to drawn(s) face down`)" in said


def test_validate_warns_where_a_block_reads_what_the_seats_blocks_change(tmp_path):
    path = _shared_deck(tmp_path)
    report = Report()
    rs = load_ruleset(path.parent, report=report)
    assert rs is not None and compile_ruleset(rs, 2, report) is not None
    warned = [d for d in report.items if d.code == "W160"]
    assert warned and warned[0].loc.line == 19 and "pile `deck`" in warned[0].message
    # the toy games and every shipped game with a secret block read only their seat's places
    for name, variants, modules, track, players in CASES:
        report = Report()
        rs = load_ruleset(Path(load(name).path), variants=list(variants), modules=list(modules),
                          report=report, track=track)
        assert rs is not None and compile_ruleset(rs, players, report) is not None
        assert not [d for d in report.items if d.code == "W160"], report.render()


def test_a_secret_draft_played_and_logged_replays_exactly(tmp_path, capsys):
    from interpreter.cli import main

    log = tmp_path / "draft.jsonl"
    assert main(["play", DRAFT, "--seats", "random,greedy,random", "--seed", "3", "--log", str(log)]) == 0
    assert '"chance": 2' in log.read_text().splitlines()[0]
    capsys.readouterr()
    assert main(["replay", str(log), "--ruleset", DRAFT]) == 0
    assert "replayed exactly" in capsys.readouterr().out


def test_explain_says_which_blocks_are_played_once(tmp_path):
    from interpreter.authoring.explain import explain

    said = explain(load("heat"), 2, "round_begins", False)
    lines = (Path(__file__).resolve().parents[1] / "rulesets" / "heat" / "game.yaml").read_text().splitlines()
    line = next(i + 1 for i, text in enumerate(lines) if text.strip().startswith("simultaneously for s"))
    assert f"# the `simultaneously` at rulesets/heat/game.yaml:{line}:7: played once: each seat's block " \
           "changes only its own seat's places" in said
    shared = explain(load(str(_shared_deck(tmp_path).parent)), 2, "pick", False)
    assert "played again at the reveal: it changes pile `deck`, not only its seat's own (at " in shared


def test_a_record_written_before_chance_was_noted_replays_with_the_old_rule(tmp_path, capsys):
    """A record without `chance` (every record before streams) is replayed with the seats' copies
    borrowing the game's generator, as it was played; a game with no chance in its secret blocks
    plays the same either way."""
    import json

    from interpreter.cli import main
    from interpreter.table.replay import Replay

    log = tmp_path / "sealed.jsonl"
    assert main(["play", SEALED, "--seats", "random,random,random", "--seed", "5", "--log", str(log)]) == 0
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[0].pop("chance") == 2
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    capsys.readouterr()
    assert main(["replay", str(log), "--ruleset", SEALED]) == 0
    assert "replayed exactly" in capsys.readouterr().out
    plan = load(SEALED).plan(3)
    r = Replay(plan, lines[0], [x for x in lines if x["type"] == "decision"], log)
    assert r.game.st.streams is False
    while r.forward():
        pass
    assert r.game.over


BLOCKS = """\
language: 2
game: {id: blocks, name: Blocks, players: {min: 2, max: 3}}
include:
  - ../../cards/shared/cards.yaml
pieces:
  riders: {count: 6}
piles:
  deck: {visible: nobody}
  hand: {of: seat, visible: owner}
  bag: {of: piece, visible: owner}
state:
  bid: {of: seat}
  score: {of: seat}
  effort: {of: piece}
  pot: {}
functions:
  best_other:
    params: {s: seat}
    value: 'max([t.bid for t in seats if t != s] + [0])'
setup: |
  let k = 0
  for r in riders:
      k += 1
      r.owner = seat(1 + k % 2)
  draw 1 from deck to bag(riders[1])
phases:
  - id: main
    order: "[seat(1)]"
    turn: leader
    steps:
      - id: pick
        do: |
          let theirs = hand(seat(2))
          simultaneously for s in seats:
BODY
    rounds: 1
result:
  rank: "seat.score"
"""


@pytest.mark.parametrize("body, once, warned", [
    # its own variables, its pieces' variables and piles: taken in from its copy
    ("choose by s:\n    option \"bid {n}\" for n in 1..3:\n        s.bid = n", True, False),
    ("for r in s.pieces:\n    r.effort += 1\n    move cards(bag(r)) to hand(s)", True, False),
    # another seat's bid, read directly or through a function: played again, and said
    ("choose by s:\n    option \"beat {n}\" for n in [seats[1].bid + 1]:\n        s.bid = n", False, True),
    ("s.bid = best_other(s) + 1", False, True),
    # a game variable or a shared pile changed: played again
    ("pot += 1", False, False),
    ("draw 1 from deck to hand(s)", False, True),
    # a pile named through a local from outside the block: not known to be the seat's
    ("for c in theirs:\n    move c to hand(s)", False, True),
    # a piece not known to be the seat's
    ("riders[1].effort = 1", False, False),
    # one name for the cards of two options: each option's own (the shared deck only read)
    ("choose by s:\n    option \"eye {c}\" for c in cards(deck):\n        s.bid = 1\n"
     "choose by s:\n    option \"turn {c}\" for c in hand(s):\n        move c to hand(s) face up\n"
     "    option \"none\":\n        pass", True, False),
])
def test_the_checker_finds_what_a_seats_block_touches(tmp_path, body, once, warned):
    """On a game invented here (riders with bags of their own): which blocks are played once, and
    where a block reads what the seats' blocks change (W160)."""
    from interpreter.check import check

    folder = tmp_path / "rulesets" / "blocks"
    folder.mkdir(parents=True)
    (tmp_path / "cards" / "shared").mkdir(parents=True)
    (tmp_path / "cards" / "shared" / "cards.yaml").write_text(SHARED_CARDS, encoding="utf-8")
    indented = "\n".join("              " + line for line in body.splitlines())
    (folder / "game.yaml").write_text(BLOCKS.replace("BODY", indented), encoding="utf-8")
    report = Report()
    rs = load_ruleset(folder, report=report)
    assert rs is not None, report.render()
    checked = check(rs, report)
    assert checked is not None, report.render()
    (found,) = checked.secrets.values()
    assert found.once is once, found.why
    assert any(d.code == "W160" for d in report.items) is warned, report.render()
    # and either way the game plays as it would were every block played again
    plan = compile_ruleset(rs, 3, Report())
    assert plan is not None
    game = played(Game(plan, 1, trace=True), lambda s: s[::-1], 1)
    assert game.over


ARRANGED = """\
scenario: {name: arranged secret rolls, source: tests/test_secret.py}
ruleset: RULESET
players: 2
seed: 3
situation: |
  for s in seats:
      set_pile(deck(s), ["e2", "e2", "e3", "e3", "e4", "e4", "e5", "e5"], "face down")
  next_rolls(wind, [3, 1])
script:
  - remember: {seen1: 'seat(1).wind'}
  - choose: "keep 5"
  - remember: {seen2: 'seat(2).wind'}
  - choose: "keep 4"
  - expect: 'seen1 == 3 and seen2 == 1 and seat(1).distance == 8 and seat(2).distance == 5'
  - remember: {again1: 'seat(1).wind'}
  - choose: "keep 3"
  - remember: {again2: 'seat(2).wind'}
  - choose: "keep 2"
  - expect: 'seat(1).distance == 11 + again1 and seat(2).distance == 7 + again2'
"""


@pytest.mark.parametrize("merged", [True, False])
def test_rolls_a_scenario_arranges_are_taken_once_by_the_seats_blocks_in_turn(tmp_path, monkeypatch, merged):
    """`next_rolls` before a secret block: each seat's block takes the next arranged face where it
    rolls, sees it while it chooses, and the reveal reads the same face (taken from its copy, or
    played again); no face is taken twice (each copy took the first, and the rest were left for
    later rounds)."""
    from interpreter.authoring.scenario import run_scenario

    if not merged:   # every block played again at the reveal
        monkeypatch.setattr(secret, "_merge", lambda st, sim, i: False)
    path = tmp_path / "arranged.yaml"
    path.write_text(ARRANGED.replace("RULESET", DRAFT), encoding="utf-8")
    out = run_scenario(path)
    assert out.passed, out.report.render()


# the shared deck's game with a market of three cards (two of one type) instead of the deck
MARKET = SHARED_DECK.replace("id: shared, name: Shared deck", "id: market, name: Market").replace(
    "include:\n  - ../../cards/shared/cards.yaml\n",
    "cards:\n  x: {count: 1, starts_in: market}\n  b: {count: 2, starts_in: market}\n").replace(
    "  deck: {visible: nobody}\n  drawn: {of: seat, visible: owner}\n", "  market: {visible: all}\n").replace(
    "setup: |\n  shuffle deck\n", "").replace("""\
              draw 2 from deck to drawn(s) face down
              choose "Keep one" by s:
                  option "keep {c}" for c in distinct(drawn(s)):
                      move c to kept(s) face up
              move drawn(s) to deck face down at bottom
    rounds: 2""", """\
              choose "Take a card of the market" by s:
                  option "take {c}" for c in distinct(market):
                      move c to kept(s) face up
                  option "take nothing":
                      pass
    rounds: 1""")


def test_a_committed_choice_still_offered_at_another_place_in_the_list_is_taken(tmp_path):
    """Seat 1 takes x, seat 2 one of the two b's: at the reveal x is gone, so "take b" is the first
    option, no longer the second; it is still offered, and taken (it was said no longer an option)."""
    folder = tmp_path / "rulesets" / "market"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(MARKET, encoding="utf-8")
    game = Game(load(str(folder)).plan(2), 1)
    assert game.decision(0).labels() == game.decision(1).labels() == ["take x", "take b", "take nothing"]
    game.choose(0, seat=0)
    game.choose(1, seat=1)
    assert game.over
    view = game.view(None)
    assert game.result()["winners"] == [0, 1], (game.result(), view)


# one x and one b, and no "take nothing": what a seat committed may be the one option left
LAST_CARDS = MARKET.replace("b: {count: 2,", "b: {count: 1,").replace(
    '                  option "take nothing":\n                      pass\n', "")


def _last_cards(tmp_path: Path) -> Game:
    folder = tmp_path / "rulesets" / "market"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(LAST_CARDS, encoding="utf-8")
    game = Game(load(str(folder)).plan(2), 1)
    assert game.decision(0).labels() == game.decision(1).labels() == ["take x", "take b"]
    return game


def test_a_committed_choice_left_as_the_only_option_is_taken_at_the_reveal(tmp_path):
    """Seat 1 takes x, seat 2 b: at the reveal b is the one option left, which is what seat 2
    committed (it stopped the game: "made fewer choices when revealed than it committed")."""
    game = _last_cards(tmp_path)
    game.choose(0, seat=0)
    game.choose(1, seat=1)
    assert game.over and game.result()["winners"] == [0, 1]


def test_a_committed_choice_gone_with_one_other_option_left_is_said_gone(tmp_path):
    """Both take b: at the reveal seat 2's one option is x, which it did not choose: its choice is
    said no longer an option (x was taken for it, and the error said "fewer choices")."""
    game = _last_cards(tmp_path)
    game.choose(1, seat=0)
    said = ('seat 2\'s committed choice "take b" is no longer an option when revealed: '
            "seat 1's block, revealed before it, took b from market")
    with pytest.raises(RuleError, match=said):
        game.choose(1, seat=1)


def test_a_choice_in_a_seats_block_asked_of_another_seat_is_a_rule_error(tmp_path):
    """Asked on seat 2's own copy, seat 1 would see what seat 2 did in secret (its score, its
    cards): each seat's block asks its own seat only, said at the choice."""
    folder = tmp_path / "rulesets" / "market"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(MARKET.replace(
        '                  option "take nothing":\n                      pass\n',
        '                  option "take nothing":\n                      pass\n'
        '              choose "Seat 1 sees this block" by seat(1):\n'
        '                  option "yes":\n                      pass\n'
        '                  option "no":\n                      pass\n'), encoding="utf-8")
    from interpreter.check import check

    report = Report()   # validate says it first, at the `by`
    rs = load_ruleset(folder, report=report)
    assert rs is not None and check(rs, report) is not None
    (warned,) = [d for d in report.items if d.code == "W161"]
    assert warned.loc.line == 22 and "asked by something else than `s`" in warned.message
    game = Game(load(str(folder)).plan(2), 1)
    game.choose(0, seat=0)      # seat 1's block: its two choices are its own
    game.choose(0, seat=0)
    said = (r"game\.yaml:22:15: a choice in seat 2's block of a `simultaneously` is "
            "asked of seat 1: each seat's block asks its own seat only")
    with pytest.raises(RuleError, match=said):
        game.choose(1, seat=1)


# ---- the one-move bots in a secret step ---------------------------------------------------------------

def test_simulate_says_where_greedy_cannot_tell_a_secret_choices_options_apart(capsys, tmp_path):
    """The draft's `evaluate:` reads only the distance driven, which a seat's choice of energy in its
    secret block does not change before the reveal: greedy chose at random there, and is told so."""
    from conftest import run_cli

    rows = tmp_path / "games.jsonl"
    rc, _out, err = run_cli(capsys, "simulate", DRAFT, "--players", 3, "--seats", "greedy,greedy,random",
                            "--games", 30, "--seed", 1, "--jobs", 1, "--export", rows)
    assert rc == 0
    notes = [line for line in err.splitlines() if "chose at random" in line]
    assert len(notes) == 1, err
    assert "draft/game.yaml:37:15 (steps.energy)" in notes[0] and "before the reveal" in notes[0], notes
    judged = [r["ties"] for r in map(json.loads, rows.read_text().splitlines())]
    key = next(k for k in judged[0] if k.endswith("(steps.energy)"))
    assert all(r[key][0] == r[key][1] > 0 and r[key][2] == 1 for r in judged)
    # a game whose evaluation tells its choices apart is said nothing of
    rc, _out, err = run_cli(capsys, "simulate", "formula5", "--players", 3, "--seats", "greedy,greedy,greedy",
                            "--games", 20, "--seed", 1, "--jobs", 1)
    assert rc == 0 and "chose at random" not in err, err
