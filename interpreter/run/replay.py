"""Replay a game record exactly, explaining each step by the rule that fired."""
from __future__ import annotations

from pathlib import Path

from ..engine.game import Game
from ..lang.errors import RuleError
from ..lang.diagnostics import Loc, Report, RulesetError
from .session import load_recorded, read_record


def _where(loc: str) -> str:
    """`file:line:col` shortened to `file:line` for reading."""
    parts = loc.rsplit(":", 2)
    return f"{parts[0]}:{parts[1]}" if len(parts) == 3 else loc


def positions(boards: dict) -> str:
    """Where every piece stands on each board, as a round's trace entry recorded it."""
    return " | ".join(f"{name}: " + ("; ".join(f"{p} {w}" for p, w in where) or "no pieces")
                      for name, where in boards.items())


def describe(event) -> str:
    kind = event[0]
    if kind == "rule":
        return f"rule {event[1]}  ({_where(event[2])})" if event[2] else f"rule {event[1]}"
    if kind == "phase":
        return f"== phase {event[1].split('.', 1)[-1]} =="
    if kind == "round":
        where = positions(event[4])
        return f"-- round {event[3]}" + (f": {where}" if where else "")
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


def replay(path: Path, out, ruleset: str | None = None) -> int:
    """Print the game step by step; 0 when it reproduces the record exactly.

    The rules are `ruleset` when the person replaying names one (`--ruleset`), else the game
    the record names, found by its name here: never a folder the record names."""
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
                   "replay with the rules the game was played by")
        raise RulesetError(report)
    game = Game(plan, head["seed"], trace=True)
    shown = 0

    def flush():
        nonlocal shown
        for e in game.st.trace[shown:]:
            print(describe(e), file=out)
        shown = len(game.st.trace)

    print(f"replay of {head['game']} (seed {head['seed']}, {head['players']} players, "
          f"rules {plan.digest})", file=out)
    try:
        for n, d in enumerate(decisions, 1):
            flush()
            dec = game.decision()
            if dec is None:
                report.add("E305", f"decision {n}: the game asks for no decision here",
                           Loc(str(path), n + 1, 1))
                raise RulesetError(report)
            labels = dec.labels()
            pick = d.get("pick")
            if not isinstance(pick, int) or not 0 <= pick < dec.count:
                report.add("E305", f"decision {n}: option {pick!r} does not exist", Loc(str(path), n + 1, 1))
                raise RulesetError(report)
            if "label" in d and labels[pick] != d["label"]:
                report.add("E306", f"decision {n}: recorded \"{d['label']}\" "
                                   f"but the game offers \"{labels[pick]}\"",
                           Loc(str(path), n + 1, 1), "the record does not match these rules")
                raise RulesetError(report)
            if dec.simultaneous:
                print(f"  seat {dec.seat + 1} commits \"{labels[pick]}\" (hidden from the others)", file=out)
            game.choose(pick)
        flush()
    except RuleError as e:
        flush()
        print(f"rule error: {e}", file=out)
        return 1
    if not game.over:
        print("the record ends before the game does", file=out)
        return 1
    res = game.result()
    standings = res.get("standings") or [{"seat": s} for s in res["order"]]
    order = ", ".join(f"seat {e['seat'] + 1}" if "seat" in e else str(e["piece"]) for e in standings)
    winners = ", ".join(f"seat {s + 1}" for s in res["winners"]) or "no seat"
    print(f"result: {order}; winner(s): {winners}", file=out)
    if result is not None and result.get("order") != res["order"]:
        print("the replayed result differs from the recorded one", file=out)
        return 1
    print("replayed exactly", file=out)
    return 0
