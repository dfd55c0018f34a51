"""The greedy bot: scores each option's afterstate and keeps the best for its seat.

It knows no game. The ruleset's `evaluate:` says how good a table is for a seat; the bot plays
each option's own effects on a copy of the state (`vm.preview`: the table right after the
option, before anybody else acts; an option that decides again is played up to that decision),
scores the copy (the mean of a few believed outcomes when the option meets chance), and picks
the best, breaking ties at random (seeded). It sees no more than its seat may: on the copies,
chance and the order of piles nobody sees come from the bot's own generator (`state.Belief`),
and before looking ahead each board kind rearranges what the seat cannot see (`redeal_hidden`:
face-down tiles), so that what lies hidden never steers it.
"""
from __future__ import annotations

import random

from ..engine import vm
from ..base.errors import RuleError
from ..lang.show import show
from ..lang.types import ANY

# Believed outcomes averaged for an option that meets chance (a draw from an unseen pile, a
# shuffle): with one, a lucky draw makes a risky option look safe; measured in docs/architecture.md.
SAMPLES = 3
# the tables a bot remembers having waited on (`_idle`): past this it forgets them all
MAX_IDLE = 10_000


class GreedyAgent:
    """A bot that plays one move ahead: each option played on a copy of the table as the seat may
    believe it, and judged with the ruleset's `evaluate:`."""
    name = "greedy"

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(seed)
        # the tables on which it took an option that changed nothing (a pass): taking it again on
        # the same table would go round without end when every seat prefers to wait
        self.idle: set[int] = set()

    def evaluator(self, game):
        """How the bot scores a table for a seat, `fn(st, {"seat": seat})` -> a whole number, or
        None to play at random: the ruleset's `evaluate:` (a learned bot reads its own)."""
        return game.plan.evaluate

    def choose(self, game, decision) -> int:
        evaluate = self.evaluator(game)
        if evaluate is None or decision.count == 1:
            return self.rng.randrange(decision.count)
        base = decision._st
        hiding = game.plan.hiding_kinds
        if hiding:
            base = base.clone()  # look ahead on a table the seat could believe in
            for k in hiding:
                k.redeal_hidden(base, decision.seat, self.rng)
        seat = decision.seat
        env = {"seat": seat}
        plan = game.plan
        best, picks = None, []
        scored: list[tuple[float, int]] = []
        idle: set[int] = set()    # the options that change nothing
        preview, rng = vm.preview, self.rng
        for i in range(decision.count):
            # an option whose consequences break a rule is never preferred; an error in
            # `evaluate` itself is the ruleset's, and is not hidden
            try:
                st = preview(base, i, rng)
            except RuleError:
                continue
            if st is not base:
                value = evaluate(st, env)
            else:  # on the real table (an option that does nothing) the evaluation only looks
                idle.add(i)
                steps, base.steps = base.steps, 0   # as `reading` does
                try:
                    value = evaluate(base, env)
                finally:
                    base.steps = steps
            if type(value) is not int:
                _number(plan, value, seat)
            if st.believe is not None and st.believe.chance:
                # the option met chance: score the mean of a few believed outcomes
                broke = False
                for _ in range(SAMPLES - 1):
                    try:
                        other = preview(base, i, rng)
                    except RuleError:
                        broke = True
                        break
                    value += _number(plan, evaluate(other, env), seat)
                if broke:
                    continue
                value /= SAMPLES
            scored.append((value, i))
            if best is None or value > best:
                best, picks = value, [i]
            elif value == best:
                picks.append(i)
        if not picks:
            return self.rng.randrange(decision.count)
        pick = picks[self.rng.randrange(len(picks))] if len(picks) > 1 else picks[0]
        if pick in idle:
            pick = self._idle(decision, pick, [(v, i) for v, i in scored if i not in idle])
        return pick

    def _idle(self, decision, pick: int, moving: list[tuple[float, int]]) -> int:
        """A pass (`pick` changes nothing), unless the bot passed on this very table before: then
        the best option that does something (a game where every seat prefers to wait would go
        round until its round limit)."""
        table = _table(decision._st, decision.seat, decision.rule)
        if table not in self.idle:
            if len(self.idle) >= MAX_IDLE:
                self.idle.clear()
            self.idle.add(table)
            return pick
        if not moving:
            return pick
        top = max(v for v, _ in moving)
        picks = [i for v, i in moving if v == top]
        return picks[self.rng.randrange(len(picks))] if len(picks) > 1 else picks[0]


def _table(st, seat: int, rule: str) -> int:
    """What a table is for a seat to be asked the same again: the cards where they lie and how
    they face, every variable but the count of rounds, the boards' data (a digest of them)."""
    g = tuple(sorted((k, repr(v)) for k, v in st.g.items() if k not in ("round", "__rounds")))
    return hash((seat, rule, tuple(map(tuple, st.piles)), tuple(st.up), g, repr(st.v), repr(st.bd)))


def _number(plan, value, seat: int):
    """The evaluation, which must be a number to be compared."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError(f"`evaluate` for seat {seat + 1} is {show(plan, ANY, value)}, not a number",
                        plan.evaluate_loc, "evaluate")
    return value
