"""The table as players meet it: the narrated log each game declares (`say`), the screen each seat
sees (a view declared in content, fitting 80x24, in words a player reads), options that keep their
keys, undo and resume, hot-seat, and replays you can step through."""
from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.engine.game import Game
from interpreter.base.diagnostics import Report
from interpreter.session.budget import budget
from interpreter.table.keys import Keys, typed
from interpreter.table.terminal.human import HumanAgent
from interpreter.table.terminal.screen import Terminal
from interpreter.session.agents import make_agents
from interpreter.session.load import load
from interpreter.session.playing import play
from interpreter.table.terminal.table import Table
from interpreter.table.terminal.view import render_view
from interpreter.agents.base import RandomAgent

ROOT = Path(__file__).resolve().parents[1]

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
        self.rng, self.limit, self.keys, self.n = random.Random(seed), limit, ["a"], 0

    def readline(self) -> str:
        self.n += 1
        if self.n > self.limit:
            return ""
        return f"{self.rng.choice(self.keys)}\n"

    def isatty(self) -> bool:
        return False


def screens(game: str, modules=(), players: int = 4, limit: int = 60, seats=None, seed: int = 7):
    """Every screen a person at seat 1 sees (view, prompt, options) in a game against bots."""
    plan = load(game, modules=modules).plan(players)
    out = io.StringIO()
    g = Game(plan, seed, trace=True)
    kinds = seats or ["human"] + ["random"] * (players - 1)
    typist = Typist(seed, limit)
    table = Table(g, kinds, Terminal(out), typist)
    shown = []
    real = table.show_screen

    def spy(game_, asked):
        start = len(out.getvalue())
        typist.keys = [o.key for o in asked.options]
        real(game_, asked)
        shown.append(out.getvalue()[start:].strip("\n").splitlines())

    table.show_screen = spy
    agents = make_agents(kinds, seed, human_factory=lambda: HumanAgent(typist, out, table))
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


@pytest.mark.parametrize("game, modules, seed", [(g, m, 7) for g, m in GAMES] + [("downforce", (), 1)])
def test_screens_speak_to_players_and_fit_80_by_24(game, modules, seed):
    """At four players (two with Heat's modules): within 80x24, what each option would do told
    whole, the seat named once, no name written for the engine."""
    plan, g, shown, everything = screens(game, modules, players=4 if game != "heat" or not modules else 2,
                                         seed=seed, limit=120)
    assert len(shown) >= 10
    names = internal_names(plan)
    for screen in shown:
        rows = len(screen) + 1  # the prompt's own row, where the person types
        assert rows <= 24, "\n".join(screen)
        assert max(len(line) for line in screen) <= 80, "\n".join(screen)
        assert not any(line.endswith("…") for line in screen), "\n".join(screen)
        assert not re.search(r"Seat (\d+): seat \1\b", "\n".join(screen), re.I), "\n".join(screen)
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
    options = [line for screen in shown for line in screen if re.match(r"\s+[a-z]+\) ", line)]
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

def test_an_option_keeps_its_key_while_the_same_choice_comes_back_at_once():
    keys = Keys()
    assert keys.assign(0, "play", ["play 1", "play 2", "play 3", "play 4"], 10) == ["a", "b", "c", "d"]
    # asked again (the screen drawn again): the same keys
    assert keys.assign(0, "play", ["play 1", "play 2", "play 3", "play 4"], 10) == ["a", "b", "c", "d"]
    # the second card, at the next decision: `play 2` was played, the others keep their keys
    assert keys.assign(0, "play", ["play 1", "play 3", "play 4"], 11) == ["a", "c", "d"]
    # another choice has keys of its own
    assert keys.assign(0, "shift", ["stay", "up"], 12) == ["a", "b"]
    # the same choice after another decision (the next round's): lettered afresh from `a`
    assert keys.assign(0, "play", ["play 1", "play 4"], 13) == ["a", "b"]
    assert keys.assign(0, "play", ["play 4"], 14) == ["b"]
    assert keys.assign(0, "play", ["play 3", "play 4"], 20) == ["a", "b"]
    # a card drawn: the choice is lettered afresh, in the order shown
    assert keys.assign(0, "play", ["play 1", "play 4", "play 5"], 21) == ["a", "b", "c"]
    # two options that read the same have keys of their own; `u` is never a key (it is undo)
    assert keys.assign(1, "x", ["go", "go"], 22) == ["a", "b"]
    many = keys.assign(1, "y", [f"square {i}" for i in range(30)], 23)
    assert "u" not in many and len(set(many)) == 30 and many[25] == "aa"


def test_each_round_s_choice_starts_at_a(monkeypatch, capsys):
    """Formula 5: a person's card each round, bots between: every round's options start at `a`."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{'abc'[i % 3]}\n" for i in range(300))))
    assert main(["play", "formula5", "--seats", "human,random", "--seed", "3", "--no-log"]) == 0
    prompts = re.findall(r"^Choose (\S+)", capsys.readouterr().out, re.M)
    assert len(prompts) > 5 and all(p.startswith("a") for p in prompts), prompts


def test_typing_a_key_or_words_picks_an_option_or_names_those_it_fits():
    labels = ["play 3", "play 4", "play 5 (upgrade)", "pit stop with a pit stop card",
              "pit stop with 3 face down"]
    keys = ["a", "b", "c", "d", "e"]
    assert typed("B", keys, labels) == [1]
    assert typed("  PLAY   4 ", keys, labels) == [1]
    assert typed("4", keys, labels) == [1]               # a card's value: the option of that card
    assert typed("5", keys, labels) == [2]
    assert typed("3", keys, labels) == [0, 4]            # two options hold it: both named
    assert typed("pit", keys, labels) == [3, 4]          # the start of two
    assert typed("pit stop with a", keys, labels) == [3]
    assert typed("6", keys, labels) == [] and typed("", keys, labels) == []
    assert typed("1", ["a"], ["B12"]) == []              # a number inside a word is not that number


def test_a_letter_that_is_no_key_picks_nothing():
    """A letter left over from the last screen (its keys were a-d, these are b and c) is no option,
    even where an option's words start with it (`d` took "discard 2 and 4")."""
    labels = ["boost", "discard 2 and 4", "done"]
    assert typed("d", ["a", "b", "c"], labels) == [] and typed("b", ["b", "c", "e"], labels) == [0]
    assert typed("x", ["a"], ["x"]) == [0]               # the whole of a label is still that option
    assert typed("di", ["a", "b", "c"], labels) == [1]   # words: the start of one option's


def test_a_hands_options_are_sorted_as_the_hand_and_lettered(capsys, monkeypatch):
    """Heat with the Garage: the cards to play in the order the hand shows them, lettered, whatever
    order they were dealt in; typing a card's value plays that card."""
    monkeypatch.setattr("sys.stdin", io.StringIO("b\n" + "a\n" * 6))
    main(["play", "heat", "--module", "garage", "--variant", "garage-quick-start",
          "--seats", "human,random", "--seed", "7"])
    out = capsys.readouterr().out
    step = out.split("Step 2: play card 1 of")[1].split("Choose")[0]
    hand = out.split("Step 2: play card 1 of")[0].rsplit("your hand: ", 1)[1].split("\n")[0]
    played = re.findall(r"^  ([a-z])\) play (.+)$", step, re.M)
    assert [k for k, _c in played] == list("abcdefghijklmnopqrst"[:len(played)])
    in_hand = [c.split(" ×")[0] for c in hand.split(", ") if not c.startswith(("heat", "stress"))]
    assert [c for _k, c in played] == [c for c in in_hand if c in {c for _k, c in played}]
    assert len(played) >= 3


def test_heat_keeps_keys_for_each_card_played(monkeypatch, capsys):
    # gear 2, then the first of two cards named by its value: the others keep their keys
    monkeypatch.setattr("sys.stdin", io.StringIO("shift to gear 2\n3\n"))
    assert main(["play", "heat", "--seats", "human,random", "--seed", "3"]) == 1  # the input ends
    out = capsys.readouterr().out
    steps = out.split("Step 2: play card ")[1:]
    assert len(steps) == 2
    first = dict(re.findall(r"([a-z])\) (play [^\n]+)", steps[0]))
    second = dict(re.findall(r"([a-z])\) (play [^\n]+)", steps[1]))
    assert "play 3" in first.values() and "play 3" not in second.values()
    assert second == {k: v for k, v in first.items() if v != "play 3"}
    assert "played so far: 3" in steps[1]


def test_undo_takes_back_the_last_decision_against_bots(tmp_path, monkeypatch, capsys):
    log = tmp_path / "g.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("play red\nu\nplay purple\n" + "".join(
        f"{'abcdefghi'[i % 9]}\n" for i in range(400))))
    assert main(["play", "formula5", "--seats", "human,random", "--seed", "3", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "(seat 1 takes back its last decision)" in out and "(u: undo)" in out
    first = json.loads(log.read_text().splitlines()[1])
    assert first["seat"] == 0 and first["label"] == "play purple"
    assert main(["replay", str(log)]) == 0 and "replayed exactly" in capsys.readouterr().out


def test_an_abandoned_game_is_resumed_from_its_record(tmp_path, monkeypatch, capsys):
    log = tmp_path / "g.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("a\nb\n"))
    assert main(["play", "formula5", "--seats", "human,random", "--seed", "3", "--log", str(log)]) == 1
    err = capsys.readouterr().err
    assert f"racecraft play --resume {log}" in err
    kept = log.read_text().splitlines()
    assert len(kept) >= 3 and json.loads(kept[-1])["type"] == "decision"
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{'abcdefghi'[i % 9]}\n" for i in range(400))))
    assert main(["play", "--resume", str(log)]) == 0
    out = capsys.readouterr().out
    assert f"resumed after {len(kept) - 1} decisions" in out and "Result:" in out
    records = [json.loads(x) for x in log.read_text().splitlines()]
    assert records[1:len(kept)] == [json.loads(x) for x in kept[1:]]
    assert records[-1]["type"] == "result"
    assert main(["replay", str(log)]) == 0 and "replayed exactly" in capsys.readouterr().out


def test_hot_seat_hides_a_hand_behind_a_pass_screen(monkeypatch, capsys):
    entries = "".join(f"\n{'abcdefghi'[i % 9]}\n" for i in range(400))
    monkeypatch.setattr("sys.stdin", io.StringIO(entries))
    main(["play", "formula5", "--seats", "human,human", "--seed", "3"])
    out = capsys.readouterr().out
    assert "Pass to seat 2: press Enter when seat 2 is ready." in out
    assert "Pass to seat 1: press Enter" in out
    assert "(u: undo)" not in out  # no undo between people
    # between seat 1's screen and seat 2's, the pass screen
    first_two = out.index("you are seat 2")
    assert out.rfind("Pass to seat 2", 0, first_two) > out.rfind("you are seat 1", 0, first_two)


def test_a_hot_seat_game_resumed_shows_no_hand_before_its_seat_is_ready(tmp_path, monkeypatch, capsys):
    """Whoever resumes a game of several people, the first hand shown waits behind a pass screen."""
    log = tmp_path / "g.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("a\n\na\n"))   # seat 1 plays, seat 2 is handed the keyboard
    main(["play", "formula5", "--seats", "human,human", "--seed", "3", "--log", str(log)])
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"\n{'abcdefghi'[i % 9]}\n" for i in range(400))))
    assert main(["play", "--resume", str(log)]) == 0
    out = capsys.readouterr().out
    resumed = out.index("resumed after")
    asked = out.index("you are seat", resumed)
    assert out.find("Pass to seat", resumed, asked) > 0, out[resumed:asked]


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


def test_keys_stay_the_same_after_resume(tmp_path, monkeypatch, capsys):
    """A game resumed from its record shows the keys the person saw when it stopped (the first of
    two cards played: the second card's options keep their letters, a gap where the card was)."""
    log = tmp_path / "g.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("shift to gear 2\n3\n"))
    assert main(["play", "heat", "--seats", "human,random", "--seed", "3", "--log", str(log)]) == 1
    before = capsys.readouterr().out.split("play card 2 of 2")[1].split("Choose")[0]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--resume", str(log)]) == 1
    after = capsys.readouterr().out.split("play card 2 of 2")[1].split("Choose")[0]
    keys = re.findall(r"^  ([a-z])\) ", after, re.M)
    assert after == before and keys != list("abcdefgh"[:len(keys)])


def test_words_that_fit_several_options_are_answered_with_them(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("pit\n"))
    assert main(["play", "formula5", "--seed", "7"]) == 1
    out = capsys.readouterr().out
    fits = out.split("`pit` fits ")[1].split("Choose")[0].splitlines()
    assert fits[0] == "5 options; type one's letter:"
    assert [line.split(") ")[1] for line in fits[1:]] == [
        "pit stop with a pit stop card", "pit stop with blue face down", "pit stop with purple face down",
        "pit stop with red face down", "pit stop with yellow face down"]


def test_a_game_without_log_is_kept_in_the_data_folder_and_resumed_from_there(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("sys.stdin", io.StringIO("a\nb\n"))
    assert main(["play", "formula5", "--seats", "human,random", "--seed", "3"]) == 1
    kept = tmp_path / "data" / "racecraft" / "games" / "formula5-seed3.jsonl"
    assert f"racecraft play --resume {kept}" in capsys.readouterr().err
    assert json.loads(kept.read_text().splitlines()[-1])["type"] == "decision"
    assert (kept.parent.stat().st_mode & 0o777) == 0o700   # a record shows every hand
    # another game of the same seed is kept beside it, never over it
    assert main(["play", "formula5", "--seats", "random,random", "--seed", "3"]) == 0
    again = kept.parent / "formula5-seed3-2.jsonl"
    assert capsys.readouterr().out.rstrip().endswith(f"game record written to {again}")
    assert json.loads(again.read_text().splitlines()[-1])["type"] == "result"
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{'abcdefghi'[i % 9]}\n" for i in range(400))))
    assert main(["play", "--resume", str(kept)]) == 0
    assert json.loads(kept.read_text().splitlines()[-1])["type"] == "result"
    assert capsys.readouterr().out.rstrip().endswith(f"game record written to {kept}")
    # --no-log keeps none
    assert main(["play", "formula5", "--seats", "random,random", "--seed", "4", "--no-log"]) == 0
    assert "game record" not in capsys.readouterr().out
    assert sorted(p.name for p in kept.parent.iterdir()) == ["formula5-seed3-2.jsonl", "formula5-seed3.jsonl"]


def test_a_data_folder_that_cannot_be_made_is_said_and_the_game_goes_on(tmp_path, monkeypatch, capsys):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "file"))   # a file where the folder should be
    assert main(["play", "formula5", "--seats", "random,random", "--seed", "3"]) == 0
    said = capsys.readouterr()
    assert "note: no record of this game is kept" in said.err and "--log FILE" in said.err
    assert "Result:" in said.out and "game record" not in said.out


def test_each_game_is_dealt_from_a_new_seed_that_deals_it_again(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    seeds, results = [], []
    for _ in range(3):
        assert main(["play", "formula5", "--seats", "random,random"]) == 0
        out = capsys.readouterr().out
        seeds.append(int(re.search(r"seed (\d+)\n", out).group(1)))
        results.append(out[out.index("Result:"):].splitlines()[:3])
    assert len(set(seeds)) == 3   # (one chance in about 10**11 of two alike)
    assert main(["play", "formula5", "--seats", "random,random", "--seed", str(seeds[0]), "--no-log"]) == 0
    out = capsys.readouterr().out
    assert out[out.index("Result:"):].splitlines()[:3] == results[0]
    # simulate and compare measure: their default seed stays 1
    assert main(["simulate", "formula5", "--games", "2", "--players", "2", "--jobs", "1"]) == 0
    assert "seed 1" in capsys.readouterr().out


def test_the_first_line_names_the_track_modules_variants_and_params(capsys):
    assert main(["play", "heat", "--module", "garage", "--variant", "sprint", "--track", "italy",
                 "--param", "hand_size=6", "--seats", "random,random", "--seed", "3", "--no-log"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == ("Heat: Pedal to the Metal (track italy, module garage, variant sprint, hand_size=6): "
                     "2 players (seat 1 random, seat 2 random), seed 3")


def test_card_names_that_hold_commas_are_listed_apart():
    """Garage upgrades are named `Body: speed 3, reduce stress 2`: in a list, `;` separates them."""
    from interpreter.draw.cards import pile_text

    body, brakes = "Body: speed 3, reduce stress 2", "Brakes: speed 1/2/3/4"
    assert pile_text({"cards": [body, brakes, "3"], "count": 3}) == f"{body}; {brakes}; 3"
    assert pile_text({"cards": ["1", "3"], "count": 2}) == "1, 3"
    # a Heat race with the Garage, as a person sees their hand at the terminal
    loaded = load("heat", modules=["garage"])
    plan = loaded.plan(2)
    game = Game(plan, 3)
    bots = [RandomAgent(f"t{s}") for s in range(2)]
    while not game.over:
        hand = [line for line in render_view(game.view(0), plan).splitlines() if line.startswith("your hand")]
        if hand and ":" in hand[0][len("your hand"):].split(": ", 1)[1]:
            text = hand[0].split(": ", 1)[1]
            assert ";" in text and not re.search(r"\d, [A-Z]", text), text
            return
        d = game.decision()
        game.choose(bots[d.seat].pick(d.count))
    raise AssertionError("no upgrade was ever in hand")


def test_seats_that_tie_share_a_place(tmp_path, capsys):
    """Places in a result are those of a competition: seats that tie share one, and the next seat's
    is 1 and the number ahead of it (`1. 1. 3.`), on the screen, the web and in a replay."""
    import shutil

    from interpreter.table.ask import placings

    folder = tmp_path / "rulesets" / "leapfrog"
    shutil.copytree(ROOT / "rulesets" / "leapfrog", folder)
    game_file = folder / "game.yaml"
    game_file.write_text(game_file.read_text(encoding="utf-8").replace(
        'rank: "place(frog_of(seat))"', 'rank: "if seat == seat(1) then 2 else 1"'), encoding="utf-8")
    assert main(["play", str(folder), "--seats", "random,random,random", "--seed", "3", "--no-log"]) == 0
    out = capsys.readouterr().out
    lines = out[out.index("Result:"):].splitlines()[1:4]
    assert [line.split(".")[0].strip() for line in lines] == ["1", "1", "3"], lines
    assert lines[0].endswith("winner") and lines[1].endswith("winner") and "seat 1" in lines[2]
    # a result recorded before places were noted reads as it did, in order
    result = {"order": [1, 2, 0], "scores": [2, 1, 1], "winners": [1, 2]}
    assert [p.place for p in placings(result)] == [1, 2, 3]


def test_a_draw_crowns_nobody_at_the_end_nor_in_the_replay(capsys, tmp_path, monkeypatch):
    """The tile race, seed 1, two random bots: a draw at the round limit. No seat is called the
    winner (each was: `1. seat 1 (random): 0  winner`, then "a draw"); the replay says a draw."""
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "draw.jsonl"
    assert main(["play", "tilerace", "--seats", "random,random", "--seed", "1", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "a draw: every seat is tied" in out and "winner" not in out.split("Result:")[1]
    assert main(["replay", str(log)]) == 0
    assert "result: seat 1, seat 2; a draw: every seat is tied" in capsys.readouterr().out


def test_one_round_is_said_as_one(capsys):
    """A game of one round ends "1 round, 6 decisions" (it read "1 rounds")."""
    assert main(["play", "tilerace", "--variant", "quick", "--seats", "random,random", "--seed", "4",
                 "--no-log"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("\n1 round, 6 decisions")


def test_a_replay_for_a_seat_the_game_has_not_is_refused(capsys, tmp_path):
    log = tmp_path / "f5.jsonl"
    assert main(["play", "formula5", "--seats", "random,random,random", "--seed", "1",
                 "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log), "--at", "3", "--seat", "7"]) == 2
    assert "--seat 7: this game has 3 seats" in capsys.readouterr().err


def test_bytes_that_are_no_text_are_said_as_question_marks(capsys, monkeypatch):
    # (stray bytes a terminal sends read as these: Python printed them as `\udcff\udcfe`)
    monkeypatch.setattr("sys.stdin", io.StringIO("\udcff\udcfe\n" + "a\n" * 300))
    assert main(["play", "formula5", "--seats", "human,random", "--seed", "1", "--no-log"]) == 0
    out = capsys.readouterr().out
    assert "`??` is not one of the options" in out and "\\udc" not in out


def test_no_undo_takes_u_away(capsys, monkeypatch):
    """`play --no-undo`: `u` is no option (an undo plays the game again from its seed: the dice and
    the bots' secret choices after it would come out as before)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("a\nu\n" + "a\n" * 300))
    assert main(["play", "formula5", "--seats", "human,random", "--seed", "1", "--no-log", "--no-undo"]) == 0
    out = capsys.readouterr().out
    assert "(u: undo)" not in out and "`u` is not one of the options" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("a\nu\n" + "a\n" * 300))
    assert main(["play", "formula5", "--seats", "human,random", "--seed", "1", "--no-log"]) == 0
    assert "takes back its last decision" in capsys.readouterr().out


def test_a_preview_to_past_the_finish_reads_as_english():
    """A place that says where it lies from a line is not put after `to` (`→ to past the finish`)."""
    from interpreter.table.preview import _changes

    before = {"facts": {}, "where": {"red": "space 60"}, "orders": []}
    after = {"facts": {}, "where": {"red": "past the finish"}, "orders": []}
    assert _changes("red", False, before, after, "boost") == ["past the finish"]
    after["where"]["red"] = "space 62"
    assert _changes("red", False, before, after, "boost") == ["to space 62"]


def test_a_place_won_on_the_tie_break_says_so(capsys):
    """Downforce, seed 7, three random bots: two seats end with 12 million and the one whose car
    finished first is placed ahead (the result's `tie`): its line says why."""
    assert main(["play", "downforce", "--seats", "random,random,random", "--seed", "7", "--no-log"]) == 0
    result = capsys.readouterr().out.split("\nResult:\n")[1].splitlines()
    assert result[0] == "  1. seat 1 (random): 12 million  winner (ahead on the tie-break)"
    assert result[1] == "  2. seat 2 (random): 12 million"


def test_a_game_played_from_its_own_folder_replays_from_there(capsys, tmp_path, monkeypatch):
    """`play .` in a designer's folder, then `replay` there: the record's game is found in the
    folder one stands in (it said "no ruleset of the game here"); elsewhere it is not."""
    import shutil

    folder = tmp_path / "my-dice-game"
    shutil.copytree(Path(__file__).resolve().parents[1] / "rulesets" / "leapfrog", folder)
    game = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(game.replace("id: leapfrog", "id: mydice", 1), encoding="utf-8")
    monkeypatch.chdir(folder)
    record = str(tmp_path / "g.jsonl")
    assert main(["play", ".", "--seats", "random,random", "--seed", "2", "--log", record]) == 0
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "g.jsonl")]) == 0
    assert "replayed exactly" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path)
    assert main(["replay", str(tmp_path / "g.jsonl")]) == 1
    assert "no ruleset of the game `mydice` here" in capsys.readouterr().err


def test_a_replay_as_one_seat_keeps_another_seats_secret_choice_secret(capsys, tmp_path):
    """`replay --seat 2` shows the game as seat 2 saw it: seat 1's bid, made face down, is not told
    (it printed the card); as seat 1 it is."""
    log = tmp_path / "df.jsonl"
    assert main(["play", "downforce", "--seats", "random,random,random", "--seed", "3",
                 "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log), "--at", "1", "--seat", "2"]) == 0
    out = capsys.readouterr().out
    assert "seat 1: Bid a card face down" in out and "chose in secret: told when revealed" in out
    assert "  chose: " not in out
    assert main(["replay", str(log), "--at", "1", "--seat", "1"]) == 0
    assert "  chose: " in capsys.readouterr().out
