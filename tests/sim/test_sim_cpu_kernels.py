"""The compiled CPU kernels against the torch path they replace: minibatch rows from raw words
against an integer recomputation of the plan's draws, logistic steps against the torch steps
(float32 to 1e-5, float64 to 1e-12), the authors' mechanics (linear_local: softmax and
logistic regression with momentum, weight decay, ragged epochs, corrections and persistent
buffers) against LocalRunner's torch twin, the compiled evaluation against torch under both
accuracy rules, whole engine runs with and without the kernels (the authors' Fig. 1a among
them), exp32/log32 against float64, and the automatic choice of the kernels."""

from typing import Any

import numpy as np
import pytest
import torch

from fltheory.experiments.model import get
from fltheory.rng import generator
from fltheory.sim import cpu_kernels
from fltheory.sim.batches import BLOCK, BatchPlan
from fltheory.sim.compare import Setup
from fltheory.sim.config import build
from fltheory.sim.data import FederatedData
from fltheory.sim.local_opt import EpochPlan, LocalOptimiser, LocalRunner
from fltheory.sim.models import LogisticRegression, SoftmaxRegression
from fltheory.sim.problems import DataProblem

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


# --- the authors' mechanics: linear_local against its torch twin --------------------------------

#: Ragged clients: one sample, a partial minibatch, several minibatches, more than a kernel
#: block (32) in one full batch, a 40-sample minibatch summed over two blocks.
COUNTS = np.array([1, 3, 9, 37, 70, 12])
#: (rtol, atol) between the kernel and torch after two rounds of local work: float32 sums in
#: another order (a few ulp a step, over up to 36 steps), float64 to 1e-10.
TOLS = {torch.float32: (2e-4, 2e-5), torch.float64: (1e-10, 1e-10)}


def _ragged_problem(classes: int, dtype: torch.dtype, seed: int = 5):
    """A DataProblem with COUNTS samples per client (d = 5 features, scale ~1): softmax
    regression on ``classes`` labels, or binary logistic regression (classes = 2, the model
    with one score row when ``classes`` is 1)."""
    gen = np.random.default_rng(seed)
    n, d = int(COUNTS.sum()), 5
    labels = max(classes, 2)
    data = FederatedData(
        gen.normal(size=(n, d)) + gen.normal(size=(1, d)),
        gen.integers(0, labels, n),
        COUNTS,
        gen.normal(size=(12, d)),
        gen.integers(0, labels, 12),
        np.array([2, 2, 2, 2, 2, 2]),
        labels,
    )
    model = (
        LogisticRegression(d, ridge=0.01) if classes == 1 else SoftmaxRegression(d, classes, 0.01)
    )
    return DataProblem(model, data, COUNTS.astype(float), dtype=dtype)


def _batches(mode: str, problem: Any, t: int, reps: int, batch: int):
    """Round t's minibatches: shuffled epochs, with-replacement indices (R, E, N, B), or None
    (full local batches)."""
    if mode == "epochs":
        return EpochPlan(11, COUNTS, 2, batch, reps).round(t)
    if mode == "rows":
        gen = np.random.default_rng(t)
        return gen.integers(0, COUNTS[None, None, :, None], size=(reps, 3, COUNTS.size, batch))
    return None


def _two_rounds(problem: Any, mode: str, opt: LocalOptimiser, batch: int, corrected: bool):
    """Two rounds of local work through LocalRunner — different pairs each round, some of them
    in both (their momentum buffers carry over) — from the same start: (models of round 0,
    models of round 1, the buffers after them)."""
    reps, p = 2, problem.n_params
    gen = np.random.default_rng(1)
    buffers = torch.zeros(reps, COUNTS.size, p, dtype=problem.dtype)
    rounds = [
        (np.array([0, 0, 1, 1, 1, 0]), np.array([0, 4, 2, 3, 4, 5])),
        (np.array([1, 0, 1, 0]), np.array([4, 3, 0, 4])),
    ]
    outs = []
    for t, (rr, kk) in enumerate(rounds):
        theta0 = torch.as_tensor(0.3 * gen.normal(size=(rr.size, p)), dtype=problem.dtype)
        corr = None
        if corrected:
            corr = torch.as_tensor(0.05 * gen.normal(size=(rr.size, p)), dtype=problem.dtype)
        runner = LocalRunner(problem, _batches(mode, problem, t, reps, batch), 0.2, 3, opt, buffers)
        outs.append(runner(rr, kk, theta0, corr).numpy().copy())
    return outs[0], outs[1], buffers.numpy().copy()


AUTHORS_OPT = LocalOptimiser(epochs=2, momentum=0.9, weight_decay=0.05)


@needs_numba
@pytest.mark.parametrize(
    ("classes", "dtype", "mode", "opt", "batch", "corrected"),
    [
        (3, torch.float32, "epochs", AUTHORS_OPT, 4, False),  # the authors' mechanics, softmax
        (3, torch.float64, "epochs", AUTHORS_OPT, 4, False),
        (1, torch.float32, "epochs", AUTHORS_OPT, 4, False),  # binary logistic regression
        (3, torch.float32, "epochs", LocalOptimiser(epochs=2), 40, False),  # plain SGD, 2 blocks
        (10, torch.float32, "epochs", LocalOptimiser(epochs=1, weight_decay=0.1), 32, False),
        (3, torch.float64, "rows", LocalOptimiser(momentum=0.5), 6, True),  # SCAFFOLD-style
        (1, torch.float64, "rows", LocalOptimiser(weight_decay=0.02), 5, False),
        (3, torch.float32, "full", LocalOptimiser(momentum=0.7, weight_decay=0.01), 0, True),
    ],
    ids=[
        "authors",
        "authors-f64",
        "authors-logistic",
        "plain-2blocks",
        "10-classes-wd",
        "rows-momentum-corr",
        "rows-logistic-wd",
        "full-batch",
    ],
)
def test_linear_local_matches_its_torch_twin(
    classes: int,
    dtype: torch.dtype,
    mode: str,
    opt: LocalOptimiser,
    batch: int,
    corrected: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The compiled local optimiser against LocalRunner's torch steps (``compiled = False``)
    over two rounds: the same models and momentum buffers to rounding (TOLS), ragged step
    counts and partial minibatches included; the kernel did run, and the steps moved θ."""
    calls = []
    kernel = cpu_kernels.linear_local
    monkeypatch.setattr(cpu_kernels, "linear_local", lambda *a: calls.append(1) or kernel(*a))
    runs = []
    for compiled in (True, False):
        problem = _ragged_problem(classes, dtype)
        problem.compiled = compiled
        runs.append(_two_rounds(problem, mode, opt, batch, corrected))
        assert len(calls) == (2 if compiled else 0)
        calls.clear()
    rtol, atol = TOLS[dtype]
    for fast, slow in zip(*runs, strict=True):
        np.testing.assert_allclose(fast, slow, rtol=rtol, atol=atol)
    start = 0.3 * np.random.default_rng(1).normal(size=runs[1][0].shape)
    assert np.abs(runs[1][0] - start).max() > 0.05  # round 0's steps moved the models
    if opt.momentum:
        assert np.abs(runs[1][2]).max() > 0.01  # and filled the buffers


@needs_numba
def test_the_authors_fig1a_run_agrees_with_and_without_the_kernels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``cafed:fig1a --setup authors`` (its five algorithms, 2 local epochs of 32, momentum
    and weight decay with persistent client state, the authors' accuracy rule) at N = 12, two
    seeds, 4 rounds, through the compiled kernels (chosen automatically) and through torch
    alone: the same models, objective and accuracies to float32 rounding (an accuracy may
    differ by a prediction whose two top scores tie to rounding: 1e-2)."""
    raw = get("cafed:fig1a").setup("authors").configs["full"]()
    raw["device"] = "cpu"
    raw["problem"]["n_clients"] = 12
    raw["run"].update(rounds=4, eval_every=2)
    raw["seeds"] = 2
    for alg in raw["algorithms"]:
        if "k" in alg:  # F3AST's k = 45 of 100 clients: 5 of 12
            alg["k"] = 5
    cfg = build(raw)
    calls = []
    for name in ("linear_local", "linear_eval"):
        fn = getattr(cpu_kernels, name)
        monkeypatch.setattr(cpu_kernels, name, lambda *a, fn=fn: calls.append(1) or fn(*a))
    runs = {}
    for compiled in (True, False):
        cfg.problem.compiled = compiled
        setup = Setup(cfg.problem, cfg.process, cfg.settings, cfg.seed, cfg.seeds, cfg.prior)
        runs[compiled] = [setup.run(spec) for spec in cfg.specs]
        assert bool(calls) == compiled
        calls.clear()
    assert len(runs[True]) == 5
    for fast, slow in zip(runs[True], runs[False], strict=True):
        np.testing.assert_allclose(fast.final_w, slow.final_w, rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(fast.objective, slow.objective, rtol=1e-5)
        np.testing.assert_allclose(fast.accuracy, slow.accuracy, atol=1e-2)
        assert 0 < fast.n_active.sum() < fast.n_active.size * 12  # some clients idled
        assert np.abs(fast.final_w).max() > 0.05


@needs_numba
@pytest.mark.parametrize("classes", [3, 1])
@pytest.mark.parametrize("scoring", ["model", "authors"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_compiled_evaluation_matches_torch(classes: int, scoring: str, dtype: torch.dtype) -> None:
    """Objective, accuracy and per-client accuracy of a batch of models — one of them
    diverged (all NaN), one with a single NaN score row — through the compiled evaluation and
    through torch: the same numbers (accuracies exactly: their sums are float64 either way up
    to rounding); under the authors' rule a NaN softmax model predicts its first NaN class."""
    problems = []
    for compiled in (True, False):
        problem = _ragged_problem(classes, dtype)
        problem.scoring = scoring
        problem.compiled = compiled
        problems.append(problem)
    gen = np.random.default_rng(2)
    w = torch.as_tensor(gen.normal(size=(4, problems[0].n_params)), dtype=dtype)
    w[1] = float("nan")
    if classes > 1:
        w[2, 6:12] = float("nan")  # class 1's row: NaN scores
    fast, slow = problems
    rtol = 1e-5 if dtype == torch.float32 else 1e-12
    np.testing.assert_allclose(fast.objective(w)[[0, 2, 3]], slow.objective(w)[[0, 2, 3]], rtol)
    assert torch.isnan(fast.objective(w)[1]) and torch.isnan(slow.objective(w)[1])
    for method in ("accuracy", "client_accuracies"):
        a, b = getattr(fast, method)(w).numpy(), getattr(slow, method)(w).numpy()
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    acc = fast.accuracy(w).numpy()
    if classes > 1 and scoring == "authors":  # class 0's share of the test labels
        weights = slow._test_w.numpy()
        assert acc[1] == pytest.approx(weights[fast.data.y_test == 0].sum(), rel=1e-5)
        assert acc[1] > 0
    elif classes > 1:
        assert acc[1] == 0 and acc[2] == 0
    uses_kernel = not (classes == 1 and scoring == "authors")
    assert (fast.kernel_eval(w, "accuracy", loss=False, correct=True) is not None) == uses_kernel


def test_log32_is_float32_log_on_positive_normals() -> None:
    """Against float64 log on a dense log-spaced grid of [1e-37, 1e37] and around 1: relative
    error below 3e-7 away from 1, absolute below 1e-7 near it; NaN and +inf stay themselves."""
    v = np.concatenate([np.logspace(-37, 37, 200_001), np.linspace(0.5, 2, 10_001)])
    v = v.astype(np.float32)
    out, bits = np.empty_like(v), np.empty(v.size, dtype=np.int32)
    cpu_kernels.log32(v, out, bits)
    exact = np.log(v.astype(np.float64))
    assert np.max(np.abs(out - exact) / np.maximum(np.abs(exact), 1 / 3)) < 3e-7
    edges = np.array([np.nan, np.inf], dtype=np.float32)
    out, bits = np.empty_like(edges), np.empty(2, dtype=np.int32)
    cpu_kernels.log32(edges, out, bits)
    assert np.isnan(out[0]) and out[1] == np.inf


@needs_numba
def test_the_linear_kernels_run_only_where_they_apply() -> None:
    """The compiled local optimiser and evaluation: softmax and logistic regression on CPU in
    float32 or float64 with ``compiled``; ``compiled = False`` forces torch."""
    assert _ragged_problem(3, torch.float32).linear_kernel() is not None
    assert _ragged_problem(1, torch.float64).linear_kernel() is not None
    problem = _ragged_problem(3, torch.float32)
    problem.compiled = False
    assert problem.linear_kernel() is None
    assert problem.kernel_eval(torch.zeros(1, problem.n_params), "objective", loss=True,
                               correct=False) is None  # fmt: skip
    half = _ragged_problem(3, torch.float32)
    half.dtype = torch.float16
    assert half.linear_kernel() is None
