"""The learned bot (`racecraft train`, `--seats learned:FILE`): training writes a plain JSON file,
the bot plays from it, a file made for another game, other rules or another number of players is
refused in one line, and the same seed writes the same file and makes the same choices. On a tiny
game, so that it takes a second or two; its strength is measured by bench/learned.py."""
import json

import pytest

from interpreter.agents.features import Features
from interpreter.agents.kinds import bot, on_file, thinks, unfit
from interpreter.agents.learned import LearnedAgent, ModelError, model_of, read_model
from interpreter.cli import main
from interpreter.engine.game import Game
from interpreter.session.load import load
from interpreter.session.playing import play

# Two players take 1 or 2 tokens in turn from a row with piles of their own; whoever takes the last
# one wins (the shape of tests/test_mcts.py's game, with cards: features of variables and piles).
NIM = """\
game: {id: nim, name: Last token, players: {min: 2, max: 2}}
cards:
  token: {count: 9, starts_in: row, props: {worth: 1, shade: plain}}
  gem: {count: 3, starts_in: row, props: {worth: 3, shade: bright}}
piles:
  row: {visible: all}
  kept: {of: seat, visible: owner}
state:
  taken: {of: seat, type: int}
  won: {of: seat, type: int}
setup: |
  shuffle row
phases:
  - id: play
    order: "seats"
    turn: player
    until: "size(row) == 0"
    steps:
      - id: take
        do: |
          choose "Take" by player:
              option "take {n}" for n in 1..2 if n <= size(row):
                  draw n from row to kept(player)
                  player.taken += n
                  if size(row) == 0:
                      player.won = 1
                      end game
result:
  rank: "seat.won"
evaluate: "seat.taken"
"""


def _nim(tmp_path, text: str = NIM) -> str:
    folder = tmp_path / "rulesets" / "nim"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(text)
    return str(folder)


def _train(ruleset: str, out, *more: str) -> int:
    return main(["train", ruleset, "--players", "2", "--games", "24", "--jobs", "1", "--out", str(out),
                 *more])


def _choices(plan, kind: str, seed: int) -> list:
    """What bot `kind` in seat 1 chooses in a game against a random bot."""
    picks: list = []
    agents = [bot(kind)(f"{seed}/0"), bot("random")(f"{seed}/1")]
    play(Game(plan, seed), agents, on_decision=lambda d, p: picks.append(p))
    return picks


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("learned")
    game = _nim(tmp)
    out = tmp / "nim.json"
    assert _train(game, out) == 0
    return game, out


def test_training_writes_plain_json_for_this_game(trained, capsys):
    game, out = trained
    data = json.loads(out.read_text())
    plan = load(game, (), (), None, None).plan(2)
    assert data["format"] == "racecraft-learned-value" and data["game"] == "nim"
    assert data["digest"] == plan.digest and data["players"] == 2
    names = [f["name"] for f in data["features"]]
    assert names == Features(plan, True).names
    # named from the ruleset's declarations, relative to the seat that judges
    assert {"own taken", "others' taken", "row: cards", "own kept: sum of worth", "own kept: shade=bright",
            "others' kept: cards", "own evaluation"} <= set(names)
    assert "others' kept: sum of worth" not in names   # another seat's hidden pile: its size only
    assert all(isinstance(f["weight"], float) for f in data["features"])
    # the weight of the evaluation tuned by play against greedy: each weight tried, in both seats
    tuning = data["trained"]["evaluation"]
    assert tuning["games"] == 4 and [k for k, _w in tuning["tried"]] == [0, 2, 4, 8, 16, 32]


def test_the_learned_bot_plays_and_simulates(trained, capsys):
    game, out = trained
    kind = f"learned:{out}"
    assert on_file(kind) and unfit(kind, load(game, (), (), None, None).plan(2)) is None
    assert main(["simulate", game, "--seats", f"{kind},random", "--games", "6", "--jobs", "1"]) == 0
    assert f"seat 1  {kind}" in capsys.readouterr().out


def test_the_same_seed_writes_the_same_file_and_makes_the_same_choices(trained, tmp_path):
    game, out = trained
    again = tmp_path / "again.json"
    assert _train(game, again) == 0
    assert again.read_bytes() == out.read_bytes()
    on_two = tmp_path / "two.json"   # on two processes: the same sums in the same order
    assert main(["train", game, "--players", "2", "--games", "24", "--jobs", "2", "--out", str(on_two)]) == 0
    assert on_two.read_bytes() == out.read_bytes()
    other = tmp_path / "other.json"
    assert _train(game, other, "--seed", "2") == 0
    assert other.read_bytes() != out.read_bytes()
    plan = load(game, (), (), None, None).plan(2)

    def choices(seed):
        picks = []
        agents = [bot(f"learned:{out}")(f"{seed}/{s}") for s in range(2)]
        play(Game(plan, seed), agents, on_decision=lambda d, p: picks.append(p))
        return picks
    assert choices(5) == choices(5)


def test_a_file_for_other_rules_is_refused_in_one_line(trained, tmp_path, capsys):
    game, out = trained
    changed = _nim(tmp_path, NIM.replace("count: 9", "count: 8"))
    assert main(["simulate", changed, "--seats", f"learned:{out},random", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "trained for other rules of Last token" in err and err.count("\n") == 1
    assert main(["simulate", "formula5", "--seats", f"learned:{out},random", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "trained for Last token (nim --players 2), not for Formula 5" in err
    assert main(["simulate", "formula5", "--seats", f"learned:{out},random,random", "--games", "2"]) == 2
    assert "not for Formula 5" in capsys.readouterr().err
    assert main(["championship", "heat", "--season", "1961", "--seats", f"learned:{out},greedy",
                 "--games", "1", "--jobs", "1"]) == 2
    assert "not for Heat" in capsys.readouterr().err
    # an agent asked to play another game all the same says so (no traceback, no wrong game)
    agent = LearnedAgent(1, path=str(out))
    g = Game(load("formula5", (), (), None, None).plan(2), 1)
    with pytest.raises(ModelError, match="not for Formula 5"):
        agent.choose(g, g.decision())


@pytest.mark.parametrize("content, said", [
    (None, "no such file"),
    (b"\xff\xfe", "not text"),
    (b"{not json", "not JSON"),
    (b"[]", "not a learned bot's file"),
    (b'{"format": "racecraft-learned-value", "version": 9}', "version 9"),
])
def test_a_missing_or_malformed_file_is_refused_in_one_line(tmp_path, capsys, content, said):
    f = tmp_path / "bot.json"
    if content is not None:
        f.write_bytes(content)
    assert main(["simulate", "formula5", "--seats", f"learned:{f},random", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert said in err and f"`learned:{f}`" in err and err.count("\n") == 1 and "Traceback" not in err


def test_every_field_of_a_file_is_checked(trained):
    _game, out = trained
    good = json.loads(out.read_text())
    assert model_of(good).features
    for key, value in [("players", "2"), ("players", 0), ("digest", 7), ("variants", "x"), ("track", 3),
                       ("evaluate", "yes"), ("features", []), ("features", [{"name": "x"}]),
                       ("features", [{"name": "x", "weight": float("nan")}]), ("bias", None)]:
        bad = dict(good, **{key: value})
        with pytest.raises(ModelError):
            model_of(bad)
    with pytest.raises(ModelError, match="too large"):
        big = out.parent / "big.json"
        big.write_text(" " * 2_000_001)
        read_model(str(big))


def test_a_web_table_offers_no_learned_bot():
    from interpreter.web.games import seat_problem as _bot_problem

    assert "learned bot plays from a file on the machine" in (_bot_problem("learned:/etc/passwd") or "")
    assert "learned bot plays from a file" in (_bot_problem("mcts:50:learned:/etc/passwd") or "")
    assert _bot_problem("greedy") is None


def test_the_search_bot_judges_its_leaves_by_the_learned_value(trained, capsys):
    game, out = trained
    kind = f"mcts:20:learned:{out}"
    assert on_file(kind) and unfit(kind, load(game, (), (), None, None).plan(2)) is None
    plan = load(game, (), (), None, None).plan(2)

    assert _choices(plan, kind, 3) == _choices(plan, kind, 3)
    assert main(["simulate", "formula5", "--seats", f"{kind},random", "--games", "1"]) == 2
    assert "not for Formula 5" in capsys.readouterr().err
    assert main(["simulate", game, "--seats", f"mcts:0:learned:{out},random", "--games", "1"]) == 2
    assert "budget is 1 to 1,000" in capsys.readouterr().err
    # its leaves are judged with the evaluation's weight as the fit gave it, not as tuned by play
    from interpreter.agents.learned import Judge
    model = read_model(out)
    at = model.features.index("own evaluation")
    fitted = model.trained["evaluation"]["fitted"]
    assert Judge(model, plan, fitted=True).weights[at] == fitted
    assert Judge(model, plan).weights[at] == model.weights[at]
    assert model.weights[at] != fitted or model.trained["evaluation"]["chosen"] == 0


def test_simulate_and_compare_train_a_seat_learned_once_per_game(trained, tmp_path, monkeypatch, capsys):
    from interpreter.agents import learned

    game, _out = trained
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(learned, "_TRAINED", {})
    assert main(["simulate", game, "--seats", "learned,random", "--games", "4", "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    assert "training the learned bot for Last token, 2 players" in captured.err
    assert "seat 1  learned" in captured.out
    kept = list((tmp_path / "data" / "racecraft" / "learned").glob("nim-*-2p.json"))
    assert len(kept) == 1 and read_model(str(kept[0])).game == "nim"
    assert main(["compare", game, "--seats", "learned,random", "--against-seats", "random,learned",
                 "--games", "4", "--jobs", "1"]) == 0
    assert "training" not in capsys.readouterr().err   # the same rules: read from the cache
    changed = _nim(tmp_path, NIM.replace("count: 9", "count: 7"))
    assert main(["simulate", changed, "--seats", "learned,random", "--games", "2", "--jobs", "1"]) == 0
    assert "training the learned bot" in capsys.readouterr().err   # other rules: trained for them
    # elsewhere (another process, which trained none) a seat `learned` names its file
    monkeypatch.setattr(learned, "_TRAINED", {})
    assert main(["play", game, "--seats", "learned,random", "--no-log"]) == 2
    assert "`learned` alone is a seat of simulate and compare" in capsys.readouterr().err


def test_the_features_of_every_seat_are_read_at_once_as_one_by_one():
    """`Features.vectors` reads what all seats share once (progress, orders, piles): each seat's
    features as `vector` gives them alone; a judge calls no function whose weight is 0, and values
    the table as the weights times all the features."""
    from interpreter.agents.base import RandomAgent
    from interpreter.agents.learned import Judge, Model

    plan = load("heat", (), (), None, None).plan(3)
    feats = Features(plan, True)
    tables: list = []
    agents = [RandomAgent(f"5/{s}") for s in range(3)]
    play(Game(plan, 5), agents, on_decision=lambda d, p: tables.append(d._st.clone()))
    for st in tables[::25]:
        assert feats.vectors(st) == [feats.vector(st, s) for s in range(3)]
        assert feats.vectors(st, (2, 0)) == [feats.vector(st, 2), feats.vector(st, 0)]
    weights = [0.5 if k % 3 else 0.0 for k in range(len(feats.names))]
    model = Model(plan.game_id, plan.name, plan.digest, 3, [], [], None, True, feats.names, weights, 0.25)
    judge = Judge(model, plan)
    called = []
    first = len(feats.names) - 1 - len(feats.readings)   # the functions' features, before the evaluation's
    for i, (kind, fn) in enumerate(judge.features.readings):
        def spy(st, who, fn=fn, k=first + i):
            called.append(k)
            return fn(st, who)
        judge.features.readings[i] = (kind, spy)
    st = tables[len(tables) // 2]
    values = judge.values(st)
    assert called and all(weights[k] != 0 for k in called)
    assert len(set(called)) < len(feats.readings)   # some have weight 0, and were not called
    for s in range(3):
        full = feats.vector(st, s)
        assert values[s] == pytest.approx(0.25 + sum(w * x for w, x in zip(weights, full)))
        assert judge.value(st, s) == values[s]


def test_features_equal_on_every_table_are_weighed_as_one(trained):
    """The fit weighs a group of features equal on every row by one of them (the first, or the
    evaluation where it is one of them): the same value on every row, and no weight on the others,
    whose functions a judge then does not call."""
    import numpy as np

    from interpreter.lab.train import merged

    rows = np.array([[1.0, 1.0, 2.0, 5.0], [3.0, 3.0, 1.0, 5.0], [4.0, 4.0, 0.0, 5.0]])
    z = np.hstack([rows, np.ones((3, 1))])
    zz = z.T @ z
    weights = np.array([0.25, 0.5, 2.0, 0.0])
    assert merged(zz, 4, weights).tolist() == [0.75, 0.0, 2.0, 0.0]
    assert merged(zz, 4, weights, first=1).tolist() == [0.0, 0.75, 2.0, 0.0]
    assert np.allclose(rows @ merged(zz, 4, weights, first=1), rows @ weights)
    # in the game, what a seat took is its evaluation and the size of its pile: the evaluation keeps it
    model = read_model(trained[1])
    weight = dict(zip(model.features, model.weights))
    assert weight["own taken"] == weight["own kept: cards"] == 0.0 != weight["own evaluation"]


def test_the_search_bot_judges_the_learned_value_at_the_start_of_a_round(trained, monkeypatch):
    """Below its tree the search bot with a learned value plays on to the start of the next round
    (or the end), the greedy bot answering there, and judges the table there: not the table where
    its tree stops, mid-round."""
    from interpreter.agents.greedy import GreedyAgent
    from interpreter.agents.mcts import SearchAgent

    game, out = trained
    plan = load(game, (), (), None, None).plan(2)
    rolled: list = []
    roll = SearchAgent._roll

    greedy_picks = [0]
    greedy = GreedyAgent.choose

    def counted(self, game, decision):
        greedy_picks[0] += 1
        return greedy(self, game, decision)

    def spy(self, g, to_round=False):
        before = g.st.g["__rounds"]
        picks = greedy_picks[0]
        roll(self, g, to_round)
        rolled.append((to_round, g.over or g.st.g["__rounds"] != before, greedy_picks[0] > picks or g.over))
    monkeypatch.setattr(SearchAgent, "_roll", spy)
    monkeypatch.setattr(GreedyAgent, "choose", counted)
    judged: list = []
    judge = SearchAgent._judged
    monkeypatch.setattr(SearchAgent, "_judged", lambda self, g: judged.append(g.over) or judge(self, g))
    play(Game(plan, 4), [bot(f"mcts:20:learned:{out}")("4/0"), bot("random")("4/1")])
    assert rolled and all(to_round and moved_on and by_greedy for to_round, moved_on, by_greedy in rolled)
    assert len(judged) >= len(rolled)


def test_the_learned_bot_looking_on_to_the_next_round(trained, monkeypatch, capsys):
    """`learned:TABLES:FILE` plays each option on believed tables to the first decision of the next
    round (or the end) and judges the table there with the learned value; the same seed makes the
    same choices; its file is checked as `learned:FILE`'s."""
    from interpreter.agents.learned import LookingAgent
    from interpreter.web.games import seat_problem as _bot_problem

    game, out = trained
    kind = f"learned:3:{out}"
    plan = load(game, (), (), None, None).plan(2)
    assert on_file(kind) and unfit(kind, plan) is None
    assert "learned bot plays from a file" in (_bot_problem(f"learned:3:{out}") or "")
    judged: list = []
    worth = LookingAgent._worth

    def spy(self, g, i, seat, judge):
        before = g.st.g["__rounds"]
        value = worth(self, g, i, seat, judge)
        judged.append(g.over or g.st.g["__rounds"] != before)
        return value
    monkeypatch.setattr(LookingAgent, "_worth", spy)

    assert _choices(plan, kind, 3) == _choices(plan, kind, 3)
    assert judged and all(judged)
    assert isinstance(bot(kind)(1), LookingAgent) and bot(kind)(1).tables == 3
    # it takes its time: a table shows it thinking, a simulation reports each game as it ends
    assert thinks(kind) and bot(kind)(1).thinks and not thinks(f"learned:{out}")
    assert main(["simulate", game, "--seats", f"{kind},random", "--games", "2", "--jobs", "1"]) == 0
    assert f"seat 1  {kind}" in capsys.readouterr().out
    for bad, said in ((f"learned:0:{out}", "1 to 64 believed tables"),
                      ("learned:2:", "name the learned bot's file"), (f"learned:3:{out}x", "no such file")):
        assert main(["simulate", game, "--seats", f"{bad},random", "--games", "1"]) == 2
        assert said in capsys.readouterr().err
    assert main(["simulate", "formula5", "--seats", f"{kind},random", "--games", "1"]) == 2
    assert "not for Formula 5" in capsys.readouterr().err


def test_training_at_the_start_of_each_round(trained, tmp_path, capsys):
    """`train --at round` fits the value to the tables at the first decision of each round (where
    `learned:TABLES:FILE` judges), its evaluation's weight as fitted (not tuned for the one look);
    the same seed writes the same file."""
    game, out = trained
    at_round = tmp_path / "round.json"
    assert _train(game, at_round, "--at", "round") == 0
    assert f"play it with --seats learned:4:{at_round}" in capsys.readouterr().out
    data = json.loads(at_round.read_text())
    assert data["trained"]["at"] == "round" and "evaluation" not in data["trained"]
    assert 0 < data["trained"]["rows"] < json.loads(out.read_text())["trained"]["rows"] * 4
    assert "at" not in json.loads(out.read_text())["trained"]
    again = tmp_path / "again.json"
    assert _train(game, again, "--at", "round") == 0 and again.read_bytes() == at_round.read_bytes()
    plan = load(game, (), (), None, None).plan(2)
    play(Game(plan, 2), [bot(f"learned:2:{at_round}")("2/0"), bot("random")("2/1")])


# Each round opens with a secret choice (a `simultaneously` block), as Heat's does.
SEALED = """\
game: {id: sealed, name: Sealed steps, players: {min: 2, max: 2}}
state:
  pos: {of: seat, type: int}
phases:
  - id: race
    order: "[seat(1)]"
    turn: leader
    until: "max([s.pos for s in seats]) >= 30"
    steps:
      - id: bid
        do: |
          simultaneously for s in seats:
              choose "Steps" by s:
                  option "{n}" for n in 1..3:
                      s.pos += n
      - id: dash
        do: |
          for s in seats:
              choose "Dash" by s:
                  option "dash":
                      s.pos += 1
                  option "rest":
                      pass
result:
  rank: "seat.pos"
evaluate: "seat.pos"
"""


def test_playing_on_to_the_next_round_stops_where_a_secret_choice_opens_it(tmp_path):
    """`playout.next_round` stops at the first decision of the next round even where that round
    opens with a `simultaneously` block (nobody has committed yet): the search bot with a learned
    value and `learned:TABLES:FILE` judge there, not up to their cap rounds later."""
    import random

    from interpreter.agents.playout import next_round, play_on

    plan = load(_nim(tmp_path, SEALED), (), (), None, None).plan(2)
    game = Game(plan, 1)
    rng = random.Random(1)
    stops = 0
    while not game.over:
        if game.decision().rule.endswith("dash"):   # mid-round: play a copy on
            g = game.clone(random.Random(stops))
            since = g.st.g["__rounds"]
            play_on(g, lambda x: rng.randrange(x.waiting()[1]), next_round(since, 100))
            assert g.over or (g.st.g["__rounds"] == since + 1 and g.collecting
                              and g.decision().rule.endswith("bid")), g.st.g
            stops += 1
        game.choose(rng.randrange(game.waiting()[1]))
    assert stops >= 4
