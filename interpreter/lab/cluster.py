"""Simulations on a Ray cluster (`--backend ray`): the tasks of `simulate.run` as Ray remote calls.

Every task is a setup and its (index, seed) games; a worker plays them with `simulate.play_games`
exactly as a local process would, so the rows (and the statistics) are those of a local run with
the same seed. Ray is optional (`pip install 'racecraft[cluster]'`): nothing here imports it until a
backend is made.

Where the cluster is: `--ray-address ADDRESS` (or the `RAY_ADDRESS` variable, Ray's own); without
either, `ray.init()` starts a Ray instance on this machine. Every node needs Racecraft installed (the
same version) and the rulesets it plays: a ruleset given by path is sent as its absolute path, so put
projects on a shared filesystem or at the same path on every node.
"""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any, Iterator

INSTALL_HINT = "pip install 'racecraft[cluster]'"


class ClusterUnavailable(Exception):
    """Ray is not installed, or the cluster cannot be reached: a message for a person."""


def _import_ray():
    try:
        import ray
    except ImportError:
        raise ClusterUnavailable(f"--backend ray needs Ray: {INSTALL_HINT}") from None
    return ray


class RayBackend:
    """Maps tasks over a Ray cluster's workers, in the order of the tasks."""

    def __init__(self, address: str | None = None):
        ray = _import_ray()
        self._ray = ray
        if not ray.is_initialized():
            where = address or os.environ.get("RAY_ADDRESS") or None
            try:
                ray.init(address=where, include_dashboard=False, log_to_driver=False,
                         ignore_reinit_error=True, configure_logging=False)
            except (ConnectionError, RuntimeError, ValueError) as e:
                raise ClusterUnavailable(f"cannot reach the Ray cluster at {where}: {e}") from None
        self.jobs = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote: Any = None

    def map(self, fn, tasks) -> Iterator[list[dict]]:
        if self._remote is None:
            self._remote = self._ray.remote(_call)
        refs = [self._remote.remote(fn, _portable(t)) for t in tasks]
        for ref in refs:
            yield self._ray.get(ref)


def _call(fn, task):
    return fn(task)


def _portable(task):
    """The task with a ruleset given by path made absolute (a worker may run elsewhere); a name stays."""
    setup, games = task
    path = Path(setup.ruleset)
    if path.exists():
        setup = dataclasses.replace(setup, ruleset=str(path.resolve()))
    return setup, games


def make_backend(kind: str, jobs: int | None, address: str | None):
    """The backend a command asked for: `local` (the processes of this machine) or `ray`."""
    if kind == "ray":
        return RayBackend(address)
    return None  # the local default, sized by the command
