"""Game records: write and read them.

A game record (JSONL) is the ruleset's digest, the seed and every decision: enough to replay
the game exactly. Its lines: one `game` header, one `decision` per choice, one `result`.
A record names its game, never a folder: it may come from someone else, and `replay` finds
the game by that name (or is given the ruleset by the person replaying).
"""
from __future__ import annotations

import json
from pathlib import Path

from ..lang.diagnostics import SOURCES, Loc, Report
from ..load.ruleset import is_name, shown
from ..load.yamlsrc import FileRefused, read_limited

RECORD_VERSION = 1
MAX_RECORD_BYTES = 64_000_000  # a record this large would hold about 300000 decisions


def header(loaded, plan, seed: int, seats: list[str]) -> dict:
    # `ruleset` is the game's name, not the folder it was loaded from: a shared record names
    # no path (readers before this change take a name there too)
    return {"type": "game", "version": RECORD_VERSION, "ruleset": plan.game_id,
            "game": plan.game_id, "digest": plan.digest, "variants": loaded.variants,
            "modules": loaded.modules, "seed": seed, "players": plan.n_seats, "seats": seats,
            **({"track": loaded.track} if loaded.track else {}),
            **({"params": loaded.params} if loaded.params else {})}


def write_record(path: Path, head: dict, decisions: list[dict], result: dict | None) -> None:
    with path.open("w", encoding="utf-8") as f:
        f.write(json.dumps(head) + "\n")
        for d in decisions:
            f.write(json.dumps(d) + "\n")
        if result is not None:
            f.write(json.dumps({"type": "result", **result}) + "\n")


# What each key of a record's `game` line must hold: (test, what it is)
_HEAD_KEYS = {
    "game": (is_name, "the game's name"),
    "seed": (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    "players": (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    "digest": (lambda v: isinstance(v, str), "a text"),
}
_HEAD_OPTIONAL = {
    "variants": (lambda v: isinstance(v, list), "a list of names"),
    "modules": (lambda v: isinstance(v, list), "a list of names"),
    "track": (lambda v: v is None or isinstance(v, str), "a name"),
}


def read_record(path: Path, report: Report):
    """The `game` line, the decisions and the result of a record; None with a diagnostic when
    it cannot be read (not a regular file, too large, not JSON lines) or is incomplete."""
    name = str(path)
    try:
        text = read_limited(path, MAX_RECORD_BYTES).decode("utf-8")
    except FileRefused as e:
        report.add("E301", f"cannot read game record: {e.message.removeprefix('cannot read file: ')}",
                   Loc(name))
        return None
    except UnicodeDecodeError as e:
        report.add("E301", f"cannot read game record: {e}", Loc(name))
        return None
    SOURCES[name] = text  # a diagnostic's snippet shows the line without reading the file again
    items = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as e:
            msg = e.msg if isinstance(e, json.JSONDecodeError) else "nested too deeply"
            col = e.colno if isinstance(e, json.JSONDecodeError) else 1
            report.add("E302", f"not a JSON line: {msg}", Loc(name, i, col))
            return None
        if not isinstance(item, dict):
            report.add("E302", "a line of a game record is a JSON object (`{...}`)", Loc(name, i, 1))
            return None
        items.append(item)
    if not items or items[0].get("type") != "game":
        report.add("E303", "a game record starts with a `game` line", Loc(name, 1, 1),
                   "write one with `racecraft play ... --log FILE`")
        return None
    head = items[0]
    for key in _HEAD_KEYS:
        if key not in head:
            report.add("E303", f"the `game` line has no `{key}`", Loc(name, 1, 1))
            return None
    for key, (ok, what) in [*_HEAD_KEYS.items(), *_HEAD_OPTIONAL.items()]:
        if key in head and not ok(head[key]):
            report.add("E303", f"the `game` line's `{key}` is not {what}: {shown(json.dumps(head[key]))}",
                       Loc(name, 1, 1))
            return None
    decisions = [d for d in items if d.get("type") == "decision"]
    result = next((d for d in items if d.get("type") == "result"), None)
    return head, decisions, result
