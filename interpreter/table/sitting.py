"""The people and bots at a game: every decision so far (the game record's lines), undo by playing
the game again from its seed, a game resumed from its record, and what happened told as the game
goes. A front end (the terminal's `Table`) says how each of these reaches a person."""
from __future__ import annotations

from ..engine.game import Game
from ..session.playing import play
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
        self.log = None                    # the record written as the game goes (`RecordFile`), if any

    def tell(self) -> None:
        """Hand on what happened since the last time (the narrated log): the front end's to show."""
        self.teller.news()

    def may_undo(self, seat: int) -> bool:
        """Undo is for a person alone against bots, once they have decided something."""
        return len(self.humans) == 1 and any(d["seat"] == seat for d in self.decisions)

    def record(self, d, pick: int) -> str:
        """Note the decision taken; its option's label."""
        label = d.labels()[pick]
        entry = {"type": "decision", "n": len(self.decisions) + 1, "seat": d.seat, "rule": d.rule,
                 "loc": str(d.loc) if d.loc else None, "pick": pick, "label": label}
        self.decisions.append(entry)
        if self.log is not None:
            self.log.decision(entry)
        return label

    def undo(self, seat: int, guard) -> None:
        """Take back the seat's last decision: the game played again from its seed up to it."""
        last = max(i for i, d in enumerate(self.decisions) if d["seat"] == seat)
        self.rebuild([d["pick"] for d in self.decisions[:last]], guard)
        del self.decisions[last:]
        if self.log is not None:
            self.log.rewrite(self.decisions)

    def rebuild(self, picks: list[int], guard) -> None:
        """The game played again from its seed with these decisions, in place of the one here."""
        with guard():
            again = Game(self.game.plan, self.game.seed, trace=True)
            for pick in picks:
                again.choose(pick)
        self.game.__dict__.update(again.__dict__)
        self.teller.skip()

    def resume(self, recorded: list[dict], path, guard) -> None:
        """The game of a record: its decisions taken again from the seed, each checked as `replay`
        checks it (the option exists and is the one recorded); `RulesetError` where one is not."""
        from ..lang.diagnostics import Report
        from .replay import checked_pick

        report = Report()
        with guard():
            again = Game(self.game.plan, self.game.seed, trace=True)
            for n, d in enumerate(recorded, 1):
                again.choose(checked_pick(again, d, n, path, report))
        self.game.__dict__.update(again.__dict__)
        self.teller.skip()
        self.decisions = [dict(d) for d in recorded]

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
