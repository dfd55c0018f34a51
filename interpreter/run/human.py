"""A person at the terminal: sees what their seat may see, picks a numbered option."""
from __future__ import annotations

import sys

from .view import render_view


class HumanAgent:
    name = "human"

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
            line = self.stdin.readline()
            if not line:
                raise EOFError("no more input")
            text = line.strip()
            if text.isdigit() and 1 <= int(text) <= len(labels):
                return int(text) - 1
            matches = [i for i, label in enumerate(labels) if label.lower() == text.lower()]
            if len(matches) == 1:
                return matches[0]
            self.say(f"  `{text}` is not one of the options: type a number from 1 to {len(labels)}.")
