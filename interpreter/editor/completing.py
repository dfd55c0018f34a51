"""What the editor offers at a place of a file, from what it knows of the game (`knowledge.py`):

- in rule text: the names a rule may use (built-ins with their signature, params with their value,
  state, piles, dice, boards, pieces, functions, procedures) and the words of the language; after
  a dot, the attributes (state of a seat, a piece or a card, card properties); after a quote, the
  card types too;
- after a patch's `extend:`, `add:`, `set:`, ... : the rules, named statements and choices, params
  and sections it may aim at;
- in a scenario, after `variants:`, `modules:` or `track:` (or in their lists): the game's; a key
  under `params:`: the game's params.

Rule text is told from YAML keys by where the place is: after a key's colon, or inside a block
(`do: |`); the start of a line of keys is the schema's to complete (`docs/editor-setup.md`).
"""
from __future__ import annotations

import re

from .knowledge import Knowledge, Known, words
from .positions import word_at

_TARGET = re.compile(r"^\s*(?:-\s+)?(?:set|replace|update|remove|add|extend|change)\s*:\s*$")
_OPTION = re.compile(r"^\s*(variants|modules|track)\s*:")
_PARAMS = re.compile(r"^params\s*:\s*(?:#.*)?$")
_ITEM = re.compile(r"^\s*-\s*[\w-]*$")
_KEY = re.compile(r"^\s*(?:-\s+)?[\w-]*$")
_BLOCK = re.compile(r":\s*[|>][-+0-9]*\s*(?:#.*)?$")


def complete(k: Knowledge, lines: list[str], row: int, i: int,
             scenario: bool = False) -> tuple[list[Known], tuple[int, int]]:
    """The names offered at index `i` of line `row`, and the part of the line they replace."""
    line = lines[row] if 0 <= row < len(lines) else ""
    i = min(i, len(line))
    start, end = word_at(line, i, dotted=True)
    before = line[:start]
    if _TARGET.match(before):
        return list(k.targets.values()), (start, end)
    if scenario:
        key = _option_key(lines, row, before)
        if key is not None:
            start, end = word_at(line, i)
            return [Known(v, key, f"{key}: {v}") for v in k.options.get(key, [])], (start, end)
    if _KEY.match(before) and not in_block(lines, row):
        return [], (i, i)
    start, end = word_at(line, i)
    if start > 0 and line[start - 1] == ".":
        return list(k.attributes.values()), (start, end)
    found = list(k.names.values()) + [Known(w, "word", "a word of the rule language") for w in words()]
    if start > 0 and line[start - 1] in "\"'":
        found += list(k.cards.values())
    return found, (start, end)


def _option_key(lines: list[str], row: int, before: str) -> str | None:
    """The scenario key (`variants`, `modules`, `track`) whose value is being written, if one is."""
    m = _OPTION.match(before)
    if m is not None:
        return m.group(1)
    parent = _parent(lines, row)
    above = lines[parent] if parent is not None else ""
    if _ITEM.match(before):   # an item of a list under the key
        m = _OPTION.match(above)
        if m is not None:
            return m.group(1)
    if _KEY.match(before) and _PARAMS.match(above):   # a param's name, to set its value
        return "params"
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _parent(lines: list[str], row: int) -> int | None:
    """The nearest line above `row` indented less (or, for a list item, no more) than it."""
    here = _indent(lines[row]) if 0 <= row < len(lines) else 0
    item = lines[row].lstrip().startswith("-") if 0 <= row < len(lines) else False
    for r in range(row - 1, -1, -1):
        text = lines[r]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if _indent(text) < here or (item and _indent(text) == here and not text.lstrip().startswith("-")):
            return r
    return None


def in_block(lines: list[str], row: int) -> bool:
    """Is line `row` inside a block of text (`do: |`, `value: >`)? Its lines may be indented
    further (a rule's own blocks): the lines it is under are looked at, out to the file's keys."""
    while True:
        parent = _parent(lines, row)
        if parent is None:
            return False
        if _BLOCK.search(lines[parent]) is not None:
            return True
        if _indent(lines[parent]) == 0:
            return False
        row = parent


def known_at(k: Knowledge, line: str, i: int) -> tuple[Known, tuple[int, int]] | None:
    """The declared name under index `i` of `line` (a patch's dotted target, a rule's name, an
    attribute after a dot, a card type), and where it is in the line; None for any other word."""
    start, end = word_at(line, i, dotted=True)
    if line[start:end] in k.targets and "." in line[start:end]:
        return k.targets[line[start:end]], (start, end)
    start, end = word_at(line, i)
    word = line[start:end]
    if not word:
        return None
    if start > 0 and line[start - 1] == "." and word in k.attributes:
        return k.attributes[word], (start, end)
    found = k.find(word)
    return (found, (start, end)) if found is not None else None
