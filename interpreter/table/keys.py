"""Options with keys that stay: an option keeps its number for as long as the same choice comes
back to the seat (while a decision is asked again, for each card of a step, from round to round);
and the option a person typed, by its key or its words."""
from __future__ import annotations

import re

# a number typed for an option: ASCII digits only (`²` is a digit to Python, not a number), and
# few enough of them that reading it costs nothing
_NUMBER = re.compile(r"[0-9]{1,9}")


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
