"""Board kinds: each a generic primitive with its declaration model, run-time data and built-ins.

A kind lives in its own module here and registers itself with `@register`; importing this
package imports every kind. A game's `boards:` entries (or a track file's) name a kind, and the
compiler builds one `BoardKind` object per board.
"""
from __future__ import annotations

from .base import KINDS, BoardKind, register  # noqa: F401
from .ranking import kind as _ranking  # noqa: F401,E402  (each kind registers itself on import)
from .lanes import kind as _lanes  # noqa: F401,E402
from .tiles import kind as _tiles  # noqa: F401,E402
from .cells import kind as _cells  # noqa: F401,E402
from .stacks import kind as _stacks  # noqa: F401,E402


def board_models() -> list:
    return [kind.Model for kind in KINDS.values()]
