"""The web table (`racecraft serve`): a lobby, a table per seat with live updates, replays, in a
browser; the tables kept in SQLite. `app.py` (HTTP), `tables.py` (the tables and what each seat
is told), `store.py` (SQLite), `bots.py` (bots off the request threads), `replays.py`, `games.py`
(the lobby's games), `static/` (the pages)."""
