"""The CUDA path of the simulator against its CPU twin: every registered algorithm, on a
quadratic and on a softmax data problem (and three on a CNN), gives the same metrics on
``device = "cuda"`` as on ``"cpu"`` in float64. All randomness is drawn on the CPU from numpy
generators, so only the floating-point order of reductions may differ: relative tolerance 1e-9.
Skipped where CUDA is absent; run on a GPU machine with ``pytest tests/sim/test_sim_cuda.py``."""

import math
from typing import Any

import pytest
import torch

from fltheory.api import simulate
from fltheory.sim.registries import ALGORITHMS

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA is not available")

PROBLEMS: dict[str, dict[str, Any]] = {
    "quadratic": {"kind": "fedpbc_quadratic", "n_clients": 6, "dim": 3},
    "softmax": {"kind": "digits", "n_clients": 6, "model": "softmax"},
    "cnn": {"kind": "digits", "n_clients": 6, "model": "cnn"},
    "logistic": {"kind": "binary_synthetic", "n_clients": 6, "n_train": 20, "n_test": 5},
}


def _config(problem: str, algorithm: str, device: str) -> dict[str, Any]:
    return {
        "run": {"rounds": 6, "local_steps": 2, "batch_size": 4, "eval_every": 2},
        "seeds": 2,
        "device": device,
        "dtype": "float64",
        "problem": PROBLEMS[problem],
        "availability": {"kind": "bernoulli", "p": 0.6},
        "algorithms": [{"name": algorithm}],
    }


def _numbers(value: Any, prefix: str = "") -> dict[str, float]:
    """Every finite number of a nested summary, keyed by its path."""
    if isinstance(value, dict):
        out: dict[str, float] = {}
        for key, item in value.items():
            out.update(_numbers(item, f"{prefix}/{key}"))
        return out
    if isinstance(value, list):
        out = {}
        for i, item in enumerate(value):
            out.update(_numbers(item, f"{prefix}[{i}]"))
        return out
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {prefix: float(value)}
    return {}


CASES = [(p, a) for p in ("quadratic", "softmax") for a in ALGORITHMS.names()]
CASES += [("cnn", "fedavg"), ("cnn", "ca_fed"), ("cnn", "fedpbc")]
CASES += [("logistic", "fedavg"), ("logistic", "fedpbc")]  # the fused logistic step


@pytest.mark.parametrize(("problem", "algorithm"), CASES)
def test_cuda_matches_cpu(problem: str, algorithm: str) -> None:
    cpu = _numbers(simulate(_config(problem, algorithm, "cpu")).summary)
    gpu = _numbers(simulate(_config(problem, algorithm, "cuda")).summary)
    assert cpu.keys() == gpu.keys()
    timing = {key for key in cpu if "second" in key or "time" in key}
    for key in cpu.keys() - timing:
        a, b = cpu[key], gpu[key]
        if math.isnan(a):
            assert math.isnan(b), key
        else:
            assert b == pytest.approx(a, rel=1e-9, abs=1e-12), key
