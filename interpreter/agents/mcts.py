"""The search bot: information-set Monte Carlo tree search over the engine's decisions.

It knows no game. For each decision it plays up to `budget` games forward from the present, each
on a table the seat may believe in (`belief.believed`: other seats' hidden cards dealt again,
chance from the bot's own generator, other seats' hidden commitments made again), and grows one
tree of decisions shared by all of them: every seat's decisions, each move keyed by the seat, the
rule and the option's label (two copies of the same card are one move). Down the tree it picks by
UCB1 among the moves legal on that table, counting how often each was available (the
information-set form of UCT); below the tree a rollout policy (random, or the greedy bot) plays
on for at least `depth` decisions a seat, to the start of a round. The table reached is scored
for every seat: a win is worth 1; any other table counts by the seat's `evaluate:` less the best
other seat's (its margin), placed between the smallest and largest margin seen in this search.
A game without `evaluate:` is played to its end and scored by its result alone. With a learned
value (`mcts:BUDGET:learned:FILE`) a quick greedy bot (`QUICK_LOOK`) plays on only to the start of
the next round (or the end), and the table there is scored by the value, for every seat, as margins
are.

The move tried most often is played, except that the greedy bot's move stands unless the search
found another better by more than its noise (CLEAR standard errors): a small budget does not
throw away what one look at each option already knows. It stops early when no other move can
catch up with the one tried most often.

Seeded: the same seed gives the same choices. A rule that fails while the bot looks ahead is the
ruleset's error, and stops the game as any rule error does.
"""
from __future__ import annotations

import math
import random
from functools import partial

from ..engine.game import reading
from ..base.errors import RuleError
from .belief import believed, fresh
from .forest import side_by_side
from .greedy import GreedyAgent, _number
from .learned import Judge, ModelError
from .playout import moves as _moves, next_round, play_on

BUDGET = 100        # games played forward per decision
EXPLORE = 0.7       # UCB1's exploration constant (rewards lie in 0..1)
DEPTH = 3           # decisions per seat a rollout plays at least, then on to the start of a round
CAP = 10            # decisions per seat a rollout plays at most (long rounds, phases without rounds)
CLEAR = 1.0         # how many standard errors better a move must be to overrule the greedy bot
TABLES = 16         # believed tables per decision: each game forward starts from one, in turn
ROLLOUTS = ("random", "greedy")
LEARNED = "learned"   # a rollout to the start of a round only, the table there judged by a learned value
QUICK_LOOK = (1, 1)   # the samples and depth of the greedy bot playing a learned value's rollouts on


class _Node:
    __slots__ = ("children", "n", "end", "mid", "n_mid", "mid2", "seen")

    def __init__(self):
        self.children: dict = {}
        self.n = 0        # games forward through this move
        self.end = 0.0    # the rewards of those that reached the end, for the seat that moved
        self.mid = 0.0    # the margins of those scored by `evaluate:` (`_margins`) ...
        self.n_mid = 0    # ... and how many they are
        self.mid2 = 0.0   # the sum of their squares (the spread of a move's rewards)
        self.seen = 1     # how often the move was available when its parent was reached


class SearchAgent:
    """The search bot: information-set Monte Carlo tree search over tables the seat may believe
    (hidden cards dealt anew), playing games out from each, within a budget per decision."""
    name = "mcts"
    thinks = True     # a decision takes a while: a table shows it thinking, `played` says how far it got

    def __init__(self, seed: int | str = 0, budget: int = BUDGET, rollout: str = "random", trees: int = 1,
                 model=None):
        self.rng = random.Random(seed)
        self.model = model   # with rollout LEARNED: the learned value (`learned.Model`) judging the leaves
        self._judge: tuple | None = None
        self.budget = budget
        self.rollout = rollout
        self.trees = trees   # the search split into this many trees, side by side (`_forest`)
        self.depth, self.explore = DEPTH, EXPLORE   # read here, so that a bench may set them
        self.played = 0   # games played forward for the last decision
        # the smallest and largest margin of each seat seen in the present search (`_value`)
        self.low: list[float] = []
        self.high: list[float] = []
        greedy = GreedyAgent(0)
        greedy.rng = self.rng   # one generator for everything the bot does
        self._greedy = greedy
        # a learned value's rollouts are played on by a quicker greedy bot: one believed outcome of
        # an option that meets chance, no follow-up questions (QUICK_LOOK, measured in docs/bots.md)
        self._quick = GreedyAgent(0, *QUICK_LOOK)
        self._quick.rng = self.rng

    def _policy(self, g) -> int:
        """The rollout policy's pick at `g`'s decision."""
        if self.rollout == "greedy":
            return self._greedy.choose(g, g.decision())
        return self.rng.randrange(g.waiting()[1])

    # ---- one decision -------------------------------------------------------------------------

    def choose(self, game, decision) -> int:
        self.played = 0
        if decision.count == 1:
            return 0
        moves = _moves(decision)
        if len(moves) == 1:
            return 0
        seat = decision.seat
        keys = [(seat, decision.rule, label) for label in moves]
        if self.trees == 1:
            children = self._search(game, decision, keys, self.budget)
        else:
            children = self._forest(game, decision, keys)
        best, pick, chosen = None, 0, None
        for key, i in zip(keys, moves.values()):
            child = children.get(key)
            if child is not None:
                rank = (child.n, self._value(child, seat))
                if best is None or rank > best:
                    best, pick, chosen = rank, i, child
        if game.plan.evaluate is None or chosen is None:
            return pick
        # the greedy bot's move stands unless the search found one clearly better
        greedy = self._greedy.choose(game, decision)
        theirs = children.get((seat, decision.rule, decision.labels()[greedy]))
        if theirs is None or theirs is chosen:
            return pick
        (a, va), (b, vb) = self._mean_var(chosen, seat), self._mean_var(theirs, seat)
        return pick if a - b > CLEAR * math.sqrt(va / chosen.n + vb / theirs.n) else greedy

    def _search(self, game, decision, keys: list, budget: int) -> dict:
        """One tree: up to `budget` games forward; the root's moves (`_Node`s by key)."""
        seat = decision.seat
        n = game.plan.n_seats
        self.low, self.high = [math.inf] * n, [-math.inf] * n
        root = _Node()
        tables = [believed(game, seat, self.rng, self._policy) for _ in range(min(TABLES, budget))]
        for i in range(budget):
            self._play_forward(fresh(tables[i % len(tables)]), root)
            self.played += 1
            if i >= len(keys) and _settled(root.children, keys, budget - 1 - i):
                break
        return root.children

    def _forest(self, game, decision, keys: list) -> dict:
        """`trees` trees, each with its share of the budget and a generator of its own seeded
        from the bot's, searched side by side on as many cores as there are (`forest.py`), their
        root moves added up: the same choices however many processes searched them."""
        k = self.trees
        seeds = [self.rng.getrandbits(64) for _ in range(k)]
        shares = [self.budget // k + (1 if t < self.budget % k else 0) for t in range(k)]
        found = side_by_side([partial(self._tree, game, decision, keys, share, seed)
                              for share, seed in zip(shares, seeds) if share > 0])
        children: dict = {}
        n = game.plan.n_seats
        self.low, self.high = [math.inf] * n, [-math.inf] * n
        self.played = 0
        for stats, low, high, played in found:
            self.played += played
            self.low = [min(a, b) for a, b in zip(self.low, low)]
            self.high = [max(a, b) for a, b in zip(self.high, high)]
            for key, (moved, end, mid, n_mid, mid2, seen) in stats.items():
                node = children.get(key)
                if node is None:
                    node = children[key] = _Node()
                    node.seen = 0
                node.n += moved
                node.end += end
                node.mid += mid
                node.n_mid += n_mid
                node.mid2 += mid2
                node.seen += seen
        return children

    def _tree(self, game, decision, keys: list, budget: int, seed: int) -> tuple:
        """One tree of a forest, searched with a generator seeded `seed`: its root moves' counts
        and sums, the margins' range it saw, and how many games it played forward."""
        saved = self.rng
        self.rng = self._greedy.rng = self._quick.rng = random.Random(seed)
        self.played = 0
        try:
            children = self._search(game, decision, keys, budget)
            stats = {key: (c.n, c.end, c.mid, c.n_mid, c.mid2, c.seen) for key, c in children.items()}
            return stats, self.low, self.high, self.played
        finally:
            self.rng = self._greedy.rng = self._quick.rng = saved

    def _value(self, node, seat: int) -> float:
        """The mean reward of a move, 0 to 1: a margin counts by where it lies between the
        smallest and the largest margin of the seat seen in this search."""
        low, high = self.low[seat], self.high[seat]
        mid = (node.mid - low * node.n_mid) / (high - low) if high > low else 0.5 * node.n_mid
        return (node.end + mid) / node.n

    def _mean_var(self, node, seat: int) -> tuple[float, float]:
        """The mean and variance of a move's rewards (as `_value` scores them)."""
        low, high = self.low[seat], self.high[seat]
        n_end = node.n - node.n_mid
        share2 = node.end * node.end / n_end if n_end else 0.0   # a move's wins are worth the same
        if high > low:
            span = high - low
            mid = (node.mid - low * node.n_mid) / span
            mid2 = (node.mid2 - 2 * low * node.mid + low * low * node.n_mid) / (span * span)
        else:
            mid, mid2 = 0.5 * node.n_mid, 0.25 * node.n_mid
        mean = (node.end + mid) / node.n
        return mean, max(0.0, (share2 + mid2) / node.n - mean * mean)

    def _play_forward(self, g, root) -> None:
        """One game forward: down the tree, one new move, a rollout, the rewards back up."""
        rng, explore, log, sqrt, value = self.rng, self.explore, math.log, math.sqrt, self._value
        node, path = root, []
        while not g.over:
            d = g.decision()
            if d is None:  # pragma: no cover - a game that is not over always waits for a decision
                raise RuleError("the game stopped without a decision and without ending")
            moves = _moves(d)
            if len(moves) == 1:
                g.choose(0)
                continue
            children = node.children
            keys = [((d.seat, d.rule, label), i) for label, i in moves.items()]
            new = [(key, i) for key, i in keys if key not in children]
            if new:
                for key, _i in keys:
                    child = children.get(key)
                    if child is not None:
                        child.seen += 1
                key, i = new[rng.randrange(len(new))] if len(new) > 1 else new[0]
                child = children[key] = _Node()
                path.append((child, d.seat))
                g.choose(i)
                break
            best, pick, chosen = -math.inf, 0, node
            for key, i in keys:
                child = children[key]
                child.seen += 1
                u = value(child, d.seat) + explore * sqrt(log(child.seen) / child.n)
                if u > best:
                    best, pick, chosen = u, i, child
            path.append((chosen, d.seat))
            g.choose(pick)
            node = chosen
        margins: list | None
        if self.model is not None:
            # played on to the start of a round only, then judged by the learned value, as margins
            # are (judged mid-round, a table whose cards are chosen but not yet shown misleads it)
            if not g.over:
                self._roll(g, to_round=True)
            winners = g.result()["winners"] if g.over else ()
            margins = self._judged(g)
        else:
            self._roll(g)
            # a win is worth 1 (shared by seats tied first); any other table counts by its margin
            # (`_margins`), also at the end, so that finishing behind is still better than not
            winners = g.result()["winners"] if g.over else ()
            margins = _margins(g) if g.plan.evaluate is not None else None
        if margins is not None:
            low, high = self.low, self.high
            for s, m in enumerate(margins):
                if m < low[s]:
                    low[s] = m
                if m > high[s]:
                    high[s] = m
        share = 1.0 / len(winners) if winners else 0.0
        for child, s in path:
            child.n += 1
            if s in winners:
                child.end += share
            elif margins is not None:
                m = margins[s]
                child.n_mid += 1
                child.mid += m
                child.mid2 += m * m

    def _judged(self, g) -> list[float]:
        """The table a rollout reached judged by the learned value: each seat's expected standing
        (about 0 last, 1 a win), counted as a margin is."""
        plan = g.plan
        if self._judge is None or self._judge[0] is not plan:
            bad = self.model.problem(plan)
            if bad:
                raise ModelError(f"the search bot's learned value: {bad}")
            self._judge = (plan, Judge(self.model, plan, fitted=True))
        return self._judge[1].values(g.st)

    def _roll(self, g, to_round: bool = False) -> None:
        """Play on below the tree: `depth` decisions per seat, then on to the start of a round (so
        that tables are scored at the same point of a round), at most CAP decisions per seat, and
        on past a `simultaneously` block still collecting commitments; to the end when the game
        has no `evaluate:`. `to_round` (a learned value judges the table): only to the first
        decision of the next round (`playout.next_round`), played by the quick greedy bot (a round
        played at random tells the value little; the full greedy look costs three times as much
        for no more strength: measured in docs/bots.md)."""
        n = g.plan.n_seats
        glob = g.st.g
        greedy = {"greedy": self._greedy, LEARNED: self._quick}.get(self.rollout)
        below = self.rng._randbelow  # type: ignore[attr-defined]  # randrange(n) for n >= 1: the same numbers

        def pick(game) -> int:
            return greedy.choose(game, game.decision()) if greedy is not None else below(game.waiting()[1])
        if to_round:
            play_on(g, pick, next_round(glob["__rounds"], CAP * n))
            return
        least, most = (self.depth * n, CAP * n) if g.plan.evaluate is not None else (math.inf, math.inf)
        rounds = glob["__rounds"]

        def stop(game, k: int) -> bool:
            # a round's start once `least` are played, never while a block collects (where a
            # secret choice opens each round it plays on to `most`: measured so, docs/bots.md)
            nonlocal rounds
            if k >= least and not game.collecting and (k >= most or glob["__rounds"] != rounds):
                return True
            rounds = glob["__rounds"]
            return False
        play_on(g, pick, stop)


def _settled(children: dict, keys: list, left: int) -> bool:
    """Whether the root move tried most often stays so whatever the games left do."""
    counts = sorted((children[k].n if k in children else 0 for k in keys), reverse=True)
    return counts[0] - counts[1] > left


def _margins(g) -> list:
    """The table for each seat by `evaluate:`: how far it is ahead of the best other seat (its
    own evaluation when it plays alone)."""
    plan = g.plan
    ev = plan.evaluate
    st = g.st
    values = reading(st, lambda: [_number(plan, ev(st, {"seat": s}), s) for s in range(plan.n_seats)])
    if len(values) == 1:
        return values
    out = []
    for s, v in enumerate(values):
        out.append(v - max(values[:s] + values[s + 1:]))
    return out
