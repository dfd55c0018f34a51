"""Thousands of seeded games on all cores, and the statistics designers read.

Game i of a run with seed S is played with seed `S * 1_000_003 + i` by bots seeded from it, so
the same command gives the same numbers whatever the number of processes.
"""
from __future__ import annotations

import math
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from ..agents.kinds import BOTS
from ..engine.game import Game
from ..lang.errors import GameTooLong, RuleError
from .session import agent_seed, load, play

_WORKER: dict = {}


def game_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


def _init(name, variants, modules, players, seats, track=None, params=None):
    loaded = load(name, variants, modules, track, params)
    _WORKER["plan"] = loaded.plan(players)
    _WORKER["seats"] = seats


def _play_range(args):
    seed, start, stop = args
    plan = _WORKER["plan"]
    kinds = _WORKER["seats"]
    out = []
    for i in range(start, stop):
        gs = game_seed(seed, i)
        try:
            game = Game(plan, gs)
            agents = [BOTS[kinds[s]](agent_seed(gs, s)) for s in range(plan.n_seats)]
            res = play(game, agents)
            out.append({"i": i, "ok": True, "winners": res["winners"], "rounds": res["rounds"],
                        "decisions": res["decisions"], "records": res["records"]})
        except GameTooLong as e:
            out.append({"i": i, "ok": False, "error": f"does not end: {e}"})
        except RuleError as e:
            out.append({"i": i, "ok": False, "error": str(e)})
    return out


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% confidence interval of a proportion k/n (Wilson score interval)."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def simulate(name: str, games: int, players: int, seed: int, jobs: int | None = None,
             variants=(), modules=(), progress=None, seats=None, track=None, params=None) -> dict:
    seats = list(seats or ["random"] * players)
    loaded = load(name, variants, modules, track, params)
    plan = loaded.plan(players)  # compile errors surface here, before any process starts
    jobs = max(1, min(jobs or os.cpu_count() or 1, games))
    chunk = max(1, min(200, games // (jobs * 8) or 1))
    tasks = [(seed, s, min(s + chunk, games)) for s in range(0, games, chunk)]
    results: list[dict] = []
    start = time.perf_counter()
    if jobs == 1:
        _WORKER["plan"] = plan
        _WORKER["seats"] = seats
        for t in tasks:
            results.extend(_play_range(t))
            if progress:
                progress(len(results), games)
    else:
        with ProcessPoolExecutor(jobs, initializer=_init,
                                 initargs=(name, tuple(variants), tuple(modules), players, seats,
                                           track, params)) as ex:
            for part in ex.map(_play_range, tasks):
                results.extend(part)
                if progress:
                    progress(len(results), games)
    elapsed = time.perf_counter() - start
    results.sort(key=lambda r: r["i"])
    return summarise(plan, loaded, results, games, players, seed, jobs, elapsed, seats)


def summarise(plan, loaded, results, games, players, seed, jobs, elapsed, seats) -> dict:
    done = [r for r in results if r["ok"]]
    n = len(done)
    wins = [0.0] * players
    for r in done:
        for s in r["winners"]:  # a game no seat won (a car the game drives did) counts for none
            wins[s] += 1 / len(r["winners"])
    by_seat = []
    for s in range(players):
        lo, hi = wilson(wins[s], n)
        by_seat.append({"seat": s + 1, "bot": seats[s], "wins": round(wins[s], 3),
                        "rate": wins[s] / n if n else 0.0, "ci95": [lo, hi]})
    by_record = {}
    for key in plan.records:
        seen: dict = {}
        for r in done:
            values = r["records"].get(key, [])
            share = 1 / len(r["winners"]) if r["winners"] else 0.0
            for s, v in enumerate(values):
                entry = seen.setdefault(v, [0, 0.0])
                entry[0] += 1
                if s in r["winners"]:
                    entry[1] += share
        rows = []
        for v in sorted(seen, key=lambda x: (str(type(x)), x)):
            count, w = seen[v]
            lo, hi = wilson(w, count)
            rows.append({"value": v, "seats": count, "wins": round(w, 3), "rate": w / count,
                         "ci95": [lo, hi]})
        by_record[key] = rows
    rounds = [r["rounds"] for r in done]
    decisions = [r["decisions"] for r in done]
    failures = [r for r in results if not r["ok"]]
    return {
        "game": plan.game_id, "ruleset": str(loaded.path), "digest": plan.digest,
        "variants": loaded.variants, "modules": loaded.modules,
        **({"track": loaded.track} if loaded.track else {}),
        **({"params": loaded.params} if loaded.params else {}),
        "games": games, "completed": n, "failed": len(failures),
        # games that ended with every seat tied first (a declared draw: shared in the win rates)
        "drawn": sum(1 for r in done if players > 1 and len(r["winners"]) == players),
        # games won by a piece without a seat (`result.also`: a car the game drives)
        "won_by_others": sum(1 for r in done if not r["winners"]),
        "failures": [{"game": r["i"], "seed": game_seed(seed, r["i"]), "error": r["error"]}
                     for r in failures[:5]],
        "players": players, "seats": seats, "seed": seed, "jobs": jobs,
        "wins_by_seat": by_seat, "wins_by": by_record,
        "length": {
            "rounds_mean": statistics.fmean(rounds) if rounds else 0.0,
            "rounds_median": statistics.median(rounds) if rounds else 0,
            "rounds_min": min(rounds, default=0), "rounds_max": max(rounds, default=0),
            "decisions_mean": statistics.fmean(decisions) if decisions else 0.0,
        },
        "seconds": elapsed,
        "games_per_second": games / elapsed if elapsed > 0 else 0.0,
    }


def render(stats: dict) -> str:
    pct = lambda x: f"{100 * x:5.1f}%"  # noqa: E731
    lines = [f"{stats['game']}: {stats['games']} games, {stats['players']} players, seed {stats['seed']}"
             + (f", track {stats['track']}" if stats.get("track") else "")
             + (f", variants {', '.join(stats['variants'])}" if stats["variants"] else "")
             + (f", modules {', '.join(stats['modules'])}" if stats["modules"] else ""),
             f"completed {stats['completed']} / {stats['games']}"
             + (f"  ({stats['failed']} failed)" if stats["failed"] else "")
             + (f"; {stats['drawn']} drawn (every seat tied)" if stats.get("drawn") else "")
             + (f"; {stats['won_by_others']} won by no seat (a piece the game drives)"
                if stats.get("won_by_others") else ""), "",
             "wins by seat          rate   95% CI"]
    for row in stats["wins_by_seat"]:
        lo, hi = row["ci95"]
        lines.append(f"  seat {row['seat']:<2} {row['bot']:<7}{row['wins']:>7g}  {pct(row['rate'])}  "
                     f"[{pct(lo)}, {pct(hi)}]")
    for key, rows in stats["wins_by"].items():
        lines.append("")
        lines.append(f"wins by {key.replace('_', ' ')}: value  seats  wins   rate   95% CI")
        for row in rows:
            lo, hi = row["ci95"]
            lines.append(f"  {str(row['value']):>8}  {row['seats']:>6}  {row['wins']:>6g}  "
                         f"{pct(row['rate'])}  "
                         f"[{pct(lo)}, {pct(hi)}]")
    ln = stats["length"]
    lines += ["", f"length: {ln['rounds_mean']:.2f} rounds on average (median {ln['rounds_median']}, "
              f"{ln['rounds_min']}-{ln['rounds_max']}), {ln['decisions_mean']:.1f} decisions",
              f"throughput: {stats['games_per_second']:.0f} games/s on {stats['jobs']} process(es) "
              f"({stats['seconds']:.2f} s)"]
    for f in stats["failures"]:
        lines.append(f"failed game {f['game']} (seed {f['seed']}): {f['error']}")
    return "\n".join(lines)
