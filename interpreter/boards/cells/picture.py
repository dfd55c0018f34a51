"""A cell board drawn from its cells' outlines (`shape`): tagged cells shaded, the start grid's
cells green with their numbers, lines at the front edges of the cells they cross; in a game,
the pieces on their cells."""
from __future__ import annotations

from ...draw.canvas import Canvas, text_width
from ...draw.scene import Scene
from .kind import Cells


def _centre(points: list[tuple[float, float]]) -> tuple[float, float]:
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


# each tag its own tint (a cell of several takes its first tag's), named under the picture; green is
# the start grid's
TINTS = (("blue", "#dde8f6"), ("orange", "#fbe3c8"), ("purple", "#eadcf4"), ("grey", "#e6e6e6"),
         ("yellow", "#f8f1c4"), ("pink", "#f7dde6"))


def paint(canvas: Canvas, kind: Cells, board: dict | None, table: Scene | None, top: float) -> None:
    d = kind.decl
    tags = list(dict.fromkeys(str(t) for c in d.cells for t in c.tags))
    tint = {t: TINTS[i % len(TINTS)] for i, t in enumerate(tags)}
    outline = {c.id: c.points() for c in d.cells}
    if not any(outline.values()):  # no outlines: nothing to draw but the words
        canvas.frame(1.0, 0.0, top)
        canvas.lines([f"{kind.name}: {len(d.cells)} cells, drawn only when they have a `shape`"], 12.0,
                     top=top)
        return
    canvas.frame_from([p for ps in outline.values() for p in ps], 1.2, top)
    lap = kind.lap
    line_at: dict[int, list[str]] = {}
    for name, v in kind.lines.items():
        line_at.setdefault(v % lap if lap else v, []).append(name)
    here = {p["cell"]: p for p in board["pieces"]} if board is not None else {}
    for c in d.cells:
        shape = outline[c.id]
        if not shape:
            continue
        fill = "#e3f3dc" if c.grid is not None else (tint[str(c.tags[0])][1] if c.tags else "#ffffff")
        canvas.polygon(shape, fill, "#666", 0.8,
                       attrs=f' class="cell" data-cell="{c.id}" data-place="{kind.name}:{c.id}"')
        key = c.front % lap if lap else c.front
        if key in line_at and len(shape) >= 2:
            colour = "#000" if "finish" in line_at[key] else "#d4a000"
            canvas.line(shape[-2], shape[-1], colour, 4.0)
    for c in d.cells:
        if outline[c.id] and c.id in here:
            x, y = _centre(outline[c.id])
            p = here[c.id]
            canvas.circle((x, y), 7.5, table.colour(p["piece"]) if table else "#888",
                          attrs=f' class="piece" data-piece="{p["piece"]}"')
    # labels: each cell's name (inside it, smaller where it is narrow), then lines and pieces
    for c in d.cells:
        shape = outline[c.id]
        if not shape or c.id in here:
            continue
        text = c.id + (f" [{c.grid}]" if c.grid is not None and board is None else "")
        xs = [canvas.pt(*p)[0] for p in shape]
        size = 8.5
        while size > 5.0 and text_width(text, size) > (max(xs) - min(xs)) * 0.8:
            size -= 0.5
        canvas.label(text, _centre(shape), size, "#333", over=True, rings=3)
    for v, names in line_at.items():
        cells = [c for c in d.cells if outline[c.id] and (c.front % lap if lap else c.front) == v]
        if cells:
            c = max(cells, key=lambda c: c.lane)
            canvas.label("/".join(names), outline[c.id][-2], 12.0, "#a00", away=6.0)
    if board is not None:
        for p in board["pieces"]:
            canvas.label(p["piece"], _centre(outline[p["cell"]]), 12.0, bold=True, away=10.0)
    tagged = ", ".join(f"{tint[t][0]}: {t}" for t in tags) if tags else "no cell tagged"
    grid = "green: the start grid [number]" if board is None else "green: the start grid"
    canvas.lines([f"{kind.name}: {len(d.cells)} cells; white: untagged, {tagged}, {grid}; "
                  "thick lines: the finish (black) and the other lines (yellow)"], 12.0)
