"""Replay a game record exactly, explaining each step by the rule that fired."""
from __future__ import annotations

from pathlib import Path

from ..engine.game import Game
from ..lang.errors import RuleError
from ..lang.diagnostics import Loc, Report, RulesetError
from .narrate import heading, lines as narrate
from .session import load_recorded, read_record


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
    if kind == "say":
        return f"  {event[2]}  [{event[1]}]"
    return str(event)


class Replay:
    """A recorded game played again decision by decision, that can go back (a copy of the game is
    kept at each decision reached)."""

    def __init__(self, plan, head: dict, decisions: list[dict], path: Path):
        self.plan, self.path, self.decisions = plan, path, decisions
        self.report = Report()
        self.game = Game(plan, head["seed"], trace=True)
        self.kept = [self.game.clone()]   # the game before decision 1, 2, ...

    @property
    def at(self) -> int:
        """How many decisions have been taken."""
        return len(self.game.answers)

    def check(self, n: int) -> int:
        """The pick of decision n (1-based), checked against the game; raises with a diagnostic."""
        game, d = self.game, self.decisions[n - 1]
        dec = game.decision()
        where = Loc(str(self.path), n + 1, 1)
        if dec is None:
            self.report.add("E305", f"decision {n}: the game asks for no decision here", where)
            raise RulesetError(self.report)
        pick = d.get("pick")
        if not isinstance(pick, int) or isinstance(pick, bool) or not 0 <= pick < dec.count:
            self.report.add("E305", f"decision {n}: option {pick!r} does not exist", where)
            raise RulesetError(self.report)
        if "label" in d and dec.labels()[pick] != d["label"]:
            offered = dec.labels()[pick]
            self.report.add("E306", f"decision {n}: recorded \"{d['label']}\" but the game offers "
                                    f"\"{offered}\"", where, "the record does not match these rules")
            raise RulesetError(self.report)
        return pick

    def forward(self) -> bool:
        """Take the next recorded decision; False at the end of the record."""
        n = self.at + 1
        if n > len(self.decisions):
            return False
        self.game.choose(self.check(n))
        if len(self.kept) <= self.at:
            self.kept.append(self.game.clone())
        return True

    def go(self, n: int) -> None:
        """To the table before decision n + 1 (after n decisions), back or forward."""
        n = max(0, min(n, len(self.decisions)))
        if n < len(self.kept):
            self.game = self.kept[n].clone()
            return
        self.game = self.kept[-1].clone()
        while self.at < n and self.forward():
            pass


def open_record(path: Path, ruleset: str | None, purpose: str = "replay"):
    """A game record's header, decisions and result, and its rules compiled; an error when the record
    cannot be read or the rules changed since it was played (`purpose`: what the reader will do)."""
    report = Report()
    rec = read_record(path, report)
    if rec is None:
        raise RulesetError(report)
    head, decisions, result = rec
    loaded = load_recorded(head, path, ruleset)
    plan = loaded.plan(head["players"])
    if plan.digest != head["digest"]:
        report.add("E304", "the ruleset has changed since this game was recorded "
                   f"(recorded {head['digest']}, now {plan.digest})", Loc(str(path), 1, 1),
                   f"{purpose} with the rules the game was played by")
        raise RulesetError(report)
    return head, decisions, result, plan


def _result_lines(game, result) -> tuple[list[str], bool]:
    res = game.result()
    standings = res.get("standings") or [{"seat": s} for s in res["order"]]
    order = ", ".join(f"seat {e['seat'] + 1}" if "seat" in e else str(e["piece"]) for e in standings)
    winners = ", ".join(f"seat {s + 1}" for s in res["winners"]) or "no seat"
    lines = [f"result: {order}; winner(s): {winners}"]
    if result is not None and result.get("order") != res["order"]:
        return lines + ["the replayed result differs from the recorded one"], False
    return lines + ["replayed exactly"], True


def replay(path: Path, out, ruleset: str | None = None, rules: bool = False) -> int:
    """Print the game again: its narrated log (the same lines `play` printed), or with `rules` each
    rule as it fires, each chance and choice; 0 when it reproduces the record exactly.

    The rules are `ruleset` when the person replaying names one (`--ruleset`), else the game
    the record names, found by its name here: never a folder the record names."""
    head, decisions, result, plan = open_record(path, ruleset)
    print(f"replay of {head['game']} (seed {head['seed']}, {head['players']} players, "
          f"rules {plan.digest})", file=out)
    r = Replay(plan, head, decisions, path)
    shown = 0

    def flush():
        nonlocal shown
        trace = r.game.st.trace or []
        for text in ([describe(e) for e in trace[shown:]] if rules else narrate(trace[shown:])):
            print(text, file=out)
        shown = len(trace)

    try:
        while r.forward():
            flush()
        flush()
    except RuleError as e:
        flush()
        print(f"rule error: {e}", file=out)
        return 1
    if not r.game.over:
        print("the record ends before the game does", file=out)
        return 1
    lines, same = _result_lines(r.game, result)
    for text in lines:
        print(text, file=out)
    return 0 if same else 1


def stepper(path: Path, term, stdin, ruleset: str | None = None, at: int | None = None,
            step: bool = False, seat: int | None = None) -> int:
    """Replay a game you can step through: the table before decision `at` (the narrated log of its
    round so far, the view, the decision and what was chosen), and with `step` forward and back
    a decision at a time, or to any decision. `seat` (0-based): whose view; None: the seat that
    decides at each point."""
    head, decisions, result, plan = open_record(path, ruleset)
    r = Replay(plan, head, decisions, path)
    if plan.colours:
        term.set_colours(plan.colours)
    total = len(decisions)
    try:
        r.go((at or 1) - 1)
        while True:
            _show(r, term, total, seat)
            if not step:
                return 0
            term.prompt("Enter: next, b: back, a number: go to that decision, q: quit: ")
            line = stdin.readline()
            if not line:
                return 0
            text = line.strip().lower()
            if text in ("q", "quit"):
                return 0
            if text in ("b", "back"):
                r.go(r.at - 1)
            elif text.isdigit() and len(text) <= 9:
                r.go(int(text) - 1)
            elif text in ("", "n", "next"):
                if not r.forward():
                    term.line("(the end of the record)")
            else:
                term.line("  type Enter, b, a decision's number or q")
    except RuleError as e:
        term.line(f"rule error: {e}")
        return 1


def _show(r: Replay, term, total: int, seat: int | None) -> None:
    """The table before decision r.at + 1: this round's log so far, the view, the decision."""
    from .view import screen

    game = r.game
    trace = game.st.trace or []
    start = max((i for i, e in enumerate(trace) if e[0] == "round"), default=0)
    term.line()
    for text in narrate(trace[start:]):
        term.line(text, "heading" if not text.startswith(" ") else None)
    d = game.decision()
    who = d.seat if seat is None and d is not None else seat
    shown = screen(game.view(who), game.plan)
    term.line()
    for i, text in enumerate(shown):
        term.line(text, "title" if i == 0 else None)
    if d is None:
        for text in _result_lines(game, None)[0][:1]:
            term.line(f"the end: {text}", "prompt")
        return
    n = r.at + 1
    labels = d.labels()
    pick = r.decisions[n - 1].get("pick") if n <= total else None
    term.line(f"Decision {n} of {total}: seat {d.seat + 1}: {d.prompt}", "prompt")
    if isinstance(pick, int) and 0 <= pick < len(labels):
        secret = "  (decided in secret, told when revealed)" if d.simultaneous else ""
        term.line(f"  chose: {labels[pick]}{secret}", "preview")
