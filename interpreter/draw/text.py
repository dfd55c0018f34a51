"""The words every text drawing of a board says, whatever its kind: whose a piece is, seen from the
viewing seat, and the game's facts about it (`show:`); a pile's cards as players read them; the
piles kept at each place of a board. A board kind's own drawing (`boards/<kind>/text.py`) is
made of these."""
from __future__ import annotations

import re


class Extra(str):
    """A line of a board's drawing that a screen short of rows may leave out (a picture of what
    the lines before it say)."""


def who(name: str, view: dict) -> str:
    """Whose piece it is, seen from the viewing seat: `you`, `seat 2`, `no player`."""
    owner = view.get("pieces", {}).get(name, {}).get("owner")  # 1-based, or None
    seat = view.get("seat")  # 0-based, or None
    if owner is None:
        return "no player"
    return "you" if seat is not None and owner == seat + 1 else f"seat {owner}"


def facts(name: str, view: dict) -> list[str]:
    """The game's facts about a piece, as players read them (`lap 2`, `out`)."""
    return list(view.get("pieces", {}).get(name, {}).get("facts", []))


def about(name: str, view: dict) -> str:
    """`red (you): lap 2, out`: the piece, whose it is, and the game's facts about it."""
    shown = facts(name, view)
    return f"{name} ({who(name, view)})" + (f": {', '.join(shown)}" if shown else "")


def _natural(text: str):
    """Sort key: numbers inside labels by value (`2` before `10`)."""
    return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", text.lower())]


def groups(cards: list[str], sort: bool) -> list[tuple[str, int]]:
    """Cards as players read them, as (card, how many alike): equal cards together, face-down ones
    last, the rest by name and number (`2` before `10`) when the pile is sorted (a hand); else in
    their order, runs of equal cards together."""
    if sort:
        counts: dict[str, int] = {}
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
        hidden = [c for c in counts if c.startswith("(")]
        order = sorted((c for c in counts if c not in hidden), key=_natural) + hidden
        return [(c, counts[c]) for c in order]
    out: list[tuple[str, int]] = []
    for c in cards:
        if out and out[-1][0] == c:
            out[-1] = (c, out[-1][1] + 1)
        else:
            out.append((c, 1))
    return out


def _grouped(cards: list[str], sort: bool) -> list[str]:
    """Cards as players read them: runs of equal cards as `label ×n` (three or more alike, or
    any when the pile is sorted, as a hand: `purple ×3`)."""
    out: list[str] = []
    for card, n in groups(cards, sort):
        alike = 1 if sort else (2 if card.startswith("(") else 3)  # `(face down) ×2`
        out.extend([f"{card} ×{n}"] if n >= alike and n > 1 else [card] * n)
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


def place_piles(view: dict, plan, board: str) -> dict[int, list[tuple[str, dict]]]:
    """The piles kept at each place of a board (declared `of:` it), by place number (1-based):
    [(label, the seat's view of the pile with how the game's `view:` shows it)]; a pile the
    game's `view:` does not name is not shown."""
    out: dict[int, list] = {}
    decl = plan.view
    for pid in range(plan.n_piles):
        if plan.pile_scope[pid] != board:
            continue
        base_name = plan.pile_decl[pid]
        how = None if decl is None else decl.get(base_name)
        if decl is not None and how is None:
            continue  # a view that does not name it: not shown
        place = pid - plan.pile_base[base_name] + 1
        label = how["label"] if how else base_name
        if plan.pile_names[pid] not in view["piles"]:
            continue
        out.setdefault(place, []).append((label, {**view["piles"][plan.pile_names[pid]], "how": how}))
    return out
