"""Appendix D: χ²(α‖p(q)) is not convex on the orthant (Prop. 1), nor on ‖q‖₁ = Q (Prop. 2 is
false; it holds for equal availabilities, the case its proof covers).

Everything is checked in exact rational arithmetic (floats drawn by hypothesis are converted
exactly with Fraction), so no tolerance is involved.
"""

from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from fltheory.divergence import biased_importance, chi_square


def chi2_exact(alpha, pi, q):
    """χ²(α‖p) with p = π⊙q/πᵀq, in Fractions (eq. 11)."""
    d = sum(a * b for a, b in zip(pi, q, strict=True))
    p = [a * b / d for a, b in zip(pi, q, strict=True)]
    return sum((a - b) ** 2 / b for a, b in zip(alpha, p, strict=True))


def opt_fraction_exact(pi, s, v, q):
    """(½ Σ s_k q_k² + v)/πᵀq, in Fractions (eq. 13)."""
    num = Fraction(1, 2) * sum(a * b * b for a, b in zip(s, q, strict=True)) + v
    return num / sum(a * b for a, b in zip(pi, q, strict=True))


def midpoint_gap(f, x, y, zeta):
    """ζf(x) + (1−ζ)f(y) − f(ζx + (1−ζ)y): ≥ 0 for every x, y iff f is convex."""
    mid = [zeta * a + (1 - zeta) * b for a, b in zip(x, y, strict=True)]
    return zeta * f(x) + (1 - zeta) * f(y) - f(mid)


def test_prop1_explicit_counterexample_off_the_slice():
    # π = 1, α = (1/4, 3/4); q = α (‖q‖₁ = 1, χ² = 0) and q' = (5, 5) (‖q'‖₁ = 10, p = uniform).
    alpha = [Fraction(1, 4), Fraction(3, 4)]
    pi = [Fraction(1), Fraction(1)]
    q, q2 = [Fraction(1, 4), Fraction(3, 4)], [Fraction(5), Fraction(5)]
    f = lambda x: chi2_exact(alpha, pi, x)  # noqa: E731
    assert f(q) == 0
    assert f(q2) == Fraction(1, 4)  # by hand: 2·(1/4)²/(1/2)
    # Midpoint (21/8, 23/8): p = (21/44, 23/44); by hand χ² = (11/4)(1/21 + 9/23) − 1 = 100/483.
    mid = [(a + b) / 2 for a, b in zip(q, q2, strict=True)]
    assert f(mid) == Fraction(100, 483)
    assert Fraction(100, 483) > (f(q) + f(q2)) / 2 == Fraction(1, 8)
    assert midpoint_gap(f, q, q2, Fraction(1, 2)) < 0


def test_numpy_chi_square_matches_the_exact_value():
    alpha = np.array([0.25, 0.75])
    q = np.array([21 / 8, 23 / 8])
    value = chi_square(alpha, biased_importance(q, np.ones(2)))
    assert abs(value - 100 / 483) < 1e-15


def test_chi_square_infinite_when_a_target_client_gets_no_weight():
    p = np.array([0.0, 1.0])
    assert chi_square(np.array([0.5, 0.5]), p) == float("inf")
    assert chi_square(np.array([0.0, 1.0]), p) == 0.0


def _slice_points(draw, n):
    return [draw(st.floats(0.01, 1.0)) for _ in range(n)]


@st.composite
def slice_pairs(draw):
    """(π, α, q, q', ζ, Q) in exact Fractions, q and q' on the slice ‖q‖₁ = Q."""
    n = draw(st.integers(2, 6))
    pi = [Fraction(x) for x in _slice_points(draw, n)]
    raw_a = [Fraction(x) for x in _slice_points(draw, n)]
    alpha = [a / sum(raw_a) for a in raw_a]
    Q = Fraction(draw(st.floats(0.1, 10.0)))
    pts = []
    for _ in range(2):
        raw = [Fraction(x) for x in _slice_points(draw, n)]
        pts.append([Q * r / sum(raw) for r in raw])
    zeta = Fraction(draw(st.floats(0.0, 1.0)))
    return pi, alpha, pts[0], pts[1], zeta


def test_prop2_is_false_exact_counterexample_on_the_slice():
    # Prop. 2 claims convexity on ‖q‖₁ = Q; its proof needs πᵀq constant, which the slice does
    # not fix (claim cafed:appd-prop2, refuted). Q = 1, ζ = ½, every number by hand below.
    pi = [Fraction(1), Fraction(1, 10), Fraction(1, 10)]
    alpha = [Fraction(2, 9), Fraction(1, 2), Fraction(5, 18)]
    q, q2 = (
        [Fraction(1, 10), Fraction(1, 10), Fraction(4, 5)],
        [Fraction(9, 20), Fraction(3, 20), Fraction(2, 5)],
    )
    f = lambda x: chi2_exact(alpha, pi, x)  # noqa: E731
    assert sum(q) == sum(q2) == 1
    # πᵀq = 19/100: p = (10/19, 1/19, 8/19); χ² = Σα²/p − 1 = 1933/480 ≈ 4.0271
    assert f(q) == Fraction(1933, 480)
    # πᵀq′ = 101/200: p = (90/101, 3/101, 8/101); χ² = 985169/116640 ≈ 8.4462
    assert f(q2) == Fraction(985169, 116640)
    gap = midpoint_gap(f, q, q2, Fraction(1, 2))
    assert gap == Fraction(-285643, 1283040)  # ≈ −0.2226: the chord lies below χ²(midpoint)
    # the library agrees in floats
    mid = np.array([11 / 40, 1 / 8, 3 / 5])
    value = chi_square(
        np.array([2 / 9, 1 / 2, 5 / 18]), biased_importance(mid, np.array([1.0, 0.1, 0.1]))
    )
    assert abs(value - float(f([Fraction(11, 40), Fraction(1, 8), Fraction(3, 5)]))) < 1e-12


@given(slice_pairs())
def test_prop2_holds_with_equal_availabilities(case):
    # What the proof of Prop. 2 covers: π = c·1 makes πᵀq = cQ constant on the slice.
    _pi, alpha, q, q2, zeta = case
    pi = [Fraction(1, 3)] * len(alpha)
    assert midpoint_gap(lambda x: chi2_exact(alpha, pi, x), q, q2, zeta) >= 0


@given(slice_pairs(), st.lists(st.floats(0.0, 10.0), min_size=6, max_size=6), st.floats(1e-3, 10.0))
def test_opt_fraction_is_convex_on_the_slice(case, s_raw, v):
    # Appendix E1: (½qᵀSq + v)/πᵀq is a perspective of a convex function, hence convex, for
    # any diagonal S ⪰ 0 (not only S ∝ diag(π)).
    pi, _alpha, q, q2, zeta = case
    s = [Fraction(x) for x in s_raw[: len(pi)]]
    gap = midpoint_gap(lambda x: opt_fraction_exact(pi, s, Fraction(v), x), q, q2, zeta)
    assert gap >= 0
