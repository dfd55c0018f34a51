"""Throughput of `racecraft compare`, and what the statistics cost a game.

    python bench/bench_compare.py [--game formula5] [--variant short-race] [--players 3]
                                  [--games 200] [--jobs 2] [--rounds 3] [--track NAME] [--bot random]

1. `compare` of the game with the variant, games per second (both sides counted), without and with
   `--counts`, on `--jobs` processes: what a designer waits for.
2. In one process, in turn, the same seeds played plainly (`Game(plan, seed)`), noting progress
   (`tally="progress"`, what simulate and compare always do) and counting everything
   (`tally="counts"`, `--counts`), each with its row built: the ratios are the price of the
   statistics (the machine drifts, so the three alternate, `--rounds` times; medians shown).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.engine.game import Game  # noqa: E402
from interpreter.lab.compare import compare  # noqa: E402
from interpreter.lab.metrics import game_row  # noqa: E402
from interpreter.session.agents import agent_seed  # noqa: E402
from interpreter.session.playing import play  # noqa: E402
from interpreter.lab.simulate import BOTS, Setup, compiled  # noqa: E402


def one_process(setup: Setup, games: int, tally: str | None) -> float:
    plan = compiled(setup)[1]
    kinds = list(setup.seats)
    start = time.perf_counter()
    for seed in range(games):
        game = Game(plan, seed, tally=tally)
        result = play(game, [BOTS[kinds[s]](agent_seed(seed, s)) for s in range(plan.n_seats)])
        if tally is not None:
            game_row(game, result, seed, seed, kinds, tally == "counts")
    return games / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="formula5")
    ap.add_argument("--variant", default="short-race")
    ap.add_argument("--track")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--bot", default="random", choices=sorted(BOTS))
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    seats = [args.bot] * args.players
    print(f"{args.game} vs variant {args.variant}, {args.players} {args.bot} bots, "
          f"{args.games} games a side, {args.jobs} process(es)")
    for counts in (False, True):
        base = Setup.of(args.game, seats, track=args.track, counts=counts)
        variant = Setup.of(args.game, seats, [args.variant], track=args.track, counts=counts)
        compiled(base), compiled(variant)  # compiled before the clock starts (as compare does)
        result = compare(base, variant, args.games, seed=1, jobs=args.jobs)
        print(f"compare{' --counts' if counts else ''}: {result['games_per_second']:.0f} games/s "
              f"({2 * args.games} games in {result['seconds']:.2f} s)")
    setup = Setup.of(args.game, seats, track=args.track)
    games = max(1, args.games // 2)
    rates: dict[str | None, list[float]] = {None: [], "progress": [], "counts": []}
    for _ in range(args.rounds):
        for tally in rates:
            rates[tally].append(one_process(setup, games, tally))
    plain = statistics.median(rates[None])
    print(f"one process, {games} games, medians of {args.rounds} rounds: plain {plain:.0f} games/s")
    for tally in ("progress", "counts"):
        rate = statistics.median(rates[tally])
        print(f"  with {tally}: {rate:.0f} games/s, {rate / plain:.2f} of plain")


if __name__ == "__main__":
    main()
