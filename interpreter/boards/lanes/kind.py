"""The lane track as a board kind (`boards/base.py`): its class with its built-ins, registered.

A lane track is spaces in a loop (or an open road), a few spots per space, lines across it; a
piece stands at a progress and a spot. The kind is in three parts: `model.py` (what a game
declares: checked, a track of segments expanded), `track.py` (the class `Lanes`: run-time data,
geometry, moves, the view) and `builtins.py` (the functions and effects of the rules, which need
the class). They meet here, so that the class is registered once it is whole
(`boards/__init__.py` imports this module); beside them, `text.py` and `picture.py` draw it.
"""
from __future__ import annotations

from ..base import register
from .builtins import BUILTINS
from .track import Lanes

Lanes.builtins = BUILTINS
register(Lanes)
