"""Per-game rows to files: JSON lines (every field of a row) and CSV (one column per value), each
written atomically (`base/files.py`)."""
from __future__ import annotations

import csv
import json
from pathlib import Path

from ..base.files import atomic

# the columns every CSV has, in this order; then records, metrics and counts, by name
_FIXED = ("side", "game", "seed", "players", "bots", "outcome", "winners", "order", "scores", "rounds",
          "decisions", "margin", "lead_changes", "lead_taken", "gap", "error")


def write_jsonl(path: Path, rows: list[tuple[str | None, dict]]) -> None:
    """One JSON object a line: the row, with `side` (base or variant) first in a comparison."""
    with atomic(path) as f:
        for side, row in rows:
            f.write(json.dumps({"side": side, **row} if side else row) + "\n")


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ";".join(_cell(v) for v in value)  # a value per seat, seat 1 first
    return str(value)


def write_csv(path: Path, rows: list[tuple[str | None, dict]]) -> None:
    """One line a game. A value per seat (bots, winners, records) is a list joined with `;`."""
    records = sorted({k for _s, r in rows for k in r.get("records", {})})
    metrics = sorted({k for _s, r in rows for k in r.get("metrics", {})})
    counts = sorted({k for _s, r in rows for k in r.get("counts", {})})
    with_side = any(side for side, _r in rows)
    fixed = [c for c in _FIXED if c != "side" or with_side]
    header = fixed + [f"record.{k}" for k in records] + [f"metric.{k}" for k in metrics] + \
        [f"count.{k}" for k in counts]
    with atomic(path, newline="") as f:
        out = csv.writer(f)
        out.writerow(header)
        for side, r in rows:
            line = [_cell(side if c == "side" else r.get(c)) for c in fixed]
            line += [_cell(r.get("records", {}).get(k)) for k in records]
            line += [_cell(r.get("metrics", {}).get(k)) for k in metrics]
            # a game that counted and did not see it: 0; a game that did not count: empty
            line += [_cell(r["counts"].get(k, 0)) if "counts" in r else "" for k in counts]
            out.writerow(line)
