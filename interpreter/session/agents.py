"""The agents for a game's seats: bots by their names, seeded from the game's seed; a person
where the command seats one."""
from __future__ import annotations

from ..agents.kinds import BOTS


def agent_seed(seed: int, seat: int) -> str:
    return f"{seed}/{seat}"


def make_agents(kinds: list[str], seed: int, human_factory=None):
    """An agent for each seat: `human_factory()` where a person sits (the front end they sit at
    makes them), a seeded bot elsewhere."""
    agents = []
    for seat, kind in enumerate(kinds):
        if kind == "human" and human_factory is not None:
            agents.append(human_factory())
        elif kind in BOTS:
            agents.append(BOTS[kind](agent_seed(seed, seat)))
        else:
            raise ValueError(kind)
    return agents
