"""Option keys and the option typed.

A key is a letter (`a`, `b`, ...), never a number: a game's options name numbers of their own (a
card `3`, a level 2, square B3), and a key that could be read as one picks the wrong option. The
letters go to the options in the order they are shown; an option keeps its letter while the same
choice comes back at once with nothing new among its options (the second card of a step, the next
card discarded), so that a letter typed from memory still means what it meant. A choice that comes
back after other decisions (the next round's), or offers an option not seen last time, is lettered
afresh, in order, from `a`.

Typing works with words too: an option's key, all its words, or words that fit only one option
(the start of its words, or words standing whole in it: `3` for `play 3`, `purple`). Words that fit
several options name them, so that the person can pick among them. A single letter is a key or
nothing: never the start of an option's words."""
from __future__ import annotations

import re

# `u` is left out: it takes back a decision
LETTERS = "abcdefghijklmnopqrstvwxyz"


def letters(n: int) -> list[str]:
    """The first n keys: single letters, then pairs (`aa`, `ab`, ...) for a choice of many options."""
    out = list(LETTERS[:n])
    for first in LETTERS:
        for second in LETTERS:
            if len(out) >= n:
                return out
            out.append(first + second)
    return out


class Keys:
    """The key of each option, by the choice it belongs to (seat and rule)."""

    def __init__(self):
        # by choice: the number of the decision it was last asked at, and its keys then
        self.known: dict[tuple, tuple[int, dict[tuple[str, int], str]]] = {}

    def assign(self, seat, rule: str, labels: list[str], at: int) -> list[str]:
        """The keys of these options (`labels` in the order they are shown), asked as the game's
        decision number `at` (how many were taken before it): the same choice asked at the decision
        before (or at this one again) keeps its keys."""
        named = _numbered(labels)
        was, last = self.known.get((seat, rule), (-2, {}))
        if at - was in (0, 1) and all(n in last for n in named):
            keys = [last[n] for n in named]
        else:
            keys = letters(len(labels))
        self.known[(seat, rule)] = (at, dict(zip(named, keys)))
        return keys


def _numbered(labels: list[str]) -> list[tuple[str, int]]:
    """Each label with how many alike came before it (two options may read the same)."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        out.append((label, seen.get(label, 0)))
        seen[label] = seen.get(label, 0) + 1
    return out


def _words(text: str) -> str:
    return " ".join(text.lower().split())


def typed(text: str, keys: list[str], labels: list[str]) -> list[int]:
    """The options (their places in `labels`) that what a person typed names: its key; else the
    first option whose words are all of it; else every option whose words start with it or hold it
    as whole words. One option: that one; several: the person chooses among them; none: not one."""
    want = _words(text)
    if not want:
        return []
    if want in keys:
        return [keys.index(want)]
    exact = [i for i, label in enumerate(labels) if _words(label) == want]
    if exact:
        return exact[:1]
    if len(want) == 1 and want.isalpha():
        # a letter that is no key here (one of the last screen's, typed by habit): never the start
        # of an option's words (`d` took "discard ..." when the keys were b and c)
        return []
    whole = re.compile(rf"(?<!\w){re.escape(want)}(?!\w)")
    return [i for i, label in enumerate(labels)
            if _words(label).startswith(want) or whole.search(_words(label))]
