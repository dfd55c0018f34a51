"""The lab's commands: `racecraft simulate` (many seeded games and their statistics), `compare`
(two setups on the same seeds) and `championship` (a season of games in a row).

The command line imports this module to list its commands: a command imports what it runs
when it runs (inside its function), so that `racecraft --help` and any command start in
tens of milliseconds (tests/test_layout.py keeps the start small)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ..session.args import (JOBS_PER_CORE, MAX_GAMES, MAX_JOBS, MAX_PLAYERS, MAX_SEED, Usage, bots, bounded,
                            game_args, max_jobs, params, players_fit, raw, seat_problem, seats_fit,
                            seats_word, writable)
from .extras import install_hint


def _lab_args(sp) -> None:
    sp.add_argument("--counts", action="store_true",
                    help="count how often each rule, named statement, option and card fired or was "
                         "chosen, and the win rate of the seats that chose each (slower)")
    sp.add_argument("--export", metavar="FILE", help="write one JSON line per game here (JSONL)")
    sp.add_argument("--csv", metavar="FILE", help="write one line per game here (CSV)")
    sp.add_argument("--plot", metavar="DIR", help="write charts into this folder (needs matplotlib: "
                                                  f"{install_hint('plots')})")
    sp.add_argument("--plot-format", choices=("png", "svg"), default="png", help="the charts' format")
    sp.add_argument("--report", metavar="FILE", help="write one HTML page with the tables and charts "
                                                     "(needs matplotlib)")
    backend_args(sp, "the results are the same")


def backend_args(sp, same: str) -> None:
    """`--backend` and `--ray-address`; `same`: what stays the same on a cluster."""
    sp.add_argument("--backend", choices=("local", "ray"), default="local",
                    help="where the games run: this machine's processes (default), or a Ray cluster "
                         f"({install_hint('cluster')}); {same}")
    sp.add_argument("--ray-address", metavar="ADDRESS",
                    help="the Ray cluster to use (default: $RAY_ADDRESS, else a Ray started here)")


def add_simulate(sub) -> None:
    s = sub.add_parser("simulate", help="play many seeded games with random bots and print statistics")
    game_args(s)
    s.add_argument("--games", type=bounded(None, MAX_GAMES), default=1000,
                   help=f"how many games (1 to {MAX_GAMES:,}; default 1000)")
    s.add_argument("--seats", help="the bot at each seat: random, greedy, mcts[:BUDGET[:ROLLOUT[:TREES]]], "
                   "mcts:BUDGET:learned:FILE, learned[:TABLES]:FILE or learned (trained for the game first; "
                   "default: all random)")
    s.add_argument("--jobs", type=bounded(1, max_jobs),
                   help=f"processes (default: all cores; at most {JOBS_PER_CORE} per core and {MAX_JOBS})")
    s.add_argument("--json", action="store_true", help="print the statistics as JSON")
    _lab_args(s)
    s.set_defaults(fn=cmd_simulate)



def add_compare(sub) -> None:
    cp = sub.add_parser("compare", help="play a game and a changed game on the same seeds with the same "
                                        "bots, and test every difference")
    cp.add_argument("ruleset", help="a ruleset: a folder name under rulesets/, or a path")
    cp.add_argument("--variant", action="append", default=[], metavar="NAME",
                    help="the change compared: the variant side applies rulesets/<game>/variants/NAME.yaml "
                         "(repeatable)")
    cp.add_argument("--against-module", action="append", default=[], metavar="NAME",
                    help="the change compared: the variant side adds this module (repeatable)")
    cp.add_argument("--against-track", metavar="NAME", help="the change compared: the variant side races "
                                                            "on this track")
    cp.add_argument("--against-param", action="append", default=[], metavar="NAME=VALUE",
                    help="the change compared: the variant side gives the param this value (repeatable)")
    cp.add_argument("--against-seats", metavar="BOTS",
                    help="the change compared: the variant side's bots (random or greedy at each seat)")
    cp.add_argument("--against-seed", type=bounded(0, MAX_SEED), metavar="SEED",
                    help="play the variant side on the games of another seed: the sides are no longer "
                         "paired (a check of how large chance differences are)")
    cp.add_argument("--base-variant", action="append", default=[], metavar="NAME",
                    help="a variant both sides play (repeatable)")
    cp.add_argument("--module", action="append", default=[], metavar="NAME",
                    help="a module both sides play (repeatable)")
    cp.add_argument("--track", metavar="NAME", help="the track both sides race on (tracks/<game>/NAME.yaml)")
    cp.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="a param value both sides play with (repeatable)")
    cp.add_argument("--seed", type=bounded(0, MAX_SEED), default=1,
                    help="the seed of every shuffle and bot (0 to 2**63-1; default 1)")
    cp.add_argument("--players", type=bounded(1, MAX_PLAYERS),
                    help=f"how many seats (1 to {MAX_PLAYERS}, within what the game allows)")
    cp.add_argument("--games", type=bounded(None, MAX_GAMES), default=1000,
                    help=f"how many games a side (1 to {MAX_GAMES:,}; default 1000)")
    cp.add_argument("--seats",
                    help="the bot at each seat of both sides: random or greedy (default: all random)")
    cp.add_argument("--jobs", type=bounded(1, max_jobs),
                    help=f"processes (default: all cores; at most {JOBS_PER_CORE} per core and {MAX_JOBS})")
    cp.add_argument("--json", action="store_true", help="print the comparison as JSON")
    _lab_args(cp)
    cp.set_defaults(fn=cmd_compare)



def add_championship(sub) -> None:
    # `series` is the same command, not listed (the list of commands stays narrow)
    _championship(sub.add_parser("championship", help="play a season: games in a row with standings "
                                                      "(seasons/NAME.yaml)"))
    _championship(sub.add_parser("series"))


def _championship(ch) -> None:
    ch.add_argument("ruleset", nargs="?", help="a ruleset: a folder name under rulesets/, or a path (with "
                    "--resume: only where the save's game is not found by its name or path)")
    ch.add_argument("--season", metavar="NAME", help="the season: rulesets/<game>/seasons/NAME.yaml")
    ch.add_argument("--seats", help="who sits at each seat: human, random, greedy, "
                    "mcts[:BUDGET[:ROLLOUT[:TREES]]], mcts:BUDGET:learned:FILE or learned[:TABLES]:FILE "
                    "(a learned bot plays the rules it was trained for: every game of the season must have "
                    "them) (default human,random)")
    ch.add_argument("--seed", type=bounded(0, MAX_SEED), default=1,
                    help="the seed of the season: every game's shuffles and bots (default 1)")
    ch.add_argument("--variant", action="append", default=[], metavar="NAME",
                    help="apply rulesets/<game>/variants/NAME.yaml to every game (repeatable)")
    ch.add_argument("--module", action="append", default=[], metavar="NAME",
                    help="apply rulesets/<game>/modules/NAME.yaml to every game (repeatable)")
    ch.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="give a param of every game this value (repeatable)")
    ch.add_argument("--save", metavar="FILE", help="write the season here after every game and when stopped")
    ch.add_argument("--stop-after", type=bounded(1, 1000), metavar="N", help="stop after N games")
    ch.add_argument("--resume", metavar="FILE", help="carry on a season saved with --save")
    ch.add_argument("--games", type=bounded(1, 100_000), metavar="N",
                    help="simulate N whole seasons with bots and print the champions by seat")
    ch.add_argument("--jobs", type=bounded(1, max_jobs), help="processes for --games (default: all cores)")
    ch.add_argument("--json", action="store_true", help="with --games: print the statistics as JSON")
    ch.set_defaults(fn=cmd_championship)


def add_train(sub) -> None:
    tr = sub.add_parser("train", help="learn a bot for one game from self-play: a value of its tables, "
                                      "written as JSON for a seat learned:FILE")
    tr.add_argument("ruleset", help="a ruleset: a folder name under rulesets/, or a path")
    tr.add_argument("--variant", action="append", default=[], metavar="NAME",
                    help="apply rulesets/<game>/variants/NAME.yaml (repeatable)")
    tr.add_argument("--module", action="append", default=[], metavar="NAME",
                    help="apply rulesets/<game>/modules/NAME.yaml (repeatable)")
    tr.add_argument("--track", metavar="NAME", help="race on tracks/<game>/NAME.yaml")
    tr.add_argument("--players", type=bounded(1, MAX_PLAYERS), required=True,
                    help="how many seats the bot is trained for (it plays only that many)")
    tr.add_argument("--games", type=bounded(1, MAX_TRAIN_GAMES), default=1000,
                    help=f"games of self-play (1 to {MAX_TRAIN_GAMES:,}; default 1000)")
    tr.add_argument("--seed", type=bounded(0, MAX_SEED), default=1,
                    help="the seed of every game and bot of the training (default 1): the same seed "
                         "writes the same file")
    tr.add_argument("--jobs", type=bounded(1, max_jobs),
                    help=f"processes (default: all cores; at most {JOBS_PER_CORE} per core and {MAX_JOBS})")
    tr.add_argument("--no-evaluate", action="store_true",
                    help="leave the ruleset's `evaluate:` out of what the bot reads (it is in by default "
                         "where the game has one)")
    tr.add_argument("--at", choices=("option", "round"), default="option",
                    help="the tables it learns from: right after each option played (default: for "
                         "learned:FILE), or at the start of each round (for learned:TABLES:FILE, "
                         "which judges the tables there)")
    tr.add_argument("--out", required=True, metavar="FILE", help="the file to write (JSON)")
    backend_args(tr, "the same seed writes the same file")
    tr.set_defaults(fn=cmd_train, json=False)


MAX_TRAIN_GAMES = 100_000

COMMANDS = {"simulate": add_simulate, "compare": add_compare, "championship": add_championship,
            "train": add_train}


def _outputs_checked(args) -> None:
    """The files and folder a run writes, refused before it plays rather than after."""
    for option in ("export", "csv", "report"):
        value = getattr(args, option, None)
        if value:
            writable(value, f"--{option}", "a file name")
    if getattr(args, "plot", None) or getattr(args, "report", None):
        from .charts import ChartsUnavailable, check_available

        try:
            check_available()
        except ChartsUnavailable as e:
            raise Usage(str(e)) from None
    if getattr(args, "plot", None):
        folder = Path(args.plot)
        if folder.exists() and not folder.is_dir():
            raise Usage(f"--plot {args.plot}: that is a file; give a folder for the charts")
        if not folder.parent.is_dir():
            raise Usage(f"--plot {args.plot}: the folder {folder.parent} does not exist")


def _write_outputs(args, rows, series, title, lines, compared=None) -> bool:
    """--export, --csv, --plot and --report of a simulation or a comparison, each on its own: one that
    cannot be written (said, naming its file) keeps none of the others from being written. False when
    one failed."""
    from ..base.files import CannotWrite
    from .export import write_csv, write_jsonl

    failed = []

    def output(write, done: str) -> None:
        try:
            write()
        except CannotWrite as e:
            failed.append(str(e))
            print(f"racecraft {args.command}: error: {e}", file=sys.stderr)
        else:
            print(done, file=sys.stderr)

    if args.export:
        output(lambda: write_jsonl(Path(args.export), rows), f"{len(rows)} games written to {args.export}")
    if args.csv:
        output(lambda: write_csv(Path(args.csv), rows), f"{len(rows)} games written to {args.csv}")
    if args.plot or args.report:
        from ..base.files import write_atomic
        from . import charts

        formats = ({args.plot_format} if args.plot else set()) | ({"png"} if args.report else set())
        drawn = charts.images(series, sorted(formats), compared)
        if args.plot:
            written: list = []
            output(lambda: written.extend(charts.write(drawn, Path(args.plot), args.plot_format)),
                   f"{len(drawn)} charts written to {args.plot}")
        if args.report:
            page = charts.report_html(title, lines, series, drawn, compared)
            output(lambda: write_atomic(Path(args.report), page), f"report written to {args.report}")
    return not failed


def _progress_bar(args, total: int, what: str):
    """(progress function, bar to stop) on the error stream, none with --json."""
    if args.json:
        return None, None
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn,
                                   TimeRemainingColumn)

        # the bar draws with escape sequences of its own: on the real stderr, not the escaping one;
        # and nothing else is redirected through it (what is printed stays escaped)
        bar = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                       TimeElapsedColumn(), TimeRemainingColumn(), transient=True,
                       console=Console(file=raw(sys.stderr)), redirect_stdout=False, redirect_stderr=False)
        bar.start()
        task = bar.add_task(what, total=total)
        return (lambda done, _total: bar.update(task, completed=done)), bar
    return _progress_lines(total), None


def _progress_lines(total: int, every: float = 10.0):
    """Progress as lines (a pipe, a file): at each tenth of the games, and at least every `every`
    seconds while games end, with the time so far, the rate and the time left (once a twentieth of
    the games have ended or `every` seconds have passed: the first few games, as processes start,
    say little of the rest)."""
    import time

    from .simulate import duration, rate

    step = max(1, total // 10)
    start = time.perf_counter()
    said = {"tenth": -1, "at": start}

    def progress(done, all_games):
        now = time.perf_counter()
        if done // step == said["tenth"] and now - said["at"] < every:
            return
        said["tenth"], said["at"] = done // step, now
        spent = now - start
        sure = 20 * done >= all_games or spent >= every
        left = f", about {duration(spent / done * (all_games - done))} left" \
            if 0 < done < all_games and sure else ""
        print(f"  {done}/{all_games} games, {duration(spent)}, {rate(done, spent)}{left}", file=sys.stderr)
    return progress


def _learned_seats(args, setups) -> None:
    """A value trained (or read from the cache) for each game with a seat `learned` (`train.py`)."""
    if not any("learned" in s.seats for s in setups):
        return
    if args.backend != "local":
        raise Usage("`learned` seats are trained and played on this machine: --backend local")
    if any(s.params for s in setups):
        raise Usage("`learned` seats are trained for a game's rules as its files say: give no --param "
                    "(or train a file for them: racecraft train)")
    from .train import learned_seats

    learned_seats(setups, args.jobs, lambda text: print(text, file=sys.stderr))


def cmd_simulate(args) -> int:
    from .simulate import Setup, game_ruleset, render, simulate

    if args.games < 1:
        raise Usage("--games must be at least 1")
    _outputs_checked(args)
    seats = bots(args.seats, args.players)
    ruleset = game_ruleset(args.ruleset, args.variant, args.module, args.track, params(args))
    players = args.players or (len(seats) if seats else ruleset.game.game.players.min)
    players_fit(ruleset, players, args)
    _learned_seats(args, [Setup.of(args.ruleset, seats or [], args.variant, args.module, args.track,
                                   params(args))])
    backend = _backend(args)
    progress, bar = _progress_bar(args, args.games, "simulating")
    rows: list = []
    try:
        stats = simulate(args.ruleset, args.games, players, args.seed, args.jobs, args.variant,
                         args.module, progress, seats, args.track, params(args), counts=args.counts,
                         backend=backend, rows_out=rows)
    finally:
        if bar is not None:
            bar.stop()
        if backend is not None:
            backend.close()
    if args.json:
        print(json.dumps(stats, indent=2))
    else:
        print(render(stats))
    _say_ties(rows)
    title = f"{stats['game']}: {stats['games']} games"
    lines = [f"{players} players, seats {', '.join(stats['seats'])}, seed {args.seed}"
             + (f", track {stats['track']}" if stats.get("track") else "")
             + "".join(f", variant {v}" for v in stats["variants"])
             + "".join(f", module {m}" for m in stats["modules"])]
    written = _write_outputs(args, [(None, r) for r in rows], [(stats["game"], stats, rows)], title, lines)
    return 0 if stats["failed"] == 0 and written else 1


def cmd_compare(args) -> int:
    from .compare import compare, render
    from .simulate import Setup, game_ruleset

    if args.games < 1:
        raise Usage("--games must be at least 1")
    _outputs_checked(args)
    seats = bots(args.seats, args.players)
    against = bots(args.against_seats, args.players or (len(seats) if seats else None), "--against-seats")
    ruleset = game_ruleset(args.ruleset, args.base_variant, args.module, args.track, params(args))
    players = args.players or (len(seats) if seats else None) or (len(against) if against else None) \
        or ruleset.game.game.players.min
    players_fit(ruleset, players, args)
    seats = seats or ["random"] * players
    if against and len(against) != len(seats):
        raise Usage(f"--against-seats names {seats_word(len(against))} but the base has {len(seats)}")
    given = params(args) or {}
    changed = dict(given)
    changed.update(params(argparse.Namespace(param=args.against_param)) or {})
    base = Setup.of(args.ruleset, seats, args.base_variant, args.module, args.track, given, args.counts)
    variant = Setup.of(args.ruleset, against or seats, [*args.base_variant, *args.variant],
                       [*args.module, *args.against_module], args.against_track or args.track, changed,
                       args.counts)
    players_fit(game_ruleset(args.ruleset, variant.variants, variant.modules, variant.track, changed),
                players, args, "--against-seats" if against else "--seats")
    _learned_seats(args, [base, variant])
    backend = _backend(args)
    progress, bar = _progress_bar(args, 2 * args.games, "comparing")
    rows: list = []
    try:
        result = compare(base, variant, args.games, args.seed, args.jobs, progress,
                         backend=backend, variant_seed=args.against_seed, rows_out=rows)
    finally:
        if bar is not None:
            bar.stop()
        if backend is not None:
            backend.close()
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(render(result))
    _say_ties([r for _side, r in rows])
    series = [("base", result["base"], [r for side, r in rows if side == "base"]),
              ("variant", result["variant"], [r for side, r in rows if side == "variant"])]
    title = f"{result['game']}: compare"
    lines = [f"base: {result['base']['setup']}", f"variant: {result['variant']['setup']}",
             f"{args.games} games a side, seed {args.seed}"]
    written = _write_outputs(args, rows, series, title, lines, result)
    return 0 if result["base"]["failed"] == 0 and result["variant"]["failed"] == 0 and written else 1


def _say_ties(rows: list[dict]) -> None:
    """The choices the greedy and learned seats could not tell apart, said on the error stream."""
    from .metrics import tie_notes

    for note in tie_notes(rows):
        print(f"note: {note}", file=sys.stderr)


def _backend(args):
    """The backend `--backend` names (None: the local processes, sized by the command)."""
    from .cluster import ClusterUnavailable, make_backend

    try:
        return make_backend(args.backend, args.jobs, args.ray_address)
    except ClusterUnavailable as e:
        raise Usage(str(e)) from None


def cmd_train(args) -> int:
    """Self-play games of one game, a value learned from them, written as JSON (`train.py`)."""
    import time

    from ..agents.learned import LOOK_TABLES
    from ..base.files import write_atomic
    from .simulate import game_ruleset
    from .train import failures, train

    start = time.perf_counter()
    out = _train_out(args.out)
    players_fit(game_ruleset(args.ruleset, args.variant, args.module, args.track), args.players, args)
    backend = _backend(args)
    progress, bar = _progress_bar(args, args.games, "training")
    try:
        model = train(args.ruleset, args.players, args.games, args.seed, args.jobs, args.variant,
                      args.module, args.track, not args.no_evaluate,
                      progress and (lambda done, total, _gen: progress(done, total)), backend=backend,
                      at=args.at)
    finally:
        if bar is not None:
            bar.stop()
        if backend is not None:
            backend.close()
    _fitted(model)
    write_atomic(out, json.dumps(model.to_json(), indent=1) + "\n")
    for line in failures(model):   # the games that broke a rule: said, the file written all the same
        print(line, file=sys.stderr)
    t = model.trained
    print(f"{model.name}, {model.players} players: {len(model.features)} features learned from "
          f"{_many(t['ended'], 'game')} ({_many(t['rows'], 'table')}) in "
          f"{time.perf_counter() - start:.1f} s; the fit explains {100 * t['explained']:.0f}% of the "
          "outcome's variance")
    # a value fitted at the start of rounds is for the bot that judges there (docs/bots.md)
    seat = f"learned:{LOOK_TABLES}:{args.out}" if args.at == "round" else f"learned:{args.out}"
    print(f"written to {args.out}: play it with --seats {seat}")
    return 0


def _fitted(model) -> None:
    """A fit that a seat could not read back (a game's numbers too large to weigh) is said and
    never written."""
    from ..agents.learned import fit_problem
    from ..base.errors import RuleError

    bad = fit_problem(model)
    if bad is not None:
        raise RuleError(f"the training's value cannot be used: {bad} (the game's numbers are too large "
                        "for the learned bot); nothing written")


def _many(n: int, word: str) -> str:
    """`1 game`, `12,400 games`."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _train_out(value: str) -> Path:
    """The file `train --out` writes: refused where it could not be written, or where it exists and
    is not a file `train` wrote (a game's file, say), which it would replace."""
    from ..agents.learned import is_trained_file

    out = writable(value, "--out", "a file name")
    if out.exists() and not is_trained_file(out):
        raise Usage(f"--out {value} exists and is not a trained bot: give another file name")
    return out


def cmd_championship(args) -> int:
    """A season: several games in a row (`seasons/NAME.yaml`), with standings; saved and resumed."""
    from ..session.budget import budget
    from .simulate import render_seasons, simulate_seasons
    from .series import Series
    from .terminal import play_at_terminal

    if args.resume:
        if args.season or args.seats:
            raise Usage("--resume FILE carries on a saved season: give no --season or --seats (a ruleset "
                        "only where the save's game is not found)")
        save: Path | None = writable(args.save or args.resume, "--save" if args.save else "--resume",
                                     "the save's file name")
        series = Series.resume(Path(args.resume), args.ruleset)
    else:
        series = _season(args)
        kinds = series.seats
        if args.games is not None:
            if "human" in kinds:
                raise Usage("--games simulates seasons with bots: seats are random, greedy or mcts")
            jobs = args.jobs or os.cpu_count() or 1
            stats = simulate_seasons(args.ruleset, args.season, kinds, args.games, args.seed, jobs,
                                     args.variant, args.module, params(args))
            print(json.dumps(stats, indent=2) if args.json else render_seasons(stats))
            return 0 if stats["failed"] == 0 else 1
        save = writable(args.save, "--save", "the save's file name") if args.save else None
    return play_at_terminal(series, save, args.stop_after, sys.stdout, budget)


def _season(args):
    """The season `championship` starts: its seats checked, also against the players its first
    game takes."""
    from .series import Series

    if not args.ruleset or not args.season:
        raise Usage("give a ruleset and --season NAME (or --resume FILE)")
    kinds = [k.strip() for k in (args.seats or "human,random").split(",") if k.strip()]
    if len(kinds) > MAX_PLAYERS or not kinds:
        raise Usage(f"--seats names {len(kinds)} seats: 1 to {MAX_PLAYERS}")
    bad = seat_problem(kinds)
    if bad:
        raise Usage(bad)
    series = Series.start(args.ruleset, args.season, args.seed, kinds, args.variant, args.module,
                          params(args))
    if series.legs:
        players_fit(series.loaded(0).ruleset, len(kinds), args)
    _bots_fit(series)
    return series


def _bots_fit(series) -> None:
    """Usage error, before any game is played, where a seat's bot cannot play one of the season's
    games (a learned bot trained for other rules than that game's)."""
    from ..agents.kinds import on_file

    bots = [k for k in series.seats if on_file(k)]
    for i in range(len(series.legs) if bots else 0):
        try:
            seats_fit(bots, series.plan(i))
        except Usage as e:
            raise Usage(f"in the season's {series.title(i)}, {e}; a learned bot plays one game's rules: "
                        "seat another bot for a season whose games differ") from None
