"""The greedy bot: scores each option's afterstate and keeps the best for its seat.

It knows no game. The ruleset's `evaluate:` says how good a table is for a seat; the bot plays
each option's own effects on a copy of the state (`vm.preview`: the table right after the
option, before anybody else acts; an option that decides again is played up to that decision),
scores the copy (the mean of a few believed outcomes when the option meets chance), and picks
the best, breaking ties at random (seeded). An option after which the same seat is asked again
at once (an action menu whose option then asks which bet or which space) is worth the best of
its follow-up answers, judged the same way a few questions deep (`DEPTH`, `LOOKS`): scoring the
table before the second answer would judge the action by a table it has not changed yet. It
sees no more than its seat may: on the copies, chance and the order of piles nobody sees come
from the bot's own generator (`state.Belief`), before looking ahead each board kind rearranges what
the seat cannot see (`redeal_hidden`: face-down tiles), and other seats' hidden cards are dealt
anew the first time the look reads them (`hidden.Veil`), so that what lies hidden never steers it.
"""
from __future__ import annotations

import random

from ..engine import vm
from ..engine.hidden import believe_held, held, veil
from ..engine.game import reading
from ..base.errors import RuleError
from ..lang.show import show
from ..lang.types import ANY

# Believed outcomes averaged for an option that meets chance (a draw from an unseen pile, a
# shuffle): with one, a lucky draw makes a risky option look safe; measured in docs/architecture.md.
SAMPLES = 3
# How many of its own questions in a row the bot follows after an option (the option's, then its
# follow-ups'), and how many tables it may play in all for one decision beyond the first look at
# each option: past either, a table waiting on the seat's next answer is judged as it stands.
# Measured (docs/bots.md): with 64 a tile race's greedy games took 10 times as long as without
# the follow-ups and won no more than with 16 (1.6 times as long); with 4 a little less.
DEPTH = 3
LOOKS = 16
# the tables a bot remembers having waited on (`_idle`): past this it forgets them all
MAX_IDLE = 10_000


class GreedyAgent:
    """A bot that plays one move ahead: each option played on a copy of the table as the seat may
    believe it, and judged with the ruleset's `evaluate:`."""
    name = "greedy"

    def __init__(self, seed: int | str = 0, samples: int = SAMPLES, depth: int = DEPTH):
        self.rng = random.Random(seed)
        # seeds the deal of what its seat cannot see (`hidden.Veil`): a generator of its own, so
        # that a game where the bot never looks at another seat's hidden cards plays as without it
        self.dealer = random.Random(f"{seed}/dealt")
        # believed outcomes of an option that meets chance, and questions followed: the search
        # bot's play-on asks for one of each (a quick look, `mcts.py`)
        self.samples, self.depth = samples, depth
        # the tables on which it took an option that changed nothing (a pass): taking it again on
        # the same table would go round without end when every seat prefers to wait
        self.idle: set[int] = set()
        # each choice (its rule and place) where it judged more than one option: how often, and how
        # often every option was worth the same to it (`lab/metrics.tie_notes`: an evaluation that
        # cannot tell a choice's options apart leaves the bot choosing at random there)
        self.ties: dict[tuple, list[int]] = {}   # (rule, place, in a secret step) -> [judged, tied]

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
        cards = held(base, decision.seat)
        if cards:   # the choice's locals hold cards the seat cannot see: dealt anew at once, with them
            base = base.clone() if base is decision._st else base
            believe_held(base, decision.seat, random.Random(self.dealer.getrandbits(64)), cards)
        look = _Look(game.plan, evaluate, decision.seat, self.rng, self.samples)
        # other seats' hidden cards: each copy the look plays on deals them anew the first time it
        # reads them (the table itself is only copied while veiled, never read: `_Look.options`)
        base.veil = veil(base, decision.seat, self.dealer)
        try:
            scored, idle = look.options(base, decision.count, self.depth)
        finally:
            base.veil = None
        if not scored:
            return self.rng.randrange(decision.count)
        if len(scored) > 1:
            key = (decision.rule, decision.loc, decision.simultaneous)
            count = self.ties.get(key)
            if count is None:
                count = self.ties[key] = [0, 0]
            count[0] += 1
            count[1] += min(scored)[0] == max(scored)[0]
        pick = self._best(scored)
        if pick in idle:
            pick = self._idle(decision, pick, [(v, i) for v, i in scored if i not in idle])
        return pick

    def _best(self, scored: list[tuple[float, int]]) -> int:
        """The option of the highest value, ties broken at random (seeded)."""
        top = max(scored)[0]
        picks = [i for v, i in scored if v == top]
        return picks[self.rng.randrange(len(picks))] if len(picks) > 1 else picks[0]

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
        return self._best(moving) if moving else pick


class _Look:
    """One decision's look ahead for `seat`: each option's table scored, following the seat's own
    next questions within the decision's budget of tables (`LOOKS`)."""

    __slots__ = ("plan", "evaluate", "seat", "env", "rng", "left", "samples")

    def __init__(self, plan, evaluate, seat: int, rng: random.Random, samples: int):
        self.plan = plan
        self.samples = samples
        self.evaluate = evaluate
        self.seat = seat
        self.env = {"seat": seat}
        self.rng = rng
        self.left = LOOKS

    def options(self, base, count: int, depth: int) -> tuple[list[tuple[float, int]], set[int]]:
        """Each option of the decision pending on `base` with its value, the options whose
        consequences break a rule left out (never preferred; an error in `evaluate` itself is
        the ruleset's, and is not hidden); and the options that change nothing. Where every
        option leaves the very same table (they differ only in what the rules do next: a number
        the next statements use), each is judged again played on to the next decision."""
        scored: list[tuple[float, int]] = []
        idle: set[int] = set()
        tables = []
        preview = vm.preview
        for i in range(count):
            try:
                st = preview(base, i, self.rng)
            except RuleError:
                continue
            if st is base:
                idle.add(i)
            value = self._score(base, i, st, depth, preview)
            if value is not None:
                tables.append(st)
                scored.append((value, i))
        if depth > 1 and 1 < len(scored) <= self.left and min(scored)[0] == max(scored)[0] \
                and all(vm.unchanged(st, base) for st in tables):
            scored = self._played_on(base, scored, depth)
        return scored, idle

    def _played_on(self, base, scored: list[tuple[float, int]], depth: int) -> list[tuple[float, int]]:
        """The options, each judged on the game played on to the next decision (their own
        questions after it followed within an equal share of the tables left, so that each is
        judged as far ahead as the others); as they were if one of them breaks a rule."""
        self.left -= len(scored)
        share, left = divmod(self.left, len(scored))
        again: list[tuple[float, int]] = []
        try:
            for _value, i in scored:
                self.left = share
                try:
                    st = vm.play_on(base, i, self.rng)
                except RuleError:
                    return scored
                value = self._score(base, i, st, depth, vm.play_on)
                if value is None:
                    return scored
                again.append((value, i))
                left += self.left
        finally:
            self.left = left
        return again

    def _score(self, base, i: int, st, depth: int, look) -> float | None:
        """The value of option `i`, whose table `look(base, i, rng)` gave as `st`: on a table that
        met chance, the mean of a few believed outcomes (None when one of those breaks a rule: the
        option is left out). An error in `evaluate` itself is the ruleset's: not caught here."""
        if st is base:  # on the real table (an option that does nothing) the evaluation only looks
            # (on a copy while what the seat cannot see is not dealt yet: it may deal it)
            seen = base if base.veil is None else base.scratch(self.rng)
            return reading(seen, lambda: self.judge(seen))
        value = self.value(st, depth)
        if st.believe is not None and st.believe.chance:
            try:
                for _ in range(self.samples - 1):
                    value += self.value(look(base, i, self.rng), depth)
            except RuleError:
                return None
            value /= self.samples
        return value

    def value(self, st, depth: int) -> float:
        """The table's worth to the seat: its evaluation, or, when it waits on the seat's next
        answer and the budget allows, the best of that answer's options."""
        pending = st.pending
        if pending is not None and pending[3] == self.seat and depth > 1 and st.believe is not None:
            count = len(pending[1])
            if 1 < count <= self.left:
                self.left -= count
                scored, _idle = self.options(st, count, depth - 1)
                if scored:
                    return max(v for v, _ in scored)
        return self.judge(st)

    def judge(self, st) -> float:
        """The table's evaluation for the seat (the ruleset's functions keep their values while
        it looks: `st.memo`)."""
        memo, st.memo = st.memo, {}
        try:
            value = self.evaluate(st, self.env)
        finally:
            st.memo = memo
        if type(value) is not int:
            _number(self.plan, value, self.seat)
        return value


_NOT_THE_TABLE = frozenset(("round", "__rounds", "__records"))


def _table(st, seat: int, rule: str) -> int:
    """What a table is for a seat to be asked the same again: the cards where they lie and how
    they face, every variable but the count of rounds, the boards' data (a digest of them); the
    statistics recorded are no part of it (the rules never read them)."""
    g = tuple(sorted((k, _frozen(v)) for k, v in st.g.items() if k not in _NOT_THE_TABLE))
    return hash((seat, rule, tuple(map(tuple, st.piles)), tuple(st.up), g, _frozen(st.v), repr(st.bd)))


def _frozen(value):
    """A value as a part of a table's digest: a list of plain values as a tuple (a third of the
    time of its text), anything else as its text."""
    if type(value) is list:
        try:
            return hash(tuple(value))
        except TypeError:
            pass
    return value if type(value) in (int, bool, str) else repr(value)


def _number(plan, value, seat: int):
    """The evaluation, which must be a number to be compared."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError(f"`evaluate` for seat {seat + 1} is {show(plan, ANY, value)}, not a number",
                        plan.evaluate_loc, "evaluate")
    return value
