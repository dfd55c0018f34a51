"""Searches run side by side: a search bot's trees on every core (root parallelism).

`side_by_side(tasks)` gives each task's result, in order, as if they had been run one after the
other: shared in turn among this process and processes forked from it (each has the game as it
stands, nothing is sent to it), as many processes as there are cores; where there is one core or
no `fork`, all in this process. A forked process runs only its task (another thread of this one,
a screen's spinner, is not in it) and leaves without flushing what this one had buffered. A
task's result comes back through a pipe, pickled by the process this one forked (never read from
a file or another program). An error in a task is raised here, as the task's own; a process left
behind (this one interrupted: Ctrl-C, the time budget) is stopped and waited for.
"""
from __future__ import annotations

import os
import pickle
import signal
from functools import partial
from typing import Any, Callable

from ..base.errors import RuleError


def side_by_side(tasks: list[Callable[[], Any]]) -> list[Any]:
    if not tasks:
        return []
    n = len(tasks)
    forks = _forks(n)
    # process j runs tasks j, j + forks, j + 2 forks ...: this one the first of them
    children: list[tuple[int, int, int]] = []   # (its first task, pid, read end of its pipe)
    results: list[Any] = [None] * n
    try:
        for j in range(1, forks):
            children.append((j, *_start(partial(_all, tasks[j::forks]))))
        for i in range(0, n, forks):
            results[i] = tasks[i]()
        while children:
            j, pid, fd = children.pop(0)
            results[j::forks] = _collect(pid, fd)
    finally:
        for _j, pid, fd in children:   # interrupted: nothing may outlive this call
            _stop(pid, fd)
    return results


def _all(tasks: list[Callable[[], Any]]) -> list[Any]:
    return [task() for task in tasks]


def _forks(n: int) -> int:
    """How many of `n` tasks run at once, this process's counted."""
    if n < 2 or not hasattr(os, "fork"):
        return 1
    return max(1, min(n, cores()))


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _start(task: Callable[[], Any]) -> tuple[int, int]:
    # the time budget this process runs under, if any (`session/budget.py`): a forked process
    # has no timer of its own, so it is given what is left of this one's, with the same handler
    left = signal.getitimer(signal.ITIMER_PROF)[0] if hasattr(signal, "getitimer") else 0.0
    read, write = os.pipe()
    pid = os.fork()
    if pid:
        os.close(write)
        return pid, read
    # the forked process: run the task, send its result or its error, and leave at once
    code = 1
    try:
        os.close(read)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_IGN)   # the process that forked it answers Ctrl-C
        if left > 0:
            signal.setitimer(signal.ITIMER_PROF, left)
        try:
            out: tuple = ("done", task())
        except RuleError as e:   # the ruleset's error (or the time budget's), as it was raised
            out = ("rule", e)
        except BaseException as e:  # noqa: BLE001 - said in the process that forked this one
            out = ("failed", f"{type(e).__name__}: {e}")
        try:
            data = pickle.dumps(out)
        except Exception:  # noqa: BLE001 - an error that does not pickle: its words
            data = pickle.dumps(("failed", str(out[1])))
        with os.fdopen(write, "wb") as f:
            f.write(data)
        code = 0
    finally:
        os._exit(code)


def _collect(pid: int, fd: int) -> Any:
    with os.fdopen(fd, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    if not data:
        raise RuntimeError("a search process ended without its result")
    kind, value = pickle.loads(data)  # noqa: S301 - written by the process this one forked
    if kind == "done":
        return value
    if kind == "rule":
        raise value
    raise RuntimeError(f"a search process failed: {value}")


def _stop(pid: int, fd: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:  # pragma: no cover - it had ended
        pass
    os.close(fd)
    os.waitpid(pid, 0)
