"""Full Heat races per second on USA with greedy bots, on one core.

    python bench/bench_heat.py [--games N] [--players 4] [--bot greedy] [--track usa] [--module garage]
                               [--profile]

The target is at least 20 races/s with 4 greedy bots. The greedy bot plays the own effects of
every option of every decision on a copy of the game and scores it with the ruleset's
`evaluate:`, so most of the time goes to evaluating, copying states and the game itself
(docs/architecture.md, "Speed").
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.agents.base import RandomAgent  # noqa: E402
from interpreter.agents.greedy import GreedyAgent  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from interpreter.session.load import load  # noqa: E402

BOTS = {"random": RandomAgent, "greedy": GreedyAgent}


def races(plan, games: int, bot: str) -> tuple[float, float, float, float]:
    """(races per wall-clock second, per CPU second, rounds per race, decisions per race)"""
    rounds = decisions = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for seed in range(games):
        game = Game(plan, seed)
        bots = [BOTS[bot](f"{seed}/{s}") for s in range(plan.n_seats)]
        while not game.over:
            d = game.decision()
            game.choose(bots[d.seat].choose(game, d))
        res = game.result()
        rounds += res["rounds"]
        decisions += res["decisions"]
    return (games / (time.perf_counter() - start), games / (time.process_time() - cpu),
            rounds / games, decisions / games)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bot", default="greedy", choices=sorted(BOTS))
    ap.add_argument("--track", default="usa")
    ap.add_argument("--module", action="append", default=[], help="a module of rulesets/heat/modules")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    plan = load("heat", modules=args.module, track=args.track).plan(args.players)
    if args.profile:
        import cProfile
        import pstats

        cProfile.runctx("races(plan, args.games, args.bot)", globals(), locals(), "/tmp/heat.prof")
        pstats.Stats("/tmp/heat.prof").sort_stats("tottime").print_stats(25)
        return
    best = max((races(plan, args.games, args.bot) for _ in range(args.repeat)), key=lambda r: r[0])
    rate, cpu_rate, rounds, decisions = best
    with_modules = "".join(f" + {m}" for m in args.module)
    print(f"heat{with_modules} on {args.track}, {args.players} {args.bot} bots: "
          f"{rate:.1f} races/s on one core "
          f"({cpu_rate:.1f} per CPU second; {rounds:.1f} rounds, {decisions:.0f} decisions a race; "
          f"target >= 20 races/s)")


if __name__ == "__main__":
    main()
