"""The CA-Fed bound claims (fltheory.claims.papers.cafed: s2_model, s3a_gamma, s3b_theorem1,
s3c_bounds — eq. 4, eq. 9, Theorems 1 and 3, §III-C): margins at hand-checked instances (every
claim's verdict: test_expected_verdicts.py).

Hand instance (the eq. 10 counterexample): F₁ = ½w², F₂ = ½(w − 2)², α = (½, ½), π = (1, 1),
q = (9/10, 1/10), so p = q, w* = 1, w_B* = 1/5, κ = 1, and the point w = 1/10. By hand:
ε = F(w) − F* = ½(w − 1)² = 81/200, ε_opt = ½(w − w_B*)² = 1/200, ε_bias = ½(1/5 − 1)² = 8/25,
χ²(α‖p) = 0.16/0.9 + 0.16/0.1 = 16/9, Γ = max_k F_k(w*) = ½, Γ′ = max_k F_k(w_B*) = 81/50,
d_TV(α, p) = 2/5.
"""

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from fltheory.claims import CLAIMS
from fltheory.claims.papers.cafed import s2_model, s3b_theorem1

#: The modules the bound claims were split into (issue 25), from the former cafed_bounds.py.
MODULES = ("s2_model", "s3a_gamma", "s3b_theorem1", "s3c_bounds")
IDS = sorted(
    c.id
    for c in CLAIMS
    if c.margin is not None and CLAIMS.origin(c.id).rsplit(".", 1)[1] in MODULES
)
HAND = s3b_theorem1.EQ10_COUNTEREXAMPLE


def margin(claim_id: str, inst: dict) -> float:
    return CLAIMS.get(claim_id).margin(inst)


def exact(claim_id: str, inst: dict) -> float:
    return float(CLAIMS.get(claim_id).exact(inst)[0])


def scaled(c: float) -> dict:
    """The hand instance with every F_k multiplied by c² (u → c·u, so ε, ε_opt, Γ scale by c²)."""
    return {**HAND, "u1": c * HAND["u1"]}


def test_the_module_registers_its_claims():
    assert len(IDS) == 12 and "cafed:thm1-eq10-b" in IDS


# --- Theorem 1, §III-C, Theorem 3: (rhs − lhs)/max(|rhs|, |lhs|) by hand ------------------------
@pytest.mark.parametrize(
    ("claim_id", "rhs", "lhs"),
    [
        (
            "cafed:thm1-eq10-a",
            Fraction(2) * (Fraction(1, 200) + Fraction(8, 25)),
            Fraction(81, 200),
        ),
        ("cafed:thm1-eq10-b", Fraction(2, 200) + Fraction(8, 25), Fraction(81, 200)),
        ("cafed:sec3c-total", 2 * (Fraction(1, 200) + Fraction(16, 9) / 2), Fraction(81, 200)),
        ("cafed:sec3c-total-main", 2 * (Fraction(1, 200) + Fraction(16, 9)), Fraction(81, 200)),
        ("cafed:thm1-eq11", Fraction(16, 9) / 2, Fraction(8, 25)),
        ("cafed:thm3-eq15", 4 * Fraction(4, 25) * Fraction(81, 50), Fraction(8, 25)),
    ],
)
def test_theorem_margins_at_the_hand_instance(claim_id, rhs, lhs):
    expected = float((rhs - lhs) / max(rhs, lhs))
    assert margin(claim_id, HAND) == pytest.approx(expected, rel=1e-12)
    assert exact(claim_id, HAND) == pytest.approx(expected, rel=1e-12)


def test_eq10_b_counterexample_is_negative_exactly():
    assert margin("cafed:thm1-eq10-b", HAND) == pytest.approx(-5 / 27, rel=1e-12)
    assert exact("cafed:thm1-eq10-b", HAND) < 0


def test_sec3c_main_fails_once_the_functions_are_scaled():
    # ×100: ε = 40.5, ε_opt = 0.5 but χ² = 16/9 does not scale: 2κ²(0.5 + 16/9) = 41/9 < 40.5
    inst = scaled(10.0)
    expected = (41 / 9 - 40.5) / 40.5
    assert margin("cafed:sec3c-total-main", inst) == pytest.approx(expected, rel=1e-12)
    assert exact("cafed:sec3c-total-main", inst) == pytest.approx(expected, rel=1e-12)
    # the 002 reading (ε̄_bias = χ²Γ) scales with the functions and still holds
    assert margin("cafed:sec3c-total", inst) == pytest.approx(margin("cafed:sec3c-total", HAND))


def test_theorems_at_the_boundary_equal_minimisers_and_tiny_weights():
    same = {**HAND, "u1": np.array([2.0, 2.0])}  # Γ = 0, ε_bias = 0: 0 ≤ 0 exactly
    for claim_id in ("cafed:thm1-eq11", "cafed:thm3-eq15"):
        assert margin(claim_id, same) == 0.0 and exact(claim_id, same) == 0.0
    tiny = {**HAND, "q": np.array([1e-12, 1.0]), "lw": -8.0}  # p ≈ e₂, w at w_B*
    for claim_id in ("cafed:thm1-eq10-a", "cafed:sec3c-total", "cafed:thm1-eq11"):
        assert margin(claim_id, tiny) > 0.0 and exact(claim_id, tiny) > 0.0


def test_explanations_in_the_paper_quantities():
    # eq. 10 as printed (typo): ε = 81/200 against 2κ²ε_opt + ε_bias = 1/100 + 32/100 (w is the
    # float w_B* − 1/10, within 1e-16 of 1/10)
    c = CLAIMS.get("cafed:thm1-eq10-b")
    e = c.explain(HAND)
    assert not e.holds and c.verify(**e.verify_args)["holds"] is False
    assert float(e.lhs.value) == pytest.approx(81 / 200, rel=1e-12)
    assert float(e.rhs.value) == pytest.approx(33 / 100, rel=1e-12)
    assert c.finding.cls == "typo" and CLAIMS.get(c.finding.intended).expected == "holds"
    # 000's ε̄_bias := χ² (version): ×100 the losses, w = 1 exactly: 40.5 against 41/9
    c = CLAIMS.get("cafed:sec3c-total-main")
    e = c.explain(scaled(10.0))
    assert e.lhs.value == Fraction(81, 2) and e.rhs.value == Fraction(41, 9) and not e.holds
    assert c.finding.cls == "version"


def test_the_constant_step_limit_is_read_as_not_claimed():
    c = CLAIMS.get("cafed:eq4-limit-constant-step")
    assert c.finding.cls == "literal" and c.finding.intended == "cafed:eq4-limit-diminishing"


# --- eq. 9, the unbiased strategy, eq. 11's divergence --------------------------------------------
def test_gamma_matches_the_hand_value_and_detects_a_wrong_one(monkeypatch):
    assert margin("cafed:eq9-gamma", HAND) > 0.99  # library Γ = ½ within 1e-9
    assert exact("cafed:eq9-gamma", HAND) > 0.99
    from fltheory.problems.quadratic import QuadraticProblem

    monkeypatch.setattr(QuadraticProblem, "Gamma", property(lambda self: 0.5 * (1 + 1e-6)))
    assert margin("cafed:eq9-gamma", HAND) < -100  # off by 1e-6 relative: 1000× the slack


def test_unbiased_weights_give_p_equal_alpha():
    inst = {**HAND, "pi": np.array([0.25, 1.0]), "alpha": np.array([0.3, 0.7])}
    assert margin("cafed:unbiased-zero-bias", inst) > 0.99
    assert exact("cafed:unbiased-zero-bias", inst) > 0.99


def test_divergence_margin_follows_the_library(monkeypatch):
    inst = {**HAND, "starve": 0}  # q = (0, 1/10): p₁ = 0 < α₁, χ² = ∞
    assert margin("cafed:eq11-divergence", inst) == 1.0
    assert exact("cafed:eq11-divergence", inst) == 1.0
    import fltheory.bounds.theorem1 as theorem1

    real = theorem1.bias_bound_chi2
    monkeypatch.setattr(theorem1, "bias_bound_chi2", lambda prob: replace(real(prob), value=1.0))
    assert margin("cafed:eq11-divergence", inst) == -1.0


# --- eq. 4 -----------------------------------------------------------------------------------
def chain_instance(raw: list[float], q: float = 1.0) -> dict:
    return {"N": 1, "P": np.array(raw + [1.0] * (s2_model.EQ4_RAW - 4)), "q": np.array([q])}


def test_eq4_pi_of_a_two_state_chain(monkeypatch):
    # P = [[½, ½], [¼, ¾]]: ρ = (1/3, 2/3), π₁ = 2/3, p = (1)
    inst = chain_instance([1.0, 1.0, 1.0, 3.0])
    assert margin("cafed:eq4-biased-importance", inst) > 0.99
    assert exact("cafed:eq4-biased-importance", inst) > 0.99
    nearly_split = chain_instance([1.0, 1e-12, 1e-12, 1.0])  # condition ~1e12: ρ = (½, ½)
    assert margin("cafed:eq4-biased-importance", nearly_split) > 0.99
    import fltheory.divergence as divergence

    real = divergence.biased_importance
    monkeypatch.setattr(divergence, "biased_importance", lambda q, pi: real(q, pi) * (1 + 1e-7))
    assert margin("cafed:eq4-biased-importance", inst) < -50


#: found by the default search (shrunk): two correlated clients, constant step.
CONSTANT_STEP = {
    "N": 2, "pi": np.array([0.32, 0.063]), "lam": np.array([0.99, 0.28]),
    "u": np.array([0.0, 6.2]), "q": np.array([0.9, 0.62]), "lr": 0.9, "E": 5,
}  # fmt: skip


def stationary_mean_by_iteration(inst: dict, lr: float) -> float:
    """lim E[w_t] of scheme (2)-(3) (d = 1, isotropic, η̄ = 1) by iterating the recursion of
    (E[w_t 1{A_t = a}])_a from w₀ = 0 (no linear solve)."""
    pi, lam = inst["pi"], inst["lam"]
    P = np.ones((1, 1))
    for p_k, l_k in zip(pi, lam, strict=True):
        P = np.kron(P, [[1 - (1 - l_k) * p_k, (1 - l_k) * p_k],
                        [(1 - l_k) * (1 - p_k), 1 - (1 - l_k) * (1 - p_k)]])  # fmt: skip
    rho = np.ones(1)
    for p_k in pi:
        rho = np.kron(rho, [1 - p_k, p_k])
    n = len(pi)
    member = np.array([[(a >> (n - 1 - k)) & 1 for k in range(n)] for a in range(2**n)])
    b = 1 - (1 - lr) ** inst["E"]
    C = 1 - b * member @ inst["q"]
    g = b * member @ (inst["q"] * inst["u"])
    m = np.zeros(2**n)
    for _ in range(10**6):
        new = P.T @ (C * m + rho * g)
        if np.max(np.abs(new - m)) <= 1e-15 * np.max(np.abs(new)):
            return float(new.sum())
        m = new
    raise AssertionError("no convergence")


def test_constant_step_limit_is_not_w_B():
    inst = CONSTANT_STEP
    limit = stationary_mean_by_iteration(inst, inst["lr"])
    p = inst["pi"] * inst["q"] / np.dot(inst["pi"], inst["q"])
    w_B = float(p @ inst["u"])
    expected = 1e-9 - abs(limit - w_B) / 6.2
    assert expected < -0.5
    assert margin("cafed:eq4-limit-constant-step", inst) == pytest.approx(expected, rel=1e-9)
    assert exact("cafed:eq4-limit-constant-step", inst) == pytest.approx(expected, rel=1e-9)
    iid = {**inst, "lam": np.zeros(2)}  # independent sets: the fixed point is w_B* exactly
    assert margin("cafed:eq4-limit-constant-step", iid) > 0.0
    assert exact("cafed:eq4-limit-constant-step", iid) > 0.0


def test_diminishing_step_limit_tends_to_w_B():
    inst = {**CONSTANT_STEP, "u": np.array([9.99, 10.0])}  # tiny spread, large offset
    assert margin("cafed:eq4-limit-diminishing", inst) > 0.0
    assert exact("cafed:eq4-limit-diminishing", inst) > 0.0
    assert margin("cafed:eq4-limit-diminishing", inst) == pytest.approx(
        exact("cafed:eq4-limit-diminishing", inst), abs=1e-6
    )
