"""The compiled CPU kernels against the torch path they replace: minibatch rows from raw words
against an integer recomputation of the plan's draws, logistic steps against the torch steps
(float32 to 1e-5, float64 to 1e-12), whole engine runs with and without the kernels, and the
automatic choice of the kernel (CPU, float32, logistic regression, plain SGD only)."""

from typing import Any

import numpy as np
import pytest
import torch

from fltheory.rng import generator
from fltheory.sim import cpu_kernels
from fltheory.sim.batches import BLOCK, BatchPlan
from fltheory.sim.compare import Setup
from fltheory.sim.config import build
from fltheory.sim.models import LogisticRegression

needs_numba = pytest.mark.skipif(not cpu_kernels.AVAILABLE, reason="numba is not installed")


def python_rows(seed: int, counts: np.ndarray, steps: int, batch: int, rep: int, t: int, k: int):
    """(steps, batch) local indices of client k at round t of repetition ``rep``, in Python
    integers: the block's raw outputs, entry p = (j·N + k)·B + i taking the high word of
    raw[p] (p < half) or the low word of raw[p − half], times n_k, shifted by 32."""
    size = steps * counts.size * batch
    half = -(-size // 2)
    rng = generator(seed, f"sim/batches/rep{rep}/block{t // BLOCK}")
    raw = [int(v) for v in rng.bit_generator.random_raw(half * (t % BLOCK + 1))[-half:]]
    words = [v >> 32 for v in raw] + [v & 0xFFFFFFFF for v in raw]
    n = counts.size
    return [
        [words[(j * n + k) * batch + i] * int(counts[k]) >> 32 for i in range(batch)]
        for j in range(steps)
    ]


@pytest.mark.parametrize("batch", [3, 8])  # an odd entry count: the last high word is unused
def test_sample_rows_are_the_plans_draws(batch: int) -> None:
    counts = np.array([4, 9, 300, 1, 17])
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]])
    plan = BatchPlan(5, counts, 3, batch, reps=4)
    assert plan.small
    rr, kk = np.nonzero(np.ones((4, counts.size)))  # every pair: every word of the rounds
    rr, kk = rr[::-1].copy(), kk[::-1].copy()
    for t in (0, 21):
        batches = plan.round(t)
        words = batches.words()
        assert words is not None
        rows = cpu_kernels.sample_rows(*words, rr, kk, counts, offsets, 3, batch)
        np.testing.assert_array_equal(rows - offsets[kk][:, None, None], batches[rr, :, kk])
        for m in range(0, rr.size, 3):
            expected = python_rows(5, counts, 3, batch, int(rr[m]), t, int(kk[m]))
            assert (rows[m] - offsets[kk[m]]).tolist() == expected
    assert BatchPlan(5, counts, 3, 40_000, reps=4).round(0).words() is None  # streamed plans


def test_exp32_is_float32_exp_on_its_range() -> None:
    """Against float64 exp on a dense grid of [−87, 88] (float32's own exp is within about
    1e-7 there): relative error below 3e-7; clamped outside; NaN stays NaN."""
    v = np.concatenate([np.linspace(-87, 88, 200_001), [-1e-8, 0.0, 1e-8]]).astype(np.float32)
    out, bits = np.empty_like(v), np.empty(v.size, dtype=np.int32)
    cpu_kernels.exp32(v, out, bits)
    exact = np.exp(v.astype(np.float64))
    assert np.max(np.abs(out - exact) / exact) < 3e-7
    edges = np.array([-1e4, 100.0, np.nan], dtype=np.float32)
    out, bits = np.empty_like(edges), np.empty(3, dtype=np.int32)
    cpu_kernels.exp32(edges, out, bits)
    np.testing.assert_allclose(out[:2], np.exp([-87.0, 88.0]), rtol=3e-7)
    assert np.isnan(out[2])


@pytest.mark.parametrize(("dtype", "tol"), [(torch.float32, 1e-5), (torch.float64, 1e-12)])
def test_logistic_kernel_matches_the_torch_steps(dtype: torch.dtype, tol: float) -> None:
    gen = torch.Generator().manual_seed(3)
    model = LogisticRegression(6, ridge=0.05)
    xy = torch.cat(
        [
            2 * torch.randn(50, 6, generator=gen, dtype=dtype),
            torch.ones(50, 1, dtype=dtype),
            torch.randint(0, 2, (50, 1), generator=gen).to(dtype),
        ],
        1,
    )
    theta = torch.randn(7, model.n_params, generator=gen, dtype=dtype)
    rows = torch.randint(0, 50, (7, 3, 5), generator=gen)
    fast = cpu_kernels.logistic_sgd(theta.numpy(), rows.numpy(), xy.numpy(), 0.4, model.ridge)
    gathered = xy[rows.transpose(0, 1)]  # (E, M, B, d + 2)
    slow = model.local_sgd(theta, gathered[..., :-1], gathered[..., -1], None, 0.4, 3)
    assert fast.dtype == theta.numpy().dtype
    assert not np.allclose(fast, theta.numpy(), atol=1e-2)  # the steps moved θ
    np.testing.assert_allclose(fast, slow.numpy(), rtol=tol, atol=tol)


def _config(problem: dict[str, Any], algorithm: str = "fedavg", **run: Any) -> dict[str, Any]:
    return {
        "run": {"rounds": 30, "local_steps": 2, "batch_size": 8, "eval_every": 10, **run},
        "seeds": 3,
        "device": "cpu",
        "problem": problem,
        "availability": {"kind": "bernoulli", "p": 0.6},
        "algorithms": [{"name": algorithm, "lr": 0.2}],
    }


BINARY = {"kind": "binary_synthetic", "n_clients": 12, "n_train": 30, "n_test": 5}
LEAF = {"kind": "synthetic_leaf", "gamma": 0.5, "delta": 0.5, "n_clients": 8, "max_samples": 60}


@needs_numba
@pytest.mark.parametrize(
    ("problem", "algorithm", "run", "kernel"),
    [
        (BINARY, "fedavg", {}, True),
        (BINARY, "fedpbc", {}, True),
        (BINARY, "fedavg", {"local_momentum": 0.5}, False),  # not plain SGD: local_opt
        (LEAF, "fedavg", {}, False),  # softmax: torch
    ],
)
def test_engine_runs_agree_with_and_without_the_kernels(
    problem: dict[str, Any],
    algorithm: str,
    run: dict[str, Any],
    kernel: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same run through the compiled kernels (chosen automatically) and through torch
    alone: the same models to float32 rounding; the logistic kernel runs only where it
    applies (plain SGD of binary logistic regression)."""
    calls = []
    kernel_fn = cpu_kernels.logistic_sgd

    def counted(*args: Any) -> np.ndarray:
        calls.append(1)
        return kernel_fn(*args)

    monkeypatch.setattr(cpu_kernels, "logistic_sgd", counted)
    runs = []
    for compiled in (True, False):
        cfg = build(_config(problem, algorithm, **run))
        cfg.problem.compiled = compiled
        setup = Setup(cfg.problem, cfg.process, cfg.settings, cfg.seed, cfg.seeds)
        runs.append(setup.run(cfg.specs[0]))
        assert bool(calls) == (compiled and kernel)
        calls.clear()
    fast, slow = runs
    if kernel:  # same seed, same bytes
        cfg = build(_config(problem, algorithm, **run))
        again = Setup(cfg.problem, cfg.process, cfg.settings, cfg.seed, cfg.seeds)
        assert again.run(cfg.specs[0]).final_w.tobytes() == fast.final_w.tobytes()
    np.testing.assert_allclose(fast.final_w, slow.final_w, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(fast.objective, slow.objective, rtol=1e-5)
    assert np.abs(fast.final_w).max() > 0.1  # the models moved


@needs_numba
def test_the_kernel_runs_only_where_it_applies() -> None:
    cfg = build(_config(BINARY))
    assert cfg.problem._logistic_kernel
    cfg.problem.compiled = False
    assert not cfg.problem._logistic_kernel
    assert not build(_config(LEAF)).problem._logistic_kernel
    doubles = build({**_config(BINARY), "dtype": "float64"}).problem
    assert doubles.dtype == torch.float64 and not doubles._logistic_kernel
