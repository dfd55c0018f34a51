"""`racecraft render`: a picture (SVG) of a board, or of a game's table at a decision.

What is drawn depends on the file given: a track file, a game file or a ruleset draws its board;
a game record (`play --log`) draws the table after its first N decisions (`--at N`, default: all
of them); a scenario's table is drawn by the command (`authoring/commands.py`), which plays it as
`check` does, with `status_line` and `boards_asked` from here.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..engine.game import Game, streams
from ..ir.models import kind_of
from ..base.diagnostics import Report
from ..load.ruleset import read_file
from .svg import board_picture, table_picture


@dataclass
class Picture:
    svg: str
    name: str      # the default file name's stem


class Refused(Exception):
    """A request the file cannot answer (the command's usage error)."""


def is_record(path: Path) -> bool:
    """A game record: JSON lines, the first one a `{` (a YAML file never is one)."""
    if path.suffix in (".yaml", ".yml"):
        return False
    try:
        with path.open("rb") as f:
            head = f.read(256).lstrip()
    except OSError:
        return False
    return head.startswith(b"{")


def at_index(at: int | None, total: int, what: str) -> int:
    if at is None:
        return total
    if at > total:
        raise Refused(f"--at {at}: {what} has {total} decision{'s' if total != 1 else ''}")
    return at


def status_line(game: Game, done: int, total: int, what: str) -> str:
    where = f"after {done} of {total} {what}"
    rnd = game.view(None)["game"].get("round")
    if rnd is not None:
        where += f", round {rnd}"
    if game.over:
        res = game.result()
        won = ", ".join(f"seat {s + 1}" for s in res["winners"]) or "nobody"
        return f"{where}; the game is over, won by {won}"
    d = game.decision()
    if d is None or d.seat is None:
        return where
    return f"{where}; seat {d.seat + 1} decides: {d.prompt}"


def recorded(path: Path, at: int | None, ruleset: str | None = None, board: str | None = None) -> Picture:
    """The table of a game record after its first `at` decisions (all when None)."""
    from ..table.replay import checked_pick, open_record, recorded_seat

    report = Report()
    rec, plan = open_record(path, ruleset, "draw it")
    head, decisions = rec.head, rec.decisions
    n = at_index(at, len(decisions), "the record")
    game = Game(plan, head["seed"], streams=streams(head.get("chance")))
    for i, d in enumerate(decisions[:n], 1):
        game.choose(checked_pick(game, d, i, path, report), recorded_seat(game, d))
    extras = [*head.get("modules", []), *head.get("variants", []), *[t for t in [head.get("track")] if t]]
    title = plan.name + (f" ({', '.join(map(str, extras))})" if extras else "") + f", seed {head['seed']}"
    seats = head.get("seats") if isinstance(head.get("seats"), list) else None
    svg = table_picture(game.view(None), plan, title, status_line(game, n, len(decisions), "decisions"),
                        boards_asked(plan, board), [str(s) for s in seats] if seats else None)
    return Picture(svg, f"{path.stem}-{n}")


def boards_asked(plan, board: str | None) -> list[str] | None:
    if board is None:
        return None
    if board not in plan.board_names:
        raise Refused(f"no board `{board}`; boards: {', '.join(plan.board_names)}")
    return [board]


def board(boards: dict, name: str | None, plan=None) -> Picture:
    """One board of a track file or a game (its declaration), with the game's piles on it when
    the game's `plan` is given."""
    from ..boards import KINDS

    if not boards:
        raise Refused("there is no board to draw")
    name = name or next(iter(boards))
    if name not in boards:
        raise Refused(f"no board `{name}`; boards: {', '.join(boards)}")
    if plan is not None:
        kind = plan.board_kinds[plan.board_names.index(name)]
    else:
        kind = KINDS[boards[name].kind](name, 0, boards[name], None)
    svg = board_picture(kind, plan)
    if svg is None:
        raise Refused(f"boards of kind {kind.kind} have no picture")
    return Picture(svg, name)


def file_kind(path: Path, report: Report):
    """(the kind of a YAML file: track, game, scenario, ..., its data)."""
    data = read_file(path, report)
    if data is None or not isinstance(data, dict):
        return None, data
    return kind_of(data), data
