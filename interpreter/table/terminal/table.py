"""A game played at the terminal (`racecraft play`): the narrated log as the game goes, each
person's screen (`decision.py`), a "pass to seat N" screen between two people at one keyboard,
undo against bots, and a game resumed from its record (`table/sitting.py`)."""
from __future__ import annotations

from ...engine.game import Game
from ..sitting import Sitting
from .decision import show_screen
from .screen import Terminal


class Table(Sitting):
    def __init__(self, game: Game, kinds: list[str], term: Terminal, stdin, verbose: bool = False):
        super().__init__(game, kinds)
        self.term = term
        self.stdin = stdin
        self.verbose = verbose
        self.shown_to: int | None = None   # the seat whose screen was shown last (hot-seat)
        if game.plan.colours:
            term.set_colours(game.plan.colours)

    def tell(self) -> None:
        """Print what happened since the last time (the narrated log)."""
        for text in self.teller.news():
            self.term.line(text, "heading" if not text.startswith(" ") else None)

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

    def record(self, d, pick: int) -> str:
        label = super().record(d, pick)
        if self.verbose and self.kinds[d.seat] != "human":
            # a secret choice made at the same time as a person's stays hidden from them
            if not (d.simultaneous and self.humans):
                self.term.line(f"    seat {d.seat + 1} ({self.kinds[d.seat]}) chose: {label}")
        return label

    def undo(self, seat: int, guard) -> None:
        super().undo(seat, guard)
        self.term.line(f"(seat {seat + 1} takes back its last decision)")
