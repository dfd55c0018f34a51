"""A tile grid's view (`Tiles.view`, data) drawn as text lines for the terminal: each square 5
characters wide and 3 high, face-down squares shaded, track as box-drawing lines; then notes on
the face-up squares worth naming (other regions, cars) and a key."""
from __future__ import annotations

from ..boards.tiles import GLYPH  # the track glyphs (the built-in `tile_glyph` shows the same)

_BLANK = ["     "] * 3
_EMPTY = ["     ", "  ·  ", "     "]       # a square that holds no tile
_DOWN = [" ░░░ ", " ░░░ ", " ░░░ "]       # a face-down tile


def _owner(view: dict, piece: str):
    """The piece's owner as a 1-based seat, or None."""
    return view.get("pieces", {}).get(piece, {}).get("owner")


def _mark(piece: str, view: dict) -> str:
    """A car in its square: its owner's seat number, else its name's first letter."""
    owner = _owner(view, piece)
    if owner is not None and owner <= 9:
        return str(owner)
    return piece[:1].upper() or "?"


def lines(board: dict, view: dict) -> list[str]:
    """`board`: the tile grid's view; `view`: the seat's whole view (its seat, pieces' owners)."""
    squares = board["squares"]
    seat = view.get("seat")
    cols = board["cols"]
    out = ["     " + "".join(f"  {chr(ord('A') + c)}  " for c in range(cols))]
    at = {(sq["row"], sq["col"]): sq for sq in squares.values()}
    for r in range(1, board["rows"] + 1):
        rows = ["     ", f" {r:>2}  ", "     "]
        for col in range(1, cols + 1):
            sq = at.get((r, col))
            if sq is None:
                cell = _BLANK
            elif not sq["laid"]:
                cell = _EMPTY
            elif not sq["face_up"]:
                cell = _DOWN
            else:
                m = sq["mask"]
                here = sq["pieces"]
                centre = GLYPH[m] if not here else (_mark(here[0], view) if len(here) == 1 else "*")
                cell = ["  │  " if m & 1 else "     ",
                        ("──" if m & 8 else "  ") + centre + ("──" if m & 2 else "  "),
                        "  │  " if m & 4 else "     "]
            for i in range(3):
                rows[i] += cell[i]
        out.extend(line.rstrip() for line in rows)
    # notes: face-up squares of the less common regions, and those with cars
    counts: dict[str, int] = {}
    for sq in squares.values():
        counts[sq["region"]] = counts.get(sq["region"], 0) + 1
    common = max(counts, key=lambda region: counts[region])
    notes = []
    for label, sq in squares.items():
        if not sq["laid"] or not sq["face_up"]:
            continue
        here = sq["pieces"]
        if sq["region"] == common and not here:
            continue
        what = f"{label} {sq['tile']}"
        if sq["region"] != common:
            what += f" ({sq['region']})"
        if here:
            cars = []
            for piece in here:
                owner = _owner(view, piece)
                if owner is None:
                    tag = ""
                else:
                    tag = " you" if seat is not None and owner == seat + 1 else f" seat {owner}"
                cars.append(f"{piece}{tag}")
            what += ": " + ", ".join(cars)
        notes.append(what)
    line = ""
    for note in notes:  # wrapped for the terminal
        if line and len(line) + len(note) > 90:
            out.append(line.rstrip("; "))
            line = ""
        line += ("  " if not line else "") + note + "; "
    if line:
        out.append(line.rstrip("; "))
    out.append("  key: ░░░ face down, lines are track, a number is a car by its seat, * several cars")
    return out
