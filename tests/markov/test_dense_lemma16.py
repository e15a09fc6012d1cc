"""Lemma 16 (eqs. 5, 156, 157): the constants, their proof step, and the inequality itself."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize

from fltheory.markov.jordan import JordanData, exact_jordan, numeric_jordan
from fltheory.markov.lemma16 import T_P, T_entrywise, T_P_safe, lemma16_record, log_C_P
from fltheory.markov.stationary import gth_stationary
from fltheory.testing.chains import defective_chains, irreducible_chains


def _entry_violated(t: int, j: int, mu: Fraction, lam: Fraction) -> bool:
    """Exactly: C(t, j) μ^{t−j} > λᵗ (0⁰ = 1)."""
    return t >= j and math.comb(t, j) * mu ** (t - j) > lam**t


def test_the_085_example():
    blocks = [(0.85, 2)]
    assert T_P(blocks, 0.85) == 46
    assert T_P_safe(blocks, 0.85) == 48
    assert T_entrywise(blocks, 0.925) == 48
    mu, lam = Fraction(17, 20), Fraction(37, 40)
    # the proof's entrywise step fails at t = 46 and 47, i.e. from the paper's T_P on
    assert _entry_violated(46, 1, mu, lam) and _entry_violated(47, 1, mu, lam)
    assert not any(_entry_violated(t, 1, mu, lam) for t in range(48, 600))


@settings(max_examples=30)
@given(
    st.integers(1, 4),
    st.integers(0, 19).map(lambda k: Fraction(k, 20)),
    st.integers(0, 19).map(lambda k: Fraction(k, 20)),
)
def test_T_entrywise_against_exact_enumeration(n, mu, slem_extra):
    slem = max(mu, slem_extra)  # the block need not carry λ̄₂
    lam = (slem + 1) / 2
    t0 = T_entrywise([(float(mu), n)], float(lam))
    horizon = 2 * t0 + 200
    bad = [t for t in range(horizon) for j in range(1, n) if _entry_violated(t, j, mu, lam)]
    assert t0 == (max(bad) + 1 if bad else 0)


_BLOCKS = st.lists(st.tuples(st.floats(1e-6, 0.999), st.integers(1, 5)), min_size=1, max_size=4)


@settings(max_examples=200)
@given(_BLOCKS)
def test_T_P_safe_covers_the_entrywise_step(blocks):
    """Observed on random blocks (and on a 1596-point grid while developing): T_P_safe ≥
    T_entrywise. The paper's T_P does not: see the 0.85 example."""
    slem = max(m for m, _ in blocks)
    assert T_P_safe(blocks, slem) >= T_entrywise(blocks, (slem + 1) / 2)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_slem_zero_limits(n):
    # nilpotent block: the entry C(t, n−1)·0⁰ = 1 at t = n − 1 exceeds λ^{n−1} = 2^{1−n}
    assert T_P([(0.0, n)], 0.0) == 0
    assert T_entrywise([(0.0, n)], 0.5) == (n if n > 1 else 0)
    assert T_P_safe([(0.0, n)], 0.0) == math.ceil(2 * n * (n - 1) / (n + 1))
    assert T_P_safe([(0.0, n)], 0.0) >= T_entrywise([(0.0, n)], 0.5)
    # continuity: the λ̄₂ = 0 values are the limits λ̄₂ → 0⁺
    assert T_P_safe([(1e-300, n)], 1e-300) == T_P_safe([(0.0, n)], 0.0)
    assert T_P([(1e-300, n)], 1e-300) == 0


@settings(max_examples=10)
@given(irreducible_chains(max_states=6))
def test_block_scaling_minimum_is_the_sum_of_block_products(P):
    """Eq. (156) with the best U·D, D = diag(d_B): min ‖UD‖_F‖D⁻¹U⁻¹‖_F = Σ_B ‖U_B‖‖(U⁻¹)_B‖."""
    jd = numeric_jordan(P, keep_basis=True)
    col = np.linalg.norm(jd.U, axis=0)
    row = np.linalg.norm(jd.U_inv, axis=1)

    def product(log_d: np.ndarray) -> float:
        d = np.exp(log_d)
        return float(np.linalg.norm(col * d) * np.linalg.norm(row / d))

    best = minimize(product, np.zeros(col.size), method="BFGS", options={"gtol": 1e-12})
    claimed = float(np.sum(np.exp(jd.log_block_products)))
    assert best.fun == pytest.approx(claimed, rel=1e-6)
    assert product(np.zeros(col.size)) >= claimed * (1 - 1e-12)
    M = P.shape[0]
    assert log_C_P(jd) == pytest.approx(0.5 * math.log(M - 1) + math.log(claimed), abs=1e-12)


def test_log_C_P_of_a_hand_made_record():
    jd = JordanData(((1, 1), (0.5, 2), (0.2, 1)), (0.0, math.log(3.0), math.log(2.0)), "exact")
    assert log_C_P(jd) == pytest.approx(math.log(math.sqrt(5) * 6.0), abs=1e-14)


def _max_violation(P: np.ndarray, rho: np.ndarray, log_C: float, lam: float, t_from: int):
    """max over t ≥ t_from of ln E(t) − ln(C_P λᵗ), while C_P λᵗ ≥ 1e-9 (above float noise)."""
    worst = -math.inf
    Pt = np.linalg.matrix_power(P, t_from)
    t = t_from
    while log_C + t * math.log(lam) >= math.log(1e-9) and t < 5000:
        E = np.abs(Pt - rho).max()
        if E > 0:
            worst = max(worst, math.log(E) - (log_C + t * math.log(lam)))
        Pt, t = Pt @ P, t + 1
    return worst


@given(irreducible_chains())
def test_lemma16_inequality_on_random_chains(P):
    rec = lemma16_record(numeric_jordan(P))
    c = rec.constants
    rho = gth_stationary(P)
    assert _max_violation(P, rho, c.log_C_P, c.lam, c.T_P_safe) <= 1e-9
    assert _max_violation(P, rho, c.log_C_P, c.lam, c.T_P) <= 1e-9


@settings(max_examples=25)
@given(defective_chains())
def test_lemma16_inequality_on_defective_chains(dc):
    rec = lemma16_record(exact_jordan(dc.P))
    c = rec.constants
    P = np.array(dc.P.tolist(), dtype=float)
    rho = gth_stationary(P)
    assert c.T_P_safe >= rec.T_entrywise
    assert _max_violation(P, rho, c.log_C_P, c.lam, c.T_P_safe) <= 1e-9
    # Not implied by the proof when T_P < T_entrywise, but observed here (C_P has slack: the
    # largest ratio E(t)/(C_P λᵗ) from T_P was below e⁻² in 150 constructed chains).
    assert _max_violation(P, rho, c.log_C_P, c.lam, c.T_P) <= 1e-9


@pytest.mark.parametrize(
    "P",
    [
        0.5 * np.eye(4) + 0.5 * np.outer(np.ones(4), [0.1, 0.2, 0.3, 0.4]),
        np.kron(*[np.array([[0.5, 0.3, 0.2], [0.1, 0.6, 0.3], [0.4, 0.1, 0.5]])] * 2),
    ],
)
def test_lemma16_inequality_with_repeated_eigenvalues(P):
    c = lemma16_record(numeric_jordan(P, fallback=False)).constants
    assert _max_violation(P, gth_stationary(P), c.log_C_P, c.lam, 0) <= 1e-9


@pytest.mark.parametrize("n", [2, 3, 5])
def test_T_P_is_finite_at_a_subnormal_slem(n):
    """Regression: at λ̄₂ = 5e-324, (1 − λ̄₂)/(2λ̄₂) overflowed and T_P raised a ValueError.
    Reference: eq. 157 evaluated at 50 digits (mpmath), independently of the float code."""
    import mpmath

    slem = 5e-324
    with mpmath.workdps(50):
        s = mpmath.mpf(slem)
        r = mpmath.log((1 + s) / (2 * s))
        A = 2 * n * (n - 1) * (mpmath.log(2 * n / r) - 1) / ((n + 1) * r)
        B = 2 * n * (n - 1) * (mpmath.log(2 * n / (r * s)) - 1) / ((n + 1) * r)
    assert T_P([(slem, n)], slem) == max(int(mpmath.ceil(A)), 0) == 0
    assert T_P_safe([(slem, n)], slem) == int(mpmath.ceil(B))
    assert T_P_safe([(slem, n)], slem) == math.ceil(2 * n * (n - 1) / (n + 1))  # the λ̄₂ → 0 limit
