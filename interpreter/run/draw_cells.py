"""A cells board's view (`boards/cells.py`) drawn as text lines: the pieces in the board's order
with their cell and what is left to the finish, the pieces that left the board, and the track
unrolled as a strip of text, one line per lane."""
from __future__ import annotations


def _about(name: str, view: dict, facts: list[str]) -> str:
    """`red (you), status: bought for 6`: the piece, its owner seen from the viewing seat, and
    the game's shown facts."""
    info = view.get("pieces", {}).get(name, {})
    who = info.get("owner")  # 1-based, or None
    seat = view.get("seat")  # 0-based, or None
    tag = "" if who is None else (" (you)" if seat is not None and who == seat + 1 else f" (seat {who})")
    shown = "".join(f", {k}: {info.get(k)}" for k in facts)
    return f"{name}{tag}{shown}"


def lines(board: dict, view: dict) -> list[str]:
    pieces, off = board.get("pieces", []), board.get("off", [])
    if not pieces and not off:
        return ["(no pieces)"]
    facts = board.get("facts", [])
    marks = ", ".join(f"{n} at {v}" for n, v in board["lines"].items())
    out = [f"{board['cells']} cells; lines: {marks}"]
    for place, p in enumerate(pieces, 1):
        nxt = ", ".join(p["next"]) or "blocked"
        tags = "".join(f", {t}" for t in p["tags"])
        to_go = p["to_go"]
        left = f"{to_go} to the finish" if to_go >= 0 else f"{-to_go} past the finish"
        out.append(f"{place}. {_about(p['piece'], view, facts)}: cell {p['cell']} (lane {p['lane']}{tags}), "
                   f"{left}; next: {nxt}")
    for p in off:
        out.append(f"off the board: {_about(p['piece'], view, facts)}")
    out.extend(strip(board))
    return out


def strip(board: dict, width: int = 64) -> list[str]:
    """The track unrolled as one text line per lane, start line on the left: `.` a cell without
    tags, `~` a cell with tags, a blank where the lane is missing, a digit a piece (numbered
    below), `|` over a line, `F` over the finish."""
    geo = board["strip"]
    length, lap = geo["length"], geo["lap"]
    unit = length / width
    where = {p["cell"]: p["number"] for p in board.get("pieces", [])}
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
                    row[k] = str(where[cell]) if cell in where else ("~" if tagged else ".")
        rows.append(f"lane {ln}: " + "".join(row))
    numbers = ", ".join(f"{p['number']} {p['piece']}" for p in sorted(board.get("pieces", []),
                                                                       key=lambda p: p["number"]))
    return ["the track unrolled (start line on the left):", *rows, f"        {numbers}"]
