"""The learned bot (`racecraft train`, `--seats learned:FILE`): how long training takes, and how
strong the bot it makes is. Run by hand (not a test); the figures are in docs/bots.md.

    python bench/learned.py [--games 1000] [--jobs 2] [--matches 50] heat
    python bench/learned.py --no-evaluate --against random formula5
    python bench/learned.py --search 100 --against mcts:100 --matches 20 formula5
    python bench/learned.py --look 4 --at round --matches 200 heat

For each game: trains a 2-player bot (`--games` games of self-play on `--jobs` processes, timed by
the wall clock), then plays `--matches` games with the learned bot in seat 1 and as many in seat 2
against `--against` (greedy by default), on the same seeds, and prints its win rate with a 95%
interval (Wilson); `--match-seed` plays other games with the same bot. `--search BUDGET` plays
the search bot judging its leaves by the learned value, `mcts:BUDGET:learned:FILE`, instead of the
learned bot, and first times its decisions and those of `mcts:BUDGET` (bench_mcts.py's `speed`,
against greedy, one game). `--look TABLES` plays the learned bot looking on to the start of the
next round on TABLES believed tables, `learned:TABLES:FILE`, and first times its decisions and
those of the greedy bot and of `learned:FILE` in the same way (`--at round`: the value fitted to
the tables at the start of each round, where that bot judges). `--no-evaluate` first copies the
game with its `evaluate:` removed (so neither the training's first bots nor the learned bot can
read it: a game whose designer wrote none). `--model FILE` plays a file trained before instead
(one game; its training is not timed).
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.lab.simulate import simulate  # noqa: E402
from interpreter.lab.stats import wilson  # noqa: E402
from interpreter.agents.learned import read_model  # noqa: E402
from interpreter.lab.train import train  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from bench_mcts import speed  # noqa: E402


def without_evaluate(game: str) -> str:
    """A copy of the game's folder without its `evaluate:` (beside copies of its cards and tracks,
    so that its includes still read)."""
    home = Path(tempfile.mkdtemp(prefix="no-eval-"))
    (home / "rulesets").mkdir()
    shutil.copytree(ROOT / "rulesets" / game, home / "rulesets" / game)
    for folder in ("cards", "tracks"):
        if (ROOT / folder / game).is_dir():
            shutil.copytree(ROOT / folder / game, home / folder / game)
    f = home / "rulesets" / game / "game.yaml"
    text, n = re.subn(r"(?m)^evaluate:.*\n(?:[ \t]+.*\n|\n)*", "", f.read_text())
    assert n == 1, "one `evaluate:` was expected"
    f.write_text(text)
    return str(home / "rulesets" / game)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="+")
    ap.add_argument("--games", dest="train_games", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--matches", type=int, default=50)
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--match-seed", type=int, help="the seed of the games played (default: --seed plus 100)")
    ap.add_argument("--no-evaluate", action="store_true")
    ap.add_argument("--search", type=int, metavar="BUDGET")
    ap.add_argument("--look", type=int, metavar="TABLES")
    ap.add_argument("--at", choices=("option", "round"), default="option", help="train's --at")
    ap.add_argument("--model", metavar="FILE", help="play this trained file instead of training one "
                    "(one game only)")
    a = ap.parse_args()
    for game in a.games:
        ruleset = without_evaluate(game) if a.no_evaluate else game
        start = time.perf_counter()
        if a.model:
            model = read_model(a.model)
            a.train_games = model.trained.get("games", 0)
        else:
            model = train(ruleset, 2, a.train_games, a.seed, a.jobs, evaluate=not a.no_evaluate, at=a.at)
        spent = time.perf_counter() - start
        out = Path(tempfile.mkdtemp(prefix="learned-")) / f"{game}.json"
        out.write_text(json.dumps(model.to_json()))
        print(f"{game}{' (no evaluate)' if a.no_evaluate else ''}: trained on {a.train_games} games, "
              f"{a.jobs} processes: {spent:.1f} s wall clock; {len(model.features)} features, "
              f"explained {100 * model.trained['explained']:.0f}%", flush=True)
        if "evaluation" in model.trained:
            ev = model.trained["evaluation"]
            tried = ", ".join(f"{k:g}: {w:g}" for k, w in ev["tried"])
            print(f"  the evaluation's weight tuned against greedy ({ev['games']} games a try): {tried}; "
                  f"chosen {ev['chosen']:g}", flush=True)
        kind = f"learned:{out}"
        if a.search:
            kind = f"mcts:{a.search}:learned:{out}"
            timed = [f"mcts:{a.search}", kind]
            if a.against.startswith("mcts") and a.against not in timed:
                timed.insert(0, a.against)   # the ratio to the bot it plays, side by side in one run
            for k in timed:
                print("  " + speed(ruleset, k, 1, 2).replace(str(out), "FILE"), flush=True)
        elif a.look:
            kind = f"learned:{a.look}:{out}"
            for k in ("greedy", f"learned:{out}", kind):
                print("  " + speed(ruleset, k, 1, 2).replace(str(out), "FILE"), flush=True)
        if a.matches == 0:
            continue
        wins = games = 0
        start = time.perf_counter()
        for seats, me in (([kind, a.against], 0), ([a.against, kind], 1)):
            stats = simulate(ruleset, a.matches, 2, a.seed + 100 if a.match_seed is None else a.match_seed,
                             a.jobs, seats=seats)
            row = stats["wins_by_seat"][me]
            wins += row["wins"] + 0.5 * row["tied_first"]
            games += stats["games"]
        lo, hi = wilson(wins, games)
        shown = kind.replace(str(out), "FILE")
        print(f"  {shown} vs {a.against}: {wins:g} of {games} ({100 * wins / games:.1f}%, 95% interval "
              f"[{100 * lo:.1f}%, {100 * hi:.1f}%]) in {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
