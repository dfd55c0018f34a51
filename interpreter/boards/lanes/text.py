"""A lane track's view (`Lanes.view`, `kind.py`) drawn as text lines: the track, then
each piece in race order with whose it is, where it stands and the game's facts about it; then,
for the viewing seat's pieces, the next lines with a limit ahead."""
from __future__ import annotations

from ...draw.text import facts, who


def lines(kind, board: dict, view: dict) -> list[str]:
    """`board`: the track's view data; `view`: the whole seat's view (owners and facts in
    `view["pieces"]`, the viewing seat in `view["seat"]`, 0-based or None)."""
    laps = board["laps"]
    out = [f"{laps} lap{'s' if laps != 1 else ''} of {board['spaces']} spaces"]
    width = max((len(p["piece"]) for p in board["pieces"]), default=5)
    whose = max((len(who(p["piece"], view)) for p in board["pieces"]), default=3)
    ahead = []
    for place, p in enumerate(board["pieces"], 1):
        lap = max(p["lap"], 1)
        where = "past the finish" if p["finished"] else f"space {p['space']:>2}, lap {lap}/{laps}"
        mark = who(p["piece"], view)
        shown = ", ".join([where, *facts(p["piece"], view)])
        out.append(f"{place}. {p['piece']:<{width}}  {mark:<{whose}}  {shown}")
        if mark == "you" and p["next"]:
            coming = [f"{ln['kind']} {ln['name'] or ''}".rstrip() + f" (limit {ln['limit']}) in {ln['in']}"
                      for ln in p["next"]]
            ahead.append(f"ahead of {p['piece']}: " + ", then ".join(coming))
    return out + ahead
