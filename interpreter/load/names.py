"""Racecraft: load, names. Stage: while reading a ruleset's files. How a name that picks a file (a
game, a variant, a module, a track) is written, and how a diagnostic quotes one a file gave."""
from __future__ import annotations

import re
from typing import Any

NAME_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")


def is_name(name: Any) -> bool:
    """Whether `name` may name a variant, module, track or game: `NAME_RE`, never a path."""
    return isinstance(name, str) and NAME_RE.fullmatch(name) is not None


def shown(name: Any, width: int = 60) -> str:
    """A name as a diagnostic quotes it: control characters (a NUL, a line break) escaped and a
    long one cut short."""
    text = name if isinstance(name, str) else repr(name)
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= width else text[: width - 3] + "..."
