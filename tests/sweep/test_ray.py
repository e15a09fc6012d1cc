"""The Ray executor stores the rows of the local one, bit for bit (skipped without ray).

Run: ``PYTHONPATH=$PWD python -m pytest -m ray tests/sweep/test_ray.py`` in an environment with
the ``fltheory[ray]`` extra.
"""

import pytest
from conftest import write_sweep

from fltheory.sweep.run import run_sweep
from fltheory.sweep.spec import load_sweep
from fltheory.sweep.store import Store

pytest.importorskip("ray")


def rows(path):
    with Store(path) as store:
        return {r.key: (r.seed, r.swept, r.metrics) for r in store.rows()}


@pytest.mark.ray
@pytest.mark.slow
def test_ray_and_local_store_identical_rows(tmp_path):
    sweep = load_sweep(write_sweep(tmp_path))
    local = run_sweep(sweep, tmp_path / "local.db", workers=2)
    remote = run_sweep(sweep, tmp_path / "ray.db", executor="ray", workers=2)
    assert local.runs_done == remote.runs_done == 8
    assert rows(tmp_path / "local.db") == rows(tmp_path / "ray.db")
