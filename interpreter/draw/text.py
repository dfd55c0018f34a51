"""Board views (data from each board kind's `view`) drawn as text lines for the terminal.

Each board kind's drawing lives in its own module (`draw_<kind>.py`); a kind without one is
listed piece by piece. What every drawing says of a piece is here: whose it is, seen from the
viewing seat, and the game's facts about it (`show:`)."""
from __future__ import annotations

from ..boards.cells import text as draw_cells
from ..boards.lanes import text as draw_lanes
from ..boards.ranking import text as draw_ranking
from ..boards.tiles import text as draw_tiles

DRAW = {"lanes": draw_lanes.lines, "cells": draw_cells.lines, "tiles": draw_tiles.lines,
        "ranking": draw_ranking.lines}


class Extra(str):
    """A line of a board's drawing that a screen short of rows may leave out (a picture of what
    the lines before it say)."""


def board_lines(board: dict, view: dict, plan=None) -> list[str]:
    """`board`: one board's view data; `view`: the whole seat's view (pieces' owners, shown facts)."""
    draw = DRAW.get(board.get("kind", ""))
    if draw is None:
        return [f"{about(p['piece'], view)}: {p['where']}" for p in board.get("pieces", [])]
    return draw(board, view, plan)


def who(name: str, view: dict) -> str:
    """Whose piece it is, seen from the viewing seat: `you`, `seat 2`, `no player`."""
    owner = view.get("pieces", {}).get(name, {}).get("owner")  # 1-based, or None
    seat = view.get("seat")  # 0-based, or None
    if owner is None:
        return "no player"
    return "you" if seat is not None and owner == seat + 1 else f"seat {owner}"


def facts(name: str, view: dict) -> list[str]:
    """The game's facts about a piece, as players read them (`lap 2`, `out`)."""
    return list(view.get("pieces", {}).get(name, {}).get("facts", []))


def about(name: str, view: dict) -> str:
    """`red (you): lap 2, out`: the piece, whose it is, and the game's facts about it."""
    shown = facts(name, view)
    return f"{name} ({who(name, view)})" + (f": {', '.join(shown)}" if shown else "")
