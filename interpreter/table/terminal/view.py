"""A seat's view as text for the terminal: a title line, the boards with what lies at each slot,
each seat's line, the piles. A game's `view:` says which piles and facts a player sees and how
they are called; without one, everything the seat may see is listed by its name.

`screen` gives the lines; `render_view` the same as one text. Nothing here prints a Python
value: no `None`, no brackets, no `True`."""
from __future__ import annotations

import re

from ...draw.text import board_lines


class SeatLine(str):
    """A line about one seat (a short screen puts two side by side)."""


class OwnPile(str):
    """A pile of the viewing seat's own (a short screen leaves out one the options list)."""


class PileLine(str):
    """A pile of the game (a short screen puts two side by side)."""


def _natural(text: str):
    """Sort key: numbers inside labels by value (`2` before `10`)."""
    return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", text.lower())]


def _grouped(cards: list[str], sort: bool) -> list[str]:
    """Cards as players read them: runs of equal cards as `label ×n` (three or more alike, or
    any when the pile is sorted, as a hand: `purple ×3`)."""
    if sort:
        counts: dict[str, int] = {}
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
        hidden = [c for c in counts if c.startswith("(")]
        order = sorted((c for c in counts if c not in hidden), key=_natural) + hidden
        return [f"{c} ×{counts[c]}" if counts[c] > 1 else c for c in order]
    out, i = [], 0
    while i < len(cards):
        j = i
        while j < len(cards) and cards[j] == cards[i]:
            j += 1
        alike = 2 if cards[i].startswith("(") else 3  # `(face down) ×2`
        out.extend([f"{cards[i]} ×{j - i}"] if j - i >= alike else cards[i:j])
        i = j
    return out


def pile_text(info: dict, plan=None, name: str | None = None, how: dict | None = None) -> str:
    """A pile's contents as the seat may see them: its cards, or how many it holds."""
    how = how or {}
    cards = info["cards"]
    count = info["count"]
    if how.get("show") == "count" or cards is None:
        return "empty" if count == 0 else (f"{count} card" if count == 1 else f"{count} cards")
    if not cards:
        return "empty"
    if how.get("show") == "top":
        top = cards[-1]
        return top if count == 1 else f"{top} on top ({count} cards)"
    return ", ".join(_grouped(cards, bool(how.get("sort"))))


def _value(v) -> str:
    """A variable's value in a view without a `view:` section (a designer's game)."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return ", ".join(_value(x) for x in v) or "none"
    if isinstance(v, dict):
        return ", ".join(f"{_value(k)} {_value(x)}" for k, x in v.items()) or "none"
    return "none" if v is None else str(v)


def _seat_name(s: int, me) -> str:
    return "you" if me is not None and s == me else f"seat {s + 1}"


def screen(view: dict, plan) -> list[str]:
    """The seat's view as lines of text, title first. Some lines say what they are (`Extra`,
    `SeatLine`, `OwnPile`): a screen short of rows may leave them out or set them side by side."""
    me = view["seat"]
    decl = plan.view
    lines = [_title(view, plan)]
    shown: set[str] = set()  # piles drawn with their boards
    used = [n for n, b in view["boards"].items()
            if b.get("pieces") or b.get("off") or b.get("kind") == "tiles"]
    for name, board in view["boards"].items():
        if used and name not in used:
            continue  # a board nobody stands on (the other side of a double board)
        board = dict(board)
        if board.get("kind") == "ranking":
            board["piles"] = _slot_piles(view, plan, name, shown)
        lines.extend(type(text)(f"  {text}") for text in board_lines(board, view, plan))
        shown.update(plan.pile_names[pid] for pid in range(plan.n_piles) if plan.pile_scope[pid] == name)
    if decl is None:
        lines.extend(_listed(view, plan, shown))
        return lines
    seat_lines = _seat_lines(view, plan)
    lines.extend(seat_lines)
    piles = view["piles"]
    for pile, how in decl.items():
        base = plan.pile_base.get(pile)
        if base is None or plan.pile_scope[base] not in ("game", "seat"):
            continue
        if plan.pile_scope[base] == "game":
            info = piles.get(plan.pile_names[base])
            if info is not None and info["count"]:
                lines.append(PileLine(f"{how['label']}: {pile_text(info, plan, pile, how)}"))
        elif how["whose"] == "mine" and me is not None and plan.pile_names[base + me] in piles:
            info = piles[plan.pile_names[base + me]]
            lines.append(OwnPile(f"your {how['label']}: {pile_text(info, plan, pile, how)}"))
    return lines


def _title(view: dict, plan) -> str:
    parts = [plan.name]
    rnd = view["game"].get("round")
    if isinstance(rnd, int) and rnd > 0:
        parts.append(f"round {rnd}")
    if plan.view is not None:
        parts.extend(view.get("game_facts", []))
    else:
        parts.extend(f"{k} {_value(v)}" for k, v in view["game"].items() if k != "round" and v is not None)
    if view["seat"] is not None:
        parts.append(f"you are seat {view['seat'] + 1}")
    return " · ".join(parts)


def _slot_piles(view: dict, plan, board: str, shown: set) -> dict:
    """The piles of each slot of a ranking, by slot number: [(label, pile view, how)]."""
    out: dict[int, list] = {}
    decl = plan.view
    for pid in range(plan.n_piles):
        if plan.pile_scope[pid] != board:
            continue
        base_name = plan.pile_decl[pid]
        how = None if decl is None else decl.get(base_name)
        if decl is not None and how is None:
            continue  # a view that does not name it: not shown
        slot = pid - plan.pile_base[base_name] + 1
        label = how["label"] if how else base_name
        if plan.pile_names[pid] not in view["piles"]:
            continue
        out.setdefault(slot, []).append((label, {**view["piles"][plan.pile_names[pid]], "how": how}))
    return {slot: [(label, info) for label, info in items] for slot, items in out.items()}


def _seat_lines(view: dict, plan) -> list[str]:
    """One line per seat, when the view says something of each: its pieces, its facts (`view.seats`)
    and the piles of every seat it shows (`whose: all`)."""
    me = view["seat"]
    decl = plan.view or {}
    every = [(p, how) for p, how in decl.items() if how["whose"] == "all"
             and p in plan.pile_base and plan.pile_scope[plan.pile_base[p]] == "seat"]
    facts = view.get("seat_facts", [])
    if not every and not any(facts):
        return []
    owners: dict[int, list[str]] = {}
    for name, info in view["pieces"].items():
        if info.get("owner") is not None:
            owners.setdefault(info["owner"] - 1, []).append(name)
    out: list[str] = []
    for s in range(plan.n_seats):
        parts = list(facts[s]) if s < len(facts) else []
        for pile, how in every:
            info = view["piles"].get(plan.pile_names[plan.pile_base[pile] + s])
            if info is not None and info["count"]:
                parts.append(f"{how['label']}: {pile_text(info, plan, pile, how)}")
        if parts:
            cars = f" ({', '.join(owners[s])})" if owners.get(s) else ""
            out.append(SeatLine(f"{_seat_name(s, me)}{cars}: " + "; ".join(parts)))
    return out


def _listed(view: dict, plan, shown: set) -> list[str]:
    """A game without a `view:`: every pile and seat variable the seat may see, by its name."""
    me = view["seat"]
    lines = []
    for label, info in view["piles"].items():
        if label in shown:
            continue
        pid = plan.pile_names.index(label)
        mine = plan.pile_scope[pid] == "seat" and plan.pile_owner[pid] == me
        lines.append(f"{label}{' (yours)' if mine else ''}: {pile_text(info, plan)}")
    for s, info in enumerate(view["seats"]):
        values = [f"{k} {_value(v)}" for k, v in info.items()]
        if values:
            lines.append(f"{_seat_name(s, me)}: " + ", ".join(values))
    return lines


def render_view(view: dict, plan) -> str:
    return "\n".join(screen(view, plan))
