"""A picture as SVG, drawn in output pixels: shapes, and labels placed where they cover no other label.

A painter draws in its own coordinates inside a `frame` (a scale and an offset); the canvas keeps
every point in pixels, so the SVG it writes is flat (no transforms) and each label's box can be
read back from its attributes. A label is asked for at a point: it goes there if its box is free,
else to the nearest free place on rings around the point (with a thin leader line when it ends up
far from it); `over=False` labels also keep off the obstacles a painter marks (cars, spots of a
track). The picture's bounds are those of everything drawn, so no label is ever cut at an edge.
"""
from __future__ import annotations

import html
import math

Box = tuple[float, float, float, float]  # x0, y0, x1, y1

# A label's box: EM font sizes a character (a little more than a sans-serif font's average, and
# never less than 0.6 em a character), ASCENT above the baseline and DESCENT below it, PAD around.
EM = 0.64
ASCENT, DESCENT = 0.85, 0.3
PAD = 0.12
_NARROW = set("iljtfrI.,:;|'!()[] ")
_WIDE = set("mwMWКЖШЩЮМДФ@%")


def text_width(text: str, size: float) -> float:
    ems = 0.0
    for ch in text:
        if ord(ch) >= 0x2E80:       # CJK and other full-width characters
            ems += 1.0
        elif ch in _NARROW:
            ems += 0.38
        elif ch in _WIDE:
            ems += 0.95
        else:
            ems += EM
    return size * max(ems, 0.6 * len(text))


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class _Index:
    """Boxes bucketed by a coarse grid: which boxes may meet a box."""

    def __init__(self, cell: float = 64.0):
        self.cell = cell
        self.buckets: dict[tuple[int, int], list[Box]] = {}

    def _keys(self, b: Box):
        c = self.cell
        for i in range(math.floor(b[0] / c), math.floor(b[2] / c) + 1):
            for j in range(math.floor(b[1] / c), math.floor(b[3] / c) + 1):
                yield i, j

    def add(self, b: Box) -> None:
        for k in self._keys(b):
            self.buckets.setdefault(k, []).append(b)

    def hits(self, b: Box) -> bool:
        for k in self._keys(b):
            for other in self.buckets.get(k, ()):
                if overlaps(b, other):
                    return True
        return False


def _pts(points) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


class Canvas:
    """An SVG picture drawn in layers, with labels kept apart from each other and from the
    pieces (`obstacles`)."""
    LAYERS = ("ground", "board", "marks", "pieces", "leaders", "labels")

    def __init__(self):
        self.layers: dict[str, list[str]] = {name: [] for name in self.LAYERS}
        self.extent: Box | None = None
        self.labels = _Index()
        self.obstacles = _Index()
        self.scale, self.dx, self.dy = 1.0, 0.0, 0.0
        self.halo = "#f4f4ee"  # the background's colour, around each label's letters

    # ---- coordinates ----------------------------------------------------------------------------

    def frame(self, scale: float = 1.0, dx: float = 0.0, dy: float = 0.0) -> None:
        """Coordinates given from now on are multiplied by `scale` and moved by (dx, dy) pixels."""
        self.scale, self.dx, self.dy = scale, dx, dy

    def frame_from(self, points, scale: float, top: float) -> None:
        """A frame of this scale in which the top left of these points lands at pixel
        (0, top): a drawing starts where it is put, whatever its own coordinates."""
        self.frame(scale, -min(p[0] for p in points) * scale, top - min(p[1] for p in points) * scale)

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return x * self.scale + self.dx, y * self.scale + self.dy

    def _grow(self, b: Box) -> None:
        e = self.extent
        self.extent = b if e is None else (min(e[0], b[0]), min(e[1], b[1]), max(e[2], b[2]), max(e[3], b[3]))

    @property
    def bottom(self) -> float:
        return self.extent[3] if self.extent else 0.0

    @property
    def left(self) -> float:
        return self.extent[0] if self.extent else 0.0

    @property
    def width(self) -> float:
        return self.extent[2] - self.extent[0] if self.extent else 0.0

    # ---- shapes (in the frame's coordinates) ------------------------------------------------------

    def polygon(self, points, fill: str, stroke: str = "#777", width: float = 0.8, layer: str = "board",
                obstacle: bool = False, attrs: str = "") -> list[tuple[float, float]]:
        out = [self.pt(x, y) for x, y in points]
        xs, ys = [p[0] for p in out], [p[1] for p in out]
        box = (min(xs), min(ys), max(xs), max(ys))
        self._grow(box)
        if obstacle:
            self.obstacles.add(box)
        self.layers[layer].append(f'<polygon points="{_pts(out)}" fill="{fill}" stroke="{stroke}" '
                                  f'stroke-width="{width}"{attrs}/>')
        return out

    def rect(self, x: float, y: float, w: float, h: float, fill: str, **kw) -> list[tuple[float, float]]:
        return self.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill, **kw)

    def line(self, a, b, stroke: str, width: float = 2.0, dash: str | None = None,
             layer: str = "marks") -> None:
        (x1, y1), (x2, y2) = self.pt(*a), self.pt(*b)
        self._grow((min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)))
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.layers[layer].append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                                  f'stroke="{stroke}" stroke-width="{width}"{d}/>')

    def circle(self, c, r: float, fill: str, stroke: str = "#222", layer: str = "pieces",
               obstacle: bool = True, attrs: str = "") -> None:
        """A disc of radius `r` pixels at the frame's point `c`."""
        self._disc(*self.pt(*c), r, fill, layer, obstacle, attrs, stroke)

    def _disc(self, x: float, y: float, r: float, fill: str, layer: str, obstacle: bool, attrs: str,
              stroke: str = "#222") -> None:
        box = (x - r, y - r, x + r, y + r)
        self._grow(box)
        if obstacle:
            self.obstacles.add(box)
        self.layers[layer].append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" '
                                  f'stroke="{stroke}" stroke-width="1.2"{attrs}/>')

    def avoid(self, points) -> None:
        """Labels keep off the box around these frame points (where they would hide the drawing)."""
        out = [self.pt(x, y) for x, y in points]
        self.obstacles.add((min(p[0] for p in out), min(p[1] for p in out),
                            max(p[0] for p in out), max(p[1] for p in out)))

    # ---- labels -------------------------------------------------------------------------------------

    def _box(self, text: str, cx: float, cy: float, size: float) -> Box:
        """The box of a label whose box centre is (cx, cy), with its padding."""
        w = text_width(text, size) / 2 + PAD * size
        h = (ASCENT + DESCENT) * size / 2 + PAD * size
        return (cx - w, cy - h, cx + w, cy + h)

    def _free(self, box: Box, over: bool) -> bool:
        return not self.labels.hits(box) and (over or not self.obstacles.hits(box))

    def label(self, text: str, at, size: float, colour: str = "#000", over: bool = False,
              away: float = 0.0, bold: bool = False, rings: int = 40) -> Box:
        """Write `text` at the frame point `at` (its box centred there), or as near as it fits.
        `away`: pixels from the point where the first ring starts (a label beside a thing, not on
        it); `over`: it may cover obstacles (a number inside a spot), never another label."""
        x, y = self.pt(*at)
        step = (ASCENT + DESCENT) * size * 0.7
        chosen = None
        for k in range(rings + 1):
            if k == 0 and away > 0:
                continue
            r = away + max(0, k - 1) * step if away > 0 else k * step
            n = 1 if r == 0 else max(8, min(32, int(2 * math.pi * r / step)))
            for i in range(n):
                a = 2 * math.pi * i / n - math.pi / 2  # above first, then clockwise
                cx, cy = x + r * math.cos(a), y + r * math.sin(a)
                box = self._box(text, cx, cy, size)
                if self._free(box, over):
                    chosen = (cx, cy, box)
                    break
            if chosen:
                break
        if chosen is None:  # nothing free nearby: below everything drawn so far, always free
            cy = self.bottom + (ASCENT + DESCENT) * size
            box = self._box(text, x, cy, size)
            chosen = (x, cy, box)
        cx, cy, box = chosen
        self.labels.add(box)
        self._grow(box)
        if math.hypot(cx - x, cy - y) > max(step * 2.5, away + step * 1.5):
            # a leader from the point to the nearest point of the label's box
            nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
            self.layers["leaders"].append(f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{nx:.1f}" y2="{ny:.1f}" '
                                          'stroke="#888" stroke-width="0.7"/>')
        self._text(text, cx, cy, size, colour, bold)
        return box

    def _text(self, text: str, cx: float, cy: float, size: float, colour: str, bold: bool,
              anchor: str = "middle", x: float | None = None) -> None:
        base = cy + (ASCENT - DESCENT) * size / 2  # the baseline of a box centred at cy
        weight = ' font-weight="bold"' if bold else ""
        self.layers["labels"].append(
            f'<text x="{(cx if x is None else x):.1f}" y="{base:.1f}" font-size="{size:.1f}" fill="{colour}" '
            f'text-anchor="{anchor}"{weight} stroke="{self.halo}" stroke-width="{size * 0.22:.1f}" '
            f'paint-order="stroke">{html.escape(text)}</text>')

    def lines(self, texts: list, size: float, x: float | None = None, top: float | None = None,
              width: float | None = None, colour: str = "#000", bold: bool = False,
              gap: float = 0.35) -> None:
        """Lines of text left-aligned at pixel x (default: the picture's left edge), from `top`
        (default: below everything drawn), each wrapped to `width` pixels (default: the
        picture's width, at least 480): a caption or a key, inside the picture."""
        x = self.left if x is None else x
        y = (self.bottom + size * 0.6) if top is None else top
        width = max(480.0, self.width) if width is None else width
        h = (ASCENT + DESCENT) * size
        for item in texts:
            # an item is a text, or (a colour, a text): a line led by a disc of that colour
            swatch, text = (None, item) if isinstance(item, str) else item
            indent = size * 1.3 if swatch else 0.0
            for n, part in enumerate(wrap(text, size, width - indent)):
                w = text_width(part, size)
                tx = x + indent
                box = (tx - PAD * size, y - PAD * size, tx + w + PAD * size, y + h + PAD * size)
                while self.labels.hits(box):
                    y += h * 0.5  # never over a label placed before
                    box = (box[0], y - PAD * size, box[2], y + h + PAD * size)
                if swatch and n == 0:
                    self._disc(x + size * 0.42, y + h / 2, size * 0.42, swatch, "pieces", False, "")
                self.labels.add(box)
                self._grow(box)
                self._text(part, tx + w / 2, y + h / 2, size, colour, bold, anchor="start", x=tx)
                y += h * (1 + gap)

    # ---- the picture ----------------------------------------------------------------------------------

    def svg(self, margin: float = 12.0) -> str:
        x0, y0, x1, y1 = self.extent or (0.0, 0.0, 100.0, 100.0)
        x0, y0, x1, y1 = math.floor(x0 - margin), math.floor(y0 - margin), math.ceil(x1 + margin), \
            math.ceil(y1 + margin)
        w, h = x1 - x0, y1 - y0
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                 f'viewBox="{x0} {y0} {w} {h}" font-family="DejaVu Sans, Verdana, sans-serif">',
                 f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="{self.halo}"/>']
        for name in self.LAYERS:
            parts.extend(self.layers[name])
        parts.append("</svg>\n")
        return "\n".join(parts)


def wrap(text: str, size: float, width: float) -> list[str]:
    """`text` cut at spaces into lines of at most `width` pixels (a word longer stays whole)."""
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if line and text_width(trial, size) > width:
            out.append(line)
            line = word
        else:
            line = trial
    out.append(line)
    return out
