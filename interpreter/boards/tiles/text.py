"""A tile grid's view (`Tiles.view`, data) drawn as text lines for the terminal: each square 5
characters wide on one line, a line between two rows for the track that joins them, face-down
squares shaded, track as box-drawing lines; then the face-up squares worth naming (other regions)
and a key."""
from __future__ import annotations

from .kind import GLYPH, Tiles  # the track glyphs (the built-in `tile_glyph` shows the same)


def _owner(view: dict, piece: str) -> int | None:
    """The piece's owner as a 1-based seat, or None."""
    return view.get("pieces", {}).get(piece, {}).get("owner")


def _mark(piece: str, view: dict) -> str:
    """A car in its square: its owner's seat number, else its name's first letter."""
    owner = _owner(view, piece)
    if owner is not None and owner <= 9:
        return str(owner)
    return piece[:1].upper() or "?"


def lines(kind: Tiles, board: dict, view: dict) -> list[str]:
    """`board`: the tile grid's view; `view`: the seat's whole view (its seat, pieces' owners)."""
    squares = board["squares"]
    seat = view.get("seat")
    cols = board["cols"]
    out = ["     " + "".join(f"  {chr(ord('A') + c)}  " for c in range(cols))]
    at = {(sq["row"], sq["col"]): sq for sq in squares.values()}
    def sides(r: int, col: int) -> int:
        """The track sides of a face-up square (bit 1 N, 2 E, 4 S, 8 W), 0 for any other."""
        sq = at.get((r, col))
        return sq["mask"] if sq is not None and sq["laid"] and sq["face_up"] else 0

    for r in range(1, board["rows"] + 1):
        if r > 1:  # between two rows: the track that joins them
            out.append(("     " + "".join("  │  " if sides(r - 1, col) & 4 or sides(r, col) & 1 else "     "
                                          for col in range(1, cols + 1))).rstrip())
        row = f" {r:>2}  "
        for col in range(1, cols + 1):
            sq = at.get((r, col))
            if sq is None:
                cell = "     "
            elif not sq["laid"]:
                cell = "  ·  "
            elif not sq["face_up"]:
                cell = " ░░░ "
            else:
                m = sq["mask"]
                here = sq["pieces"]
                centre = GLYPH[m] if not here else (_mark(here[0], view) if len(here) == 1 else "*")
                cell = ("──" if m & 8 else "  ") + centre + ("──" if m & 2 else "  ")
            row += cell
        out.append(row.rstrip())
    # notes: the face-up squares of the less common regions (start squares, a centre square)
    counts: dict[str, int] = {}
    for sq in squares.values():
        counts[sq["region"]] = counts.get(sq["region"], 0) + 1
    common = max(counts, key=lambda region: counts[region])
    notes = [f"{label} {sq.get('name') or sq['tile']}" for label, sq in squares.items()
             if sq["laid"] and sq["face_up"] and sq["region"] != common]
    line = ""
    for note in notes:  # wrapped for the terminal
        if line and len(line) + len(note) > 76:
            out.append(line.rstrip(", "))
            line = ""
        line += ("  " if not line else "") + note + ", "
    if line:
        out.append(line.rstrip(", "))
    you = f" (you are {seat + 1})" if seat is not None else ""
    out.append(f"  a digit: a car, by its seat{you}; *: several cars; ░░░: face down")
    return out
