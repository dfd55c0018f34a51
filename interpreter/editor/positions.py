"""Places in a file: a diagnostic's (`Loc`) counts lines and characters from 1, these count them
from 0 (characters as Python does; the server turns them into the code units the editor and it
agreed on). A name is letters, digits and `_`; a dotted name (`functions.value_of`, a patch's
target) joins them with dots.
"""
from __future__ import annotations

import re

_WORD = re.compile(r"[A-Za-z0-9_]")
_DOTTED = re.compile(r"[A-Za-z0-9_.]")
Span = tuple[int, int, int, int]   # first line, its character, last line, its character (from 0)


def line_of(lines: list[str], number: int) -> str:
    """Line `number` (from 0), or "" past the end."""
    return lines[number] if 0 <= number < len(lines) else ""


def span_of(line: int, col: int, lines: list[str]) -> Span:
    """The range of a diagnostic at (line, col) counted from 1: the name that starts there,
    or its one character (a place without a line: the file's first character)."""
    if line <= 0:
        return (0, 0, 0, 1)
    text = line_of(lines, line - 1)
    i = min(max(col - 1, 0), len(text))
    end = i
    while end < len(text) and _WORD.match(text[end]):
        end += 1
    end = max(end, min(i + 1, len(text)))
    return (line - 1, i, line - 1, end)


def word_at(line: str, i: int, dotted: bool = False) -> tuple[int, int]:
    """The (start, end) indexes of the name under index `i` of `line` (or just before it: the end
    of a word being typed); start == end when there is none."""
    pattern = _DOTTED if dotted else _WORD
    start = i
    while start > 0 and pattern.match(line[start - 1]):
        start -= 1
    end = i
    while end < len(line) and pattern.match(line[end]):
        end += 1
    return start, end
