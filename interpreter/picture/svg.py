"""Pictures (SVG) of a board, or of a whole table in a game: `racecraft render`.

Each board kind paints itself (`BoardKind.paint`, its package's `picture.py`), from the board's
declaration and, in a game, from the board's view (data, `BoardKind.view`). A table's picture is
its boards, then a key drawn from the seat's view: in the words of the game's `view:` (its facts,
each piece with its owner and facts, the seats' lines and the piles, as the screen says them), or
for a game without one each value and pile by its name.
"""
from __future__ import annotations

from ..draw.canvas import Canvas
from ..draw.scene import Scene, say
from ..draw.text import table_lines, who
from ..lang.types import Per


def board_picture(kind, plan=None) -> str | None:
    """A board as its declaration draws it (with the piles a game keeps on it, given the game's
    plan); None for a kind without a painter."""
    canvas = Canvas()
    if not kind.paint(canvas, None, Scene(None, plan) if plan is not None else None, 0.0):
        return None
    return canvas.svg()


def table_picture(view: dict, plan, title: str, status: str = "", boards: list[str] | None = None,
                  seat_kinds: list[str] | None = None) -> str:
    """The table as `view` shows it: `boards` (default: those with pieces on them, else the
    first), then the key. `status` says where the game stands; `seat_kinds` who sits where."""
    table = Scene(view, plan)
    canvas = Canvas()
    canvas.frame()
    canvas.lines([title], 18.0, x=0.0, top=0.0, width=1000.0, bold=True)
    if status:
        canvas.lines([status], 13.0, x=0.0, width=1000.0)
    names = boards or [n for n, b in view["boards"].items() if b.get("pieces")] or list(view["boards"])[:1]
    shown = set()
    for name in names:
        kind = plan.board_kinds[plan.board_names.index(name)]
        shown.add(name)
        top = canvas.bottom + 24.0
        if not kind.paint(canvas, view["boards"][name], table, top):
            canvas.frame()
            canvas.lines([f"{name}: " + "; ".join(f"{p['piece']} {p['where']}" for p in view["boards"][name]
                                                  .get("pieces", []))], 12.0, x=0.0, top=top)
    canvas.frame()
    canvas.lines(_key(view, plan, table, shown, seat_kinds), 12.0, x=canvas.left, top=canvas.bottom + 16.0)
    return canvas.svg()


def _key(view: dict, plan, table: Scene, boards: set[str], seat_kinds) -> list:
    """The key under the boards: in the words of the game's `view:` when it has one (what a player
    is shown), else each value and pile by its name (a designer's first draft)."""
    if plan.view is not None:
        return _said(view, plan, table, seat_kinds)
    out: list = []
    values = view.get("game") or {}
    if values:
        out.append("game: " + "; ".join(f"{k} {say(v)}" for k, v in values.items()))
    for piece, info in _in_play(view):
        owner = info.get("owner")
        who = "no player" if owner is None else f"seat {owner}"
        facts = ", ".join(info.get("facts", []))  # as players read them (engine/game.py)
        out.append((table.colour(piece), f"{piece} ({who})" + (f": {facts}" if facts else "")))
    piles = view.get("piles", {})
    by_seat: dict[int, list[str]] = {}
    others = []
    for pid in range(plan.n_piles):
        per = plan.pile_per[pid]
        info = piles.get(plan.pile_names[pid])
        if info is None or plan.pile_board[pid] in boards:
            continue  # a board's piles are in its picture
        text = f"{plan.pile_decl[pid]} {info['count']}"
        cards = info.get("cards")
        if cards and not cards[-1].startswith("("):
            text += f" (top {cards[-1]})"
        if per is Per.SEAT:
            by_seat.setdefault(plan.pile_owner[pid], []).append(text)
        elif per is Per.PIECE:
            others.append(f"{plan.pile_names[pid]} {info['count']}")
        else:
            others.append(text)
    for s, seat in enumerate(view.get("seats", [])):
        kind = f" ({seat_kinds[s]})" if seat_kinds and s < len(seat_kinds) else ""
        parts = []
        if by_seat.get(s):
            parts.append("cards: " + ", ".join(by_seat[s]))
        if seat:
            parts.append(", ".join(f"{k} {say(v)}" for k, v in seat.items()))
        out.append(f"seat {s + 1}{kind}: " + ("; ".join(parts) or "nothing shown"))
    if others:
        out.append("piles: " + ", ".join(others))
    return out


def _in_play(view: dict) -> list[tuple[str, dict]]:
    """The pieces the key lists: a seat's, and those on a board (a piece of nobody's that is on no
    board is not in this game: a car of a colour nobody drives)."""
    placed = {p.get("piece") for b in view.get("boards", {}).values() for p in b.get("pieces", [])}
    return [(piece, info) for piece, info in view.get("pieces", {}).items()
            if info.get("owner") is not None or piece in placed]


def _said(view: dict, plan, table: Scene, seat_kinds) -> list:
    """The key of a game with a `view:`: the game's facts, each piece with whose it is and its facts,
    who sits where, and the seats and piles as the screen names them."""
    out: list = []
    facts = view.get("game_facts") or []
    if facts:
        out.append("; ".join(facts))
    for piece, info in _in_play(view):
        shown = ", ".join(info.get("facts", []))
        out.append((table.colour(piece), f"{piece} ({who(piece, view)})" + (f": {shown}" if shown else "")))
    if seat_kinds:
        out.append("seats: " + ", ".join(f"seat {s + 1} {k}" for s, k in enumerate(seat_kinds)))
    out.extend(table_lines(view, plan))
    return out
