"""Worker processes that start as copies of this one: `validate` and `simulate` load and compile
a game once, here, and their workers play it without loading or compiling it again."""
from __future__ import annotations

import sys


def fork_context():
    """The multiprocessing context of processes forked from this one, on Linux (where forking is
    safe and cheap; it is not the default start method from Python 3.14 on); None elsewhere, where
    a worker loads and compiles what it needs itself."""
    if not sys.platform.startswith("linux"):
        return None
    import multiprocessing

    return multiprocessing.get_context("fork")
