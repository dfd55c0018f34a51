"""`play --resume`: a record's seats sit again as they were, or the command says which seat cannot
and why (never another bot in its place); the hints to go on name a command that works."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from conftest import run_cli, stepping_game
from interpreter.cli import main

# a race of three rounds for two or three seats, each picking one or two steps
GAME = stepping_game("stepper", "Stepper", (2, 3))


run = run_cli


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """The game in a folder of its own (not under rulesets/: found by its path only), the current
    folder its parent."""
    folder = tmp_path / "mygame"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return folder


def _stopped(capsys, monkeypatch, game: Path, seats: str) -> tuple[Path, str]:
    """A game of `seats` (a person first) stopped after the person's first decision: its record, and
    what was said on the error stream."""
    log = game.parent / "g.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("a\n"))
    rc, out, err = run(capsys, "play", "mygame", "--seats", seats, "--seed", "2", "--log", log)
    assert rc == 1 and "game abandoned" in err, err
    return log, err


def _trained(capsys, out: Path, players: int = 2) -> None:
    rc, _, err = run(capsys, "train", "mygame", "--players", players, "--games", "12", "--jobs", "1",
                     "--out", out)
    assert rc == 0, err


def test_a_learned_seat_whose_file_is_gone_is_refused_not_replaced(game, capsys, monkeypatch):
    bot = game.parent / "tmpbot.json"
    _trained(capsys, bot)
    log, _ = _stopped(capsys, monkeypatch, game, "human,learned:tmpbot.json")
    before = log.read_bytes()
    bot.unlink()
    rc, out, err = run(capsys, "play", "mygame", "--resume", log)
    assert rc == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"racecraft play: error: --resume {log}: seat 2 (`learned:tmpbot.json`) "
                               "cannot sit again: no such file")
    assert lines[0].endswith("give --seats to seat others, e.g. --seats human,random")
    assert log.read_bytes() == before
    # seated anew with --seats, the game goes on, and the record says who sat
    monkeypatch.setattr("sys.stdin", io.StringIO("a\n" * 3))
    rc, out, err = run(capsys, "play", "mygame", "--resume", log, "--seats", "human,random")
    assert rc == 0 and "seat 2 random" in out, err
    assert json.loads(log.read_text().splitlines()[0])["seats"] == ["human", "random"]


def test_a_learned_seat_whose_file_changed_is_refused(game, capsys, monkeypatch):
    bot = game.parent / "bot.json"
    _trained(capsys, bot)
    log, _ = _stopped(capsys, monkeypatch, game, "human,learned:bot.json")
    before = log.read_bytes()
    _trained(capsys, bot, players=3)  # the same file, now made for three players
    rc, out, err = run(capsys, "play", "mygame", "--resume", log)
    assert rc == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "seat 2 (`learned:bot.json`) cannot sit again: " in err and "3 players" in err
    assert "e.g. --seats human,random" in err
    assert log.read_bytes() == before


def test_a_recorded_seat_of_no_known_kind_is_refused(game, capsys, monkeypatch):
    log, _ = _stopped(capsys, monkeypatch, game, "human,greedy,random")
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    head["seats"] = ["human", "robot", "random"]
    log.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    before = log.read_bytes()
    rc, out, err = run(capsys, "play", "mygame", "--resume", log)
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "seat 2 (`robot`) cannot sit again: no bot is called that" in err
    assert "e.g. --seats human,random,random" in err
    assert log.read_bytes() == before
    # seats that do not match the record's count are said, not replaced
    rc, out, err = run(capsys, "play", "mygame", "--resume", log, "--seats", "human,random")
    assert rc == 2 and "--seats names 2 seats, but the game of --resume" in err and "has 3 players" in err
    assert log.read_bytes() == before


def test_a_record_that_names_no_seats_sits_a_person_and_random_bots(game, capsys, monkeypatch):
    log, _ = _stopped(capsys, monkeypatch, game, "human,greedy")
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    del head["seats"]   # an old record
    log.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    monkeypatch.setattr("sys.stdin", io.StringIO("a\n" * 3))
    rc, out, err = run(capsys, "play", "mygame", "--resume", log)
    assert rc == 0 and "(seat 1 human, seat 2 random)" in out, err


def test_the_hints_to_go_on_name_the_ruleset_given_by_its_path(game, capsys, monkeypatch):
    log, err = _stopped(capsys, monkeypatch, game, "human,random")
    assert f"game abandoned (go on with: racecraft play mygame --resume {log})" in err
    # without the path, the game is not found by its name: the hint says the command that works
    rc, out, err = run(capsys, "play", "--resume", log)
    assert rc == 1
    assert f"give the ruleset it was played by: racecraft play PATH --resume {log}" in err
    assert "--ruleset" not in err
    # replay and render do take --ruleset
    rc, out, err = run(capsys, "replay", log)
    assert rc == 1 and "with --ruleset PATH" in err
    # stopped again when resumed from the path: the same hint
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    rc, out, err = run(capsys, "play", "mygame", "--resume", log)
    assert rc == 1 and f"(go on with: racecraft play mygame --resume {log})" in err


def test_the_hint_to_go_on_names_no_ruleset_where_its_name_finds_it(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "g.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("a\n"))
    rc, out, err = run(capsys, "play", "formula5", "--seats", "human,random", "--seed", "3", "--log", log)
    assert rc == 1 and f"game abandoned (go on with: racecraft play --resume {log})" in err


def test_a_saved_season_whose_learned_bots_file_is_gone_says_which_seat(tmp_path, capsys):
    """`championship --resume`: a seat of the save that cannot sit again (its learned bot's file
    gone) is named with why, in one line, exit 2 (it was "`seats` are 1 to 16 of ..."); a seat of
    no known kind is still a save that is not one."""
    save = tmp_path / "s.json"
    assert main(["championship", "heat", "--season", "1961", "--seats", "random,random", "--seed", "4",
                 "--save", str(save), "--stop-after", "1"]) == 0
    capsys.readouterr()
    head, *rest = save.read_text(encoding="utf-8").split("\n")
    gone = tmp_path / "gone.json"
    data = json.loads(head)
    save.write_text("\n".join([json.dumps(dict(data, seats=[f"learned:{gone}", "random"])), *rest]),
                    encoding="utf-8")
    assert main(["championship", "--resume", str(save)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"seat 1 (`learned:{gone}`) cannot sit again: " in err, err
    assert "no such file" in err and "put the bot's file back as it was" in err, err
    save.write_text("\n".join([json.dumps(dict(data, seats=["dragon", "random"])), *rest]), encoding="utf-8")
    assert main(["championship", "--resume", str(save)]) == 1
    assert "not a saved season: `seats` are 1 to" in capsys.readouterr().err
