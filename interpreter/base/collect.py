"""Fewer runs of Python's cyclic garbage collector while a game is loaded, checked and compiled.

Those passes make hundreds of thousands of small objects (syntax trees, Python `ast` nodes) that
live until the pass ends. The collector runs after every 700 new objects and walks all the young
ones each time, and the older ones every tenth run: about a third of compiling the largest
shipped game went to it. While a pass runs, it runs after every 100,000 new objects instead;
what the passes make is freed by reference counting as before, and the collector's thresholds
are put back after. Games being played make few objects the collector follows, and are not
affected (measured).
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

PASS_THRESHOLDS = (100_000, 50, 50)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the collector rarely inside (as a `with` block or a decorator); nests."""
    before = gc.get_threshold()
    gc.set_threshold(*(max(a, b) for a, b in zip(PASS_THRESHOLDS, before)))
    try:
        yield
    finally:
        gc.set_threshold(*before)
