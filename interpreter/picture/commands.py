"""`racecraft render`: a board, or a game's table from a record or a scenario, drawn as SVG.

The command line imports this module to list its commands: a command imports what it runs
when it runs (inside its function), so that `racecraft --help` and any command start in
tens of milliseconds (tests/test_layout.py keeps the start small)."""
from __future__ import annotations

from pathlib import Path

from ..base.diagnostics import Report, RulesetError
from ..base.files import write_atomic
from ..session.args import MAX_GAMES, Usage, bounded, params, rules_args, writable


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


COMMANDS = {"render": add_render}


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
    from . import render
    from ..session.load import load

    path = _checked(args)
    report = Report()
    try:
        if path.is_file() and render.is_record(path):
            pic = render.recorded(path, args.at, args.ruleset, args.board)
        else:
            kind, data = render.file_kind(path, report) if path.is_file() else ("ruleset", None)
            if kind == "scenario":
                pic = render.scenario(path, args.at, args.board)
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
