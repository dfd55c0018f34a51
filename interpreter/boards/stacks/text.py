"""A stack track's view (`kind.py`) drawn as text lines: each space that holds anything, its
stack top first (each on the next) and its markers, each piece with whose it is and the game's facts."""
from __future__ import annotations

from ...draw.text import facts, who
from .kind import Stacks


def lines(kind: Stacks, board: dict, view: dict) -> list[str]:
    shape = "a loop" if board["loop"] else "a track"
    out = [f"{shape} of {board['spaces']} spaces, the finish before {board['finish']}"]
    for at in sorted(board["stacks"], key=lambda x: -x["progress"]):
        parts = []
        for name in at["stack"]:
            said = ", ".join([who(name, view), *facts(name, view)])
            parts.append(f"{name} ({said})")
        row = f"space {at['space']:>2}: " + (" on ".join(reversed(parts)) if parts else "no stack")
        if at["markers"]:
            row += "; marker " + ", ".join(f"{m} ({who(m, view)})" for m in at["markers"])
        out.append(row)
    return out
