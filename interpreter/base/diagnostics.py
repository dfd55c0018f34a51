"""Compiler-style diagnostics: `path:line:col: error[CODE]: message`, the line, a caret, a hint.

Every stage of the pipeline reports problems as `Diagnostic`s instead of raising Python
exceptions, so a designer never sees a traceback.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .cache import Bounded

# What a terminal would act on rather than show: C0 controls but the line feed and the tab, DEL,
# C1 controls, and the bidi embeddings, overrides and isolates (which reorder the text around them);
# and lone surrogates (undecodable bytes of a file name or an input line), which no terminal can print.
_INVISIBLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(m: re.Match) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def visible(text: str) -> str:
    """`text` with the characters a terminal would obey (escape sequences, a carriage return, a bell,
    bidi overrides) written as escapes (`\\x1b`, `\\u202e`): what a ruleset names is shown, never run.
    Line feeds and tabs stay; the result is safe to print and unchanged by a second pass."""
    return _INVISIBLE.sub(_escape, text)


@dataclass(frozen=True)
class Loc:
    """A position in a designer's file; line and col are 1-based."""

    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if not self.line:
            return self.file
        return f"{self.file}:{self.line}:{self.col}"


@dataclass
class Diagnostic:
    """One problem or warning: its code, message, position and hint, a second place (`also`), and
    the declarations it is about (`about`: a patch that changed one is blamed)."""
    code: str
    message: str
    loc: Loc | None = None
    hint: str | None = None
    severity: str = "error"
    notes: tuple[str, ...] = ()   # what was found, a line each (a scenario's values), before the hint
    # a second place, shown with its line after the first: (what it is, where), e.g. the base rule
    # that reads what a patch (the first place) changed
    also: tuple[str, Loc] | None = None
    # the declarations the problem is about (`params.hand_size`, `state.score`), when known: a
    # problem of the base rules caused by a patch is said at the patch (`load/provenance.py`)
    about: frozenset[str] = field(default=frozenset(), compare=False, repr=False)
    # how `racecraft upgrade` rewrites an old form: (where, the text there, the text it becomes)
    fix: tuple[tuple[Loc, str, str], ...] = field(default=(), compare=False, repr=False)

    def render(self, sources: dict[str, str] | None = None,
               lines: dict[str, list[str] | None] | None = None) -> str:
        """The diagnostic as printed; `lines` caches the files' lines across the diagnostics of a
        report (each file read and split once)."""
        where = f"{self.loc}: " if self.loc else ""
        out = [f"{where}{self.severity}[{self.code}]: {self.message}"]
        snippet = _snippet(self.loc, sources, lines)
        if snippet:
            out.append(snippet)
        if self.also is not None:
            out.append(f"  = note: {self.also[0]}: {self.also[1]}")
            snippet = _snippet(self.also[1], sources, lines)
            if snippet:
                out.append(snippet)
        out.extend(f"  = note: {note}" for note in self.notes)
        if self.hint:
            out.append(f"  = hint: {self.hint}")
        return "\n".join(out)


# Texts of the files read lately in this process, so that a snippet shows what was checked.
SOURCES: Bounded[str, str] = Bounded(512)


# A file a snippet reads (one no reader kept in SOURCES) is read only if it is a regular file of at
# most this size; a line longer than SNIPPET_WHOLE characters is shown as SNIPPET of them, around
# the column (a 10 MB line is not printed whole).
SNIPPET_FILE_BYTES = 4_000_000
SNIPPET_WHOLE = 4_000
SNIPPET = 200


# The lines of a text split last (the checker reads the lines of one file many times in a row).
_SPLIT: Bounded[str, tuple[str, list[str]]] = Bounded(8)


def _lines(file: str, sources: dict[str, str] | None) -> list[str] | None:
    text = sources.get(file) if sources else SOURCES.get(file)
    if text is None:
        from .files import FileRefused, read_limited

        try:
            text = read_limited(Path(file), SNIPPET_FILE_BYTES).decode("utf-8")
        except (FileRefused, UnicodeDecodeError):
            return None
    split = _SPLIT.get(file)
    if split is None or split[0] != text:   # (the same text, or one read again since)
        split = (text, text.splitlines())
        _SPLIT[file] = split
    return split[1]


def source_line(loc: Loc) -> str | None:
    """The text of the file line a position is on (a file read lately, or a regular file within
    the snippet limit), or None."""
    lines = _lines(loc.file, None)
    return lines[loc.line - 1] if lines is not None and 0 < loc.line <= len(lines) else None


def _snippet(loc: Loc | None, sources: dict[str, str] | None,
             cache: dict[str, list[str] | None] | None = None) -> str:
    if loc is None or not loc.line:
        return ""
    if cache is None:
        lines = _lines(loc.file, sources)
    elif loc.file in cache:
        lines = cache[loc.file]
    else:
        lines = cache[loc.file] = _lines(loc.file, sources)
    if lines is None or not 0 < loc.line <= len(lines):
        return ""
    raw = lines[loc.line - 1].replace("\t", " ")
    col = max(loc.col - 1, 0)
    if len(raw) > SNIPPET_WHOLE:  # a very long line: the part around the column
        start = max(0, min(col - SNIPPET // 2, len(raw) - SNIPPET))
        head, tail = ("..." if start else ""), ("..." if start + SNIPPET < len(raw) else "")
        raw, col = head + raw[start:start + SNIPPET] + tail, col - start + len(head)
    # shown with its invisible characters escaped, the caret moved by as much as they grew
    line = visible(raw)
    num = str(loc.line)
    pad = " " * len(num)
    caret = " " * len(visible(raw[:col])) + "^"
    return f"{pad} |\n{num} | {line}\n{pad} | {caret}"


# How many diagnostics a report prints before it only counts the rest.
SHOWN = 200


@dataclass
class Report:
    """Diagnostics gathered by a stage; `ok` when none is an error."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, code: str, message: str, loc: Loc | None = None, hint: str | None = None,
            notes: tuple[str, ...] = (), about: frozenset[str] = frozenset()) -> None:
        self.items.append(Diagnostic(code, message, loc, hint, notes=notes, about=about))

    def warn(self, code: str, message: str, loc: Loc | None = None, hint: str | None = None,
             fix: tuple[tuple[Loc, str, str], ...] = ()) -> None:
        """Something that is allowed but most likely not what the author meant (said once, however
        often the file is loaded)."""
        d = Diagnostic(code, message, loc, hint, "warning", fix=fix)
        if d not in self.items:
            self.items.append(d)

    def old_form(self, version: int, since: int, message: str, loc: Loc | None, new: str,
                 fix: tuple[tuple[Loc, str, str], ...] = ()) -> None:
        """A form the language replaced in version `since`, found in a file of `version`: a
        warning that shows the new form before it (W107, read as the new form), an error whose hint
        names it from it (E107)."""
        if version < since:
            self.warn("W107", f"{message}: since language {since} it is written `{new}`", loc,
                      f"`racecraft upgrade {loc.file if loc else 'FILE'}` rewrites it; from language {since} "
                      "the old form is an error", fix)
        else:
            self.items.append(Diagnostic("E107", f"{message}: since language {since} it is written `{new}`",
                                         loc, f"write `{new}`", fix=fix))

    def extend(self, other: "Report") -> None:
        self.items.extend(other.items)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.items)

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.items)

    def render(self, limit: int | None = SHOWN) -> str:
        """The diagnostics, the first `limit` of them (all with None), then how many more there
        are. Each file is read and split once, so rendering is linear in the diagnostics."""
        items = self.items if limit is None else self.items[:limit]
        cache: dict[str, list[str] | None] = {}
        out = [d.render(lines=cache) for d in items]
        rest = self.items[len(items):]
        if rest:
            n, errors = len(rest), sum(d.severity == "error" for d in rest)
            s = "s" if n != 1 else ""
            what = (f"error{s}" if errors == n else f"warning{s}" if not errors
                    else f"diagnostics ({errors} error{'s' if errors != 1 else ''})")
            out.append(f"... and {n} more {what}")
        return "\n\n".join(out)


class RulesetError(Exception):
    """Raised to stop a stage that cannot go on; carries the diagnostics gathered so far."""

    def __init__(self, report: Report):
        super().__init__(report.render())
        self.report = report


def did_you_mean(name: str, candidates: Iterable[object]) -> str | None:
    close = difflib.get_close_matches(str(name), [str(c) for c in candidates], n=3, cutoff=0.6)
    if not close:
        return None
    return "did you mean " + " or ".join(f"`{c}`" for c in close) + "?"
