"""A seat's view as text for the terminal: a title line, the boards (each drawn by its kind),
each seat's line, the piles. A game's `view:` says which piles and facts a player sees and how
they are called; without one, everything the seat may see is listed by its name.

`screen` gives the lines; `render_view` the same as one text. Nothing here prints a Python
value: no `None`, no brackets, no `True`."""
from __future__ import annotations

from ...draw.cards import listing
from ...draw.text import about, pile_text, seat_name, table_lines
from ...lang.types import Per


def board_lines(kind, board: dict, view: dict) -> list[str]:
    """One board as text: its kind's drawing (`BoardKind.text`), else each piece and where it stands.
    `board`: the board's view data; `view`: the whole seat's view (pieces' owners, shown facts)."""
    drawn = kind.text(board, view)
    if drawn is None:
        return [f"{about(p['piece'], view)}: {p['where']}" for p in board.get("pieces", [])]
    return drawn


# A value on the screen: at most about this many characters of it, then how many items it holds (a
# table whose state holds 99,999 lists of 99,999 items is drawn at once)
VALUE_CHARS = 200


def _value(v, room: int = VALUE_CHARS) -> str:
    """A variable's value in a view without a `view:` section (a designer's game), cut short after
    about `room` characters."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, dict)):
        items = v.items() if isinstance(v, dict) else v
        parts: list[str] = []
        used = 0
        for x in items:
            if used >= room:
                return listing(parts) + f", ... ({len(v):,} in all)"
            text = f"{_value(x[0], room - used)} {_value(x[1], room - used)}" if isinstance(v, dict) \
                else _value(x, room - used)
            parts.append(text)
            used += len(text) + 2
        return listing(parts) or "none"
    text = "none" if v is None else str(v)
    return text if len(text) <= room else text[:max(room, 20)] + "..."


def screen(view: dict, plan) -> list[str]:
    """The seat's view as lines of text, title first. Some lines say what they are (`Extra`,
    `SeatLine`, `OwnPile`): a screen short of rows may leave them out or set them side by side."""
    decl = plan.view
    lines = [_title(view, plan)]
    shown: set[str] = set()  # piles drawn with their boards
    kinds = dict(zip(plan.board_names, plan.board_kinds))
    used = [n for n, b in view["boards"].items()
            if b.get("pieces") or b.get("off") or kinds[n].drawn_empty]
    for name, board in view["boards"].items():
        if used and name not in used:
            continue  # a board nobody stands on (the other side of a double board)
        lines.extend(type(text)(f"  {text}") for text in board_lines(kinds[name], board, view))
        shown.update(plan.pile_names[pid] for pid in range(plan.n_piles) if plan.pile_board[pid] == name)
    if decl is None:
        lines.extend(_listed(view, plan, shown))
        return lines
    lines.extend(table_lines(view, plan))
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


def _listed(view: dict, plan, shown: set) -> list[str]:
    """A game without a `view:`: every pile and seat variable the seat may see, by its name."""
    me = view["seat"]
    lines = []
    for label, info in view["piles"].items():
        if label in shown:
            continue
        pid = plan.pile_names.index(label)
        mine = plan.pile_per[pid] is Per.SEAT and plan.pile_owner[pid] == me
        lines.append(f"{label}{' (yours)' if mine else ''}: {pile_text(info, plan)}")
    for s, info in enumerate(view["seats"]):
        values = [f"{k} {_value(v)}" for k, v in info.items()]
        if values:
            lines.append(f"{seat_name(s, me)}: " + ", ".join(values))
    return lines


def render_view(view: dict, plan) -> str:
    return "\n".join(screen(view, plan))
