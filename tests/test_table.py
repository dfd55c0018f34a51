"""The table as players meet it: the narrated log each game declares (`say`), the screen each seat
sees (a view declared in content, fitting 80x24, in words a player reads), options that keep their
keys, undo and resume, hot-seat, and replays you can step through."""
from __future__ import annotations

import io
import json
import random
import re

import pytest

from interpreter.cli import main
from interpreter.engine.game import Game
from interpreter.lang.diagnostics import Report
from interpreter.session.budget import budget
from interpreter.table.terminal.human import HumanAgent, Keys, pick_option
from interpreter.table.terminal.screen import Terminal
from interpreter.session.agents import make_agents
from interpreter.session.load import load
from interpreter.session.playing import play
from interpreter.table.terminal.table import Table
from interpreter.table.terminal.view import render_view
from interpreter.agents.base import RandomAgent

GAMES = [("formula5", ()), ("tilerace", ()), ("downforce", ()), ("heat", ()),
         ("heat", ("garage", "legends", "weather"))]


def transcript(capsys, game: str, players: int = 4, modules=(), seed: int = 7) -> str:
    argv = ["play", game, "--seats", ",".join(["random"] * players), "--seed", str(seed)]
    for m in modules:
        argv += ["--module", m]
    assert main(argv) == 0
    return capsys.readouterr().out


# ---- the narrated log -----------------------------------------------------------------------------

@pytest.mark.parametrize("game, players, modules, said", [
    ("formula5", 4, (), ["Round 1: yellow, white, green, blue, red",
                         "  yellow (no player) draws green: speed 2",
                         "  green (seat 4) plays blue: speed 2",
                         "  green overtakes white: now 2nd",
                         "  red (seat 3) makes a pit stop and changes 3 cards: speed 0 this round"]),
    ("tilerace", 4, (), ["Round 1: car2 square A1; car4 square G1; car1 square A5; car3 square G5",
                         "  seat 1 puts its car on A5, the yellow start",
                         "  seat 1 reveals B5, a curve, turns it ┐ and drives onto it",
                         "  seat 3 swaps the face-down squares C3 and E4",
                         "  seat 4 reaches the pit stop and takes a victory token: green, "
                         "the square to reach",
                         "  200 rounds and nobody has won: the race is a draw"]),
    ("downforce", 4, (), ["Round 1: black cell a4, lane 1; red cell c4, lane 3; blue cell b3, lane 2;",
                          "    orange cell a2, lane 1; yellow cell c2, lane 3; green cell b1, lane 2",
                          "  up for auction: the green car, with the power Resourceful (Находчивый)",
                          "  seat 2 buys the green car for 4 and takes its power card",
                          "  seat 2 plays yellow6-orange3-black1",
                          "  yellow moves 6 cells, c2 to c8",
                          "  red moves 3 cells from b54 and crosses the finish line: 1st"]),
    ("heat", 4, (), ["Round 1: red space 68 spot 1, lap 1/2; blue space 68 spot 2, lap 1/2;",
                     "    black space 67 spot 1, lap 1/2; green space 67 spot 2, lap 1/2",
                     "  black (seat 1) shifts to gear 3, two gears at once, for 1 heat",
                     "  black (seat 1) reveals 4, 3 and 1",
                     "  black overtakes red and blue: now 1st",
                     "  red takes corner A at speed 9, limit 7: pays 2 heat",
                     "  blue spins out at corner B (speed 10, limit 3, 2 heat left): all its heat is spent",
                     "  red finishes 4th"]),
    ("heat", 2, ("garage", "legends", "weather"),
     ["  the weather: storm (one stress card more in your deck; slipstream +2 in weather sectors)",
      "  corner D: speed limit -1 (corner)",
      "  black (seat 1) takes the upgrade Brakes: speed 1 or 3",
      "  the legends reveal legend card 2: it drives every legend this round",
      "  green (legend, top speed 12) drives 12 to space 11"]),
])
def test_each_game_tells_its_moves(capsys, game, players, modules, said):
    """Pinned lines of each game's log (seed 7): the rounds' headings say where every car is on
    every kind of board (a ranking, cells, tiles, lanes), the lines under them what happened."""
    out = transcript(capsys, game, players, modules).splitlines()
    for line in said:
        assert line in out, line


def test_play_and_replay_print_the_same_log(tmp_path, capsys):
    for game, modules in [("downforce", ()), ("heat", ("garage", "legends", "weather"))]:
        log = tmp_path / f"{game}.jsonl"
        argv = ["play", game, "--seats", "random,random", "--seed", "3", "--log", str(log)]
        for m in modules:
            argv += ["--module", m]
        assert main(argv) == 0
        played = capsys.readouterr().out
        assert main(["replay", str(log)]) == 0
        replayed = capsys.readouterr().out
        told = played.split("\n", 1)[1].split("\nFinal table:")[0].rstrip("\n")
        assert told.count("\n") > 20
        assert replayed.split("\n", 1)[1].split("\nresult:")[0] == told, game


def test_what_is_said_changes_no_game():
    """A game told aloud (trace on) is the same game as one played in silence."""
    for game, modules in [("formula5", ()), ("downforce", ()), ("heat", ("garage", "legends", "weather"))]:
        plan = load(game, modules=modules).plan(3)
        answers = []
        for trace in (False, True):
            g = Game(plan, 11, trace=trace)
            play(g, [RandomAgent(f"s/{s}") for s in range(plan.n_seats)])
            answers.append((g.answers, g.result()["order"], g.st.rng.random()))
        assert answers[0] == answers[1], game


def test_a_say_may_not_draw_chance(tmp_path):
    from interpreter.compile import compile_ruleset
    from interpreter.load.ruleset import load_ruleset

    folder = tmp_path / "rulesets" / "chancy"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text("""\
game: {id: chancy, name: Chancy, players: {min: 2, max: 2}}
pieces:
  cars: {count: 2}
functions:
  pick:
    value: "first(shuffled(cars))"
phases:
  - id: main
    order: "seats"
    turn: s
    steps:
      - id: go
        do: |
          say "{first(shuffled(cars))} and {pick()}"
    rounds: 1
result:
  rank: "0"
""", encoding="utf-8")
    report = Report()
    rs = load_ruleset(folder, report=report)
    assert rs is not None
    assert compile_ruleset(rs, 2, report) is None
    assert [d.code for d in report.items] == ["E147"] and "`shuffled`" in report.items[0].message


# ---- what a player sees ---------------------------------------------------------------------------

class Typist:
    """Entries as from a file: a key among those offered at each screen, at random."""

    def __init__(self, seed: int, limit: int):
        self.rng, self.limit, self.keys, self.n = random.Random(seed), limit, [1], 0

    def readline(self) -> str:
        self.n += 1
        if self.n > self.limit:
            return ""
        return f"{self.rng.choice(self.keys)}\n"

    def isatty(self) -> bool:
        return False


def screens(game: str, modules=(), players: int = 4, limit: int = 60, seats=None):
    """Every screen a person at seat 1 sees (view, prompt, options) in a game against bots."""
    plan = load(game, modules=modules).plan(players)
    out = io.StringIO()
    g = Game(plan, 7, trace=True)
    kinds = seats or ["human"] + ["random"] * (players - 1)
    typist = Typist(7, limit)
    table = Table(g, kinds, Terminal(out), typist)
    shown = []
    real = table.show_screen

    def spy(game_, d, labels, keys):
        start = len(out.getvalue())
        typist.keys = keys
        real(game_, d, labels, keys)
        shown.append(out.getvalue()[start:].strip("\n").splitlines())

    table.show_screen = spy
    agents = make_agents(kinds, 7, human_factory=lambda: HumanAgent(typist, out, table))
    try:
        table.run(agents, budget)
    except EOFError:
        pass
    return plan, g, shown, out.getvalue()


def internal_names(plan) -> set[str]:
    """Names a designer wrote for the engine, not for players: piles, boards, variables, card ids
    (those that are not also what players read)."""
    shown = set(plan.card_names)
    names = (set(plan.pile_decl) | set(plan.board_names) | {k[1] for k in plan.var_types}
             | set(plan.card_types))
    return {n for n in names if "_" in n and n not in shown}


@pytest.mark.parametrize("game, modules", GAMES)
def test_screens_speak_to_players_and_fit_80_by_24(game, modules):
    plan, g, shown, everything = screens(game, modules, players=4 if game != "heat" or not modules else 2)
    assert len(shown) >= 10
    names = internal_names(plan)
    for screen in shown:
        rows = len(screen) + 1  # the prompt's own row, where the person types
        assert rows <= 24, "\n".join(screen)
        assert max(len(line) for line in screen) <= 80, "\n".join(screen)
    final = render_view(g.view(None), plan)
    for text in (everything, final):
        for bad in ("None", "True", "False", "(yours)", "hand(seat"):
            assert bad not in text, bad
        assert not re.search(r"[\[\]{}]", text), re.search(r".*[\[\]{}].*", text).group(0)
        for name in names:
            assert not re.search(rf"\b{re.escape(name)}\b", text), name


def test_a_hand_is_grouped_and_sorted():
    _plan, _g, shown, _all = screens("formula5", limit=3)
    hand = next(line for line in shown[0] if line.startswith("your hand: "))
    cards = hand.split(": ", 1)[1].split(", ")
    assert any(" ×" in c for c in cards)
    assert cards == sorted(cards, key=lambda c: c.split(" ×")[0])
    assert len({c.split(" ×")[0] for c in cards}) == len(cards)


def test_an_option_shows_what_it_would_do():
    _plan, _g, shown, _all = screens("formula5", limit=40)
    options = [line for screen in shown for line in screen if re.match(r"\s+\d+\. ", line)]
    assert any("→ speed" in line for line in options)
    assert any("passes" in line for line in options)
    # a pit stop is the seat's own to see: speed 0 and in the pits
    assert any(line.endswith("pit stop with a pit stop card  → speed 0, in the pits") for line in options)


def test_the_colour_terminal_draws_words_in_colour():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    raw = Tty()
    term = Terminal(raw, raw, {"purple": "magenta"})
    if term.console is None:  # NO_COLOR in the environment: plain text, nothing to check
        return
    term.line("your hand: purple ×3, \x1b[2J", "you")
    text = raw.getvalue()
    # the word in its colour (35: magenta), the escape a ruleset wrote shown, not obeyed
    assert "\x1b[1;35mpurple" in text and "×3" in text and "\\x1b[2J" in text


# ---- keys, words, undo, resume, hot-seat -----------------------------------------------------------

def test_an_option_keeps_its_key_across_the_cards_of_a_step():
    keys = Keys()
    first = keys.assign(0, "play", ["play 1", "play 2", "play 4", "play 3"])
    assert first == [1, 2, 3, 4]
    # the second card: `play 2` was played, the others keep their keys; a card drawn takes a free one
    again = keys.assign(0, "play", ["play 1", "play 4", "play 3", "play 5"])
    assert again == [1, 3, 4, 2]
    # another choice has keys of its own
    assert keys.assign(0, "shift", ["stay", "up"]) == [1, 2]
    # next round, in another order: still the same keys
    assert keys.assign(0, "play", ["play 3", "play 1"]) == [4, 1]


def test_typing_an_options_words_picks_it():
    labels = ["play red", "play purple", "pit stop with a pit stop card"]
    keys = [1, 2, 3]
    assert pick_option("play red", labels, keys) == 0
    assert pick_option("  PLAY   purple ", labels, keys) == 1
    assert pick_option("pit", labels, keys) == 2          # the start of only one option
    assert pick_option("play", labels, keys) is None      # the start of two
    assert pick_option("3", labels, keys) == 2 and pick_option("4", labels, keys) is None


def test_heat_keeps_keys_for_each_card_played(monkeypatch, capsys):
    # gear 2, then the first of two cards: the options left keep their numbers for the second
    monkeypatch.setattr("sys.stdin", io.StringIO("shift to gear 2\n2\n"))
    assert main(["play", "heat", "--seats", "human,random", "--seed", "3"]) == 1  # the input ends
    out = capsys.readouterr().out
    steps = out.split("Step 2: play card ")[1:]
    assert len(steps) == 2
    first = dict(re.findall(r"(\d+)\. (play [^\n]+)", steps[0]))
    second = dict(re.findall(r"(\d+)\. (play [^\n]+)", steps[1]))
    assert {k: v for k, v in second.items() if v in first.values()} == \
        {k: v for k, v in first.items() if v in second.values()}
    assert "or type an option's words" in out


def test_undo_takes_back_the_last_decision_against_bots(tmp_path, monkeypatch, capsys):
    log = tmp_path / "g.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("play red\nu\nplay purple\n" + "".join(
        f"{1 + i % 9}\n" for i in range(400))))
    assert main(["play", "formula5", "--seats", "human,random", "--seed", "3", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "(seat 1 takes back its last decision)" in out and "(u: undo)" in out
    first = json.loads(log.read_text().splitlines()[1])
    assert first["seat"] == 0 and first["label"] == "play purple"
    assert main(["replay", str(log)]) == 0 and "replayed exactly" in capsys.readouterr().out


def test_an_abandoned_game_is_resumed_from_its_record(tmp_path, monkeypatch, capsys):
    log = tmp_path / "g.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n2\n"))
    assert main(["play", "formula5", "--seats", "human,random", "--seed", "3", "--log", str(log)]) == 1
    err = capsys.readouterr().err
    assert f"racecraft play --resume {log}" in err
    kept = log.read_text().splitlines()
    assert len(kept) >= 3 and json.loads(kept[-1])["type"] == "decision"
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{1 + i % 9}\n" for i in range(400))))
    assert main(["play", "--resume", str(log)]) == 0
    out = capsys.readouterr().out
    assert f"resumed after {len(kept) - 1} decisions" in out and "Result:" in out
    records = [json.loads(x) for x in log.read_text().splitlines()]
    assert records[1:len(kept)] == [json.loads(x) for x in kept[1:]]
    assert records[-1]["type"] == "result"
    assert main(["replay", str(log)]) == 0 and "replayed exactly" in capsys.readouterr().out


def test_hot_seat_hides_a_hand_behind_a_pass_screen(monkeypatch, capsys):
    entries = "".join(f"\n{1 + i % 9}\n" for i in range(400))
    monkeypatch.setattr("sys.stdin", io.StringIO(entries))
    main(["play", "formula5", "--seats", "human,human", "--seed", "3"])
    out = capsys.readouterr().out
    assert "Pass to seat 2: press Enter when seat 2 is ready." in out
    assert "Pass to seat 1: press Enter" in out
    assert "(u: undo)" not in out  # no undo between people
    # between seat 1's screen and seat 2's, the pass screen
    first_two = out.index("you are seat 2")
    assert out.rfind("Pass to seat 2", 0, first_two) > out.rfind("you are seat 1", 0, first_two)


# ---- replay you can step through ------------------------------------------------------------------

def test_replay_at_a_decision_and_stepping_back_and_forth(tmp_path, monkeypatch, capsys):
    log = tmp_path / "g.jsonl"
    assert main(["play", "heat", "--seats", "random,random,random", "--seed", "5", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log), "--at", "30"]) == 0
    at30 = capsys.readouterr().out
    assert "Decision 30 of " in at30 and "  chose: " in at30 and "Heat: Pedal to the Metal · round" in at30
    assert at30.lstrip().startswith("Round ")  # the log of the round so far, then the table
    # forward twice, back twice: the same table as before
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\nb\nb\n5\nq\n"))
    assert main(["replay", str(log), "--at", "30", "--step"]) == 0
    out = capsys.readouterr().out
    tables = [t.split(": quit: ")[-1] for t in out.split("Enter: next, b: back")]
    assert len(tables) == 7
    assert "Decision 31 of" in tables[1] and "Decision 32 of" in tables[2]
    assert tables[4].strip() == tables[0].strip() == at30.strip()
    assert "Decision 5 of" in tables[5]
    assert main(["replay", str(log), "--at", "30", "--seat", "2"]) == 0
    assert "you are seat 2" in capsys.readouterr().out
