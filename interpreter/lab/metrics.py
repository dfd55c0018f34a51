"""Design metrics: one row per game, and what a designer reads from many rows.

A row is plain data (JSON): the game's seed, bots, outcome, result, length, margin of victory,
lead changes (from the game's `progress:`), its `record:` and `metrics:` values and, when the
engine counted (`Game(..., tally=True)` with counts asked), how often each rule, statement,
option and card fired or was chosen. Seats are numbered from 1, as players number them.

Outcomes are counted apart: a game is `won` by one seat, `shared` by some seats tied first,
`drawn` (every seat tied first), won by a piece without a seat (`others`: a car the game
drives), stopped at the round limit (`limits.max_rounds`) or `failed` (a rule error). A win
rate counts only games a seat won alone, so a game that often ends in a draw never looks
balanced because its draws are shared out.
"""
from __future__ import annotations

import statistics
from pathlib import Path
from typing import TypeGuard

from ..base.diagnostics import Loc
from ..base.files import tidy
from ..engine.game import drawn, reading
from .stats import mean_interval, wilson

OUTCOMES = ("won", "shared", "drawn", "others", "round_limit", "failed")
OUTCOME_WORDS = {"won": "won by one seat", "shared": "first place shared by some seats",
                 "drawn": "drawn (every seat tied first)",
                 "others": "won by no seat (a piece the game drives)",
                 "round_limit": "stopped at the round limit", "failed": "failed (a rule error)"}


def game_row(game, result: dict, index: int, seed: int, bots: list[str], counts: bool) -> dict:
    """The row of a game that ended."""
    plan, st = game.plan, game.st
    n = plan.n_seats
    winners = result["winners"]
    if not winners:
        outcome = "others"
    elif drawn(winners, n):
        outcome = "drawn"
    else:
        outcome = "won" if len(winners) == 1 else "shared"
    order = result["order"]
    scores = result["scores"]
    margin = abs(scores[order[0]] - scores[order[1]]) if n > 1 and outcome == "won" else None
    row = _base(index, seed, bots, outcome)
    row.update({"winners": [s + 1 for s in winners], "order": [s + 1 for s in order], "scores": scores,
                "rounds": result["rounds"], "decisions": result["decisions"], "margin": margin,
                "records": result["records"],
                "metrics": reading(st, lambda: {k: f(st, {}) for k, f in plan.metrics.items()})})
    tally = st.tally
    if tally is not None:
        tally.sample(st)
        row.update(_lead(tally.progress, winners[0] if outcome == "won" else None))
        if counts:
            row["counts"] = dict(sorted(tally.counts.items()))
            row["chose"] = [sorted(keys) for keys in tally.chosen]
    return row


def judged_alike(agents) -> dict[str, list[int]]:
    """For a game's row: each choice where a greedy or learned seat judged more than one option,
    as "FILE:LINE:COL (RULE)": how many times, how many times every option was worth the same
    (summed over the seats), and 1 where it was judged in a secret step (on the seat's own table)."""
    out: dict[str, list[int]] = {}
    for agent in agents:
        for (rule, loc, secret), (judged, tied) in getattr(agent, "ties", {}).items():
            _count(out, f"{_place(loc)} ({rule})", judged, tied, int(secret))
    return out


def _count(into: dict[str, list[int]], key: str, judged: int, tied: int, secret: int) -> None:
    """One more [judged, tied, in a secret step] added into `into[key]`."""
    both = into.setdefault(key, [0, 0, 0])
    both[0] += judged
    both[1] += tied
    both[2] |= secret


def _place(loc) -> str:
    if loc is None or not getattr(loc, "file", ""):
        return "an unwritten place"
    return str(Loc(str(tidy(Path(loc.file))), loc.line, loc.col))


# A choice is said to be judged alike (`tie_notes`) when every option was worth the same at least
# this often, over at least so many times it was judged (measured on the shipped games: a choice
# the evaluation sees is tied at most 86% of the time; one it cannot see at all, every time).
ALIKE_SHARE, ALIKE_LEAST = 0.95, 30


def tie_notes(rows: list[dict]) -> list[str]:
    """Notes on the choices where the greedy or learned seats of these rows found every option worth
    the same almost always: there they chose at random, and the game's evaluation (or the learned
    value) cannot tell those options apart."""
    total: dict[str, list[int]] = {}
    for row in rows:
        for key, (judged, tied, secret) in (row.get("ties") or {}).items():
            _count(total, key, judged, tied, secret)
    out = []
    for key, (judged, tied, secret) in total.items():
        if judged >= ALIKE_LEAST and tied >= ALIKE_SHARE * judged:
            out.append(f"the one-move bots (greedy, learned) chose at random at the choice at {key}: "
                       f"every option was worth the same to them {_times(tied, judged)}, as their evaluation "
                       "cannot tell those options apart"
                       + ("; in a secret step a choice is judged on the seat's own table, before the reveal: "
                          "make `evaluate:` score what the seat plans (docs/bots.md)" if secret else ""))
    return out


def _times(tied: int, judged: int) -> str:
    return f"all {judged:,} times they judged it" if tied == judged else f"{tied:,} of the {judged:,} times"


def stopped_row(index: int, seed: int, bots: list[str], outcome: str, error: str, game=None) -> dict:
    """The row of a game stopped at the round limit or failed."""
    row = _base(index, seed, bots, outcome)
    row["error"] = error
    if game is not None:
        row["rounds"] = min(game.st.g["__rounds"], game.plan.max_rounds)  # (the next one was refused)
        row["decisions"] = len(game.answers)
    return row


def _base(index: int, seed: int, bots: list[str], outcome: str) -> dict:
    return {"game": index, "seed": seed, "players": len(bots), "bots": list(bots), "outcome": outcome}


def _lead(samples: list, winner: int | None) -> dict:
    """Lead changes over the samples of progress (a lead is a seat strictly ahead of all others),
    the round after which the winner led to the end (0: from the start), and the winner's final
    gap to the best other seat."""
    if not samples:
        return {}
    leaders = []
    for _done, values in samples:
        top = max(values)
        ahead = [s for s, v in enumerate(values) if v == top]
        leaders.append(ahead[0] if len(ahead) == 1 else None)
    known = [x for x in leaders if x is not None]
    changes = sum(1 for a, b in zip(known, known[1:]) if a != b)
    out: dict = {"lead_changes": changes, "lead_taken": None, "gap": None}
    if winner is not None and len(samples[-1][1]) > 1:
        final = samples[-1][1]
        out["gap"] = final[winner] - max(v for s, v in enumerate(final) if s != winner)
        if leaders[-1] == winner:
            i = len(leaders) - 1
            while i > 0 and leaders[i - 1] == winner:
                i -= 1
            out["lead_taken"] = samples[i][0]
    return out


# ---- many rows: what simulate prints ---------------------------------------------------------

def _ended(rows: list[dict]) -> list[dict]:
    """Games with a result (won, shared, drawn, others)."""
    return [r for r in rows if r["outcome"] not in ("round_limit", "failed")]


def summary(rows: list[dict], players: int, bots: list[str]) -> dict:
    """The statistics of a run's rows (the rows of one setup, in game order)."""
    counted = [r for r in rows if r["outcome"] != "failed"]   # the games that ran to an end or a limit
    ended = _ended(rows)
    n = len(counted)
    outcomes = {}
    for key in OUTCOMES:
        k = sum(1 for r in rows if r["outcome"] == key)
        base = len(rows) if key == "failed" else n
        lo, hi = wilson(k, base)
        outcomes[key] = {"games": k, "rate": k / base if base else 0.0, "ci95": [lo, hi]}
    wins = [0] * players
    firsts = [0] * players
    for r in ended:
        for s in r["winners"]:
            firsts[s - 1] += 1
            if r["outcome"] == "won":
                wins[s - 1] += 1
    by_seat = []
    for s in range(players):
        lo, hi = wilson(wins[s], n)
        by_seat.append({"seat": s + 1, "bot": bots[s], "wins": wins[s], "rate": wins[s] / n if n else 0.0,
                        "ci95": [lo, hi], "tied_first": firsts[s] - wins[s]})
    out = {"outcomes": outcomes, "wins_by_seat": by_seat, "wins_by": _by_records(ended, counted),
           "length": _length(counted), "margin": _spread([r.get("margin") for r in ended]),
           "lead": _lead_summary(ended), "metrics": _metrics(ended)}
    if any("counts" in r for r in rows):
        out["counts"] = _counts(ended)
    return out


def _by_records(ended: list[dict], counted: list[dict]) -> dict:
    """Win rates by each `record:` value: the seats that had the value, and how many of them won."""
    keys: list[str] = []
    for r in ended:
        keys += [k for k in r["records"] if k not in keys]
    out = {}
    for key in keys:
        seen: dict = {}
        for r in ended:
            for s, v in enumerate(r["records"].get(key, [])):
                entry = seen.setdefault(v, [0, 0])
                entry[0] += 1
                if r["outcome"] == "won" and r["winners"] == [s + 1]:
                    entry[1] += 1
        rows = []
        for v in sorted(seen, key=lambda x: (str(type(x)), x)):
            count, w = seen[v]
            lo, hi = wilson(w, count)
            rows.append({"value": v, "seats": count, "wins": w, "rate": w / count, "ci95": [lo, hi]})
        out[key] = rows
    return out


def _length(rows: list[dict]) -> dict:
    rounds = [r["rounds"] for r in rows if "rounds" in r]
    decisions = [r["decisions"] for r in rows if "decisions" in r]
    return {
        "rounds_mean": statistics.fmean(rounds) if rounds else 0.0,
        "rounds_ci95": list(mean_interval(rounds)),
        "rounds_median": statistics.median(rounds) if rounds else 0,
        "rounds_min": min(rounds, default=0), "rounds_max": max(rounds, default=0),
        "decisions_mean": statistics.fmean(decisions) if decisions else 0.0,
    }


def _spread(values: list) -> dict | None:
    xs = [v for v in values if v is not None]
    if not xs:
        return None
    return {"games": len(xs), "mean": statistics.fmean(xs), "ci95": list(mean_interval(xs)),
            "median": statistics.median(xs), "min": min(xs), "max": max(xs)}


def varies(spread: dict | None) -> TypeGuard[dict]:
    """Whether a measure says something of these games: one that is the same in every game (the
    margin of a game whose result is a place: always 1) is not reported in words or charts."""
    return spread is not None and spread["min"] != spread["max"]


def varies_in(values: list) -> bool:
    """`varies` of a measure's values, one a game (None: a game without it)."""
    return varies(_spread(values))


def _lead_summary(ended: list[dict]) -> dict | None:
    if not any("lead_changes" in r for r in ended):
        return None
    won = [r for r in ended if r["outcome"] == "won" and "lead_changes" in r]
    taken = [r["lead_taken"] for r in won if r.get("lead_taken") is not None]
    from_start = sum(1 for t in taken if t == 0)
    lo, hi = wilson(from_start, len(won))
    return {"changes": _spread([r.get("lead_changes") for r in ended]),
            "taken": _spread(taken), "gap": _spread([r.get("gap") for r in won]),
            "from_start": {"games": from_start, "of": len(won), "rate": from_start / len(won) if won else 0.0,
                           "ci95": [lo, hi]},
            # not leading alone at the end: level with another seat's progress (won on the
            # result's tie-break, or the result counts otherwise), or behind it
            "level_at_end": sum(1 for r in won if r.get("lead_taken") is None and r.get("gap") == 0),
            "behind_at_end": sum(1 for r in won if r.get("lead_taken") is None and (r.get("gap") or 0) < 0)}


def _metrics(ended: list[dict]) -> dict:
    names: list[str] = []
    for r in ended:
        names += [k for k in r["metrics"] if k not in names]
    out = {}
    for name in names:
        values = [r["metrics"][name] for r in ended if name in r["metrics"]]
        if values and all(isinstance(v, bool) for v in values):
            k = sum(values)
            lo, hi = wilson(k, len(values))
            out[name] = {"kind": "yes/no", "games": k, "of": len(values), "rate": k / len(values),
                         "ci95": [lo, hi]}
        else:
            spread = _spread([int(v) for v in values]) or {}
            out[name] = {"kind": "number", **spread}
    return out


def _counts(ended: list[dict]) -> list[dict]:
    """For each thing counted: times per game, the share of games where it happened, and for
    options and cards the win rate of the seats that chose it."""
    names: set[str] = set()
    for r in ended:
        names.update(r.get("counts", {}))
    n = len(ended)
    out = []
    for name in sorted(names):
        per_game = [r.get("counts", {}).get(name, 0) for r in ended]
        entry = {"name": name, "per_game": statistics.fmean(per_game) if n else 0.0,
                 "games": sum(1 for x in per_game if x)}
        if " > " in name:  # an option or a card: the seats that chose it, and how often they won
            chose = won = 0
            for r in ended:
                for s, keys in enumerate(r.get("chose", [])):
                    if name in keys:
                        chose += 1
                        won += r["outcome"] == "won" and r["winners"] == [s + 1]
            lo, hi = wilson(won, chose)
            entry.update({"seats": chose, "wins": won, "win_rate": won / chose if chose else 0.0,
                          "ci95": [lo, hi]})
        out.append(entry)
    return out


# ---- per-game values, for comparisons ----------------------------------------------------------

def measures(rows: list[dict], players: int) -> dict[str, tuple[bool, list, bool]]:
    """Every measure read on each game: name -> (yes/no?, one value per row or None where the game
    has none, said only where it `varies`: as `summary`'s words say it). Rows of failed games have
    none."""
    out: dict[str, tuple[bool, list, bool]] = {}

    def put(name, binary, fn, if_varies=False):
        out[name] = (binary, [None if r["outcome"] == "failed" else fn(r) for r in rows], if_varies)

    for s in range(players):
        put(f"seat {s + 1} wins", True, lambda r, s=s: int(r["outcome"] == "won" and r["winners"] == [s + 1]))
    for key in ("drawn", "shared", "others", "round_limit"):
        put(OUTCOME_WORDS[key], True, lambda r, key=key: int(r["outcome"] == key))
    put("rounds", False, lambda r: r.get("rounds"))
    put("decisions", False, lambda r: r.get("decisions"))
    put("margin of victory", False, lambda r: r.get("margin"), if_varies=True)
    if any("lead_changes" in r for r in rows):
        put("lead changes", False, lambda r: r.get("lead_changes"))
        put("round the winner took the lead", False, lambda r: r.get("lead_taken"))
        put("winner's final gap", False, lambda r: r.get("gap"), if_varies=True)
    names: list[str] = []
    for r in rows:
        names += [k for k in r.get("metrics", {}) if k not in names]
    for name in names:
        values = [r.get("metrics", {}).get(name) for r in rows]
        binary = all(isinstance(v, bool) for v in values if v is not None)
        put(f"metric {name}", binary, lambda r, name=name: _number(r.get("metrics", {}).get(name)))
    counted = sorted({k for r in rows for k in r.get("counts", {})})
    for name in counted:
        put(f"count {name}", False,
            lambda r, name=name: r.get("counts", {}).get(name, 0) if "counts" in r else None)
    return out


def _number(v):
    return None if v is None else int(v)


def rates(rows: list[dict]) -> dict[str, tuple[int, int]]:
    """Win rates among seats (not games): by each `record:` value and by each option or card chosen;
    name -> (seats won alone, seats)."""
    out: dict[tuple, list[int]] = {}
    for r in _ended(rows):
        for key, values in r["records"].items():
            for s, v in enumerate(values):
                entry = out.setdefault((0, key, str(type(v)), v), [0, 0])
                entry[1] += 1
                entry[0] += r["outcome"] == "won" and r["winners"] == [s + 1]
        for s, keys in enumerate(r.get("chose", [])):
            for key in keys:
                entry = out.setdefault((1, key, "", ""), [0, 0])
                entry[1] += 1
                entry[0] += r["outcome"] == "won" and r["winners"] == [s + 1]
    named = {}
    for k in sorted(out):
        named[f"win rate when {k[1]} = {k[3]}" if k[0] == 0 else f"win rate when chose {k[1]}"] = out[k]
    return {k: (v[0], v[1]) for k, v in named.items()}
