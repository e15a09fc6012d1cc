"""How test accuracy scores a diverged (NaN) model under ``scoring = "authors"`` (the
authors' ``utils/metrics.py``) against a NumPy recomputation of their rule: multi-class, the
predicted class of a row is its first NaN score if it has one (torch.max treats NaN as the
largest), else its first maximum; binary, ``round(sigmoid(z)) == y`` (a NaN logit is never
correct). The default ``model`` rule scores a NaN softmax row as wrong, so the two differ."""

import numpy as np
import pytest
import torch

from fltheory.api.simulation import simulate
from fltheory.errors import InputError
from fltheory.experiments.catalog.common import to_authors
from fltheory.sim.data import FederatedData, synthetic_leaf
from fltheory.sim.models import LogisticRegression, SoftmaxRegression
from fltheory.sim.problems import DataProblem

NAN = float("nan")


def _data(n_classes: int, seed: int = 0) -> FederatedData:
    rng = np.random.default_rng(seed)
    train, test = np.array([30, 20, 25]), np.array([12, 9, 15])
    return FederatedData(
        rng.normal(size=(train.sum(), 4)), rng.integers(0, n_classes, train.sum()), train,
        rng.normal(size=(test.sum(), 4)), rng.integers(0, n_classes, test.sum()), test,
        n_classes,
    )  # fmt: skip


def _alpha_weighted(data: FederatedData, alpha: np.ndarray, hits: np.ndarray) -> float:
    """α-weighted mean over clients of each client's mean of ``hits`` (its test rows)."""
    owner = np.repeat(np.arange(data.n_clients), data.test_counts)
    per_client = np.array([hits[owner == k].mean() for k in range(data.n_clients)])
    return float((alpha / alpha.sum()) @ per_client)


def _softmax_rule(w: np.ndarray, data: FederatedData) -> np.ndarray:
    """The authors' multi-class rule in NumPy, per test row: first NaN class, else first max."""
    mat = w.reshape(data.n_classes, data.n_features + 1)
    z = data.x_test @ mat[:, :-1].T + mat[:, -1]
    nan = np.isnan(z)
    first_max = np.argmax(np.where(nan, -np.inf, z), axis=1)
    pred = np.where(nan.any(axis=1), np.argmax(nan, axis=1), first_max)
    return pred == data.y_test


def _problem(model, data, scoring):
    alpha = data.train_counts.astype(float)
    return DataProblem(model, data, alpha, dtype=torch.float64, scoring=scoring)


def test_softmax_nan_scores_follow_the_authors_rule():
    data = _data(5)
    model = SoftmaxRegression(4, 5, ridge=0.0)
    rng = np.random.default_rng(1)
    ws = [np.full(model.n_params, NAN), rng.normal(size=model.n_params)]
    partial = rng.normal(size=model.n_params)
    partial[3 * 5 + 2] = NAN  # class 3's weight on feature 2: NaN scores for class 3 only
    ws.append(partial)
    w = torch.as_tensor(np.stack(ws))
    got = _problem(model, data, "authors").accuracy(w).numpy()
    alpha = data.train_counts.astype(float)
    expected = [_alpha_weighted(data, alpha, _softmax_rule(v, data)) for v in ws]
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    # The all-NaN model predicts class 0: it scores the α-weighted share of class 0, not 0.
    assert got[0] == pytest.approx(_alpha_weighted(data, alpha, data.y_test == 0), abs=1e-12)
    assert got[0] > 0
    default = _problem(model, data, "model").accuracy(w).numpy()
    assert default[0] == 0.0 and default[1] == pytest.approx(got[1], abs=1e-12)
    # Per client, the same rule.
    per_client = _problem(model, data, "authors").client_accuracies(w[:1]).numpy()[0]
    owner = np.repeat(np.arange(3), data.test_counts)
    hits = _softmax_rule(ws[0], data)
    np.testing.assert_allclose(per_client, [hits[owner == k].mean() for k in range(3)], atol=1e-12)


def test_binary_nan_logit_is_never_correct():
    data = _data(2)
    model = LogisticRegression(4, ridge=0.0)
    w = torch.as_tensor(np.stack([np.full(5, NAN), np.array([0.3, -1.0, 0.5, 0.2, 0.1])]))
    got = _problem(model, data, "authors").accuracy(w).numpy()
    z = data.x_test @ w[1, :-1].numpy() + float(w[1, -1])
    hits = np.round(1.0 / (1.0 + np.exp(-z))) == data.y_test
    alpha = data.train_counts.astype(float)
    assert got[0] == 0.0
    assert got[1] == pytest.approx(_alpha_weighted(data, alpha, hits), abs=1e-12)
    # The model's own rule predicts 0 for a NaN logit (it scores the share of label 0).
    default = _problem(model, data, "model").accuracy(w).numpy()
    assert default[0] == pytest.approx(_alpha_weighted(data, alpha, data.y_test == 0), abs=1e-12)


def test_authors_leaf_diverged_model_scores_the_share_of_class_0():
    # The side-by-side run's 2.9 % (N = 100, γ = δ = 0.5, data seed 42, their generator).
    data = synthetic_leaf(0.5, 0.5, 100, seed=42, rng_layout="authors")
    model = SoftmaxRegression(data.n_features, data.n_classes, ridge=0.0)
    w = torch.full((1, model.n_params), NAN, dtype=torch.float64)
    alpha = data.train_counts.astype(float)
    share = _alpha_weighted(data, alpha, data.y_test == 0)
    assert float(_problem(model, data, "authors").accuracy(w)[0]) == pytest.approx(share)
    assert round(100 * share, 1) == 2.9


def _diverging(scoring: str | None) -> dict:
    problem = {"kind": "synthetic_leaf", "gamma": 0.5, "delta": 0.5, "n_clients": 6,
               "n_features": 5, "n_classes": 4, "max_samples": 60, "ridge": 0.0}  # fmt: skip
    if scoring is not None:
        problem["scoring"] = scoring
    return {
        "seed": 3, "device": "cpu", "run": {"rounds": 3, "local_steps": 2, "eval_every": 1},
        "problem": problem, "availability": {"kind": "bernoulli", "p": 1.0},
        "algorithms": [{"name": "fedavg", "lr": 1e30, "server_lr": 1e30}],
    }  # fmt: skip


def test_a_diverged_run_is_scored_by_the_config_rule():
    authors = simulate(_diverging("authors"), seeds=2).runs[0].accuracy
    default = simulate(_diverging(None), seeds=2).runs[0].accuracy
    assert np.asarray(default)[:, -1].tolist() == [0.0, 0.0]
    assert (np.asarray(authors)[:, -1] > 0).all()


def test_scoring_is_strict_and_set_by_to_authors():
    with pytest.raises(InputError, match="scoring"):
        simulate(_diverging("torch"), seeds=2)
    paper = {"seed": 0, "run": {"rounds": 2, "local_steps": 1},
             "problem": {"kind": "synthetic_leaf", "gamma": 0.5, "delta": 0.5},
             "availability": {"kind": "bernoulli", "p": 1.0},
             "algorithms": [{"name": "fedavg"}]}  # fmt: skip
    assert to_authors(paper)["problem"]["scoring"] == "authors"
