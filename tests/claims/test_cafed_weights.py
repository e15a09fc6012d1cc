"""The CA-Fed weight/optimisation claims (the section modules of fltheory.claims.papers.cafed
listed in MODULES): margins at hand-checkable instances against independent computations
(Fractions, 1-D mpmath minimisation, closed sums), the findings' classes, their moderate
witnesses in the paper's quantities and the standalone verify functions (every claim's verdict:
test_expected_verdicts.py)."""

import itertools
import math
from fractions import Fraction as F

import mpmath as mp
import numpy as np
import pytest

from fltheory.claims import CLAIMS, falsify
from fltheory.claims.papers.cafed import app_d_prop2, app_e2_duality, s4c_kappa

#: The modules the weight claims were split into (issue 25), from the former cafed_weights.py.
MODULES = (
    "app_d_prop1",
    "app_d_prop2",
    "app_e1_convex",
    "app_e_eq211",
    "app_e2_kkt",
    "app_e2_duality",
    "app_e2_monotone",
    "app_e3_closed_form",
    "app_h1_cost",
    "s3c_problem14",
    "s3d_guideline_a",
    "s3e_guideline_c",
    "s4c_kappa",
    "s5b_fig1",
)
CLAIM_IDS = [
    c.id
    for c in CLAIMS
    if c.margin is not None and CLAIMS.origin(c.id).rsplit(".", 1)[1] in MODULES
]


def chi2(alpha, pi, q):
    """χ²(α‖p), p = π⊙q/πᵀq, in Fractions (eqs. 4, 11)."""
    d = sum(a * b for a, b in zip(pi, q, strict=True))
    return sum(a * a * d / (b * c) for a, b, c in zip(alpha, pi, q, strict=True)) - 1


def fr(xs):
    return [F(x) for x in xs]


def frd(xs):
    """The decimals as written (0.1 → 1/10), as the explanations read an instance."""
    return [F(str(x)) for x in xs]


def arr(*xs):
    return np.array(xs, dtype=float)


def exact(claim_id, inst):
    return CLAIMS.get(claim_id).exact(inst)[0]


def margin(claim_id, inst):
    return CLAIMS.get(claim_id).margin(inst)


# --- Appendix D --------------------------------------------------------------------------------


def test_prop1_is_false_for_one_client_and_true_for_two():
    one = {"n": 1, "pi": arr(1.0), "alpha": arr(1.0)}
    assert margin("cafed:appd-prop1", one) == -1.0 and exact("cafed:appd-prop1", one) == -1
    # N = 2, π = 1, α = (1/4, 3/4): witness q₀ = α, q′ = c·(5/8, 3/8); by hand the best
    # relative violation over c ∈ {10, 1e3, 1e6} (computed here in Fractions)
    two = {"n": 2, "pi": arr(1.0, 1.0), "alpha": arr(0.25, 0.75)}
    alpha, ones, p1 = [F(1, 4), F(3, 4)], [F(1), F(1)], [F(5, 8), F(3, 8)]
    best = max(
        (lhs - rhs) / (lhs + rhs)
        for c in (10, 1000, 10**6)
        for lhs, rhs in [
            (
                chi2(alpha, ones, [a / 2 + c * b / 2 for a, b in zip(alpha, p1, strict=False)]),
                chi2(alpha, ones, p1) / 2,
            )
        ]
    )
    assert best > 0
    assert margin("cafed:appd-prop1-n-ge-2", two) == pytest.approx(float(best), rel=1e-9)


def test_prop1_witness_fails_for_uniform_alpha_only():
    uniform = {"n": 3, "alpha": arr(1, 1, 1) / 3, "log_Q": 6.0}
    assert margin("cafed:appd-prop1-witness", uniform) == -1.0
    # α = (1/4, 3/4), Q = 1e3: χ²(mid) > ½χ²(q′), with χ²(α‖u) = 1/4 in the limit Q → ∞
    inst = {"n": 2, "alpha": arr(0.25, 0.75), "log_Q": 3.0}
    alpha, ones, qp = [F(1, 4), F(3, 4)], [F(1), F(1)], [F(500), F(500)]
    lhs = chi2(alpha, ones, [(a + b) / 2 for a, b in zip(alpha, qp, strict=False)])
    rhs = chi2(alpha, ones, qp) / 2
    assert margin("cafed:appd-prop1-witness", inst) == pytest.approx(
        float((lhs - rhs) / (lhs + rhs))
    )
    assert exact("cafed:appd-prop1-witness", inst) > 0


def test_prop2_counterexample_of_the_inventory():
    inst = app_d_prop2.PROP2_COUNTEREXAMPLE
    pi, alpha = [F(1), F(1, 10), F(1, 10)], [F(2, 9), F(1, 2), F(5, 18)]
    q, q2 = [F(1, 10), F(1, 10), F(4, 5)], [F(9, 20), F(3, 20), F(2, 5)]
    mid = chi2(alpha, pi, [(a + b) / 2 for a, b in zip(q, q2, strict=False)])
    gap = (chi2(alpha, pi, q) + chi2(alpha, pi, q2)) / 2 - mid
    assert gap == F(-285643, 1283040)
    rel = float(gap / mid)  # ≈ −0.0345
    assert margin("cafed:appd-prop2", inst) <= rel + 1e-12
    assert float(exact("cafed:appd-prop2", inst)) <= rel + 1e-12  # the floats 0.1 etc., exactly


def test_prop2_holds_for_equal_availabilities_generic_and_at_the_minimum():
    inst = {"n": 3, "pi_c": 0.5, "alpha": arr(0.2, 0.3, 0.5), "w1": arr(0.1, 0.1, 0.8),
            "w2": arr(0.45, 0.15, 0.4), "zeta": 0.5}  # fmt: skip
    pi, alpha = [F(1, 2)] * 3, [F(1, 5), F(3, 10), F(1, 2)]
    q, q2 = [F(1, 10), F(1, 10), F(4, 5)], [F(9, 20), F(3, 20), F(2, 5)]
    gap = (chi2(alpha, pi, q) + chi2(alpha, pi, q2)) / 2 - chi2(
        alpha, pi, [(a + b) / 2 for a, b in zip(q, q2, strict=False)]
    )
    assert gap > 0
    assert (
        0
        <= margin("cafed:appd-prop2-equal-pi", inst)
        <= float(gap) / float(max((chi2(alpha, pi, q) + chi2(alpha, pi, q2)) / 2, 1)) + 1e-12
    )
    # boundary: both points at p = α (χ² = 0, its minimum): gap 0, curvature > 0
    at_min = {**inst, "w1": arr(0.2, 0.3, 0.5), "w2": arr(0.2, 0.3, 0.5)}
    assert abs(margin("cafed:appd-prop2-equal-pi", at_min)) <= 1e-12


P14 = {"n": 3, "pi": arr(0.001, 0.1, 0.9), "alpha": arr(1, 1, 1) / 3, "log_s": arr(0, 0, 0),
       "log_v": -6.0, "log_Q": 0.0, "log_gamma": 0.0, "w1": arr(0.5, 0.25, 0.25),
       "w2": arr(1, 1, 1) / 3, "zeta": 0.5}  # fmt: skip


def test_problem14_is_not_convex_in_q_but_is_in_the_perspective_variables():
    pi, alpha, v = fr([0.001, 0.1, 0.9]), [F(1, 3)] * 3, F(1e-6)

    def f(q):  # (½Σq² + v)/πᵀq + χ², Γ = 1, s = 1
        return (sum(x * x for x in q) / 2 + v) / sum(
            a * b for a, b in zip(pi, q, strict=False)
        ) + chi2(alpha, pi, q)

    q, q2 = [F(1, 2), F(1, 4), F(1, 4)], [F(1, 3)] * 3
    # the least tangent curvature at q is negative (the exact margin checks the segment
    # q ± t·d along its direction in Fractions)
    assert margin("cafed:problem14-convex-in-q", P14) < 0
    assert exact("cafed:problem14-convex-in-q", P14) < 0

    def J(y, sig):  # eq. 213 plus χ² + 1 = Σα²/(πy)
        return (
            sum(x * x for x in y) / (2 * sig)
            + v * sig
            + sum(a * a / (p * b) for a, p, b in zip(alpha, pi, y, strict=False))
        )

    pts = []
    for w in (q, q2):
        d = sum(a * b for a, b in zip(pi, w, strict=False))
        pts.append(([x / d for x in w], 1 / d))
    (y1, s1), (y2, s2) = pts
    gap = (J(y1, s1) + J(y2, s2)) / 2 - J(
        [(a + b) / 2 for a, b in zip(y1, y2, strict=False)], (s1 + s2) / 2
    )
    assert gap > 0
    assert margin("cafed:problem14-convex-reparametrised", P14) >= 0


# --- Appendix E: problem (212) -----------------------------------------------------------------


def optimum_two(pi, s, v, Q=1.0):
    """q* of (212) for two clients by a 1-D minimisation in 50-digit mpmath (q = (x, Q − x))."""
    with mp.workdps(50):

        def J(x):
            y = Q - x
            return (s[0] * x**2 / 2 + s[1] * y**2 / 2 + v) / (pi[0] * x + pi[1] * y)

        x = mp.findroot(lambda t: mp.diff(J, t), Q / 2)
        return np.array([float(x), float(Q - x)]), float(J(x))


def test_problem212_is_convex_with_a_zero_noise_client():
    inst = {"n": 2, "pi": arr(0.2, 0.9), "log_s": arr(0.0, 0.0), "zero": arr(1.0, 0.0),
            "log_v": 0.0, "log_Q": 0.0, "w1": arr(0.3, 0.7), "w2": arr(0.9, 0.1),
            "zeta": 0.5}  # fmt: skip
    pi, s = [F(1, 5), F(9, 10)], [F(1), F(0)]

    def J(q):
        return (sum(a * b * b for a, b in zip(s, q, strict=False)) / 2 + 1) / sum(
            a * b for a, b in zip(pi, q, strict=False)
        )

    q, q2 = fr([0.3, 0.7]), fr([0.9, 0.1])
    gap = (J(q) + J(q2)) / 2 - J([(a + b) / 2 for a, b in zip(q, q2, strict=False)])
    assert gap > 0
    assert 0 <= margin("cafed:appe1-convex", inst) <= float(gap / ((J(q) + J(q2)) / 2)) + 1e-12


TWO = {"n": 2, "pi": arr(0.9, 0.5), "log_s": arr(0.0, math.log10(2.0)), "log_v": -1.0, "log_Q": 0.0}


def test_eq224_holds_in_the_appendix_form_and_fails_as_one_constant():
    pi, s, v = np.array([0.9, 0.5]), np.array([1.0, 2.0]), 0.1
    q, J = optimum_two(pi, s, v)
    assert np.all(q > 0)  # both clients kept (v small)
    iota, theta = J, (v - 0.5 * float(s @ q**2))  # ι* = J*, θ* = (B − ½qᵀAq)/Q
    assert np.allclose(q, (iota * pi - theta) / s, rtol=1e-10)  # eq. 224 with a_k = 1/A_kk
    assert -1e-8 <= margin("cafed:eq224-kkt-appendix", TWO) <= 0
    # the main text's single a: a_k = 1/s_k = (1, ½), so q₁g₂ − q₂g₁ = g₁g₂/2 ≠ 0
    g = iota * pi - theta
    expected = -abs(q[0] * g[1] - q[1] * g[0]) / (q.max() * g.max())
    assert margin("cafed:eq224-kkt-main", TWO) == pytest.approx(expected, rel=1e-8)
    assert float(exact("cafed:eq224-kkt-main", TWO)) == pytest.approx(expected, rel=1e-8)


def test_eq224_divides_by_zero_for_a_supported_zero_noise_client():
    inst = {"n": 1, "pi": arr(0.5), "log_s": arr(0.0), "zero": arr(0.0), "log_v": 0.0, "log_Q": 0.0}
    assert margin("cafed:eq224-kkt-degenerate", inst) == -1.0
    assert exact("cafed:eq224-kkt-degenerate", inst) == -1  # ι*π = θ* = v/Q: (224) is 0/0


def test_eq225_227_identities_hold_and_227_is_singular_on_one_client():
    assert -1e-8 <= margin("cafed:eq225-227-closed-form-identities", TWO) <= 0
    pi, s = [F(9, 10), F(1, 2)], [F(1), F(2)]
    s0, s1, s2 = (sum(p**j / a for p, a in zip(pi, s, strict=False)) for j in (0, 1, 2))
    assert margin("cafed:eq225-227-closed-form", TWO) == pytest.approx(
        float((s0 * s2 - s1**2) / (s0 * s2))
    )
    one = {"n": 1, "pi": arr(0.5), "log_s": arr(0.0), "log_v": 0.0, "log_Q": 0.0}
    assert margin("cafed:eq225-227-closed-form", one) == -1.0  # S₀S₂ − S₁² = 0: (227) is 0/0


def test_iota_is_positive_and_the_printed_scaling_step_breaks_the_constraint():
    inst = {**TWO, "c": 2.0, "w1": arr(0.5, 0.5)}
    assert margin("cafed:appe2-iota-nonneg", {**inst, "zero": arr(1.0, 1.0)}) >= -1e-9
    # y′ = c·w/πᵀw, σ′ = c/πᵀw; y″ = y′/πᵀy′ = w/πᵀw has ‖y″‖₁ = Qσ′/c: relative error 1 − 1/c
    assert margin("cafed:appe2-iota-nonneg-printed", inst) == pytest.approx(-0.5)
    assert exact("cafed:appe2-iota-nonneg-printed", inst) == F(-1, 2)


def test_monotonicity_in_pi():
    # unequal A: π = (0.9, 0.5), A = (1e6, 1) and tiny B: the more available client gets less
    inst = {"n": 2, "pi": arr(0.9, 0.5), "log_s": arr(6.0, 0.0), "log_v": -6.0, "log_Q": 0.0}
    q, _ = optimum_two(np.array([0.9, 0.5]), np.array([1e6, 1.0]), 1e-6)
    assert margin("cafed:appe2-monotone", inst) == pytest.approx(q[0] - q[1], rel=1e-8)
    assert q[0] < q[1] and float(exact("cafed:appe2-monotone", inst)) < 0
    # the paper's A ∝ π (equal σ), small B: θ* < 0 and the less available get more (README)
    paper = {"n": 2, "pi": arr(0.2, 0.9), "log_c": 0.0, "log_v": -3.0, "log_Q": 0.0, "paper_a": 1}
    q, _ = optimum_two(np.array([0.2, 0.9]), np.array([0.2, 0.9]), 1e-3)
    assert q[0] > q[1]  # ≈ (0.58, 0.42)
    assert margin("cafed:appe2-monotone-paper-a", paper) == pytest.approx(q[1] - q[0], rel=1e-8)
    # equal A: q* non-decreasing in π
    equal = {"n": 2, "pi": arr(0.2, 0.9), "log_c": 0.0, "log_v": -3.0, "log_Q": 0.0}
    q, _ = optimum_two(np.array([0.2, 0.9]), np.array([1.0, 1.0]), 1e-3)
    assert margin("cafed:appe2-monotone-equal-a", equal) == pytest.approx(q[1] - q[0], rel=1e-8)
    assert q[1] > q[0]


def test_guideline_a_excludes_the_least_available():
    # π = (0.9, 0.1), A = 1, B = 10: the derivative of J(x, 1 − x) at x = 1 is ≤ 0, so q* = (1, 0)
    inst = {"n": 2, "pi": arr(0.9, 0.1), "log_s": arr(0.0, 0.0), "zero": arr(1.0, 1.0),
            "log_v": 1.0, "log_Q": 0.0, "alpha": arr(0.5, 0.5)}  # fmt: skip
    with mp.workdps(30):
        slope = mp.diff(lambda x: (x**2 / 2 + (1 - x) ** 2 / 2 + 10) / (0.9 * x + 0.1 * (1 - x)), 1)
    assert slope < 0
    assert margin("cafed:guideline-a-support", inst) == pytest.approx(0.9 - 0.1)
    assert margin("cafed:guideline-a", inst) >= 0


# --- Guideline C, κ̄² → ∞, Fig. 1 ----------------------------------------------------------------

GC = {"n": 3, "n_excl": 1, "d": 1, "pi": arr(1, 1, 1), "alpha": arr(1, 1, 1) / 3,
      "p_alt": arr(0.4, 0.6, 0.0), "u0": arr(0.0, 1.0, 2.0), "u1": arr(0, 0, 0),
      "log_h0": arr(0, 0, 0), "log_h1": arr(0, 0, 0)}  # fmt: skip


def test_guideline_c_counterexample_of_the_inventory():
    # Guideline C: p = (½, ½, 0), w_B* = ½, d_TV = ⅓, Γ′ = 9/8, ε̄′ = 1/8,
    # ε_bias = F(½) − F(1) = 1/8;
    # p = (2/5, 3/5, 0): w_B* = 3/5, Γ′ = 49/50, ε̄′ = 49/450, ε_bias = F(3/5) − F(1) = 2/25
    assert margin("cafed:guideline-c-eps-bar-prime", GC) == pytest.approx(
        (49 / 450 - 1 / 8) / (1 / 8)
    )
    assert float(exact("cafed:guideline-c-eps-bar-prime", GC)) == pytest.approx(
        (49 / 450 - 1 / 8) * 8
    )
    assert margin("cafed:guideline-c-eps-bias", GC) == pytest.approx((2 / 25 - 1 / 8) / (1 / 8))
    assert float(exact("cafed:guideline-c-eps-bias", GC)) == pytest.approx((2 / 25 - 1 / 8) * 8)
    # d_TV: both ⅓ (every p ≥ α on the kept set attains the minimum α(excluded))
    tv = {k: v for k, v in GC.items() if k in ("n", "n_excl", "pi", "alpha", "p_alt")}
    assert margin("cafed:guideline-c-tv", tv) == pytest.approx(0.0, abs=1e-15)
    assert margin("cafed:guideline-c-tv", {**tv, "p_alt": arr(0.9, 0.1, 0.0)}) == pytest.approx(
        ((0.9 - 1 / 3) + (1 / 3 - 0.1) + 1 / 3) / 2 - 1 / 3
    )


KAPPA = {"n": 2, "alpha_raw": arr(0.5, 0.5), "pi": arr(0.5, 1.0), "lambda2": arr(0.9, 0.0),
         "gamma": 0.0, "shape": arr(1.0, 0.0), "tau": 0.0}  # fmt: skip


def test_kappa_infinity_fails_only_when_the_gap_estimate_vanishes():
    # Γ̂′ = 0, τ = 0: ε̂ ≡ 0, the first drop (the correlated client 0) passes 0 − 0 ≥ 0:
    # q = (0, ·) instead of α/π = (1, ½); relative deviation max|q − α/π|/max(α/π) = 1
    assert margin("cafed:kappa-infinity", KAPPA) == -1.0
    assert exact("cafed:kappa-infinity", KAPPA) == -1
    # Γ̂′ = 1 > 0: dropping costs 4κ̄²α_k²Γ̂′ > Γ̂′ ≥ the gap term's gain
    assert margin("cafed:kappa-infinity-gamma-positive", {**KAPPA, "gamma": 1.0}) == 0.0
    assert exact("cafed:kappa-infinity-gamma-positive", {**KAPPA, "gamma": 1.0}) == 0


def test_fig1_sub_claims():
    inst = {"n": 2, "pi": arr(0.25, 1.0), "alpha": arr(0.5, 0.5)}
    assert abs(margin("cafed:fig1-unbiased-equalizes", inst)) <= 1e-15
    # AdaFed at π = (¼, ½), w = α/π = (2, 1), all 4 sets: c₀ = ⅛·1 + ⅛·⅔ = 5/24,
    # c₁ = ⅜·1 + ⅛·⅓ = 10/24: relative excess of the more available one ½
    inst = {"n": 2, "pi": arr(0.25, 0.5), "alpha": arr(0.5, 0.5)}
    assert margin("cafed:fig1-adafed-priority", inst) == pytest.approx(0.5, rel=1e-9)
    assert exact("cafed:fig1-adafed-priority", inst) == F(1, 2)
    # More available: exclude client 1 of α = (0.3, 0.7): d_TV = 0.7
    more = {"n": 2, "n_excl": 1, "pi": arr(0.5, 0.5), "alpha": arr(0.3, 0.7)}
    assert margin("cafed:fig1-more-available-bias", more) == pytest.approx(0.0, abs=1e-15)


def test_eq211_is_not_an_identity():
    # λ = ½, ln(2C_PH) = 1, T_P = 0, η_t = 1/t: D = Σ_t (J_t − x_t)η²_{t−J_t}, x_t = (1 + ln t)/ln 2
    t = np.arange(1, 2_000_001, dtype=float)
    x = (1.0 + np.log(t)) / math.log(2.0)
    j = np.minimum(np.maximum(np.ceil(x), 0.0), t)
    d = float(np.sum((j - x) / np.maximum(t - j, 1.0) ** 2))
    tail = 4.0 / t[-1]  # terms ≤ 1/(t/2)² past the horizon
    assert abs(d) > 10 * tail  # D ≠ 0
    inst = {"log_K": 1.0, "lam": 0.5, "T_P": 0, "eta1": 1.0, "a": 1.0}
    assert margin("cafed:eq211-c", inst) < 0 and float(exact("cafed:eq211-c", inst)) < 0


# --- verdicts ----------------------------------------------------------------------------------


def test_every_claim_of_the_module_is_covered():
    assert len(CLAIM_IDS) == 35
    assert {"cafed:fig1-experiments", "cafed:apph1-cost"}.isdisjoint(CLAIM_IDS)


def test_non_executable_claims_say_why():
    for claim_id in ("cafed:fig1-experiments", "cafed:apph1-cost"):
        verdict = falsify(CLAIMS.get(claim_id))
        assert verdict.verdict == "not_executable" and verdict.message


# --- findings: classes, moderate witnesses by hand, standalone verify ---------------------------

FINDINGS = {
    "cafed:appd-prop1": ("literal", None, "cafed:appd-prop1-n-ge-2"),
    "cafed:appd-prop1-witness": ("literal", None, "cafed:appd-prop1-witness-nonuniform"),
    "cafed:appd-prop2": ("error", "result", None),
    "cafed:problem14-convex-in-q": ("error", "result", None),
    "cafed:eq211-c": ("error", "step", None),
    "cafed:eq224-kkt-main": ("typo", None, "cafed:eq224-kkt-appendix"),
    "cafed:eq224-kkt-degenerate": ("literal", None, "cafed:eq224-kkt-appendix"),
    "cafed:eq225-227-closed-form": ("error", "step", None),
    "cafed:appe2-iota-nonneg-printed": ("error", "step", None),
    "cafed:appe2-monotone": ("literal", None, "cafed:appe2-monotone-equal-a"),
    "cafed:appe2-monotone-paper-a": ("error", "step", None),
    "cafed:guideline-c-eps-bar-prime": ("literal", None, "cafed:guideline-c-tv"),
    "cafed:guideline-c-eps-bias": ("literal", None, "cafed:guideline-c-tv"),
    "cafed:kappa-infinity": ("literal", None, "cafed:kappa-infinity-gamma-positive"),
    "cafed:kappa-exclusion-monotone": ("literal", None, "cafed:kappa-exclusion-endpoints"),
}


def test_every_refuted_claim_is_classified_as_reviewed():
    refuted = {c for c in CLAIM_IDS if CLAIMS.get(c).expected == "refuted"}
    assert refuted == set(FINDINGS)
    for claim_id, (cls, severity, intended) in FINDINGS.items():
        finding = CLAIMS.get(claim_id).finding
        assert (finding.cls, finding.severity, finding.intended) == (cls, severity, intended)
        if intended is not None:
            assert CLAIMS.get(intended).expected == "holds"


def verify_matches(claim_id, inst):
    """explain(inst) and the standalone verify agree (both sides and the verdict)."""
    claim = CLAIMS.get(claim_id)
    explanation = claim.explain(inst)
    result = claim.verify(**explanation.verify_args)
    assert result["holds"] == explanation.holds
    return explanation, result


PROP2_MODERATE = {"n": 3, "pi": arr(0.7, 0.2, 0.2), "alpha": arr(0.4, 0.1, 0.5),
                  "w1": arr(0.3, 0.6, 0.1), "w2": arr(0.3, 0.1, 0.6), "zeta": 0.5}  # fmt: skip


def test_prop2_moderate_witness_by_hand():
    # along the direction of negative curvature at q_ζ = (0.3, 0.6, 0.1): q, q′ = q_ζ ∓ (0.093,
    # −0.1, 0.007); by hand p(q_ζ) = (0.21, 0.12, 0.02)/0.35 = (0.6, 12/35, 2/35) and
    # χ²(q_ζ) = Σα²/p − 1 = 0.16/0.6 + 0.01·35/12 + 0.25·35/2 − 1 = 881/240
    pi, alpha = frd([0.7, 0.2, 0.2]), frd([0.4, 0.1, 0.5])
    q, q2 = frd([0.207, 0.7, 0.093]), frd([0.393, 0.5, 0.107])
    mid = chi2(alpha, pi, [(a + b) / 2 for a, b in zip(q, q2, strict=True)])
    chord = (chi2(alpha, pi, q) + chi2(alpha, pi, q2)) / 2
    assert (
        mid == F(881, 240) and mid > chord and float(mid - chord) == pytest.approx(1.646e-3, 1e-3)
    )
    assert margin("cafed:appd-prop2", PROP2_MODERATE) < 0
    explanation, result = verify_matches("cafed:appd-prop2", PROP2_MODERATE)
    assert explanation.verify_args["q"] == q and explanation.verify_args["q2"] == q2
    assert (result["lhs"], result["rhs"], result["holds"]) == (mid, chord, False)


def test_problem14_moderate_witness_by_hand():
    # Σ = I, υ = 1, Γ = 100, Q = 1 at Prop. 2's points: f = (½‖q‖² + 1)/πᵀq + 100χ²
    inst = {**PROP2_MODERATE, "log_s": arr(0, 0, 0), "log_v": 0.0, "log_Q": 0.0, "log_gamma": 2.0}
    pi, alpha = frd([0.7, 0.2, 0.2]), frd([0.4, 0.1, 0.5])

    def f(q):
        d = sum(a * b for a, b in zip(pi, q, strict=True))
        return (sum(x * x for x in q) / 2 + 1) / d + 100 * chi2(alpha, pi, q)

    q, q2 = frd([0.207, 0.7, 0.093]), frd([0.393, 0.5, 0.107])
    mid, chord = f([(a + b) / 2 for a, b in zip(q, q2, strict=True)]), (f(q) + f(q2)) / 2
    assert mid > chord
    assert margin("cafed:problem14-convex-in-q", inst) < 0
    _, result = verify_matches("cafed:problem14-convex-in-q", inst)
    assert (result["lhs"], result["rhs"], result["holds"]) == (mid, chord, False)


def test_eq224_main_moderate_witness_and_its_intended_form():
    inst = {"n": 2, "pi": arr(0.9, 0.5), "log_s": arr(0.0, 1.0), "log_v": -1.0, "log_Q": 0.0}
    q, J = optimum_two(np.array([0.9, 0.5]), np.array([1.0, 10.0]), 0.1)
    iota, theta = J, 0.1 - 0.5 * (q[0] ** 2 + 10 * q[1] ** 2)
    a = q / (iota * np.array([0.9, 0.5]) - theta)  # = 1/A_kk (eq. 224): (1, 0.1), not one a
    assert a == pytest.approx([1.0, 0.1], rel=1e-9)
    _, result = verify_matches("cafed:eq224-kkt-main", inst)
    assert float(result["lhs"]) == pytest.approx(1.0) and float(result["rhs"]) == pytest.approx(0.1)
    assert -1e-8 <= margin("cafed:eq224-kkt-appendix", inst) <= 0


def test_eq227_is_0_over_0_when_the_optimum_keeps_one_client():
    # π = (0.5, 0.9), A = I, B = 10, Q = 1: J(x, 1 − x) has slope ∝ −0.9 + 0.4·10.5 > 0 at
    # x = 0, so q* = (0, 1) (J convex); one client: S₀S₂ − S₁² = 1·0.81 − 0.9² = 0
    inst = {"n": 2, "pi": arr(0.5, 0.9), "log_s": arr(0.0, 0.0), "log_v": 1.0, "log_Q": 0.0}
    with mp.workdps(30):
        slope = mp.diff(lambda x: (x**2 / 2 + (1 - x) ** 2 / 2 + 10) / (0.5 * x + 0.9 * (1 - x)), 0)
    assert slope > 0
    assert margin("cafed:eq225-227-closed-form", inst) == -1.0
    _, result = verify_matches("cafed:eq225-227-closed-form", inst)
    assert (result["lhs"], result["holds"]) == (0, False)
    # with distinct π and a small B both clients are kept and (227) is well defined
    kept = {**inst, "log_v": -1.0}
    assert margin("cafed:eq225-227-closed-form", kept) > 0
    assert CLAIMS.get("cafed:eq225-227-closed-form").verify(**CLAIMS.get(
        "cafed:eq225-227-closed-form").explain(kept).verify_args)["holds"]  # fmt: skip


def test_the_printed_scaling_step_by_hand():
    # π = (0.5, 0.9), w = (½, ½), c = 2: y′ = 2w/0.7 = (10/7, 10/7), s′ = 20/7; y″ = (5/7, 5/7)
    inst = {"n": 2, "pi": arr(0.5, 0.9), "log_Q": 0.0, "c": 2.0, "w1": arr(0.5, 0.5)}
    explanation, result = verify_matches("cafed:appe2-iota-nonneg-printed", inst)
    assert explanation.verify_args["y1"] == [F(10, 7), F(10, 7)]
    assert explanation.verify_args["s1"] == F(20, 7)
    assert (result["lhs"], result["rhs"]) == (F(10, 7), F(20, 7))


def test_paper_a_monotonicity_fails_when_theta_is_negative():
    # A = diag(π) (equal σ), B = 0.01: both kept, θ* = B − ½q*ᵀAq* < 0 and q₁* > q₂*
    inst = {"n": 2, "pi": arr(0.2, 0.9), "log_c": 0.0, "log_v": -2.0, "log_Q": 0.0, "paper_a": 1}
    q, _ = optimum_two(np.array([0.2, 0.9]), np.array([0.2, 0.9]), 0.01)
    theta = 0.01 - 0.5 * (0.2 * q[0] ** 2 + 0.9 * q[1] ** 2)
    assert theta < 0 and q[0] > q[1]
    _, result = verify_matches("cafed:appe2-monotone-paper-a", inst)
    assert float(result["lhs"]) == pytest.approx(q[1], rel=1e-9)
    assert float(result["rhs"]) == pytest.approx(q[0], rel=1e-9)


def test_eq211_verify_at_round_numbers():
    inst = {"log_K": 1.0, "lam": 0.5, "T_P": 0, "eta1": 1.0, "a": 1.0}
    explanation, result = verify_matches("cafed:eq211-c", inst)
    # D₆₄ = Σ_{t≤64}(J_t − x_t)/max(t − J_t, 1)², x_t = (1 + ln t)/ln 2; the tail is ≤ 4/64
    t = np.arange(1, 65, dtype=float)
    x = (1.0 + np.log(t)) / math.log(2.0)
    j = np.minimum(np.ceil(x), t)
    d64 = float(np.sum((j - x) / np.maximum(t - j, 1.0) ** 2))
    assert float(result["lhs"]) == pytest.approx(d64, rel=1e-12) and d64 > 4 / 64
    assert explanation.verify_args == {"ln_2cph": 1, "lam": F(1, 2), "t_p": 0, "eta1": 1, "a": 1}


def test_literal_findings_explain_their_instances():
    GCX = {**GC}
    for claim_id in ("cafed:guideline-c-eps-bar-prime", "cafed:guideline-c-eps-bias"):
        assert not CLAIMS.get(claim_id).explain(GCX).holds
    mono = {"n": 2, "pi": arr(0.9, 0.5), "log_s": arr(6.0, 0.0), "log_v": -6.0, "log_Q": 0.0}
    assert not CLAIMS.get("cafed:appe2-monotone").explain(mono).holds


# --- new claims --------------------------------------------------------------------------------


def test_witness_on_non_uniform_alpha_in_closed_form():
    inst = {"n": 2, "alpha": arr(0.25, 0.75), "log_Q": 3.0}
    alpha, ones, qp = [F(1, 4), F(3, 4)], [F(1), F(1)], [F(500), F(500)]
    lhs = chi2(alpha, ones, [(a + b) / 2 for a, b in zip(alpha, qp, strict=True)])
    rhs = chi2(alpha, ones, qp) / 2
    expected = (lhs - rhs) / (lhs + rhs)
    assert margin("cafed:appd-prop1-witness-nonuniform", inst) == pytest.approx(float(expected))
    assert exact("cafed:appd-prop1-witness-nonuniform", inst) == expected > 0
    assert not CLAIMS.get("cafed:appd-prop1-witness-nonuniform").space.valid(
        {"n": 2, "alpha": arr(0.5, 0.5), "log_Q": 3.0}
    )


def test_summands_are_quasi_convex_at_a_hand_instance():
    # π = 1, α = (½, ½), client 1: q = (1, 1) → p₁ = ½, f = 0; q′ = (10, 1) → p₁ = 10/11;
    # midpoint (5.5, 1) → p₁ = 11/13 < 10/11: f(mid) < f(q′) = max
    inst = {"n": 2, "k": 0, "pi": arr(1.0, 1.0), "alpha": arr(0.5, 0.5),
            "log_q1": arr(0.0, 0.0), "log_q2": arr(1.0, 0.0), "zeta": 0.5}  # fmt: skip

    def g(p):
        return (p - F(1, 2)) ** 2 / p

    f2, fm = g(F(10, 11)), g(F(11, 13))
    expected = (f2 - fm) / max(f2, F(1, 2))  # the scale is floored at α₁ = ½
    assert exact("cafed:appd-quasiconvex-summands", inst) == expected > 0
    assert margin("cafed:appd-quasiconvex-summands", inst) == pytest.approx(float(expected))


def test_dual_optimum_by_hand():
    # one client: the dual is max ι s.t. ιπQ − ½AQ² ≤ B, i.e. ι* = (½AQ² + B)/(πQ) = J* − C
    d = app_e2_duality._dual_optimum(np.array([0.5]), np.array([2.0]), 3.0, 2.0, 100.0)
    assert d == pytest.approx((0.5 * 2.0 * 4.0 + 3.0) / (0.5 * 2.0), rel=1e-12)
    # A = 0: all weight on the most available client, J* − C = B/(Q max π)
    d = app_e2_duality._dual_optimum(np.array([0.5, 0.8]), np.zeros(2), 3.0, 2.0, 100.0)
    assert d == pytest.approx(3.0 / (2.0 * 0.8), rel=1e-12)
    assert margin("cafed:appe2-strong-duality", TWO) >= -1e-9
    s_pos = {**TWO, "w1": arr(0.5, 0.5), "log_sigma": -3.0}
    assert margin("cafed:appe2-s-positive", s_pos) >= -1e-12


def excluded_by_hand(alpha, pi, lam, gaps, kappa2):
    """Algorithm 1, lines 5–7 (τ = 0), written again here: q = α/π, then get() by |λ|
    decreasing and by π increasing; a drop is kept when ε̂ does not increase."""
    gamma = max(gaps)

    def eps(q):
        d = sum(p * x for p, x in zip(pi, q, strict=True))
        w = [p * x / d for p, x in zip(pi, q, strict=True)]
        tv = sum(abs(a - b) for a, b in zip(alpha, w, strict=True)) / 2
        return sum(g * b for g, b in zip(gaps, w, strict=True)) + 4 * kappa2 * tv * tv * gamma

    q = [a / p for a, p in zip(alpha, pi, strict=True)]
    n = len(q)
    for order in (
        sorted(range(n), key=lambda k: -abs(lam[k])),
        sorted(range(n), key=lambda k: pi[k]),
    ):
        for k in order:
            if q[k] == 0 or sum(x > 0 for x in q) == 1:
                continue
            trial = [0 if j == k else x for j, x in enumerate(q)]
            if eps(q) - eps(trial) >= 0:
                q = trial
    return {k + 1 for k in range(n) if q[k] == 0}


COUNT = {"n": 4, "alpha": arr(0.01, 0.05, 0.69, 0.25), "pi": arr(0.6, 0.8, 0.3, 0.9),
         "lambda2": arr(-0.14, 0.34, -0.86, -0.88), "gamma": 0.028,
         "shape": arr(0.9, 0.9, 0.1, 0.8), "tau": 0.0}  # fmt: skip


def test_exclusion_count_is_not_monotone_in_kappa_but_its_ends_hold():
    alpha, pi, lam = (
        frd([0.01, 0.05, 0.69, 0.25]),
        frd([0.6, 0.8, 0.3, 0.9]),
        [-0.14, 0.34, -0.86, -0.88],
    )
    gaps = [F(28, 1000) * x / F(9, 10) for x in frd([0.9, 0.9, 0.1, 0.8])]
    counts = [len(excluded_by_hand(alpha, pi, lam, gaps, k)) for k in s4c_kappa.KAPPA_GRID]
    assert any(b > a for a, b in itertools.pairwise(counts))  # a rise: not monotone
    assert margin("cafed:kappa-exclusion-monotone", COUNT) < 0
    assert exact("cafed:kappa-exclusion-monotone", COUNT) < 0
    at_zero = len(excluded_by_hand(alpha, pi, lam, gaps, F(0)))
    assert all(c <= at_zero for c in counts)  # the small-κ̄² end of the tendency
    assert margin("cafed:kappa-exclusion-endpoints", {**COUNT, "log_k": 0.1}) >= 0
