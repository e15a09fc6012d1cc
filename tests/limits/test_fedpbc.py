"""FedPBC's mixing matrix (Section IV), Lemmas 1–2, and its expected fixed point."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fltheory.limits.aggregation import bernoulli_limit
from fltheory.limits.fedpbc import fedpbc_limit, lemma1_bound, mixing_expectation, mixing_rho
from fltheory.limits.local import local_gain
from fltheory.rng import generator
from fltheory.testing.limits import (
    client_points,
    lemma2_exact,
    lemma2_monte_carlo,
    mixing_enumeration,
    mixing_matrix,
    probability_vectors,
    simulate_fedpbc,
)


@given(st.lists(st.booleans(), min_size=1, max_size=12))
def test_w_is_symmetric_idempotent_doubly_stochastic(bits):
    W = mixing_matrix(np.array(bits))
    assert np.allclose(W, W.T) and np.allclose(W @ W, W)  # so E[WᵀW] = E[W²] = E[W]
    assert np.allclose(W.sum(axis=0), 1.0) and np.allclose(W.sum(axis=1), 1.0)


@given(probability_vectors(1, 9))
def test_mixing_expectation_matches_enumeration(p):
    M = mixing_expectation(p)
    brute = mixing_enumeration(p)
    assert np.allclose(M, brute, rtol=1e-12, atol=1e-15)
    assert np.allclose(M, M.T, atol=1e-15)
    assert np.allclose(M.sum(axis=1), 1.0, atol=1e-13)


def test_mixing_matrix_is_psd_and_rho_is_second_eigenvalue():
    p = generator(4, "fedpbc-psd").uniform(0.05, 1.0, 40)
    M = mixing_expectation(p)
    eig = np.linalg.eigvalsh(M)
    assert eig.min() >= -1e-12 and eig.max() == pytest.approx(1.0, abs=1e-12)
    assert mixing_rho(p) == pytest.approx(eig[-2], abs=1e-14)
    assert mixing_rho(p) < 1.0


@given(probability_vectors(1, 10, lower=1e-3))
def test_lemma1_holds_on_random_links(p):
    assert mixing_rho(p) <= lemma1_bound(p) + 1e-12


@pytest.mark.parametrize("m", [50, 300])
def test_lemma1_holds_for_larger_populations(m):
    p = generator(m, "lemma1-large").uniform(0.02, 1.0, m)
    rho, bound = mixing_rho(p), lemma1_bound(p)
    assert rho <= bound
    assert 1.0 - rho > 10 * (1.0 - bound)  # the bound is loose by an order of magnitude or more


@given(probability_vectors(2, 5, lower=0.05), st.integers(1, 4), st.data())
def test_lemma2_exact_expectation(p, t, data):
    B = data.draw(client_points(3, p.size))
    lhs = lemma2_exact(p, B, t)
    assert lhs <= mixing_rho(p) ** t * np.sum(B**2) + 1e-12


def test_lemma2_monte_carlo_agrees_with_exact_and_respects_bound():
    p = np.array([0.1, 0.3, 0.6, 0.9])
    B = generator(8, "lemma2-B").normal(size=(2, 4))
    exact = lemma2_exact(p, B, 3)
    mean, se = lemma2_monte_carlo(p, B, 3, runs=4000, seed=1)
    assert abs(mean - exact) <= 5 * se
    bound = mixing_rho(p) ** 3 * np.sum(B**2)
    assert mean - 5 * se <= bound


def test_lemma2_monte_carlo_larger_m():
    p = generator(9, "lemma2-p").uniform(0.1, 0.9, 10)
    B = generator(9, "lemma2-B10").normal(size=(3, 10))
    mean, se = lemma2_monte_carlo(p, B, 5, runs=1500, seed=2)
    assert mean - 5 * se <= mixing_rho(p) ** 5 * np.sum(B**2)


@given(probability_vectors(1, 8, lower=0.01), st.floats(0.01, 1.0), st.integers(1, 30), st.data())
def test_average_model_fixed_point_is_the_optimum(p, lr, steps, data):
    u = data.draw(client_points(p.size, 2))
    result = fedpbc_limit(p, u, lr=lr, local_steps=steps)
    assert np.allclose(result.average, u.mean(axis=0), atol=1e-10 * (1 + np.abs(u).max()))


def test_equal_probabilities_make_the_server_model_unbiased_too():
    u = generator(1, "fedpbc-equal").normal(size=(6, 3))
    result = fedpbc_limit(np.full(6, 0.4), u, lr=0.3, local_steps=2)
    assert np.allclose(result.server, u.mean(axis=0), atol=1e-12)


def test_monte_carlo_counterexample_fedpbc_unbiased_fedavg_biased():
    p = np.array([0.1, 0.1, 0.1, 0.9, 0.9, 0.9])
    u = np.array([[3.0], [2.0], [4.0], [-1.0], [0.0], [-2.0]])
    lr, steps = 0.2, 3
    gamma = float(local_gain(lr, steps))
    result = fedpbc_limit(p, u, lr=lr, local_steps=steps)
    runs = 200
    bar, server = simulate_fedpbc(p, u, gamma, rounds=3000, burn_in=500, runs=runs, seed=4)
    # W is doubly stochastic, so x̄ obeys x̄ ← (1 − γ)x̄ + γ·mean(u) on every path: no noise.
    assert np.allclose(bar, u.mean(axis=0), atol=1e-12)
    se = server.std(axis=0, ddof=1) / np.sqrt(runs)
    assert np.all(se > 0)
    assert np.all(np.abs(server.mean(axis=0) - result.server) <= 5 * se)
    # FedAvg's limit (Proposition 1) is far from both.
    fedavg = bernoulli_limit(p, u, lr=lr, local_steps=steps).limit
    assert np.all(np.abs(server.mean(axis=0) - fedavg) > 5 * se)
    assert np.all(np.abs(result.average - fedavg) > 0.5)


def test_tiny_steps_keep_the_average_at_the_mean_of_u():
    """Regression: fedpbc_limit solved (I − (1 − γ)M)X̄ = γMU for U itself, which lost eps/γ in
    the mean (2e-5 at η = 1.3e-13, s = 30) and was singular once γ underflowed to 0; it now
    solves for the deviations from x* = mean(u): x̄ = mean(u) whatever γ (Fig. 2's claim)."""
    u = np.array([[-0.8895045791325178], [-0.9999999999979563]])
    res = fedpbc_limit([0.695, 0.706], u, lr=1.3e-13, local_steps=30)
    assert abs(res.average[0] - u.mean()) < 1e-15
    res = fedpbc_limit([0.7, 0.7], u, lr=5e-324, local_steps=1)  # γ = 0 in float64
    assert abs(res.average[0] - u.mean()) < 1e-15
    # at γ = 0 the client means stay where the recursion leaves them: a finite answer
    assert np.all(np.isfinite(res.client_means))
