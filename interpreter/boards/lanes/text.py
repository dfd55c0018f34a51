"""A lane track's view (`Lanes.view`, `kind.py`) drawn as text lines: the track, then
each piece in race order with whose it is, where it stands and the game's facts about it; then,
for the viewing seat's pieces, the next lines ahead with their limits (or what the game's
`view.lines` says of them)."""
from __future__ import annotations

from ...draw.text import facts, who
from .track import Lanes


def lines(kind: Lanes, board: dict, view: dict) -> list[str]:
    """`board`: the track's view data; `view`: the whole seat's view (owners and facts in
    `view["pieces"]`, the viewing seat in `view["seat"]`, 0-based or None)."""
    laps = board["laps"]
    road = board.get("open", False)
    one, more = board.get("words", {}).get("space", ("space", "spaces"))   # what the game calls them
    out = [f"a road of {board['spaces']} {more}, the finish before {one} {board['finish']}" if road
           else f"{laps} lap{'s' if laps != 1 else ''} of {board['spaces']} {more}"]
    width = max((len(p["piece"]) for p in board["pieces"]), default=5)
    whose = max((len(who(p["piece"], view)) for p in board["pieces"]), default=3)
    ahead = []
    for place, p in enumerate(board["pieces"], 1):
        lap = max(p["lap"], 1)
        where = "past the finish" if p["finished"] else \
            f"{one} {p['space']:>2}" + ("" if road else f", lap {lap}/{laps}")
        mark = who(p["piece"], view)
        shown = ", ".join([where, *facts(p["piece"], view)])
        out.append(f"{place}. {p['piece']:<{width}}  {mark:<{whose}}  {shown}")
        if mark == "you" and p["next"]:
            ahead.append(f"ahead of {p['piece']}: " + ", then ".join(_line(ln) for ln in p["next"]))
    return out + ahead


def _line(ln: dict) -> str:
    """`turn A (limit 6, a token) in 13`: what the game says of a line ahead (its `view.lines`),
    else its printed limit."""
    said = ln["facts"] if "facts" in ln else ([f"limit {ln['limit']}"] if ln["limit"] is not None else [])
    about = f" ({', '.join(said)})" if said else ""
    return f"{ln['kind']} {ln['name'] or ''}".rstrip() + f"{about} in {ln['in']}"
