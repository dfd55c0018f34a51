"""A game stopped from outside ends as Ctrl-C ends it: closing the terminal (SIGHUP) or being told to
stop (SIGTERM, as `kill` and a system shutting down do) raises `Stopped`, a `KeyboardInterrupt`, where
the game is; the command then says where to go on from and closes its record, as for Ctrl-C.

What is written survives even a kill that cannot be caught (SIGKILL): records and saves are journals,
a line per decision as it is taken (`session/record.py`, `lab/series.py`)."""
from __future__ import annotations

import signal
from contextlib import contextmanager
from typing import Iterator

SIGNALS = tuple(getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name))


class Stopped(KeyboardInterrupt):
    """The process was told to stop by a signal."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _stop(signum, frame):
    raise Stopped(signum)


@contextmanager
def stopped_like_ctrl_c() -> Iterator[None]:
    """SIGHUP and SIGTERM raise `Stopped` inside the block (in the main thread; elsewhere nothing
    changes)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.signal(s, _stop) for s in SIGNALS}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
