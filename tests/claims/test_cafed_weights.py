"""The CA-Fed weight/optimisation claims (fltheory/claims/papers/cafed_weights.py): margins at
hand-checkable instances against independent computations (Fractions, 1-D mpmath minimisation,
closed sums), small-budget verdicts, and one slow run of every claim at its default budget."""

import math
import time
from fractions import Fraction as F

import mpmath as mp
import numpy as np
import pytest

from fltheory.claims import CLAIMS, falsify
from fltheory.claims.papers import cafed_weights as W

CLAIM_IDS = [c.id for c in CLAIMS if c.margin is not None and c.margin.__module__ == W.__name__]
#: Claims whose evaluations cost ≥ 5 ms: a smaller budget keeps the fast tests < 30 s.
COSTLY = {"cafed:fig1-adafed-priority": 100, "cafed:kappa-infinity-gamma-positive": 150}


def chi2(alpha, pi, q):
    """χ²(α‖p), p = π⊙q/πᵀq, in Fractions (eqs. 4, 11)."""
    d = sum(a * b for a, b in zip(pi, q, strict=True))
    return sum(a * a * d / (b * c) for a, b, c in zip(alpha, pi, q, strict=True)) - 1


def fr(xs):
    return [F(x) for x in xs]


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
    inst = W.PROP2_COUNTEREXAMPLE
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
    assert len(CLAIM_IDS) == 29
    assert {"cafed:fig1-experiments", "cafed:apph1-cost"}.isdisjoint(CLAIM_IDS)


@pytest.mark.parametrize("claim_id", CLAIM_IDS)
def test_small_budget_verdict(claim_id):
    claim = CLAIMS.get(claim_id)
    verdict = falsify(claim, budget=COSTLY.get(claim_id, 300), seed=0)
    assert verdict.verdict == claim.expected, verdict
    if verdict.verdict == "refuted":
        assert verdict.exact_margin is None or verdict.exact_margin < 0


def test_non_executable_claims_say_why():
    for claim_id in ("cafed:fig1-experiments", "cafed:apph1-cost"):
        verdict = falsify(CLAIMS.get(claim_id))
        assert verdict.verdict == "not_executable" and verdict.message


@pytest.mark.slow
def test_every_claim_at_its_default_budget(capsys):
    rows, start = [], time.perf_counter()
    for claim_id in CLAIM_IDS:
        claim = CLAIMS.get(claim_id)
        v = falsify(claim, seed=0)
        rows.append((claim_id, v.verdict, v.worst_margin, v.evaluations, v.seconds))
        assert v.verdict == claim.expected, v
    with capsys.disabled():
        print(f"\n{'claim':42s} {'verdict':8s} {'worst margin':>13s} {'evals':>6s} {'s':>6s}")
        for cid, verdict, worst, evals, secs in rows:
            print(f"{cid:42s} {verdict:8s} {worst:13.3g} {evals:6d} {secs:6.2f}")
        print(f"total {time.perf_counter() - start:.1f} s")
