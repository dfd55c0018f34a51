"""A game record played again exactly, decision by decision, forward and back; each step of its
trace in words (`describe`), and whether it ends as recorded (`result_lines`)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from ..engine.game import Game, drawn, streams
from ..base.diagnostics import Loc, Report, RulesetError
from ..load.ruleset import shown
from ..session.load import load_recorded
from ..session.record import Record, read_record
from .narrate import heading


def _where(loc: str) -> str:
    """`file:line:col` shortened to `file:line` for reading."""
    parts = loc.rsplit(":", 2)
    return f"{parts[0]}:{parts[1]}" if len(parts) == 3 else loc


def describe(event) -> str:
    kind = event[0]
    if kind == "rule":
        return f"rule {event[1]}  ({_where(event[2])})" if event[2] else f"rule {event[1]}"
    if kind == "phase":
        return f"== phase {event[1].split('.', 1)[-1]} =="
    if kind == "round":
        return "-- " + "\n".join(heading(event[3], event[4]))
    if kind == "choice":
        _k, rule, loc, seat, label, n = event
        who = "nobody" if seat is None else f"seat {seat + 1}"
        forced = " (the only option)" if n == 1 else f" (from {n} options)"
        return f"  {who} chose \"{label}\"{forced}  [{rule} at {_where(loc)}]"
    if kind == "commit":
        _k, rule, loc, seat, label, n = event
        return f"  seat {seat + 1} committed a choice, hidden until revealed  [{rule} at {_where(loc)}]"
    if kind == "chance":
        shown = ", ".join(event[2][-8:])
        more = f" ... ({len(event[2])} in all)" if len(event[2]) > 8 else ""
        return f"  chance: {event[1]} -> top: {shown}{more}"
    if kind == "roll":
        return f"  chance: roll of {event[1]} -> {event[2]}"
    if kind == "say":
        return f"  {event[2]}  [{event[1]}]"
    return str(event)


class Replay:
    """A recorded game played again decision by decision, that can go back (a copy of the game is
    kept at each decision reached)."""

    def __init__(self, plan, head: dict, decisions: list[dict], path: Path, start: Game | None = None):
        """`start`: the game before decision 1, when it is not the rules' own from the record's
        seed (a race of a season starts with what the race before handed on)."""
        self.plan, self.path, self.decisions = plan, path, decisions
        self.report = Report()
        self.game = start if start is not None else Game(plan, head["seed"], trace=True,
                                                         streams=streams(head.get("chance")))
        self.kept = [self.game.clone()]   # the game before decision 1, 2, ...

    @property
    def at(self) -> int:
        """How many decisions have been taken."""
        return len(self.game.answers)

    def check(self, n: int) -> int:
        """The pick of decision n (1-based), checked against the game; raises with a diagnostic."""
        return checked_pick(self.game, self.decisions[n - 1], n, self.path, self.report)

    def forward(self) -> bool:
        """Take the next recorded decision; False at the end of the record."""
        n = self.at + 1
        if n > len(self.decisions):
            return False
        self.game.choose(self.check(n), recorded_seat(self.game, self.decisions[n - 1]))
        if len(self.kept) <= self.at:
            self.kept.append(self.game.clone())
        return True

    def next_decision(self):
        """The decision the record takes next, for the seat it names (while a secret block collects,
        several seats decide; the record says whose came next), or the game's first."""
        d = self.decisions[self.at] if self.at < len(self.decisions) else {}
        return self.game.decision(recorded_seat(self.game, d))

    def go(self, n: int) -> None:
        """To the table before decision n + 1 (after n decisions), back or forward."""
        n = max(0, min(n, len(self.decisions)))
        if n < len(self.kept):
            self.game = self.kept[n].clone()
            return
        self.game = self.kept[-1].clone()
        while self.at < n and self.forward():
            pass


def checked_pick(game: Game, d: dict, n: int, path: Path, report: Report) -> int:
    """The pick of a record's decision n (1-based) where the game stands, checked: the game asks
    for a decision, the option exists, and it is the option recorded (its label); raises
    `RulesetError` with a diagnostic at the record's line otherwise. Every command that plays a
    record again (`replay`, `play --resume`, `render`) checks it so; each takes it for the seat
    `recorded_seat` names."""
    dec = game.decision(recorded_seat(game, d))
    where = Loc(str(path), n + 1, 1)
    if dec is None:
        report.add("E305", f"decision {n}: the game asks for no decision here", where)
        raise RulesetError(report)
    pick = d.get("pick")
    if not isinstance(pick, int) or isinstance(pick, bool) or not 0 <= pick < dec.count:
        report.add("E305", f"decision {n}: option {shown(repr(pick), 30)} does not exist", where,
                   "the record does not match these rules")
        raise RulesetError(report)
    if "label" in d and dec.labels()[pick] != d["label"]:
        offered = dec.labels()[pick]
        report.add("E306", f"decision {n}: recorded \"{shown(d['label'])}\" but the game offers "
                           f"\"{shown(offered)}\"", where, "the record does not match these rules")
        raise RulesetError(report)
    return pick


def recorded_seat(game: Game, d: dict) -> int | None:
    """Whose decision a record's decision is, while a `simultaneously` block collects commitments
    (its seats decide in any order: a record says who took each); None: the game's one decision."""
    seat = d.get("seat")
    return seat if game.collecting and isinstance(seat, int) and not isinstance(seat, bool) else None


def open_record(path: Path, ruleset: str | None, purpose: str = "replay") -> tuple[Record, Any]:
    """A game record (read and checked) and its rules compiled; an error when the record cannot be
    read or the rules changed since it was played (`purpose`: what the reader will do)."""
    report = Report()
    rec = read_record(path, report)
    if rec is None:
        raise RulesetError(report)
    head = rec.head
    loaded = load_recorded(head, path, ruleset)
    plan = loaded.plan(head["players"])
    if plan.digest != head["digest"] and not upgraded_since(loaded, head["digest"]):
        report.add("E304", "the ruleset has changed since this game was recorded "
                   f"(recorded {shown(head['digest'])}, now {plan.digest})", Loc(str(path), 1, 1),
                   f"{purpose} with the rules the game was played by: a copy of the ruleset's folder as it "
                   "was then, named with `--ruleset FOLDER`")
        raise RulesetError(report)
    return rec, plan


def upgraded_since(loaded, digest: str) -> bool:
    """The record was made before `racecraft upgrade` rewrote the rules' files here: the same rules."""
    from ..session.upgrades import recorded_before_upgrade

    if not recorded_before_upgrade(loaded.ruleset, digest):
        return False
    print("note: the rules' files were upgraded (racecraft upgrade) since this game was recorded; "
          "they are the same rules", file=sys.stderr)
    return True


def result_lines(game, result) -> tuple[list[str], bool]:
    res = game.result()
    standings = res.get("standings") or [{"seat": s} for s in res["order"]]
    order = ", ".join(f"seat {e['seat'] + 1}" if "seat" in e else str(e["piece"]) for e in standings)
    if drawn(res["winners"], game.plan.n_seats):
        said = "a draw: every seat is tied"
    else:
        said = "winner(s): " + (", ".join(f"seat {s + 1}" for s in res["winners"]) or "no seat")
    lines = [f"result: {order}; {said}"]
    if result is not None and result.get("order") != res["order"]:
        return lines + ["the replayed result differs from the recorded one"], False
    return lines + ["replayed exactly"], True
