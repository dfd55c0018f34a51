"""Speed of this checkout against another one, side by side in one process.

    python bench/ab.py OTHER_CHECKOUT [--game heat] [--bot greedy] [--players 4] [--games 20]
                       [--rounds 5] [--track usa] [--cpu]

The machine's speed drifts from minute to minute, so the two engines play in turn: a batch of
games with one, the same seeds with the other, and so on, `--rounds` times. The other checkout's
`interpreter` package is loaded under another name with its own rulesets (so an older engine
plays its own content). Prints each engine's games per second per round and the ratio
(this / other; above 1 is faster). Each plays its games the way `simulate` does
(`session.playing.play`, where the checkout has it). Both must play the same games for the ratio
to mean much: the decisions of every game are compared and a difference is reported (with the
ratio of decisions a second, which then says more than that of games).
`--cpu` times each batch by this process's processor time instead of the wall clock: on a
machine shared with other work it varies far less (the other work's share of the cores does
not count).
"""
from __future__ import annotations

import argparse
import hashlib
import importlib
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def _load_engine(root: Path, alias: str):
    """The `interpreter` package of checkout `root`, importable as `alias`."""
    if alias == "interpreter":
        sys.path.insert(0, str(root))
    else:
        home = Path(tempfile.mkdtemp(prefix="ab-"))
        shutil.copytree(root / "interpreter", home / alias)
        for folder in ("rulesets", "cards", "tracks"):
            (home / folder).symlink_to(root / folder)
        sys.path.insert(0, str(home))
    return (_session(alias), importlib.import_module(f"{alias}.engine.game"),
            importlib.import_module(f"{alias}.agents.base"),
            importlib.import_module(f"{alias}.agents.greedy"), _playing(alias))


def _session(alias: str):
    """The module that loads a game: `session.load` (`run.session` in older checkouts)."""
    try:
        return importlib.import_module(f"{alias}.session.load")
    except ModuleNotFoundError:
        return importlib.import_module(f"{alias}.run.session")


def _playing(alias: str):
    """`session.playing.play`, the loop `simulate` plays a game with (None in older checkouts:
    then the decisions are asked and answered here)."""
    try:
        return importlib.import_module(f"{alias}.session.playing").play
    except ModuleNotFoundError:
        return None


def _player(engine, root: Path, args):
    session, game_mod, base, greedy, playing = engine
    loaded = session.load(str(root / "rulesets" / args.game), track=args.track)
    plan = loaded.plan(args.players)
    bot = base.RandomAgent if args.bot == "random" else greedy.GreedyAgent

    def play(seeds) -> tuple[float, list[str], int]:
        clock = time.process_time if args.cpu else time.perf_counter
        start = clock()
        digests, decisions = [], 0
        for seed in seeds:
            game = game_mod.Game(plan, seed)
            bots = [bot(f"{seed}/{s}") for s in range(args.players)]
            if playing is not None:
                playing(game, bots)
            while not game.over:
                d = game.decision()
                game.choose(bots[d.seat].choose(game, d))
            digests.append(hashlib.sha256(repr(game.answers).encode()).hexdigest()[:12])
            decisions += len(game.answers)
        return clock() - start, digests, decisions
    return play


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("other", type=Path)
    ap.add_argument("--game", default="formula5")
    ap.add_argument("--bot", default="random", choices=["random", "greedy"])
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--track", default=None)
    ap.add_argument("--cpu", action="store_true", help="time by processor time, not the wall clock")
    args = ap.parse_args()
    this = _player(_load_engine(HERE, "interpreter"), HERE, args)
    other = _player(_load_engine(args.other.resolve(), "other_interpreter"), args.other.resolve(), args)
    ratios, per_decision, same = [], [], True
    for r in range(args.rounds):
        seeds = range(r * args.games, (r + 1) * args.games)
        t_other, d_other, n_other = other(seeds)
        t_this, d_this, n_this = this(seeds)
        same = same and d_other == d_this
        ratios.append(t_other / t_this)
        per_decision.append((n_this / t_this) / (n_other / t_other))
        print(f"round {r + 1}: this {args.games / t_this:7.1f} games/s, other {args.games / t_other:7.1f} "
              f"games/s, ratio {t_other / t_this:.3f}; decisions a game {n_this / args.games:.1f} "
              f"and {n_other / args.games:.1f}")
    print(f"{args.game}, {args.players} {args.bot} bots: ratio this/other median "
          f"{statistics.median(ratios):.3f} "
          f"(min {min(ratios):.3f}, max {max(ratios):.3f}); same games: {'yes' if same else 'NO'}")
    if not same:
        # other games: a game's time says less than a decision's
        print(f"  decisions a second, this/other: median {statistics.median(per_decision):.3f} "
              f"(min {min(per_decision):.3f}, max {max(per_decision):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
