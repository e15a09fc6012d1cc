"""Stationary distribution: GTH against exact rationals, eigenvectors and closed forms."""

import numpy as np
import pytest
import sympy
from hypothesis import given

from fltheory.errors import AssumptionViolation
from fltheory.markov.stationary import exact_stationary, gth_stationary
from fltheory.rng import generator
from fltheory.testing.chains import irreducible_chains, rational_chains


def _as_float(R: sympy.Matrix) -> np.ndarray:
    return np.array(R.tolist(), dtype=float)


@given(rational_chains(max_states=6))
def test_gth_matches_exact_rationals(R):
    exact = exact_stationary(R)
    assert sympy.Matrix([exact]) * R == sympy.Matrix([exact])  # ρᵀP = ρᵀ exactly
    assert sum(exact) == 1
    rho = gth_stationary(_as_float(R))
    np.testing.assert_allclose(rho, np.array(exact, dtype=float), rtol=1e-13, atol=0)


@given(irreducible_chains())
def test_gth_matches_the_left_eigenvector(P):
    w, V = np.linalg.eig(P.T)
    v = np.real(V[:, np.argmin(np.abs(w - 1))])
    v /= v.sum()
    rho = gth_stationary(P)
    assert np.all(rho > 0)
    np.testing.assert_allclose(rho, v, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(rho @ P, rho, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize(("a", "b"), [(1e-13, 3e-13), (2e-16, 1e-9), (0.3, 0.7)])
def test_sticky_two_state_chain_against_closed_form(a, b):
    P = np.array([[1 - a, a], [b, 1 - b]])
    expected = np.array([b, a]) / (a + b)  # eq. (237) with the stored off-diagonal entries
    np.testing.assert_allclose(gth_stationary(P), expected, rtol=4e-16, atol=0)


def test_nearly_decoupled_chain_against_exact_rationals():
    # Two 2-state blocks linked by 1e-12; every entry is a short decimal, so the float matrix
    # and the rational one read through repr agree to one rounding per entry.
    P = [
        [0.5, 0.499999999999, 0.000000000001, 0.0],
        [0.25, 0.75, 0.0, 0.0],
        [0.0, 0.0, 0.6, 0.4],
        [0.000000000003, 0.0, 0.9, 0.099999999997],
    ]
    exact = np.array(exact_stationary(P), dtype=float)
    np.testing.assert_allclose(gth_stationary(P), exact, rtol=1e-13, atol=0)


@pytest.mark.parametrize("M", [65, 150])
def test_blocked_elimination_across_panels(M):
    rng = generator(7, f"test.gth.panels.{M}")
    W = rng.random((M, M)) * (rng.random((M, M)) < 0.4)
    np.fill_diagonal(W, 1.0)
    W[np.arange(M), np.roll(np.arange(M), -1)] += 0.5
    P = W / W.sum(axis=1, keepdims=True)
    # independent: solve (Pᵀ − I)ρ = 0 with the last equation replaced by Σρ = 1
    A = P.T - np.eye(M)
    A[-1] = 1.0
    rhs = np.zeros(M)
    rhs[-1] = 1.0
    np.testing.assert_allclose(gth_stationary(P), np.linalg.solve(A, rhs), rtol=1e-10)


def test_gth_refuses_a_reducible_chain():
    with pytest.raises(AssumptionViolation, match="reducible"):
        gth_stationary(np.eye(3))
