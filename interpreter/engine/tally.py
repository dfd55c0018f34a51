"""What the engine notes in a game when it is asked to (`Game(..., tally=...)`), for the
statistics a designer reads: how often each rule, named statement and option fired or was
chosen (an option with what it took: a card by its type, a piece, a seat, a number), which
options each seat chose, and each seat's progress (the game's `progress:`) once a round.

Counting costs nothing when not asked: the machine only tests `st.tally is not None` where a
rule starts, a named statement runs, a choice is taken and a round begins. A copy of the table
(a bot's look-ahead, a seat's secret commitment) never counts: what it chose counts when the
real table takes it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..lang.show import show
from ..lang.types import CARD
from .plan import Alternative, ChooseSpec

if TYPE_CHECKING:  # the state holds a tally: no import while running
    from .state import State


class Tally:
    """Each seat's progress round by round; counts nothing (see `Counting`)."""

    __slots__ = ("counts", "chosen", "progress")

    def __init__(self, n_seats: int):
        self.counts: dict[str, int] = {}
        # per seat: the options and cards it chose at least once (win rates when chosen)
        self.chosen: list[set[str]] = [set() for _ in range(n_seats)]
        # (rounds played, each seat's progress): after setup, after each round, at the end
        self.progress: list[tuple[int, list]] = []

    def count(self, name: str) -> None:
        pass

    def choice(self, st: State, spec: ChooseSpec, alt: Alternative, value: Any, env: dict[str, Any]) -> None:
        pass

    def sample(self, st: State) -> None:
        """Each seat's progress now (nothing when the game declares none)."""
        fn = st.plan.progress
        if fn is None:
            return
        steps = st.steps  # looking at the table counts no steps of the game (see game.reading)
        st.steps = 0
        try:
            values = [fn(st, {"seat": s}) for s in range(st.plan.n_seats)]
        finally:
            st.steps = steps
        done = st.g["__rounds"]
        if self.progress and self.progress[-1][0] == done:
            self.progress[-1] = (done, values)  # the same moment seen again: keep the latest
        else:
            self.progress.append((done, values))


class Counting(Tally):
    """Progress, and how often each rule, named statement, option and card fired or was chosen."""

    __slots__ = ()

    def count(self, name: str) -> None:
        counts = self.counts
        counts[name] = counts.get(name, 0) + 1

    def choice(self, st: State, spec: ChooseSpec, alt: Alternative, value: Any, env: dict[str, Any]) -> None:
        """A seat's option taken on the real table (`value`: what the option ranges over)."""
        seat = spec.seat(st, env)
        counts = self.counts
        key = alt.key
        counts[key] = counts.get(key, 0) + 1
        if seat is not None:
            self.chosen[seat].add(key)
        of = alt.of
        if of is not None and value is not None:  # and what it took
            plan = st.plan
            key = f"{key} > {_taken(plan, of, value)}"
            counts[key] = counts.get(key, 0) + 1
            if seat is not None:
                self.chosen[seat].add(key)


def _taken(plan: Any, of: Any, value: Any) -> str:
    """What an option took, as counted: a card by its name, as players read it, and by its type's
    id as well where another type has that name (a sprinter's `3` and a rouleur's `3`)."""
    said = show(plan, of, value)
    if of == CARD and plan.card_names.count(said) > 1:
        return f"{said} ({plan.card_types[plan.card_type[value]]})"
    return said
