"""Random-play Formula 5 games per second on one core: the engine against hand-written Python.

    python bench/bench_formula5.py [--games N] [--players 5]

Both play the same rules with the same random policy; the ratio is the price of running the
rules from a ruleset. The target is at least 500 games/s, within 10x of the hand-written code.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from formula5_handwritten import play as play_by_hand  # noqa: E402

from interpreter.agents.base import RandomAgent  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from interpreter.session.load import load  # noqa: E402
from interpreter.session.playing import play  # noqa: E402


def engine_rate(games: int, players: int) -> float:
    plan = load("formula5").plan(players)
    start = time.perf_counter()
    for seed in range(games):
        play(Game(plan, seed), [RandomAgent(f"{seed}/{s}") for s in range(players)])
    return games / (time.perf_counter() - start)


def hand_rate(games: int, players: int) -> float:
    start = time.perf_counter()
    for seed in range(games):
        play_by_hand(seed, players)
    return games / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    eng = max(engine_rate(args.games, args.players) for _ in range(args.repeat))
    hand = max(hand_rate(args.games, args.players) for _ in range(args.repeat))
    print(f"formula5, {args.players} random players, one core, best of {args.repeat} x {args.games} games")
    print(f"  engine (rulesets/formula5): {eng:8.0f} games/s")
    print(f"  hand-written Python:        {hand:8.0f} games/s")
    print(f"  ratio: {hand / eng:.1f}x slower than hand-written (target: <= 10x, >= 500 games/s)")


if __name__ == "__main__":
    main()
