"""Simulations on a Ray cluster (`--backend ray`): the tasks of `simulate.run` as Ray remote calls.

Every task is a setup and its (index, seed) games; a worker plays them with `simulate.play_games`
exactly as a local process would, so the rows (and the statistics) are those of a local run with
the same seed. Ray is optional (`pip install 'racecraft[cluster]'`): nothing here imports it until a
backend is made.

Where the cluster is: `--ray-address ADDRESS` (or the `RAY_ADDRESS` variable, Ray's own); without
either, a Ray instance is started on this machine for the run, and stopped after it: it listens on
the loopback interface only (127.0.0.1: nothing of it is reachable from the network), keeps its
session files in a folder of its own that only this user may open, and that folder is removed when
the run ends. Every node of a cluster needs Racecraft installed (the same version) and the rulesets
it plays: a ruleset given by path is sent as its absolute path, so put projects on a shared
filesystem or at the same path on every node.
"""
from __future__ import annotations

import dataclasses
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

from .extras import install_hint

INSTALL_HINT = install_hint("cluster")


class ClusterUnavailable(Exception):
    """Ray is not installed, or the cluster cannot be reached: a message for a person."""


def _import_ray():
    try:
        import ray
    except ImportError:
        raise ClusterUnavailable(f"--backend ray needs Ray: {INSTALL_HINT}") from None
    return ray


class RayBackend:
    """Maps tasks over a Ray cluster's workers, in the order of the tasks. `close()` stops the Ray
    instance it started (none when it joined a cluster or found Ray running) and removes its files."""

    def __init__(self, address: str | None = None):
        ray = _import_ray()
        self._ray = ray
        self._started: str | None = None   # the session folder of the instance started here
        if not ray.is_initialized():
            where = address or os.environ.get("RAY_ADDRESS") or None
            if where is None:
                self._started = _start_local(ray)
            else:
                try:
                    ray.init(address=where, include_dashboard=False, log_to_driver=False,
                             ignore_reinit_error=True, configure_logging=False)
                except Exception as e:  # noqa: BLE001 - Ray raises many kinds; each is a message here
                    why = _first_line(e)
                    raise ClusterUnavailable(f"cannot reach the Ray cluster at {where}: {why}") from None
        self.jobs = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote: Any = None

    def map(self, fn, tasks) -> Iterator[list[dict]]:
        if self._remote is None:
            self._remote = self._ray.remote(_call)
        refs = [self._remote.remote(fn, _portable(t)) for t in tasks]
        for ref in refs:
            yield self._ray.get(ref)

    def close(self) -> None:
        if self._started is None:
            return
        folder, self._started = self._started, None
        try:
            self._ray.shutdown()
        finally:
            shutil.rmtree(folder, ignore_errors=True)


LOOPBACK = "127.0.0.1"


def _start_local(ray) -> str:
    """Start Ray on this machine for this run, on the loopback interface, its files in a new private
    folder (returned). Ray takes a node's address as the one others reach it by, and resolves
    `127.0.0.1` to the machine's network address unless told it runs alone: that is what
    `RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0` says (its name is Ray's), for the processes it starts
    and, already imported, for this one."""
    # Ray opens its own session folder to everybody (mode 0777): it is made inside one that only this
    # user may open (mkdtemp: 0700), which is removed after the run
    folder = tempfile.mkdtemp(prefix="racecraft-ray-")
    saved = os.environ.get(_ALONE)
    os.environ[_ALONE] = "0"
    constants = sys.modules.get("ray._private.ray_constants")
    was = getattr(constants, "ENABLE_RAY_CLUSTER", None)
    if constants is not None and was is not None:
        constants.ENABLE_RAY_CLUSTER = False  # type: ignore[attr-defined]
    try:
        ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False,
                 _node_ip_address=LOOPBACK, _temp_dir=os.path.join(folder, "r"))
        node = getattr(getattr(ray, "_private", None), "worker", None)
        address = getattr(getattr(node, "_global_node", None), "node_ip_address", LOOPBACK)
        if address != LOOPBACK:
            ray.shutdown()
            raise ClusterUnavailable(f"Ray would listen on {address}, not only on this machine "
                                     f"({LOOPBACK}); give --ray-address to use a cluster")
    except ClusterUnavailable:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    except Exception as e:  # noqa: BLE001 - Ray raises many kinds; each is a message here
        try:
            ray.shutdown()
        except Exception:  # noqa: BLE001, S110 - it did not start: nothing to stop
            pass
        shutil.rmtree(folder, ignore_errors=True)
        raise ClusterUnavailable(f"Ray could not start on this machine: {_first_line(e)}") from None
    finally:
        if saved is None:
            os.environ.pop(_ALONE, None)
        else:
            os.environ[_ALONE] = saved
        if constants is not None and was is not None:
            constants.ENABLE_RAY_CLUSTER = was  # type: ignore[attr-defined]
    return folder


_ALONE = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def _first_line(e: Exception) -> str:
    text = str(e).strip().splitlines()
    line = text[0] if text else type(e).__name__
    return line if len(line) <= 300 else line[:297] + "..."


def _call(fn, task):
    return fn(task)


def _portable(task):
    """The task with a ruleset given by path made absolute (a worker may run elsewhere); a name
    stays. A task is a setup and its games (`simulate`), or a record with a `setup` (`train`)."""
    if dataclasses.is_dataclass(task) and not isinstance(task, type):
        return dataclasses.replace(task, setup=_portable_setup(task.setup))  # type: ignore[attr-defined]
    setup, games = task
    return _portable_setup(setup), games


def _portable_setup(setup):
    path = Path(setup.ruleset)
    if path.exists():
        setup = dataclasses.replace(setup, ruleset=str(path.resolve()))
    return setup


def make_backend(kind: str, jobs: int | None, address: str | None):
    """The backend a command asked for: `local` (the processes of this machine) or `ray`."""
    if kind == "ray":
        return RayBackend(address)
    return None  # the local default, sized by the command
