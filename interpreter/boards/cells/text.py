"""A cells board's view (`kind.py`) drawn as text lines: the pieces in the board's order
with their cell and the cells they may move to, the pieces that left the board, and the track
unrolled as a strip of text, one line per lane."""
from __future__ import annotations

from ...draw.text import Extra, about
from .kind import Cells


def lines(kind: Cells, board: dict, view: dict) -> list[str]:
    pieces, off = board.get("pieces", []), board.get("off", [])
    if not pieces and not off:
        return ["(no pieces)"]
    out = [f"{place}. {about(p['piece'], view)}: cell {p['cell']}, lane {p['lane']}"
           for place, p in enumerate(pieces, 1)]
    if off:
        out.append("off the board: " + "; ".join(about(p["piece"], view) for p in off))
    out.extend(Extra(line) for line in strip(board))  # a screen short of rows leaves it out
    return out


def strip(board: dict, width: int = 64) -> list[str]:
    """The track unrolled as one text line per lane, start line on the left: `.` a cell without
    tags, `~` a cell with tags, a blank where the lane is missing, a digit a piece (its place in
    the board's order, as the lines above number it), `|` over a line, `F` over the finish."""
    geo = board["strip"]
    length, lap = geo["length"], geo["lap"]
    unit = length / width
    # a piece is drawn by its place in the board's order, as the lines above number it
    where = {p["cell"]: str(place) for place, p in enumerate(board.get("pieces", []), 1)}
    head = [" "] * width
    for name, at in board["lines"].items():
        k = min(width - 1, int((at % length if lap else at) / unit))
        head[k] = "F" if name == "finish" else "|"
    rows = ["        " + "".join(head)]
    for ln, spans in reversed(geo["lanes"]):
        row = [" "] * width
        for back, front, cell, tagged in spans:
            for k in range(width):
                mid = (k + 0.5) * unit
                if back < mid <= front or (lap and back < mid + lap <= front):
                    row[k] = where[cell] if cell in where else ("~" if tagged else ".")
        rows.append(f"lane {ln}: " + "".join(row))
    return rows
