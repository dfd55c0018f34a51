"""Every table and season of a server: created, found by id, rebuilt from the store at start (and
when one forgotten in memory is asked for), listed for the lobby.

A season answers what a table is asked (`seasons.Season`: a seat's view, its decision, undo, its
picture, its record); its races are tables too, each found by its own id."""
from __future__ import annotations

import secrets
import threading
from typing import Sequence
import time
from collections import deque
from dataclasses import dataclass

from ..base.errors import RuleError
from .bots import Bots
from .seasons import Season
from .store import Store
from .tables import Plans, Refused, Setup, Table, person_tokens, token_hash

# Finished tables kept in memory (the oldest are forgotten, and built again from the store if asked for)
KEPT_FINISHED = 200


@dataclass
class Limits:
    """What lets a server be left running for a group (`racecraft serve` sets each)."""
    max_open: int = 500           # tables (and seasons) in play at once: past it, 429
    per_minute: int = 30          # tables or replays one client may open in a minute: past it, 429
    archive_after: float = 30 * 86400   # seconds untouched after which an unfinished table is archived


class Rate:
    """How many things each client opened in the last minute."""

    def __init__(self, per_minute: int):
        self.per_minute = per_minute
        self.lock = threading.Lock()
        self.times: dict[str, deque[float]] = {}

    def give_back(self, client: str) -> None:
        """What `take` counted was not opened after all (refused for another reason)."""
        with self.lock:
            times = self.times.get(client)
            if times:
                times.pop()

    def take(self, client: str, what: str) -> None:
        now = time.monotonic()
        with self.lock:
            times = self.times.setdefault(client, deque())
            while times and times[0] <= now - 60:
                times.popleft()
            if len(times) >= self.per_minute:
                wait = int(times[0] + 60 - now) + 1
                raise Refused(429, f"{len(times)} {what} opened from your address in the last minute, this "
                                   f"server's most: try again in {wait} seconds")
            times.append(now)
            if len(self.times) > 10_000:   # (clients not seen for a minute are forgotten)
                for key in [k for k, v in self.times.items() if not v or v[-1] <= now - 60]:
                    del self.times[key]


class Tables:
    """Every table and season the server holds: created (within its limits), found by id, rebuilt
    from the store after a restart, archived when untouched, listed a page at a time."""
    def __init__(self, store: Store, bots: Bots, limits: Limits | None = None):
        self.store = store
        self.bots = bots
        self.limits = limits or Limits()
        self.rate = Rate(self.limits.per_minute)
        self.plans = Plans()
        self.lock = threading.Lock()
        self.live: dict[str, Table | Season] = {}

    def create(self, setup: Setup, open_seats: Sequence[int] = ()) -> tuple[Table | Season, list[str | None]]:
        """A new table (a season, when the setup names one); the token of each person's seat (None
        for a bot's, and for a person's seat left open: `seats.join` gives it to whoever takes it)."""
        with self.lock:
            playing = sum(1 for t in self.live.values() if t.state == "playing")
        if playing >= self.limits.max_open:
            raise Refused(429, f"this server has {playing} tables in play, its most: finish one, or "
                               "try again later")
        if setup.season is not None:
            season, tokens = Season.create(setup, self.store, self.bots, open_seats)
            with self.lock:
                self.live[season.id] = season
                self._forget_finished()
            return season, tokens
        loaded, plan = self.plans.get(setup)
        tokens = person_tokens(setup, open_seats)
        hashes = [None if t is None else token_hash(t) for t in tokens]
        table_id = secrets.token_urlsafe(9)
        try:
            table = Table(table_id, setup, loaded, plan, hashes, self.store, self.bots, time.time())
        except RuleError as e:
            raise Refused(422, f"the game cannot start: {e}") from None
        self.store.add_table(table_id, {**setup.as_dict(), "digest": plan.digest}, hashes)
        with self.lock:
            self.live[table_id] = table
            self._forget_finished()
        with table.lock:
            table._arrived()
        return table, tokens

    def _forget_finished(self) -> None:
        """Keep the newest `KEPT_FINISHED` finished tables in memory (under `self.lock`)."""
        done = [t for t in self.live.values() if t.state != "playing"]
        for table in done[:max(0, len(done) - KEPT_FINISHED)]:
            del self.live[table.id]

    def get(self, table_id: str) -> Table | Season:
        """A table, a season or a season's race, by its id."""
        with self.lock:
            found = self.live.get(table_id)
            if found is not None:
                return found
            if len(table_id) > 64:
                raise Refused(404, "no such table")
            row = self.store.table(table_id)
            if row is not None and row["state"] == "archived":   # opened again: it plays on
                self.store.unarchive(table_id)
                row["state"] = "playing"
            if row is not None:
                season_id = self.store.season_of(table_id)
                return self._rebuilt(row) if season_id is None else self._season(season_id).race(table_id)
            season_row = self.store.season(table_id)
            if season_row is None:
                raise Refused(404, "no such table")
            return self._season_rebuilt(season_row)

    def game_table(self, table_id: str) -> Table:
        """The table whose game is played at `table_id`: a table, or a season's race under way (its
        last, once it is over)."""
        found = self.get(table_id)
        return found.current if isinstance(found, Season) else found

    def restore(self) -> int:
        """Rebuild every table and season still playing (at the server's start), but those nobody
        touched for `limits.archive_after` seconds, archived instead; how many."""
        if self.limits.archive_after:
            self.store.archive(time.time() - self.limits.archive_after)
        rows = self.store.tables("playing")
        seasons = self.store.seasons("playing")
        with self.lock:
            for row in rows:
                if row["id"] not in self.live:
                    try:
                        self._rebuilt(row)
                    except Refused:  # its game is gone: it says so when asked for
                        continue
            for row in seasons:
                if row["id"] not in self.live:
                    try:
                        self._season_rebuilt(row)
                    except Refused:
                        continue
        return len(rows) + len(seasons)

    def _rebuilt(self, row: dict) -> Table:
        """A stored table played again from its decisions (under `self.lock`), its bots asked on."""
        s = row["setup"]
        setup = Setup(s["game"], s["seats"], s.get("variants", []), s.get("modules", []), s.get("track"),
                      s["seed"], chance=s.get("chance"), seed_public=s.get("seed_public", False),
                      names=list(s.get("names") or []), creator=s.get("creator"))
        try:
            loaded, plan = self.plans.get(setup)
        except Refused as e:
            raise Refused(410, f"this table's game cannot be loaded any more: {e.message}") from None
        try:
            table = Table(row["id"], setup, loaded, plan, row["tokens"], self.store, self.bots,
                          row["created"])
        except RuleError as e:
            raise Refused(410, f"this table's game cannot start any more: {e}") from None
        with table.lock:
            table.restore(row, self.store.decisions(row["id"]))
            self.live[row["id"]] = table
            table._arrived(store=row["state"] == "playing")
        return table

    def _season(self, season_id: str) -> Season:
        """A season, live or rebuilt (under `self.lock`)."""
        found = self.live.get(season_id)
        if isinstance(found, Season):
            return found
        row = self.store.season(season_id)
        if row is None:
            raise Refused(404, "no such table")
        return self._season_rebuilt(row)

    def _season_rebuilt(self, row: dict) -> Season:
        season = Season.rebuilt(row, self.store, self.bots)
        self.live[season.id] = season
        return season

    def listing(self, limit: int = 50, before: float | None = None) -> tuple[list[dict], bool]:
        """A page of the tables and seasons, newest first (created before `before`, a table's
        `created`), and whether there are older ones: id, game, season, seats' kinds, state (no
        tokens, no seed); a season's races by their tables' ids, and once it is over its champions
        and standings."""
        tables, seasons = self.store.newest(before, limit + 1)
        rows: list[tuple[dict, list[str] | None]] = [(row, None) for row in tables]
        rows += [(row, [r["id"] for r in self.store.races(row["id"])]) for row in seasons]
        rows.sort(key=lambda r: r[0]["created"], reverse=True)
        out = []
        for row, races in rows[:limit]:
            s = row["setup"]
            live = self.live.get(row["id"])
            # a table rebuilt at the start knows better than its row: rules changed since it began
            # stop it without its row being rewritten (the same rules again, and it plays on)
            state = live.state if isinstance(live, Table) else row["state"]
            names = list(s.get("names") or [])[:len(s["seats"])]
            out.append({"id": row["id"], "game": s["game"], "season": s.get("season"), "seats": s["seats"],
                        "names": names + [None] * (len(s["seats"]) - len(names)),
                        "variants": s.get("variants", []), "modules": s.get("modules", []),
                        "track": s.get("track"), "state": state, "created": row["created"],
                        "open_seats": _open(s["seats"], row["tokens"]) if state == "playing" else 0,
                        **({"races": races, "result": row["result"]} if races is not None else {})})
        return out, len(rows) > limit


def _open(kinds: list[str], token_hashes: list[str | None]) -> int:
    """How many people's seats nobody has taken yet (`seats.join`)."""
    return sum(1 for k, h in zip(kinds, token_hashes) if k == "human" and h is None)
