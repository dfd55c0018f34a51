"""A game played at the terminal (`racecraft play`): the narrated log as the game goes, each
person's screen (the table as their seat sees it, then the options with their keys and what each
would do), a "pass to seat N" screen between two people at one keyboard, undo against bots, and a
game resumed from its record."""
from __future__ import annotations

from ...engine.game import Game
from ...lang.errors import RuleError
from .human import HumanAgent, Undo
from ..narrate import Teller, lines as log_lines
from ..preview import previews
from .screen import Terminal
from ...session.record import play
from ...draw.text import Extra
from .view import OwnPile, PileLine, SeatLine, screen

SCREEN_ROWS = 24      # a screen fits a terminal of 80 columns and 24 rows
COLUMNS = 80


class Table:
    def __init__(self, game: Game, kinds: list[str], term: Terminal, stdin, verbose: bool = False):
        self.game = game
        self.kinds = kinds
        self.term = term
        self.stdin = stdin
        self.verbose = verbose
        self.teller = Teller(game)
        self.humans = [s for s, k in enumerate(kinds) if k == "human"]
        self.shown_to: int | None = None   # the seat whose screen was shown last (hot-seat)
        self.decisions: list[dict] = []    # every decision so far: the game record's lines
        if game.plan.colours:
            term.set_colours(game.plan.colours)

    # ---- the log ---------------------------------------------------------------------------------

    def tell(self) -> None:
        """Print what happened since the last time (the narrated log)."""
        for text in self.teller.news():
            self.term.line(text, "heading" if not text.startswith(" ") else None)

    # ---- a person's screen -----------------------------------------------------------------------

    def before_screen(self, seat: int) -> None:
        """Before a person's screen: at a table of several people, the last one's hand is hidden and
        the keyboard passed; then what happened since is told."""
        if len(self.humans) > 1 and self.shown_to is not None and seat != self.shown_to:
            self.term.clear()
            self.term.line(f"Pass to seat {seat + 1}: press Enter when seat {seat + 1} is ready.", "pass")
            if not self.stdin.readline():
                raise EOFError("no more input")
            self.term.clear()
        self.shown_to = seat
        self.tell()

    def show_screen(self, game: Game, decision, labels: list[str], keys: list[int]) -> None:
        show_screen(self.term, game, decision, labels, keys)

    def may_undo(self, seat: int) -> bool:
        """Undo is for a person alone against bots, once they have decided something."""
        return len(self.humans) == 1 and any(d["seat"] == seat for d in self.decisions)

    # ---- the game --------------------------------------------------------------------------------

    def record(self, d, pick: int) -> None:
        label = d.labels()[pick]
        self.decisions.append({"type": "decision", "n": len(self.decisions) + 1, "seat": d.seat,
                               "rule": d.rule, "loc": str(d.loc) if d.loc else None, "pick": pick,
                               "label": label})
        if self.verbose and self.kinds[d.seat] != "human":
            # a secret choice made at the same time as a person's stays hidden from them
            if not (d.simultaneous and self.humans):
                self.term.line(f"    seat {d.seat + 1} ({self.kinds[d.seat]}) chose: {label}")

    def undo(self, seat: int, guard) -> None:
        """Take back the seat's last decision: the game played again from its seed up to it."""
        last = max(i for i, d in enumerate(self.decisions) if d["seat"] == seat)
        self.rebuild([d["pick"] for d in self.decisions[:last]], guard)
        del self.decisions[last:]
        self.term.line(f"(seat {seat + 1} takes back its last decision)")

    def rebuild(self, picks: list[int], guard) -> None:
        """The game played again from its seed with these decisions, in place of the one here."""
        with guard():
            again = Game(self.game.plan, self.game.seed, trace=True)
            for pick in picks:
                again.choose(pick)
        self.game.__dict__.update(again.__dict__)
        self.teller.skip()

    def run(self, agents, guard) -> dict:
        """Play to the end; undo is answered by playing the game again up to the seat's decision."""
        table = self

        class Telling:
            """A bot that first lets the table tell what happened."""

            def __init__(self, agent):
                self.agent, self.name = agent, agent.name
                self.person = getattr(agent, "person", False)

            def choose(self, game, decision) -> int:
                if not self.person:
                    table.tell()
                return self.agent.choose(game, decision)

        seats = [Telling(a) for a in agents]
        while True:
            try:
                result = play(self.game, seats, self.record, guard=guard)
                self.tell()
                return result
            except Undo as u:
                self.undo(u.seat, guard)


def show_screen(term: Terminal, game: Game, decision, labels: list[str], keys: list[int]) -> None:
    """A person's screen: the table as their seat sees it, the prompt, the options by key with what
    each would do; within 80 columns and 24 rows."""
    try:
        effects = previews(game, decision)
    except RuleError:
        effects = [""] * len(labels)
    options = _options(labels, keys, effects)
    ask = wrapped([f"Seat {decision.seat + 1}: {decision.prompt}"])
    shown = fit(screen(game.view(decision.seat), game.plan), labels, len(ask) + 1 + len(options))
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


def _options(labels: list[str], keys: list[int], effects: list[str]):
    """The options' lines, by key: `  3. play red  → lap 2, passes blue`; many short options
    without effects side by side."""
    order = sorted(range(len(labels)), key=lambda i: keys[i])
    width = max(len(str(k)) for k in keys)
    items = [(f"{keys[i]:>{width}}. {labels[i]}", effects[i]) for i in order]
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
    import re

    return [(m.start(1), m.end(1), "key") for m in re.finditer(r"(?:^|\s)(\d+)\. ", line)]


def log_of(game: Game) -> list[str]:
    """The whole narrated log of a game played with its trace on."""
    return log_lines(game.st.trace or [])


def make_human(table: Table, stdin, stdout):
    return HumanAgent(stdin, stdout, table)
