"""What the command line says of what a person typed: a player count the game does not take, a
count that is no whole number, a file where a ruleset was wanted; and tables whose columns fit
what they hold. Said in a line, in words, as a usage error (exit 2)."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import TWO_GAMES, run_cli, stepping_game
from interpreter.cli import main

# a race for two to four seats
GAME = stepping_game("dash", "Dash", (2, 4))


run = run_cli


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "mygame"
    (folder / "seasons").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "seasons" / "two.yaml").write_text(TWO_GAMES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return folder


# ---- a player count the game does not take ---------------------------------------------------------

@pytest.mark.parametrize("argv, said", [
    (["train", "mygame", "--players", "1", "--games", "10", "--out", "o.json"], "--players 1"),
    (["train", "mygame", "--players", "9", "--games", "10", "--out", "o.json"], "--players 9"),
    (["simulate", "mygame", "--players", "1", "--games", "2"], "--players 1"),
    (["simulate", "mygame", "--seats", "random", "--games", "2"], "--seats names 1 seat"),
    (["compare", "mygame", "--players", "5", "--games", "2"], "--players 5"),
    (["compare", "mygame", "--seats", "random,random,random,random,random", "--games", "2"],
     "--seats names 5 seats"),
    (["play", "mygame", "--players", "1"], "--players 1"),
    (["play", "mygame", "--seats", "human,random,random,random,random"], "--seats names 5 seats"),
    (["championship", "mygame", "--season", "two", "--seats", "human"], "--seats names 1 seat"),
    (["championship", "mygame", "--season", "two", "--seats", "random", "--games", "2"],
     "--seats names 1 seat"),
    (["explain", "mygame", "--players", "7"], "--players 7"),
])
def test_a_player_count_the_game_does_not_take_is_a_usage_error(game, capsys, argv, said):
    rc, out, err = run(capsys, *argv)
    assert (rc, out) == (2, "")
    assert err == f"racecraft {argv[0]}: error: {said}: Dash takes 2 to 4 players\n"
    assert not (game.parent / "o.json").exists()


def test_a_variant_that_changes_the_players_is_named_with_the_count(game, capsys):
    (game / "variants").mkdir()
    (game / "variants" / "duel.yaml").write_text(
        "variant: {id: duel, name: Duel, description: two only}\n"
        "patches:\n  - set: game.players\n    to: {min: 2, max: 2}\n",
        encoding="utf-8")
    rc, out, err = run(capsys, "simulate", "mygame", "--variant", "duel", "--players", "3", "--games", "2")
    assert rc == 2
    assert err == "racecraft simulate: error: --players 3: Dash (with variant duel) takes 2 players\n"


# ---- a count that is no whole number ---------------------------------------------------------------

@pytest.mark.parametrize("argv, words", [
    (["simulate", "formula5", "--games", "1e3"], "--games: a whole number, not 1e3"),
    (["train", "formula5", "--players", "2", "--games", "2.5", "--out", "o.json"],
     "--games: a whole number, not 2.5"),
    (["play", "formula5", "--seed", "seven"], "--seed: a whole number, not seven"),
    (["simulate", "formula5", "--games", ""], "--games: a whole number, not nothing"),
])
def test_a_count_that_is_no_whole_number_is_said_in_words(capsys, argv, words):
    with pytest.raises(SystemExit) as exit:
        main(argv)
    out, err = capsys.readouterr()
    assert exit.value.code == 2 and out == ""
    assert err.splitlines()[-1] == f"racecraft {argv[0]}: error: argument {words}"
    assert "invalid" not in err and "int" not in err.replace("print", "")


# ---- validate: a file that is not a ruleset --------------------------------------------------------

def test_validate_of_a_learned_bots_file_says_what_it_was_given(game, capsys):
    rc, _, err = run(capsys, "train", "mygame", "--players", "2", "--games", "8", "--jobs", "1",
                     "--out", "my-j1.json")
    assert rc == 0, err
    rc, out, err = run(capsys, "validate", "my-j1.json")
    assert rc == 1
    assert "my-j1.json: error[E001]: my-j1.json is a learned bot's file (racecraft train writes it), not a " \
           "ruleset" in err
    assert "hint: give the folder that holds game.yaml" in err
    assert "no game file at game.yaml" not in err


def test_validate_of_a_game_file_not_named_game_yaml_says_so(game, capsys):
    (game.parent / "notes.json").write_text('{"game": "dash", "seed": 3}', encoding="utf-8")
    (game.parent / "copy.yaml").write_text(GAME, encoding="utf-8")
    rc, out, err = run(capsys, "validate", "notes.json")
    assert rc == 1 and "notes.json is a file, not a ruleset folder" in err
    assert "give the folder that holds game.yaml" in err
    rc, out, err = run(capsys, "validate", "copy.yaml")
    assert rc == 1 and "copy.yaml is a game's file, but a ruleset's game file is named game.yaml" in err
    # the game's own file, and its folder, are validated as before
    for given in ("mygame/game.yaml", "mygame"):
        rc, out, err = run(capsys, "validate", given, "--no-cache")
        assert rc == 0, err


# ---- simulate's tables fit what they hold -----------------------------------------------------------

def _columns(lines: list[str]) -> set[tuple[int, ...]]:
    """Where each `%` and `]` of the lines stands: one tuple when the columns are in line."""
    return {tuple(i for i, c in enumerate(line) if c in "%]") for line in lines}


def test_simulate_columns_fit_the_longest_seat_name(game, capsys):
    rc, out, err = run(capsys, "simulate", "mygame", "--seats", "mcts:4:random:1,random", "--games", "4",
                       "--jobs", "1")
    assert rc == 0, err
    lines = out.splitlines()
    at = lines.index(next(x for x in lines if x.startswith("wins by seat")))
    rows = lines[at + 1:at + 3]
    assert rows[0].startswith("  seat 1  mcts:4:random:1 ") and rows[1].startswith("  seat 2  random ")
    assert len(_columns(rows)) == 1 and len({len(r) for r in rows}) == 1
    # the header's words stand over the rows where they stand over short names
    assert lines[at].startswith("wins by seat (alone)  ")
    assert lines[at].endswith("  rate   95% CI            tied first")
    assert len(lines[at]) == len(rows[0])


def test_simulate_columns_of_short_seat_names_are_as_before(game, capsys):
    rc, out, err = run(capsys, "simulate", "mygame", "--seats", "greedy,random", "--games", "4",
                       "--jobs", "1")
    assert rc == 0, err
    lines = out.splitlines()
    at = lines.index("wins by seat (alone)  rate   95% CI            tied first")
    assert lines[at + 1].startswith("  seat 1  greedy ") and lines[at + 2][:17] == "  seat 2  random "
    assert len(_columns(lines[at + 1:at + 3])) == 1 and len(lines[at]) == len(lines[at + 1])


def test_one_player_and_a_range_below_zero_read_as_words(tmp_path, capsys):
    """`play` of a game for one says "1 player"; a range with a negative end reads "from -2 to 2"
    (it was "1 players" and "-2-2")."""
    from interpreter.lab.simulate import _span

    folder = tmp_path / "rulesets" / "solo"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(stepping_game("solo", "Solo", (1, 1)), encoding="utf-8")
    rc, out, _err = run_cli(capsys, "play", str(folder), "--seats", "random", "--no-log")
    assert rc == 0 and "Solo: 1 player (seat 1 random), seed" in out, out
    assert (_span(-2, 2), _span(0, 3)) == ("from -2 to 2", "0-3")


def test_one_seat_named_is_said_as_one(capsys):
    """`--seats` naming one seat, or one player counted, reads "1 seat", "1 player" (it was
    "1 seats", "1 players")."""
    rc, _out, err = run_cli(capsys, "play", "heat", "--players", "7", "--seats", "random")
    assert rc == 2 and "--players 7 but --seats names 1 seat\n" in err, err
    rc, _out, err = run_cli(capsys, "compare", "formula5", "--against-seats", "greedy", "--games", "2")
    assert rc == 2 and "1 player: Formula 5 takes 2 to 5 players" in err, err
