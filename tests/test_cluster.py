"""`--backend ray`: the same games as a local run, on a Ray instance started here (a cluster is the
same code with an address), listening on the loopback interface only, its session folder private
and removed after the run. Skipped, saying why, where Ray is not installed; CI installs it."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.lab.compare import compare
from interpreter.lab.simulate import Setup, simulate

ROOT = Path(__file__).resolve().parents[1]

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[cluster]')")

_TIMING = {"seconds", "games_per_second", "jobs", "elapsed"}


def _without_timing(x):
    if isinstance(x, dict):
        return {k: _without_timing(v) for k, v in x.items() if k not in _TIMING}
    if isinstance(x, list):
        return [_without_timing(v) for v in x]
    return x


def _listening() -> set[tuple[str, str]]:
    """(address, port) of every listening TCP socket of this machine, in /proc's hexadecimal."""
    out = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == "0A":  # LISTEN
                out.add(tuple(fields[1].split(":")))
    return out


# 127.0.0.1 as /proc writes it (little-endian), alone and mapped into IPv6; ::1
_LOOPBACK = {"0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000"}


@pytest.fixture(scope="module")
def started():
    """A Ray instance started by the backend itself, as `--backend ray` without an address does; the
    sockets that appeared meanwhile, its session folder."""
    from interpreter.lab.cluster import RayBackend

    before = _listening()
    backend = RayBackend()
    opened = _listening() - before
    folder = backend._started
    try:
        yield backend, opened, folder
    finally:
        backend.close()
    # what a local run started is gone with it (an error of the last test using it otherwise)
    assert folder is not None and not os.path.exists(folder) and not ray.is_initialized()


@pytest.fixture
def backend(started):
    return started[0]


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="no /proc/net/tcp here")
def test_a_ray_started_here_listens_on_loopback_only_in_a_private_folder(started):
    backend, opened, folder = started
    assert opened, "Ray opened no socket?"
    assert {address for address, _port in opened} <= _LOOPBACK, opened
    assert folder is not None and stat.S_IMODE(os.stat(folder).st_mode) == 0o700  # Ray's own inside it
    assert ray._private.worker._global_node.node_ip_address == "127.0.0.1"


def test_ray_that_cannot_start_is_a_clear_error(tmp_path):
    """Ray refuses a session folder whose socket names would be too long: its own error, said."""
    deep = tmp_path / ("d" * 100)
    deep.mkdir()
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "simulate", "tilerace", "--games", "2",
                           "--backend", "ray"], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={**os.environ, "TMPDIR": str(deep),
                               "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert done.returncode == 2, done.stderr
    assert "racecraft simulate: error: Ray could not start on this machine: " in done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert list(deep.iterdir()) == []


def test_simulate_on_ray_gives_the_local_totals(backend):
    local = simulate("tilerace", 6, 3, 5, jobs=1)
    remote = simulate("tilerace", 6, 3, 5, backend=backend)
    assert _without_timing(remote) == _without_timing(local)
    assert local["games"] == 6


def test_compare_on_ray_gives_the_local_comparison(backend):
    base = Setup.of("formula5", ["random"] * 3)
    short = Setup.of("formula5", ["random"] * 3, ["short-race"])
    local = compare(base, short, 10, 3, jobs=1)
    remote = compare(base, short, 10, 3, backend=backend)
    assert _without_timing(remote["metrics"]) == _without_timing(local["metrics"])


def test_a_missing_cluster_is_a_clear_error(capsys, monkeypatch):
    import interpreter.lab.cluster as cluster

    def no_ray():
        raise cluster.ClusterUnavailable(f"--backend ray needs Ray: {cluster.INSTALL_HINT}")

    monkeypatch.setattr(cluster, "_import_ray", no_ray)
    assert main(["simulate", "tilerace", "--games", "2", "--backend", "ray"]) == 2
    err = capsys.readouterr().err
    # (a checkout installed in place is named by its folder, which a package index cannot give)
    assert f"pip install -e '{ROOT}[cluster]'" in err and "Traceback" not in err


def test_training_on_ray_writes_the_local_file(backend, tmp_path):
    """`racecraft train --backend ray`: the same tasks, their sums added in the same order, so
    the same model as on this machine's processes."""
    from interpreter.lab.train import train

    local = train("formula5", 2, 8, 3, jobs=1, generations=2)
    remote = train("formula5", 2, 8, 3, generations=2, backend=backend)
    assert remote.to_json() == local.to_json()
    assert local.trained["ended"] == 8


def test_train_takes_the_backend_on_the_command_line(capsys, monkeypatch, tmp_path):
    import interpreter.lab.cluster as cluster

    def no_ray():
        raise cluster.ClusterUnavailable(f"--backend ray needs Ray: {cluster.INSTALL_HINT}")

    monkeypatch.setattr(cluster, "_import_ray", no_ray)
    out = tmp_path / "f5.json"
    assert main(["train", "formula5", "--players", "2", "--games", "2", "--backend", "ray",
                 "--out", str(out)]) == 2
    assert "--backend ray needs Ray" in capsys.readouterr().err and not out.exists()
