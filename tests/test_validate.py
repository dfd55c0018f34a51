"""`racecraft validate` checks each game a ruleset makes once, on every core, says each problem
once, and keeps its verdicts in the user's cache folder: a game none of whose files changed is
not checked again, and a cache file changed by hand is never believed nor run."""
from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

import interpreter.authoring.validate as validate_module
from interpreter.cli import main
from test_compiler import TINY, game_file, where


# the tiny game, with a param that a variant may set to a value the rules cannot use
GAME = TINY.replace("  zero: 0\n", "  zero: 0\n  cut: 1\n").replace(
    '              option "one":\n                  s.score += 1',
    '              option "one":\n                  s.score += 10 // cut')


def variant(folder: Path, name: str, patches: str) -> Path:
    path = folder / "variants" / f"{name}.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(f"variant: {{id: {name}, name: {name}, description: for a test}}\npatches:\n{patches}",
                    encoding="utf-8")
    return path


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "racecraft" / "validate"


@pytest.fixture
def folder(tmp_path) -> Path:
    game = game_file(tmp_path, GAME)
    variant(game.parent, "longer", "  - set: phases.main.rounds\n    to: 3\n")
    variant(game.parent, "richer", "  - set: params.cut\n    to: 2\n")
    return game.parent


@pytest.fixture
def checked(monkeypatch) -> list:
    """The games `validate` checks itself (not from the cache), as (variants, modules, track)."""
    seen: list = []
    real = validate_module.check_game

    def counting(folder, params, job, games):
        seen.append((job.variants, job.modules, job.track))
        return real(folder, params, job, games)

    monkeypatch.setattr(validate_module, "check_game", counting)
    return seen


def validate(capsys, *argv) -> tuple[int, str, str]:
    rc = main(["validate", *map(str, argv)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def test_a_problem_several_games_share_is_said_once_naming_them(capsys, tmp_path, cache):
    game = game_file(tmp_path, GAME)
    for name in ("a", "b"):
        variant(game.parent, name, "  - set: params.cut\n    to: 0\n")
    rc, out, err = validate(capsys, game.parent, "--jobs", "2")
    assert (rc, out) == (1, ""), err
    assert err.count("error[E202]") == 1, err
    assert f"{where(game, '10 // cut')}: error[E202]: a rule failed while playing" in err, err
    assert "division by zero" in err and "seed 1" in err
    assert "  = note: found in variant a, variant b\n" in err, err
    assert err.rstrip().endswith("1 error")


def test_a_second_run_takes_unchanged_games_from_the_cache(capsys, folder, cache, checked):
    rc, first, err = validate(capsys, folder, "--jobs", "1")
    assert (rc, err) == (0, ""), err
    assert sorted(checked) == [((), (), None), (("longer",), (), None), (("richer",), (), None)]
    assert len(list(cache.glob("*.json"))) == 3
    checked.clear()
    rc, again, err = validate(capsys, folder, "--jobs", "1")
    assert (rc, again, err) == (0, first, "")
    assert checked == []
    # an edited variant is checked again, and only it
    variant(folder, "richer", "  - set: params.cut\n    to: 5\n")
    rc, out, err = validate(capsys, folder, "--jobs", "1")
    assert (rc, out, err) == (0, first, "")
    assert checked == [(("richer",), (), None)]
    # and the game's own file is read by every game
    checked.clear()
    (folder / "game.yaml").write_text(GAME.replace("cut: 1", "cut: 3"), encoding="utf-8")
    assert validate(capsys, folder, "--jobs", "1")[0] == 0
    assert len(checked) == 3


def test_a_problem_is_kept_too_and_said_again_from_the_cache(capsys, folder, cache, checked):
    variant(folder, "richer", "  - set: params.cut\n    to: 0\n")
    first = validate(capsys, folder, "--jobs", "1")
    assert first[0] == 1 and "error[E202]" in first[2]
    checked.clear()
    assert validate(capsys, folder, "--jobs", "1") == first
    assert checked == []


def test_no_cache_checks_every_game_and_keeps_nothing(capsys, folder, cache, checked):
    validate(capsys, folder, "--jobs", "1", "--no-cache")
    validate(capsys, folder, "--jobs", "1", "--no-cache")
    assert len(checked) == 6
    assert not cache.exists()


@pytest.mark.parametrize("garbage", [
    b"not json", b"[]", b"{}", b'{"format": 1}', pickle.dumps(print),
    "every field with a wrong type",  # made from a real entry below
    "a file listed with a digest it does not have",
])
def test_a_cache_file_changed_by_hand_is_not_believed(capsys, folder, cache, checked, garbage):
    rc, first, _ = validate(capsys, folder, "--jobs", "1")
    for path in cache.glob("*.json"):
        if garbage == "every field with a wrong type":
            entry = json.loads(path.read_text())
            entry["verdict"]["ended"] = "many"
            entry["verdict"]["items"] = [{"code": "E999", "message": 1}]
            path.write_text(json.dumps(entry))
        elif garbage == "a file listed with a digest it does not have":
            entry = json.loads(path.read_text())
            entry["files"][0][1] = entry["verdict"]["files"][0][1] = "0" * 64
            path.write_text(json.dumps(entry))
        else:
            assert isinstance(garbage, bytes)
            path.write_bytes(garbage)
    checked.clear()
    assert validate(capsys, folder, "--jobs", "1") == (rc, first, "")
    assert len(checked) == 3


def test_the_games_are_checked_alike_on_one_process_or_several(capsys, folder, cache):
    variant(folder, "broken", "  - set: params.cut\n    to: 0\n")
    one = validate(capsys, folder, "--jobs", "1", "--no-cache")
    assert one[0] == 1 and "error[E202]" in one[2] and "variant broken" in one[2]
    assert validate(capsys, folder, "--jobs", "2", "--no-cache") == one
    (folder / "variants" / "broken.yaml").unlink()
    one = validate(capsys, folder, "--jobs", "1", "--no-cache")
    assert one[0] == 0 and "variant richer: ok" in one[1]
    assert validate(capsys, folder, "--jobs", "3", "--no-cache") == one


def test_play_n_plays_more_smoke_games(capsys, folder, cache):
    rc, out, err = validate(capsys, folder, "--play", "3")
    assert (rc, err) == (0, ""), err
    assert "  playouts: 3 games ended (2 players), 2-2 rounds" in out, out
    assert "  variant longer: ok; 3 games ended (2 players), 3-3 rounds" in out, out


def test_progress_is_said_on_standard_error_when_asked(capsys, folder, cache):
    rc, out, err = validate(capsys, folder, "--progress")
    assert rc == 0 and "variant richer: ok" in out
    assert err.startswith("validate: checking "), err
    assert "validate: checking 3 games" in err, err


def test_the_summary_counts_the_cards_of_each_seat_and_says_one_step(capsys, tmp_path, cache):
    game = game_file(tmp_path, GAME.replace("    rounds: 2\n", "    rounds: 2\ntriggers:\n"
                                            "  - id: noted\n    on: round_end\n    do: |\n      pass\n")
                     + "piles:\n  deck: {of: seat}\n  pool: {}\ncards:\n"
                       "  a: {count: 4, starts_in: deck, per_seat: true}\n"
                       "  b: {count: 3, starts_in: pool}\n")
    rc, out, err = validate(capsys, game.parent)
    assert rc == 0, err
    assert "main (1 step); 1 trigger\n" in out
    assert "cards: 2 kinds, 3 in all, 4 for each seat (a, b)" in out


def test_simulate_again_in_one_process_plays_the_files_as_they_are_now(tmp_path, monkeypatch):
    from interpreter.lab.simulate import simulate

    game = game_file(tmp_path, GAME)
    monkeypatch.chdir(tmp_path)
    before = simulate("tiny", 6, 2, seed=1, jobs=1)
    game.write_text(GAME.replace("    rounds: 2\n", "    rounds: 5\n"), encoding="utf-8")
    after = simulate("tiny", 6, 2, seed=1, jobs=1)
    assert before["length"]["rounds_mean"] == 2 and after["length"]["rounds_mean"] == 5


def test_a_snippet_shows_the_file_checked_not_one_of_the_same_name_read_before(capsys, tmp_path, monkeypatch,
                                                                               cache):
    """A process that read `rulesets/tiny/variants/longer.yaml` in one folder, then validates
    another folder whose file of that name has an error, on several processes: the error's
    line is shown as the file checked has it."""
    for side in ("a", "b"):
        game = game_file(tmp_path / side, GAME)
        variant(game.parent, "longer", "  - set: phases.main.rounds\n    to: 3\n" if side == "a" else
                "  - set: phases.main.roundz\n    to: 3\n")
    monkeypatch.chdir(tmp_path / "a")
    assert validate(capsys, "rulesets/tiny", "--jobs", "1")[0] == 0
    monkeypatch.chdir(tmp_path / "b")
    rc, _out, err = validate(capsys, "rulesets/tiny", "--jobs", "2")
    assert rc == 1 and "roundz" in err and "phases.main.rounds\n" not in err, err
