"""sum_log_delayed when 2C_PH = K ≪ 1 (regression: it raised NumericalError once the direct
summation needed more than MAX_TERMS ≈ e²/K terms, i.e. for K ≲ 1.5e-7).

The closed form (Hurwitz ζ for t ≤ 1/K, a certified bound past it) is checked against a brute
force sum of the definition (eq. 179, J_t of eq. 132, T_P = 0) written here.
"""

import math

import numpy as np
import pytest

from fltheory.bounds.series import MAX_TERMS, sum_log_delayed
from fltheory.errors import NumericalError
from fltheory.problems.steps import StepSizes


def brute(eta1: float, a: float, log_K: float, L: float, start: int, stop: int) -> float:
    """Σ_{start≤t≤stop} ln(Kt)·η²_{t−J_t}, J_t = min(max(⌈ln(Kt)/L⌉, 0), t), η_0 := η_1."""
    total = 0.0
    for lo in range(start, stop + 1, 2**22):
        t = np.arange(lo, min(lo + 2**22, stop + 1), dtype=np.int64)
        ell = log_K + np.log(t)
        J = np.minimum(np.maximum(np.ceil(ell / L), 0), t).astype(np.int64)
        s = np.maximum(t - J, 1).astype(float)
        total += float(np.sum(ell * (eta1 * s ** (-a)) ** 2))
    return total


@pytest.mark.parametrize(
    ("a", "K", "L"),
    [(1.0, 1e-5, 0.5), (0.75, 1e-5, 1e-3), (1.0, 1e-5, 1.5e-5 / math.e)],
)
def test_small_K_closed_form_brackets_the_direct_sum(a, K, L):
    eta1, log_K = 0.3, math.log(K)
    s = sum_log_delayed(StepSizes.power_law(eta1, a), log_K, L, 0)
    assert "ζ" in s.rule  # the closed form applied
    t_K = s.n_terms
    assert log_K + math.log(t_K) <= 0.0 < log_K + math.log(t_K + 1)
    # head: the negative terms t ≤ 1/K, summed directly
    assert s.partial == pytest.approx(brute(eta1, a, log_K, L, 1, t_K), rel=1e-9)
    # the positive terms past 1/K: a long direct sum stays below the certified tail
    n = 4 * 10**6
    rest = brute(eta1, a, log_K, L, t_K + 1, n)
    assert 0.0 < rest <= s.tail
    # and the bound is not vacuous: the terms past n add less than ∫_n^∞ ln(Kx)(η(x/2))²
    far = eta1**2 * 4.0**a * n ** (1 - 2 * a) * ((log_K + math.log(n)) / (2 * a - 1) + 1)
    assert s.tail <= 6.0 * (rest + far) + 1e-300


def test_tiny_K_no_longer_raises():
    steps, log_K, L = StepSizes.power_law(0.1, 1.0), math.log(1e-9), 1e-3
    with pytest.raises(NumericalError, match="too many"):  # direct summation: ~e²/K terms
        sum_log_delayed(steps, log_K, L, 0, shortcut_min=math.inf)
    assert math.exp(2.0 - log_K) > MAX_TERMS
    s = sum_log_delayed(steps, log_K, L, 0)
    # η₁²Σ_{t≤10⁹} ln(Kt)/t² ≈ η₁²(ln K·π²/6 + Σ ln t/t²) = 0.01(−20.723·1.6449 + 0.9375)
    assert s.partial == pytest.approx(0.01 * (log_K * math.pi**2 / 6 + 0.9375482543), rel=1e-6)
    assert 0.0 < s.tail < 1e-6 and s.notes


def test_closed_form_declined_when_beta_is_too_small():
    # ln(1/λ) ≤ K/e: J_t = t on a stretch past 1/K, the bound does not apply (direct path)
    steps, K = StepSizes.power_law(0.1, 1.0), 1e-5
    s = sum_log_delayed(steps, math.log(K), 0.9 * K / math.e, 0, n_partial=64)
    assert "ζ" not in s.rule
