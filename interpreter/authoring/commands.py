"""The designer's commands: `racecraft validate`, `check` (scenarios), `explain`, `upgrade`,
`schemas` and `render` (a board or a table as SVG: the pictures are `picture/`'s; a scenario is
played as `check` plays it).

The command line imports this module to list its commands: a command imports what it runs
when it runs (inside its function), so that `racecraft --help` and any command start in
tens of milliseconds (tests/test_layout.py keeps the start small)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..base.diagnostics import Report, RulesetError
from ..base.files import write_atomic
from ..session.args import (MAX_GAMES, MAX_SEED, Usage, bounded, game_args, max_jobs, params, players_fit,
                            print_report, rules_args, writable)

MAX_CHECK_SEEDS = 10_000   # seeds `check --seeds` plays each scenario with
MAX_SMOKE_GAMES = 1_000    # games `validate --play` plays of each game at each player count


def add_validate(sub) -> None:
    v = sub.add_parser("validate", help="check a ruleset folder or any file a designer writes")
    v.add_argument("path", help="a ruleset: a folder name under rulesets/, or a path (folder or file)")
    rules_args(v, "check")
    v.add_argument("--play", type=bounded(1, MAX_SMOKE_GAMES), default=1, metavar="N",
                   help="seeded smoke games for each game at each player count it is played at "
                        f"(default 1, at most {MAX_SMOKE_GAMES}; the last with greedy bots)")
    v.add_argument("--jobs", type=bounded(1, max_jobs), help="processes (default: all cores)")
    v.add_argument("--no-cache", dest="cache", action="store_false",
                   help="check every game again, even those whose files have not changed since a "
                        "run that kept its verdict (in ~/.cache/racecraft)")
    v.add_argument("--progress", action="store_true",
                   help="say what is being checked on standard error even when it is not a terminal")
    v.set_defaults(fn=cmd_validate)


def add_check(sub) -> None:
    # `test` too: what designers (and testers of other tools) type first
    c = sub.add_parser("check", aliases=["test"], help="run scenario files (a file or a folder of them)")
    c.add_argument("files", nargs="+")
    cs = c.add_mutually_exclusive_group()
    cs.add_argument("--seed", type=bounded(0, MAX_SEED),
                    help="play each scenario with this seed instead of its own (0 to 2**63-1)")
    cs.add_argument("--seeds", type=_seed_range,
                    help=f"play each scenario with each of these seeds: 1..20, or 3,7,12 (at most "
                         f"{MAX_CHECK_SEEDS:,})")
    c.set_defaults(fn=cmd_check)


def add_explain(sub) -> None:
    ex = sub.add_parser("explain",
                        help="print the rules as the engine understood them (or the Python made of them)")
    game_args(ex)
    ex.add_argument("name", nargs="?",
                    help="one rule: an id (`functions.value_of`, `steps.play`) or a name (`value_of`)")
    ex.add_argument("--python", action="store_true", help="print the Python the compiler generated")
    ex.set_defaults(fn=cmd_explain)


def add_schemas(sub) -> None:
    sc = sub.add_parser("schemas", help="write the JSON Schemas of the file kinds")
    sc.add_argument("--out", default="schemas")
    sc.set_defaults(fn=cmd_schemas)


def add_upgrade(sub) -> None:
    u = sub.add_parser("upgrade", help="rewrite a designer's file in the current language version")
    u.add_argument("files", nargs="+", help="game, module, variant, cards, track, scenario or season files")
    how = u.add_mutually_exclusive_group()
    how.add_argument("--check", action="store_true",
                     help="write nothing; exit 1 when a file is not in the current version")
    how.add_argument("--diff", action="store_true", help="write nothing; print what would change, as a diff")
    u.set_defaults(fn=cmd_upgrade)


def cmd_validate(args) -> int:
    from .validate import Progress, validate_path

    # what it is doing, from the first second, where a person watches (or when asked)
    tty = getattr(sys.stderr, "isatty", lambda: False)()
    progress = Progress(lines=not tty) if tty or args.progress else None
    if progress is not None:
        progress.say(f"checking {args.path}", force=True)
    from ..load.ruleset import find_ruleset

    # a ruleset's name (as `play` takes it) or any path: a folder, a game or variant file
    try:
        v = validate_path(find_ruleset(args.path) or Path(args.path), args.variant, args.module, args.track,
                          params(args), play=args.play, jobs=args.jobs, cache=args.cache, progress=progress)
    finally:
        if progress is not None:
            progress.done()
    if not v.report.ok:
        print_report(v.report)
        return 1
    if v.report.items:  # warnings
        print_report(v.report)
    print("\n".join(v.summary))
    return 0


def cmd_check(args) -> int:
    from .scenario import run_seeds

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
    one = bounded(0, MAX_SEED)
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


def cmd_explain(args) -> int:
    from .explain import explain
    from ..session.load import load

    loaded = load(args.ruleset, variants=args.variant, modules=args.module, track=args.track,
                  params=params(args))
    players = args.players or loaded.ruleset.game.game.players.min
    players_fit(loaded.ruleset, players, args)
    print(explain(loaded, players, args.name, args.python))
    return 0


def cmd_upgrade(args) -> int:
    status = 0
    for name in args.files:
        status = max(status, _upgrade_one(name, args))
    return status


def _upgrade_one(name: str, args) -> int:
    """One file of `upgrade`: what it becomes, written (unless `--check` or `--diff`) before it is
    said, so that a closed output never hides a file left unwritten."""
    from ..lang import versions
    from .upgrade import upgrade

    u = upgrade(Path(name))
    if not u.report.ok:
        print_report(u.report)
        print(f"{name}: not upgraded: the errors above come first", file=sys.stderr)
        return 1
    status = 0
    if args.diff:
        sys.stdout.write(u.diff())
    elif not u.changed:
        print(f"{name}: nothing rewritten" if u.by_hand else f"{name}: language {versions.CURRENT} already")
    else:
        if not args.check and not _written(name, u):
            return 1
        verb = "would be rewritten" if args.check else "rewritten"
        forms = f"{len(u.done)} old form{'s' if len(u.done) != 1 else ''}"
        where = (f"in language {versions.CURRENT}" if not u.by_hand
                 else "its language line kept until the forms below are done by hand")
        print(f"{name}: {verb} {where} ({forms})")
        for d in u.done:
            print(f"  {d.loc}: {d.message}")
        status = 1 if args.check else 0
    for d in u.by_hand:
        print(f"  to do by hand: {d.loc}: {d.message}" + (f" ({d.hint})" if d.hint else ""))
    return 1 if u.by_hand and args.check else status


def _written(name: str, u) -> bool:
    """The upgraded text written over the file, and the text it replaced kept so that games recorded
    with it still replay (`session/upgrades.py`); False (said) when the file cannot be written."""
    from ..base.files import CannotWrite, write_atomic
    from ..session.upgrades import remember

    try:
        write_atomic(Path(name), u.after)
    except CannotWrite as e:
        print(f"{name}: not written: {e}", file=sys.stderr)
        return False
    try:
        remember(u.before, u.after)
    except CannotWrite as e:
        print(f"note: games recorded before this upgrade will not replay: {e}", file=sys.stderr)
    return True


def cmd_schemas(args) -> int:
    from ..ir.schema import write_schemas

    for path in write_schemas(Path(args.out)):
        print(path)
    return 0


# ---- render ----------------------------------------------------------------------------------------


def add_render(sub) -> None:
    rd = sub.add_parser("render", help="draw a board, or the table of a game record or scenario, as SVG")
    rd.add_argument("path", help="a track file, a game file, a ruleset, a scenario file or a game record")
    rules_args(rd, "apply")
    rd.add_argument("--at", type=bounded(0, MAX_GAMES), metavar="N",
                    help="a record or a scenario: draw the table after its first N decisions "
                         "(default: all of them; 0: as set up)")
    rd.add_argument("--ruleset", metavar="PATH",
                    help="a record: draw it with this ruleset instead of the game it names")
    rd.add_argument("--board", help="which board (default: the first; in a game, those with pieces on them)")
    rd.add_argument("-o", "--out", help="the SVG file to write (default: BOARD.svg, or RECORD-N.svg)")
    rd.set_defaults(fn=cmd_render)


def _checked(args) -> Path:
    """The file to draw, and the picture's file, refused before anything is drawn: a named pipe or a
    device to draw, a picture's file that could not be written."""
    path = Path(args.path)
    if path.exists() and not (path.is_dir() or path.is_file()):
        from ..base.files import not_regular

        raise Usage(f"{args.path}: {not_regular(path.stat().st_mode)}")
    if args.out:
        writable(args.out, "--out", "the picture's file name")
    return path


def cmd_render(args) -> int:
    """Draw a board (a track file, a game, a ruleset), or a game's table from a record or a
    scenario (`--at N`), as SVG."""
    from ..load.structure import check_structure
    from ..picture import render
    from ..session.load import load

    path = _checked(args)
    report = Report()
    try:
        if path.is_file() and render.is_record(path):
            pic = render.recorded(path, args.at, args.ruleset, args.board)
        else:
            kind, data = render.file_kind(path, report) if path.is_file() else ("ruleset", None)
            if kind == "scenario":
                pic = _scenario(path, args.at, args.board)
            elif args.at is not None:
                raise Usage("--at draws a game record (`play --log FILE`) or a scenario at a decision")
            elif kind == "track":
                model = check_structure(data, "track", str(path), report)
                if model is None:
                    raise RulesetError(report)
                pic = render.board(dict(model.boards), args.board)
            elif kind in ("game", "ruleset"):
                loaded = load(str(path.parent) if kind == "game" else args.path, args.variant, args.module,
                              args.track, params(args))
                plan = loaded.plan(loaded.ruleset.game.game.players.min)  # the piles a game keeps on a board
                pic = render.board(dict(loaded.ruleset.game.boards), args.board, plan)
            else:
                if report.ok:
                    report.add("E006", "render draws a track file, a game, a scenario or a game record", None)
                raise RulesetError(report)
    except render.Refused as e:
        raise Usage(str(e)) from None
    out = Path(args.out or f"{pic.name}.svg")
    write_atomic(out, pic.svg)
    print(f"wrote {out}")
    return 0


def _scenario(path: Path, at: int | None, board: str | None):
    """The table a scenario sets, after the first `at` choices of its script (all when None),
    played as `check` plays it (its setup, situation, arranged rolls, stops and checks on the way)."""
    from ..picture import render
    from ..picture.svg import table_picture
    from .scenario import load_scenario

    loaded, failed = load_scenario(path)
    if loaded is None:
        raise RulesetError(failed.report)
    choices = [item for item in loaded.sc.script if item.choose is not None]
    n = render.at_index(at, len(choices), "the script")
    game, out = loaded.table(n)
    if game is None or not out.passed:
        raise RulesetError(out.report)
    plan = game.plan
    svg = table_picture(game.view(None), plan, f"{plan.name}: {loaded.name}",
                        render.status_line(game, n, len(choices), "choices of the script"),
                        render.boards_asked(plan, board))
    return render.Picture(svg, f"{path.stem}-{n}")


COMMANDS = {"validate": add_validate, "check": add_check, "explain": add_explain, "schemas": add_schemas,
            "upgrade": add_upgrade, "render": add_render}
