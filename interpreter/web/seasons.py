"""A season at a web table: the games of a season file played in turn at one table, driven by
`lab/series.py`'s `Series` (which game is next, its rules, what the game before hands on, the
standings). Each race is a table of its own (`Race`) whose game starts with what the race before
handed on; the people keep their links from race to race; every seat is told each race's result
and the standings, in the words `racecraft championship` prints.

Kept in the store as a table is: the season's setup and the hashes of its seats' tokens, and each
race as a table with its decisions. After a restart a season is rebuilt by playing its races
again from their decisions, in order: the finished ones to what they handed on, the one under way
to where it was.

While the season runs, a finished race discloses no more than a running table: its seed would give
away the next race's, and what a seat chose may be what it carries on."""
from __future__ import annotations

import json
import secrets
import threading
from typing import Sequence
import time

from ..lab.series import Series, champion_line, game_over_line, game_seed, seasons_of, standings_rows
from ..base.diagnostics import RulesetError
from ..base.errors import RuleError
from ..load.ruleset import find_game
from .bots import Bots
from .store import Store
from .games import first_problem
from .tables import (Changes, Refused, Setup, Table, person_tokens, seat_of, token_hash,
                     viewer_of,
                     watch_token)

# a season's games are compiled once per process (`Series.plan`), one at a time
_COMPILING = threading.RLock()


class Race(Table):
    """Race i of a season: a table whose game starts with what the race before handed on, whose
    seats and lock are the season's, and whose end moves the season on."""

    def __init__(self, season: Season, i: int, race_id: str, created: float):
        self.season, self.i = season, i
        series = season.series
        with _COMPILING:
            plan = series.plan(i)
            loaded = series.loaded(i)
        setup = Setup(series.game, list(series.seats), loaded.variants, loaded.modules, loaded.track,
                      game_seed(series.seed, i), chance=series.chance, seed_public=season.setup.seed_public,
                      names=season.setup.names,   # (one list: a name given shows in every game)
                      creator=season.setup.creator)
        super().__init__(race_id, setup, loaded, plan, season.token_hashes, season.store, season.bots,
                         created)
        self.lock = season.lock          # one lock and one version for the whole season
        self.changes = season.changes
        self.title = series.title(i)
        self.entry: dict = {}            # the race's entry in the series' `played`

    def new_game(self):
        return self.season.series.new_game(self.i, trace=True)

    def recipe(self) -> dict:
        return {**super().recipe(), "params": self.loaded.params,
                "carried": self.season.series.carried_before(self.i)}

    @property
    def disclosed(self) -> bool:
        return super().disclosed and self.season.state != "playing"

    def stored_setup(self) -> dict:
        return {**self.setup.as_dict(), "params": self.loaded.params, "digest": self.plan.digest}

    def rename(self, seat: int, name: str) -> None:
        self.season.rename(seat, name)   # (the season keeps the names of all its games)

    def _finish(self, store: bool) -> None:
        if self.result is None:
            super()._finish(store)
            self.season.race_over(self, store)

    def _stop(self, problem: str, store: bool) -> None:
        super()._stop(problem, store)
        if store:
            self.season.store.finish_season(self.season.id, "stopped", {"problem": problem})


class Season:
    """A season's races at one table: the race under way is the one every seat's link plays."""

    def __init__(self, season_id: str, setup: Setup, series: Series, token_hashes: list[str | None],
                 store: Store, bots: Bots, created: float):
        self.id = season_id
        self.setup = setup
        self.series = series
        self.token_hashes = token_hashes
        self.store = store
        self.bots = bots
        self.created = created
        self.lock = threading.RLock()
        self.changes = Changes()
        self.races: list[Race] = []
        self.said: list[str] = []      # the log up to the race under way: the races before, its title
        self.closing: list[str] = []   # the log after the last race ended: its result, the champion
        self.problem: str | None = None
        self.building = False          # rebuilt from the store: the races come from there

    # ---- creating and rebuilding ------------------------------------------------------------------

    @classmethod
    def create(cls, setup: Setup, store: Store, bots: Bots,
               open_seats: Sequence[int] = ()) -> tuple[Season, list[str | None]]:
        """A new season, stored, its first race begun; the token of each person's seat."""
        folder = find_game(setup.game)
        have = seasons_of(folder) if folder is not None else []
        if setup.season not in have:
            raise Refused(422, f"no season `{setup.season}` for this game" +
                          (f": its seasons are {', '.join(have)}" if have else ": it has none"))
        series = _series(setup, 422)
        try:
            with _COMPILING:
                players = series.loaded(0).ruleset.game.game.players
                if not players.min <= len(setup.seats) <= players.max:
                    raise Refused(422, f"{series.name} is for {players.min} to {players.max} players, "
                                       f"not {len(setup.seats) or 'none'}")
                for i in range(len(series.legs)):   # every game of the season loads, before any is played
                    series.plan(i)
        except RulesetError as e:
            raise Refused(422, first_problem(e)) from None
        except RuleError as e:
            raise Refused(422, f"the season cannot be played: {e}") from None
        tokens = person_tokens(setup, open_seats)
        hashes = [None if t is None else token_hash(t) for t in tokens]
        season = cls(secrets.token_urlsafe(9), setup, series, hashes, store, bots, time.time())
        store.add_season(season.id, setup.as_dict(), hashes)
        with season.lock:
            season.next_race(store=True)
        return season, tokens

    @classmethod
    def rebuilt(cls, row: dict, store: Store, bots: Bots) -> Season:
        """A stored season played again, race by race, from the decisions of each; the race under way
        goes on (its bots asked), or the next one begins if the server stopped between two."""
        s = row["setup"]
        setup = Setup(s["game"], s["seats"], s.get("variants", []), s.get("modules", []), None, s["seed"],
                      s["season"], s.get("chance"), s.get("seed_public", False), list(s.get("names") or []),
                      s.get("creator"))
        series = _series(setup, 410)
        series.chance = setup.chance   # (a season stored before seasons noted it draws as it did)
        season = cls(row["id"], setup, series, row["tokens"], store, bots, row["created"])
        live = row["state"] == "playing"
        with season.lock:
            season.building = True
            for race_row in store.races(season.id):
                race = season._again(race_row, live)
                if race is None or race.problem is not None:
                    break
            season.building = False
            if row["state"] == "stopped" and season.state != "stopped":
                season.problem = (row["result"] or {}).get("problem") or "the season stopped"
            if live and season.state == "playing" and (not season.races or season.current.game.over):
                season.next_race(store=True)
        if not season.races:
            raise Refused(410, f"this season cannot start any more: {season.problem}")
        return season

    def _again(self, row: dict, live: bool) -> Race | None:
        """A stored race played again from its decisions (while rebuilding)."""
        race = self._race(row["id"], row["created"])
        if race is None:
            return None
        race.restore(row, self.store.decisions(race.id))
        race._arrived(store=live and row["state"] == "playing")
        return race

    def _race(self, race_id: str, created: float) -> Race | None:
        """The next race of the series, its title in the log; None (the season stopped) when its rules
        cannot be played."""
        try:
            with _COMPILING:
                i, entry = self.series.next_game()
                race = Race(self, i, race_id, created)
        except (RuleError, RulesetError) as e:
            self.problem = f"game {len(self.races) + 1} cannot be played: " + \
                (first_problem(e) if isinstance(e, RulesetError) else str(e))
            return None
        race.entry = entry
        if self.races:
            self.said += self.current.narrated + self.closing
        self.closing = []
        self.said.append(race.title)
        self.races.append(race)
        return race

    # ---- the races in turn ------------------------------------------------------------------------

    def next_race(self, store: bool) -> None:
        """The next race: stored, then begun (its bots asked)."""
        race = self._race(secrets.token_urlsafe(9), time.time())
        if race is None:
            if store:
                self.store.finish_season(self.id, "stopped", {"problem": self.problem})
            return
        if store:
            self.store.add_race(self.id, race.i, race.id, race.stored_setup(), self.token_hashes)
        race._arrived(store)

    def race_over(self, race: Race, store: bool) -> None:
        """A race played to its end: noted in the series, told, and the next begun (or the champion
        told)."""
        race.entry["picks"] = race.game.in_turn()   # (a save takes them again seat by seat)
        self.series.finish(race.entry, race.game)
        self.closing = [game_over_line(self.series, race.i, self.setup.who)]
        if self.series.done:
            self.closing.append(champion_line(self.series, self.setup.who))
            if store:
                head, body = standings_rows(self.series, self.setup.who)
                self.store.finish_season(self.id, "finished", {
                    "champions": [s + 1 for s in self.series.champions()],
                    "standings": {"head": head, "rows": body}})
        elif not self.building:
            self.next_race(store)

    # ---- what a table is asked ----------------------------------------------------------------------

    @property
    def current(self) -> Race:
        """The race under way, or the last one."""
        return self.races[-1]

    @property
    def kinds(self) -> list[str]:
        return self.setup.seats

    @property
    def state(self) -> str:
        if self.problem is not None or (self.races and self.current.problem is not None):
            return "stopped"
        return "finished" if self.series.done else "playing"

    @property
    def disclosed(self) -> bool:
        """Everything of the season may be told to anybody: it is over."""
        return self.state != "playing"

    def seat_of(self, token: str | None) -> int:
        return seat_of(self.token_hashes, token)

    def watch_basis(self) -> object:
        return self.setup.creator or self.token_hashes

    def viewer_of(self, token: str | None) -> int | None:
        return viewer_of(self.id, self.watch_basis(), self.token_hashes, token)

    def watch_token(self) -> str:
        return watch_token(self.id, self.watch_basis())

    def race(self, race_id: str) -> Race:
        for race in self.races:
            if race.id == race_id:
                return race
        raise Refused(404, "no such table")

    def decide(self, seat: int, key, at: str | None = None) -> None:
        with self.lock:
            self._playing()
            self.current.decide(seat, key, at)

    def undo(self, seat: int, guard=None) -> None:
        with self.lock:
            self._playing()
            self.current.undo(seat)

    def rename(self, seat: int, name: str) -> None:
        with self.lock:
            self.setup.give_name(seat, name)
            self.store.set_setup("seasons", self.id, self.setup.as_dict())
            self.current.changes.bump()

    def _playing(self) -> None:
        if self.state != "playing":
            raise Refused(409, "the season is over" if self.state == "finished" else "the season has stopped")

    def told(self, seat: int | None, since: int = 0) -> dict:
        """What the seat is told of the race under way (`Table.told`), with the season's log (every
        race's, and each one's end) and where the season stands."""
        with self.lock:
            race = self.current
            told = race.told(seat, len(race.narrated))
            lines = self.said + race.narrated + self.closing
            since = max(0, min(since, len(lines)))
            told.update({"table": self.id, "state": self.state, "finished": self.state != "playing",
                         "problem": self.problem or race.problem, "season": self._summary(),
                         "log": lines[since:], "log_start": since, "log_end": len(lines)})
            return told

    def _summary(self) -> dict:
        series = self.series
        head, body = standings_rows(series, self.setup.who)
        over = [r for r in self.races if "result" in r.entry]
        return {"name": series.name, "season": self.setup.season, "race": self.current.i + 1,
                "races": len(series.legs), "title": self.current.title, "table": self.current.id,
                "results": [{"race": r.i + 1, "title": r.title, "table": r.id,
                             "said": game_over_line(series, r.i, self.setup.who)} for r in over],
                "standings": {"head": head, "rows": body},
                "champions": [s + 1 for s in series.champions()] if series.done else [],
                "said": champion_line(series, self.setup.who) if series.done else None}

    def picture(self, seat: int | None) -> str:
        return self.current.picture(seat)

    def record_text(self, seat: int | None) -> str:
        """The season's save, as `racecraft championship --save` writes it: given once the season is
        over (each race's own record is its table's)."""
        if not self.disclosed:
            raise Refused(409, "a season's record is given once the season is over; the record of each "
                               "race is its table's (`season.table`)")
        with self.lock:
            return json.dumps(self.series.to_json()) + "\n"

    def record_name(self) -> str:
        return f"{self.setup.game}-{self.setup.season}-{self.id}.json"


def _series(setup: Setup, status: int) -> Series:
    try:
        return Series.start(setup.game, str(setup.season), setup.seed, setup.seats, setup.variants,
                            setup.modules)
    except RulesetError as e:
        raise Refused(status, f"the season cannot be {'loaded' if status == 410 else 'played'}: "
                              f"{first_problem(e)}") from None
