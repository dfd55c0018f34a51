"""What a designer meets around the learned bot's files: a training whose games break a rule says
so, a file with a weight too large, fields that do not fit the game or the bot, an unusable cache
folder, an --out that is not a trained file, seat strings that mislead, and the small print. On the
tiny game of tests/test_learned.py, so that each training takes a second or two."""
import json

import pytest

from interpreter.agents.learned import Judge, ModelError, model_of, read_model
from interpreter.cli import main
from interpreter.session.load import load
from test_learned import NIM, _nim, _train

NO_EVALUATE = NIM.replace('evaluate: "seat.taken"\n', "")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A game, the same game without `evaluate:`, and a file trained for each (one at each form)."""
    tmp = tmp_path_factory.mktemp("files")
    game = _nim(tmp)
    plain = _nim(tmp / "plain", NO_EVALUATE)
    out, bare, at_round = tmp / "nim.json", tmp / "bare.json", tmp / "round.json"
    assert _train(game, out) == 0
    assert _train(plain, bare) == 0
    assert _train(game, at_round, "--at", "round") == 0
    return {"game": game, "plain": plain, "out": out, "bare": bare, "round": at_round}


def _refused(capsys, game: str, kind: str) -> str:
    assert main(["simulate", game, "--seats", f"{kind},random", "--games", "2", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "internal error" not in err
    return err


def test_a_weight_too_large_is_refused_and_a_value_never_overflows(files, tmp_path, capsys):
    data = json.loads(files["bare"].read_text())
    data["features"][0]["weight"] = 1e308
    big = tmp_path / "big.json"
    big.write_text(json.dumps(data))
    err = _refused(capsys, files["plain"], f"learned:{big}")
    assert "weights and the bias lie between -1,000,000,000,000 and 1,000,000,000,000" in err
    data = json.loads(files["bare"].read_text())
    with pytest.raises(ModelError, match="`bias` is -10000000000000"):
        model_of(dict(data, bias=-1e13))
    # the value of a table, as the greedy bot reads it: a whole number, however large the sum
    plan = load(files["plain"], (), (), None, None).plan(2)
    from interpreter.engine.game import Game

    judge = Judge(model_of(data), plan)
    st = Game(plan, 1).st
    for weight in (1e12, -1e12):
        judge.weights = [weight] * len(judge.weights)
        judge.bias = weight
        assert abs(judge(st, {"seat": 0})) <= 10**18
    judge.features.vectors = lambda *a: [[10**400] * len(judge.weights)]   # beyond a float
    assert judge(st, {"seat": 0}) == -10**18


def test_fields_that_do_not_fit_the_game_are_refused(files, tmp_path, capsys):
    data = json.loads(files["bare"].read_text())
    lying = tmp_path / "lying.json"
    lying.write_text(json.dumps(dict(data, evaluate=True)))
    err = _refused(capsys, files["plain"], f"learned:{lying}")
    assert "it reads the game's `evaluate:`, which Last token does not have" in err
    for trained in ("x", 3, [], {"at": "later"}):
        with pytest.raises(ModelError, match="`trained` must be the record racecraft train writes"):
            model_of(dict(data, trained=trained))
    assert model_of({k: v for k, v in data.items() if k != "trained"}).trained == {}


@pytest.mark.parametrize("content, said", [
    (b"", "the file is empty"),
    (b" \n", "the file is empty"),
    (b'{"format": "racecraft-learned-value",\n "version": 1', "the file stops short at line 2, column 14"),
    (b'{"format": "racecraft-learned-value"\n "version": 1}', "a comma is missing at line 2, column 2"),
    (b'{"a": 1} x', "more follows the end of the data at line 1, column 10"),
])
def test_a_file_that_is_not_json_is_said_in_words(tmp_path, content, said):
    f = tmp_path / "bot.json"
    f.write_bytes(content)
    with pytest.raises(ModelError) as e:
        read_model(str(f))
    assert said in str(e.value) and "Expecting" not in str(e.value) and "char" not in str(e.value)


@pytest.mark.parametrize("kind, said", [
    ("learned:x:bot.json", "`learned:x:bot.json`: in learned:TABLES:FILE, TABLES is a whole number "
                           "from 1 to 64"),
    ("learned:-1:f", "TABLES is a whole number from 1 to 64 (the believed tables each option is played on), "
                     "e.g. learned:4:f"),
    ("mcts:10:learned:", "`mcts:10:learned:`: name the learned bot's file, e.g. mcts:10:learned:bot.json"),
    ("mcts:10:learned", "`mcts:10:learned`: name the learned bot's file, e.g. mcts:10:learned:bot.json"),
    ("mcts:10:clever", "rollouts are random or greedy, e.g. mcts:10:greedy (or judged by a learned bot: "
                       "mcts:10:learned:FILE)"),
    ("robot", "mcts[:BUDGET[:ROLLOUT[:TREES]]], mcts:BUDGET:learned:FILE or learned[:TABLES]:FILE"),
])
def test_a_seat_string_that_misleads_says_what_is_meant(capsys, kind, said):
    assert said in _refused(capsys, "formula5", kind)


def test_a_file_whose_name_holds_a_colon_is_still_read(files, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x:bot.json").write_bytes(files["out"].read_bytes())
    assert main(["simulate", files["game"], "--seats", "learned:x:bot.json,random", "--games", "2",
                 "--jobs", "1"]) == 0


def test_a_training_whose_games_break_a_rule_says_so(tmp_path, capsys):
    # taking the row down to 3 tokens divides by zero: some games fail, the others end
    buggy = _nim(tmp_path / "some", NIM.replace("player.taken += n",
                                                "player.taken += n + 0 // (size(row) - 3)"))
    out = tmp_path / "bot.json"
    assert _train(buggy, out) == 0 and read_model(str(out)).game == "nim"
    captured = capsys.readouterr()
    warning, first = [line for line in captured.err.splitlines() if not line.startswith("  ")]
    failed = int(warning.split("warning: ")[1].split(" of 24 games of the training failed")[0])
    assert 0 < failed < 24 and "the value is learned from the" in warning
    assert first.startswith("failed game ") and "game.yaml:" in first and ": division by zero" in first
    line, col = first.split("game.yaml:")[1].split(":")[:2]
    assert line.isdigit() and col.isdigit()
    ended = json.loads(out.read_text())["trained"]["ended"]
    assert f"learned from {ended} games (" in captured.out
    # every game fails: nothing to learn from, and the first rule error says where
    broken = _nim(tmp_path / "all", NIM.replace("player.taken += n", "player.taken += n // 0"))
    assert _train(broken, tmp_path / "none.json") == 1
    err = capsys.readouterr().err.splitlines()[-1]
    assert err.startswith("rule error: no game of Last token ended: nothing to learn from; all ")
    assert "games played failed, the first: game 0 (seed 1000003): " in err and "division by zero" in err
    assert not (tmp_path / "none.json").exists()


def test_a_seat_learned_is_played_where_its_cache_folder_cannot_be_written(files, tmp_path, monkeypatch,
                                                                            capsys):
    from interpreter.agents import learned

    blocked = tmp_path / "afile"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    monkeypatch.setattr(learned, "_TRAINED", {})
    assert main(["simulate", files["game"], "--seats", "learned,random", "--games", "2", "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    assert "training the learned bot for Last token, 2 players (400 games, not kept)" in captured.err
    assert "note: the learned bot is not kept for the next command (the folder " in captured.err
    assert "cannot be made: Not a directory); set XDG_DATA_HOME to a folder you can write" in captured.err
    assert "seat 1  learned" in captured.out and blocked.read_text() == "not a folder"


def test_train_replaces_only_a_trained_file(files, tmp_path, capsys):
    game_file = tmp_path / "game.yaml"
    game_file.write_text(NIM)
    assert _train(files["game"], game_file) == 2
    assert capsys.readouterr().err == (f"racecraft train: error: --out {game_file} exists and is not a "
                                       "trained bot: give another file name\n")
    assert game_file.read_text() == NIM
    for content in ("", "[1, 2]", '{"format": "something else"}'):
        game_file.write_text(content)
        assert _train(files["game"], game_file) == 2
    earlier = tmp_path / "earlier.json"
    earlier.write_text(json.dumps(dict(json.loads(files["out"].read_text()), version=0)))
    assert _train(files["game"], earlier, "--seed", "2") == 0
    assert read_model(str(earlier)).trained["seed"] == 2
    assert _train(files["game"], "") == 2
    assert capsys.readouterr().err.splitlines()[-1] == "racecraft train: error: --out needs a file name"


def test_the_small_print_of_a_training(files, tmp_path, monkeypatch, capsys):
    from interpreter.lab import commands

    assert main(["train", files["game"], "--players", "2", "--games", "1", "--jobs", "1",
                 "--out", str(tmp_path / "one.json")]) == 0
    assert " learned from 1 game (" in capsys.readouterr().out
    assert commands._many(1, "table") == "1 table" and commands._many(954_252, "table") == "954,252 tables"
    assert commands._many(99_594, "game") == "99,594 games"
    # no time left is guessed from the first few games, as the processes start
    clock = [0.0]
    monkeypatch.setattr("time.perf_counter", lambda: clock[0])
    progress = commands._progress_lines(1_000_000)
    for done, at in ((4, 0.3), (40, 5.0), (40_000, 10.5), (100_000, 12.0)):
        clock[0] = at
        progress(done, 1_000_000)
    told = capsys.readouterr().err.splitlines()
    assert [line.split("/")[0].strip() for line in told] == ["4", "40000", "100000"]
    assert ["left" in line for line in told] == [False, True, True]
    progress = commands._progress_lines(1_000)
    for done, at in ((4, 0.01), (100, 0.2)):
        clock[0] = at
        progress(done, 1_000)
    assert ["left" in line for line in capsys.readouterr().err.splitlines()] == [False, True]


def test_a_file_of_the_other_form_is_played_with_a_note(files, capsys):
    at_round, at_option = files["round"], files["out"]
    for kind, said in ((f"learned:{at_round}", f"note: {at_round} was trained --at round, for "
                        f"learned:TABLES:FILE or mcts:BUDGET:learned:FILE: as `learned:{at_round}` it "
                        "plays weakly (docs/bots.md)"),
                       (f"learned:2:{at_option}", f"note: {at_option} was trained for learned:FILE (the "
                        f"tables right after an option); `learned:2:{at_option}` judges the start of a "
                        "round, which racecraft train --at round fits (docs/bots.md)"),
                       (f"mcts:5:learned:{at_option}", "which racecraft train --at round fits")):
        assert main(["simulate", files["game"], "--seats", f"{kind},random", "--games", "1",
                     "--jobs", "1"]) == 0
        assert said in capsys.readouterr().err
    for kind in (f"learned:{at_option}", f"learned:2:{at_round}", f"mcts:5:learned:{at_round}"):
        assert main(["simulate", files["game"], "--seats", f"{kind},random", "--games", "1",
                     "--jobs", "1"]) == 0
        assert "note:" not in capsys.readouterr().err


def test_greedy_on_a_game_without_evaluate_is_said_once(files, capsys):
    said = ("note: Last token has no evaluate:, so greedy plays at random; racecraft train makes a bot that "
            "learns it (docs/bots.md)\n")
    assert main(["simulate", files["plain"], "--seats", "greedy,greedy", "--games", "4", "--jobs", "1"]) == 0
    assert capsys.readouterr().err.count("note:") == 1
    assert main(["compare", files["plain"], "--seats", "greedy,random", "--against-seats", "random,greedy",
                 "--games", "3", "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert err.count("note:") == 1 and said in err
    assert main(["play", files["plain"], "--seats", "greedy,random", "--no-log"]) == 0
    err = capsys.readouterr().err
    assert err.count("note:") == 1 and said in err
    assert main(["simulate", files["plain"], "--seats", "mcts:3:greedy,random", "--games", "1",
                 "--jobs", "1"]) == 0
    assert "so the search bot's greedy rollouts play at random" in capsys.readouterr().err
    for game, kinds in ((files["game"], "greedy,mcts:3:greedy"), (files["plain"], "random,mcts:3")):
        assert main(["simulate", game, "--seats", kinds, "--games", "1", "--jobs", "1"]) == 0
        assert "note:" not in capsys.readouterr().err


def test_a_fit_a_seat_could_not_read_back_is_said_and_never_written(files, tmp_path, monkeypatch, capsys):
    """A fit whose weight comes out beyond the bounds a file is read with (a game of numbers too
    large to weigh) is a rule error of the training, in one line; no file is left to be refused."""
    import interpreter.lab.train as train_mod

    trained = train_mod.train

    def too_large(*args, **kwargs):
        model = trained(*args, **kwargs)
        model.weights = [float("inf")] + model.weights[1:]
        return model
    monkeypatch.setattr(train_mod, "train", too_large)
    out = tmp_path / "huge.json"
    assert _train(files["game"], out) == 1
    said = capsys.readouterr().err.splitlines()[-1]   # (after the progress lines)
    assert said.startswith("rule error: the training's value cannot be used: the weight of `") and \
        "came out as Infinity, beyond what a bot can weigh" in said and "nothing written" in said, said
    assert not out.exists()


def test_a_season_whose_game_the_bot_was_not_trained_for_is_refused_before_it_starts(files, tmp_path, capsys):
    """A season of two games, the second with a variant: a bot trained for the game alone is refused
    at the start, naming the game (it was refused after the first game had been played)."""
    import shutil

    folder = tmp_path / "rulesets" / "nim"
    shutil.copytree(files["game"], folder)
    (folder / "variants").mkdir()
    (folder / "variants" / "gems.yaml").write_text(
        "variant: {id: gems, name: Gems count double, description: authored for a test}\n"
        "patches:\n  - set: cards.gem.count\n    to: 6\n")
    (folder / "seasons").mkdir()
    (folder / "seasons" / "two.yaml").write_text(
        "season: {name: Two, description: two games}\nraces:\n  - {}\n  - {variants: [gems]}\n"
        "standings: {by: [won]}\n")
    save = tmp_path / "season.json"
    rc = main(["championship", str(folder), "--season", "two", "--seats", f"learned:{files['out']},random",
               "--save", str(save)])
    err = capsys.readouterr().err
    assert rc == 2 and not save.exists(), err
    assert "in the season's game 2 of 2: Gems count double, `learned:" in err
    assert "trained for other rules" in err


def test_a_simulation_whose_every_game_fails_measures_nothing(tmp_path, capsys):
    """No rates of no games, no length of 0 rounds: that nothing ran to its end, and each error."""
    buggy = _nim(tmp_path / "all", NIM.replace("player.taken += n", "player.taken += n // 0"))
    assert main(["simulate", buggy, "--games", "3", "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert "no game ran to its end: nothing to measure" in out
    assert "wins by seat" not in out and "length:" not in out and out.count("failed game ") == 3
