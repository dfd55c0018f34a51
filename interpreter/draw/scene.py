"""What a picture of a game knows of the table (a `Scene`): a seat's view (data, `Game.view`) and
the plan (piles' owners and places). Pieces get their colour here: a piece named by a colour is drawn in
it, any other in a colour of its own."""
from __future__ import annotations

# colour names an SVG viewer knows, which a game may name its pieces or cards by
COLOURS = {
    "black": "#222", "white": "#fafafa", "red": "#d22", "blue": "#2a5bd7", "green": "#2a9a3a",
    "yellow": "#f2d024", "orange": "#f08a1c", "purple": "#8a3fb8", "pink": "#f08ab8", "brown": "#8a5a2b",
    "gray": "#8c8c8c", "grey": "#8c8c8c", "silver": "#c0c0c0", "gold": "#d4af37", "cyan": "#2cc",
    "magenta": "#c2c", "navy": "#1f2f7a", "teal": "#1a8a8a", "maroon": "#7a1f2f", "olive": "#7a7a1f",
    "lime": "#7c2",
}
PALETTE = ["#d22", "#2a5bd7", "#2a9a3a", "#f2d024", "#8a3fb8", "#f08a1c", "#2cc", "#8a5a2b", "#c2c", "#555"]


def colour_of(name: str) -> str | None:
    """The colour a name names (`red`, `Blue`), or None."""
    return COLOURS.get(str(name).strip().lower())


def ink(fill: str) -> str:
    """Black or white, whichever reads better on the colour `fill` (#rgb or #rrggbb)."""
    h = fill.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def say(value) -> str:
    """A value as a person reads it: no `None`, no brackets."""
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(say(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return "; ".join(f"{say(k)} {say(v)}" for k, v in value.items()) if value else "none"
    return str(value)


class Scene:
    """A seat's view of a game and its plan, as a picture reads them: each piece's colour, what
    the table shows."""
    def __init__(self, view: dict | None, plan):
        self.view = view
        self.plan = plan

    def colour(self, piece: str) -> str:
        named = colour_of(piece)
        if named is not None:
            return named
        names = list(self.plan.piece_names) if self.plan is not None else []
        i = names.index(piece) if piece in names else sum(map(ord, piece))
        return PALETTE[i % len(PALETTE)]

    def owner(self, piece: str) -> int | None:
        """The piece's owner, a 1-based seat, or None."""
        if self.view is None:
            return None
        return self.view.get("pieces", {}).get(piece, {}).get("owner")

    def tokens(self) -> dict[str, list[tuple[str, str]]]:
        """The game's values that are maps, by key: a board draws those whose key names one of
        its lines next to that line (a token laid by a named line)."""
        out: dict[str, list[tuple[str, str]]] = {}
        for var, value in (self.view or {}).get("game", {}).items():
            if isinstance(value, dict):
                for key, v in value.items():
                    if v is not None:
                        out.setdefault(str(key), []).append((var, say(v)))
        return out

    def place_piles(self, board: str) -> dict[int, list[tuple[str, dict | None]]]:
        """The piles declared `of:` this board, by place (0-based): [(declared name, what the
        view shows of it, or None without a game)]."""
        plan = self.plan
        out: dict[int, list] = {}
        if plan is None:
            return out
        piles = (self.view or {}).get("piles", {})
        for pid in range(plan.n_piles):
            if plan.pile_board[pid] == board:
                place = pid - plan.pile_base[plan.pile_decl[pid]]
                out.setdefault(place, []).append(
                    (plan.pile_decl[pid], piles.get(plan.pile_names[pid]) if self.view else None))
        return out
