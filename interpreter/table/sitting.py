"""The people and bots at a game: every decision so far (the game record's lines), each decision as
a person is asked it (`ask.py`, with keys that stay: `keys.py`), each written down as it is taken
(`log`), undo by playing the game again from its start, a game resumed from its record, and what
happened told as the game goes. A front end (the terminal's `Table`) says how each of these reaches
a person.

Undo puts the bots back as they were at the decision taken back (each bot's state is kept at every
person's decision): the game then goes on as it would have gone had the person chosen otherwise,
so that a game whose record is played again with the same bots (a season resumed) ends the same."""
from __future__ import annotations

import contextlib
import copy
from typing import Callable, Protocol

from ..engine.game import Game
from ..base.errors import RuleError
from ..session.playing import play
from .ask import Asked, asked, lettered
from .keys import Keys
from .narrate import Teller


class Log(Protocol):
    """Where a sitting's decisions are written as they are taken: a game record (`RecordFile`), a
    season's save (`lab/terminal.py`'s `RaceLog`)."""

    def decision(self, entry: dict) -> None:
        """A decision taken (a record's `decision` line)."""

    def rewrite(self, decisions: list[dict]) -> None:
        """The decisions so far, in place of those written (an undo took some back)."""


class Undo(Exception):
    """A person takes back their own last decision."""

    def __init__(self, seat: int):
        super().__init__(f"seat {seat + 1} takes back its last decision")
        self.seat = seat


class Sitting:
    """Who sits where at one game (people and bots) and what they may do: decide, undo (alone
    against bots), be asked again; the terminal and the web table both sit people through it."""
    def __init__(self, game: Game, kinds: list[str], fresh: Callable[[], Game] | None = None):
        """`fresh()`: the same game again from its start (by default from its rules and seed; a game
        of a series starts with what the one before handed on)."""
        self.game = game
        self.kinds = kinds
        self.fresh = fresh or (lambda: Game(game.plan, game.seed, trace=True, streams=game.st.streams))
        self.teller = Teller(game)
        self.humans = [s for s, k in enumerate(kinds) if k == "human"]
        self.decisions: list[dict] = []    # every decision so far: the game record's lines
        self.keys = Keys()                 # the people's option keys, by choice
        self.bots_at: dict[int, list] = {}  # decision number -> the bots as they were then (undo)
        self.again: list[int] = []         # the picks of the record being taken again (`run`)
        self.log: Log | None = None        # where each decision is written as it is taken, if anywhere
        self.undo_allowed = True           # `play --no-undo`: a playtest where nothing is taken back

    def ask(self, decision) -> Asked:
        """The decision as its seat (a person's) is asked it."""
        return asked(self.game, decision, self.keys, self.may_undo(decision.seat))

    def tell(self) -> None:
        """Hand on what happened since the last time (the narrated log): the front end's to show."""
        self.teller.news()

    def resumed(self, n: int) -> None:
        """The game goes on after n decisions taken again from its record: the front end's to say."""

    def thinking(self, seat: int, agent):
        """Around the choice of a bot that takes its time (`agent.thinks`, the search bot: its
        `played` says how many games it has played forward): the front end shows it thinking."""
        return contextlib.nullcontext()

    def may_undo(self, seat: int) -> bool:
        """Undo is for a person alone against bots, once they have decided something."""
        return self.undo_allowed and len(self.humans) == 1 and any(d["seat"] == seat for d in self.decisions)

    @property
    def picks(self) -> list[int]:
        """The picks of the game so far, and those of its record not taken again yet (a game
        stopped while its record is taken again keeps the whole record)."""
        taken = [d["pick"] for d in self.decisions]
        return taken + self.again[len(taken):]

    def record(self, d, pick: int) -> str:
        """Note the decision taken; its option's label."""
        label = d.labels()[pick]
        entry = {"type": "decision", "n": len(self.decisions) + 1, "seat": d.seat, "rule": d.rule,
                 "loc": str(d.loc) if d.loc else None, "pick": pick, "label": label}
        self.decisions.append(entry)
        if self.log is not None and len(self.decisions) > len(self.again):  # (one taken again is there)
            self.log.decision(entry)
        return label

    def undo(self, seat: int, guard) -> int:
        """Take back the seat's last decision: the game played again from its start up to it.
        Returns the number of decisions kept."""
        last = max(i for i, d in enumerate(self.decisions) if d["seat"] == seat)
        self.rebuild(self.decisions[:last], guard)
        del self.decisions[last:]
        if self.log is not None:
            self.log.rewrite(self.decisions)
        return last

    def rebuild(self, decisions: list[dict], guard) -> None:
        """The game played again from its start with these decisions (a record's lines: each its
        seat and pick), in place of the one here."""
        self._again_from_start(decisions, lambda game, n: decisions[n - 1]["pick"], guard)

    def _again_from_start(self, decisions: list[dict], pick_at: Callable[[Game, int], int], guard) -> None:
        """The game played again from its start, decision n (1-based) of `decisions` taken as
        `pick_at(game, n)` says by the seat it names, in place of the one here; the people's keys
        as they saw them then."""
        from .replay import recorded_seat

        self.keys = Keys()
        with guard():
            again = self.fresh()
            for n in range(1, len(decisions) + 1):
                pick = pick_at(again, n)
                seat = recorded_seat(again, decisions[n - 1])
                d = again.decision(seat)
                if d is not None and d.seat is not None and self.kinds[d.seat] == "human":
                    lettered(d, again.plan, self.keys, len(again.answers))
                again.choose(pick, seat)
        self.game.__dict__.update(again.__dict__)
        self.teller.skip()

    def resume(self, recorded: list[dict], path, guard) -> None:
        """The game of a record: its decisions taken again from the start, each checked as `replay`
        checks it (the option exists and is the one recorded); `RulesetError` where one is not."""
        from ..base.diagnostics import Report
        from .replay import checked_pick

        report = Report()
        self._again_from_start(recorded, lambda game, n: checked_pick(game, recorded[n - 1], n, path, report),
                               guard)
        self.decisions = [dict(d) for d in recorded]

    def run(self, agents, guard, recorded: list[int] | None = None) -> dict:
        """Play to the end; undo is answered by playing the game again up to the seat's decision.
        `recorded`: the picks of a game resumed, taken again first, in silence: a person's as
        recorded, each bot asked again and held to what it chose (a bot plays the same game the
        same way); then the game goes on as usual."""
        sitting = self
        again = self.again = list(recorded or [])
        keep = len(self.humans) == 1   # undo is possible: the bots are kept at each person's decision

        class Seat:
            """An agent at this table: a bot first lets the table tell what happened."""

            def __init__(self, agent):
                self.agent, self.name = agent, getattr(agent, "name", "")
                self.person = getattr(agent, "person", False)

            def choose(self, game, decision) -> int:
                k = len(sitting.decisions)
                if self.person and keep:
                    sitting.bots_at[k] = [None if s.person else copy.deepcopy(s.agent) for s in seats]
                if k < len(again):
                    return sitting._again(self, game, decision, again[k])
                if k == len(again) > 0:
                    sitting.teller.skip()  # the decisions taken again are not told again
                    sitting.resumed(k)
                    again.clear()
                if self.person:
                    return self.agent.choose(game, decision)
                sitting.tell()
                if not getattr(self.agent, "thinks", False):
                    return self.agent.choose(game, decision)
                with sitting.thinking(decision.seat, self.agent):
                    return self.agent.choose(game, decision)

        seats = [Seat(a) for a in agents]
        while True:
            try:
                result = play(self.game, seats, self.record, guard=guard)
                self.tell()
                return result
            except Undo as u:
                kept = self.undo(u.seat, guard)
                for s, bot in zip(seats, self.bots_at.get(kept, [])):  # (none kept before a game
                    if bot is not None:                                  # resumed by `resume`)
                        s.agent = copy.deepcopy(bot)
                again.clear()

    def _again(self, seat, game, decision, pick: int) -> int:
        """A decision of the record taken again: a person's as recorded, a bot's asked again."""
        if seat.person:
            lettered(decision, game.plan, self.keys, len(game.answers))  # as the person saw them then
            return pick
        chosen = seat.agent.choose(game, decision)
        if chosen != pick:
            raise RuleError(f"decision {len(self.decisions) + 1}: the bot of seat {decision.seat + 1} "
                            "chose differently than when the game was recorded")
        return pick
