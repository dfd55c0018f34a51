"""A stack track drawn: its spaces in rows that turn back and forth (as an open road's), the
spaces with the board's `shade` property tinted with its value, the finish line; in a game, each
stack as discs one on another above its space, the top the highest, and the markers under it."""
from __future__ import annotations

from ...draw.canvas import Canvas
from ...draw.scene import Scene
from .kind import Stacks

W, H, GAP = 34.0, 30.0, 70.0    # a space's box, and the room above a row for its stacks
ROW = 18
DISC = 11.0                      # a disc's height in a stack
SHADE = "#f3d6a4"


def _box(kind: Stacks, s: int) -> tuple[float, float]:
    """The top left of space s: rows of ROW spaces, left to right then right to left."""
    r, i = divmod(s, ROW)
    x = (i if r % 2 == 0 else min(ROW, kind.L) - 1 - i) * W
    return x, GAP + r * (H + GAP)


def paint(canvas: Canvas, kind: Stacks, board: dict | None, table: Scene | None, top: float) -> None:
    canvas.frame(1.0, 0.0, top)
    d = kind.decl
    shaded = [(kind.props[s] or {}).get(d.shade) if d.shade else None for s in range(kind.L)]
    for s in range(kind.L):
        x, y = _box(kind, s)
        tint = shaded[s] not in (None, False, 0, "")
        canvas.rect(x, y, W - 2, H, SHADE if tint else "#ffffff", stroke="#333", width=1.0,
                    attrs=f' class="space" data-space="{s}" data-place="{kind.name}:{s}"')
        if s % 5 == 0:
            canvas.label(str(s), (x + W / 2, y + H - 6), 9.0, "#555", over=True)
        if tint and (s == 0 or shaded[s - 1] != shaded[s]):
            value = shaded[s]
            canvas.label(d.shade if value is True else f"{d.shade} {value}", (x + W / 2, y + H + 10), 9.0,
                         "#8a5a00", over=True)
    if not kind.loop and kind.finish < kind.L:
        x, y = _box(kind, kind.finish)
        forward = kind.finish // ROW % 2 == 0
        edge = x - 1 if forward else x + W - 1
        canvas.line((edge, y - 4), (edge, y + H + 4), "#000", 4.0, "3,3")
        canvas.label("finish", (edge, y - 12), 10.0, "#000", over=True)
    if board is None or table is None:
        return
    for at in board["stacks"]:
        x, y = _box(kind, at["space"] % kind.L)
        for h, name in enumerate(at["stack"]):
            cy = y - 6 - h * DISC
            canvas.rect(x + 3, cy - DISC + 2, W - 8, DISC - 1, table.colour(name), stroke="#111", width=0.8,
                        attrs=f' class="piece" data-piece="{name}"')
        for k, name in enumerate(at["markers"]):
            canvas.circle((x + 8 + k * 10, y + H / 2), 4.5, table.colour(name),
                          attrs=f' class="marker" data-piece="{name}"')
        if at["stack"]:
            canvas.label(at["stack"][-1], (x + W / 2, y - 8 - len(at["stack"]) * DISC), 9.0, "#000",
                         over=True, bold=True)
