"""Who holds a table's seats: a seat left open taken by whoever joins (from the lobby or the table's
join link), and a seat's link given anew by the table's creator when a person lost theirs.

A seat's link carries its token; the server keeps only each token's SHA-256 (`token_hashes`, one
list shared by a season and its games). Taking a seat or giving its link anew puts a new hash in
that list and in the store: the old link stops working at once. What the spectator link and the
decisions' names are made from does not change (`Table.watch_basis`).
"""
from __future__ import annotations

import hmac
import secrets

from .seasons import Race, Season
from .tables import Refused, Table, named, token_hash


def holder(table: Table | Season) -> Table | Season:
    """The table whose seats these are: a season's, for one of its games."""
    return table.season if isinstance(table, Race) else table


def open_seats(table: Table | Season) -> list[int]:
    """The people's seats nobody has taken yet (0 = seat 1)."""
    t = holder(table)
    return [i for i, k in enumerate(t.setup.seats) if k == "human" and t.token_hashes[i] is None]


def _creator(table: Table | Season, token: str | None) -> None:
    creator = holder(table).setup.creator
    if creator is None:
        raise Refused(409, "this table was made before tables had a creator's link: its seats' "
                           "links cannot be given anew")
    if not token or not hmac.compare_digest(token_hash(token), creator):
        raise Refused(403, "this needs the creator's link of the table (given when it was created)")


def _new_token(table: Table | Season, seat: int) -> str:
    t = holder(table)
    token = secrets.token_urlsafe(24)
    with t.lock:
        t.token_hashes[seat] = token_hash(token)
        t.store.set_tokens("seasons" if isinstance(t, Season) else "tables", t.id, t.token_hashes)
        t.changes.bump()
    return token


def join(table: Table | Season, name: str | None = None) -> tuple[int, str]:
    """Whoever joins takes the first open seat (and gives it their name): (the seat, its token)."""
    t = holder(table)
    given = named(name) if name else None   # (a name refused takes no seat)
    if t.state != "playing":
        raise Refused(409, "this table's game is over: there is no seat to take")
    with t.lock:
        free = open_seats(t)
        if not free:
            raise Refused(409, "every seat of this table is taken")
        seat = free[0]
        token = _new_token(t, seat)
    if given:
        t.rename(seat, given)
    return seat, token


def give_link(table: Table | Season, seat: int, creator: str | None) -> str:
    """A person's seat given a new link by the table's creator (the old one stops working)."""
    _creator(table, creator)
    t = holder(table)
    if not 0 <= seat < len(t.setup.seats) or t.setup.seats[seat] != "human":
        raise Refused(422, f"seat {seat + 1} is not a person's seat of this table")
    return _new_token(t, seat)


def seats_told(table: Table | Season, creator: str | None) -> list[dict]:
    """The seats as the creator manages them: number, kind, name, whether open."""
    _creator(table, creator)
    t = holder(table)
    free = open_seats(t)
    return [{"seat": i + 1, "kind": k, "name": t.setup.name(i), "open": i in free}
            for i, k in enumerate(t.setup.seats)]
