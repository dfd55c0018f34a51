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
