"""The people and bots at a game: every decision so far (the game record's lines), each decision as
a person is asked it (`ask.py`, with keys that stay: `keys.py`), undo by playing the game again
from its seed, a game resumed from its record, and what happened told as the game goes. A front end
(the terminal's `Table`) says how each of these reaches a person."""
from __future__ import annotations

from ..engine.game import Game
from ..session.playing import play
from .ask import Asked, asked, lettered
from .keys import Keys
from .narrate import Teller


class Undo(Exception):
    """A person takes back their own last decision."""

    def __init__(self, seat: int):
        super().__init__(f"seat {seat + 1} takes back its last decision")
        self.seat = seat


class Sitting:
    def __init__(self, game: Game, kinds: list[str]):
        self.game = game
        self.kinds = kinds
        self.teller = Teller(game)
        self.humans = [s for s, k in enumerate(kinds) if k == "human"]
        self.decisions: list[dict] = []    # every decision so far: the game record's lines
        self.keys = Keys()                 # the people's option keys, by choice

    def ask(self, decision) -> Asked:
        """The decision as its seat (a person's) is asked it."""
        return asked(self.game, decision, self.keys, self.may_undo(decision.seat))

    def tell(self) -> None:
        """Hand on what happened since the last time (the narrated log): the front end's to show."""
        self.teller.news()

    def may_undo(self, seat: int) -> bool:
        """Undo is for a person alone against bots, once they have decided something."""
        return len(self.humans) == 1 and any(d["seat"] == seat for d in self.decisions)

    def record(self, d, pick: int) -> str:
        """Note the decision taken; its option's label."""
        label = d.labels()[pick]
        self.decisions.append({"type": "decision", "n": len(self.decisions) + 1, "seat": d.seat,
                               "rule": d.rule, "loc": str(d.loc) if d.loc else None, "pick": pick,
                               "label": label})
        return label

    def undo(self, seat: int, guard) -> None:
        """Take back the seat's last decision: the game played again from its seed up to it."""
        last = max(i for i, d in enumerate(self.decisions) if d["seat"] == seat)
        self.rebuild([d["pick"] for d in self.decisions[:last]], guard)
        del self.decisions[last:]

    def rebuild(self, picks: list[int], guard) -> None:
        """The game played again from its seed with these decisions, in place of the one here."""
        self.keys = Keys()
        with guard():
            again = Game(self.game.plan, self.game.seed, trace=True)
            for pick in picks:
                d = again.decision()
                if d is not None and d.seat is not None and self.kinds[d.seat] == "human":
                    lettered(d, again.plan, self.keys)  # the keys as the person saw them then
                again.choose(pick)
        self.game.__dict__.update(again.__dict__)
        self.teller.skip()

    def run(self, agents, guard) -> dict:
        """Play to the end; undo is answered by playing the game again up to the seat's decision."""
        sitting = self

        class Telling:
            """A bot that first lets the table tell what happened."""

            def __init__(self, agent):
                self.agent, self.name = agent, agent.name
                self.person = getattr(agent, "person", False)

            def choose(self, game, decision) -> int:
                if not self.person:
                    sitting.tell()
                return self.agent.choose(game, decision)

        seats = [Telling(a) for a in agents]
        while True:
            try:
                result = play(self.game, seats, self.record, guard=guard)
                self.tell()
                return result
            except Undo as u:
                self.undo(u.seat, guard)
