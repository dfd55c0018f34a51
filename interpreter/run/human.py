"""A person at the terminal: sees what their seat may see, picks a numbered option."""
from __future__ import annotations

import re
import sys

from .view import render_view


# a number typed for an option: ASCII digits only (`²` is a digit to Python, not a number), and
# few enough of them that reading it costs nothing
_NUMBER = re.compile(r"[0-9]{1,9}")


class HumanAgent:
    name = "human"
    person = True  # its time is a person's: no budget on it

    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def choose(self, game, decision) -> int:
        self.say()
        self.say(render_view(game.view(decision.seat), game.plan))
        labels = decision.labels()
        self.say(f"\nSeat {decision.seat + 1}: {decision.prompt}")
        for i, label in enumerate(labels, 1):
            self.say(f"  {i}. {label}")
        while True:
            self.stdout.write(f"Choose 1-{len(labels)}: ")
            self.stdout.flush()
            try:
                line = self.stdin.readline()
            except UnicodeDecodeError:  # bytes that are not text: a wrong entry like any other
                line = "?\n"
            if not line:
                raise EOFError("no more input")
            pick = _pick(line.strip(), labels)
            if pick is not None:
                return pick
            self.say(_wrong(line.strip(), len(labels)))


def _pick(text: str, labels: list[str]) -> int | None:
    """The option typed: its number (ASCII digits, as many as a choice can have) or its label."""
    if _NUMBER.fullmatch(text) and 1 <= int(text) <= len(labels):
        return int(text) - 1
    matches = [i for i, label in enumerate(labels) if label.lower() == text.lower()]
    return matches[0] if len(matches) == 1 else None


def _wrong(text: str, n: int) -> str:
    ask = f"please type a number from 1 to {n} or an option's label"
    if not text:
        return f"  {ask}."
    shown = text if len(text) <= 40 else text[:37] + "..."
    return f"  `{shown}` is not one of the options: {ask}."
