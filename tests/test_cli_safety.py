"""The command line against bad input and hostile rulesets.

A ruleset's texts (the game's name, an option, a `say`, a prompt) reach the terminal with their
control characters escaped, never obeyed; a file with thousands of errors prints at once; a
person's odd entries at the prompt are answered, never a crash; out-of-range numbers on the
command line are usage errors (exit 2) found before anything is played.
"""
from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.base import diagnostics
from interpreter.base.diagnostics import Loc, Report, visible

# what a hostile ruleset writes, as YAML double-quoted escapes, and what reaches the terminal
HOSTILE = r"\e[2J\e]0;pwned\a\r\u202e"
RAW = ("\x1b", "\x07", "\r", "\u202e")
SHOWN = r"\x1b[2J\x1b]0;pwned\x07\x0d\u202e"

# A two-seat game of two rounds whose name, prompt, `say` and first option carry control
# characters. The rules are a double-quoted YAML string, so that escapes reach the rule text.
GAME = """\
game: {id: hostile, name: "Evil HOSTILE game", players: {min: 2, max: 2}}
state:
  score: {of: seat}
phases:
  - id: main
    order: "seats"
    turn: s
    steps:
      - id: go
        do: "say \\"said HOSTILE\\"\\nchoose \\"pick HOSTILE\\" by s:\\n    option \\"one HOSTILE\\":\\n\\
          \\        s.score += 1\\n    option \\"two\\":\\n        s.score += 2\\n"
    rounds: 2
result:
  rank: "seat.score"
""".replace("HOSTILE", HOSTILE)


def ruleset(tmp_path: Path, text: str = GAME) -> Path:
    folder = tmp_path / "rulesets" / "hostile"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return folder


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def assert_shown_not_obeyed(text: str) -> None:
    for c in RAW:
        assert c not in text, repr(c)
    assert SHOWN in text


# ---- control characters are shown, never obeyed ------------------------------------------------

def test_visible_escapes_what_a_terminal_would_obey_and_nothing_else():
    assert visible("a\x1b[2J\r\x07\x00\x7f\x85\u202a\u202e\u2066\u2069b") == \
        r"a\x1b[2J\x0d\x07\x00\x7f\x85\u202a\u202e\u2066\u2069b"
    kept = "line\n\tindented: café, ×3, » ²"
    assert visible(kept) == kept
    assert visible(visible("\x1b\u202e")) == visible("\x1b\u202e")


def test_a_hostile_game_is_validated_with_its_names_escaped(capsys, tmp_path):
    rc, out, err = run(capsys, "validate", ruleset(tmp_path))
    assert rc == 0, err
    assert_shown_not_obeyed(out + err)
    assert f"Evil {SHOWN} game" in out


def test_a_hostile_game_is_played_with_its_texts_escaped(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("a\n" * 10))
    rc, out, err = run(capsys, "play", ruleset(tmp_path), "--seats", "human,random", "--seed", "1")
    assert rc == 0, err
    assert_shown_not_obeyed(out + err)
    assert f"Evil {SHOWN} game: 2 players" in out
    assert f"said {SHOWN}" in out
    assert f"Seat 1: pick {SHOWN}" in out
    assert f"  a) one {SHOWN}" in out
    # the streams are the test's own again afterwards
    assert sys.stdout.__class__.__name__ != "_Visible" and sys.stderr.__class__.__name__ != "_Visible"


def test_a_diagnostic_on_a_hostile_line_escapes_it_and_keeps_its_caret(capsys, tmp_path):
    text = GAME.replace("s.score += 1", "s.score += nope \\e[2J")
    rc, out, err = run(capsys, "validate", ruleset(tmp_path, text))
    assert rc == 1 and out == ""
    assert "\x1b" not in err and "unexpected character `\\x1b`" in err


def test_a_snippet_puts_the_caret_under_the_column_after_escaped_characters(tmp_path):
    path = tmp_path / "f.yaml"
    path.write_text("a: \x1b\u202ebad\n", encoding="utf-8")
    report = Report()
    report.add("E001", "bad", Loc(str(path), 1, 6))
    lines = report.render().splitlines()
    assert lines[2] == r"1 | a: \x1b\u202ebad"
    assert lines[3].index("^") == lines[2].index("bad")


# ---- many errors ---------------------------------------------------------------------------------

def test_forty_thousand_errors_in_one_file_render_at_once_and_only_the_first_are_printed(tmp_path,
                                                                                          monkeypatch):
    n = 40_000
    path = tmp_path / "game.yaml"
    path.write_text("".join(f"  f{i}: {{value: nope{i}}}\n" for i in range(n)), encoding="utf-8")
    report = Report()
    for i in range(n):
        report.add("E110", f"unknown name `nope{i}`", Loc(str(path), i + 1, 14), "declare it")
    # linear: however many diagnostics, the file is read and split into lines once a render
    reads = []
    real = diagnostics._lines
    monkeypatch.setattr(diagnostics, "_lines", lambda file, src: reads.append(file) or real(file, src))
    text = report.render()
    assert reads == [str(path)]
    assert text.count("error[E110]") == 200
    assert "unknown name `nope199`" in text and "unknown name `nope200`" not in text
    assert text.endswith(f"\n... and {n - 200} more errors")
    assert "199 |   f198: {value: nope198}" in text
    everything = report.render(limit=None)
    assert reads == [str(path)] * 2
    assert everything.count("error[E110]") == n and "more errors" not in everything


def test_the_error_count_line_counts_every_error_after_the_cap(capsys, tmp_path, monkeypatch):
    from interpreter.session.args import print_report as _print_report

    report = Report()
    for i in range(250):
        report.add("E110", f"unknown name `n{i}`")
    _print_report(report)
    err = capsys.readouterr().err
    assert err.count("error[E110]") == 200
    assert "... and 50 more errors" in err and err.rstrip().endswith("\n250 errors")


# ---- a person's entries -----------------------------------------------------------------------

def test_odd_entries_at_the_prompt_are_answered_then_a_valid_choice_is_taken(capsys, tmp_path, monkeypatch):
    many = "9" * 5000
    monkeypatch.setattr("sys.stdin", io.StringIO(f"²\n{many}\n-1\n7\n\n  B  \n" + "a\n" * 10))
    rc, out, err = run(capsys, "play", ruleset(tmp_path), "--seats", "human,random", "--seed", "1")
    assert rc == 0, err
    ask = "please type an option's letter (a or b) or its words."
    assert f"  `²` is not one of the options: {ask}" in out
    assert f"  `{'9' * 37}...` is not one of the options: {ask}" in out
    assert many not in out
    assert f"  `-1` is not one of the options: {ask}" in out
    assert f"  `7` is not one of the options: {ask}" in out
    # what was typed is shown (the entries come from a file, not a terminal), then the answer
    assert f"Choose a or b, or type an option's words: \n  {ask}\n" in out  # the empty line
    assert out.count(ask) == 5
    # the first valid entry, `  B  ` (option two, 2 points), then `a` (option one, 1 point)
    assert "seat 1 (human): 3" in out


def test_the_end_of_input_at_the_prompt_abandons_the_game(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("²\n"))
    rc, out, err = run(capsys, "play", ruleset(tmp_path), "--seats", "human,random")
    assert rc == 1 and "game abandoned" in err


# ---- command-line values -----------------------------------------------------------------------

def test_a_log_into_a_missing_folder_is_refused_before_the_game(capsys, tmp_path):
    log = tmp_path / "missing" / "game.jsonl"
    rc, out, err = run(capsys, "play", ruleset(tmp_path), "--seats", "random,random", "--log", log)
    assert rc == 2 and out == ""
    assert err.startswith("racecraft play: error: --log ") and "does not exist" in err
    assert not log.parent.exists()


def test_a_log_that_is_a_folder_is_refused_and_a_good_one_is_written(capsys, tmp_path):
    rc, out, err = run(capsys, "play", ruleset(tmp_path), "--seats", "random,random", "--log", tmp_path)
    assert rc == 2 and out == "" and "is a folder" in err
    log = tmp_path / "game.jsonl"
    rc, out, err = run(capsys, "play", ruleset(tmp_path), "--seats", "random,random", "--log", log)
    assert rc == 0 and log.read_text(encoding="utf-8").count("\n") >= 3


@pytest.mark.parametrize("argv, words", [
    (["simulate", "--games", str(10**15)], "--games: 1,000,000,000,000,000 is out of range: at most 10,0"),
    (["simulate", "--games", "9" * 5000], "--games: 999999999999999999999... is out of range"),
    (["simulate", "--games", "x" * 5000], "--games: a whole number, not xxxxxxxxxxxxxxxxxxxxx..."),
    (["simulate", "--games", "²"], "--games: a whole number, not ²"),
    (["simulate", "--jobs", "0"], "--jobs: 0 is out of range: from 1 to"),
    (["simulate", "--jobs", "100000"], "--jobs: 100,000 is out of range: from 1 to"),
    (["simulate", "--players", "99"], "--players: 99 is out of range: from 1 to 16"),
    (["play", "--players", "99"], "--players: 99 is out of range: from 1 to 16"),
    (["explain", "--players", "0"], "--players: 0 is out of range: from 1 to 16"),
    (["play", "--seed", "-1"], "--seed: -1 is out of range: from 0 to"),
    (["simulate", "--seed", "-1"], "--seed: -1 is out of range: from 0 to"),
    (["simulate", "--seed", str(2**63)], "--seed: 9,223,372,036,854,775,808 is out of range"),
])
def test_numbers_out_of_range_are_usage_errors(capsys, argv, words):
    with pytest.raises(SystemExit) as exit:
        main([argv[0], "formula5", *argv[1:]])
    out, err = capsys.readouterr()
    assert exit.value.code == 2 and out == ""
    assert f"racecraft {argv[0]}: error: argument {words}" in err, err
    assert "Traceback" not in err


def test_no_games_is_a_usage_error(capsys):
    rc, out, err = run(capsys, "simulate", "formula5", "--games", "-5")
    assert (rc, out) == (2, "") and err.strip() == "racecraft simulate: error: --games must be at least 1"


@pytest.mark.parametrize("command, seats", [("play", "random"), ("simulate", "random")])
def test_more_seats_than_any_game_has_are_a_usage_error(capsys, command, seats):
    rc, out, err = run(capsys, command, "formula5", "--seats", ",".join([seats] * 17))
    assert rc == 2 and out == "" and "at most 16" in err


def test_the_largest_seed_is_accepted(capsys):
    rc, out, err = run(capsys, "simulate", "formula5", "--games", "2", "--jobs", "1", "--seed", 2**63 - 1)
    assert rc == 0, err
