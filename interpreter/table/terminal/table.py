"""A game played at the terminal (`racecraft play`): the narrated log as the game goes, each
person's screen (`decision.py`), a "pass to seat N" screen between two people at one keyboard,
undo against bots, and a game resumed from its record (`table/sitting.py`)."""
from __future__ import annotations

from ...engine.game import Game
from ..ask import Asked
from ..sitting import Sitting
from .decision import show_screen
from .screen import Terminal


class Table(Sitting):
    def __init__(self, game: Game, kinds: list[str], term: Terminal, stdin, verbose: bool = False,
                 fresh=None):
        super().__init__(game, kinds, fresh)
        self.term = term
        self.stdin = stdin
        self.verbose = verbose
        self.shown_to: int | None = None   # the seat whose screen was shown last (hot-seat)
        # a game resumed at a table of several people: whoever sits at the keyboard now, the first
        # screen waits for its seat behind a pass screen too
        self.pass_first = False
        self.thought: int | None = None    # the seat said to be thinking, since the log last said anything
        if game.plan.colours:
            term.set_colours(game.plan.colours)

    def tell(self) -> None:
        """Print what happened since the last time (the narrated log)."""
        for text in self.teller.news():
            self.term.line(text, "heading" if not text.startswith(" ") else None)
            self.thought = None

    def before_screen(self, seat: int) -> None:
        """Before a person's screen: at a table of several people, the last one's hand is hidden and
        the keyboard passed; then what happened since is told."""
        handed = self.pass_first or (self.shown_to is not None and seat != self.shown_to)
        if len(self.humans) > 1 and handed:
            self.term.clear()
            self.term.line(f"Pass to seat {seat + 1}: press Enter when seat {seat + 1} is ready.", "pass")
            if not self.stdin.readline():
                raise EOFError("no more input")
            self.term.clear()
        self.shown_to, self.pass_first = seat, False
        self.tell()

    def show_screen(self, game: Game, a: Asked) -> None:
        show_screen(self.term, game, a)

    def record(self, d, pick: int) -> str:
        label = super().record(d, pick)
        # a game of bots only: at a table with a person, a bot's choice may be what the person may
        # not know (a power card kept face down, a sealed bid): the narrated log tells what they may
        if self.verbose and not self.humans:
            self.term.line(f"    seat {d.seat + 1} ({self.kinds[d.seat]}) chose: {label}")
        return label

    def undo(self, seat: int, guard) -> int:
        kept = super().undo(seat, guard)
        self.term.line(f"(seat {seat + 1} takes back its last decision)")
        return kept

    def resumed(self, n: int) -> None:
        self.term.line(f"resumed after {n} decisions")
        self.pass_first = True

    def thinking(self, seat: int, agent):
        """A spinner on a terminal, with the games played forward so far; where the output is not
        a terminal, a line when a person waits at the table."""
        who = f"seat {seat + 1} ({self.kinds[seat]})"
        if self.term.console is not None:
            return self.term.status(lambda: f"{who} is thinking… {getattr(agent, 'played', 0)} games "
                                            "played forward")
        if self.humans and self.thought != seat:  # once for a seat's decisions in a row
            self.term.line(f"  {who} is thinking…", "hidden")
            self.thought = seat
        return super().thinking(seat, agent)
