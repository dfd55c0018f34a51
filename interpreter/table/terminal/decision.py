"""A person's screen at a decision: the table as their seat sees it, the prompt, the options by
key with what each would do (`table/ask.py`); within 80 columns and 24 rows, leaving out or
pairing lines that say less when it is short of rows."""
from __future__ import annotations

import re

from ...draw.text import Extra, OwnPile, PileLine, SeatLine
from ...engine.game import Game
from ..ask import Asked, Option
from .screen import Terminal
from .view import screen

SCREEN_ROWS = 24      # a screen fits a terminal of 80 columns and 24 rows
COLUMNS = 80


def show_screen(term: Terminal, game: Game, a: Asked) -> None:
    """A person's screen: the table as their seat sees it, the prompt, the options by key with what
    each would do; within 80 columns and 24 rows. What an option would do is told whole, on a line
    of its own when it does not fit beside it, as long as the view can make room; else cut."""
    ask = wrapped([f"Seat {a.seat + 1}: {a.prompt}"])
    labels = [o.label for o in a.options]
    view = screen(a.view, game.plan)
    for whole in (True, False):
        options = _options(a.options, whole)
        shown = fit(view, labels, len(ask) + 1 + len(options))
        if len(shown) + len(ask) + len(options) + 1 <= SCREEN_ROWS:
            break
    if len(shown) + len(ask) + len(options) + 2 <= SCREEN_ROWS:
        term.line()
    for i, text in enumerate(shown):
        term.line(text, "title" if i == 0 else ("you" if _is_you(text) else None))
    for text in ask:
        term.line(text, "prompt")
    for text, spans in options:
        term.line(text, spans=spans)


def _is_you(text: str) -> bool:
    return "(you)" in text or text.lstrip().startswith("you ") or "  you  " in text[:30]


def wrapped(lines: list[str], width: int = COLUMNS) -> list[str]:
    """Lines longer than the screen broken after a comma (or a space), the rest indented."""
    out: list[str] = []
    for text in lines:
        kind = type(text)
        while len(text) > width:
            cut = text.rfind(", ", 0, width - 1)
            cut = cut + 1 if cut > width // 3 else text.rfind(" ", 0, width)
            if cut <= 0:
                cut = width
            out.append(kind(text[:cut].rstrip()))
            text = kind("    " + text[cut:].lstrip())
        out.append(text)
    return out


def fit(lines: list[str], labels: list[str], below: int, rows: int = SCREEN_ROWS) -> list[str]:
    """The view's lines, made to fit the screen with `below` more rows under them: lines broken at
    80 columns; if that is too many, then in turn: the seat's own piles that are empty or whose every
    card the options name, the seats' lines and the game's piles two by two, the pictures that
    repeat what the lines say (`Extra`), the piles that only count their cards."""
    shown = wrapped(lines)
    if len(shown) + below <= rows:
        return shown
    named = " | ".join(labels)
    kept = []
    for text in lines:
        if isinstance(text, OwnPile):
            cards = [c.split(" ×")[0] for c in text.split(": ", 1)[-1].split(", ")]
            if cards == ["empty"] or all(c in named for c in cards):
                continue
        kept.append(text)
    shown = wrapped(kept)
    if len(shown) + below <= rows:
        return shown
    paired: list[str] = []
    for text in kept:
        last = paired[-1] if paired else None
        if isinstance(text, SeatLine) and isinstance(last, list):
            last.append(text)
        elif isinstance(text, SeatLine):
            paired.append([text])  # type: ignore[arg-type]  # a run of seats' lines, set out below
        elif (isinstance(text, PileLine) and isinstance(last, PileLine) and "   " not in last
                and len(last) + 4 + len(text) < COLUMNS):
            paired[-1] = PileLine(f"{last}    {text}")
        else:
            paired.append(text)
    paired = [t for run in paired for t in (_two_columns(run) if isinstance(run, list) else [run])]
    shown = wrapped(paired)
    if len(shown) + below <= rows:
        return shown
    paired = [t for t in paired if not isinstance(t, Extra)]
    shown = wrapped(paired)
    if len(shown) + below <= rows:
        return shown
    return wrapped([t for t in paired if not (isinstance(t, (OwnPile, PileLine)) and _COUNTED.search(t))])


def _two_columns(lines: list[str]) -> list[str]:
    """Seats' lines two by two, each column as wide as its longest line, when they fit 80 columns."""
    left, right = lines[0::2], lines[1::2]
    width = max(len(t) for t in left) + 2
    if len(lines) < 2 or width + max(len(t) for t in right) > COLUMNS:
        return lines
    return [SeatLine(a.ljust(width) + b if b else a) for a, b in zip(left, right + [""])]


# a pile shown by how many cards it holds, and nothing else (`your deck: 14 cards`)
_COUNTED = re.compile(r"^[^:]*: \d+ cards?$")


def _options(options: list[Option], whole: bool = True):
    """The options' lines, in the order a player reads them: `  c) play red  → lap 2, passes blue`;
    what an option would do that does not fit beside it on a line below (`whole`) or cut; many
    short options without effects side by side."""
    width = max(len(o.key) for o in options)
    items = [(f"{o.key:>{width}}) {o.label}", o.effect) for o in options]
    if len(items) > 8 and not any(e for _t, e in items):
        cell = max(len(t) for t, _e in items) + 3
        per_row = max(1, (COLUMNS - 2) // cell)
        if per_row > 1:
            out = []
            for r in range(0, len(items), per_row):
                row = "  " + "".join(t.ljust(cell) for t, _e in items[r:r + per_row])
                out.append((row.rstrip(), _key_spans(row)))
            return out
    out = []
    for text, effect in items:
        line = f"  {text}"
        spans = _key_spans(line)
        arrow = f"  → {effect}" if effect else ""
        if arrow and len(line) + len(arrow) > COLUMNS:
            if whole:
                out.append((line, spans))
                below = " " * (width + 4)
                for part in wrapped([f"{below}→ {effect}"]):
                    out.append((part, [(0, len(part), "preview")]))
                continue
            arrow = arrow[:COLUMNS - 1 - len(line)] + "…" if COLUMNS - 6 > len(line) else ""
        if arrow:
            spans.append((len(line), len(line) + len(arrow), "preview"))
            line += arrow
        out.append((line, spans))
    return out


def _key_spans(line: str) -> list:
    return [(m.start(1), m.end(1), "key") for m in re.finditer(r"(?:^|\s)([a-z]+)\) ", line)]
