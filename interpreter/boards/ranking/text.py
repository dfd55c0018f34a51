"""A ranking's view (`kind.py`) drawn as text lines: one line per slot, the piece in it
with whose it is and the game's facts, then the slot's piles (a column of cards under a position)."""
from __future__ import annotations

from ...draw.text import facts, place_piles, pile_text, who
from .kind import Ranking


def lines(kind: Ranking, board: dict, view: dict) -> list[str]:
    plan = kind.plan
    piles = place_piles(view, plan, kind.name)
    out = []
    width = max((len(p) for p in board["slots"] if p is not None), default=5)
    for i, piece in enumerate(board["slots"]):
        if piece is None:
            row = f"{i + 1}. (empty)"
        else:
            shown = facts(piece, view)
            row = f"{i + 1}. {piece:<{width}}  {who(piece, view):<9}  {', '.join(shown)}".rstrip()
        for label, info in piles.get(i + 1, []):
            text = f"{label}: {pile_text(info, plan, label, info.get('how'))}"
            if len(row) + len(text) + 3 <= 78:
                row += "  " + text
            else:
                out.append(row)
                row = "     " + text
        out.append(row)
    return out
