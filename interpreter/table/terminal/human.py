"""A person at the terminal: sees what their seat may see, picks an option by its key or its words.

An option keeps its key (a number) for as long as the same choice comes back to the seat: while
a decision is asked again after a wrong entry, for each card of a step, and from round to round
(`table/keys.py`). Typing an option's words works too: all of them, or the start of them when only one
option starts so. With bots only, `u` takes back the seat's own last decision (`Undo`).
"""
from __future__ import annotations

import sys

from ..keys import Keys, pick_option
from ..sitting import Undo
from .decision import show_screen
from .screen import Terminal

UNDO_WORDS = ("u", "undo")


class HumanAgent:
    name = "human"
    person = True  # its time is a person's: no budget on it

    def __init__(self, stdin=None, stdout=None, table=None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.table = table                  # the `Table` this seat plays at (screens, log, undo)
        self.keys = Keys()
        self.term = table.term if table is not None else Terminal(self.stdout)

    def say(self, text: str = "") -> None:
        self.term.line(text)

    def choose(self, game, decision) -> int:
        table = self.table
        if table is not None:
            table.before_screen(decision.seat)
        labels = decision.labels()
        keys = self.keys.assign(decision.seat, decision.rule, labels)
        if table is not None:
            table.show_screen(game, decision, labels, keys)
        else:  # a person without a table (a season's games): the same screen
            show_screen(self.term, game, decision, labels, keys)
        can_undo = table is not None and table.may_undo(decision.seat)
        ask = _ask(keys, can_undo)
        while True:
            self.term.prompt(ask)
            try:
                line = self.stdin.readline()
            except UnicodeDecodeError:  # bytes that are not text: a wrong entry like any other
                line = "?\n"
            if not line:
                raise EOFError("no more input")
            if not _is_tty(self.stdin):  # typed from a file or a pipe: shown as if typed here
                typed = line.rstrip("\n")
                self.term.line(typed if len(typed) <= 40 else typed[:37] + "...")
            text = line.strip()
            pick = pick_option(text, labels, keys)
            if pick is not None:
                return pick
            if can_undo and text.lower() in UNDO_WORDS:
                raise Undo(decision.seat)
            self.say(_wrong(text, keys))


def _is_tty(stream) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(callable(isatty) and isatty())


def _ask(keys: list[int], can_undo: bool) -> str:
    span = f"{min(keys)}-{max(keys)}" if len(keys) > 1 else str(keys[0])
    return f"Choose {span}, or type an option's words{' (u: undo)' if can_undo else ''}: "


def _wrong(text: str, keys: list[int]) -> str:
    span = f"{min(keys)} to {max(keys)}" if len(keys) > 1 else str(keys[0])
    ask = f"please type an option's number ({span}) or its words"
    if not text:
        return f"  {ask}."
    shown = text if len(text) <= 40 else text[:37] + "..."
    return f"  `{shown}` is not one of the options: {ask}."
