"""The `racecraft` command: validate, play, replay, simulate, check, render, explain, schemas.

Exit codes: 0 success, 1 a problem in the rules or a failed check, 2 a usage error.
Problems in a designer's files print as diagnostics, never as a Python traceback.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .lang.diagnostics import Report, RulesetError
from .lang.errors import RuleError


def _print_report(report: Report) -> None:
    print(report.render(), file=sys.stderr)
    n = sum(1 for d in report.items if d.severity == "error")
    print(f"\n{n} error{'s' if n != 1 else ''}", file=sys.stderr)


def cmd_validate(args) -> int:
    from .run.validate import validate_path
    from .load.ruleset import find_ruleset

    # a ruleset's name (as `play` takes it) or any path: a folder, a game or variant file
    v = validate_path(find_ruleset(args.path) or Path(args.path))
    if not v.report.ok:
        _print_report(v.report)
        return 1
    print("\n".join(v.summary))
    return 0


def _seats(args, plan_players: tuple[int, int]) -> list[str]:
    if args.seats:
        kinds = [s.strip() for s in args.seats.split(",") if s.strip()]
    else:
        n = args.players or plan_players[0]
        kinds = ["human"] + ["random"] * (n - 1)
    bad = [k for k in kinds if k not in SEAT_KINDS]
    if bad:
        raise _Usage(f"unknown seat kind `{bad[0]}`: seats are {', '.join(SEAT_KINDS)}, "
                     "e.g. --seats human,random,greedy")
    if args.players and args.players != len(kinds):
        raise _Usage(f"--players {args.players} but --seats names {len(kinds)} seats")
    return kinds


SEAT_KINDS = ("human", "random", "greedy")


class _Usage(Exception):
    pass


class _Announcing:
    """An agent that first prints what happened since the last decision (public `say`s)."""

    def __init__(self, agent, says):
        self.agent, self.says, self.name = agent, says, agent.name

    def choose(self, game, decision) -> int:
        self.says()
        return self.agent.choose(game, decision)


def cmd_play(args) -> int:
    from .engine.game import Game
    from .run.replay import positions
    from .run.session import header, load, make_agents, play, write_record

    loaded = load(args.ruleset, args.variant, args.module, args.track)
    players = loaded.ruleset.game.game.players
    kinds = _seats(args, (players.min, players.max))
    plan = loaded.plan(len(kinds))
    seed = args.seed
    agents = make_agents(kinds, seed)
    try:
        # with a person at the table, what the rules `say` is shown as it happens (trace on)
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
                    print(f"-- round {entry[3]}: {positions(entry[4])}")
            said[0] = len(trace)

    agents = [_Announcing(a, says) for a in agents]
    print(f"{plan.name}: {len(kinds)} players "
          f"({', '.join(f'seat {i + 1} {k}' for i, k in enumerate(kinds))}), seed {seed}")
    try:
        result = play(game, agents, on_decision)
        says()
    except RuleError as e:
        print(f"rule error: {e}", file=sys.stderr)
        if args.log:
            write_record(Path(args.log), header(loaded, plan, seed, kinds), decisions, None)
        return 1
    except (EOFError, KeyboardInterrupt):
        print("\ngame abandoned", file=sys.stderr)
        if args.log:
            write_record(Path(args.log), header(loaded, plan, seed, kinds), decisions, None)
        return 1
    from .run.view import render_view

    print("\nFinal table:")
    print(render_view(game.view(None), plan))
    print("\nResult:")
    for place, s in enumerate(result["order"], 1):
        mark = "  winner" if s in result["winners"] else ""
        print(f"  {place}. seat {s + 1} ({kinds[s]}): {result['scores'][s]}{mark}")
    if len(kinds) > 1 and len(result["winners"]) == len(kinds):
        print("  a draw: every seat is tied")
    print(f"{result['rounds']} rounds, {result['decisions']} decisions")
    if args.log:
        write_record(Path(args.log), header(loaded, plan, seed, kinds), decisions,
                     {k: result[k] for k in ("order", "winners", "scores", "rounds")})
        print(f"game record written to {args.log}")
    return 0


def cmd_replay(args) -> int:
    from .run.replay import replay

    return replay(Path(args.record), sys.stdout)


def cmd_simulate(args) -> int:
    from .run.simulate import render, simulate

    if args.games < 1:
        raise _Usage("--games must be at least 1")
    seats = None
    if args.seats:
        seats = [k.strip() for k in args.seats.split(",") if k.strip()]
        bad = [k for k in seats if k not in ("random", "greedy")]
        if bad:
            raise _Usage(f"unknown bot `{bad[0]}`: simulate seats are random or greedy")
        if args.players and args.players != len(seats):
            raise _Usage(f"--players {args.players} but --seats names {len(seats)} seats")
    players = args.players or (len(seats) if seats else None)
    if players is None:
        from .run.session import load

        players = load(args.ruleset, args.variant, args.module, args.track).ruleset.game.game.players.min
    progress = None
    bar = None
    if not args.json and sys.stderr.isatty():
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        bar = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                       TimeRemainingColumn(), transient=True)
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
                         args.module, progress, seats, args.track)
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
            boards = dict(load(str(path.parent)).ruleset.game.boards)
        else:
            if report.ok:
                report.add("E006", "render draws a track file or a ruleset's boards", None)
            raise RulesetError(report)
    else:
        boards = dict(load(args.path).ruleset.game.boards)
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


def cmd_explain(args) -> int:
    from .run.explain import explain
    from .run.session import load

    loaded = load(args.ruleset, variants=args.variant, modules=args.module, track=args.track)
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

    v = sub.add_parser("validate", help="check a ruleset folder or any file a designer writes")
    v.add_argument("path", help="a ruleset: a folder name under rulesets/, or a path (folder or file)")
    v.set_defaults(fn=cmd_validate)

    def game_args(sp):
        sp.add_argument("ruleset", help="a ruleset: a folder name under rulesets/, or a path")
        sp.add_argument("--track", metavar="NAME",
                        help="race on tracks/<game>/NAME.yaml: "
                             "its boards replace the game's boards of the same names")
        sp.add_argument("--variant", action="append", default=[], metavar="NAME",
                        help="apply rulesets/<game>/variants/NAME.yaml (repeatable)")
        sp.add_argument("--module", action="append", default=[], metavar="NAME",
                        help="apply rulesets/<game>/modules/NAME.yaml (repeatable)")
        sp.add_argument("--seed", type=int, default=1)
        sp.add_argument("--players", type=int)

    pl = sub.add_parser("play", help="play a game in the terminal, with people and bots")
    game_args(pl)
    pl.add_argument("--seats",
                    help="who sits at each seat: human, random or greedy, e.g. human,greedy,random")
    pl.add_argument("--log", metavar="FILE", help="write the game record (JSONL) here")
    pl.add_argument("--verbose", action="store_true", help="print bots' moves in bot-only games")
    pl.set_defaults(fn=cmd_play)

    r = sub.add_parser("replay", help="replay a game record, step by step with the rules that fired")
    r.add_argument("record")
    r.set_defaults(fn=cmd_replay)

    s = sub.add_parser("simulate", help="play many seeded games with random bots and print statistics")
    game_args(s)
    s.add_argument("--games", type=int, default=1000)
    s.add_argument("--seats", help="the bot at each seat: random or greedy (default: all random)")
    s.add_argument("--jobs", type=int, help="processes (default: all cores)")
    s.add_argument("--json", action="store_true", help="print the statistics as JSON")
    s.set_defaults(fn=cmd_simulate)

    c = sub.add_parser("check", help="run scenario files (a file or a folder of them)")
    c.add_argument("files", nargs="+")
    c.set_defaults(fn=cmd_check)

    rd = sub.add_parser("render", help="draw a board (a track file, or a ruleset's board) as SVG")
    rd.add_argument("path", help="a track file, a game file, or a ruleset")
    rd.add_argument("--board", help="which board (default: the first)")
    rd.add_argument("-o", "--out", help="the SVG file to write (default: BOARD.svg)")
    rd.set_defaults(fn=cmd_render)

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


if __name__ == "__main__":
    sys.exit(main())
