"""`racecraft train`: a value function learned for one game from self-play (`agents/learned.py`).

Games are played in generations, each seat playing a random option now and then (EXPLORE) so
that tables no bot would choose are seen too. Where the game has `evaluate:` the greedy bot plays
them all (measured in a shipped game, docs/bots.md: games of the learned bot as fitted so far
taught it less); where it has none, the random bot plays the first generation and the
learned bot as fitted so far the later ones. At some of the decisions (SAMPLE of them) the table
right after the option played (as a bot judges one) is read as features for every seat
(`agents/features.py`); or, with `at="round"`, the table at the start of every round (where the
learned bot looking on to the next round, `learned:TABLES:FILE`, judges one: fitted there, it won
more); when the game ends each of these rows gets the seat's outcome: half a win
(a tie for first shares it), half its place (1 first, 0 last). The value is the least-squares fit
of the outcome to the features, scaled by their spread, with a small ridge, refitted after each
generation on every row so far; features equal on every row so far are weighed as one (`merged`:
the others' functions are then not called). (Temporal differences, LSTD(λ) with λ 0.7, 0.3 or 0, fitted
weaker values there: the outcome itself taught more.)

The games run on all cores as `simulate`'s do (`LocalBackend`), or on a Ray cluster: a task is
a few games, its answer the sums the fit needs (X'X, X'y), never the rows; tasks are cut and added
up in the same order whatever the number of processes, so the same seed writes the same file.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..agents.base import RandomAgent
from ..agents.features import Features
from ..agents.greedy import GreedyAgent
from ..agents.learned import LearnedAgent, Model
from ..base.errors import GameTooLong, RoundLimit, RuleError
from ..engine.game import Game
from ..engine.vm import preview
from ..session.agents import agent_seed
from ..session.playing import play
from .simulate import LocalBackend, Setup, afresh, compiled, game_seed

GENERATIONS = 3     # the games are played in this many generations, each by the bot fitted before it
EXPLORE = 0.1       # how often a seat plays a random option instead
SAMPLE = 0.5        # the share of decisions whose table becomes a row
RIDGE = 1e-3        # the ridge on the scaled features (keeps a fit of few games steady)
SAME = 1e-12        # features whose squared differences sum to at most this share of their squares are one
PER_TASK = 4        # games per task (fixed: the sums are added in the same order on any machine)
# the weight of the seat's own `evaluate:` is tuned by play: the fitted one plus each of these
# times the value's spread over the evaluation's, each played against the greedy bot
TUNE = (0.0, 2.0, 4.0, 8.0, 16.0, 32.0)
TUNE_GAMES = 0.1    # the games each is played, in each seat, as a share of the training's (at most 100)


AT = ("option", "round")   # the tables read: right after an option played; at the start of a round


@dataclass(frozen=True)
class Job:
    """A task of a training: the game, whether `evaluate:` is a feature, the bot playing (a model,
    or None for the first generation's bot), the (index, seed) of its games, and the tables read
    (where: one of AT)."""
    setup: Setup
    evaluate: bool
    model: Model | None
    games: tuple[tuple[int, int], ...]
    at: str = AT[0]


class _Exploring:
    """A bot that plays a random option now and then (seeded)."""

    def __init__(self, agent, seed: str):
        self.agent = agent
        self.rng = random.Random(seed)

    def choose(self, game, decision) -> int:
        if self.rng.random() < EXPLORE:
            return self.rng.randrange(decision.count)
        return self.agent.choose(game, decision)


def outcome(result: dict, seat: int, n: int) -> float:
    """What a seat made of a game, 0 to 1: half a win (shared by seats tied first), half its place."""
    winners = result["winners"]
    won = 1.0 / len(winners) if seat in winners else 0.0
    if n == 1:
        return won
    return 0.5 * won + 0.5 * (n - result["places"][seat]) / (n - 1)


def play_for_rows(job: Job) -> tuple[Any, int, int, int, str | None]:
    """Play a task's games; the sums of the fit, Z'Z (each row z a table's features, the constant 1
    and the seat's outcome), the rows, the games that ended, the games that failed (a rule error,
    a game that does not end) and the first failure's message (as `simulate` says it)."""
    import numpy as np

    plan = compiled(job.setup)[1]
    feats = Features(plan, job.evaluate)
    n, m = plan.n_seats, len(feats.names) + 2
    zz = np.zeros((m, m))
    rows_in, ended, failed = 0, 0, 0
    first: str | None = None
    for i, gs in job.games:
        rng = random.Random(f"{gs}/rows")
        rows: list[tuple[int, list[float]]] = []
        game = Game(plan, gs)
        last = [None]   # the round of the last decision

        def seen(d, pick, rows=rows, rng=rng, game=game, last=last) -> None:
            if job.at == "round":
                # the table at the first decision of each round, read for every seat
                if game.st.g.get("__rounds") != last[0]:
                    last[0] = game.st.g.get("__rounds")
                    rows.extend(enumerate(feats.vectors(game.st)))
                return
            # the table right after the option played (as the bots judge one), read for every seat
            if rng.random() < SAMPLE:
                try:
                    after = preview(d._st, pick, rng)
                except RuleError:
                    return
                rows.extend(enumerate(feats.vectors(after)))
        agents = [_Exploring(_bot(job, plan, agent_seed(gs, s)), f"{gs}/{s}/explore") for s in range(n)]
        try:
            result = play(game, agents, on_decision=seen)
        except RoundLimit:
            continue
        except (GameTooLong, RuleError) as e:
            failed += 1
            said = f"does not end: {e}" if isinstance(e, GameTooLong) else str(e)
            first = first or f"game {i} (seed {gs}): {said}"
            continue
        if not rows:
            continue
        z = np.array([r + [1.0, outcome(result, s, n)] for s, r in rows])
        zz += z.T @ z
        rows_in += len(rows)
        ended += 1
    return zz, rows_in, ended, failed, first


def _bot(job: Job, plan, seed: str):
    if job.model is not None:
        return LearnedAgent(seed, model=job.model)
    return GreedyAgent(seed) if plan.evaluate is not None else RandomAgent(seed)


def play_matches(job: Job) -> float:
    """The learned bot of `job.model` against the greedy bot, in seat 1 in the games of even index
    and seat 2 in the others: its wins (a tie for first shares one)."""
    plan = compiled(job.setup)[1]
    won = 0.0
    for i, gs in job.games:
        me = i % 2
        agents = [GreedyAgent(agent_seed(gs, s)) for s in range(plan.n_seats)]
        agents[me] = LearnedAgent(agent_seed(gs, me), model=job.model)
        try:
            winners = play(Game(plan, gs), agents)["winners"]
        except (RoundLimit, GameTooLong, RuleError):
            continue
        if me in winners:
            won += 1.0 / len(winners)
    return won


def tuned(model: Model, zz, setup: Setup, seed: int, first: int, count: int, backend) -> dict:
    """The weight of `own evaluation` in `model` that won most often against the greedy bot, set;
    what was tried. The tries add to the fitted weight each of TUNE times the spread of the
    value over the spread of the evaluation (the weight that makes one spread of the evaluation
    worth one of the value)."""
    import numpy as np

    m = len(model.features)
    at = model.features.index("own evaluation")
    _count, _mean, cov = moments(zz, m)
    w = np.array(model.weights)
    spread_value = float(np.sqrt(max(0.0, w @ cov @ w)))
    spread_eval = float(np.sqrt(max(0.0, cov[at, at])))
    if spread_eval <= 0 or spread_value <= 0:
        return {}
    unit = spread_value / spread_eval
    fitted = model.weights[at]
    games = tuple((i, game_seed(seed, i)) for i in range(first, first + 2 * count))
    tries = []
    for k in TUNE:
        model.weights[at] = fitted + k * unit
        chunks = [Job(setup, True, model, games[j:j + PER_TASK]) for j in range(0, len(games), PER_TASK)]
        answers: Any = backend.map(play_matches, chunks)  # type: ignore[arg-type]
        tries.append((sum(answers), k))
    best_wins, best = max(tries, key=lambda t: (t[0], -t[1]))
    model.weights[at] = fitted + best * unit
    return {"evaluation": {"fitted": fitted, "unit": unit, "tried": [[k, w] for w, k in tries],
                           "games": len(games), "chosen": best}}


def fit(zz, m: int, first: int | None = None) -> tuple[list[float], float, float]:
    """The weights and bias of the least-squares fit of the outcome to `m` features, with a small
    ridge on the scaled features, from the sums Z'Z; and the share of the outcome's variance the
    fit explains (R²). Features equal on every row are one (`merged`; feature `first` keeps
    its group's weight)."""
    import numpy as np

    count, mean, cov = moments(zz, m)
    y_mean = zz[m, m + 1] / count
    cxy = zz[:m, m + 1] / count - mean * y_mean
    spread = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    keep = spread > 1e-9 * (1.0 + np.abs(mean))
    weights = np.zeros(m)
    if keep.any():
        s = spread[keep]
        c = cov[np.ix_(keep, keep)] / np.outer(s, s)
        w = np.linalg.solve(c + RIDGE * np.eye(len(s)), cxy[keep] / s)
        weights[keep] = w / s
    weights = merged(zz, m, weights, first)
    bias = float(y_mean - mean @ weights)
    full = np.append(weights, bias)
    sse = zz[m + 1, m + 1] - 2 * full @ zz[:m + 1, m + 1] + full @ zz[:m + 1, :m + 1] @ full
    sst = zz[m + 1, m + 1] - count * y_mean * y_mean
    r2 = float(1 - sse / sst) if sst > 0 else 0.0
    return [float(w) for w in weights], bias, r2


def moments(zz, m: int):
    """From the sums Z'Z (`play_for_rows`): the number of rows, the means of the `m` features and
    their covariance."""
    import numpy as np

    count = zz[m, m]
    mean = zz[m, :m] / count
    return count, mean, zz[:m, :m] / count - np.outer(mean, mean)


def merged(zz, m: int, weights, first: int | None = None):
    """`weights` with each group of features equal on every row (as near as the sums tell: the sum
    of their squared differences at most SAME of their sums of squares) weighed by one of them with
    the group's weight: the same value on every row, and a function of the ruleset whose weight is
    0 is not called (a game's function often reads what another, a variable or a pile already
    says). The one is feature `first` in its group (the evaluation, whose weight is tuned), else
    the group's first (variables and piles come before functions, and cost less to read)."""
    out = weights.copy()
    squares = zz.diagonal()[:m]
    done: set[int] = set()
    order = ([first] if first is not None else []) + [a for a in range(m) if a != first]
    for a in order:
        if a in done or squares[a] == 0:
            continue
        for b in order:
            if b != a and b not in done and squares[b] > 0 \
                    and squares[a] - 2 * zz[a, b] + squares[b] <= SAME * (squares[a] + squares[b]):
                done.add(b)
                out[a] += out[b]
                out[b] = 0.0
        done.add(a)
    return out


SEAT_GAMES = 400    # the games of the training for a seat `learned` (seed 1, cached)


def learned_seats(setups, jobs: int | None, say) -> None:
    """A value for each game of `setups` with a seat `learned`, kept for this process and the
    ones it forks (`learned.remember`): read from the cache folder where it was trained before for
    the same rules (the digest) and players, else trained now (SEAT_GAMES games, seed 1) and kept
    there. `say(text)` tells what is done."""
    import json

    from ..agents.learned import ModelError, model_at, remember, trained_for
    from ..base.files import CannotWrite, write_atomic
    from ..session.journal import data_folder

    for s in setups:
        if "learned" not in s.seats:
            continue
        _loaded, plan = compiled(s)
        if trained_for(plan) is not None:
            continue
        path = data_folder() / "learned" / f"{plan.game_id}-{plan.digest[:20]}-{s.players}p.json"
        try:
            model = model_at(str(path))
        except ModelError:
            model = None
        if model is None or model.problem(plan) is not None:
            unkept = _unkept(path.parent)
            say(f"training the learned bot for {plan.name}, {s.players} players ({SEAT_GAMES} games, "
                + (f"kept in {path})" if unkept is None else "not kept)"))
            model = train(s.ruleset, s.players, SEAT_GAMES, 1, jobs, s.variants, s.modules, s.track)
            for line in failures(model):
                say(line)
            try:
                if unkept is None:
                    write_atomic(path, json.dumps(model.to_json(), indent=1) + "\n")
            except (OSError, CannotWrite) as e:
                unkept = str(e)
            if unkept is not None:   # played all the same, as `play` plays a game it cannot record
                say(f"note: the learned bot is not kept for the next command ({unkept}); set "
                    "XDG_DATA_HOME to a folder you can write")
        remember(model)


def _unkept(folder) -> str | None:
    """Why a trained bot cannot be kept in `folder` (made where it is missing), or None."""
    import os

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return f"the folder {folder} cannot be made: {e.strerror or e}"
    if not os.access(folder, os.W_OK):
        return f"the folder {folder} cannot be written"
    return None


def train(ruleset: str, players: int, games: int, seed: int, jobs: int | None = None, variants=(),
          modules=(), track=None, evaluate: bool = True, progress=None,
          generations: int = GENERATIONS, backend=None, at: str = AT[0]) -> Model:
    """Learn a value for the game from `games` games of self-play; the model (not yet written).
    `at`: the tables read, right after an option ("option": for the one look) or at the start of
    each round ("round": for `learned:TABLES:FILE`; the evaluation's weight is then not tuned).
    `backend`: where the games run (`cluster.RayBackend`; default this machine's processes):
    the tasks and the order their sums are added in are the same, and so is the model."""
    import numpy as np

    setup = Setup.of(ruleset, ["random"] * players, variants, modules, track)
    afresh([setup])
    loaded, plan = compiled(setup)
    use_eval = evaluate and plan.evaluate is not None
    names = Features(plan, use_eval).names
    backend = backend or LocalBackend(jobs)
    m = len(names)
    zz = np.zeros((m + 2, m + 2))
    rows = ended = done = failed = 0
    first: str | None = None
    r2 = 0.0
    model: Model | None = None
    cuts = [games * k // generations for k in range(generations + 1)]
    for gen in range(generations):
        span = range(cuts[gen], cuts[gen + 1])
        if not span:
            continue
        chunks = [tuple((i, game_seed(seed, i)) for i in span[j:j + PER_TASK])
                  for j in range(0, len(span), PER_TASK)]
        # the greedy bot where the game has `evaluate:`; else the learned bot after the first generation
        tasks = [Job(setup, use_eval, model if plan.evaluate is None else None, c, at) for c in chunks]
        answers: Any = backend.map(play_for_rows, tasks)  # type: ignore[arg-type]
        for task, (z, r, e, f, said) in zip(tasks, answers):
            zz += z
            rows += r
            ended += e
            failed += f
            first = first or said
            done += len(task.games)
            if progress:
                progress(done, games, gen + 1)
        if rows == 0:
            break
        weights, bias, r2 = fit(zz, m, names.index("own evaluation") if use_eval else None)
        model = Model(plan.game_id, plan.name, plan.digest, players, list(loaded.variants),
                      list(loaded.modules), loaded.track, use_eval, names, weights, bias)
    if model is None:
        some = f"all {done:,}" if failed == done else f"{failed:,} of {done:,}"
        why = f"; {some} games played failed, the first: {first}" if first else ""
        raise RuleError(f"no game of {plan.name} ended: nothing to learn from{why}")
    tuning = {}
    if use_eval and players > 1 and at == "option":
        tuning = tuned(model, zz, setup, seed, games, max(2, min(100, int(games * TUNE_GAMES))), backend)
    # (no time in the file: the same seed writes the same bytes)
    where = {"at": at} if at != AT[0] else {}   # (a file of the one look's training reads as before)
    model.trained = {"games": games, "ended": ended, "rows": rows, "seed": seed, "generations": generations,
                     "explained": round(r2, 4), **where, **tuning}
    model.failed = (failed, first)
    return model


def failures(model: Model) -> list[str]:
    """What a training whose games broke a rule says of them (nothing where none did): how many
    failed and were left out, and the first one's error with its place in the game's files."""
    failed, first = model.failed
    if not failed:
        return []
    t = model.trained
    return [f"warning: {failed:,} of {t['games']:,} games of the training failed and were left out: the "
            f"value is learned from the {t['ended']:,} that ended; fix the rule and train again",
            f"failed {first}"]
