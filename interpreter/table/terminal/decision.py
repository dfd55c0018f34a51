"""A person's screen at a decision: the table as their seat sees it, the prompt, the options by
key with what each would do (`table/ask.py`); within 80 columns and 24 rows, leaving out or
pairing lines that say less when it is short of rows."""
from __future__ import annotations

import re

from ...draw.text import Extra
from ...engine.game import Game
from ..ask import Option, asked
from .screen import Terminal
from .view import OwnPile, PileLine, SeatLine, screen

SCREEN_ROWS = 24      # a screen fits a terminal of 80 columns and 24 rows
COLUMNS = 80


def show_screen(term: Terminal, game: Game, decision, labels: list[str], keys: list[int]) -> None:
    """A person's screen: the table as their seat sees it, the prompt, the options by key with what
    each would do; within 80 columns and 24 rows."""
    a = asked(game, decision, labels, keys)
    options = _options(a.options)
    ask = wrapped([f"Seat {a.seat + 1}: {a.prompt}"])
    shown = fit(screen(a.view, game.plan), labels, len(ask) + 1 + len(options))
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


def wrapped(lines: list[str], width: int = COLUMNS - 1) -> list[str]:
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
    80 columns; if that is too many, then in turn: the seat's own piles whose every card the options
    name, the seats' lines and the game's piles two by two, the pictures that repeat what the lines
    say (`Extra`)."""
    shown = wrapped(lines)
    if len(shown) + below <= rows:
        return shown
    named = " | ".join(labels)
    kept = []
    for text in lines:
        if isinstance(text, OwnPile):
            cards = [c.split(" ×")[0] for c in text.split(": ", 1)[-1].split(", ")]
            if all(c in named for c in cards):
                continue
        kept.append(text)
    shown = wrapped(kept)
    if len(shown) + below <= rows:
        return shown
    paired: list[str] = []
    half = (COLUMNS - 2) // 2
    for text in kept:
        last = paired[-1] if paired else None
        if (isinstance(text, SeatLine) and isinstance(last, SeatLine) and "   " not in last
                and len(last) <= half and len(text) <= half):
            paired[-1] = SeatLine(last.ljust(half + 2) + text)
        elif (isinstance(text, PileLine) and isinstance(last, PileLine) and "   " not in last
                and len(last) + 4 + len(text) < COLUMNS):
            paired[-1] = PileLine(f"{last}    {text}")
        else:
            paired.append(text)
    shown = wrapped(paired)
    if len(shown) + below <= rows:
        return shown
    return wrapped([t for t in paired if not isinstance(t, Extra)])


def _options(options: list[Option]):
    """The options' lines, by key: `  3. play red  → lap 2, passes blue`; many short options
    without effects side by side."""
    width = max(len(str(o.key)) for o in options)
    items = [(f"{o.key:>{width}}. {o.label}", o.effect) for o in sorted(options, key=lambda o: o.key)]
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
        if effect:
            arrow = f"  → {effect}"
            if len(line) + len(arrow) > COLUMNS - 1:
                arrow = arrow[:COLUMNS - 2 - len(line)] + "…" if COLUMNS - 6 > len(line) else ""
            if arrow:
                spans.append((len(line), len(line) + len(arrow), "preview"))
                line += arrow
        out.append((line, spans))
    return out


def _key_spans(line: str) -> list:
    return [(m.start(1), m.end(1), "key") for m in re.finditer(r"(?:^|\s)(\d+)\. ", line)]
