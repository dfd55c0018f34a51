"""A lane track's view (`boards/lanes.py`, `Lanes.view`) drawn as text lines: the track, then
each piece in race order with its owner, where it stands, the game's shown facts and the next
lines with limits ahead of it."""
from __future__ import annotations


def lines(board: dict, view: dict) -> list[str]:
    """`board`: the track's view data; `view`: the whole seat's view (owners and shown facts in
    `view["pieces"]`, the viewing seat in `view["seat"]`, 0-based or None)."""
    seat = view.get("seat")
    infos = view.get("pieces", {})
    out = [f"{board['spaces']} spaces a lap, {board['laps']} lap(s), finish at progress {board['finish']}"]
    for place, p in enumerate(board["pieces"], 1):
        info = infos.get(p["piece"], {})
        owner = info.get("owner")  # 1-based
        if owner is None:
            tag = ""
        else:
            tag = " (you)" if seat is not None and owner == seat + 1 else f" (seat {owner})"
        facts = "".join(f", {k} {v}" for k, v in info.items() if k not in ("owner", "slot"))
        where = "finished" if p["finished"] else f"lap {max(p['lap'], 1)}/{board['laps']}"
        ahead = [f"{ln['kind']} {ln['name'] or ln['kind']} limit {ln['limit']} in {ln['in']}"
                 for ln in p["next"]]
        out.append(f"{place}. {p['piece']}{tag}: space {p['space']} spot {p['spot']}, "
                   f"progress {p['progress']}, {where}{facts}"
                   + (f"; next: {', '.join(ahead)}" if ahead else ""))
    return out
