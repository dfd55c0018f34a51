"""The one decision interface: every agent answers `choose(game, decision) -> option index`."""
from __future__ import annotations

import random


class RandomAgent:
    """Any legal option, uniformly; seeded, so a game with random seats replays exactly."""

    name = "random"
    blind = True  # needs to know only how many options there are

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(seed)

    def pick(self, count: int) -> int:
        return self.rng.randrange(count)

    def choose(self, game, decision) -> int:
        return self.rng.randrange(decision.count)
