"""The words every text drawing of a board says, whatever its kind: whose a piece is, seen from the
viewing seat, and the game's facts about it (`show:`); a pile's cards as players read them; the
piles kept at each place of a board. A board kind's own drawing (`boards/<kind>/text.py`) is
made of these. A pile's cards in words are `cards.py`'s, which a page uses too."""
from __future__ import annotations

from .cards import pile_text  # noqa: F401 - the screens read a pile in words from here too


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
