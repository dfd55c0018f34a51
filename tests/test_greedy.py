"""The greedy bot (`agents/greedy.py`) on games written for these tests."""
from __future__ import annotations

from authored import compiled
from interpreter.agents.greedy import GreedyAgent
from interpreter.engine.game import Game
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
