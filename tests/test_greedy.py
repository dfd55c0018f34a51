"""The greedy bot (`agents/greedy.py`) on games written for these tests."""
from __future__ import annotations

import random

from authored import compiled
from interpreter.agents.greedy import GreedyAgent
from interpreter.engine.game import Game
from interpreter.session.load import load
from interpreter.session.playing import play

# Each seat may wait or step; a step tires the seat more than it gains, by the game's `evaluate:`,
# so a bot one move ahead always prefers to wait: a designer's first draft.
WAIT = """\
language: 2
game: {id: wait, name: Wait, players: {min: 2, max: 2}}
state:
  pos: {of: seat, type: int}
  tired: {of: seat, type: int}
phases:
  - id: race
    order: "seats"
    turn: s
    until: "max([x.pos for x in seats]) >= 3"
    steps:
      - id: move
        do: |
          choose "Move?" by s:
              option "wait":
                  pass
              option "step":
                  s.pos += 1
                  s.tired += 2
result:
  rank: "0 - seat.pos"
evaluate: "seat.pos - seat.tired"
"""


def test_a_bot_that_waited_on_a_table_does_something_when_it_comes_back_the_same(tmp_path):
    """Two greedy bots that both prefer to wait ended every game at its round limit (1,000 rounds);
    a bot that waited on a table takes the best option that does something when the same table
    comes back (a new round's count aside), so the race ends."""
    plan = compiled(tmp_path, "wait", WAIT, players=2)
    game = Game(plan, 1)
    play(game, [GreedyAgent(1), GreedyAgent(2)])
    assert game.over and game.st.g["round"] <= 10
    labels = []
    again = Game(plan, 1)
    bots = [GreedyAgent(1), GreedyAgent(2)]
    while not again.over:
        d = again.decision()
        pick = bots[d.seat].choose(again, d)
        labels.append(d.labels()[pick])
        again.choose(pick, d.seat)
    # each waits on the first table; the first to see it again steps (the other then sees a new one)
    assert labels[:4] == ["wait", "wait", "step", "wait"]
    assert labels.count("step") >= 3



# A betting race written with the natural action menu: roll the die, or place a bet, which then
# asks on whom. The evaluation counts a bet on the runner ahead as worth more than a roll.
BETS = """\
language: 2
game: {id: bets, name: Bets, players: {min: 2, max: 4}}
dice:
  d6: [1, 2, 3, 4, 5, 6]
state:
  pos: {of: seat, type: int}
  bet_on: {of: seat, type: seat}
phases:
  - id: race
    order: "seats"
    turn: s
    until: "max([x.pos for x in seats]) >= 20"
    steps:
      - id: act
        do: |
          choose "Your action" by s:
              option "roll the die":
                  s.pos += roll(d6)
              option "place a bet" if s.bet_on == none:
                  choose "On whom?" by s:
                      option "on {x}" for x in seats:
                          s.bet_on = x
result:
  rank: "0 - seat.pos"
evaluate: >
  seat.pos + (if seat.bet_on != none and seat.bet_on.pos == max([x.pos for x in seats]) then 10 else 0)
"""


def _labels(plan, seed: int, players: int) -> list[str]:
    game = Game(plan, seed)
    bots = [GreedyAgent(s) for s in range(players)]
    labels = []
    while not game.over:
        d = game.decision()
        pick = bots[d.seat].choose(game, d)
        labels.append(d.labels()[pick])
        game.choose(pick, d.seat)
    return labels


def test_an_option_that_asks_a_further_question_is_worth_its_best_answer(tmp_path):
    """"place a bet" changes nothing until "on whom?" is answered: judged by the table before
    that answer, four greedy bots only ever rolled the die; judged by its best answer, a bot
    bets, and on the runner ahead."""
    plan = compiled(tmp_path, "bets", BETS, players=4)
    labels = _labels(plan, 3, 4)
    assert labels.count("place a bet") == 4      # each seat bets once, when a bet is worth it
    ons = [labels[i + 1] for i, a in enumerate(labels) if a == "place a bet"]
    assert all(on.startswith("on ") for on in ons)
    assert labels == _labels(plan, 3, 4)         # the same seed, the same choices


def test_the_look_at_follow_up_questions_has_a_budget(tmp_path, monkeypatch):
    """Past its budget of tables the bot judges the table as it stands: a bet is then worth no
    more than the table before it, and the bots roll."""
    from interpreter.agents import greedy
    plan = compiled(tmp_path, "bets", BETS, players=4)
    monkeypatch.setattr(greedy, "LOOKS", 2)    # fewer than the four seats to bet on
    assert "place a bet" not in _labels(plan, 3, 4)


def test_a_quick_look_plays_each_option_once(monkeypatch):
    """`GreedyAgent(samples=1, depth=1)` (the search bot's play-on with a learned value) plays each
    option on one copy: no more believed outcomes of chance, no follow-up questions; the full look
    plays some options of a Heat race more than once (its flips for speed meet chance)."""
    from interpreter.engine import vm
    from interpreter.session.load import load

    plan = load("heat", (), (), None, None).plan(2)
    previews = [0]
    preview = vm.preview

    def counted(*args):
        previews[0] += 1
        return preview(*args)
    monkeypatch.setattr(vm, "preview", counted)
    game, rng = Game(plan, 3), random.Random(3)
    quick, full, looked, more = GreedyAgent("q", samples=1, depth=1), GreedyAgent("f"), 0, 0
    while not game.over and looked < 60:
        d = game.decision()
        if d.count > 1:
            previews[0] = 0
            quick.choose(game, d)
            assert previews[0] == d.count
            previews[0] = 0
            full.choose(game, d)
            more += previews[0] > d.count
            looked += 1
        game.choose(rng.randrange(d.count))
    assert looked == 60 and more > 0


def test_the_greedy_look_leaves_the_table_as_it_was_where_it_deals_hidden_cards(monkeypatch):
    """Downforce's look reads other seats' face-down power cards (whether a car's owner is Sly):
    the copies deal them anew (`hidden.Veil`), the real table stays as it was and unveiled."""
    from interpreter.engine import hidden

    plan = load("downforce").plan(3)
    game = Game(plan, 4)
    bots = [GreedyAgent(s) for s in range(3)]
    deals = [0]
    real = hidden._redeal_cards

    def counted(st, seat, rng):
        deals[0] += 1
        return real(st, seat, rng)

    monkeypatch.setattr(hidden, "_redeal_cards", counted)
    for _ in range(150):
        if game.over:
            break
        d = game.decision()
        st = d._st
        before = repr((st.piles, st.where, st.up, st.g, st.v))
        pick = bots[d.seat].choose(game, d)
        assert repr((st.piles, st.where, st.up, st.g, st.v)) == before and st.veil is None
        game.choose(pick)
    assert deals[0] > 0


# The choice sets only how far the runner will go (a local the next statement reads): every option
# leaves the very same table.
STRIDE = """\
language: 2
game: {id: stride, name: Stride, players: {min: 1, max: 1}}
state:
  pos: {of: seat, type: int}
phases:
  - id: race
    order: "seats"
    turn: s
    steps:
      - id: move
        do: |
          let n = 1
          choose "Stride?" by s:
              option "short":
                  n = 1
              option "long":
                  n = 3
              option "middle":
                  n = 2
          s.pos += n
    rounds: 3
result:
  rank: "seat.pos"
evaluate: "seat.pos"
"""


def test_options_that_leave_the_same_table_are_judged_played_on(tmp_path):
    """Right after the choice the table is the same whichever stride: greedy plays each option on
    to the next decision and takes the long one every time (it chose at random, a third of the
    time the long one)."""
    plan = compiled(tmp_path, "stride", STRIDE, players=1)
    picks = []
    for seed in range(12):
        game = Game(plan, seed)
        bot = GreedyAgent(seed)
        while not game.over:
            d = game.decision()
            pick = bot.choose(game, d)
            picks.append(d.labels()[pick])
            game.choose(pick)
        assert game.result()["scores"][0] == 9
    assert set(picks) == {"long"} and bot.ties[("steps.move", d.loc, False)] == [3, 0]
