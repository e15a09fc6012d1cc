"""The authors' population (spec C.8) and LEAF stream layout (C.9 / A.5 acceptance test)."""

import numpy as np
import pytest

from fltheory.markov.population import authors_lambda, authors_population, authors_types
from fltheory.sim.config.loader import build
from fltheory.sim.data import authors_leaf, synthetic_leaf

#: Spec A.5: their generate_synthetic_leaf, N = 24, γ = δ = 0, seed 42 (sorted train sizes).
SEED42_TRAIN = [52, 54, 54, 54, 56, 62, 65, 66, 68, 78, 81, 83, 89, 146, 147, 156, 161, 187,
                213, 225, 329, 514, 611, 3606]  # fmt: skip


def test_authors_leaf_matches_their_seed42_sizes():
    for gamma in (0.0, 0.5):  # sizes do not depend on γ, δ
        data = synthetic_leaf(gamma, gamma, 24, seed=42, rng_layout="authors")
        assert sorted(data.train_counts.tolist()) == SEED42_TRAIN
        assert int(data.test_counts.sum()) == 804
        assert (
            data.train_counts == (0.9 * (data.train_counts + data.test_counts)).astype(int)
        ).all()


def test_authors_leaf_n100_types_and_sizes():
    """Spec A.5 (measured on their code): N = 100, γ = δ = 0.5, seed 42 → 38,510 / 4,329,
    types available-shifting 56, unavailable-shifting 23, unavailable-stable 21."""
    data, pop = authors_leaf(0.5, 0.5, 100, seed=42)
    assert (int(data.train_counts.sum()), int(data.test_counts.sum())) == (38510, 4329)
    assert np.bincount(pop.labels, minlength=4).tolist() == [0, 56, 21, 23]
    stable = pop.labels == 2
    assert np.allclose(pop.lambda2[stable], 0.9) and np.allclose(pop.pi[stable], 0.1)
    shifting = ~stable
    assert (np.abs(pop.lambda2[shifting] - 0.005) < 0.03).all()


def test_authors_leaf_replays_an_independent_stream():
    """The first client's features: the recipe re-run by hand on default_rng(42)."""
    n, d, c = 5, 6, 3
    data, _ = authors_leaf(0.5, 0.5, n, seed=42, n_features=d, n_classes=c)
    rng = np.random.default_rng(42)
    rng.permutation(n)
    rng.multinomial(n, [0, 0.5, 0, 0.25, 0.25, 0])
    counts = rng.lognormal(4, 2, n).astype(int) + 50
    mean_w, centers = rng.normal(0, 0.5, n), rng.normal(0, 0.5, n)
    v = [rng.normal(centers[k], 1, d) for k in range(n)]
    w, b = rng.normal(mean_w[0], 1, (d, c)), rng.normal(mean_w[0], 1, c)
    x = rng.multivariate_normal(v[0], np.diag(np.arange(1, d + 1) ** -1.2), counts[0])
    y = np.argmax(x @ w + b, axis=1)
    rows = data.x_train[: data.train_counts[0]]
    order = [int(np.flatnonzero(np.all(np.abs(x - r) < 1e-12, axis=1))[0]) for r in rows]
    assert len(set(order)) == len(order) == int(0.9 * counts[0])
    assert np.array_equal(data.y_train[: data.train_counts[0]], y[order])


def test_default_layout_unchanged():
    a = synthetic_leaf(0.5, 0.5, 24, seed=0)
    assert int(a.train_counts.sum()) == 3818  # spec A.5: ours at seed 0 (round split)


def test_authors_types_counts():
    avail, stab = authors_types(np.random.default_rng(3), 10, deterministic=True)
    # ⌊10·p⌋ = (5, 2, 2) then one more to the first non-empty type
    assert np.bincount(avail * 3 + stab, minlength=6).tolist() == [0, 6, 0, 2, 2, 0]
    counts = [np.bincount(authors_types(np.random.default_rng(s), 100)[0], minlength=2)[0]
              for s in range(200)]  # fmt: skip
    assert abs(np.mean(counts) - 50) < 1.5  # multinomial: half available on average


def test_authors_lambda_law_and_bounds():
    rng = np.random.default_rng(0)
    draws = np.array([authors_lambda(1, 0.9, 0.9, 0.01, rng) for _ in range(4000)])
    assert draws.mean() == pytest.approx(0.005, abs=3e-4)  # ½(N(0, ε²) + ε) = N(ε/2, (ε/2)²)
    assert draws.std() == pytest.approx(0.005, rel=0.05)
    assert authors_lambda(0, 0.9, 0.9, 0.01, rng) == 0.9
    # unstable: max(−ν, 1 − 1/π + 1e-8, ...) and 1 − 1/0.9 = −1/9 binds
    assert authors_lambda(2, 0.9, 0.9, 0.01, rng) == pytest.approx(-1 / 9 + 1e-8, abs=1e-15)


def test_population_plugin_and_leaf_stream_agree():
    pop = authors_population(40, seed=5)
    assert set(np.unique(pop.labels)) <= {1, 2, 3}
    raw = {
        "seed": 42,
        "device": "cpu",
        "run": {"rounds": 1},
        "problem": {"kind": "synthetic_leaf", "gamma": 0.5, "delta": 0.5, "n_clients": 24,
                    "rng_layout": "authors", "max_samples": 200},
        "availability": {"kind": "ca_fed_authors",
                         "leaf": {"gamma": 0.5, "delta": 0.5, "max_samples": 200}},
        "algorithms": [{"name": "unbiased"}],
    }  # fmt: skip
    cfg = build(raw)
    _, want = authors_leaf(0.5, 0.5, 24, seed=42, max_samples=200)
    assert np.array_equal(np.asarray(cfg.process.pi), want.pi)
    assert np.array_equal(np.asarray(cfg.process.lambda2), want.lambda2)
    assert int(cfg.groups["less available, correlated"].sum()) == int((want.labels == 2).sum())


def test_f3ast_code_variant_has_no_memory():
    """r = (1 − β)π + β·1{active} afresh every round: the same round input gives the same
    weights whatever came before; top-k by α/r, weights α/r (hand values)."""
    from fltheory.sim.algorithms.base import RoundInput
    from fltheory.sim.algorithms.f3ast_code import F3ASTCode

    alpha = np.array([0.1, 0.2, 0.3, 0.4])
    pi = np.array([[0.1, 0.9, 0.5, 0.9]])
    alg = F3ASTCode(k=2, beta=0.1)
    inp = RoundInput(0, np.array([[True, True, True, False]]), alpha, pi)
    state = alg.init_state(1, alpha, pi)
    for _ in range(3):
        q, state = alg.weights(inp, state)
        r = 0.9 * pi[0] + 0.1 * np.array([1, 1, 1, 0])  # (0.19, 0.91, 0.55, 0.81)
        np.testing.assert_allclose(q[0], [0.1 / r[0], 0.0, 0.3 / r[2], 0.0])
