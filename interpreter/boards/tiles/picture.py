"""A tile grid drawn: squares coloured by region with their labels; in a game, face-down tiles
shaded, face-up ones with their track drawn from the centre to each side that carries it, and
the pieces on their squares."""
from __future__ import annotations

from ...draw.canvas import Canvas
from ...draw.scene import Scene
from .kind import Tiles

S = 64.0                                            # a square's side, in pixels
REGION_FILLS = ["#f4f1e8", "#dde8f4", "#f4dddd", "#e0f0dc", "#efe2f5", "#f5eccf"]
SIDE_ENDS = {1: (0.5, 0.0), 2: (1.0, 0.5), 4: (0.5, 1.0), 8: (0.0, 0.5)}  # bit: N, E, S, W


def paint(canvas: Canvas, kind: Tiles, board: dict | None, table: Scene | None, top: float) -> None:
    canvas.frame(1.0, 0.0, top)
    regions = list(dict.fromkeys(kind.region[1:]))
    squares = board["squares"] if board is not None else {}
    pieces = []
    for sq in range(1, kind.n + 1):
        r, c = kind.pos[sq]
        x, y = c * S, r * S
        label = kind.labels[sq]
        seen = squares.get(label)
        fill = REGION_FILLS[regions.index(kind.region[sq]) % len(REGION_FILLS)]
        if seen is not None and not seen["laid"]:
            fill = "#ffffff"
        elif seen is not None and not seen["face_up"]:
            fill = "#9a9a9a"
        canvas.rect(x + 2, y + 2, S - 4, S - 4, fill, stroke="#333", width=1.0,
                    attrs=f' class="square" data-square="{label}" data-place="{kind.name}:{sq}"')
        if seen is not None and seen["face_up"] and seen["mask"]:
            for bit, (ex, ey) in SIDE_ENDS.items():
                if seen["mask"] & bit:
                    canvas.line((x + S / 2, y + S / 2), (x + ex * S, y + ey * S), "#444", 7.0)
        here = seen["pieces"] if seen else []
        for i, p in enumerate(here):
            dx, dy = (0.0, 0.0) if len(here) == 1 else ((i % 2) * 18 - 9, (i // 2 % 2) * 18 - 9)
            at = (x + S / 2 + dx, y + S / 2 + dy)
            canvas.circle(at, 8.0, table.colour(p) if table else "#888",
                          attrs=f' class="piece" data-piece="{p}"')
            pieces.append((p, at))
    for sq in range(1, kind.n + 1):
        r, c = kind.pos[sq]
        x, y = c * S, r * S
        canvas.label(kind.labels[sq], (x + 14, y + 12), 10.0, "#000", over=True, rings=2)
        seen = squares.get(kind.labels[sq])
        if seen is None:
            canvas.label(kind.region[sq], (x + S / 2, y + S - 14), 9.0, "#444", over=True, rings=2)
        elif seen["face_up"] and seen["name"]:
            canvas.label(str(seen["name"]), (x + S / 2, y + S - 10), 8.0, "#333", rings=3)
    for p, at in pieces:
        canvas.label(p, at, 11.0, bold=True, away=10.0)
    state = "; grey: face down; dark lines: the track" if board is not None else ""
    canvas.lines([f"{kind.name}: {kind.rows} x {kind.cols} grid, {kind.n} squares; "
                  f"regions: {', '.join(regions)}{state}"], 12.0)
