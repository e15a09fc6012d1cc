"""Weighted (CA-Fed eq. 3) and normalised aggregation under Bernoulli links."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fltheory.errors import AssumptionViolation, InputError
from fltheory.limits.aggregation import (
    FEDAVG,
    Aggregation,
    bernoulli_limit,
    expected_coefficients,
)
from fltheory.limits.bernoulli import fedavg_weights
from fltheory.limits.local import local_gain
from fltheory.testing.limits import (
    aggregations,
    bernoulli_sampler,
    expected_coefficients_enumeration,
    probability_vectors,
    simulate_isotropic,
)


@given(st.data(), st.integers(1, 8))
def test_expected_coefficients_match_enumeration(data, m):
    p = data.draw(probability_vectors(m, m))
    agg = data.draw(aggregations(m))
    omega, bound = expected_coefficients(p, agg)
    brute = expected_coefficients_enumeration(p, agg)
    assert np.allclose(omega, brute, rtol=1e-11, atol=1e-300)
    assert bound <= 1e-11


@given(probability_vectors(1, 10), st.floats(0.01, 1.0), st.integers(1, 50))
def test_fedavg_limit_is_prop1_for_any_local_schedule(p, lr, steps):
    u = np.arange(2 * p.size, dtype=float).reshape(p.size, 2)
    result = bernoulli_limit(p, u, lr=lr, local_steps=steps)
    w = fedavg_weights(p).weights
    assert np.allclose(result.limit, w @ u, rtol=1e-12, atol=1e-12)
    gamma = 1.0 - (1.0 - lr) ** steps
    expected_rate = 1.0 - gamma * (1.0 - np.prod(1.0 - p))
    assert result.rate == pytest.approx(expected_rate, rel=1e-9, abs=1e-12)


def test_unnormalised_limit_is_ca_fed_eq4_minimiser():
    p = np.array([0.2, 0.5, 0.9])
    q = np.array([3.0, 1.0, 0.5])
    u = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 2.0]])
    result = bernoulli_limit(p, u, Aggregation(q=q, normalised=False, server_lr=0.3))
    biased_importance = p * q / (p * q).sum()  # CA-Fed eq. 4 with π = p
    assert np.allclose(result.limit, biased_importance @ u, rtol=1e-14)


def test_contraction_failure_is_reported():
    p = np.array([0.9, 0.9])
    u = np.zeros((2, 1))
    big = Aggregation(q=np.array([2.0, 2.0]), normalised=False, server_lr=1.0)
    with pytest.raises(AssumptionViolation, match="does not contract"):
        bernoulli_limit(p, u, big, lr=1.0)  # γ = 1, Σ γ q p = 3.6 ≥ 2
    with pytest.raises(InputError):
        Aggregation(q=np.array([-1.0, 1.0]))
    with pytest.raises(InputError):
        bernoulli_limit(p, u, Aggregation(q=np.ones(3)))


P_MC = np.array([0.1, 0.4, 0.8, 0.95])
U_MC = np.array([[4.0, -1.0], [0.0, 2.0], [-3.0, 1.0], [1.0, 5.0]])


@pytest.mark.parametrize(
    ("agg", "local_steps"),
    [
        (FEDAVG, 2),
        (Aggregation(q=np.array([1.0, 0.5, 0.3, 2.0]), normalised=False, server_lr=0.4), 2),
        (Aggregation(q=np.array([1.0, 0.5, 0.3, 2.0]), normalised=True, server_lr=0.9), 2),
        (FEDAVG, np.array([1, 3, 6, 2])),  # heterogeneous local work (Wang et al.)
    ],
)
def test_monte_carlo_agrees_within_five_standard_errors(agg, local_steps):
    lr = 0.3
    gains = np.broadcast_to(local_gain(lr, local_steps), (4,))
    result = bernoulli_limit(P_MC, U_MC, agg, lr=lr, local_steps=local_steps)
    runs = 300
    means, _ = simulate_isotropic(
        bernoulli_sampler(P_MC, runs, seed=11), U_MC, agg, gains,
        rounds=1200, burn_in=200, runs=runs, center=U_MC.mean(axis=0),
    )  # fmt: skip
    estimate = means.mean(axis=0)
    se = means.std(axis=0, ddof=1) / np.sqrt(runs)
    assert np.all(np.abs(estimate - result.limit) <= 5 * se), (estimate, result.limit, se)
    # The band is tight enough to tell the limit from the plain mean x* here.
    assert np.any(np.abs(U_MC.mean(axis=0) - result.limit) > 5 * se)


def test_seeded_simulation_is_reproducible():
    a, _ = simulate_isotropic(
        bernoulli_sampler(P_MC, 5, seed=1), U_MC, FEDAVG, np.full(4, 0.5),
        rounds=30, burn_in=0, runs=5, center=np.zeros(2),
    )  # fmt: skip
    b, _ = simulate_isotropic(
        bernoulli_sampler(P_MC, 5, seed=1), U_MC, FEDAVG, np.full(4, 0.5),
        rounds=30, burn_in=0, runs=5, center=np.zeros(2),
    )  # fmt: skip
    assert np.array_equal(a, b)
