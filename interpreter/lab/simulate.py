"""Thousands of seeded games on all cores, and the statistics designers read.

Game i of a run with seed S is played with seed `S * 1_000_003 + i` by bots seeded from it, so
the same command gives the same numbers whatever the number of processes (or machines).

The work is a list of tasks, each a `Setup` (the game as played and the bots) and some (index,
seed) games; `play_games` plays one task wherever it runs and returns one row per game
(`metrics.game_row`). A backend maps `play_games` over the tasks: `LocalBackend` uses the
processes of this machine; another backend (a cluster) only needs the same `map`.
"""
from __future__ import annotations

import json
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator, Protocol, Sequence

from ..agents.kinds import BOTS, thinks
from ..engine.game import Game
from ..base.errors import GameTooLong, RoundLimit, RuleError
from .metrics import game_row, judged_alike, stopped_row, summary, varies
from ..session.agents import agent_seed
from ..session.args import say_notes, seats_fit
from ..session.load import load
from ..session.playing import play
from ..session.workers import fork_context
from .stats import wilson  # noqa: F401 - the interval simulate's callers and tests read from here



def game_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


@dataclass(frozen=True)
class Setup:
    """One side of a run: the game as played (ruleset, variants, modules, track, params), the bot
    at each seat, and whether the engine counts what fires (`counts`)."""
    ruleset: str
    seats: tuple[str, ...]
    variants: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()
    track: str | None = None
    params: tuple[tuple[str, object], ...] = field(default=())
    counts: bool = False

    @staticmethod
    def of(ruleset: str, seats: Sequence[str], variants=(), modules=(), track=None, params=None,
           counts: bool = False) -> "Setup":
        items = tuple(sorted((params or {}).items()))
        return Setup(ruleset, tuple(seats), tuple(variants), tuple(modules), track,
                     tuple((k, _frozen(v)) for k, v in items), counts)

    @property
    def players(self) -> int:
        return len(self.seats)

    def param_dict(self) -> dict | None:
        return {k: _thawed(v) for k, v in self.params} or None

    def load(self):
        return load(self.ruleset, self.variants, self.modules, self.track, self.param_dict())

    def describe(self) -> str:
        """The setup as a person reads it (`track T, variant V, NAME=VALUE, seats random,greedy`)."""
        parts = [f"track {self.track}"] if self.track else []
        parts += [f"variant {v}" for v in self.variants] + [f"module {m}" for m in self.modules]
        parts += [f"{k}={json.dumps(_thawed(v))}" for k, v in self.params]
        parts.append("seats " + ",".join(self.seats))
        return ", ".join(parts)


def _frozen(v):
    return tuple(_frozen(x) for x in v) if isinstance(v, list) else v


def _thawed(v):
    return [_thawed(x) for x in v] if isinstance(v, tuple) else v


Task = tuple[Setup, tuple[tuple[int, int], ...]]

_COMPILED: dict[Setup, tuple[Any, Any]] = {}  # (loaded, plan) of this process, by setup
_LOADED: dict[Setup, Any] = {}  # a game loaded to read its player count, until the run compiles it


def game_ruleset(ruleset: str, variants=(), modules=(), track=None, params=None):
    """The game as loaded (to read the players it takes). It stays loaded for the run that follows,
    which compiles it without loading it again."""
    game = Setup.of(ruleset, (), variants, modules, track, params)
    loaded = _LOADED.get(game)
    if loaded is None:
        loaded = _LOADED[game] = game.load()
    return loaded.ruleset


def compiled(setup: Setup) -> tuple[Any, Any]:
    """The setup's game loaded and compiled, once per process."""
    made = _COMPILED.get(setup)
    if made is None:
        loaded = _LOADED.pop(replace(setup, seats=(), counts=False), None) or setup.load()
        made = _COMPILED[setup] = (loaded, loaded.plan(setup.players))
    return made


def _plan(setup: Setup):
    return compiled(setup)[1]


def play_games(task: Task) -> list[dict]:
    """Play the games of one task; one row each. The game is loaded and compiled once per process."""
    setup, games = task
    plan = _plan(setup)
    kinds = list(setup.seats)
    rows = []
    for i, gs in games:
        game = None
        try:
            game = Game(plan, gs, tally="counts" if setup.counts else "progress")
            agents = [BOTS[kinds[s]](agent_seed(gs, s)) for s in range(plan.n_seats)]
            result = play(game, agents)
            rows.append(game_row(game, result, i, gs, kinds, setup.counts))
            ties = judged_alike(agents)
            if ties:
                rows[-1]["ties"] = ties
        except RoundLimit as e:
            rows.append(stopped_row(i, gs, kinds, "round_limit", e.message, game))
        except GameTooLong as e:
            rows.append(stopped_row(i, gs, kinds, "failed", f"does not end: {e}"))
        except RuleError as e:
            rows.append(stopped_row(i, gs, kinds, "failed", str(e)))
    return rows


class Backend(Protocol):
    """Where a simulation's games are played: `map` runs a function over tasks and yields each
    answer (this machine's processes, or a Ray cluster)."""
    jobs: int

    def map(self, fn: Callable[[Task], list[dict]], tasks: Sequence[Task]) -> Iterable[list[dict]]:
        """`fn` of each task, in the order of the tasks."""


class LocalBackend:
    """The processes of this machine (one: in this process).

    The worker processes are forked from this one after `run` compiled each setup, so that they
    share its compiled games and never load or compile one again (where a system cannot fork,
    each worker compiles each setup once, on its first task). A task is a setup and some
    (index, seed) pairs, and its answer a row of plain numbers per game: measured, the workers
    are busy 92-98% of a run's time, the rest the last tasks' tail."""

    def __init__(self, jobs: int | None = None):
        self.jobs = max(1, jobs or os.cpu_count() or 1)

    def map(self, fn, tasks) -> Iterator[list[dict]]:
        if self.jobs == 1 or len(tasks) == 1:
            for t in tasks:
                yield fn(t)
            return
        with ProcessPoolExecutor(min(self.jobs, len(tasks)), mp_context=fork_context()) as ex:
            yield from ex.map(fn, tasks)


def tasks_for(setup: Setup, games: Sequence[tuple[int, int]], jobs: int) -> list[Task]:
    """The games cut into tasks: about 8 per process, at most 200 games each; one game each when a
    seat is the search bot (its games are slow: progress is told game by game)."""
    chunk = 1 if any(thinks(k) for k in setup.seats) else max(1, min(200, len(games) // (jobs * 8) or 1))
    return [(setup, tuple(games[s:s + chunk])) for s in range(0, len(games), chunk)]


def run(setups: Sequence[Setup], games: Sequence[Sequence[tuple[int, int]]], backend: Backend,
        progress=None) -> tuple[list[list[dict]], float]:
    """Play `games[k]` of `setups[k]` for each k; the rows of each setup in game order, and the
    seconds it took. Each setup is compiled here first (unless it is already), so that its errors
    show before any work, and what the seats' bots will make of it is said once (`say_notes`)."""
    for s in setups:
        plan = _plan(s)
        seats_fit(list(s.seats), plan)
    say_notes([(s.seats, _plan(s)) for s in setups])
    tasks: list[Task] = []
    owner: list[int] = []
    per = [tasks_for(s, g, backend.jobs) for s, g in zip(setups, games)]
    for j in range(max((len(p) for p in per), default=0)):  # interleaved: the sides advance together
        for k, p in enumerate(per):
            if j < len(p):
                tasks.append(p[j])
                owner.append(k)
    out: list[list[dict]] = [[] for _ in setups]
    total = sum(len(g) for g in games)
    done = 0
    start = time.perf_counter()
    for k, rows in zip(owner, backend.map(play_games, tasks)):
        out[k].extend(rows)
        done += len(rows)
        if progress:
            progress(done, total)
    elapsed = time.perf_counter() - start
    for rows in out:
        rows.sort(key=lambda r: r["game"])
    return out, elapsed


def afresh(setups: Sequence[Setup]) -> None:
    """Forget the setups' compiled games: a command that simulates compiles its files as they are
    now (a process that simulates again after an edit plays the edit)."""
    for s in setups:
        _COMPILED.pop(s, None)


def seeds(seed: int, games: int) -> list[tuple[int, int]]:
    return [(i, game_seed(seed, i)) for i in range(games)]


def simulate(name: str, games: int, players: int, seed: int, jobs: int | None = None,
             variants=(), modules=(), progress=None, seats=None, track=None, params=None,
             counts: bool = False, backend: Backend | None = None, rows_out: list | None = None) -> dict:
    """The statistics of `games` seeded games (`rows_out`, if given, receives the rows)."""
    setup = Setup.of(name, list(seats or ["random"] * players), variants, modules, track, params, counts)
    backend = backend or LocalBackend(min(jobs or os.cpu_count() or 1, games))
    afresh([setup])
    (rows,), elapsed = run([setup], [seeds(seed, games)], backend, progress)
    if rows_out is not None:
        rows_out.extend(rows)
    return report(setup, rows, seed, backend.jobs, elapsed)


def report(setup: Setup, rows: list[dict], seed: int, jobs: int, elapsed: float) -> dict:
    loaded, plan = compiled(setup)
    games = len(rows)
    stats = summary(rows, setup.players, list(setup.seats))
    out = stats["outcomes"]
    failures = [r for r in rows if r["outcome"] == "failed"]
    return {
        "game": plan.game_id, "ruleset": str(loaded.path), "digest": plan.digest,
        "variants": loaded.variants, "modules": loaded.modules,
        **({"track": loaded.track} if loaded.track else {}),
        **({"params": loaded.params} if loaded.params else {}),
        "games": games, "completed": games - len(failures), "failed": len(failures),
        "drawn": out["drawn"]["games"], "shared": out["shared"]["games"],
        "won_by_others": out["others"]["games"], "round_limit": out["round_limit"]["games"],
        "failures": [{"game": r["game"], "seed": r["seed"], "error": r["error"]} for r in failures[:5]],
        "players": setup.players, "seats": list(setup.seats), "seed": seed, "jobs": jobs,
        **stats,
        "seconds": elapsed,
        "games_per_second": games / elapsed if elapsed > 0 else 0.0,
    }


def rate(games: int, seconds: float) -> str:
    """How fast games were played, in words that say something however fast: `175 games/s`,
    `2.5 games/s`, `27 s a game`."""
    if games <= 0 or seconds <= 0:
        return "no game finished yet" if games <= 0 else f"{games} games at once"
    per = games / seconds
    if per >= 10:
        return f"{per:.0f} games/s"
    if per >= 1:
        return f"{per:.1f} games/s"
    return f"{duration(seconds / games)} a game"


def duration(seconds: float) -> str:
    """`5.71 s`, `3 min 12 s`, `1 h 4 min`."""
    if seconds < 60:
        return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{int(seconds // 60)} min {int(seconds % 60)} s"
    return f"{int(seconds // 3600)} h {int(seconds % 3600 // 60)} min"


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _ci(ci) -> str:
    return f"[{_pct(ci[0])}, {_pct(ci[1])}]"


def _num(x) -> str:
    return f"{x:.2f}" if isinstance(x, float) else str(x)


def render(stats: dict) -> str:
    lines = [f"{stats['game']}: {stats['games']} games, {stats['players']} players, seed {stats['seed']}"
             + (f", track {stats['track']}" if stats.get("track") else "")
             + (f", variants {', '.join(stats['variants'])}" if stats["variants"] else "")
             + (f", modules {', '.join(stats['modules'])}" if stats["modules"] else ""),
             f"completed {stats['completed']} / {stats['games']}"
             + (f"  ({stats['failed']} failed)" if stats["failed"] else ""), ""]
    if not stats["completed"]:
        # (rates of no games, and a length of 0 rounds, would read as measured)
        lines.append("no game ran to its end: nothing to measure (each game's error below)")
        return "\n".join(lines + _failures(stats))
    lines += render_outcomes(stats)
    # the bot's column as wide as its longest name (7 at least: the table as it always was)
    bot = max([7] + [len(row["bot"]) for row in stats["wins_by_seat"]])
    lines += ["", "wins by seat (alone)" + " " * (bot - 7) + "  rate   95% CI            tied first"]
    for row in stats["wins_by_seat"]:
        lines.append(f"  seat {row['seat']:<2} {row['bot']:<{bot}}{row['wins']:>6}  {_pct(row['rate'])}  "
                     f"{_ci(row['ci95'])}  {row['tied_first']:>6}")
    for key, rows in stats["wins_by"].items():
        lines.append("")
        lines.append(f"wins by {key.replace('_', ' ')}: value  seats  wins   rate   95% CI")
        for row in rows:
            lines.append(f"  {str(row['value']):>8}  {row['seats']:>6}  {row['wins']:>6}  "
                         f"{_pct(row['rate'])}  {_ci(row['ci95'])}")
    ln = stats["length"]
    lines += ["", f"length: {ln['rounds_mean']:.2f} rounds on average (median {ln['rounds_median']}, "
              f"{ln['rounds_min']}-{ln['rounds_max']}), {ln['decisions_mean']:.1f} decisions"]
    m = stats.get("margin")
    if varies(m):
        lines.append(f"margin of victory (result, first to second): {m['mean']:.2f} on average "
                     f"(median {_num(m['median'])}, {_span(m['min'], m['max'])})")
    lead = stats.get("lead")
    if lead:
        ch, tk, gap, fs = lead["changes"], lead["taken"], lead["gap"], lead["from_start"]
        if ch:
            lines.append(f"lead changes (progress): {ch['mean']:.2f} a game (median {_num(ch['median'])}, "
                         f"{ch['min']}-{ch['max']})")
        if tk:
            lines.append(f"the winner took the lead for good after round {tk['mean']:.1f} on average "
                         f"(median {_num(tk['median'])}); led from the start in {fs['games']} of {fs['of']} "
                         f"games won ({_pct(fs['rate']).strip()})"
                         + (f"; level at the end in {lead['level_at_end']}"
                            if lead.get("level_at_end") else "")
                         + (f"; behind at the end in {lead['behind_at_end']}"
                            if lead["behind_at_end"] else ""))
        if varies(gap):
            lines.append(f"the winner's final gap (progress): {gap['mean']:.2f} on average "
                         f"(median {_num(gap['median'])}, {_span(gap['min'], gap['max'])})")
    if stats.get("metrics"):
        lines += ["", "metrics (the game's `metrics:`)"]
        named = max([24] + [len(name) for name in stats["metrics"]])
        for name, m in stats["metrics"].items():
            if m["kind"] == "yes/no":
                lines.append(f"  {name:<{named}} {m['games']:>6} of {m['of']:<6} {_pct(m['rate'])}  "
                             f"{_ci(m['ci95'])}")
            elif m.get("games"):
                lo, hi = m["ci95"]
                lines.append(f"  {name:<{named}} {m['mean']:>9.2f} a game  [{lo:.2f}, {hi:.2f}]  "
                             f"(median {_num(m['median'])}, {_span(m['min'], m['max'])})")
    if stats.get("counts") is not None:
        width = max([len(c["name"]) for c in stats["counts"]] + [15])
        lines += ["", f"{'fired or chosen':<{width + 2}} per game  games  seats    won  95% CI"]
        for c in stats["counts"]:
            text = f"  {c['name']:<{width}} {c['per_game']:>8.2f} {c['games']:>6}"
            if "seats" in c:
                text += f"  {c['seats']:>5} {_pct(c['win_rate'])}  {_ci(c['ci95'])}"
            lines.append(text)
    lines.append(f"throughput: {rate(stats['games'], stats['seconds'])} on {stats['jobs']} process(es) "
                 f"({duration(stats['seconds'])})")
    return "\n".join(lines + _failures(stats))


def _failures(stats: dict) -> list[str]:
    """Each failed game of a run, with its error."""
    return [f"failed game {f['game']} (seed {f['seed']}): {f['error']}" for f in stats["failures"]]


def render_outcomes(stats: dict) -> list[str]:
    from .metrics import OUTCOME_WORDS

    lines = ["outcomes                                     games   rate   95% CI"]
    for key, o in stats["outcomes"].items():
        if key == "failed" or (not o["games"] and key not in ("won", "drawn")):
            continue
        lines.append(f"  {OUTCOME_WORDS[key]:<42} {o['games']:>6}  {_pct(o['rate'])}  {_ci(o['ci95'])}")
    return lines


def _span(lo, hi) -> str:
    """A range of numbers in words: `2-5`, and with a negative end `from -2 to 2` (not `-2-2`)."""
    return f"from {_num(lo)} to {_num(hi)}" if lo < 0 else f"{_num(lo)}-{_num(hi)}"


# ---- many seasons played by bots (`racecraft championship --games N`; a season is `series.py`'s) --

_SEASON_WORKER: dict = {}


def _init_seasons(game, season, seats, variants, modules, params):
    _SEASON_WORKER["args"] = (game, season, seats, variants, modules, params)


def _play_seasons(task):
    from .series import Series, game_seed

    seed, start, stop = task
    game, season, seats, variants, modules, params = _SEASON_WORKER["args"]
    out = []
    for k in range(start, stop):
        try:
            s = Series.start(game, season, game_seed(seed, k), seats, variants, modules, params)
            while not s.done:
                s.play_next(lambda gs: [BOTS[kind](agent_seed(gs, i)) for i, kind in enumerate(seats)])
            rows = s.table()
            first = rows[0]["values"] if rows else {}
            out.append({"k": k, "ok": True, "champions": [r["seat"] for r in rows if r["values"] == first],
                        "values": {r["seat"]: r["values"] for r in rows}})
        except (GameTooLong, RuleError) as e:
            out.append({"k": k, "ok": False, "error": str(e)})
    return out


def simulate_seasons(game: str, season: str, seats: list[str], count: int, seed: int, jobs: int = 1,
                     variants=(), modules=(), params: dict | None = None, progress=None) -> dict:
    """`count` seasons with bots; the champions by seat with 95% intervals (a shared title counts as
    a fraction), the mean of each standing value by seat."""
    from .series import Series

    probe = Series.start(game, season, seed, seats, variants, modules, params)  # errors before any work
    for i in range(len(probe.legs)):
        probe.plan(i)
    args = (game, season, list(seats), list(variants), list(modules), dict(params or {}))
    t0 = time.perf_counter()
    chunk = max(1, min(10, count // max(1, jobs * 4)))
    tasks = [(seed, a, min(count, a + chunk)) for a in range(0, count, chunk)]
    rows: list[dict] = []
    if jobs <= 1:
        _init_seasons(*args)
        for t in tasks:
            rows += _play_seasons(t)
            if progress:
                progress(len(rows), count)
    else:
        with ProcessPoolExecutor(jobs, initializer=_init_seasons, initargs=args) as pool:
            for part in pool.map(_play_seasons, tasks):
                rows += part
                if progress:
                    progress(len(rows), count)
    ok = [r for r in rows if r["ok"]]
    n = len(ok)
    wins = [0.0] * len(seats)
    for r in ok:
        for s in r["champions"]:
            wins[s] += 1 / len(r["champions"])
    names = list(ok[0]["values"][next(iter(ok[0]["values"]))].keys()) if ok else []
    means = {name: [_mean([r["values"][s][name] for r in ok]) for s in range(len(seats))] for name in names}
    failures = [{"season": r["k"], "error": r["error"]} for r in rows if not r["ok"]]
    return {"game": probe.game, "season": season, "name": probe.name, "seasons": count, "finished": n,
            "seed": seed, "seats": list(seats), "games_per_season": len(probe.legs),
            "champions": [{"seat": s + 1, "bot": seats[s], "titles": round(wins[s], 2),
                           "rate": round(wins[s] / n, 4) if n else 0.0,
                           "ci95": [round(x, 4) for x in wilson(wins[s], n)]} for s in range(len(seats))],
            "mean": means, "failed": len(failures), "failures": failures[:10],
            "seconds": round(time.perf_counter() - t0, 2)}


def _mean(values: list) -> float | None:
    """The mean of a standing value over the seasons where it is a number (None where it never is)."""
    numbers = [v for v in values if v is not None]
    return round(sum(numbers) / len(numbers), 2) if numbers else None


def render_seasons(stats: dict) -> str:
    lines = [f"{stats['name']}: {stats['finished']} of {stats['seasons']} seasons played to the end "
             f"({stats['games_per_season']} games each, seed {stats['seed']}, {stats['seconds']} s)",
             "champions by seat (95% interval):"]
    for c in stats["champions"]:
        lo, hi = c["ci95"]
        lines.append(f"  seat {c['seat']} ({c['bot']}): {c['titles']:g} titles, {100 * c['rate']:.1f}% "
                     f"({100 * lo:.1f}-{100 * hi:.1f}%)")
    for name, values in stats["mean"].items():
        lines.append(f"mean {name.replace('_', ' ')} by seat: "
                     + ", ".join("–" if v is None else f"{v:g}" for v in values))
    for f in stats["failures"]:
        lines.append(f"  season {f['season']} failed: {f['error']}")
    return "\n".join(lines)
