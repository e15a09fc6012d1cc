"""The Gauss rule behind Proposition 1: nodes/weights vs 40-digit values, certified bounds."""

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fltheory.limits.quadrature import gauss_legendre_unit, harmonic_rule
from fltheory.testing.limits import probability_vectors


def _mp_gauss_legendre(n: int) -> tuple[list, list]:
    """Nodes and weights on [0, 1] by Newton in 40-digit arithmetic (independent reference)."""
    with mpmath.workdps(40):
        nodes, weights = [], []
        for k in range(1, n + 1):
            x = mpmath.cos(mpmath.pi * (4 * k - 1) / (4 * n + 2))
            for _ in range(100):
                p0, p1 = mpmath.mpf(1), x
                for j in range(2, n + 1):
                    p0, p1 = p1, ((2 * j - 1) * x * p1 - (j - 1) * p0) / j
                dp = n * (x * p1 - p0) / (x * x - 1)
                step = p1 / dp
                x -= step
                if abs(step) < mpmath.mpf(10) ** -38:
                    break
            nodes.append((1 + x) / 2)
            weights.append(1 / ((1 - x * x) * dp * dp))
        return nodes[::-1], weights[::-1]


@pytest.mark.parametrize("n", [1, 2, 3, 8, 33, 64])
def test_nodes_and_weights_to_a_few_ulps_relative(n):
    ref_nodes, ref_weights = _mp_gauss_legendre(n)
    nodes, weights = gauss_legendre_unit(n)
    ref_nodes = np.array([float(v) for v in ref_nodes])
    ref_weights = np.array([float(v) for v in ref_weights])
    assert np.max(np.abs(nodes / ref_nodes - 1.0)) <= 1e-15 * max(n, 4)
    assert np.max(np.abs(weights / ref_weights - 1.0)) <= 1e-15 * max(n, 4)


@given(st.integers(1, 60), st.data())
def test_polynomials_integrated_exactly(n, data):
    k = data.draw(st.integers(0, 2 * n - 1))
    nodes, weights = gauss_legendre_unit(n)
    assert float(weights @ nodes**k) == pytest.approx(1.0 / (k + 1), rel=1e-13)


@given(probability_vectors(1, 200), st.sampled_from([1, 2]))
def test_rule_bound_is_within_tolerance(p, r):
    rule = harmonic_rule(p, r, rtol=1e-15)
    assert 0.0 <= rule.error_bound <= 1e-15
    assert rule.exact == (rule.error_bound == 0.0)
    assert 0.0 < rule.s_max <= 1.0
    assert rule.nodes.size <= max(1, -(-p.size // 2))


def test_truncated_rule_on_exponential_model():
    # All p equal to 1/2, m large: the integrand ∫₀¹ (1 − s/2)^(m−1) ds has a closed form.
    m = 5001
    rule = harmonic_rule(np.full(m, 0.5), 1)
    assert rule.s_max < 1.0 and not rule.exact
    integrand = np.exp(rule.log_full - np.log1p(-0.5 * rule.nodes))
    closed = 2.0 * (1.0 - 0.5**m) / m
    assert float(integrand @ rule.weights) == pytest.approx(closed, rel=1e-14)


def test_tiny_lambda_raises_no_overflow_warning():
    """Regression: a tiny λ_min (< ~1e-306) overflowed s₀ = (…)/λ_min in _tail_cut, which printed a
    RuntimeWarning during `fltheory check --paper fedpbc` (the cut is then the whole [0, 1])."""
    import warnings

    from fltheory.limits.quadrature import _tail_cut

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _tail_cut(np.float64(1e-310), 1, 1e-15) == 1.0
        assert _tail_cut(np.float64(2e-308), 3, 1e-15) == 1.0
    assert 0.0 < _tail_cut(100.0, 1, 1e-15) < 1.0
