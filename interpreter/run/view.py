"""A seat's view as text for the terminal: boards with what lies at each slot, then piles."""
from __future__ import annotations

from .boardtext import board_lines


def _cards(info: dict) -> str:
    cards = info["cards"]
    if cards is None:
        return f"{info['count']} card(s), hidden"
    if not cards:
        return "empty"
    # runs of three or more alike read as "label ×n" (long piles stay one short line)
    out, i = [], 0
    while i < len(cards):
        j = i
        while j < len(cards) and cards[j] == cards[i]:
            j += 1
        out.append(f"{cards[i]} ×{j - i}" if j - i >= 3 else ", ".join(cards[i:j]))
        i = j
    return ", ".join(out)


def _value(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "none"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_value(k)}: {_value(x)}" for k, x in v.items()) + "}"
    return str(v)


def render_view(view: dict, plan) -> str:
    me = view["seat"]
    lines = []
    g = view["game"]
    if g:
        lines.append("  ".join(f"{k}: {_value(v)}" for k, v in g.items()))
    shown: set[str] = set()
    for name, board in view["boards"].items():
        lines.append(f"{name}:")
        slots = board.get("slots")
        if slots is None:  # a board drawn as text lines (run/boardtext.py)
            lines.extend(f"  {text}" for text in board_lines(board, view))
            # the board's own piles (one per place) are part of its picture
            shown.update(plan.pile_names[pid] for pid in range(plan.n_piles) if plan.pile_scope[pid] == name)
            continue
        slot_piles = [pid for pid in range(plan.n_piles) if plan.pile_scope[pid] == name]
        for i, piece in enumerate(slots):
            desc = "(empty)"
            if piece is not None:
                info = view["pieces"][piece]
                owner = info["owner"]
                who = ("no player" if owner is None
                       else ("you" if me is not None and owner == me + 1 else f"seat {owner}"))
                extra = ", ".join(f"{k}: {_value(v)}" for k, v in info.items() if k not in ("owner", "slot"))
                desc = f"{piece} ({who}{', ' + extra if extra else ''})"
            lines.append(f"  {i + 1}. {desc}")
            for pid in slot_piles:
                if plan.pile_owner[pid] is None and plan.pile_names[pid].endswith(f"({i + 1})"):
                    label = plan.pile_names[pid]
                    lines.append(f"       {label}: {_cards(view['piles'][label])}")
                    shown.add(label)
    seats = view["seats"]
    for label, info in view["piles"].items():
        if label in shown:
            continue
        pid = plan.pile_names.index(label)
        owner = plan.pile_owner[pid]
        if plan.pile_scope[pid] == "seat":
            tag = " (yours)" if owner == me else ""
            lines.append(f"{label}{tag}: {_cards(info)}")
        else:
            lines.append(f"{label}: {_cards(info)}")
    for s, info in enumerate(seats):
        if info:
            lines.append(f"seat {s + 1}: " + ", ".join(f"{k}: {_value(v)}" for k, v in info.items()))
    return "\n".join(lines)
