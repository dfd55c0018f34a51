"""A function's value kept while a table is only looked at (`State.memo`, `game.reading`): a rule
that asks the same function of the same values again (a rank asked of each car in turn) computes
it once per look, and never keeps it while the game is played."""
from __future__ import annotations

from authored import compiled, write_game
from interpreter.agents.greedy import GreedyAgent
from interpreter.engine.game import Game, reading
from interpreter.session.playing import play

RANKS = """\
language: 2
game: {id: ranks, name: Ranks, players: {min: 2, max: 4}}
state:
  pos: {of: seat, type: int}
phases:
  - id: race
    order: "seats"
    turn: s
    until: "max([x.pos for x in seats]) >= 6"
    steps:
      - id: move
        do: |
          choose "How far?" by s:
              option "{k}" for k in 1..2:
                  s.pos += k
functions:
  rank:
    params: {s: seat}
    # asked of each seat in turn by `leaders`, and twice in `worth`
    value: "1 + size([x for x in seats if x.pos > s.pos])"
  worth:
    params: {s: seat}
    value: "if rank(s) > 2 then 0 else 10 - rank(s)"
  leaders:
    params: {s: seat}
    value: "size([x for x in seats if rank(x) == 1])"
  ahead_of:
    params: {s: seat}
    # asked once wherever it is asked: not kept
    value: "size([x for x in seats if x.pos > s.pos])"
result:
  rank: "rank(seat)"
evaluate: "worth(seat) + leaders(seat) + ahead_of(seat)"
"""


def test_a_function_asked_again_keeps_its_value_for_one_look_only(tmp_path):
    plan = compiled(tmp_path, "ranks", RANKS, players=3)
    game = Game(plan, 1)
    st = game.st
    rank, ahead = plan.readings["rank"][1], plan.readings["ahead_of"][1]
    st.v[plan.var_at["pos"] + 1] = 4

    def look():
        value = rank(st, 0), ahead(st, 0)
        return value, dict(st.memo)
    (r, a), kept = reading(st, look)
    assert (r, a) == (2, 1)
    assert list(kept.values()) == [2]      # rank's value, not ahead_of's (asked once)
    assert st.memo is None                 # the look is over: nothing kept while playing
    st.v[plan.var_at["pos"] + 2] = 5        # the table changes: the next look computes again
    assert reading(st, lambda: rank(st, 0)) == 3
    assert rank(st, 0) == 3                # played (no look): computed each time


def test_a_bot_that_looks_with_kept_values_chooses_as_without(tmp_path, monkeypatch):
    """The values kept change nothing a bot chooses: the same games with the look's memory
    switched off (a memory that never holds anything)."""
    plan = compiled(tmp_path, "ranks", RANKS, players=3)

    def games():
        out = []
        for seed in range(6):
            g = Game(plan, seed)
            play(g, [GreedyAgent(f"{seed}/{s}") for s in range(3)])
            out.append(g.answers)
        return out
    with_memo = games()
    from interpreter.agents import greedy

    def judge(self, st):  # the evaluation with no memory (`st.memo` stays None)
        return self.evaluate(st, self.env)
    monkeypatch.setattr(greedy._Look, "judge", judge)
    assert games() == with_memo


def test_a_function_that_rolls_keeps_no_value(tmp_path):
    """Asked twice alike, a function that draws chance (itself, or in a function it calls) is a
    roll each time: it keeps nothing, while one that draws none does."""
    from interpreter.compile import compile_ruleset
    from interpreter.load.ruleset import load_ruleset

    text = RANKS.replace("functions:\n", '''dice:
  d6: [1, 2, 3, 4, 5, 6]
functions:
  throw:
    value: "roll(d6)"
  throw_plus:
    params: {s: seat}
    value: "throw() + s.pos + size([x for x in seats if x.pos > 0])"
  twice:
    params: {s: seat}
    value: "throw_plus(s) + throw_plus(s) + rank(s) + rank(s)"
''').replace('evaluate: "', 'evaluate: "twice(seat) + ')
    plan = compile_ruleset(load_ruleset(write_game(tmp_path, "ranks", text)), 3, python=True)
    python = {g.rule: g.python for g in plan.codegen.generated}
    assert "st.memo" in python["functions.rank"]
    assert "st.memo" not in python["functions.throw_plus"]
