"""Replays in the browser: a table's game, or a record file opened there, played again decision by
decision (`table/replay.py`), each step the table before a decision as a seat saw it: the view,
this round's log, the decision and what was chosen.

A finished table, and a record (which holds everything), may be seen as any seat; a running
table only by a seat, as that seat saw it then: its own view, its own choices, and of the other
seats only who decided (`hidden`)."""
from __future__ import annotations

import secrets
import tempfile
import threading
from collections import OrderedDict
from dataclasses import asdict
from pathlib import Path

from ..base.diagnostics import RulesetError
from ..base.errors import RuleError
from ..table.ask import placings
from ..table.narrate import lines as narrated
from ..table.replay import Replay, open_record
from ..table.sight import sight
from .tables import CHANGED_SINCE, Refused, Table

KEPT = 16   # replays kept in memory (the oldest forgotten first)


class _Held:
    """A replay and the lock that keeps two requests from stepping it at once."""

    def __init__(self, replay: Replay, seats: list[str], name: str, seed: int | None):
        self.replay = replay
        self.seats = seats
        self.name = name
        self.seed = seed
        self.lock = threading.Lock()


class Replays:
    """Records opened in the lobby (a file a person gives), the last `KEPT` of them kept in
    memory, each stepped through as a finished table's replay is."""
    def __init__(self):
        self.lock = threading.Lock()
        self.held: OrderedDict[str, _Held] = OrderedDict()

    def _keep(self, key: str, held: _Held) -> _Held:
        with self.lock:
            self.held[key] = held
            self.held.move_to_end(key)
            while len(self.held) > KEPT:
                self.held.popitem(last=False)
        return held

    def _find(self, key: str) -> _Held | None:
        with self.lock:
            held = self.held.get(key)
            if held is not None:
                self.held.move_to_end(key)
            return held

    # ---- a table's game ----

    def _of_table(self, table: Table) -> _Held:
        if table.played_by is not None:
            raise Refused(409, CHANGED_SINCE)
        with table.lock:
            playing = not table.disclosed
            decisions = table.known_decisions() if playing else [dict(d) for d in table.decisions]
        held = self._find("table:" + table.id)
        if held is None or held.replay.decisions != decisions[:len(held.replay.decisions)]:
            head = {"seed": table.setup.seed}
            held = _Held(Replay(table.plan, head, decisions, Path(f"table {table.id}"), table.new_game()),
                         table.kinds, table.plan.name, table.setup.seed)
            return self._keep("table:" + table.id, held)
        held.replay.decisions[:] = decisions
        return held

    def of_table(self, table: Table, at: int, me: int | None, seat: int | None, playing: bool) -> dict:
        held = self._of_table(table)
        with held.lock:
            return _step(held, at, me if playing else _seat(seat, held), playing, me)

    def table_picture(self, table: Table, at: int, me: int | None, seat: int | None, playing: bool) -> str:
        held = self._of_table(table)
        with held.lock:
            return _picture(held, at, me if playing else _seat(seat, held))

    # ---- a record file ----

    def open(self, body: bytes) -> dict:
        """A record sent by the browser, opened: {id, game, decisions}; 422 with the reason when it
        cannot be replayed."""
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "record.jsonl"
            path.write_bytes(body)
            try:
                rec, plan = open_record(path, None, "replay it")
                head, decisions = rec.head, rec.decisions
            except RulesetError as e:
                items = getattr(e.report, "items", [])
                raise Refused(422, items[0].message if items else "this record cannot be replayed") from None
        seats = [str(s) for s in head.get("seats", [])] if isinstance(head.get("seats"), list) else []
        replay = Replay(plan, head, decisions, Path("record"))
        key = secrets.token_urlsafe(9)
        self._keep("record:" + key, _Held(replay, seats, plan.name, head["seed"]))
        return {"id": key, "game": plan.name, "decisions": len(decisions)}

    def _record(self, key: str) -> _Held:
        held = self._find("record:" + key)
        if held is None:
            raise Refused(404, "no such replay (open the record again)")
        return held

    def of_record(self, key: str, at: int, seat: int | None) -> dict:
        held = self._record(key)
        with held.lock:
            return _step(held, at, _seat(seat, held), False, None)

    def record_picture(self, key: str, at: int, seat: int | None) -> str:
        held = self._record(key)
        with held.lock:
            return _picture(held, at, _seat(seat, held))


def _seat(seat: int | None, held: _Held) -> int | None:
    """A seat asked for (1-based) as 0-based; None: the seat deciding at each step."""
    if seat is None:
        return None
    if not 1 <= seat <= held.replay.plan.n_seats:
        raise Refused(422, f"seat {seat} is not at this table")
    return seat - 1


def _go(held: _Held, at: int) -> None:
    try:
        held.replay.go(at)
    except (RuleError, RulesetError) as e:
        message = str(e) if isinstance(e, RuleError) else "the record does not fit these rules"
        raise Refused(422, f"the replay stops at decision {held.replay.at + 1}: {message}") from None


def _step(held: _Held, at: int, seat: int | None, playing: bool, me: int | None) -> dict:
    """The table before decision `at` + 1 as `seat` saw it (None: the seat that decides there)."""
    r = held.replay
    _go(held, at)
    game = r.game
    d = r.next_decision()
    who = seat if seat is not None else (d.seat if d is not None else None)
    view = game.view(who)
    trace = game.st.trace or []
    start = max((i for i, e in enumerate(trace) if e[0] == "round"), default=0)
    total = len(r.decisions)
    step: dict = {"game": held.name, "at": r.at, "total": total, "seat": None if who is None else who + 1,
                  "seats": [{"seat": i + 1, "kind": k} for i, k in enumerate(held.seats)],
                  "round": view["game"].get("round"), "log": narrated(trace[start:]),
                  "view": view, "sight": asdict(sight(view, r.plan)), "decision": None, "result": None,
                  "seed": None if playing else held.seed}
    if d is not None and r.at < total:
        entry = r.decisions[r.at]
        own = not playing or (me is not None and d.seat == me)
        step["decision"] = {"n": r.at + 1, "seat": None if d.seat is None else d.seat + 1,
                            "secret": d.simultaneous, "prompt": d.prompt if own else None,
                            "chose": entry.get("label") if own else None}
    elif game.over:
        res = game.result()
        step["result"] = {"placings": [{"place": p.place, "seat": None if p.seat is None else p.seat + 1,
                                        "piece": p.piece, "score": p.score, "winner": p.winner}
                                       for p in placings(res)],
                          "rounds": res["rounds"], "winners": [s + 1 for s in res["winners"]]}
    return step


def _picture(held: _Held, at: int, seat: int | None) -> str:
    from ..picture.svg import table_picture

    r = held.replay
    _go(held, at)
    d = r.next_decision()
    who = seat if seat is not None else (d.seat if d is not None else None)
    status = f"before decision {r.at + 1} of {len(r.decisions)}" if r.at < len(r.decisions) else \
        f"after all {len(r.decisions)} decisions"
    return table_picture(r.game.view(who), r.plan, held.name, status, None, held.seats or None)
