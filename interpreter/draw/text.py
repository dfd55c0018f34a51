"""The words every text drawing of a board says, whatever its kind: whose a piece is, seen from the
viewing seat, and the game's facts about it (`show:`); the piles kept at each place of a board; the
seats and the piles as a game's `view:` names them. A board kind's own drawing
(`boards/<kind>/text.py`) is made of these, and the screen and the picture's key say the rest with
them. A pile's cards in words are `cards.py`'s, which a page uses too."""
from __future__ import annotations

from ..lang.types import Per
from .cards import pile_text


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
        if plan.pile_board[pid] != board:
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


# ---- the seats and the piles, in the words of the game's `view:` ----------------------------------

class SeatLine(str):
    """A line about one seat (a short screen puts two side by side)."""


class OwnPile(str):
    """A pile of the viewing seat's own (a short screen leaves out one the options list)."""


class PileLine(str):
    """A pile of the game (a short screen puts two side by side)."""


def seat_name(s: int, me) -> str:
    return "you" if me is not None and s == me else f"seat {s + 1}"


def seat_piece_piles(view: dict, plan, pile: str, seat: int) -> list[tuple[str, dict]]:
    """A pile of each piece shown with its owner's piles (`beside: seat`): the seat's pieces'
    piles of that name, each (its piece, the seat's view of it); [] for a seat without pieces."""
    base = plan.pile_base[pile]
    out = []
    for pc, piece in enumerate(plan.piece_names):
        info = view["piles"].get(plan.pile_names[base + pc])
        if info is not None and view["pieces"].get(piece, {}).get("owner") == seat + 1:
            out.append((piece, info))
    return out


def by_seat(how: dict | None, plan, base: int) -> bool:
    """Whether a pile is shown as its seat's: a seat's pile, or a piece's shown `beside: seat`."""
    per = plan.pile_per[base]
    return per is Per.SEAT or (per is Per.PIECE and how is not None and how.get("beside") == "seat")


def table_lines(view: dict, plan) -> list[str]:
    """What a game with a `view:` shows beyond its boards, as its players read it: a line for each
    seat (its pieces, its facts, the piles of every seat shown), the game's piles, the viewing
    seat's own piles."""
    me = view["seat"]
    decl = plan.view or {}
    lines = _seat_lines(view, plan)
    piles = view["piles"]
    for pile, how in decl.items():
        base = plan.pile_base.get(pile)
        if base is None or plan.pile_per[base] is Per.PLACE:
            continue   # (a pile of a board's place is drawn with the board)
        if plan.pile_per[base] is Per.PIECE and by_seat(how, plan, base):
            # the seat's pieces' piles, with its own: named by the piece when it has several
            if how["whose"] == "mine" and me is not None:
                own = seat_piece_piles(view, plan, pile, me)
                for piece, info in own:
                    named = how["label"] if len(own) == 1 else f"{how['label']} of {piece}"
                    lines.append(OwnPile(f"{_yours(named)}: {pile_text(info, plan, pile, how)}"))
            continue
        if plan.pile_per[base] is Per.PIECE:   # each piece's: a line of its own
            for pc, piece in enumerate(plan.piece_names):
                info = piles.get(plan.pile_names[base + pc])
                if info is None:
                    continue
                if how["whose"] == "mine":
                    if who(piece, view) == "you":
                        text = pile_text(info, plan, pile, how)
                        lines.append(OwnPile(f"{_yours(how['label'])} of {piece}: {text}"))
                elif info["count"]:
                    lines.append(PileLine(f"{how['label']} of {piece} ({who(piece, view)}): "
                                          f"{pile_text(info, plan, pile, how)}"))
            continue
        if plan.pile_per[base] is Per.GAME:
            info = piles.get(plan.pile_names[base])
            if info is not None and info["count"]:
                lines.append(PileLine(f"{how['label']}: {pile_text(info, plan, pile, how)}"))
        elif how["whose"] == "mine" and me is not None and plan.pile_names[base + me] in piles:
            info = piles[plan.pile_names[base + me]]
            lines.append(OwnPile(f"{_yours(how['label'])}: {pile_text(info, plan, pile, how)}"))
    return lines


def _yours(label: str) -> str:
    """A pile of the seat's own as it reads it: `your hand` (a label that says so already is kept)."""
    return label if label.lower().startswith(("your ", "my ")) else f"your {label}"


def _seat_lines(view: dict, plan) -> list[str]:
    """One line per seat, when the view says something of each: its pieces, its facts (`view.seats`)
    and the piles of every seat it shows (`whose: all`)."""
    me = view["seat"]
    decl = plan.view or {}
    every = [(p, how) for p, how in decl.items() if how["whose"] == "all"
             and p in plan.pile_base and by_seat(how, plan, plan.pile_base[p])]
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
            base = plan.pile_base[pile]
            if plan.pile_per[base] is Per.PIECE:   # (`beside: seat`) its pieces', by piece when several
                own = seat_piece_piles(view, plan, pile, s)
                for piece, info in own:
                    if info["count"]:
                        named = how["label"] if len(own) == 1 else f"{how['label']} of {piece}"
                        parts.append(f"{named}: {pile_text(info, plan, pile, how)}")
                continue
            info = view["piles"].get(plan.pile_names[base + s])
            if info is not None and info["count"]:
                parts.append(f"{how['label']}: {pile_text(info, plan, pile, how)}")
        if parts:
            cars = f" ({', '.join(owners[s])})" if owners.get(s) else ""
            out.append(SeatLine(f"{seat_name(s, me)}{cars}: " + "; ".join(parts)))
    return out
