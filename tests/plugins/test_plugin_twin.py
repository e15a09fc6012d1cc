"""A plug-in algorithm needs no reference twin; when it has one, fltheory's registry test runs it
(engine vs the per-client loop), and a twin that disagrees fails that test."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from plugin_support import PACKAGE, ROOT

REGISTRY_TEST = "tests/sim/test_sim_registry.py"

#: An outside algorithm whose twin computes other weights than its rule.
BAD_TWIN = '''
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from fltheory.sim.algorithms import Algorithm
from fltheory.sim.registries import ALGORITHMS, NoParams
from fltheory.sim.twins import WeightTwin


@dataclass(frozen=True, eq=False)
class Halved(Algorithm):
    name: ClassVar[str] = "own_halved"

    def weights(self, inp, state):
        return np.where(inp.mask, 0.5 * inp.alpha, 0.0), state


@ALGORITHMS.register(
    "own_halved",
    params=NoParams,
    reference=WeightTwin(lambda alg, view, st: {k: view.alpha[k] for k in view.active}),
)
def build(params, ctx):
    """Half of α on the active clients (its twin forgets the half)."""
    return Halved()
'''

#: An outside algorithm without a twin.
NO_TWIN = BAD_TWIN.replace(
    "    reference=WeightTwin(lambda alg, view, st: {k: view.alpha[k] for k in view.active}),\n", ""
)


def _registry_test(plugin: str, name: str, *paths: Path) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    environ.update(
        OMP_NUM_THREADS="1",
        FLTHEORY_PLUGINS=plugin,
        PYTHONPATH=os.pathsep.join(str(p) for p in (ROOT, *paths)),
    )
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", REGISTRY_TEST,
         "-k", name],
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


def test_the_registry_test_runs_the_twin_of_a_plugin():
    proc = _registry_test("gamma_rule", "gamma_weights", PACKAGE)
    assert proc.returncode == 0, proc.stdout[-3000:]
    # the twin against the engine on two problems, the schema and the shared-options checks
    assert "4 passed" in proc.stdout and "skipped" not in proc.stdout


@pytest.mark.slow
def test_a_plugin_without_a_twin_is_skipped_there(tmp_path):
    (tmp_path / "own_no_twin.py").write_text(NO_TWIN)
    proc = _registry_test(str(tmp_path / "own_no_twin.py"), "own_halved")
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "2 passed, 2 skipped" in proc.stdout
    assert "the plug-in algorithm 'own_halved' has no reference twin" in proc.stdout


@pytest.mark.slow
def test_a_twin_that_disagrees_fails_the_registry_test(tmp_path):
    (tmp_path / "own_bad_twin.py").write_text(BAD_TWIN)
    proc = _registry_test(str(tmp_path / "own_bad_twin.py"), "own_halved")
    assert proc.returncode == 1
    assert "2 failed, 2 passed" in proc.stdout
