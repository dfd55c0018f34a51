"""The `racecraft` command: validate, play, replay, simulate, check, render, explain, schemas.

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
    from .run.validate import validate_path
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


class _Announcing:
    """An agent that first prints what happened since the last decision (public `say`s)."""

    def __init__(self, agent, says):
        self.agent, self.says, self.name = agent, says, agent.name
        self.person = getattr(agent, "person", False)

    def choose(self, game, decision) -> int:
        self.says()
        return self.agent.choose(game, decision)


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
    from .run.replay import positions
    from .run.budget import budget
    from .run.session import header, load, make_agents, play, write_record

    log = _check_log(args.log) if args.log else None

    def write_log(result) -> bool:
        assert log is not None
        try:
            write_record(log, header(loaded, plan, seed, kinds), decisions, result)
        except OSError as e:
            print(f"racecraft play: error: cannot write the game record {args.log}: {e.strerror or e}",
                  file=sys.stderr)
            return False
        return True

    loaded = load(args.ruleset, args.variant, args.module, args.track, _params(args))
    players = loaded.ruleset.game.game.players
    kinds = _seats(args, (players.min, players.max))
    plan = loaded.plan(len(kinds))
    seed = args.seed
    agents = make_agents(kinds, seed)
    try:
        # with a person at the table, what the rules `say` is shown as it happens (trace on)
        with budget():
            game = Game(plan, seed, trace="human" in kinds or bool(args.verbose))
    except RuleError as e:
        print(f"rule error: {e}", file=sys.stderr)
        return 1
    decisions: list[dict] = []
    quiet = "human" not in kinds and not args.verbose

    def on_decision(d, pick):
        label = d.labels()[pick]
        decisions.append({"type": "decision", "n": len(decisions) + 1, "seat": d.seat, "rule": d.rule,
                          "loc": str(d.loc) if d.loc else None, "pick": pick, "label": label})
        if not quiet and kinds[d.seat] != "human":
            # a secret choice made at the same time as a person's stays hidden from them
            shown = "(decided, hidden until revealed)" if d.simultaneous and "human" in kinds else label
            print(f"seat {d.seat + 1} ({kinds[d.seat]}): {shown}")

    said = [0]

    def says():
        trace = game.st.trace
        if trace is not None:
            for entry in trace[said[0]:]:
                if entry[0] == "say":
                    print(f"  » {entry[2]}")
                elif entry[0] == "round" and args.verbose:
                    where = positions(entry[4])
                    print(f"-- round {entry[3]}" + (f": {where}" if where else ""))
            said[0] = len(trace)

    agents = [_Announcing(a, says) for a in agents]
    print(f"{plan.name}: {len(kinds)} players "
          f"({', '.join(f'seat {i + 1} {k}' for i, k in enumerate(kinds))}), seed {seed}")
    try:
        result = play(game, agents, on_decision, guard=budget)
        says()
    except RuleError as e:
        print(f"rule error: {e}", file=sys.stderr)
        if log:
            write_log(None)
        return 1
    except (EOFError, KeyboardInterrupt):
        print("\ngame abandoned", file=sys.stderr)
        if log:
            write_log(None)
        return 1
    from .run.view import render_view

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
        print(f"game record written to {args.log}")
    return 0


def cmd_replay(args) -> int:
    from .run.replay import replay

    return replay(Path(args.record), sys.stdout, args.ruleset)


def cmd_simulate(args) -> int:
    from .run.simulate import render, simulate

    if args.games < 1:
        raise _Usage("--games must be at least 1")
    seats = None
    if args.seats:
        seats = [k.strip() for k in args.seats.split(",") if k.strip()]
        if len(seats) > MAX_PLAYERS:
            raise _Usage(f"--seats names {len(seats)} seats: at most {MAX_PLAYERS}")
        bad = _seat_problem(seats, people=False)
        if bad:
            raise _Usage(bad)
        if args.players and args.players != len(seats):
            raise _Usage(f"--players {args.players} but --seats names {len(seats)} seats")
    players = args.players or (len(seats) if seats else None)
    if players is None:
        from .run.session import load

        players = load(args.ruleset, args.variant, args.module, args.track,
                       _params(args)).ruleset.game.game.players.min
    progress = None
    bar = None
    if not args.json and sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        # the bar draws with escape sequences of its own: on the real stderr, not the escaping one;
        # and nothing else is redirected through it (what is printed stays escaped)
        bar = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                       TimeRemainingColumn(), transient=True, console=Console(file=_raw(sys.stderr)),
                       redirect_stdout=False, redirect_stderr=False)
        bar.start()
        task = bar.add_task("simulating", total=args.games)
        progress = lambda done, total: bar.update(task, completed=done)  # noqa: E731
    elif not args.json:
        step = max(1, args.games // 10)
        marks = set()

        def progress(done, total):
            k = done // step
            if k not in marks:
                marks.add(k)
                print(f"  {done}/{total} games", file=sys.stderr)
    try:
        stats = simulate(args.ruleset, args.games, players, args.seed, args.jobs, args.variant,
                         args.module, progress, seats, args.track, _params(args))
    finally:
        if bar is not None:
            bar.stop()
    if args.json:
        print(json.dumps(stats, indent=2))
    else:
        print(render(stats))
    return 0 if stats["failed"] == 0 else 1


def cmd_check(args) -> int:
    from .run.scenario import run_scenario

    paths = []
    for p in args.files:
        path = Path(p)
        paths.extend(sorted(path.glob("*.yaml")) if path.is_dir() else [path])
    failed = 0
    for path in paths:
        out = run_scenario(path)
        if out.passed:
            print(f"ok    {path}  {out.name}")
        else:
            failed += 1
            print(f"FAIL  {path}  {out.name}")
            print(out.report.render(), file=sys.stderr)
    print(f"{len(paths) - failed} passed, {failed} failed")
    return 1 if failed else 0


def cmd_render(args) -> int:
    """Draw a board as SVG: from a track file, or a ruleset's boards."""
    from .boards import KINDS
    from .load.structure import check_structure
    from .ir.models import kind_of
    from .load.ruleset import read_file
    from .run.session import load

    path = Path(args.path)
    report = Report()
    if path.is_file() and path.suffix in (".yaml", ".yml"):
        data = read_file(path, report)
        if data is not None and isinstance(data, dict) and kind_of(data) == "track":
            model = check_structure(data, "track", str(path), report)
            if model is None:
                raise RulesetError(report)
            boards = dict(model.boards)
        elif data is not None and kind_of(data) == "game":
            boards = dict(load(str(path.parent), args.variant, args.module, args.track,
                               _params(args)).ruleset.game.boards)
        else:
            if report.ok:
                report.add("E006", "render draws a track file or a ruleset's boards", None)
            raise RulesetError(report)
    else:
        loaded = load(args.path, args.variant, args.module, args.track, _params(args))
        boards = dict(loaded.ruleset.game.boards)
    if not boards:
        raise _Usage("there is no board to draw")
    name = args.board or next(iter(boards))
    if name not in boards:
        raise _Usage(f"no board `{name}`; boards: {', '.join(boards)}")
    decl = boards[name]
    svg = KINDS[decl.kind](name, 0, decl, None).svg()
    if svg is None:
        raise _Usage(f"boards of kind {decl.kind} have no picture")
    out = Path(args.out or f"{name}.svg")
    out.write_text(svg, encoding="utf-8")
    print(f"wrote {out}")
    return 0


def cmd_championship(args) -> int:
    """A season: several games in a row (`seasons/NAME.yaml`), with standings; saved and resumed."""
    from .run.budget import budget
    from .run.series import Series, play_at_terminal, render_seasons, simulate_seasons

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
    from .run.explain import explain
    from .run.session import load

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

    v = sub.add_parser("validate", help="check a ruleset folder or any file a designer writes")
    v.add_argument("path", help="a ruleset: a folder name under rulesets/, or a path (folder or file)")
    rules_args(v, "check")
    v.set_defaults(fn=cmd_validate)

    def game_args(sp):
        sp.add_argument("ruleset", help="a ruleset: a folder name under rulesets/, or a path")
        rules_args(sp, "apply")
        sp.add_argument("--seed", type=_bounded(0, MAX_SEED), default=1,
                        help="the seed of every shuffle and bot (0 to 2**63-1; default 1)")
        sp.add_argument("--players", type=_bounded(1, MAX_PLAYERS),
                        help=f"how many seats (1 to {MAX_PLAYERS}, within what the game allows)")

    pl = sub.add_parser("play", help="play a game in the terminal, with people and bots")
    game_args(pl)
    pl.add_argument("--seats",
                    help="who sits at each seat: human, random, greedy or mcts[:BUDGET[:ROLLOUT]] "
                         "(the search bot, see docs/bots.md), e.g. human,greedy,mcts:200")
    pl.add_argument("--log", metavar="FILE", help="write the game record (JSONL) here")
    pl.add_argument("--verbose", action="store_true", help="print bots' moves in bot-only games")
    pl.set_defaults(fn=cmd_play)

    r = sub.add_parser("replay", help="replay a game record, step by step with the rules that fired")
    r.add_argument("record")
    r.add_argument("--ruleset", metavar="PATH",
                   help="replay with this ruleset (a folder, or a name under rulesets/) instead of "
                        "the game the record names, found by its name")
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
    s.set_defaults(fn=cmd_simulate)

    c = sub.add_parser("check", help="run scenario files (a file or a folder of them)")
    c.add_argument("files", nargs="+")
    c.set_defaults(fn=cmd_check)

    rd = sub.add_parser("render", help="draw a board (a track file, or a ruleset's board) as SVG")
    rd.add_argument("path", help="a track file, a game file, or a ruleset")
    rules_args(rd, "apply")
    rd.add_argument("--board", help="which board (default: the first)")
    rd.add_argument("-o", "--out", help="the SVG file to write (default: BOARD.svg)")
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
