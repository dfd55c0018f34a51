"""The search bot's speed (decisions per second) and strength (win rates with 95% intervals).

    python bench/bench_mcts.py [--bot mcts] [--games 1] [--players 4] speed [GAME ...]
    python bench/bench_mcts.py [--games 20] [--jobs 2] strength [MATCH ...]

`speed` plays whole games with one search bot against greedy bots (seat 1) and times the search
bot's decisions: decisions per second by the wall clock and per second of processor time (this
machine is shared: the processor time is the one to compare), the games it played forward per
decision (fewer than the budget where one move was sure early), and a whole game's time.

`strength` plays each match as `racecraft simulate GAME --seats BOT,OTHER` does, with the bot in
each seat in turn (as many games in each, on the same seeds), and prints its win rate with a 95%
interval (Wilson). A match is GAME:BOT:OTHER[:PLAYERS] (2 players by default; with more, OTHER
fills the other seats), e.g. heat:mcts:50:greedy:greedy. With no match given, the matches of
docs/bots.md are played.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.agents.greedy import GreedyAgent  # noqa: E402
from interpreter.agents.kinds import BOTS, problem  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from interpreter.session.load import load  # noqa: E402
from interpreter.lab.simulate import simulate, wilson  # noqa: E402

GAMES = ("heat", "downforce", "formula5", "tilerace")
# the matches docs/bots.md reports: (game, bot, other)
MATCHES = [(g, b, o) for g in GAMES for b, o in (("mcts", "random"), ("mcts", "greedy"))] + [
    ("heat", "mcts:50:greedy", "greedy"), ("heat", "mcts:50:greedy", "random")]


class Timed:
    """A bot whose decisions are counted and timed, and the games it played forward."""

    def __init__(self, agent):
        self.agent = agent
        self.decisions = 0
        self.wall = self.cpu = 0.0
        self.forward = 0

    def choose(self, game, decision) -> int:
        wall, cpu = time.perf_counter(), time.process_time()
        pick = self.agent.choose(game, decision)
        self.wall += time.perf_counter() - wall
        self.cpu += time.process_time() - cpu
        self.decisions += 1
        self.forward += getattr(self.agent, "played", 0)
        return pick


def speed(game_name: str, bot: str, games: int, players: int) -> str:
    plan = load(game_name).plan(players)
    timed = None
    start = time.process_time()
    for seed in range(1, games + 1):
        timed_now = Timed(BOTS[bot](f"{seed}/0"))
        agents = [timed_now] + [GreedyAgent(f"{seed}/{s}") for s in range(1, players)]
        game = Game(plan, seed)
        while not game.over:
            d = game.decision()
            game.choose(agents[d.seat].choose(game, d))
        if timed is None:
            timed = timed_now
        else:
            timed.decisions += timed_now.decisions
            timed.wall += timed_now.wall
            timed.cpu += timed_now.cpu
            timed.forward += timed_now.forward
    assert timed is not None
    per_game = (time.process_time() - start) / games
    return (f"{game_name:<10} {players}p {bot:<15} {timed.decisions / games:6.0f} decisions a game  "
            f"{timed.decisions / timed.wall:6.1f}/s wall  {timed.decisions / timed.cpu:6.1f}/s cpu  "
            f"{timed.forward / max(1, timed.decisions):5.0f} games forward a decision  "
            f"{per_game:6.1f} cpu s a game")


def strength(game_name: str, bot: str, other: str, players: int, games: int, jobs: int, seed: int) -> str:
    start = time.perf_counter()
    wins, played, failed = 0.0, 0, 0
    turns = range(players)
    for first in turns:
        seats = [other] * players
        seats[first] = bot
        stats = simulate(game_name, games // len(turns), players, seed, jobs=jobs, seats=seats)
        wins += stats["wins_by_seat"][first]["wins"]
        played += stats["completed"]
        failed += stats["failed"]
    lo, hi = wilson(wins, played)
    fair = 1 / players
    verdict = "stronger" if lo > fair else "weaker" if hi < fair else "not told apart"
    rate = wins / played
    return (f"{game_name:<10} {players}p {bot:<15} vs {other:<7} {wins:6g}/{played:<4} = {rate:6.1%}  "
            f"95% CI [{lo:6.1%}, {hi:6.1%}]  ({verdict}; a fair share is {fair:.0%})"
            f"{f'  {failed} failed' if failed else ''}  {time.perf_counter() - start:5.0f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("speed", "strength"))
    ap.add_argument("items", nargs="*", help="games (speed) or matches GAME:BOT:OTHER[:PLAYERS] (strength)")
    ap.add_argument("--bot", default="mcts", help="speed: the search bot, e.g. mcts:50:greedy")
    ap.add_argument("--games", type=int, default=None, help="speed: 1 a game; strength: 20 a match")
    ap.add_argument("--players", type=int, default=4, help="speed: seats (the others greedy)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.what == "speed":
        bad = problem(args.bot)
        if bad:
            sys.exit(bad)
        for name in args.items or GAMES:
            print(speed(name, args.bot, args.games or 1, args.players), flush=True)
        return
    matches = []
    for item in args.items:
        parts = item.split(":")
        players = int(parts.pop()) if parts[-1].isdigit() and len(parts) > 3 else 2
        game_name, other = parts[0], parts[-1]
        bot = ":".join(parts[1:-1])
        matches.append((game_name, bot, other, players))
    for game_name, bot, other, players in matches or [(*m, 2) for m in MATCHES]:
        for kind in (bot, other):
            if problem(kind):
                sys.exit(problem(kind))
        print(strength(game_name, bot, other, players, args.games or 20, args.jobs, args.seed), flush=True)


if __name__ == "__main__":
    main()
