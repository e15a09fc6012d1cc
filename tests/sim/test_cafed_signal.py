"""CA-Fed's true local minima (spec C.4), loss signals (C.5, C.6) and bias_const (C.7),
against independent computations: scalar root finding, a numpy softmax, sklearn's objective
re-minimised by scipy, and the per-client reference definitions."""

import math

import numpy as np
import pytest
import torch
from pydantic import ValidationError
from scipy.optimize import brentq, minimize

from fltheory.errors import InputError
from fltheory.sim.algorithms.base import RoundInput
from fltheory.sim.algorithms.cafed import CAFed, CAFedParams, build_cafed
from fltheory.sim.config.loader import build
from fltheory.sim.data import FederatedData, synthetic_leaf
from fltheory.sim.local_minima import exact_local_minima, local_minima, sklearn_local_minima
from fltheory.sim.loss_signal import LossSignal, signal_losses, validation_rows
from fltheory.sim.models import LogisticRegression, SoftmaxRegression
from fltheory.sim.problems import DataProblem
from fltheory.sim.registries import AlgorithmContext


def _data(xs: list[np.ndarray], ys: list[np.ndarray], n_classes: int) -> FederatedData:
    return FederatedData(
        x_train=np.concatenate(xs),
        y_train=np.concatenate(ys).astype(np.int64),
        train_counts=np.array([len(y) for y in ys]),
        x_test=np.concatenate(xs),
        y_test=np.concatenate(ys).astype(np.int64),
        test_counts=np.array([len(y) for y in ys]),
        n_classes=n_classes,
    )


def test_exact_minimum_matches_scalar_root():
    """x = 0: F(w, b) = mean softplus(b) − ȳ b + r/2 (w² + b²) → w = 0, σ(b) − ȳ + r b = 0."""
    ridge = 0.05
    ys = [np.array([1, 1, 1, 0]), np.array([1, 1])]
    data = _data([np.zeros((4, 1)), np.zeros((2, 1))], ys, 2)
    got = exact_local_minima(DataProblem(LogisticRegression(1, ridge), data, data.train_counts))
    for k, y in enumerate(ys):
        p = y.mean()
        b = brentq(lambda b, p=p: 1 / (1 + math.exp(-b)) - p + ridge * b, -50, 50, xtol=1e-14)
        want = math.log1p(math.exp(b)) - p * b + 0.5 * ridge * b * b
        assert got[k] == pytest.approx(want, abs=1e-10)


def test_exact_minimum_matches_an_independent_softmax_fit():
    """DataProblem.local_minima (L-BFGS through the model) = a numpy BFGS fit of mean softmax
    loss + ridge/2‖θ‖², to 1e-9 (strong convexity: excess ≤ gtol²·P/(2·ridge) ≈ 1e-11)."""
    data = synthetic_leaf(0.5, 0.5, 3, seed=2, n_features=5, n_classes=4, max_samples=80)
    problem = DataProblem(SoftmaxRegression(5, 4, 1e-2), data, data.train_counts)
    fstar = problem.local_minima
    for k in range(3):
        assert fstar[k] == pytest.approx(_softmax_fit(data, k, ridge=1e-2), abs=1e-9)
        zero = torch.zeros(problem.n_params)
        assert float(problem.client_objective(k, zero)) > fstar[k]


def _softmax_logits(theta: np.ndarray, x: np.ndarray, d: int, c: int) -> np.ndarray:
    w, b = theta[: c * d].reshape(c, d), theta[c * d :]
    return x @ w.T + b


def _softmax_fit(data, k, *, ridge=None, sklearn_c=None) -> float:
    """An independent numpy fit: with ``ridge``, min mean loss + ridge/2‖θ‖²; with
    ``sklearn_c``, sklearn's Σ loss + ‖W‖²/(2C) (intercept free), returning the mean loss."""
    start = int(data.train_counts[:k].sum())
    x = data.x_train[start : start + data.train_counts[k]]
    y = data.y_train[start : start + data.train_counts[k]]
    d, c = x.shape[1], data.n_classes
    if sklearn_c is not None:  # the authors' multinomial fit: one row per class present
        classes, y = np.unique(y, return_inverse=True)
        c = classes.size
    onehot = np.eye(c)[y]

    def mean_loss(theta):
        z = _softmax_logits(theta, x, d, c)
        z = z - z.max(1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(1, keepdims=True))
        return -(onehot * logp).sum(1).mean(), np.exp(logp)

    def fun(theta):
        loss, p = mean_loss(theta)
        g_z = (p - onehot) / len(y)
        g = np.concatenate([(g_z.T @ x).ravel(), g_z.sum(0)])
        if ridge is not None:
            return loss + 0.5 * ridge * theta @ theta, g + ridge * theta
        n, wmask = len(y), np.r_[np.ones(c * d), np.zeros(c)]
        reg = 0.5 / sklearn_c * (theta * wmask) @ theta
        return n * loss + reg, n * g + theta * wmask / sklearn_c

    res = minimize(fun, np.zeros(c * d + c), jac=True, method="BFGS", options={"gtol": 1e-10})
    return float(res.fun) if ridge is not None else float(mean_loss(res.x)[0])


def test_sklearn_minima_match_an_independent_fit_and_single_class_is_zero():
    data = synthetic_leaf(0.5, 0.5, 3, seed=4, n_features=4, n_classes=3, max_samples=70)
    single = _data([np.ones((3, 4)), data.x_train[:20]], [np.zeros(3), data.y_train[:20]], 3)
    got = sklearn_local_minima(data)
    for k in range(3):
        if len(np.unique(data.y_train[sum(data.train_counts[:k]) :][: data.train_counts[k]])) > 1:
            assert got[k] == pytest.approx(_softmax_fit(data, k, sklearn_c=1.0), abs=2e-4)
    assert sklearn_local_minima(single)[0] == 0.0


def test_local_minima_by_kind():
    data = synthetic_leaf(0.5, 0.5, 2, seed=1, n_features=3, n_classes=3, max_samples=60)
    problem = DataProblem(SoftmaxRegression(3, 3), data, data.train_counts)
    assert local_minima(problem, "oracle") is local_minima(problem, "oracle")  # cached
    with pytest.raises(InputError, match="unknown local-minima kind"):
        local_minima(problem, "exact")  # type: ignore[arg-type]


def _numpy_client_means(model, w, x, y, owner, n):
    c = model.n_classes
    d = x.shape[1]
    out = np.zeros((w.shape[0], n))
    for r in range(w.shape[0]):
        mat = w[r].reshape(c, d + 1)  # the model's layout: θ = [W | b], (C, d + 1)
        z = x @ mat[:, :-1].T + mat[:, -1]
        loss = np.log(np.exp(z).sum(1)) - z[np.arange(len(y)), y]
        out[r] = np.bincount(owner, loss, minlength=n) / np.bincount(owner, minlength=n)
    return out


@pytest.mark.parametrize("which", ["train", "test", "validation"])
def test_signal_losses_match_numpy(which):
    data = synthetic_leaf(0.5, 0.5, 4, seed=3, n_features=5, n_classes=3, max_samples=90)
    model = SoftmaxRegression(5, 3, ridge=0.1)
    problem = DataProblem(model, data, data.train_counts, dtype=torch.float64)
    w = np.random.default_rng(0).normal(size=(2, problem.n_params))
    if which == "test":
        x, y = data.x_test, data.y_test
        owner = np.repeat(np.arange(4), data.test_counts)
    elif which == "validation":
        rows, owner = validation_rows(data.train_counts, 5)
        x, y = data.x_train[rows], data.y_train[rows]
    else:
        x, y = data.x_train, data.y_train
        owner = np.repeat(np.arange(4), data.train_counts)
    want = _numpy_client_means(model, w, x, y, owner, 4)
    wt = torch.as_tensor(w)
    got = signal_losses(problem, wt, LossSignal(which, ridge=False, seed=5))  # type: ignore[arg-type]
    np.testing.assert_allclose(got, want, rtol=1e-10)
    ridge = signal_losses(problem, wt, LossSignal(which, ridge=True, seed=5))  # type: ignore[arg-type]
    np.testing.assert_allclose(ridge - got, 0.05 * (w * w).sum(1)[:, None] * np.ones(4))
    if which == "train":  # the reference loop's own definition of F_k
        for k in range(4):
            assert ridge[0, k] == pytest.approx(float(problem.client_objective(k, wt[0])))


def test_validation_rows_are_a_seeded_fifth_of_each_client():
    counts = np.array([10, 7, 1])
    rows, owner = validation_rows(counts, 1)
    assert np.bincount(owner).tolist() == [2, 2, 1]
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    assert all(starts[k] <= r < starts[k] + counts[k] for r, k in zip(rows, owner, strict=True))
    assert np.array_equal(validation_rows(counts, 1)[0], rows)
    assert not all(np.array_equal(validation_rows(counts, s)[0], rows) for s in range(2, 6))


def test_bias_const_is_kappa2_without_the_four():
    rng = np.random.default_rng(1)
    n = 8
    alpha = rng.dirichlet(np.ones(n))
    inp = RoundInput(
        0,
        np.ones((3, n), dtype=bool),
        alpha,
        rng.uniform(0.1, 0.9, (3, n)),
        lambda2=rng.uniform(-0.5, 0.9, (3, n)),
        losses=rng.uniform(0, 2, (3, n)),
    )
    fstar = np.zeros(n)
    for b in (0.3, 1.0, 7.0):
        coded = CAFed(bias_const=b, fstar=fstar)
        paper = CAFed(kappa2=b / 4, fstar=fstar)
        q1, _ = coded.weights(inp, coded.init_state(3, alpha, inp.pi))
        q2, _ = paper.weights(inp, paper.init_state(3, alpha, inp.pi))
        np.testing.assert_array_equal(q1, q2)
        assert coded.describe()["bias_const"] == b
    with pytest.raises(ValidationError, match="not both"):
        CAFedParams(kappa2=1.0, bias_const=1.0)


def test_builder_resolves_fstar_and_signal():
    data = synthetic_leaf(0.5, 0.5, 3, seed=1, n_features=3, n_classes=3, max_samples=60)
    problem = DataProblem(SoftmaxRegression(3, 3), data, data.train_counts)
    ctx = AlgorithmContext(3, 5, 7, np.full(3, 0.5), minima=lambda k: local_minima(problem, k))
    alg = build_cafed(CAFedParams(fstar="sklearn", loss_signal="validation"), ctx)
    assert np.array_equal(alg.fstar, sklearn_local_minima(data))
    assert alg.signal == LossSignal("validation", True, 7)
    with pytest.raises(InputError, match="known local minima"):
        build_cafed(CAFedParams(fstar="oracle"), AlgorithmContext(3, 5, 7, np.full(3, 0.5)))


def test_engine_feeds_the_full_set_signal():
    """A config run with loss_signal = "train" and exact minima: CA-Fed's recorded weights equal
    the weight rule applied to the full-train losses of the same models."""
    raw = {
        "seed": 3,
        "device": "cpu",
        "dtype": "float64",
        "run": {"rounds": 3, "local_steps": 1, "batch_size": 8, "estimator": "oracle"},
        "problem": {"kind": "synthetic_leaf", "gamma": 0.5, "delta": 0.5, "n_clients": 6,
                    "n_features": 4, "n_classes": 3, "max_samples": 60},
        "availability": {"kind": "bernoulli", "p": [1.0, 0.9, 0.5, 0.5, 0.2, 1.0]},
        "algorithms": [{"name": "ca_fed", "kappa2": 0.01, "fstar": "oracle",
                        "loss_signal": "train"}],
    }  # fmt: skip
    from fltheory.api.simulation import simulate

    report = simulate(raw, seeds=2, device="cpu", threads=1)
    run = report.runs[0]
    assert run.info["loss_signal"] == "train" and run.info["fstar"] == "oracle"
    cfg = build(raw)
    problem = cfg.problem
    # round 0: every repetition starts at w0 = 0, so the signal is the same for both rows
    w0 = torch.zeros(2, problem.n_params, dtype=torch.float64)
    losses = signal_losses(problem, w0, LossSignal("train"))
    trace = np.asarray(cfg.process.sample(cfg.seed, 2, 3), dtype=bool)
    alg = cfg.specs[0].algorithm
    pi = np.broadcast_to(np.asarray(cfg.process.pi), (2, 6))
    lam = np.broadcast_to(np.asarray(cfg.process.lambda2), (2, 6))
    inp = RoundInput(0, trace[:, 0], problem.alpha, pi, lam, np.where(trace[:, 0], losses, np.nan))
    q, _ = alg.weights(inp, alg.init_state(2, problem.alpha, pi))
    np.testing.assert_allclose(run.weights[:, 0], q, rtol=1e-6)
