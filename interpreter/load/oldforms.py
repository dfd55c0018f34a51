"""A file as the current language reads it: its version noted, and the forms of its data that an
older version wrote read in their new form (`lang/versions.py`).

Rules' old forms are read where rules are (the parser: statements; the checker: attributes and
calls, `check/oldforms.py`). Here are the data's, each with what `racecraft upgrade` writes instead:

- a cell's `rect: false` (a board of kind `cells`) is `tags: [curve]`, and `rect: true` nothing:
  the tag the old flag became (`boards/cells`);
- a card type's `props: {label: ...}` named the card for players: it is the card's `name:`.

Each is said once per file (a warning in a file of an older version, read as the new form; an
error from the version that replaced it), with the text edits that upgrade it.
"""
from __future__ import annotations

import json
from typing import Any

from ..boards import KINDS
from ..lang import versions
from ..base.diagnostics import Diagnostic, Loc, Report, source_line
from .patches import shallow
from .yamlsrc import loc_of

# the versions a card's `props.label` and a cell's `rect` were replaced in
LABEL_SINCE = 2


def read_in_version(data: Any, name: str, report: Report) -> Any:
    """`data` (a file named `name`, as parsed) with its version noted and its old forms read as
    the new ones: the same object when it has none, else a copy of what changed."""
    if not isinstance(data, dict):
        return data
    version = _version(data, name, report)
    versions.note(name, version if data.get("language") is not None else None)
    said: list[Diagnostic] = []
    out = data
    boards = data.get("boards")
    if isinstance(boards, dict):
        new_boards = _boards(boards, version, said)
        if new_boards is not boards:
            out = shallow(out)
            out["boards"] = new_boards
    cards = data.get("cards")
    if isinstance(cards, (dict, list)):
        new_cards = _cards(cards, version, said)
        if new_cards is not cards:
            out = shallow(out) if out is data else out
            out["cards"] = new_cards
    for d in said:
        if d.severity == "warning":
            report.warn(d.code, d.message, d.loc, d.hint, d.fix)
        else:
            report.items.append(d)
    return out


def _version(data: dict, name: str, report: Report) -> int:
    """The version a file says (`language: N`), or the oldest read; a version this engine does not
    read is E027 (and the file is read as the current one)."""
    said = data.get("language")
    if said is None:
        return versions.OLDEST
    if isinstance(said, (bool, str, list, dict)):  # not a number: the file's schema says so (E023)
        return versions.CURRENT
    if isinstance(said, bool) or not isinstance(said, int) or not versions.OLDEST <= said <= versions.CURRENT:
        where = getattr(data, "key_locs", {}).get("language") or Loc(name)
        newer = isinstance(said, int) and not isinstance(said, bool) and said > versions.CURRENT
        report.add("E027", f"`language: {said}`: this engine reads files of language {versions.OLDEST} to "
                           f"{versions.CURRENT}", where,
                   "a newer Racecraft reads it" if newer else
                   f"the versions are {versions.OLDEST} to {versions.CURRENT}: a file of this engine says "
                   f"`language: {versions.CURRENT}`")
        return versions.CURRENT
    return said


def _boards(boards: dict, version: int, said: list[Diagnostic]) -> dict:
    out = boards
    for name, board in boards.items():
        if not isinstance(board, dict) or board.get("kind") not in KINDS:
            continue
        new = KINDS[str(board.get("kind"))].read_old(board, version, said)
        if new is not board:
            out = shallow(out) if out is boards else out
            out[name] = new
    return out


def _cards(cards: Any, version: int, said: list[Diagnostic]) -> Any:
    """Card types whose `props.label` named them (language 1): a `name` too."""
    items = list(cards.items()) if isinstance(cards, dict) else list(enumerate(cards))
    out = cards
    for key, card in items:
        if not isinstance(card, dict):
            continue
        props = card.get("props")
        if not isinstance(props, dict) or "label" not in props or "name" in card:
            continue
        label = props["label"]
        ident = card.get("id", key)
        where = getattr(props, "key_locs", {}).get("label") or loc_of(props)
        new_text = f"name: {json.dumps(str(label), ensure_ascii=False)}"
        said_one(said, version, LABEL_SINCE, f"card `{ident}`: `props.label` named the card for players",
                 where, new_text, _name_fix(card, ident, new_text))
        if version < LABEL_SINCE:
            new_card = shallow(card)
            new_card["name"] = label
            out = shallow(out) if out is cards else out
            out[key] = new_card
    return out


def said_one(said: list[Diagnostic], version: int, since: int, message: str, loc: Loc | None, new: str,
             fix: tuple[tuple[Loc, str, str], ...]) -> None:
    """An old form of a file's data, as `Report.old_form` says it."""
    report = Report()
    report.old_form(version, since, message, loc, new, fix)
    said.extend(report.items)


def _name_fix(card: Any, ident: Any, new_text: str) -> tuple[tuple[Loc, str, str], ...]:
    """The edit that gives a card its `name` beside its `id`: in a mapping written on one line
    (`{id: x, ...}`), after the id; in one written as lines, on a line of its own after it."""
    at = loc_of(card.get("id")) if isinstance(card.get("id"), str) else None
    if at is None:
        return ()
    line = source_line(at)
    if line is None:
        return ()
    written = line[at.col - 1:].split(",")[0].split("}")[0].rstrip()
    if not written or "{" in line[:at.col - 1]:  # one line: `{id: x, name: ..., ...}`
        return ((at, written, f"{written}, {new_text}"),) if written else ()
    key_col = line.index("id:") + 1 if "id:" in line else at.col
    end = Loc(at.file, at.line, len(line) + 1)
    return ((end, "", "\n" + " " * (key_col - 1) + new_text),)


__all__ = ["read_in_version", "said_one"]
