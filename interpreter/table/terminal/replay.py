"""`racecraft replay`: a game record printed again (its narrated log, or every rule as it fires), or
stepped through at the terminal, a table at a time."""
from __future__ import annotations

import sys
from pathlib import Path

from ...base.errors import RuleError
from ...session.args import Usage
from ..narrate import lines as narrate
from ..replay import Replay, describe, open_record, result_lines
from .view import screen


def replay(path: Path, out, ruleset: str | None = None, rules: bool = False) -> int:
    """Print the game again: its narrated log (the same lines `play` printed), or with `rules` each
    rule as it fires, each chance and choice; 0 when it reproduces the record exactly.

    The rules are `ruleset` when the person replaying names one (`--ruleset`), else the game
    the record names, found by its name here: never a folder the record names."""
    rec, plan = open_record(path, ruleset)
    head, decisions, result = rec.head, rec.decisions, rec.result
    for note in rec.notes():
        print(f"note: {note}", file=sys.stderr)
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
    lines, same = result_lines(r.game, result)
    for text in lines:
        print(text, file=out)
    return 0 if same else 1


def stepper(path: Path, term, stdin, ruleset: str | None = None, at: int | None = None,
            step: bool = False, seat: int | None = None) -> int:
    """Replay a game you can step through: the table before decision `at` (the narrated log of its
    round so far, the view, the decision and what was chosen), and with `step` forward and back
    a decision at a time, or to any decision. `seat` (0-based): whose view; None: the seat that
    decides at each point."""
    rec, plan = open_record(path, ruleset)
    head, decisions = rec.head, rec.decisions
    if seat is not None and seat >= plan.n_seats:
        raise Usage(f"--seat {seat + 1}: this game has {plan.n_seats} seats")
    for note in rec.notes():
        term.line(f"note: {note}")
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
    game = r.game
    trace = game.st.trace or []
    start = max((i for i, e in enumerate(trace) if e[0] == "round"), default=0)
    term.line()
    for text in narrate(trace[start:]):
        term.line(text, "heading" if not text.startswith(" ") else None)
    d = r.next_decision()
    who = d.seat if seat is None and d is not None else seat
    shown = screen(game.view(who), game.plan)
    term.line()
    for i, text in enumerate(shown):
        term.line(text, "title" if i == 0 else None)
    if d is None:
        for text in result_lines(game, None)[0][:1]:
            term.line(f"the end: {text}", "prompt")
        return
    n = r.at + 1
    labels = d.labels()
    pick = r.decisions[n - 1].get("pick") if n <= total else None
    term.line(f"Decision {n} of {total}: seat {d.seat + 1}: {d.prompt}", "prompt")
    if isinstance(pick, int) and 0 <= pick < len(labels):
        if d.simultaneous and seat is not None and seat != d.seat:
            # (the replay as another seat sees it: a secret choice is told when it is revealed)
            term.line("  chose in secret: told when revealed", "preview")
        else:
            secret = "  (decided in secret, told when revealed)" if d.simultaneous else ""
            term.line(f"  chose: {labels[pick]}{secret}", "preview")
