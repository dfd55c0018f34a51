"""`--backend ray`: the same games as a local run, on a Ray instance started here (a cluster is the
same code with an address). Skipped, saying why, where Ray is not installed; CI installs it."""
from __future__ import annotations

import pytest

from interpreter.cli import main
from interpreter.lab.compare import compare
from interpreter.lab.simulate import Setup, simulate

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'racecraft[cluster]')")

_TIMING = {"seconds", "games_per_second", "jobs", "elapsed"}


def _without_timing(x):
    if isinstance(x, dict):
        return {k: _without_timing(v) for k, v in x.items() if k not in _TIMING}
    if isinstance(x, list):
        return [_without_timing(v) for v in x]
    return x


@pytest.fixture(scope="module")
def backend():
    from interpreter.lab.cluster import RayBackend

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield RayBackend()
    finally:
        ray.shutdown()


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
    assert "racecraft[cluster]" in err and "Traceback" not in err
