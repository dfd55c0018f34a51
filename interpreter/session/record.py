"""Game records: written as the game goes, read and checked once for every command.

A game record (JSONL) is the ruleset's digest, the seed and every decision: enough to replay
the game exactly. Its lines: one `game` header, one `decision` per choice, one `result`.
A record names its game, never a folder: it may come from someone else, and `replay` finds
the game by that name (or is given the ruleset by the person replaying).

A record is a journal (`RecordFile`): the header is written when the game starts, each decision
is appended (and handed to the system) as it is taken, the result when the game ends. A process
killed at any moment leaves every decision taken before it; at worst its last line is cut
short, and readers ignore such a line and say so. A record is never truncated in place: a game
resumed into its own record appends to it, and when a record must be written again (an undo, a
cut line, other seats) a new one is written beside it and renamed over it.

`read_record` is the one reader (`replay`, `play --resume`, `render`): it checks everything a
record holds before anything uses it (players, seed, names, digest, each decision's pick, seat
and label, the result), so a record written by hand fails with a diagnostic at its line.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..base.diagnostics import SOURCES, Loc, Report
from ..base.files import FileRefused, Journal, excerpt, read_limited, write_atomic
from ..base.limits import MAX_LIST, MAX_TEXT
from ..engine.game import CHANCE
from ..load.ruleset import is_name, shown
from .args import MAX_PLAYERS, MAX_SEED

RECORD_VERSION = 1
MAX_RECORD_BYTES = 64_000_000  # a record this large would hold about 300000 decisions
MAX_DIGITS = 20                # the longest number a record holds (a seed: 19 digits)
MAX_NAMES = 100                # variants or modules a record names


class TooLong(ValueError):
    """A number in a JSON text with more digits than any a record holds."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise TooLong(f"a number of {len(text.lstrip('-')):,} digits (at most {MAX_DIGITS})")
    return int(text)


def json_line(line: str):
    """A JSON text, numbers of more than MAX_DIGITS digits refused (`TooLong`) before Python
    converts them (which takes long, or is refused with a ValueError past 4300 digits)."""
    return json.loads(line, parse_int=_int)


def header(loaded, plan, seed: int, seats: list[str], chance: int | None = CHANCE) -> dict:
    """A record's `game` line. `chance`: how the game draws its chance (`engine.game.CHANCE`);
    None for a game resumed from a record written before records noted it (it plays on so)."""
    # `ruleset` is the game's name, not the folder it was loaded from: a shared record names
    # no path (readers before this change take a name there too)
    return {"type": "game", "version": RECORD_VERSION, **({"chance": chance} if chance is not None else {}),
            "ruleset": plan.game_id,
            "game": plan.game_id, "digest": plan.digest, "variants": loaded.variants,
            "modules": loaded.modules, "seed": seed, "players": plan.n_seats, "seats": seats,
            **({"track": loaded.track} if loaded.track else {}),
            **({"params": loaded.params} if loaded.params else {})}


def record_text(head: dict, decisions: list[dict], result: dict | None = None) -> str:
    """A whole record as its text (JSON lines: the header, the decisions, the result if any)."""
    lines = [json.dumps(head), *(json.dumps(d) for d in decisions)]
    if result is not None:
        lines.append(json.dumps({"type": "result", **result}))
    return "".join(line + "\n" for line in lines)


def write_record(path: Path, head: dict, decisions: list[dict], result: dict | None) -> None:
    """A whole record written at once (atomically: the old file stays until the new one is whole)."""
    write_atomic(path, record_text(head, decisions, result))


class RecordFile:
    """A game record written as the game goes (see the module's text): `decision` and `result`
    append a line each. Raises `CannotWrite` (naming the file) when it cannot be written."""

    def __init__(self, path: Path, head: dict, decisions: list[dict], append: bool = False,
                 finished: bool = False):
        self.path, self.head = path, head
        self.finished = finished   # the record has its result already
        if not append:
            write_atomic(path, record_text(head, decisions))
        self.journal = Journal(path)

    def decision(self, d: dict) -> None:
        self.journal.line(json.dumps(d))

    def rewrite(self, decisions: list[dict]) -> None:
        """The record again with these decisions (an undo took some back): a new file renamed
        over the old one, then appended to."""
        self.journal.close()
        write_atomic(self.path, record_text(self.head, decisions))
        self.journal = Journal(self.path)

    def result(self, result: dict) -> None:
        if not self.finished:
            self.journal.line(json.dumps({"type": "result", **result}))
            self.finished = True

    def close(self) -> None:
        self.journal.close()


@dataclass
class Record:
    """A game record read back: its header line, its decisions and its result, to replay or
    resume exactly."""
    head: dict
    decisions: list[dict]
    result: dict | None
    cut: bool = False         # its last line was cut short (written when the game stopped): ignored
    whole: bool = True        # it ends with a line break (a game may be appended to it)

    def notes(self) -> list[str]:
        return ["the record's last line was cut short (the game stopped while writing it): "
                "it is ignored"] if self.cut else []


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _names(v) -> bool:
    return isinstance(v, list) and len(v) <= MAX_NAMES and all(is_name(x) for x in v)


# What each key of a record's `game` line must hold: (test, what it is)
_HEAD_KEYS = {
    "game": (is_name, "the game's name"),
    "seed": (lambda v: _whole(v) and 0 <= v <= MAX_SEED, "a whole number from 0 to 2**63-1"),
    "players": (lambda v: _whole(v) and 1 <= v <= MAX_PLAYERS, f"a whole number from 1 to {MAX_PLAYERS}"),
    "digest": (lambda v: isinstance(v, str) and 0 < len(v) <= 200, "a text (the rules' digest)"),
}
_HEAD_OPTIONAL = {
    "variants": (_names, f"a list of at most {MAX_NAMES} names"),
    "modules": (_names, f"a list of at most {MAX_NAMES} names"),
    "track": (lambda v: v is None or is_name(v), "a name"),
    "params": (lambda v: isinstance(v, dict) and len(v) <= MAX_LIST, "a mapping of param names to values"),
    "chance": (lambda v: _whole(v) and 1 <= v <= CHANCE, f"a whole number from 1 to {CHANCE}"),
    "seats": (lambda v: isinstance(v, list) and len(v) <= MAX_PLAYERS
              and all(isinstance(k, str) and len(k) <= 100 for k in v),
              f"a list of at most {MAX_PLAYERS} seat kinds"),
}


def _decision_problem(d: dict) -> str | None:
    pick = d.get("pick")
    if not isinstance(pick, int) or not _whole(pick) or not 0 <= pick < MAX_LIST:
        return f"its `pick` is not an option's number (0 to {MAX_LIST - 1}): {shown(json.dumps(pick), 30)}"
    seat = d.get("seat")
    if seat is not None and (not _whole(seat) or not 0 <= seat < MAX_PLAYERS):
        return f"its `seat` is not a seat's number: {shown(json.dumps(seat), 30)}"
    label = d.get("label")
    if "label" in d and (not isinstance(label, str) or len(label) > MAX_TEXT):
        return "its `label` is not a text (of at most 100,000 characters)"
    return None


def _result_problem(r: dict) -> str | None:
    for key in ("order", "winners"):
        v = r.get(key)
        if key in r and not (isinstance(v, list) and len(v) <= MAX_LIST and all(_whole(x) for x in v)):
            return f"its `{key}` is not a list of seat numbers"
    return None


def read_record(path: Path, report: Report) -> Record | None:
    """A record read and checked (see the module's text); None with a diagnostic when it cannot be
    read (not a regular file, too large, not JSON lines) or holds what no record holds."""
    name = str(path)
    try:
        raw = read_limited(path, MAX_RECORD_BYTES)
    except FileRefused as e:
        report.add("E301", f"cannot read game record: {e.message.removeprefix('cannot read file: ')}",
                   Loc(name))
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        report.add("E301", f"cannot read game record: it is not UTF-8 text (byte {e.start + 1:,})", Loc(name))
        return None
    lines = text.split("\n")
    whole = lines[-1] == ""
    if whole:
        lines.pop()
    items: list[tuple[int, dict]] = []
    cut = False
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json_line(line)
        except (json.JSONDecodeError, RecursionError, TooLong) as e:
            if i == len(lines) and not whole and i > 1:  # the last line, cut short by a stop
                cut = True
                break
            if i == 1 or not items:
                # not a record at all: say nothing of what it holds (it may be any file)
                what = f"holds {e}" if isinstance(e, TooLong) else "is not a JSON object"
                report.add("E302", f"not a game record: its first line {what}", Loc(name),
                           "a game record is written by `racecraft play ... --log FILE`")
                return None
            SOURCES[name] = text  # a diagnostic's snippet shows (a part of) the line
            msg = (e.msg if isinstance(e, json.JSONDecodeError) else str(e) if isinstance(e, TooLong)
                   else "nested too deeply")
            col = e.colno if isinstance(e, json.JSONDecodeError) else 1
            report.add("E302", f"not a JSON line: {msg}", Loc(name, i, col))
            return None
        if not isinstance(item, dict):
            if not items:
                report.add("E302", "not a game record: its first line is not a JSON object", Loc(name),
                           "a game record is written by `racecraft play ... --log FILE`")
                return None
            SOURCES[name] = text
            report.add("E302", "a line of a game record is a JSON object (`{...}`)", Loc(name, i, 1))
            return None
        items.append((i, item))
    SOURCES[name] = text
    if not items or items[0][1].get("type") != "game":
        report.add("E303", "a game record starts with a `game` line", Loc(name, 1, 1),
                   "write one with `racecraft play ... --log FILE`")
        return None
    head = items[0][1]
    for key in _HEAD_KEYS:
        if key not in head:
            report.add("E303", f"the `game` line has no `{key}`", Loc(name, 1, 1))
            return None
    for key, (ok, what) in [*_HEAD_KEYS.items(), *_HEAD_OPTIONAL.items()]:
        if key in head and not ok(head[key]):
            given = excerpt(json.dumps(head[key]), 40)
            report.add("E303", f"the `game` line's `{key}` is not {what}: {given}", Loc(name, 1, 1))
            return None
    decisions: list[dict] = []
    result = None
    for i, item in items[1:]:
        kind = item.get("type")
        if kind == "decision" and result is None:
            problem = _decision_problem(item)
            if problem:
                report.add("E303", f"decision {len(decisions) + 1}: {problem}", Loc(name, i, 1))
                return None
            decisions.append(item)
        elif kind == "result" and result is None:
            problem = _result_problem(item)
            if problem:
                report.add("E303", f"the result line: {problem}", Loc(name, i, 1))
                return None
            result = item
    return Record(head, decisions, result, cut, whole and not cut)
