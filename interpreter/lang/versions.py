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

from .cache import Bounded

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
    """The version a file is read in: the one it says, else OLDEST."""
    if file is None:
        return CURRENT
    said = VERSIONS.get(file)
    return OLDEST if said is None else said


def says(file: str | None) -> bool:
    """Whether a file says its version."""
    return file is not None and VERSIONS.get(file) is not None


__all__ = ["CURRENT", "OLDEST", "VERSIONS", "note", "of", "says"]
