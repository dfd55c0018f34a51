"""The search bot (`--seats mcts[:BUDGET[:ROLLOUT[:TREES]]]`): it looks further than the greedy bot, plays
only on what its seat may know, replays exactly from its seed, and reports a rule its lookahead
breaks as a rule error. Its strength in the shipped games is measured by bench/bench_mcts.py."""
import random
from pathlib import Path

import pytest

from interpreter.agents.base import RandomAgent
from interpreter.agents.belief import believed
from interpreter.agents.greedy import GreedyAgent
from interpreter.agents.kinds import BOTS, bot
from interpreter.agents.mcts import SearchAgent
from interpreter.cli import main
from interpreter.engine.game import Game
from interpreter.base.errors import RuleError
from interpreter.session.agents import make_agents
from interpreter.session.load import load
from interpreter.session.playing import play

ROOT = Path(__file__).resolve().parents[1]
SEALED = str(ROOT / "tests" / "fixtures" / "sealed" / "rulesets" / "sealed")

# Two players take 1 or 2 tokens in turn; whoever takes the last one wins. From 4 tokens the
# winning move is to take 1 (the other then faces 3); a bot that counts the tokens it holds
# (`evaluate`) takes 2 and loses. `take 3`, allowed once, poisons the next turn: a rule error.
NIM = """\
game: {id: nim, name: Last token, players: {min: 2, max: 2}}
state:
  left: {of: game, type: int, initial: 4}
  taken: {of: seat, type: int}
  won: {of: seat, type: int}
  poison: {of: game, type: int}
phases:
  - id: play
    order: "seats"
    turn: player
    until: "left == 0"
    steps:
      - id: take
        do: |
          left = left // (1 - poison)
          choose "Take" by player:
              option "take {n}" for n in 1..2 if n <= left:
                  left -= n
                  player.taken += n
                  if left == 0:
                      player.won = 1
                      end game
              option "take 3" if ALLOW_THREE and left >= 3:
                  poison = 1
result:
  rank: "seat.won"
evaluate: "seat.taken"
"""


def _nim(tmp_path, three: bool = False):
    folder = tmp_path / "rulesets" / "nim"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(NIM.replace("ALLOW_THREE", "true" if three else "false"),
                                      encoding="utf-8")
    return folder, load(str(folder)).plan(2)


@pytest.mark.parametrize("rollout", ["random", "greedy"])
def test_it_finds_the_winning_move_the_greedy_bot_misses(tmp_path, rollout):
    _folder, plan = _nim(tmp_path)
    game = Game(plan, 1)
    d = game.decision()
    labels = d.labels()
    assert labels[GreedyAgent(1).choose(game, d)] == "take 2"   # more tokens now, a lost game
    for seed in range(4):
        assert labels[SearchAgent(seed, 60, rollout).choose(game, d)] == "take 1"
    assert game.answers == [] and game.decision().labels() == labels  # it looked on copies


def test_it_beats_random_bots_at_formula_5():
    plan = load("formula5").plan(2)
    wins = 0.0
    for k in range(8):
        game = Game(plan, 100 + k)
        me = k % 2   # both seats in turn
        agents = [SearchAgent(f"{k}/m", 8) if s == me else RandomAgent(f"{k}/r") for s in range(2)]
        winners = play(game, agents)["winners"]
        wins += 1 / len(winners) if me in winners else 0
    # a random bot wins about half; greedy bots about 56% (simulate, 400 games)
    assert wins >= 6


def test_the_same_seed_gives_the_same_decisions():
    plan = load("formula5").plan(3)
    records = []
    for _ in range(2):
        game = Game(plan, 7)
        play(game, make_agents(["mcts:8", "greedy", "mcts:5:greedy"], 7))
        records.append(game.answers)
    assert records[0] == records[1] and len(records[0]) > 10


def test_another_seats_hidden_hand_does_not_steer_it():
    plan = load("formula5").plan(3)
    a, b = Game(plan, 3), Game(plan, 3)
    hand = plan.pile_base["hand"] + 1        # seat 2's hand, which seat 1 does not see
    deck = plan.pile_base["deck"]
    st = b.st
    st.own_cards()
    mine, theirs = st.piles[hand][0], st.piles[deck][0]   # swap a card of it with an unseen one
    st.piles[hand][0], st.piles[deck][0] = theirs, mine
    st.where[mine], st.where[theirs] = deck, hand
    assert a.st.piles[hand] != b.st.piles[hand]
    seat = a.decision().seat
    tables = [believed(g, seat, random.Random(5), lambda x: 0) for g in (a, b)]
    assert tables[0].st.piles == tables[1].st.piles      # the same belief whatever the truth
    assert tables[0].st.piles[plan.pile_base["hand"] + seat] == a.st.piles[plan.pile_base["hand"] + seat]
    picks = [SearchAgent(9, 24).choose(g, g.decision()) for g in (a, b)]
    assert picks[0] == picks[1]


def test_what_an_earlier_seat_committed_does_not_steer_it():
    plan = load(SEALED).plan(3)
    games = []
    for first in (0, 2):          # seat 1 bids 1 in one game, 3 in the other, in secret
        game = Game(plan, 4)
        game.choose(first)
        games.append(game)
    assert [g.decision().seat for g in games] == [1, 1]
    # on seat 2's tables seat 1 commits again, as the policy says (bid 2), whatever it really bid
    tables = [believed(g, 1, random.Random(2), lambda x: 1) for g in games]
    assert [[pick for pick, _opt in t.st.simul.commits[0].answers] for t in tables] == [[1], [1]]
    for t in tables:
        assert t.decision().seat == 1 and t.decision().labels() == ["bid 1", "bid 2", "bid 3"]
    for seed in range(3):
        picks = [SearchAgent(seed, 30).choose(g, g.decision()) for g in games]
        assert picks[0] == picks[1]
    real = [g.st.simul.commits[0].answers for g in games]
    assert real[0] != real[1]    # the real games differ


def test_a_rule_its_lookahead_breaks_is_a_rule_error(tmp_path, capsys):
    folder, plan = _nim(tmp_path, three=True)
    game = Game(plan, 1)
    with pytest.raises(RuleError) as err:
        play(game, [SearchAgent(1, 40), RandomAgent(2)])
    assert "nim/game.yaml:15:18:" in str(err.value) and "division by zero" in str(err.value)
    assert game.answers == []   # found while looking ahead, before the real game played on
    rc = main(["play", str(folder), "--seats", "mcts:40,random"])
    out = capsys.readouterr()
    assert rc == 1 and "division by zero" in out.err and "Traceback" not in out.err + out.out


def test_the_seat_kind_reads_budget_and_rollout():
    agent = bot("mcts")(3)
    assert isinstance(agent, SearchAgent) and (agent.budget, agent.rollout) == (100, "random")
    agent = BOTS["mcts:30:greedy"]("1/2")
    assert (agent.budget, agent.rollout, agent.trees) == (30, "greedy", 1)
    agent = BOTS["mcts:30:random:2"]("1/2")
    assert (agent.budget, agent.rollout, agent.trees) == (30, "random", 2)
    assert "mcts:7" in BOTS and "mcts:x" not in BOTS and "greedy" in BOTS


@pytest.mark.parametrize("kind, message", [
    ("mcts:abc", "`mcts:abc`: the search bot's budget is a whole number of games it plays forward "
                 "per decision, e.g. mcts:200"),
    ("mcts:", "budget is a whole number"),
    ("mcts:0", "budget is 1 to 1,000 games per decision"),
    ("mcts:1000000", "budget is 1 to 1,000 games per decision (the engine's cap"),
    ("mcts:-5", "budget is a whole number"),
    ("mcts:20:clever", "`mcts:20:clever`: the search bot's rollouts are random or greedy, "
                       "e.g. mcts:20:greedy"),
    ("mcts:20:greedy:3:1", "written mcts, mcts:BUDGET, mcts:BUDGET:ROLLOUT or mcts:BUDGET:ROLLOUT:TREES"),
    ("mcts:20:greedy:0", "`mcts:20:greedy:0`: the search bot's trees are 1 to 8 (they share its budget "
                         "of 20 games, searched side by side on the cores there are), e.g. mcts:20:greedy:2"),
    ("mcts:20:random:9", "trees are 1 to 8"),
    ("mcts:3:random:4", "trees are 1 to 3 (they share its budget of 3 games"),
    ("mcts:20:random:two", "trees are 1 to 8"),
])
def test_a_malformed_search_bot_is_a_clear_usage_error(capsys, kind, message):
    with pytest.raises(ValueError) as err:
        bot(kind)
    assert message in str(err.value)
    for command in (["play", "formula5", "--seats", f"{kind},random"],
                    ["simulate", "formula5", "--seats", f"random,{kind}", "--games", "1"]):
        assert main(command) == 2
        out = capsys.readouterr()
        assert message in out.err and out.out == "" and "Traceback" not in out.err


# ---- signs of life --------------------------------------------------------------------------------

def test_a_person_sees_the_search_bot_thinking(monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("a\n"))
    assert main(["play", "formula5", "--seats", "human,mcts:5", "--seed", "3"]) == 1  # the input ends
    out = capsys.readouterr().out
    thinking = out.index("  seat 2 (mcts:5) is thinking…")
    assert out.index("blue (seat 2) plays", thinking) > thinking  # then its move


def test_a_terminal_shows_a_spinner_with_the_games_played_forward():
    import io
    import time

    from interpreter.table.terminal.screen import Terminal

    class Tty(io.StringIO):
        def isatty(self):
            return True

    raw = Tty()
    term = Terminal(raw, raw)
    if term.console is None:  # NO_COLOR or a dumb terminal here: plain lines instead
        pytest.skip("no colour terminal")
    with term.status(lambda: "seat 2 (mcts) is thinking… 7 games played forward"):
        time.sleep(0.3)
    assert "seat 2 (mcts) is thinking… 7 games played forward" in raw.getvalue()


def test_a_simulation_with_the_search_bot_tells_each_game_and_a_real_rate(capsys):
    from interpreter.lab.simulate import duration, rate

    assert rate(2000, 10.0) == "200 games/s" and rate(5, 2.0) == "2.5 games/s"
    assert rate(20, 500.0) == "25 s a game" and duration(510.0) == "8 min 30 s"
    assert main(["simulate", "formula5", "--seats", "mcts:3,random", "--games", "3", "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    told = [line for line in captured.err.splitlines() if line.startswith("  ")]
    assert [line.split(" games,")[0].strip() for line in told] == ["1/3", "2/3", "3/3"]
    assert "left" in told[0] and "left" not in told[-1]
    throughput = captured.out.splitlines()[-1]
    assert throughput.startswith("throughput: ") and "throughput: 0 games/s" not in throughput


def test_a_search_split_into_trees_chooses_alike_on_one_core_or_several(monkeypatch):
    """`mcts:BUDGET:ROLLOUT:TREES` shares its budget among trees searched side by side, each with
    a generator of its own seeded from the bot's: its choices are the same whether the trees ran
    in forked processes or one after the other here (and so on any machine)."""
    import os

    from interpreter.agents import forest

    plan = load("heat", track="usa").plan(2)
    forks = []
    real_fork = os.fork

    def counted_fork():
        pid = real_fork()
        if pid:
            forks.append(pid)
        return pid

    def picks(cores: int) -> list[int]:
        monkeypatch.setattr(forest, "cores", lambda: cores)
        game, mine, out = Game(plan, 3), SearchAgent(11, 16, "random", trees=2), []
        other = GreedyAgent(4)
        while len(out) < 6:
            d = game.decision()
            pick = mine.choose(game, d) if d.seat == 0 else other.choose(game, d)
            if d.seat == 0 and d.count > 1:
                out.append(pick)
                assert 0 < mine.played <= 16   # games forward, every tree counted
            game.choose(pick)
        return out

    monkeypatch.setattr(os, "fork", counted_fork)
    several = picks(2)
    assert forks, "the second tree ran in a forked process"
    forks.clear()
    assert picks(1) == several and not forks


def test_searches_side_by_side_give_their_results_in_order_and_their_errors_here(monkeypatch, tmp_path):
    """What a forked search gives comes back in order; a rule error in it is raised here as that
    rule's error; any other failure is said; nothing forked outlives the call, also when this
    process's own search fails."""
    import os
    import time

    from interpreter.agents import forest
    from interpreter.base.diagnostics import Loc

    monkeypatch.setattr(forest, "cores", lambda: 3)
    assert forest.side_by_side([lambda: ("a", os.getpid()), lambda: ("b", os.getpid()),
                                lambda: ("c", os.getpid())])[0] == ("a", os.getpid())
    results = forest.side_by_side([lambda: 1, lambda: [2, {"k": 3.5}], lambda: None])
    assert results == [1, [2, {"k": 3.5}], None]
    monkeypatch.setattr(forest, "cores", lambda: 2)   # more tasks than processes: shared in turn
    ran = forest.side_by_side([lambda k=k: (k, os.getpid()) for k in range(5)])
    assert [k for k, _pid in ran] == [0, 1, 2, 3, 4]
    assert {pid for k, pid in ran if k % 2 == 0} == {os.getpid()}
    assert len({pid for k, pid in ran if k % 2}) == 1 and os.getpid() not in {pid for k, pid in ran if k % 2}
    monkeypatch.setattr(forest, "cores", lambda: 3)

    def broken_rule():
        raise RuleError("division by zero", Loc("game.yaml", 3, 7), "functions.half")
    with pytest.raises(RuleError) as err:
        forest.side_by_side([lambda: 0, broken_rule])
    assert (err.value.message, err.value.loc, err.value.rule) == ("division by zero", Loc("game.yaml", 3, 7),
                                                                  "functions.half")
    with pytest.raises(RuntimeError, match="a search process failed: KeyError"):
        forest.side_by_side([lambda: 0, lambda: {}["missing"]])

    pid_file = tmp_path / "pid"

    def slow():
        pid_file.write_text(str(os.getpid()))
        time.sleep(60)

    def failing_here():
        for _ in range(500):
            if pid_file.exists() and pid_file.read_text():
                break
            time.sleep(0.01)
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        forest.side_by_side([failing_here, slow])
    child = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)   # stopped and waited for: no such process


def test_a_forked_search_keeps_the_time_budget_of_the_table(monkeypatch):
    """A search process forked while a bot's decision runs under the table's time budget
    (`session/budget.py`) gets what is left of it: past it, the table hears it ran out of time."""
    import time

    from interpreter.agents import forest
    from interpreter.session.budget import OutOfTime, budget

    monkeypatch.setattr(forest, "cores", lambda: 2)

    def spin():
        end = time.process_time() + 30
        while time.process_time() < end:
            pass
    with budget(seconds=0.5), pytest.raises(OutOfTime):
        forest.side_by_side([lambda: 0, spin])
