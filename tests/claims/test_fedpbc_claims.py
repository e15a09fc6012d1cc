"""FedPBC paper claims (claims/papers/fedpbc/):
hand-checked margins and the falsifier's regressions (every claim's verdict:
test_expected_verdicts.py)."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from fltheory.claims import CLAIMS
from fltheory.claims.claim import select
from fltheory.claims.papers.fedpbc import _common as FC
from fltheory.claims.papers.fedpbc import s3_prop1 as P1
from fltheory.claims.papers.fedpbc import s3_prop1_remarks as P1R
from fltheory.claims.papers.fedpbc import s4_mixing as S4
from fltheory.claims.papers.fedpbc import s5b_lemma5 as L5
from fltheory.claims.papers.fedpbc import s5b_theorem1 as T1
from fltheory.claims.papers.fedpbc import s6_experiments as S6
from fltheory.errors import NumericalError
from fltheory.limits.fedpbc import mixing_rho
from fltheory.rng import generator
from fltheory.testing.limits import lemma2_exact

A = np.array


def claim(cid):
    return CLAIMS.get(f"fedpbc:{cid}")


def margin(cid, **inst):
    return claim(cid).margin(inst)


def exact(cid, **inst):
    value, _ = claim(cid).exact(inst)
    return value


CLAIMS_HERE = select(paper="fedpbc")


def test_every_claim_has_a_verdict_expectation_or_a_reason():
    assert len(CLAIMS_HERE) >= 30
    for c in CLAIMS_HERE:
        assert c.expected in ("holds", "refuted") if c.executable else c.reason, c.id


# --- Proposition 1 --------------------------------------------------------------------------


def test_alg1_equivalence_is_exact_and_trivial_without_links():
    inst = dict(m=2, p=A([0.5, 1.0]), u=A([0.0, 1.0]), eta=0.5, s=2, rounds=6, seed=3)
    assert abs(margin("alg1-equivalence", **inst)) < 1e-15
    assert exact("alg1-equivalence", **inst) == 0
    inst["p"] = A([0.0, 0.0])  # nobody is ever active: x stays at 0 in both
    assert margin("alg1-equivalence", **inst) == 0.0


def test_prop1_printed_hand_counterexample():
    # p = (½, ½), u = (0, 1), γ = ½: ū_A ∈ {0, 1, ½} w.p. ⅓ each given A ≠ ∅, μ = ½,
    # Var = γ/(2 − γ)·(1/6) = 1/18, spread ½: margin −(1/18)/(1/4) = −2/9.
    inst = dict(m=2, p=A([0.5, 0.5]), u=A([0.0, 1.0]), eta=0.5, s=1)
    assert margin("prop1-printed", **inst) == pytest.approx(-2 / 9, rel=1e-12)
    assert exact("prop1-printed", **inst) == Fraction(-2, 9)
    inst["p"] = A([1.0, 1.0])  # always everyone: x_t → mean(u) deterministically
    assert margin("prop1-printed", **inst) == 0.0


def test_prop1_printed_variance_matches_a_simulation():
    p, u, gamma = A([0.3, 0.8]), A([0.0, 1.0]), 0.4
    rng = generator(0, "tests/fedpbc-prop1-var")
    x, xs = np.zeros(4000), []
    for t in range(600):
        active = rng.random((4000, 2)) < p
        count = active.sum(1)
        x = np.where(count > 0, (1 - gamma) * x + gamma * (active @ u) / np.maximum(count, 1), x)
        if t >= 300:
            xs.append(x.var())
    assert np.mean(xs) == pytest.approx(P1._prop1_variance(p, u, gamma), rel=0.05)


def test_prop1_expectation_hand_value():
    # p = (½, 1): A = {2} or {1, 2} w.p. ½: lim = ½u₂ + ¼(u₁ + u₂) = ¾ for u = (0, 1)
    assert FC.prop1_code_limit(A([0.5, 1.0]), A([0.0, 1.0])) == pytest.approx(0.75, abs=1e-15)
    assert P1._prop1_oracle_limit(A([0.5, 1.0]), A([0.0, 1.0])) == pytest.approx(0.75, abs=1e-15)
    assert margin("prop1-expectation", m=2, p=A([0.5, 1.0]), u=A([0.0, 1.0])) > -1e-15
    assert exact("prop1-expectation", m=2, p=A([0.5, 1.0]), u=A([0.0, 1.0])) > 0
    # boundary: one client with a tiny link, and m = 20 through the deflation oracle
    assert margin("prop1-expectation", m=1, p=A([1e-12]), u=A([0.3])) > -1e-15
    p20 = generator(1, "tests/p20").uniform(1e-6, 1.0, 20)
    u20 = generator(2, "tests/u20").uniform(-1, 1, 20)
    assert margin("prop1-expectation", m=20, p=p20, u=u20) > -1e-12
    assert exact("prop1-expectation", m=20, p=p20, u=u20) > 0


def test_prop1_time_average_band():
    inst = dict(m=2, p=A([0.3, 0.9]), u=A([0.0, 1.0]), eta=0.5, s=2, seed=1)
    assert margin("prop1-time-average", **inst) > 0
    inst["p"] = A([1.0, 1.0])
    assert margin("prop1-time-average", **inst) > 0
    with pytest.raises(NumericalError):  # too rare to estimate
        margin("prop1-time-average", **{**inst, "p": A([1e-9, 1e-9])})


def test_prop1_uniform_generic_and_boundary():
    assert abs(margin("prop1-remark-uniform", m=3, p=0.3, u=A([0.0, 1.0, 2.0]))) < 1e-15
    u = generator(3, "tests/u200").uniform(-1, 1, 200)
    assert abs(margin("prop1-remark-uniform", m=200, p=1e-12, u=u)) < 1e-12
    assert exact("prop1-remark-uniform", m=3, p=0.3, u=A([0.0, 1.0, 2.0])) > 0


def test_prop1_nonuniform_counterexample_and_two_clients():
    p = A([0.5, 0.2, 0.2])
    assert margin("prop1-remark-nonuniform", m=3, p=p) < 0
    value, method = claim("prop1-remark-nonuniform").exact({"m": 3, "p": p})
    assert value == -1 and "u ≈" in method
    # the symmetric data set of the notes: w₂ = w₃ exactly, so lim = 0 = x*
    from fltheory.limits.subset_sum import fedavg_weights_exact

    w = fedavg_weights_exact([Fraction(1, 2), Fraction(1, 5), Fraction(1, 5)])
    assert w[1] == w[2] and sum(w) == 1  # so Σw_iu_i = −w₂ + w₃ = 0 = mean(u)
    # independently: the fixed point of E[x] by enumerating the 8 link patterns
    assert abs(P1._prop1_oracle_limit(p, A([0.0, -1.0, 1.0]))) < 1e-15
    # m = 2: |w₁ − w₂| = 8/19 for p = (½, 0.9) (w = p E[1/(1 + K)]/P(A ≠ ∅))
    assert margin("prop1-remark-nonuniform", m=2, p=A([0.5, 0.9])) == pytest.approx(
        8 / 19 - 1e-12, rel=1e-12
    )


def _weights_by_enumeration(p):
    """Proposition 1's weights as p_i E[1/(1 + K_i)]/P(A ≠ ∅), K_i = |A ∖ {i}|, by
    enumerating the link patterns in rationals (independent of the subset-sum formula)."""
    m, out = len(p), []
    none = math.prod(1 - v for v in p)
    for i in range(m):
        others = [j for j in range(m) if j != i]
        total = Fraction(0)
        for bits in itertools.product((0, 1), repeat=m - 1):
            prob = math.prod(p[j] if b else 1 - p[j] for j, b in zip(others, bits, strict=True))
            total += prob / (1 + sum(bits))
        out.append(p[i] * total / (1 - none))
    return out


def test_prop1_nonuniform_literal_witness_in_the_papers_terms():
    # the moderate witness: p = (½, ½, 1); w = (5/24, 5/24, 7/12); u = (−1, 1, 0) is ⊥ 1 and
    # ⊥ w − 1/3, so Σw_iu_i = 0 = x*
    p = [Fraction(1, 2), Fraction(1, 2), Fraction(1)]
    assert _weights_by_enumeration(p) == [Fraction(5, 24), Fraction(5, 24), Fraction(7, 12)]
    e = claim("prop1-remark-nonuniform").explain({"m": 3, "p": A([0.5, 0.5, 1.0])})
    assert not e.holds and e.lhs.value == 0
    u = [q.value for q in e.quantities if q.symbol.startswith("F_")]
    assert sorted(u) == [-1, 0, 1] and sum(u) == 0
    assert claim("prop1-remark-nonuniform").finding.cls == "literal"


def test_prop1_nonuniform_weights_hand_value():
    # w_i − w_j = (p_i − p_j)E[1/(1 + R)]/P(A ≠ ∅): p = (½, ⅕, ⅕), R = the third client:
    # E[1/(1 + R)] = ⅘ + ⅕·½ = 9/10, P(A ≠ ∅) = 1 − ½·⅘·⅘ = 17/25: gap 45/34 for both pairs
    p = [Fraction(1, 2), Fraction(1, 5), Fraction(1, 5)]
    w = _weights_by_enumeration(p)
    assert P1R._weight_gaps(p, w) == [Fraction(45, 34), Fraction(45, 34)]
    assert margin("prop1-remark-nonuniform-weights", m=3, p=A([0.5, 0.2, 0.2])) == pytest.approx(
        45 / 34, rel=1e-12
    )
    assert exact("prop1-remark-nonuniform-weights", m=3, p=A([0.5, 0.2, 0.2])) > 0


def test_prop1_far_witness():
    value = margin("prop1-far", m=2, u=A([0.0, 1.0]), eps=0.5)
    assert 0.0 <= value <= 0.5  # dist ≤ R always, so the margin is at most ε
    assert margin("prop1-far", m=5, u=A([0.0, 0.1, 0.2, 0.3, 1.0]), eps=1e-6) >= 0
    with pytest.raises(NumericalError):
        margin("prop1-far", m=2, u=A([0.0, 1.0]), eps=1e-12)


# --- Section IV -----------------------------------------------------------------------------


def test_mixing_w_hand_matrix():
    assert margin("mixing-w", m=3, mask=0b011) == 0.0
    np.testing.assert_array_equal(FC.w_def(A([True, True, False])),
                                  [[0.5, 0.5, 0], [0.5, 0.5, 0], [0, 0, 1]])  # fmt: skip
    assert margin("mixing-w", m=1, mask=1) == 0.0


def test_eq3_rho_two_clients():
    # E[W] = ¼J + ¾I for p = (½, ½): ρ = ¾
    assert mixing_rho(A([0.5, 0.5])) == pytest.approx(0.75, abs=1e-15)
    assert abs(margin("eq3-rho", m=2, p=A([0.5, 0.5]))) < 1e-15
    assert exact("eq3-rho", m=2, p=A([0.5, 0.5])) > 0
    assert margin("eq3-rho", m=1, p=A([0.4])) == 0.0
    assert abs(margin("eq3-rho", m=3, p=A([0.0, 1.0, 0.5]))) < 1e-14  # ρ = 1 (a dead link)


def test_lemma1_hand_values():
    # ρ = ¾, bound 1 − (1/16)(3/4)²/8: (1 − ρ)/(1 − bound) = (1/4)/(9/2048) = 512/9
    assert margin("lemma1", m=2, p=A([0.5, 0.5])) == pytest.approx(512 / 9 - 1, rel=1e-12)
    assert exact("lemma1", m=2, p=A([0.5, 0.5])) == pytest.approx(512 / 9 - 1, rel=1e-12)
    assert margin("lemma1", m=2, p=A([1.0, 1.0])) == pytest.approx(7.0)  # ρ = 0, gap 1/8
    assert margin("lemma1", m=4, p=A([1e-6, 1.0, 1.0, 1.0])) > 0  # tiny c, resolved


def test_lemma2_tight_two_client_case():
    # p = (½, ½), B = (1, −1), t = 1: LHS = ¾·2 = 3/2 = ρ‖B‖²: equality
    inst = dict(m=2, p_odd=A([0.5, 0.5]), p_even=A([0.5, 0.5]), b1=A([1.0, -1.0]),
                b2=A([0.0, 0.0]), t=1)  # fmt: skip
    assert abs(margin("lemma2", **inst)) < 1e-15
    assert S4._lemma2_lhs([A([0.5, 0.5])], A([[1.0, -1.0]]), 1) == pytest.approx(1.5)
    inst["b1"] = A([1.0, 1.0])  # B(W − J) = 0 on every pattern
    assert margin("lemma2", **inst) == 1.0


def test_lemma2_recursion_agrees_with_the_testing_helper():
    p = A([0.2, 0.7, 0.9])
    B = generator(4, "tests/lemma2").normal(size=(2, 3))
    for t in (1, 3):
        assert S4._lemma2_lhs([p], B, t) == pytest.approx(lemma2_exact(p, B, t), rel=1e-12)


# --- Section V ------------------------------------------------------------------------------


def test_lemma3_tight_at_negative_curvature():
    base = dict(d=1, lam=A([-1.0, 0.0]), rot=0.0, g0=A([1.0, 0.0]), log_x=-1.0, s=3)
    # H = −L: LHS = Σ_{k<3}((1.1)^k − 1) = 0.31 = ((1.1)³ − 1 − 0.3)/0.1
    assert abs(margin("lemma3", **base)) < 1e-14
    assert exact("lemma3", **base) == 0
    base["lam"] = A([1.0, 0.0])  # H = L: LHS = 0.1 + 0.19 = 0.29
    assert margin("lemma3", **base) == pytest.approx((0.31 - 0.29) / 0.31, rel=1e-12)
    base["s"] = 1
    assert margin("lemma3", **base) == 0.0


def test_remark2_hand_values():
    # s = 3: κ = 1 + x/3
    assert margin("remark2-a", s=3, log_x=-1.0, step=1.0) == pytest.approx(
        (0.2 / 3 - 0.1 / 3) / (1 + 0.2 / 3)
    )
    assert exact("remark2-a", s=3, log_x=-1.0, step=1.0) > 0
    assert margin("remark2-c", s=2, log_x=0.5) == 0.0
    assert margin("remark2-c", s=3, log_x=math.log10(0.3)) == pytest.approx(0.1 / 1.1)
    bound = 2 * (math.e - 2)  # c = 1, s = 2, θ = 1: κ = 1
    assert margin("remark2-d", s=2, log_c=0.0, theta=1.0) == pytest.approx((bound - 1) / bound)
    assert float(exact("remark2-d", s=2, log_c=0.0, theta=1.0)) == pytest.approx(
        (bound - 1) / bound
    )
    assert FC.kappa_printed(2, Fraction(3, 7)) == 1


def test_lemma4_hand_value():
    # m = 1, h = 1, b = 0, x = 1, s = 1, η = ½: LHS = F(½) − F(1) = −3/8, RHS = 11/8
    inst = dict(m=1, h=A([1.0]), log_h=0.0, b=A([0.0]), x=A([1.0]), theta=1.0, s=1,
                sigma2=0.0, delta=0.0)  # fmt: skip
    assert margin("lemma4", **inst) == pytest.approx((11 / 8 + 3 / 8) / (11 / 8))
    assert exact("lemma4", **inst) == Fraction(14, 11)
    inst.update(
        m=3,
        h=A([1.0, -0.5, 0.8]),
        b=A([1.0, -2.0, 0.5]),
        x=A([0.3, -1.0, 2.0]),
        s=4,
        sigma2=1.0,
        delta=0.5,
    )  # heterogeneous, one negative curvature
    assert margin("lemma4", **inst) > 0


def test_remark3_identity_and_its_negative_control():
    inst = dict(m=3, p=A([0.5, 0.1, 0.4]), h=A([1.0, 0.5, 2.0]), u=A([0.0, 1.0, -1.0]), x0=0.2,
                eta=0.3, s=2, t=3, seed=7, common=1)  # fmt: skip
    assert abs(margin("remark3-identity", **inst)) < 1e-12
    assert exact("remark3-identity", **inst) == 0
    inst["common"] = 0  # clients start at x_i⁰ = u_i: the identity needs a common start
    assert margin("remark3-identity", **inst) < -0.01


def test_lemma5_generic_and_full_participation():
    inst = dict(m=3, p=A([0.2, 0.6, 0.9]), u=A([0.0, 1.0, -1.0]), x0=1.0, log_h=0.0, sigma2=1.0,
                theta=1.0, s=3, T=20)  # fmt: skip
    assert margin("lemma5", **inst) > 0.5  # very loose
    inst["p"] = A([1.0, 1.0, 1.0])  # ρ = 0: no consensus error, RHS 0
    assert margin("lemma5", **inst) == 0.0


def test_lemma5_moments_against_monte_carlo():
    p, u, a, noise2, T = A([0.3, 0.8]), A([0.0, 1.0]), 0.6, 0.25, 6
    cons, grad = L5._lemma5_moments(p, u, 0.5, a, noise2, T)
    rng = generator(5, "tests/lemma5")
    runs = 40000
    x = np.full((runs, 2), 0.5)
    mc_cons, mc_grad = [], []
    Ws = FC.w_stack(2)
    for _ in range(T):
        mc_cons.append(np.mean(np.sum((x - x.mean(1, keepdims=True)) ** 2, 1)))
        mc_grad.append(np.mean((x.mean(1) - u.mean()) ** 2))
        y = a * x + (1 - a) * (u - np.sqrt(noise2) * rng.normal(size=x.shape))
        idx = ((rng.random((runs, 2)) < p) * A([1, 2])).sum(1)
        x = np.einsum("rij,rj->ri", Ws[idx], y)
    np.testing.assert_allclose(cons, mc_cons, rtol=0.05, atol=1e-3)
    np.testing.assert_allclose(grad, mc_grad, rtol=0.05, atol=1e-3)


THM1_COUNTER = dict(m=1, p=A([1.0]), u=A([-0.9]), x0=-8.0, log_h=2.0, sigma2=0.0, s=2,
                    log_t=5.0, log_c0=-3.0)  # fmt: skip


def test_thm1_explicit_counterexample_small_c0():
    # LHS ≈ h D²/(2c₀√(msT)) vs the first term 4hD²/√(msT): ratio 1/(8c₀) = 125 → margin ≈ −0.992
    assert margin("thm1-explicit", **THM1_COUNTER) == pytest.approx(1 / 125 - 1, abs=2e-3)


def test_thm1_explicit_is_literal_and_the_restored_c0_holds():
    e = claim("thm1-explicit").explain(THM1_COUNTER)
    assert not e.holds and float(e.lhs.value) > float(e.rhs.value)
    assert claim("thm1-explicit").finding.cls == "literal"
    # with the c₀-dependence restored the first term is ÷ c₀ = ×1000: the bound holds
    assert margin("thm1-explicit-c0-restored", **THM1_COUNTER) > 0.5
    assert exact("thm1-explicit-c0-restored", **THM1_COUNTER) > 0
    big = {**THM1_COUNTER, "log_c0": 2.0, "sigma2": 1.0, "log_t": 1.0}
    assert margin("thm1-explicit-c0-restored", **big) > 0


def test_thm1_lhs_closed_form_against_direct_summation():
    q = {"m": 3, "s": 2, "h": 0.7, "eta": 0.01, "T": 500, "D2": 2.0, "sigma2": 0.5}
    a = (1 - q["eta"] * q["h"]) ** q["s"]
    dev2, total = q["D2"], 0.0
    for _ in range(q["T"]):
        total += q["h"] ** 2 * dev2
        dev2 = a * a * dev2 + (1 - a) ** 2 * q["sigma2"] / (q["m"] * q["h"] ** 2)
    assert T1._thm1_lhs(q) == pytest.approx(total / q["T"], rel=1e-10)


def test_thm1_c0_one_and_rate():
    inst = {**THM1_COUNTER, "p": A([1.0]), "log_t": 0.0}
    inst.pop("log_c0")
    assert margin("thm1-explicit-c0-1", **inst) > 0
    assert margin("thm1-rate", **THM1_COUNTER) == pytest.approx(0.01, abs=1e-3)  # slope −½


def test_thm1_stepsize_inventory_instance():
    inst = dict(s=27, L=0.263694, rho=0.0038018, beta=0.038707)
    t1 = FC.thm1_eta_max(27, 0.263694, 0.0038018, 0.038707**2)
    l5 = L5._lemma5_eta_max(27, 0.263694, 0.0038018)
    assert t1 == pytest.approx(0.0096216, rel=1e-4) and l5 == pytest.approx(0.0093298, rel=1e-4)
    assert margin("thm1-stepsize", **inst) == pytest.approx((l5 - t1) / t1, rel=1e-6)
    assert float(exact("thm1-stepsize", **inst)) == pytest.approx((l5 - t1) / t1, rel=1e-6)
    assert margin("thm1-stepsize", s=1, L=1.0, rho=0.01, beta=0.1) >= 0
    assert margin("thm1-stepsize-intended", **inst) >= 0


def _kappa_exact(s, x):
    return ((1 + x) ** s - 1 - s * x) / (math.comb(s, 2) * x * x)


def test_thm1_stepsize_hand_witness_in_exact_rationals():
    # s = 20, L = 1/5, ρ = 49/10⁴ (√ρ = 7/100), β = 0, η = 0.024: every cap of Theorem 1 is
    # ≥ η (radicals compared by squares), Lemma 5's (1 − √ρ)/(6√(2ρ)Ls²) ≈ 0.01957 is not
    s, L, rho, r, eta = (
        20,
        Fraction(1, 5),
        Fraction(49, 10**4),
        Fraction(7, 100),
        Fraction(24, 1000),
    )
    k = _kappa_exact(s, eta * L)
    C = k * k * L * L + 2 * L * (1 + k * k * L * L / 4)
    q = s * s * L * L * rho / (1 - r) ** 2
    assert 1 / (24 * C * (1 + 18 * q) + 144 * q) >= eta
    assert Fraction(1, 2 * s) >= eta and 1 / (rho * s**3) >= eta
    assert 2 >= (eta * k * s * L) ** 2  # √2/(κsL) ≥ η
    assert (1 - r) ** 2 >= (eta * 6 * rho * L * s * s) ** 2 * 2  # (1 − √ρ)/(6√2ρLs²) ≥ η
    assert (1 - r) ** 2 < (eta * 6 * L * s * s) ** 2 * 2 * rho  # Lemma 5's cap < η
    inst = dict(s=20, L=0.2, rho=0.0049, beta=0.0)
    assert margin("thm1-stepsize", **inst) == pytest.approx(-0.1924, abs=1e-3)
    e = claim("thm1-stepsize").explain(inst)
    result = claim("thm1-stepsize").verify(**e.verify_args)
    assert not e.holds and not result["holds"]
    assert float(result["lhs"]) > 0.024 > float(result["rhs"])
    assert float(e.lhs.value) == pytest.approx(float(result["lhs"]), rel=1e-30)
    assert margin("thm1-stepsize-intended", **inst) >= 0


def test_remark4_hand_values():
    def gap(c, m):
        return c**4 * (1 - (1 - c) ** m) ** 2 / 8

    assert margin("remark4-c-bound", m=2, c=0.5, dc=0.5) == pytest.approx(
        (gap(0.75, 2) - gap(0.5, 2)) / gap(0.75, 2)
    )
    # p = (½, ½) → (1, ½): ρ from ¾ to ½
    assert margin("remark4-c-rho", m=2, p=A([0.5, 0.5]), i=0, dp=1.0) == pytest.approx(0.5)
    assert abs(margin("remark4-c1-fedavg", m=5)) < 1e-15


# --- Section VI -----------------------------------------------------------------------------


def test_fig2_xbar_hand_instance():
    inst = dict(m=2, p=A([0.1, 0.9]), u=A([0.0, 1.0]), eta=0.5, s=1)
    assert abs(margin("fig2-unbiased-xbar", **inst)) < 1e-15
    assert exact("fig2-unbiased-xbar", **inst) > 0
    # the tiny-step regression of fedpbc_limit is in tests/limits/test_fedpbc.py


def test_fig2_ps_hand_counterexample():
    # γ = 1: the server averages u over A; p = (1, ½): E x_PS = ½·0 + ½·½ = ¼ ≠ ½
    inst = dict(m=2, p=A([1.0, 0.5]), u=A([0.0, 1.0]), eta=1.0 - 1e-16, s=60)
    assert margin("fig2-unbiased-ps", **inst) == pytest.approx(-0.125, abs=1e-9)
    assert exact("fig2-unbiased-ps", **inst) < 0
    # γ = ½, p = (½, 1): the clients' stationary means solve 5m₁ = m₂ + 1, 5m₂ = m₁ + 3, so
    # (m₁, m₂) = (⅓, ⅔), x̄ → ½ = x*; the aggregated model ½·(y₁ + y₂)/2 + ½·y₂ → ⅔
    e = claim("fig2-unbiased-ps").explain(dict(m=2, p=A([0.5, 1.0]), u=A([0.0, 1.0]), eta=0.5, s=1))
    steps = {s.label: s.value for s in e.steps}
    assert steps["lim E[x_i^t]"] == (Fraction(1, 3), Fraction(2, 3))
    assert steps["lim E[x̄^t]"] == Fraction(1, 2)
    assert e.lhs.value == Fraction(2, 3) and not e.holds


def test_remark1_bias_and_a_monte_carlo_of_the_active_only_dynamics():
    inst = dict(half=2, p0=0.2, p1=0.9, eta=0.3, s=2, seed=1)
    assert margin("remark1-local-compute", **inst) > 0.01
    p, u = S6._two_groups(inst)
    gamma = 1 - (1 - 0.3) ** 2
    lim = S6._remark1_limit(p, u, gamma)
    rng = generator(6, "tests/remark1")
    runs, X, acc = 4000, np.zeros((4000, 4)), []
    Ws = FC.w_stack(4)
    for t in range(400):
        active = rng.random((runs, 4)) < p
        Y = np.where(active, (1 - gamma) * X + gamma * u, X)
        X = np.einsum("rij,rj->ri", Ws[(active * (1 << np.arange(4))).sum(1)], Y)
        if t >= 200:
            acc.append(X.mean(0))
    np.testing.assert_allclose(np.mean(acc, 0), lim, atol=5e-3)


def test_synthetic_c_ends():
    assert margin("synthetic-c", x=-0.02) == pytest.approx(0.0, abs=1e-15)
    assert exact("synthetic-c", x=-0.02) == 0
    assert margin("synthetic-c", x=0.0) == pytest.approx(0.02)


# --- the falsifier's regressions -----------------------------------------------------------


def test_time_average_rare_event_allowance():
    """Regression: two false refutations of the Monte Carlo margin (events too rare to be drawn
    in 256 runs: few activations before round 100; rounds with no link up)."""
    for inst in (
        dict(m=1, p=A([0.12]), u=A([-0.28]), eta=0.99, s=3, seed=0),
        dict(m=1, p=A([0.99999999]), u=A([-0.999998]), eta=0.001, s=5, seed=1),
    ):
        assert margin("prop1-time-average", **inst) >= 0
