"""Time and memory budgets for running a ruleset's rules (`validate`, `play`).

The step budget (`limits.max_steps`) already stops any rule that loops, and the engine's size
ceilings stop any value that grows; these budgets are the last net under them, for whatever
slips through (a built-in given absurd arguments, a machine slower than expected): each run of
the rules between two decisions may take `SECONDS` of processor time and `MEGABYTES` more
memory. Passing one is a `RuleError` placed at the rule that was running.
"""
from __future__ import annotations

import signal
from contextlib import contextmanager
from typing import Iterator

from ..base.errors import GameTooLong

SECONDS = 10.0
MEGABYTES = 1024

try:  # not on every system
    import resource
except ImportError:  # pragma: no cover - Windows
    resource = None  # type: ignore[assignment]


class OutOfTime(GameTooLong):
    """The rules ran longer than the time budget between two decisions."""


def _on_alarm(signum, frame):
    raise OutOfTime(f"the rules ran for more than {SECONDS:g} seconds without asking for a decision "
                    "(the engine's time budget)")


@contextmanager
def budget(seconds: float = SECONDS, megabytes: int = MEGABYTES) -> Iterator[None]:
    """Run the block under a processor-time and a memory budget (where the system allows)."""
    timer = hasattr(signal, "setitimer") and _main_thread()
    if timer:
        old_handler = signal.signal(signal.SIGPROF, _on_alarm)
        signal.setitimer(signal.ITIMER_PROF, seconds)
    limits = None
    in_use = _in_use()
    if resource is not None and in_use:
        try:
            soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            cap = in_use + megabytes * 1024 * 1024
            if hard != resource.RLIM_INFINITY:
                cap = min(cap, hard)
            if soft == resource.RLIM_INFINITY or cap < soft:
                resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
                limits = (soft, hard)
        except (ValueError, OSError):  # pragma: no cover - a system that refuses
            limits = None
    try:
        yield
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, old_handler)
        if limits is not None and resource is not None:
            resource.setrlimit(resource.RLIMIT_AS, limits)


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _in_use() -> int:
    """The process's address space now, in bytes (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            pages = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * (resource.getpagesize() if resource is not None else 4096)
