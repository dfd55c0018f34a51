"""Board views (data from each board kind's `view`) drawn as text lines for the terminal.

Each board kind's drawing lives in its own module (`draw_<kind>.py`); a kind without one is
listed piece by piece."""
from __future__ import annotations

from . import draw_cells, draw_lanes, draw_tiles

DRAW = {"lanes": draw_lanes.lines, "cells": draw_cells.lines, "tiles": draw_tiles.lines}


def board_lines(board: dict, view: dict) -> list[str]:
    """`board`: one board's view data; `view`: the whole seat's view (pieces' owners, shown facts)."""
    draw = DRAW.get(board.get("kind", ""))
    if draw is None:
        return [f"{p['piece']}: {p['where']}" for p in board.get("pieces", [])]
    return draw(board, view)
