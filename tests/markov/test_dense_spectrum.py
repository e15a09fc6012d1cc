"""λ̄₂ by deflation (eq. 229) against full eigensolves, closed forms and brute-force mixing."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from fltheory.errors import InputError, NumericalError
from fltheory.markov.chain import MarkovChain
from fltheory.markov.spectrum import (
    is_reversible,
    lam,
    mixing_time_bounds,
    nonunit_spectrum,
    relaxation_time,
    slem,
)
from fltheory.markov.stationary import gth_stationary
from fltheory.rng import generator
from fltheory.testing.chains import irreducible_chains


def _full_nonunit(P: np.ndarray) -> np.ndarray:
    w = np.linalg.eigvals(P)
    return np.delete(w, np.argmin(np.abs(w - 1.0)))


@given(irreducible_chains())
def test_nonunit_spectrum_matches_a_full_eigensolve(P):
    full = _full_nonunit(P)
    if np.min(np.abs(full - 1.0)) < 1e-3:  # away from the edge λ̄₂ → 1
        return
    ours = nonunit_spectrum(P)
    cost = np.abs(ours[:, None] - full[None, :])
    rows, cols = linear_sum_assignment(cost)
    assert cost[rows, cols].max() < 1e-8
    assert slem(P) == pytest.approx(np.max(np.abs(full)), abs=1e-9)


@pytest.mark.parametrize("gap", [1e-6, 1e-9])
def test_two_state_near_one_against_closed_form(gap):
    a, b = 0.3 * gap, 0.7 * gap
    P = np.array([[1 - a, a], [b, 1 - b]])
    exact = P[0, 0] + P[1, 1] - 1  # eq. (238) on the stored matrix
    value = slem(P)
    assert abs((1 - value) - (1 - exact)) <= 4e-16
    assert (1 - value) == pytest.approx(gap, rel=1e-6)
    assert relaxation_time(value) == pytest.approx(1 / gap, rel=1e-6)
    assert lam(value) == pytest.approx(1 - gap / 2, abs=1e-15)


@pytest.mark.parametrize("eps", [1e-6, 1e-9])
def test_three_state_lazy_rotation_near_one(eps):
    # P = (1 − ε)I + εC (C the 3-cycle): eigenvalues 1 − ε + εω^k, so
    # λ̄₂ = |1 − 3ε/2 + iε√3/2| and 1 − λ̄₂ = (3ε − 3ε²)/(1 + λ̄₂): complex, near 1.
    C = np.roll(np.eye(3), 1, axis=1)
    P = (1 - eps) * np.eye(3) + eps * C
    s = math.sqrt(1 - 3 * eps + 3 * eps**2)
    gap = (3 * eps - 3 * eps**2) / (1 + s)
    value = slem(P)
    assert (1 - value) == pytest.approx(gap, rel=1e-5)
    spectrum = nonunit_spectrum(P)
    assert np.all(np.abs(spectrum.imag) > 0.5 * eps)


@pytest.mark.parametrize("eps", [1e-6, 1e-9])
def test_three_state_sticky_semisimple_against_closed_form(eps):
    rho = np.array([0.2, 0.3, 0.5])
    P = (1 - eps) * np.eye(3) + eps * np.outer(np.ones(3), rho)  # spectrum {1, 1 − ε, 1 − ε}
    assert (1 - slem(P)) == pytest.approx(eps, rel=1e-6)


def test_negative_eigenvalue_counts_by_modulus():
    P = np.array([[0.05, 0.95], [0.95, 0.05]])  # λ₂ = −0.9
    assert slem(P) == pytest.approx(0.9, abs=1e-15)


@pytest.mark.parametrize(
    "P",
    [
        np.outer(np.ones(4), [0.1, 0.2, 0.3, 0.4]),
        np.kron(np.outer(np.ones(2), [0.3, 0.7]), np.outer(np.ones(2), [0.9, 0.1])),
        np.kron(
            np.kron(np.outer(np.ones(2), [0.5, 0.5]), np.outer(np.ones(2), [0.2, 0.8])),
            np.outer(np.ones(2), [0.6, 0.4]),
        ),
    ],
)
def test_rank_one_chains_have_slem_exactly_zero_and_T_P_zero(P):
    assert slem(P) == 0.0
    consts = MarkovChain(P).constants()
    assert consts.slem == 0.0 and consts.lam == 0.5
    assert consts.T_P == 0 and consts.T_P_safe == 0


def _t_mix(P: np.ndarray, rho: np.ndarray, eps: float) -> int:
    """min{t : d(t) ≤ ε} by doubling and bisection (d(t) is non-increasing, [31, Ex. 4.2])."""

    def d(t: int) -> float:
        return 0.5 * np.abs(np.linalg.matrix_power(P, t) - rho).sum(axis=1).max()

    hi = 1
    while d(hi) > eps:
        hi *= 2
    lo = 0 if d(0) > eps else -1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if d(mid) > eps else (lo, mid)
    return hi


@st.composite
def _reversible_chains(draw):
    M = draw(st.integers(2, 6))
    rng = generator(draw(st.integers(0, 2**32 - 1)), "test.reversible")
    W = rng.uniform(0.0, 1.0, (M, M)) ** draw(st.sampled_from([1, 4, 12]))
    W = W + W.T + np.diag(rng.uniform(0.01, 1.0, M))
    return W / W.sum(axis=1, keepdims=True)


@given(_reversible_chains(), st.sampled_from([0.05, 0.25, 0.45]))
def test_mixing_bounds_bracket_brute_force_t_mix_on_reversible_chains(P, eps):
    rho = gth_stationary(P)
    assert is_reversible(P, rho)
    bounds = mixing_time_bounds(slem(P), rho.min(), eps=eps)
    t = _t_mix(P, rho, eps)
    assert bounds.lower <= t <= bounds.upper


@given(irreducible_chains(max_states=6), st.sampled_from([0.05, 0.25]))
def test_mixing_lower_bound_holds_without_reversibility(P, eps):
    rho = gth_stationary(P)
    bounds = mixing_time_bounds(slem(P), rho.min(), eps=eps, reversible=is_reversible(P, rho))
    assert bounds.lower <= _t_mix(P, rho, eps)


def test_mixing_bounds_reject_bad_eps():
    with pytest.raises(InputError, match="eps"):
        mixing_time_bounds(0.5, 0.1, eps=1.0)


def test_gap_below_resolution_is_refused():
    P = np.array([[1.0, 1e-17], [1e-17, 1.0]])  # λ₂ = 1 − 2e-17 rounds to 1
    with pytest.raises(NumericalError, match="below floating-point resolution"):
        slem(P)
    with pytest.raises(NumericalError, match="below floating-point resolution"):
        MarkovChain(P).constants()


@pytest.mark.parametrize("eps", [5e-324, 1e-320, 1e-300])
def test_mixing_bounds_finite_at_a_subnormal_eps(eps):
    """Regression: 1/(2ε) and 1/(ε ρ_min) overflowed (inf bounds, or ZeroDivisionError when
    ε ρ_min underflowed to 0). Reference: the logarithms taken term by term in mpmath."""
    import mpmath

    b = mixing_time_bounds(0.5, 0.25, eps=eps)
    t_rel = 2.0  # 1/(1 − λ̄₂)
    lower = (t_rel - 1) * float(-mpmath.log(2) - mpmath.log(mpmath.mpf(eps)))
    upper = t_rel * float(-mpmath.log(mpmath.mpf(eps)) - mpmath.log(0.25))
    assert b.lower == pytest.approx(lower, rel=1e-14)
    assert b.upper == pytest.approx(upper, rel=1e-14)
