"""Proposition 1 (FedPBC paper): certified fast weights vs rationals, enumeration, deflation."""

import time
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from fltheory.errors import AssumptionViolation, InputError
from fltheory.limits.bernoulli import fedavg_weights, harmonic_inclusion, prob_any_active
from fltheory.limits.poisson_binomial import harmonic_inclusion_deflation, poisson_binomial_pmf
from fltheory.limits.subset_sum import fedavg_weights_exact, fedavg_weights_subset_sum
from fltheory.rng import generator
from fltheory.testing.limits import (
    fedavg_weights_enumeration,
    fedavg_weights_literal,
    probability_vectors,
    two_group_weights,
)


def _rel(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a / b - 1.0)))


def _exact_floats(p: np.ndarray) -> np.ndarray:
    return np.array([float(w) for w in fedavg_weights_exact([Fraction(v) for v in p])])


@given(probability_vectors(1, 14))
def test_fast_weights_match_exact_rationals(p):
    exact = _exact_floats(p)
    fast = fedavg_weights(p)
    assert _rel(fast.weights, exact) <= 1e-12
    assert abs(fast.weights.sum() - 1.0) <= 1e-13


@given(st.lists(st.fractions(0, 1, max_denominator=12), min_size=1, max_size=7))
def test_exact_form_equals_literal_formula_and_definition(p):
    if all(v == 0 for v in p):
        with pytest.raises(InputError):
            fedavg_weights_exact(p)
        return
    exact = fedavg_weights_exact(p)
    assert exact == fedavg_weights_literal(p)
    assert exact == fedavg_weights_enumeration(p)
    assert sum(exact) == 1


@given(probability_vectors(1, 10))
def test_definition_by_enumeration_matches_fast(p):
    definition = np.array([float(w) for w in fedavg_weights_enumeration([Fraction(v) for v in p])])
    assert _rel(fedavg_weights(p).weights, definition) <= 1e-12


@given(probability_vectors(1, 12, lower=0.05, upper=0.95))
def test_float_subset_sum_agrees_on_moderate_p(p):
    # The paper's alternating sum loses digits to cancellation; on moderate p it keeps ~1e-10.
    assert _rel(fedavg_weights_subset_sum(p), _exact_floats(p)) <= 1e-10


@given(probability_vectors(1, 14))
def test_deflation_matches_exact(p):
    exact = _exact_floats(p)
    assert _rel(harmonic_inclusion_deflation(p) / prob_any_active(p), exact) <= 1e-12


def test_poisson_binomial_pmf_against_enumeration():
    p = np.array([0.1, 0.5, 0.93, 1e-6, 1 - 1e-6])
    pmf = np.zeros(6)
    for mask in range(32):
        bits = [(mask >> i) & 1 for i in range(5)]
        pmf[sum(bits)] += np.prod([v if b else 1 - v for b, v in zip(bits, p, strict=True)])
    assert np.allclose(poisson_binomial_pmf(p), pmf, rtol=1e-13, atol=0)


@pytest.mark.parametrize("m", [300, 3000])
def test_fast_path_matches_deflation_and_exact_rule_at_large_m(m):
    rng = generator(1, f"bernoulli-large-{m}")
    p = rng.uniform(0.0, 1.0, m)
    p[:5] = [1e-6, 1 - 1e-6, 1.0, 1e-3, 0.5]
    fast = harmonic_inclusion(p)
    assert fast.error_bound <= 1e-15
    assert _rel(fast.values, harmonic_inclusion_deflation(p)) <= 1e-12
    assert _rel(fast.values, harmonic_inclusion(p, exact=True).values) <= 1e-12


@given(st.integers(1, 40), probability_vectors(1, 1))
def test_equal_probabilities_give_uniform_weights(m, p):
    assert np.allclose(fedavg_weights(np.full(m, p[0])).weights, 1.0 / m, rtol=1e-13, atol=0)


def test_extreme_probabilities():
    # One always-on client among nearly-never clients takes almost all the weight.
    p = np.array([1.0, 1e-6, 1e-6])
    w = fedavg_weights(p).weights
    exact = _exact_floats(p)
    assert _rel(w, exact) <= 1e-12
    assert w[0] == pytest.approx(1 - 1e-6, rel=1e-6)
    # Tiny probabilities: P(A ≠ ∅) ≈ Σp is computed to full relative accuracy.
    assert prob_any_active([1e-12] * 3) == pytest.approx(3e-12 - 3e-24, rel=1e-12)


def test_symbolic_two_clients():
    p1, p2 = sympy.symbols("p1 p2", positive=True)
    w1, _ = fedavg_weights_exact([p1, p2])
    expected = p1 * (1 - p2 / 2) / (1 - (1 - p1) * (1 - p2))
    assert sympy.simplify(w1 - expected) == 0


def test_iid_interpretation_ratio_of_averages():
    # w_i = E[1{i∈A}/|A| | A ≠ ∅]: independent Monte Carlo of the conditional mean, ±5 SE.
    p = np.array([0.05, 0.3, 0.9])
    rng = generator(3, "prop1-conditional-mean")
    sets = rng.random((200_000, 3)) < p
    sizes = sets.sum(axis=1)
    keep = sizes > 0
    samples = sets[keep] / sizes[keep, None]
    se = samples.std(axis=0, ddof=1) / np.sqrt(keep.sum())
    assert np.all(np.abs(samples.mean(axis=0) - fedavg_weights(p).weights) <= 5 * se)


def test_input_errors():
    with pytest.raises(InputError):
        fedavg_weights([0.5, 1.2])
    with pytest.raises(InputError):
        fedavg_weights([])
    with pytest.raises(AssumptionViolation):
        fedavg_weights([0.0, 0.0])


@pytest.mark.slow
def test_hundred_thousand_clients_fast_and_exact_on_two_groups():
    p = generator(0, "bernoulli-1e5").uniform(0.0, 1.0, 100_000)
    start = time.perf_counter()
    result = fedavg_weights(p)
    elapsed = time.perf_counter() - start
    assert elapsed < 3.0  # ~0.3 s measured on 2 shared cores; generous bound
    assert result.error_bound <= 1e-15
    assert abs(result.weights.sum() - 1.0) <= 1e-13
    groups = np.repeat([0.05, 0.9], 50_000)
    w0, w1 = two_group_weights(50_000, 0.05, 50_000, 0.9)
    fast = fedavg_weights(groups).weights
    assert _rel(fast[:50_000], np.full(50_000, w0)) <= 1e-12
    assert _rel(fast[50_000:], np.full(50_000, w1)) <= 1e-12


@given(st.integers(1, 30), st.integers(0, 30), probability_vectors(2, 2))
def test_two_group_closed_form(n0, n1, p):
    w0, w1 = two_group_weights(n0, p[0], n1, p[1])
    fast = fedavg_weights(np.repeat(p, [n0, n1])).weights
    assert _rel(fast[:n0], np.full(n0, w0)) <= 1e-12
    if n1:
        assert _rel(fast[n0:], np.full(n1, w1)) <= 1e-12
