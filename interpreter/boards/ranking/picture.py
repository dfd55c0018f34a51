"""A ranking drawn: its slots 1..n in a row, and under each slot the piles kept there (declared
`of:` the board), card by card; in a game, the piece in each slot."""
from __future__ import annotations

from ...draw.canvas import Canvas
from ...draw.scene import Scene, colour_of, ink
from .kind import Ranking

W, H, GAP = 78.0, 64.0, 12.0     # a slot's box
CARD = 20.0                      # a card's height in a pile under a slot


def paint(canvas: Canvas, kind: Ranking, board: dict | None, table: Scene | None, top: float) -> None:
    canvas.frame(1.0, 0.0, top)
    n = kind.decl.slots
    slots = board["slots"] if board is not None else [None] * n
    piles = table.place_piles(kind.name) if table is not None else {}
    for i in range(n):
        x = i * (W + GAP)
        canvas.rect(x, 0, W, H, "#ffffff", stroke="#333", width=1.2,
                    attrs=f' class="slot" data-slot="{i + 1}" data-place="{kind.name}:{i + 1}"')
        piece = slots[i]
        if piece is not None and table is not None:
            canvas.circle((x + W / 2, H / 2 + 6), 13.0, table.colour(piece),
                          attrs=f' class="piece" data-piece="{piece}"')
    # the piles of each slot: a box per pile, its cards top to bottom in the order laid
    bottom = {}
    for i in range(n):
        x, y = i * (W + GAP), H + GAP
        for name, info in piles.get(i, []):
            cards = [] if info is None else (info["cards"] if info["cards"] is not None
                                             else ["(face down)"] * info["count"])
            h = max(1, len(cards)) * CARD + 6
            canvas.rect(x, y, W, h, "#ece8dc", stroke="#999", width=0.8,
                        attrs=f' class="pile" data-pile="{name}"')
            for k, card in enumerate(cards):
                shown = colour_of(card)
                hidden = card.startswith("(")
                fill = "#9a9a9a" if hidden else (shown or "#ffffff")
                canvas.rect(x + 4, y + 3 + k * CARD, W - 8, CARD - 2, fill, stroke="#555", width=0.6,
                            attrs=' class="card"')
            bottom[(i, name)] = (x, y, cards)
            y += h + GAP
    for i in range(n):
        x = i * (W + GAP)
        canvas.label(f"{i + 1}", (x + 10, 10), 12.0, "#000", over=True, bold=True, rings=1)
        piece = slots[i]
        if piece is not None:
            canvas.label(piece, (x + W / 2, H / 2 + 6), 11.0, "#000", away=15.0, bold=True)
    for (_i, name), (x, y, cards) in bottom.items():
        for k, card in enumerate(cards):
            if not card.startswith("("):
                canvas.label(card, (x + W / 2, y + 3 + k * CARD + (CARD - 2) / 2), 10.0,
                             ink(colour_of(card) or "#ffffff"), over=True, rings=1)
        if not cards:
            canvas.label(name, (x + W / 2, y + 13), 10.0, "#666", over=True, rings=2)
    names = sorted({name for lst in piles.values() for name, _info in lst})
    under = f"; under each slot: {', '.join(names)} (grey: face down)" if names else ""
    canvas.lines([f"{kind.name}: {n} slots, 1 first{under}"], 12.0)
