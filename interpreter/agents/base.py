"""The one decision interface: every agent answers `choose(game, decision) -> option index`."""
from __future__ import annotations

import random
from typing import Callable


class RandomAgent:
    """Any legal option, uniformly; seeded, so a game with random seats replays exactly."""

    name = "random"
    blind = True  # needs to know only how many options there are

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(seed)
        # `pick(count)`: what `rng.randrange(count)` draws for a count of at least 1, without
        # its checks of the arguments (a pending decision has two options or more)
        self.pick: Callable[[int], int] = self.rng._randbelow  # type: ignore[attr-defined]

    def choose(self, game, decision) -> int:
        return self.rng.randrange(decision.count)
