"""Compiler-style diagnostics: `path:line:col: error[CODE]: message`, the line, a caret, a hint.

Every stage of the pipeline reports problems as `Diagnostic`s instead of raising Python
exceptions, so a designer never sees a traceback.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path


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
    code: str
    message: str
    loc: Loc | None = None
    hint: str | None = None
    severity: str = "error"

    def render(self, sources: dict[str, str] | None = None) -> str:
        where = f"{self.loc}: " if self.loc else ""
        out = [f"{where}{self.severity}[{self.code}]: {self.message}"]
        snippet = _snippet(self.loc, sources)
        if snippet:
            out.append(snippet)
        if self.hint:
            out.append(f"  = hint: {self.hint}")
        return "\n".join(out)


# Texts of the files read in this process, so that a snippet shows what was checked.
SOURCES: dict[str, str] = {}


def _snippet(loc: Loc | None, sources: dict[str, str] | None) -> str:
    if loc is None or not loc.line:
        return ""
    text = (sources or SOURCES).get(loc.file)
    if text is None:
        try:
            text = Path(loc.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""
    lines = text.splitlines()
    if not 0 < loc.line <= len(lines):
        return ""
    line = lines[loc.line - 1].replace("\t", " ")
    num = str(loc.line)
    pad = " " * len(num)
    caret = " " * max(loc.col - 1, 0) + "^"
    return f"{pad} |\n{num} | {line}\n{pad} | {caret}"


@dataclass
class Report:
    """Diagnostics gathered by a stage; `ok` when none is an error."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, code: str, message: str, loc: Loc | None = None, hint: str | None = None) -> None:
        self.items.append(Diagnostic(code, message, loc, hint))

    def extend(self, other: "Report") -> None:
        self.items.extend(other.items)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.items)

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.items)

    def render(self) -> str:
        return "\n\n".join(d.render() for d in self.items)


class RulesetError(Exception):
    """Raised to stop a stage that cannot go on; carries the diagnostics gathered so far."""

    def __init__(self, report: Report):
        super().__init__(report.render())
        self.report = report


def did_you_mean(name: str, candidates) -> str | None:
    close = difflib.get_close_matches(str(name), [str(c) for c in candidates], n=3, cutoff=0.6)
    if not close:
        return None
    return "did you mean " + " or ".join(f"`{c}`" for c in close) + "?"
