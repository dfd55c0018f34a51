"""The `racecraft` command: validate, play, replay, simulate, compare, check, render, explain, schemas.

Exit codes: 0 success, 1 a problem in the rules or a failed check, 2 a usage error.
Problems in a designer's files print as diagnostics, never as a Python traceback.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

from .lang.diagnostics import Report, RulesetError, visible
from .lang.errors import RuleError

# Limits of the command line's numbers: out of range is a usage error, never a hang.
MAX_GAMES = 10_000_000
MAX_JOBS = 256          # and at most JOBS_PER_CORE processes per core of the machine
JOBS_PER_CORE = 4
MAX_PLAYERS = 16
MAX_SEED = 2**63 - 1
MAX_CHECK_SEEDS = 10_000   # seeds `check --seeds` plays each scenario with


class _Visible:
    """Standard output or error as the command prints it: whatever a ruleset names (a game, a card,
    an option, a `say`) is shown with its control characters escaped (`visible`), never obeyed by
    the terminal. Everything else is the stream's own."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        shown = visible(text)
        try:
            self.stream.write(shown)
        except UnicodeEncodeError:  # a terminal that cannot show a character gets its escape
            enc = getattr(self.stream, "encoding", None) or "utf-8"
            self.stream.write(shown.encode(enc, "backslashreplace").decode(enc))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self.stream, name)


def _raw(stream):
    """The stream under a `_Visible` (for rich's progress bar, which writes its own escapes)."""
    return stream.stream if isinstance(stream, _Visible) else stream


def _bounded(lo: int | None, hi):
    """An argparse type: a whole number up to `hi` (a number, or a function giving it and why it is
    that) and from `lo` (unless None: the command checks it). Not a number: argparse's own
    `invalid int value`."""

    def parse(text: str) -> int:
        top, why = hi() if callable(hi) else (hi, "")
        if len(text) > 40:  # no number here is that long (int() of thousands of digits is refused)
            shown = text[:21] + "..."
            if re.fullmatch(r"\s*[+-]?[0-9_]+\s*", text):
                raise argparse.ArgumentTypeError(f"{shown} is out of range: at most {top:,}{why}")
            raise argparse.ArgumentTypeError(f"invalid int value: {shown!r}")
        n = int(text)
        if n > top or (lo is not None and n < lo):
            span = f"from {lo:,} to {top:,}" if lo is not None else f"at most {top:,}"
            raise argparse.ArgumentTypeError(f"{n:,} is out of range: {span}{why}")
        return n

    parse.__name__ = "int"  # argparse names the type in `invalid int value: 'x'`
    return parse


def _max_jobs() -> tuple[int, str]:
    cores = os.cpu_count() or 1
    top = min(MAX_JOBS, JOBS_PER_CORE * cores)
    here = f"{cores} core{'s' if cores != 1 else ''} here"
    why = "" if top == MAX_JOBS else f" ({JOBS_PER_CORE} per core, {here})"
    return top, why


def _print_report(report: Report) -> None:
    print(report.render(), file=sys.stderr)
    n = report.errors
    w = len(report.items) - n
    counts = ([f"{n} error{'s' if n != 1 else ''}"] if n or not w else []) + \
        ([f"{w} warning{'s' if w != 1 else ''}"] if w else [])
    print("\n" + ", ".join(counts), file=sys.stderr)


def cmd_validate(args) -> int:
    from .authoring.validate import validate_path
    from .load.ruleset import find_ruleset

    # a ruleset's name (as `play` takes it) or any path: a folder, a game or variant file
    v = validate_path(find_ruleset(args.path) or Path(args.path), args.variant, args.module, args.track,
                      _params(args))
    if not v.report.ok:
        _print_report(v.report)
        return 1
    if v.report.items:  # warnings
        _print_report(v.report)
    print("\n".join(v.summary))
    return 0


def _seats(args, plan_players: tuple[int, int]) -> list[str]:
    if args.seats:
        kinds = [s.strip() for s in args.seats.split(",") if s.strip()]
    else:
        n = args.players or plan_players[0]
        kinds = ["human"] + ["random"] * (n - 1)
    if len(kinds) > MAX_PLAYERS:
        raise _Usage(f"--seats names {len(kinds)} seats: at most {MAX_PLAYERS}")
    bad = _seat_problem(kinds)
    if bad:
        raise _Usage(bad)
    if args.players and args.players != len(kinds):
        raise _Usage(f"--players {args.players} but --seats names {len(kinds)} seats")
    return kinds


def _seat_problem(kinds: list[str], people: bool = True) -> str | None:
    """What is wrong with the first seat that names neither a person (where people may sit)
    nor a bot, or None."""
    from .agents.kinds import FORMS, problem

    for k in kinds:
        bad = None if k == "human" and people else problem(k)
        if bad and not k.startswith("mcts:"):
            who, eg = ("human, ", "human,") if people else ("", "")
            return f"unknown seat kind `{k}`: seats are {who}{FORMS}, e.g. --seats {eg}greedy,mcts:200"
        if bad:
            return bad
    return None


class _Usage(Exception):
    pass


def _params(args) -> dict | None:
    """`--param NAME=VALUE` options as {name: value}, each value read as YAML (3, true, [1, 2])."""
    import yaml

    out: dict = {}
    for item in getattr(args, "param", []) or []:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise _Usage(f"--param {item}: write NAME=VALUE, e.g. --param hand_size=8")
        try:
            value = yaml.safe_load(text) if text.strip() else ""
        except yaml.YAMLError:
            value = text
        if not isinstance(value, (bool, int, str, list)) or isinstance(value, float):
            raise _Usage(f"--param {item}: a value is a whole number, true/false, a text or a [list]")
        out[name.strip()] = value
    return out or None


def _check_log(value: str) -> Path:
    """The --log file, refused before the game if it could not be written after it."""
    path = Path(value)
    if path.is_dir():
        raise _Usage(f"--log {value}: that is a folder; give the record's file name")
    folder = path.parent
    if not folder.is_dir():
        raise _Usage(f"--log {value}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise _Usage(f"--log {value}: cannot write there (permission denied)")
    return path


def cmd_play(args) -> int:
    from .engine.game import Game
    from .session.budget import budget
    from .table.terminal.human import HumanAgent
    from .table.terminal.screen import Terminal
    from .session.agents import make_agents
    from .session.load import load, load_recorded
    from .session.record import header, read_record, write_record
    from .table.terminal.table import Table
    from .table.terminal.view import render_view

    resumed = None
    if args.resume:
        report = Report()
        resumed = read_record(Path(args.resume), report)
        if resumed is None:
            raise RulesetError(report)
    log = _check_log(args.log) if args.log else (_check_log(args.resume) if args.resume else None)
    log_name = args.log or args.resume

    def write_log(result) -> bool:
        assert log is not None
        try:
            write_record(log, header(loaded, plan, seed, kinds), table.decisions, result)
        except OSError as e:
            print(f"racecraft play: error: cannot write the game record {log_name}: {e.strerror or e}",
                  file=sys.stderr)
            return False
        return True

    if resumed is None and not args.ruleset:
        raise _Usage("name the game to play (e.g. racecraft play GAME), or --resume RECORD")
    if resumed is not None:
        head, recorded, _result = resumed
        loaded = load_recorded(head, Path(args.resume), args.ruleset)
        kinds = _seats(args, (1, MAX_PLAYERS)) if args.seats else [str(k) for k in head.get("seats", [])]
        if len(kinds) != head["players"] or _seat_problem(kinds) is not None:
            kinds = ["human"] + ["random"] * (head["players"] - 1)
        plan = loaded.plan(head["players"])
        if plan.digest != head["digest"]:
            raise _Usage(f"--resume {args.resume}: the rules changed since the game was recorded")
        seed = head["seed"]
    else:
        loaded = load(args.ruleset, args.variant, args.module, args.track, _params(args))
        players = loaded.ruleset.game.game.players
        kinds = _seats(args, (players.min, players.max))
        plan = loaded.plan(len(kinds))
        seed = args.seed
    term = Terminal(sys.stdout, _raw(sys.stdout))
    try:
        # the game is told as it is played (trace on): the narrated log of what the rules `say`
        with budget():
            game = Game(plan, seed, trace=True)
    except RuleError as e:
        print(f"rule error: {e}", file=sys.stderr)
        return 1
    table = Table(game, kinds, term, sys.stdin, bool(args.verbose))
    agents = make_agents(kinds, seed, human_factory=lambda: HumanAgent(sys.stdin, sys.stdout, table))
    print(f"{plan.name}: {len(kinds)} players "
          f"({', '.join(f'seat {i + 1} {k}' for i, k in enumerate(kinds))}), seed {seed}")
    if resumed is not None:
        picks = [d.get("pick") for d in recorded]
        try:
            table.rebuild(picks, budget)
        except (RuleError, ValueError, TypeError, IndexError):
            raise _Usage(f"--resume {args.resume}: its decisions do not fit these rules") from None
        table.decisions = [dict(d) for d in recorded]
        print(f"resumed after {len(recorded)} decisions")
    try:
        result = table.run(agents, budget)
    except RuleError as e:
        print(f"rule error: {e}", file=sys.stderr)
        if log:
            write_log(None)
        return 1
    except (EOFError, KeyboardInterrupt):
        print("\ngame abandoned" + (f" (go on with: racecraft play --resume {log_name})" if log else ""),
              file=sys.stderr)
        if log:
            write_log(None)
        return 1
    print("\nFinal table:")
    print(render_view(game.view(None), plan))
    print("\nResult:")
    standings = result.get("standings") or [{"seat": s} for s in result["order"]]
    for place, entry in enumerate(standings, 1):
        if "seat" in entry:
            s = entry["seat"]
            mark = "  winner" if s in result["winners"] else ""
            print(f"  {place}. seat {s + 1} ({kinds[s]}): {result['scores'][s]}{mark}")
        else:  # a piece the game drives
            print(f"  {place}. {entry['piece']} (driven by the game): {entry['score']}")
    if len(kinds) > 1 and len(result["winners"]) == len(kinds):
        print("  a draw: every seat is tied")
    print(f"{result['rounds']} rounds, {result['decisions']} decisions")
    if log:
        if not write_log({k: result[k] for k in ("order", "winners", "scores", "rounds")}):
            return 1
        print(f"game record written to {log_name}")
    return 0


def cmd_replay(args) -> int:
    from .table.replay import replay, stepper
    from .table.terminal.screen import Terminal

    if args.step or args.at is not None or args.seat is not None:
        if args.rules:
            raise _Usage("--rules prints the whole game; --at, --step and --seat show a table")
        seat = None if args.seat is None else args.seat - 1
        return stepper(Path(args.record), Terminal(sys.stdout, _raw(sys.stdout)), sys.stdin, args.ruleset,
                       args.at, args.step, seat)
    return replay(Path(args.record), sys.stdout, args.ruleset, args.rules)


def _bots(text: str | None, players: int | None, option: str = "--seats") -> list[str] | None:
    """The bots a `--seats` option names (random, greedy or mcts[:BUDGET[:ROLLOUT]]), checked."""
    if not text:
        return None
    seats = [k.strip() for k in text.split(",") if k.strip()]
    if len(seats) > MAX_PLAYERS:
        raise _Usage(f"{option} names {len(seats)} seats: at most {MAX_PLAYERS}")
    bad = _seat_problem(seats, people=False)
    if bad:
        raise _Usage(bad)
    if players and players != len(seats):
        raise _Usage(f"--players {players} but {option} names {len(seats)} seats")
    return seats


def _outputs_checked(args) -> None:
    """The files and folder a run writes, refused before it plays rather than after."""
    for option in ("export", "csv", "report"):
        value = getattr(args, option, None)
        if value:
            _check_out(value, f"--{option}")
    if getattr(args, "plot", None) or getattr(args, "report", None):
        from .lab.charts import ChartsUnavailable, check_available

        try:
            check_available()
        except ChartsUnavailable as e:
            raise _Usage(str(e)) from None
    if getattr(args, "plot", None):
        folder = Path(args.plot)
        if folder.exists() and not folder.is_dir():
            raise _Usage(f"--plot {args.plot}: that is a file; give a folder for the charts")
        if not folder.parent.is_dir():
            raise _Usage(f"--plot {args.plot}: the folder {folder.parent} does not exist")


def _check_out(value: str, option: str) -> Path:
    try:
        return _check_log(value)
    except _Usage as e:
        raise _Usage(str(e).replace("--log", option)
                     .replace("the record's file name", "a file name")) from None


def _write_outputs(args, rows, series, title, lines, compared=None) -> None:
    """--export, --csv, --plot and --report of a simulation or a comparison."""
    from .lab.export import write_csv, write_jsonl

    if args.export:
        write_jsonl(Path(args.export), rows)
        print(f"{len(rows)} games written to {args.export}", file=sys.stderr)
    if args.csv:
        write_csv(Path(args.csv), rows)
        print(f"{len(rows)} games written to {args.csv}", file=sys.stderr)
    if args.plot or args.report:
        from .lab import charts

        formats = ({args.plot_format} if args.plot else set()) | ({"png"} if args.report else set())
        drawn = charts.images(series, sorted(formats), compared)
        if args.plot:
            paths = charts.write(drawn, Path(args.plot), args.plot_format)
            print(f"{len(paths)} charts written to {args.plot}", file=sys.stderr)
        if args.report:
            page = charts.report_html(title, lines, series, drawn, compared)
            Path(args.report).write_text(page, encoding="utf-8")
            print(f"report written to {args.report}", file=sys.stderr)


def _progress_bar(args, total: int, what: str):
    """(progress function, bar to stop) on the error stream, none with --json."""
    if args.json:
        return None, None
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        # the bar draws with escape sequences of its own: on the real stderr, not the escaping one;
        # and nothing else is redirected through it (what is printed stays escaped)
        bar = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                       TimeRemainingColumn(), transient=True, console=Console(file=_raw(sys.stderr)),
                       redirect_stdout=False, redirect_stderr=False)
        bar.start()
        task = bar.add_task(what, total=total)
        return (lambda done, _total: bar.update(task, completed=done)), bar
    step = max(1, total // 10)
    marks = set()

    def progress(done, all_games):
        k = done // step
        if k not in marks:
            marks.add(k)
            print(f"  {done}/{all_games} games", file=sys.stderr)
    return progress, None


def cmd_compare(args) -> int:
    from .lab.compare import compare, render
    from .session.load import load
    from .lab.simulate import Setup

    if args.games < 1:
        raise _Usage("--games must be at least 1")
    _outputs_checked(args)
    seats = _bots(args.seats, args.players)
    against = _bots(args.against_seats, args.players or (len(seats) if seats else None), "--against-seats")
    players = args.players or (len(seats) if seats else None) or (len(against) if against else None)
    if players is None:
        players = load(args.ruleset, args.base_variant, args.module, args.track,
                       _params(args)).ruleset.game.game.players.min
    seats = seats or ["random"] * players
    if against and len(against) != len(seats):
        raise _Usage(f"--against-seats names {len(against)} seats but the base has {len(seats)}")
    params = _params(args) or {}
    changed = dict(params)
    changed.update(_params(argparse.Namespace(param=args.against_param)) or {})
    base = Setup.of(args.ruleset, seats, args.base_variant, args.module, args.track, params, args.counts)
    variant = Setup.of(args.ruleset, against or seats, [*args.base_variant, *args.variant],
                       [*args.module, *args.against_module], args.against_track or args.track, changed,
                       args.counts)
    progress, bar = _progress_bar(args, 2 * args.games, "comparing")
    rows: list = []
    try:
        result = compare(base, variant, args.games, args.seed, args.jobs, progress,
                         backend=_backend(args), variant_seed=args.against_seed, rows_out=rows)
    finally:
        if bar is not None:
            bar.stop()
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(render(result))
    series = [("base", result["base"], [r for side, r in rows if side == "base"]),
              ("variant", result["variant"], [r for side, r in rows if side == "variant"])]
    title = f"{result['game']}: compare"
    lines = [f"base: {result['base']['setup']}", f"variant: {result['variant']['setup']}",
             f"{args.games} games a side, seed {args.seed}"]
    _write_outputs(args, rows, series, title, lines, result)
    return 0 if result["base"]["failed"] == 0 and result["variant"]["failed"] == 0 else 1


def _backend(args):
    """The backend `--backend` names (None: the local processes, sized by the command)."""
    from .lab.cluster import ClusterUnavailable, make_backend

    try:
        return make_backend(args.backend, args.jobs, args.ray_address)
    except ClusterUnavailable as e:
        raise _Usage(str(e)) from None


def cmd_simulate(args) -> int:
    from .lab.simulate import render, simulate

    if args.games < 1:
        raise _Usage("--games must be at least 1")
    _outputs_checked(args)
    seats = _bots(args.seats, args.players)
    players = args.players or (len(seats) if seats else None)
    if players is None:
        from .session.load import load

        players = load(args.ruleset, args.variant, args.module, args.track,
                       _params(args)).ruleset.game.game.players.min
    progress, bar = _progress_bar(args, args.games, "simulating")
    rows: list = []
    try:
        stats = simulate(args.ruleset, args.games, players, args.seed, args.jobs, args.variant,
                         args.module, progress, seats, args.track, _params(args), counts=args.counts,
                         backend=_backend(args), rows_out=rows)
    finally:
        if bar is not None:
            bar.stop()
    if args.json:
        print(json.dumps(stats, indent=2))
    else:
        print(render(stats))
    title = f"{stats['game']}: {stats['games']} games"
    lines = [f"{players} players, seats {', '.join(stats['seats'])}, seed {args.seed}"
             + (f", track {stats['track']}" if stats.get("track") else "")
             + "".join(f", variant {v}" for v in stats["variants"])
             + "".join(f", module {m}" for m in stats["modules"])]
    _write_outputs(args, [(None, r) for r in rows], [(stats["game"], stats, rows)], title, lines)
    return 0 if stats["failed"] == 0 else 1


def cmd_check(args) -> int:
    from .authoring.scenario import run_seeds

    paths = []
    for p in args.files:
        path = Path(p)
        paths.extend(sorted(path.glob("*.yaml")) if path.is_dir() else [path])
    seeds: list = args.seeds or [args.seed]   # None: each file's own seed
    failed = 0
    for path in paths:
        outs = run_seeds(path, seeds)
        bad = [o for o in outs if not o.passed]
        tried = f"  (seed {seeds[0]})" if seeds != [None] and len(seeds) == 1 else ""
        if len(seeds) > 1:
            tried = f"  ({len(seeds)} seeds)" if not bad else \
                f"  (fails with seed {', '.join(str(o.seed) for o in bad)} of {len(outs)})"
        if not bad:
            print(f"ok    {path}  {outs[0].name}{tried}")
            continue
        failed += 1
        print(f"FAIL  {path}  {outs[0].name}{tried}")
        first = bad[0]
        shown = f"with seed {first.seed}:\n" if len(seeds) > 1 and first.seed is not None else ""
        print(shown + first.report.render(), file=sys.stderr)
    print(f"{len(paths) - failed} passed, {failed} failed")
    return 1 if failed else 0


def _seed_range(text: str) -> list[int]:
    """`--seeds 1..20` (or `3,7,12`, or both: `1..5,9`): the seeds, in order."""
    seeds: list[int] = []
    one = _bounded(0, MAX_SEED)
    for part in text.split(","):
        lo, dots, hi = part.partition("..")
        try:
            span = range(one(lo), one(hi) + 1) if dots else [one(part)]
        except ValueError:
            raise argparse.ArgumentTypeError(f"\"{part}\" is not a seed or a range of seeds: write A..B "
                                             "(1..20) or A,B,C") from None
        if len(seeds) + len(span) > MAX_CHECK_SEEDS:
            raise argparse.ArgumentTypeError(f"at most {MAX_CHECK_SEEDS:,} seeds")
        seeds.extend(span)
    if not seeds:
        raise argparse.ArgumentTypeError(f"no seed in \"{text}\": write A..B (1..20) or A,B,C")
    return seeds


def cmd_render(args) -> int:
    """Draw a board (a track file, a game, a ruleset), or a game's table from a record or a
    scenario (`--at N`), as SVG."""
    from .load.structure import check_structure
    from .picture import render
    from .session.load import load

    path = Path(args.path)
    report = Report()
    try:
        if path.is_file() and render.is_record(path):
            pic = render.recorded(path, args.at, args.ruleset, args.board)
        else:
            kind, data = render.file_kind(path, report) if path.is_file() else ("ruleset", None)
            if kind == "scenario":
                pic = render.scenario(path, args.at, args.board)
            elif args.at is not None:
                raise _Usage("--at draws a game record (`play --log FILE`) or a scenario at a decision")
            elif kind == "track":
                model = check_structure(data, "track", str(path), report)
                if model is None:
                    raise RulesetError(report)
                pic = render.board(dict(model.boards), args.board)
            elif kind in ("game", "ruleset"):
                loaded = load(str(path.parent) if kind == "game" else args.path, args.variant, args.module,
                              args.track, _params(args))
                plan = loaded.plan(loaded.ruleset.game.game.players.min)  # the piles a game keeps on a board
                pic = render.board(dict(loaded.ruleset.game.boards), args.board, plan)
            else:
                if report.ok:
                    report.add("E006", "render draws a track file, a game, a scenario or a game record", None)
                raise RulesetError(report)
    except render.Refused as e:
        raise _Usage(str(e)) from None
    out = Path(args.out or f"{pic.name}.svg")
    out.write_text(pic.svg, encoding="utf-8")
    print(f"wrote {out}")
    return 0


def cmd_championship(args) -> int:
    """A season: several games in a row (`seasons/NAME.yaml`), with standings; saved and resumed."""
    from .session.budget import budget
    from .lab.series import Series, play_at_terminal, render_seasons, simulate_seasons

    if args.resume:
        if args.ruleset or args.season or args.seats:
            raise _Usage("--resume FILE carries on a saved season: give no ruleset, --season or --seats")
        series = Series.resume(Path(args.resume))
        save: Path | None = Path(args.save or args.resume)
    else:
        if not args.ruleset or not args.season:
            raise _Usage("give a ruleset and --season NAME (or --resume FILE)")
        kinds = [k.strip() for k in (args.seats or "human,random").split(",") if k.strip()]
        if len(kinds) > MAX_PLAYERS or not kinds:
            raise _Usage(f"--seats names {len(kinds)} seats: 1 to {MAX_PLAYERS}")
        bad = _seat_problem(kinds)
        if bad:
            raise _Usage(bad)
        if args.games is not None:
            if "human" in kinds:
                raise _Usage("--games simulates seasons with bots: seats are random, greedy or mcts")
            jobs = args.jobs or os.cpu_count() or 1
            stats = simulate_seasons(args.ruleset, args.season, kinds, args.games, args.seed, jobs,
                                     args.variant, args.module, _params(args))
            print(json.dumps(stats, indent=2) if args.json else render_seasons(stats))
            return 0 if stats["failed"] == 0 else 1
        series = Series.start(args.ruleset, args.season, args.seed, kinds, args.variant, args.module,
                              _params(args))
        save = Path(args.save) if args.save else None
    if save is not None and (save.is_dir() or not save.parent.is_dir()):
        raise _Usage(f"--save {save}: give a file in a folder that exists")
    return play_at_terminal(series, save, args.stop_after, sys.stdout, budget)


def cmd_explain(args) -> int:
    from .authoring.explain import explain
    from .session.load import load

    loaded = load(args.ruleset, variants=args.variant, modules=args.module, track=args.track,
                  params=_params(args))
    players = args.players or loaded.ruleset.game.game.players.min
    print(explain(loaded, players, args.name, args.python))
    return 0


def cmd_schemas(args) -> int:
    from .ir.schema import write_schemas

    for path in write_schemas(Path(args.out)):
        print(path)
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="racecraft", description="Racing board games from text: "
                                "check rulesets, play them, simulate thousands of games.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def rules_args(sp, verb: str):
        sp.add_argument("--track", metavar="NAME",
                        help="race on tracks/<game>/NAME.yaml: "
                             "its boards replace the game's boards of the same names")
        sp.add_argument("--variant", action="append", default=[], metavar="NAME",
                        help=f"{verb} rulesets/<game>/variants/NAME.yaml (repeatable)")
        sp.add_argument("--module", action="append", default=[], metavar="NAME",
                        help=f"{verb} rulesets/<game>/modules/NAME.yaml (repeatable)")
        sp.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="give a param of the game this value (a number, true/false, a text or "
                             "a [list]), after the modules and variants (repeatable)")

    def lab_args(sp):
        sp.add_argument("--counts", action="store_true",
                        help="count how often each rule, named statement, option and card fired or was "
                             "chosen, and the win rate of the seats that chose each (slower)")
        sp.add_argument("--export", metavar="FILE", help="write one JSON line per game here (JSONL)")
        sp.add_argument("--csv", metavar="FILE", help="write one line per game here (CSV)")
        sp.add_argument("--plot", metavar="DIR", help="write charts into this folder (needs matplotlib: "
                                                      "pip install 'racecraft[plots]')")
        sp.add_argument("--plot-format", choices=("png", "svg"), default="png", help="the charts' format")
        sp.add_argument("--report", metavar="FILE", help="write one HTML page with the tables and charts "
                                                         "(needs matplotlib)")
        sp.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="where the games run: this machine's processes (default), or a Ray cluster "
                             "(pip install 'racecraft[cluster]'); the results are the same")
        sp.add_argument("--ray-address", metavar="ADDRESS",
                        help="the Ray cluster to use (default: $RAY_ADDRESS, else a Ray started here)")

    v = sub.add_parser("validate", help="check a ruleset folder or any file a designer writes")
    v.add_argument("path", help="a ruleset: a folder name under rulesets/, or a path (folder or file)")
    rules_args(v, "check")
    v.set_defaults(fn=cmd_validate)

    def game_args(sp, optional: bool = False):
        sp.add_argument("ruleset", help="a ruleset: a folder name under rulesets/, or a path",
                        **({"nargs": "?"} if optional else {}))
        rules_args(sp, "apply")
        sp.add_argument("--seed", type=_bounded(0, MAX_SEED), default=1,
                        help="the seed of every shuffle and bot (0 to 2**63-1; default 1)")
        sp.add_argument("--players", type=_bounded(1, MAX_PLAYERS),
                        help=f"how many seats (1 to {MAX_PLAYERS}, within what the game allows)")

    pl = sub.add_parser("play", help="play a game in the terminal, with people and bots")
    game_args(pl, optional=True)
    pl.add_argument("--seats",
                    help="who sits at each seat: human, random, greedy or mcts[:BUDGET[:ROLLOUT]] "
                         "(the search bot, see docs/bots.md), e.g. human,greedy,mcts:200")
    pl.add_argument("--log", metavar="FILE", help="write the game record (JSONL) here")
    pl.add_argument("--resume", metavar="RECORD",
                    help="go on with the game of this record (written by --log, also when a game is "
                         "abandoned); it is written again there unless --log says elsewhere")
    pl.add_argument("--verbose", action="store_true", help="also print each bot's choice and where the "
                                                           "pieces are at each round")
    pl.set_defaults(fn=cmd_play)

    r = sub.add_parser("replay", help="replay a game record: its narrated log, or step through it")
    r.add_argument("record")
    r.add_argument("--ruleset", metavar="PATH",
                   help="replay with this ruleset (a folder, or a name under rulesets/) instead of "
                        "the game the record names, found by its name")
    r.add_argument("--rules", action="store_true",
                   help="print each rule as it fires, each chance and each choice, with the log")
    r.add_argument("--at", type=_bounded(1, 10_000_000), metavar="N",
                   help="show the table before decision N (the log of its round, the view, the choice)")
    r.add_argument("--step", action="store_true",
                   help="step through the game: Enter goes forward a decision, b back, a number to it")
    r.add_argument("--seat", type=_bounded(1, MAX_PLAYERS), metavar="N",
                   help="see the table as seat N does (default: as the seat that decides)")
    r.set_defaults(fn=cmd_replay)

    s = sub.add_parser("simulate", help="play many seeded games with random bots and print statistics")
    game_args(s)
    s.add_argument("--games", type=_bounded(None, MAX_GAMES), default=1000,
                   help=f"how many games (1 to {MAX_GAMES:,}; default 1000)")
    s.add_argument("--seats", help="the bot at each seat: random, greedy or mcts[:BUDGET[:ROLLOUT]] "
                   "(default: all random)")
    s.add_argument("--jobs", type=_bounded(1, _max_jobs),
                   help=f"processes (default: all cores; at most {JOBS_PER_CORE} per core and {MAX_JOBS})")
    s.add_argument("--json", action="store_true", help="print the statistics as JSON")
    lab_args(s)
    s.set_defaults(fn=cmd_simulate)

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
    cp.add_argument("--against-seed", type=_bounded(0, MAX_SEED), metavar="SEED",
                    help="play the variant side on the games of another seed: the sides are no longer "
                         "paired (a check of how large chance differences are)")
    cp.add_argument("--base-variant", action="append", default=[], metavar="NAME",
                    help="a variant both sides play (repeatable)")
    cp.add_argument("--module", action="append", default=[], metavar="NAME",
                    help="a module both sides play (repeatable)")
    cp.add_argument("--track", metavar="NAME", help="the track both sides race on (tracks/<game>/NAME.yaml)")
    cp.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="a param value both sides play with (repeatable)")
    cp.add_argument("--seed", type=_bounded(0, MAX_SEED), default=1,
                    help="the seed of every shuffle and bot (0 to 2**63-1; default 1)")
    cp.add_argument("--players", type=_bounded(1, MAX_PLAYERS),
                    help=f"how many seats (1 to {MAX_PLAYERS}, within what the game allows)")
    cp.add_argument("--games", type=_bounded(None, MAX_GAMES), default=1000,
                    help=f"how many games a side (1 to {MAX_GAMES:,}; default 1000)")
    cp.add_argument("--seats",
                    help="the bot at each seat of both sides: random or greedy (default: all random)")
    cp.add_argument("--jobs", type=_bounded(1, _max_jobs),
                    help=f"processes (default: all cores; at most {JOBS_PER_CORE} per core and {MAX_JOBS})")
    cp.add_argument("--json", action="store_true", help="print the comparison as JSON")
    lab_args(cp)
    cp.set_defaults(fn=cmd_compare)

    c = sub.add_parser("check", help="run scenario files (a file or a folder of them)")
    c.add_argument("files", nargs="+")
    cs = c.add_mutually_exclusive_group()
    cs.add_argument("--seed", type=_bounded(0, MAX_SEED),
                    help="play each scenario with this seed instead of its own (0 to 2**63-1)")
    cs.add_argument("--seeds", type=_seed_range,
                    help=f"play each scenario with each of these seeds: 1..20, or 3,7,12 (at most "
                         f"{MAX_CHECK_SEEDS:,})")
    c.set_defaults(fn=cmd_check)

    rd = sub.add_parser("render", help="draw a board, or the table of a game record or scenario, as SVG")
    rd.add_argument("path", help="a track file, a game file, a ruleset, a scenario file or a game record")
    rules_args(rd, "apply")
    rd.add_argument("--at", type=_bounded(0, MAX_GAMES), metavar="N",
                    help="a record or a scenario: draw the table after its first N decisions "
                         "(default: all of them; 0: as set up)")
    rd.add_argument("--ruleset", metavar="PATH",
                    help="a record: draw it with this ruleset instead of the game it names")
    rd.add_argument("--board", help="which board (default: the first; in a game, those with pieces on them)")
    rd.add_argument("-o", "--out", help="the SVG file to write (default: BOARD.svg, or RECORD-N.svg)")
    rd.set_defaults(fn=cmd_render)

    ch = sub.add_parser("championship", aliases=["series"],
                        help="play a season: games in a row with standings (seasons/NAME.yaml)")
    ch.add_argument("ruleset", nargs="?", help="a ruleset: a folder name under rulesets/, or a path")
    ch.add_argument("--season", metavar="NAME", help="the season: rulesets/<game>/seasons/NAME.yaml")
    ch.add_argument("--seats", help="who sits at each seat: human, random, greedy or mcts[:BUDGET[:ROLLOUT]] "
                    "(default human,random)")
    ch.add_argument("--seed", type=_bounded(0, MAX_SEED), default=1,
                    help="the seed of the season: every game's shuffles and bots (default 1)")
    ch.add_argument("--variant", action="append", default=[], metavar="NAME",
                    help="apply rulesets/<game>/variants/NAME.yaml to every game (repeatable)")
    ch.add_argument("--module", action="append", default=[], metavar="NAME",
                    help="apply rulesets/<game>/modules/NAME.yaml to every game (repeatable)")
    ch.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="give a param of every game this value (repeatable)")
    ch.add_argument("--save", metavar="FILE", help="write the season here after every game and when stopped")
    ch.add_argument("--stop-after", type=_bounded(1, 1000), metavar="N", help="stop after N games")
    ch.add_argument("--resume", metavar="FILE", help="carry on a season saved with --save")
    ch.add_argument("--games", type=_bounded(1, 100_000), metavar="N",
                    help="simulate N whole seasons with bots and print the champions by seat")
    ch.add_argument("--jobs", type=_bounded(1, _max_jobs), help="processes for --games (default: all cores)")
    ch.add_argument("--json", action="store_true", help="with --games: print the statistics as JSON")
    ch.set_defaults(fn=cmd_championship)

    ex = sub.add_parser("explain",
                        help="print the rules as the engine understood them (or the Python made of them)")
    game_args(ex)
    ex.add_argument("name", nargs="?",
                    help="one rule: an id (`functions.value_of`, `steps.play`) or a name (`value_of`)")
    ex.add_argument("--python", action="store_true", help="print the Python the compiler generated")
    ex.set_defaults(fn=cmd_explain)

    sc = sub.add_parser("schemas", help="write the JSON Schemas of the file kinds")
    sc.add_argument("--out", default="schemas")
    sc.set_defaults(fn=cmd_schemas)
    return p


def main(argv: list[str] | None = None) -> int:
    # every character the command prints goes through `visible` for as long as it runs
    out, err = sys.stdout, sys.stderr
    sys.stdout = out if isinstance(out, _Visible) else _Visible(out)
    sys.stderr = err if isinstance(err, _Visible) else _Visible(err)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = out, err


def _main(argv: list[str] | None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.fn(args)
    except RulesetError as e:
        _print_report(e.report)
        return 1
    except _Usage as e:
        print(f"racecraft {args.command}: error: {e}", file=sys.stderr)
        return 2
    except RuleError as e:  # a rule failed outside a game's own loop (a view, a label, a result)
        print(f"rule error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # output piped into `head`
        return 0
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except OSError as e:  # a file that cannot be written or read, outside the designer's files
        print(f"racecraft {args.command}: error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - never a traceback, even for a bug of ours
        if os.environ.get("RACECRAFT_TRACEBACK"):
            raise
        print(f"racecraft {args.command}: internal error: {type(e).__name__}: {e}\n"
              "(a bug in Racecraft, not in your files; RACECRAFT_TRACEBACK=1 shows where)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
