"""Pictures (SVG) of a board, or of a whole table in a game: `racecraft render`.

Each board kind paints itself (`BoardKind.paint`, its package's `picture.py`), from the board's
declaration and, in a game, from the board's view (data, `BoardKind.view`). A table's picture is
its boards, then a key drawn from the seat's view: the game's values, each piece with its owner,
each seat's piles (how many cards in a hand) and values, the other piles.
"""
from __future__ import annotations

from ..draw.canvas import Canvas
from ..draw.scene import Scene, say


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
    out: list = []
    values = view.get("game") or {}
    if values:
        out.append("game: " + "; ".join(f"{k} {say(v)}" for k, v in values.items()))
    for piece, info in view.get("pieces", {}).items():
        owner = info.get("owner")
        who = "no player" if owner is None else f"seat {owner}"
        facts = ", ".join(info.get("facts", []))  # as players read them (engine/game.py)
        out.append((table.colour(piece), f"{piece} ({who})" + (f": {facts}" if facts else "")))
    piles = view.get("piles", {})
    by_seat: dict[int, list[str]] = {}
    others = []
    for pid in range(plan.n_piles):
        scope = plan.pile_scope[pid]
        info = piles.get(plan.pile_names[pid])
        if info is None or scope in boards:
            continue  # a board's piles are in its picture
        text = f"{plan.pile_decl[pid]} {info['count']}"
        cards = info.get("cards")
        if cards and not cards[-1].startswith("("):
            text += f" (top {cards[-1]})"
        if scope == "seat":
            by_seat.setdefault(plan.pile_owner[pid], []).append(text)
        elif scope == "piece":
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
