"""A cells board's view drawn as text lines (to be ported from the kind)."""
from __future__ import annotations


def lines(board: dict, view: dict) -> list[str]:
    return [f"{p['piece']}: {p['where']}" for p in board.get("pieces", [])]
