"""A person at the terminal: sees what their seat may see, picks an option by its key or its words.

An option keeps its key (a number) for as long as the same choice comes back to the seat: while
a decision is asked again after a wrong entry, for each card of a step, and from round to round
(`Keys`). Typing an option's words works too: all of them, or the start of them when only one
option starts so. With bots only, `u` takes back the seat's own last decision (`Undo`).
"""
from __future__ import annotations

import re
import sys

from .screen import Terminal

# a number typed for an option: ASCII digits only (`²` is a digit to Python, not a number), and
# few enough of them that reading it costs nothing
_NUMBER = re.compile(r"[0-9]{1,9}")
UNDO_WORDS = ("u", "undo")


class Undo(Exception):
    """The person takes back their own last decision."""

    def __init__(self, seat: int):
        super().__init__(f"seat {seat + 1} takes back its last decision")
        self.seat = seat


class Keys:
    """The key of each option, by the choice it belongs to (seat and rule): an option offered
    again keeps its number; a new one takes the smallest number no option shown now holds."""

    def __init__(self):
        self.known: dict[tuple, dict[str, int]] = {}

    def assign(self, seat, rule: str, labels: list[str]) -> list[int]:
        memory = self.known.setdefault((seat, rule), {})
        keys: list[int | None] = [None] * len(labels)
        taken: set[int] = set()
        for i, label in enumerate(labels):
            k = memory.get(label)
            if k is not None and k not in taken:
                keys[i] = k
                taken.add(k)
        free = (k for k in range(1, len(labels) + len(taken) + 2) if k not in taken)
        for i in range(len(labels)):
            if keys[i] is None:
                keys[i] = next(free)
        fixed = [k for k in keys if k is not None]
        # a number freed by an option no longer offered may go to another label later
        for label, k in list(memory.items()):
            if k in fixed and label not in labels:
                del memory[label]
        for label, k in zip(labels, fixed):
            memory[label] = k
        return fixed


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
            from .table import show_screen

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


def pick_option(text: str, labels: list[str], keys: list[int]) -> int | None:
    """The option typed: its key, all its words, or the start of the words of only one option."""
    if _NUMBER.fullmatch(text):
        return keys.index(int(text)) if int(text) in keys else None
    want = " ".join(text.lower().split())
    if not want:
        return None
    exact = [i for i, label in enumerate(labels) if label.lower() == want]
    if len(exact) == 1:
        return exact[0]
    starts = [i for i, label in enumerate(labels) if label.lower().startswith(want)]
    return starts[0] if len(starts) == 1 else None


def _wrong(text: str, keys: list[int]) -> str:
    span = f"{min(keys)} to {max(keys)}" if len(keys) > 1 else str(keys[0])
    ask = f"please type an option's number ({span}) or its words"
    if not text:
        return f"  {ask}."
    shown = text if len(text) <= 40 else text[:37] + "..."
    return f"  `{shown}` is not one of the options: {ask}."
