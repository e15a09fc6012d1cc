"""Theorem 2 claims (fltheory.claims.papers.cafed._theorem2 and the modules of its forms): the
negative-bound counterexample recomputed by hand (eqs. 13, 176-179 written out here, the series
of eq. 179 by brute force), the missing-division counterexample of the main-text form, holding
instances of the form the proof supports (every claim's verdict: test_expected_verdicts.py)."""

import math

import numpy as np
import pytest

from fltheory.claims import CLAIMS
from fltheory.claims.papers.cafed import _chainrun as cr
from fltheory.claims.papers.cafed import _theorem2 as t2
from fltheory.claims.papers.cafed import s3b_theorem2
from fltheory.claims.papers.cafed._verify import verify_thm2
from fltheory.markov.product import ProductChain

NEG = t2.NEGATIVE_BOUND


def by_hand() -> dict[str, float]:
    """Eq. 13's pieces at NEGATIVE_BOUND: N = 1, π = 0.9, ln(1/λ) = 10⁻³, σ = 0, q = √10,
    E = 16, η_t = 1/t, F = ½Lw² with L at the eq. 12 cap and L·r² = 10⁻³, w₀ = r, W = B(0, r_W),
    r_W = 1.001r. C_P is the library's (Lemma 16, checked by other claims)."""
    E, Q, pi, zeta2 = 16, math.sqrt(10.0), 0.9, math.pi**2 / 6
    L = 1.0 / (2.0 * (1.0 + 2.0 * E * Q))
    r = math.sqrt(1e-3 / L)
    r_W = 1.001 * r
    D = G = L * r_W  # ‖∇F‖ = L‖w‖ ≤ L·r_W on W (u = 0)
    H = 0.5 * L * r_W**2  # F_B* = 0 at w_B* = 0
    lam2 = 2.0 * math.exp(-1e-3) - 1.0
    ell = -math.log1p((lam2 - 1.0) / 2.0)
    C_P = math.exp(ProductChain([pi], [lam2]).log_C_P)
    K = 2.0 * C_P * H
    upsilon = 2.0 / E * (2.0 * r_W) ** 2 + 2 * Q / 4.0 * (zeta2 + zeta2)  # M = 2
    t = np.arange(1, 2 * 10**6 + 1, dtype=float)
    J = np.minimum(np.maximum(np.ceil((np.log(K) + np.log(t)) / ell), 0.0), t)
    S = float(np.sum((np.log(K) + np.log(t)) / np.maximum(t - J, 1.0) ** 2))  # η₀ := η₁
    return {
        "fraction": upsilon / (pi * Q),
        "psi": 2.0 * E**2 * G**2 * zeta2,  # Γ = 0, T_P = 0
        "phi_over_log": 2.0 * E * D * G * Q * S / ell,
        "S": S,
        "K": K,
        "lhs": 0.5 * L * r**2,  # T = 1: w̄₁ = w₀ = r
    }


def test_negative_bound_pieces_match_the_hand_computation():
    hand = by_hand()
    assert hand["K"] == pytest.approx(2.5664e-3, rel=1e-4) and hand["S"] == pytest.approx(
        -8.713, abs=1e-3
    )
    run = t2.chain_run(NEG)
    code = t2.code_pieces(run)
    assert code["fraction"] == pytest.approx(hand["fraction"], rel=1e-9)  # tails: bounds
    assert code["psi_gamma"] + code["psi_rest"] == pytest.approx(hand["psi"], rel=1e-9)
    assert code["phi_over_log"] == pytest.approx(hand["phi_over_log"], rel=1e-4)
    assert code["phi_over_log"] >= hand["phi_over_log"]  # an upper bound
    assert code["denominator"] == 1.0
    assert run.moments().opt_error == pytest.approx(hand["lhs"], rel=1e-12)


@pytest.mark.parametrize(
    "claim_id",
    [
        "cafed:thm2-eq13-printed-appendix",
        "cafed:thm2-eq13-printed-main",
        "cafed:thm2-eq13-eta-bar",
        "cafed:thm2-proof-eq185",
    ],
)
def test_negative_bound_refutes_the_printed_forms(claim_id):
    hand = by_hand()
    rhs = hand["fraction"] + hand["psi"] + hand["phi_over_log"]  # Σ_{t≤1}η_t = 1, πᵀq cancels
    assert rhs == pytest.approx(-2.455, abs=1e-3)
    expected = (rhs - hand["lhs"]) / max(abs(rhs), hand["fraction"] + hand["psi"])
    claim = CLAIMS.get(claim_id)
    assert claim.margin(NEG) < -0.2
    assert float(claim.exact(NEG)[0]) == pytest.approx(expected, rel=1e-3)


def test_the_negative_bound_regime_and_the_2cph_ge_1_regime_are_disjoint():
    # the main-text and η̄ forms are searched where 2C_PH ≥ 1 (so that they test the missing
    # division and the reading q ← η̄q alone); NEG has 2C_PH = 2.6e-3 and is outside
    assert t2.chain_run(NEG).log_K < 0 and t2.chain_run(DIVISION).log_K > 0
    inside = {**DIVISION, "le": 5.0, "leta": -3.9, "ua": np.full(1, 0.9), "lq": np.full(1, 2.9),
              "sg": np.full(1, 0.9), "leb": 0.0, "dl": 1.0}  # fmt: skip
    for claim_id in (
        "cafed:thm2-eq13-printed-main",
        "cafed:thm2-eq13-eta-bar",
        "cafed:thm2-eq13-appendix-2cph-ge-1",
        "cafed:thm2-correlation-monotone-2cph-ge-1",
        "cafed:lemma15-eq147-2cph-ge-1",
    ):
        space = CLAIMS.get(claim_id).space
        assert not space.valid(NEG) and space.valid(inside)
    small = CLAIMS.get("cafed:thm2-eq13-printed-appendix").space
    assert small.valid(MODERATE) and not small.valid(DIVISION)


#: a moderate negative bound (hand-picked): N = 1, π = 0.9, λ₂ ≈ 0.9916, F = ½Lw² with
#: L = 1/(2(1 + 32)) = 1/66 at the eq. 12 cap (η_t = 1/t, E = 16, q = 1), L·r² = 10^−2.5
#: (H ≈ 1.6e-3, 2C_PH ≈ 8.1e-3), ln(1/λ) = 10^0.15·2C_PH/e, T = 1.
MODERATE = {
    **NEG, "le": -2.5, "lc": 0.15, "rel": 1, "lq": np.zeros(1), "E": 16, "wa": 1.0,
    "neg": 0, "lfr": np.ones(1),
}  # fmt: skip


def test_a_moderate_negative_bound():
    run = t2.chain_run(MODERATE)
    assert run.lambda2[0] == pytest.approx(0.99158, abs=1e-5)
    assert run.constants["H"] == pytest.approx(1.5843e-3, rel=1e-4)
    assert math.exp(run.log_K) == pytest.approx(8.1156e-3, rel=1e-4)
    claim = CLAIMS.get("cafed:thm2-eq13-printed-appendix")
    assert claim.margin(MODERATE) < -0.05 and float(claim.exact(MODERATE)[0]) < -0.05
    e = claim.explain(MODERATE)
    assert not e.holds and e.rhs.value < 0 < e.lhs.value


def test_the_explanation_recomputes_the_negative_bound_independently():
    hand = by_hand()
    claim = CLAIMS.get("cafed:thm2-eq13-printed-appendix")
    e = claim.explain(NEG)
    assert not e.holds
    assert float(e.lhs.value) == pytest.approx(hand["lhs"], rel=1e-9)
    rhs = hand["fraction"] + hand["psi"] + hand["phi_over_log"]
    assert float(e.rhs.value) == pytest.approx(rhs, rel=1e-3) and float(e.rhs.value) >= rhs
    out = claim.verify(**e.verify_args)
    assert out["holds"] is False and out["rhs"] == e.rhs.value
    assert e.verify_args["eta1"] <= 1 / (
        2 * e.verify_args["h"][0] * (1 + 2 * 16 * e.verify_args["q"][0])
    )


def test_verify_thm2_moments_agree_with_the_library_run():
    # two noisy clients, d = 1, T = 5: the standalone moment recursion against ChainRun's
    run = t2.chain_run(cr.BASE_INSTANCE)
    args = t2.t2_args(run, "appendix")
    out = verify_thm2(**args)
    assert float(out["lhs"]) == pytest.approx(run.moments().opt_error, rel=1e-9)
    parts, c = out["parts"], run.constants
    for key, mine in (("D", "D"), ("G", "G"), ("H", "H"), ("Γ", "Gamma")):
        assert float(parts[key]) == pytest.approx(c[mine], rel=1e-9)
    eq185 = verify_thm2(**{**args, "form": "eq185"})
    pieces = t2.code_pieces(run)
    assert float(eq185["lhs"]) == pytest.approx(float(t2._lhs("eq185", run)), rel=1e-9)
    assert float(eq185["rhs"]) == pytest.approx(
        pieces["pi_q"] * float(out["rhs"]) * pieces["denominator"], rel=1e-9
    )


def test_lemma15_is_negative_where_phi_is():
    # T = 1, J₁ = 0: the left side of (147) is 0, C₁/ln(1/λ) = (πᵀq)·φ/(2 ln(1/λ)) < 0
    hand = by_hand()
    claim = CLAIMS.get("cafed:lemma15-eq147")
    e = claim.explain(NEG)
    assert e.lhs.value == 0 and not e.holds
    expected = 0.9 * math.sqrt(10.0) * hand["phi_over_log"] / 2
    assert float(e.rhs.value) == pytest.approx(expected, rel=1e-3)
    assert claim.margin(NEG) == -1.0
    assert CLAIMS.get("cafed:lemma15-eq147-2cph-ge-1").margin(cr.BASE_INSTANCE) > 0


def test_the_proved_form_and_000s_form_hold_there():
    hand = by_hand()
    # T = 1: J₁ = 0 (ln K < 0), so φ_proved = 0; ψ₈ = ψ here (Γ = 0)
    rhs = hand["fraction"] + hand["psi"]
    expected = (rhs - hand["lhs"]) / rhs
    for claim_id in ("cafed:thm2-eq13-proved",):
        claim = CLAIMS.get(claim_id)
        assert claim.margin(NEG) == pytest.approx(expected, rel=1e-9)
        assert float(claim.exact(NEG)[0]) == pytest.approx(expected, rel=1e-9)
    assert CLAIMS.get("cafed:thm2-eq13-phi-main-000").margin(NEG) > 0.99  # φ₀₀₀ ≥ 0
    assert CLAIMS.get("cafed:thm2-eq13-000-divided").margin(NEG) > 0.99


#: the main-text forms drop the division by Σ_{t≤T}η_t: η₁ = 10⁻⁴, T = 1, L·r² = 10⁶
DIVISION = {
    **cr.BASE_INSTANCE, "n": 1, "d": 1, "leta": -4.0, "le": 6.0, "lk": np.zeros(1),
    "ua": np.ones(1), "ub": np.zeros(1), "wa": -0.5, "alpha": np.ones(1), "pi": np.array([0.5]),
    "rel": 1, "lc": 1.0, "neg": 1, "lfr": np.array([-0.3]), "lq": np.array([3.0]),
    "sg": np.ones(1), "E": 1, "feta": 0.4, "a": 0.6, "T": 1,
}  # fmt: skip


def test_missing_division_refutes_the_main_text_form():
    # u = r, w₀ = −r/2, h = L: E[F_B(w̄₁) − F_B*] = ½L(1.5r)² = 1.125·10⁶
    run = t2.chain_run(DIVISION)
    assert run.moments().opt_error == pytest.approx(1.125e6, rel=1e-12)
    code = t2.code_pieces(run)
    numerator = code["fraction"] + code["psi_gamma"] + code["psi_rest"] + code["phi_over_log"]
    assert 0 < numerator < 1.125e6 < numerator / 1e-4
    main = CLAIMS.get("cafed:thm2-eq13-printed-main")
    expected = (numerator - 1.125e6) / 1.125e6
    assert main.margin(DIVISION) == pytest.approx(expected, rel=1e-9)
    assert float(main.exact(DIVISION)[0]) < 0
    assert CLAIMS.get("cafed:thm2-eq13-printed-appendix").margin(DIVISION) > 0.99
    assert CLAIMS.get("cafed:thm2-eq13-appendix-2cph-ge-1").margin(DIVISION) > 0.99
    assert CLAIMS.get("cafed:thm2-eq13-000-divided").margin(DIVISION) > 0.99
    assert CLAIMS.get("cafed:thm2-eq13-phi-main-000").margin(DIVISION) < 0
    e = main.explain(DIVISION)  # the explanation's standalone evaluation agrees
    assert not e.holds and float(e.lhs.value) == pytest.approx(1.125e6, rel=1e-12)
    assert float(e.rhs.value) == pytest.approx(numerator, rel=1e-3)  # both upper bounds


def test_proved_form_holds_at_generic_and_boundary_instances():
    claim = CLAIMS.get("cafed:thm2-eq13-proved")
    edge = {**cr.BASE_INSTANCE, "pi": np.array([1e-6, 1 - 1e-6]), "lell": -3.0, "T": 64, "E": 100}
    for inst in (cr.BASE_INSTANCE, edge, NEG):
        assert claim.margin(inst) > 0.0 and float(claim.exact(inst)[0]) > 0.0


def test_independent_series_bound_brackets_the_library():
    # the closed-form branch (2C_PH < 2⁻¹⁶): tiny energy scale, ln(1/λ) = 10^0.3·2C_PH/e
    inst = {**NEG, "le": -9.0, "rel": 1, "lc": 0.3}
    run = t2.chain_run(inst)
    assert run.closed_form
    partial, tail = cr.delayed_series(run, "phi")
    code = t2.code_pieces(run)["phi_over_log"]
    c = run.constants
    mine = 2 * run.E * c["D"] * c["G"] * run.Q * (partial + tail) / run.ell
    assert code == pytest.approx(mine, rel=1e-6) and code < 0


#: found by the default search (shrunk): N = 1, π = ½, F = ½Lw² at the eq. 12 cap (η₁ = 1,
#: E = 1, q = 1: L = 1/6), L·r² = 10⁻³, ln(1/λ) = 100·2C_PH/e, then divided by 10.
MONOTONE = {
    **cr.BASE_INSTANCE, "n": 1, "d": 1, "leta": 0.0, "le": -3.0, "lk": np.zeros(1),
    "ua": np.zeros(1), "ub": np.zeros(1), "wa": 1.0, "alpha": np.ones(1), "pi": np.array([0.5]),
    "rel": 1, "lc": 2.0, "lfr": np.ones(1), "lq": np.zeros(1), "sg": np.zeros(1), "E": 1,
    "feta": 1.0, "a": 1.0, "T": 1, "dl": 1.0,
}  # fmt: skip


def brute_series(run: cr.ChainRun, n: int = 2 * 10**6) -> float:
    """Σ_{t≤n} ln(Kt)·η²_{t−J_t} (η_t = η₁/t, T_P = 0, η₀ := η₁), written out here."""
    t = np.arange(1, n + 1, dtype=float)
    ln = run.log_K + np.log(t)
    J = np.minimum(np.maximum(np.ceil(ln / run.ell), 0.0), t)
    return float(np.sum(ln * (run.eta1 / np.maximum(t - J, 1.0)) ** 2))


def test_correlation_lowers_the_bound_when_2CPH_is_small():
    first, second = s3b_theorem2._correlated_runs(MONOTONE)
    assert math.exp(first.log_K) < 1.0 and second.ell == pytest.approx(first.ell / 10, rel=1e-6)
    a, b = t2.code_pieces(first), t2.code_pieces(second)
    for key in ("fraction", "psi_gamma", "psi_rest", "denominator"):  # λ-free pieces
        assert a[key] == b[key]
    c = first.constants
    scale = 2 * first.E * c["D"] * c["G"] * first.Q
    low = a["fraction"] + a["psi_rest"] + scale * brute_series(first) / first.ell
    high = a["fraction"] + a["psi_rest"] + scale * brute_series(second) / second.ell
    assert high < low  # more correlation, smaller bound
    claim = CLAIMS.get("cafed:thm2-correlation-monotone")
    assert claim.margin(MONOTONE) == pytest.approx((high - low) / max(low, high), rel=1e-3)
    assert float(claim.exact(MONOTONE)[0]) == pytest.approx((high - low) / max(low, high), rel=1e-3)
    e = claim.explain(MONOTONE)  # the standalone evaluation sees the same decrease
    assert not e.holds and float(e.lhs.value) == pytest.approx(high, rel=1e-3)
    assert claim.finding.cls == "literal"
    assert CLAIMS.get(claim.finding.intended).space.valid(MONOTONE) is False  # 2C_PH < 1


def test_lemma11_at_the_negative_bound_instance():
    # T = 1: LHS = η₁·π·q·(F(w₀) − F(w_B*)) = 0.9·√10·5e-4; C_0 = 2diam²/E + 2E²G²(πq)ζ(2)
    # (σ = 0, Γ = 0: the 4L / 8L term vanishes, so both forms agree)
    E, Q, zeta2 = 16, math.sqrt(10.0), math.pi**2 / 6
    L = 1.0 / (2.0 * (1.0 + 2.0 * E * Q))
    r_W = 1.001 * math.sqrt(1e-3 / L)
    lhs = 0.9 * Q * 0.5e-3
    c0 = 2.0 * (2.0 * r_W) ** 2 / E + 2.0 * E**2 * (L * r_W) ** 2 * 0.9 * Q * zeta2
    for suffix in ("printed", "proved"):
        claim = CLAIMS.get(f"cafed:lemma11-eq116-{suffix}")
        assert claim.margin(NEG) == pytest.approx((c0 - lhs) / c0, rel=1e-9)
        assert float(claim.exact(NEG)[0]) == pytest.approx((c0 - lhs) / c0, rel=1e-9)


def test_lemma11_factor_8_is_the_weaker_form():
    inst = {**cr.BASE_INSTANCE, "T": 20}  # Γ > 0 (two clients, different minimisers)
    run = t2.chain_run(inst)
    assert run.constants["Gamma"] > 0
    four, lhs, _ = t2.lemma11_sides(run, 4)
    eight, lhs8, _ = t2.lemma11_sides(run, 8)
    assert lhs == lhs8 and eight > four > lhs
