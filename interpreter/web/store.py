"""The tables kept in SQLite (the standard library's `sqlite3`): each table's setup (the game and
how it was created, the hashes of its seats' tokens), and each decision taken at it, committed
in its own transaction before anybody is told it was taken. A table is rebuilt by playing its
decisions again from its seed (`tables.py`); nothing else of a game is stored. A season is kept
the same way: its setup and tokens, and each of its races as a table of its own (`seasons.py`).

One connection, shared by the server's threads under a lock; the journal is write-ahead
(`WAL`) and every commit is synchronous, so a decision acknowledged survives the server being
killed, and the machine losing power."""
from __future__ import annotations

import functools
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable, TypeVar

from ..session.journal import data_folder

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    setup TEXT NOT NULL,       -- JSON: game, players, seats, variants, modules, track, seed, digest
    tokens TEXT NOT NULL,      -- JSON: the SHA-256 of each seat's token, in seat order
    state TEXT NOT NULL,       -- playing, finished, stopped, archived (left unfinished, untouched)
    result TEXT,               -- JSON: the result line of the record, once finished
    touched REAL               -- when it was created or last took a decision (NULL: stored before)
);
CREATE TABLE IF NOT EXISTS decisions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,        -- 1, 2, ...: the decision's place in the game
    line TEXT NOT NULL,        -- JSON: the record's decision line
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS seasons (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    setup TEXT NOT NULL,       -- JSON: game, season, seats, variants, modules, seed
    tokens TEXT NOT NULL,      -- JSON: the SHA-256 of each seat's token, in seat order
    state TEXT NOT NULL,       -- playing, finished, stopped
    result TEXT                -- JSON: the champions and the standings, once finished
);
CREATE TABLE IF NOT EXISTS races (
    season_id TEXT NOT NULL REFERENCES seasons(id),
    n INTEGER NOT NULL,        -- 0, 1, ...: the race's place in the season
    table_id TEXT NOT NULL UNIQUE REFERENCES tables(id),   -- the race, a table of its own
    PRIMARY KEY (season_id, n)
);
"""


class StoreError(Exception):
    """The tables' database cannot be read or written: a corrupt, truncated or read-only file, a
    full disk. Said in words (`serve` at its start, 503 to a request), never as a bug."""


F = TypeVar("F", bound=Callable[..., Any])


def _why(e: Exception) -> str:
    text = str(e).lower()
    if "full" in text:
        return "the disk is full"
    if "readonly" in text or "read-only" in text or isinstance(e, PermissionError):
        return "it cannot be written (a read-only file or folder)"
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return "it is not a sound SQLite database (damaged or cut short)"
    return str(e) or type(e).__name__


def _guarded(method: F) -> F:
    """A store method whose database errors are a `StoreError`."""
    @functools.wraps(method)
    def guarded(self: "Store", *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as e:
            raise StoreError(f"the tables' database {self.path} cannot be used: {_why(e)}") from None
    return guarded  # type: ignore[return-value]


def default_path() -> Path:
    """`$XDG_DATA_HOME/racecraft/tables.db`, else `~/.local/share/racecraft/tables.db`."""
    return data_folder() / "tables.db"


class Store:
    """The web table's database (SQLite): tables, their decisions, seasons and their races, each
    written before it is taken, so that a killed server loses no acknowledged decision."""
    def __init__(self, path: Path | str):
        path = self.path = Path(path)
        try:
            if str(path) != ":memory:":
                # the tables' seeds and every hand are in it: the user's alone (a folder made here 0700, a
                # file made here 0600; SQLite gives its journal files the file's permissions)
                path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                if not path.exists():
                    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
            self.lock = threading.Lock()
            self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(SCHEMA)
            columns = [row[1] for row in self.db.execute("PRAGMA table_info(tables)")]
            if "touched" not in columns:   # a database of a server before tables noted it
                self.db.execute("ALTER TABLE tables ADD COLUMN touched REAL")
            if self.db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("database disk image is malformed")
        except (sqlite3.Error, OSError) as e:
            raise StoreError(f"the tables' database {path} cannot be used: {_why(e)}; give another "
                             "file with --db, or move this one away to start with no tables") from None

    def close(self) -> None:
        with self.lock:
            self.db.close()

    @_guarded
    def _write(self, *statements: tuple[str, tuple]) -> None:
        """Run the statements in one transaction: all of them are stored, or none."""
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self.db.execute(sql, args)
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def add_table(self, table_id: str, setup: dict, token_hashes: list[str | None]) -> None:
        now = time.time()
        self._write(("INSERT INTO tables (id, created, setup, tokens, state, touched) "
                     "VALUES (?, ?, ?, ?, 'playing', ?)",
                     (table_id, now, json.dumps(setup), json.dumps(token_hashes), now)))

    def add_decision(self, table_id: str, line: dict) -> None:
        self._write(("INSERT INTO decisions (table_id, n, line) VALUES (?, ?, ?)",
                     (table_id, line["n"], json.dumps(line))),
                    ("UPDATE tables SET touched = ? WHERE id = ?", (time.time(), table_id)))

    def set_setup(self, kind: str, row_id: str, setup: dict) -> None:
        """A table's or season's setup as it is now (a seat's person gave their name)."""
        table = {"tables": "tables", "seasons": "seasons"}[kind]
        self._write((f"UPDATE {table} SET setup = ? WHERE id = ?", (json.dumps(setup), row_id)))

    def set_tokens(self, kind: str, row_id: str, token_hashes: list[str | None]) -> None:
        """A table's or season's seats' token hashes as they are now (a seat taken, a link given
        anew); a season's races with them, in one transaction."""
        if kind == "tables":
            self._write(("UPDATE tables SET tokens = ? WHERE id = ?", (json.dumps(token_hashes), row_id)))
        else:
            self._write(("UPDATE seasons SET tokens = ? WHERE id = ?", (json.dumps(token_hashes), row_id)),
                        ("UPDATE tables SET tokens = ? WHERE id IN (SELECT table_id FROM races WHERE "
                         "season_id = ?)", (json.dumps(token_hashes), row_id)))

    @_guarded
    def archive(self, before: float) -> int:
        """Tables still playing that nobody touched since `before` (a time) are archived: kept, not
        rebuilt at the start; opened again, one plays on (`unarchive`). How many."""
        with self.lock:
            races = "SELECT table_id FROM races"
            return self.db.execute(
                f"UPDATE tables SET state = 'archived' WHERE state = 'playing' AND id NOT IN ({races}) "
                "AND COALESCE(touched, created) < ?", (before,)).rowcount

    def unarchive(self, table_id: str) -> None:
        self._write(("UPDATE tables SET state = 'playing', touched = ? WHERE id = ? AND state = 'archived'",
                     (time.time(), table_id)))

    def take_back(self, table_id: str, keep: int) -> None:
        """Forget the decisions after the first `keep` (undo)."""
        self._write(("DELETE FROM decisions WHERE table_id = ? AND n > ?", (table_id, keep)),
                    ("UPDATE tables SET state = 'playing', result = NULL WHERE id = ?", (table_id,)))

    def finish(self, table_id: str, state: str, result: dict | None) -> None:
        self._write(("UPDATE tables SET state = ?, result = ? WHERE id = ?",
                     (state, None if result is None else json.dumps(result), table_id)))

    @_guarded
    @_guarded
    def newest(self, before: float | None, limit: int) -> tuple[list[dict], list[dict]]:
        """The tables (but a season's races) and the seasons created before `before` (None: any),
        newest first, at most `limit` of each: the lobby's page."""
        cut = "created < ?" if before is not None else "1"
        args: tuple = (before, limit) if before is not None else (limit,)
        with self.lock:
            tables = self.db.execute(
                "SELECT id, created, setup, tokens, state, result FROM tables WHERE id NOT IN "
                f"(SELECT table_id FROM races) AND {cut} ORDER BY created DESC LIMIT ?", args).fetchall()
            seasons = self.db.execute(
                f"SELECT id, created, setup, tokens, state, result FROM seasons WHERE {cut} "
                "ORDER BY created DESC LIMIT ?", args).fetchall()
        return [_row(r) for r in tables], [_row(r) for r in seasons]

    @_guarded
    def tables(self, state: str | None = None) -> list[dict]:
        """Every table but a season's races (or those in `state`), oldest first: id, created, setup,
        tokens, state, result."""
        with self.lock:
            rows = self.db.execute(
                "SELECT id, created, setup, tokens, state, result FROM tables "
                "WHERE id NOT IN (SELECT table_id FROM races)"
                + (" AND state = ?" if state else "") + " ORDER BY created", (state,) if state else ()
            ).fetchall()
        return [_row(r) for r in rows]

    @_guarded
    def table(self, table_id: str) -> dict | None:
        with self.lock:
            row = self.db.execute("SELECT id, created, setup, tokens, state, result FROM tables WHERE id = ?",
                                  (table_id,)).fetchone()
        return None if row is None else _row(row)

    @_guarded
    def decisions(self, table_id: str) -> list[dict]:
        with self.lock:
            rows = self.db.execute("SELECT line FROM decisions WHERE table_id = ? ORDER BY n",
                                   (table_id,)).fetchall()
        return [json.loads(line) for (line,) in rows]

    # ---- seasons: each a row of `seasons`, its races tables of their own (`races`) ----

    def add_season(self, season_id: str, setup: dict, token_hashes: list[str | None]) -> None:
        self._write(("INSERT INTO seasons (id, created, setup, tokens, state) VALUES (?, ?, ?, ?, 'playing')",
                     (season_id, time.time(), json.dumps(setup), json.dumps(token_hashes))))

    def add_race(self, season_id: str, n: int, table_id: str, setup: dict,
                 token_hashes: list[str | None]) -> None:
        """Race n of the season, a new table, in one transaction."""
        self._write(("INSERT INTO tables (id, created, setup, tokens, state) VALUES (?, ?, ?, ?, 'playing')",
                     (table_id, time.time(), json.dumps(setup), json.dumps(token_hashes))),
                    ("INSERT INTO races (season_id, n, table_id) VALUES (?, ?, ?)", (season_id, n, table_id)))

    def finish_season(self, season_id: str, state: str, result: dict | None) -> None:
        self._write(("UPDATE seasons SET state = ?, result = ? WHERE id = ?",
                     (state, None if result is None else json.dumps(result), season_id)))

    @_guarded
    def seasons(self, state: str | None = None) -> list[dict]:
        """Every season (or those in `state`), oldest first: id, created, setup, tokens, state, result."""
        with self.lock:
            rows = self.db.execute(
                "SELECT id, created, setup, tokens, state, result FROM seasons"
                + (" WHERE state = ?" if state else "") + " ORDER BY created", (state,) if state else ()
            ).fetchall()
        return [_row(r) for r in rows]

    @_guarded
    def season(self, season_id: str) -> dict | None:
        with self.lock:
            row = self.db.execute("SELECT id, created, setup, tokens, state, result FROM seasons "
                                  "WHERE id = ?", (season_id,)).fetchone()
        return None if row is None else _row(row)

    @_guarded
    def races(self, season_id: str) -> list[dict]:
        """The season's races so far, in order: the rows of their tables."""
        with self.lock:
            rows = self.db.execute(
                "SELECT t.id, t.created, t.setup, t.tokens, t.state, t.result FROM races r "
                "JOIN tables t ON t.id = r.table_id WHERE r.season_id = ? ORDER BY r.n", (season_id,)
            ).fetchall()
        return [_row(r) for r in rows]

    @_guarded
    def season_of(self, table_id: str) -> str | None:
        """The season a table is a race of, if it is one."""
        with self.lock:
            row = self.db.execute("SELECT season_id FROM races WHERE table_id = ?", (table_id,)).fetchone()
        return None if row is None else row[0]

def _row(r) -> dict:
    return {"id": r[0], "created": r[1], "setup": json.loads(r[2]), "tokens": json.loads(r[3]),
            "state": r[4], "result": None if r[5] is None else json.loads(r[5])}
