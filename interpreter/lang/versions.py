"""The language's versions: which one each file is written in.

A file says its version on a line of its own at the top (`language: 2`). A file that says none is
read in the oldest version this engine still reads (`OLDEST`): a file written before versions
existed keeps working. A form of an older version that a newer one replaced keeps working for one
version: in a file of the older version it is read as the new form, with a warning that shows the
new form (at its line); in a file of the version that replaced it, it is an error whose hint names
the new form. `racecraft upgrade FILE` rewrites a file to the current version where the change is
mechanical (`authoring/upgrade.py`).

The loader notes each file's version as it reads it (`note`); any later pass asks by the file a
position is in (`of`), as the diagnostics find a file's text by its name (`SOURCES`).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..base.cache import Bounded

CURRENT = 2   # the version this engine writes and documents
OLDEST = 1    # the oldest it still reads (a file without `language:` is read in it)

# Each file read lately in this process -> the version it says (files that say none are absent).
VERSIONS: Bounded[str, int] = Bounded(512)


def note(file: str, version: int | None) -> None:
    """Note the version a file says (None: it says none)."""
    if version is None:
        VERSIONS.pop(file, None)
    else:
        VERSIONS[file] = version


def of(file: str | None) -> int:
    """The version a file is read in: the one it says, else OLDEST. A rule from no file (a game
    built in Python, a `<rule ...>` of its own) is written now: the current version."""
    if file is None or file.startswith("<"):
        return CURRENT
    said = VERSIONS.get(file)
    return OLDEST if said is None else said


def says(file: str | None) -> bool:
    """Whether a file says its version."""
    return file is not None and VERSIONS.get(file) is not None


@dataclass(frozen=True)
class OldForm:
    """A form a newer version replaced, and what it is now: `piece.slot` (an attribute of a piece,
    a seat: `seat.NAME`) or `cell_rect(board, piece)` (a call, its parameters named), now the
    expression `new` (`slot_of(piece)`), where the names of the old form stand for what was written
    there. Read as `new`, with a warning, in a file of a version before `since`; an error from it."""
    old: str
    new: str
    since: int

    @property
    def call(self) -> tuple[str, list[str]] | None:
        """(its name, its parameters) when the old form is a call."""
        if "(" not in self.old:
            return None
        name, _, rest = self.old.partition("(")
        return name.strip(), [p.strip() for p in rest.rstrip(")").split(",") if p.strip()]

    @property
    def attribute(self) -> tuple[str, str] | None:
        """(`seat` or `piece`, the attribute) when the old form is an attribute."""
        if "(" in self.old or "." not in self.old:
            return None
        owner, _, name = self.old.partition(".")
        return owner.strip(), name.strip()


__all__ = ["CURRENT", "OLDEST", "VERSIONS", "OldForm", "note", "of", "says"]


@dataclass(frozen=True)
class Changed:
    """A change of what the engine does with the same rules (not a form of the language, so no file
    is warned about it): a scenario written before it that fails where it matters is told of it,
    as of the changes a ruleset declares in its own `changes:`."""
    said: str
    since: str
    touches: tuple[str, ...]   # words of a failing scenario item or its message that show it matters
    # what the game's rules must hold for it to matter (a built-in called so, or `emit` of an event
    # with values); none: any game
    uses: tuple[str, ...] = ()


ENGINE_CHANGES = (
    Changed("two options of one `choose` ranging over `shuffled(...)` each draw their own order "
            "(they shared the first one's): a scenario seeded before it may see other options",
            "2026-11", ("shuffled",), ("shuffled",)),
    Changed("an event's values (`emit NAME(a, b)`) are worked out once for all its triggers (they were "
            "worked out again for a trigger after one that waits for a decision)", "2026-11", ("emit",),
            ("emit",)),
    Changed("each trigger of an event gets its values under the names it gives them (a second trigger "
            "naming them otherwise read the first one's and saw nothing)", "2026-11", ("trigger",),
            ("emit",)),
)
