"""CA-Fed (ToN) App. B2 Lemmas 17–18: the burn-in rounds t < T_P (Lemma 17, eqs. (159)–(162)),
the per-round lower bound of steps (166)–(171) and Lemma 18's eq. (163), (Σπq)Σ_{t=T_P}^T η_t
E[F_B(w_{t−J_t}) − F_B*] ≤ C₁/ln(1/λ) + C₃.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.explain import Explanation, Quantity, Step, dec, decs, show, signed
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed import _chain_oracles as orc
from fltheory.claims.papers.cafed._chains import (
    UNDERFLOW,
    jt_code,
    lambda2_low,
    mp,
    two_state_exact,
)
from fltheory.claims.papers.cafed._clients import proxy_gap
from fltheory.claims.papers.cafed._verify import verify_step171
from fltheory.claims.space import Instance, Integer, Parameter, Real, Simplex, Space
from fltheory.errors import AssumptionViolation, NumericalError


def _qp_setup(inst: Instance) -> tuple[Any, np.ndarray, float, float]:
    """(QuadraticProblem (2-D, diagonal Hessians), ball center, diameter, H of Lemma 1)."""
    from fltheory.problems.quadratic import QuadraticProblem

    n = int(inst["N"])
    u = np.stack(
        [np.asarray(inst["u1"], dtype=float)[:n], np.asarray(inst["u2"], dtype=float)[:n]], axis=1
    )
    h = np.stack(
        [np.asarray(inst["h1"], dtype=float)[:n], np.asarray(inst["h2"], dtype=float)[:n]], axis=1
    )
    prob = QuadraticProblem.from_diagonal(
        u,
        h,
        np.asarray(inst["c"], dtype=float)[:n],
        np.asarray(inst["alpha"], dtype=float),
        np.asarray(inst["pi"], dtype=float),
        np.asarray(inst["q"], dtype=float),
    )
    diameter = float(inst["diam"])
    # W: a ball around w_B* (offset < radius), so that Assumption 2 can hold; w* is checked
    off = 0.5 * diameter * float(inst["off"])
    center = prob.w_B_star + off * np.array(
        [math.cos(float(inst["offphi"])), math.sin(float(inst["offphi"]))]
    )
    if prob.outside_ball(center, diameter):
        raise AssumptionViolation("Assumption 2: w* or w_B* is not in the interior of W")
    _, _, H = prob.lemma1(center, diameter, 0.0)
    return prob, center, diameter, H


def _ball_point(inst: Instance, center: np.ndarray, diameter: float) -> np.ndarray:
    r = 0.5 * diameter * float(inst["rad"])
    phi = float(inst["phi"])
    return center + r * np.array([math.cos(phi), math.sin(phi)])


def _lemma17(inst: Instance, exact: bool = False) -> Any:
    _, center, diameter, H = _qp_setup(inst)
    if H < UNDERFLOW:  # W of diameter ≲ 1e-140: the float H has lost its relative precision
        raise NumericalError("H of Lemma 1 is in the floating-point underflow range")
    w = _ball_point(inst, center, diameter)
    q_inst = dict(inst, w1=float(w[0]), w2=float(w[1]))
    _, gap = proxy_gap(q_inst)  # F_B(w) − F_B* in exact rationals
    value = (Fraction(H) - gap) / Fraction(H)
    return value if exact else float(value)


def _qp_space(extra: list[Parameter]) -> Space:
    return Space(
        [
            Integer("N", 1, 4),
            *(Real(f"u{i}", -10.0, 10.0, size="N", special=(0.0,)) for i in (1, 2)),
            *(Real(f"h{i}", 0.01, 100.0, size="N", special=(1.0,)) for i in (1, 2)),
            Real("c", -5.0, 5.0, size="N", special=(0.0,)),
            Real("pi", 0.0, 1.0, size="N", closed=(False, True), special=(1.0,)),
            Real("q", 0.0, 1.0, size="N", closed=(True, True), special=(0.0, 1.0)),
            Simplex("alpha", "N"),
            Real("diam", 0.0, 40.0, closed=(False, True), special=(1.0,)),
            Real("off", 0.0, 1.0, closed=(True, False), special=(0.0,)),
            Real("offphi", 0.0, 2 * math.pi, closed=(True, False), special=(0.0,)),
            Real("rad", 0.0, 1.0, closed=(True, True), special=(1.0, 0.0)),
            Real("phi", 0.0, 2 * math.pi, closed=(True, False), special=(0.0,)),
            *extra,
        ]
    )


register_claim(
    "cafed:lemma17-eq159",
    "App. B2 Lemma 17, eqs. (159)–(162)",
    "burn-in rounds t < T_P",
    (1075, 1092),
    "(Σπq)Σ_{t<T_P} η_t E[F_B(w_{t−J_t,0}) − F_B*] ≤ H(Σ_{t<T_P} η_t)(Σπq) = C₂; it holds term "
    "by term because F_B(w) − F_B* ≤ H for every w ∈ W (Lemma 1, eq. 8), which is what is "
    "checked, at every point of W",
    space=_qp_space([]),
    margin=_lemma17,
    exact=lambda i: (_lemma17(i, True), "exact rationals (F_B in closed form)"),
    tolerance=1e-12,
    budget=500,
    expected="holds",
    notes="The expectation over w_{t−J_t,0} ∈ W and the sum with weights η_t > 0 preserve a "
    "pointwise bound, so the lemma is equivalent to sup_W (F_B − F_B*) ≤ H. Quadratic clients "
    "in 2-D on a ball W of diameter ≤ 40 containing w_B* and w* in its interior (Assumption "
    "2; the center is w_B* plus an offset below the radius, w* checked), H from the library "
    "(QuadraticProblem.lemma1); F_B(w) − F_B* = Σᵢ ½(Σ_k p_k h_ki)(wᵢ − w_B,ᵢ*)² exactly. "
    "Margin (H − (F_B(w) − F_B*))/H at the point w = center + rad·(diam/2)·(cos φ, sin φ). "
    "Declined: H < 1e-280 (diameters ≲ 1e-140, where the library's float H underflows: "
    "the margin was −1e-5 at diam = 1e-160 and 0/0 at 1e-200).",
)


def _step171(inst: Instance, exact: bool = False) -> Any:
    """(LHS − RHS)/(MQ/(2t)) of (166)–(171) for one round t ≥ T_P, state A_{t−J_t} = i and
    point w_{t−J_t,0} = w: Σ_a [P^{J_t}]_{i,a} Σ_{k∈a} q_k g_k ≥ Σ_k π_k q_k g_k − MQ/(2t),
    g_k = F_k(w) − F_k(w_B*)."""
    import mpmath

    from fltheory.markov import ProductChain

    prob, center, diameter, H = _qp_setup(inst)
    pi = np.asarray(inst["pi"], dtype=float)
    l2 = np.asarray(inst["l2"], dtype=float)
    chain = ProductChain(pi, l2)
    c = chain.constants()
    assert c.log_C_P is not None
    t = c.T_P + int(inst["s"])
    t = max(t, 1)
    J = jt_code(t, math.log(2.0) + c.log_C_P + math.log(H), c.lam, c.T_P)
    w = _ball_point(inst, center, diameter)
    g = prob.local_values(w) - prob.local_values(prob.w_B_star)
    q = prob.q
    M = 1 << pi.size
    S = chain.state_clients().astype(bool)  # M × N, np.kron order
    f = S.astype(float) @ (q * g)  # f(a) = Σ_{k∈a} q_k g_k
    i = int(inst["state"]) % M
    slack = M * float(q.sum()) / (2.0 * t)
    if not exact:
        row = np.linalg.matrix_power(chain.dense_matrix(), J)[i]
        return float(((row - chain.stationary) @ f + slack) / slack)
    with mpmath.workdps(60):
        Pq: orc.Matrix = [[Fraction(1)]]
        for x, y in zip(pi, l2, strict=True):
            Pq = orc.kron(Pq, two_state_exact(Fraction(float(x)), Fraction(float(y))))
        rho = orc.exact_stationary(Pq)
        B = mpmath.matrix([[mp(v) for v in row] for row in Pq])
        R = B**J if J else mpmath.eye(M)
        total = sum((R[i, a] - mp(rho[a])) * mpmath.mpf(float(f[a])) for a in range(M))
        return Fraction(float((total + mpmath.mpf(slack)) / mpmath.mpf(slack)))


def _step171_explain(inst: Instance) -> Explanation:
    """The round of steps (166)–(171) in the paper's quantities: the clients, the chain, the
    point w = w_{t−J_t,0}, t, A_{t−J_t}, C_P, H, λ(P), J_t, both sides of (171), exactly."""
    from fltheory.markov import ProductChain

    _, center, diameter, H = _qp_setup(inst)
    n = int(inst["N"])
    pi, lam2, q = list(decs(inst["pi"])), list(decs(inst["l2"])), list(decs(inst["q"]))
    h = [[dec(inst["h1"][k]), dec(inst["h2"][k])] for k in range(n)]
    u = [[dec(inst["u1"][k]), dec(inst["u2"][k])] for k in range(n)]
    c = list(decs(np.asarray(inst["c"])[:n]))
    w = list(decs(_ball_point(inst, center, diameter)))
    chain = ProductChain(np.asarray(inst["pi"], dtype=float), np.asarray(inst["l2"], dtype=float))
    consts = chain.constants()
    assert consts.log_C_P is not None
    C_P = dec(math.exp(consts.log_C_P))
    t = max(consts.T_P + int(inst["s"]), 1)
    state = int(inst["state"]) % (1 << n)
    args = {
        "pi": pi,
        "lam2": lam2,
        "h": h,
        "u": u,
        "q": q,
        "w": w,
        "t": t,
        "state": state,
        "C_P": C_P,
        "H": dec(H),
    }
    out = verify_step171(**args)
    losses = tuple(
        Quantity(
            f"F_{k + 1}",
            f"loss of client {k + 1}",
            u[k],
            f"F_{k + 1}(w) = ½·{show(h[k][0])}·(w₁ {signed(-u[k][0])})² + "
            f"½·{show(h[k][1])}·(w₂ {signed(-u[k][1])})² {signed(c[k])}",
        )
        for k in range(n)
    )
    active = tuple(k + 1 for k in range(n) if (state >> (n - 1 - k)) & 1)
    slem = max(abs(x) for x in lam2)
    return Explanation(
        quantities=(
            *losses,
            Quantity("π", "stationary availability of each client", tuple(pi)),
            Quantity("λ₂", "second eigenvalue of each client's chain (eq. 236)", tuple(lam2)),
            Quantity("q", "aggregation weights", tuple(q)),
            Quantity(
                "W",
                "ball (centre, diameter) containing w* and w_B*",
                (tuple(decs(center)), dec(diameter)),
            ),
            Quantity("w", "the point w_{t−J_t,0} ∈ W", tuple(w)),
            Quantity("t", "round (t ≥ T_P = 0)", t),
            Quantity("A_{t−J_t}", "clients active at round t − J_t", active or "none"),
        ),
        steps=(
            Step("λ(P)", "(1 + max_k|λ₂,k|)/2", (1 + slem) / 2),
            Step("C_P", "eq. (156): √(M − 1)·Σ_μ‖Π_μ‖_* (the least over eigenbases)", C_P),
            Step("H", "Lemma 1 (8): max_k max{½λ_max(H_k)ρ_k², F_k(w_B*) − F_k*}", dec(H)),
            Step("J_t", "eq. (132): min{max{⌈ln(2C_PHt)/ln(1/λ(P))⌉, T_P}, t}", out["J_t"]),
        ),
        lhs=Step(
            "E[Σ_{k∈A_t}q_k(F_k(w) − F_k(w_B*)) | A_{t−J_t}]",
            "Σ_a [P^{J_t}]_{A_{t−J_t},a} Σ_{k∈a} q_k(F_k(w) − F_k(w_B*)) (166)",
            out["lhs"],
        ),
        relation="≥",
        rhs=Step("(Σπ_kq_k)(F_B(w) − F_B*) − MQ/(2t)", "eq. (171)", out["rhs"]),
        holds=bool(out["holds"]),
        verify_args=args,
        note="J_t is capped at t here (ln(2C_PHt)/ln(1/λ) > t), where (158)'s "
        "|[P^{J_t}]_{ij} − ρ_j| ≤ 1/(2Ht) does not follow."
        if out["J_t"] == t
        else "",
    )


register_claim(
    "cafed:lemma18-eq163-step171",
    "App. B2 Lemma 18, steps (166)–(171)",
    "per-round lower bound for t ≥ T_P",
    (1100, 1124),
    "for every round t ≥ T_P, state A_{t−J_t} and w ∈ W: E[Σ_{k∈A_t} q_k(F_k(w) − F_k(w_B*)) | "
    "A_{t−J_t}] ≥ (Σπq)(F_B(w) − F_B*) − MQ/(2t) (eq. 171, the bound Lemma 18 sums)",
    space=_qp_space(
        [
            Real("l2", lambda2_low, 1.0, size="N", closed=(True, False), special=(0.0, 0.9)),
            Integer("state", 0, 15),
            Integer("s", 0, 200),
        ]
    ),
    margin=_step171,
    exact=lambda i: (_step171(i, True), "[P^{J_t}] at 60 digits (mpmath), exact ρ"),
    tolerance=1e-9,
    budget=600,
    expected="refuted",
    notes="Product chains of N ≤ 4 two-state clients (T_P = 0), quadratic clients on a ball "
    "W; H (Lemma 1) from the library, C_P, λ from ProductChain, J_t from series.delays. "
    "Margin (LHS − RHS)/(MQ/(2t)). The step uses eq. 158 (|[P^{J_t}] − ρ| ≤ 1/(2Ht)), "
    "which fails when J_t is capped by t (cafed:lemma16-eq158-printed): e.g. one client, "
    "π = ½, λ₂ = 0.9, t = 1, A₀ inactive and g = F(w) − F* > (MQ/2t)/0.45 = 2.2 — the "
    "conditional probability of being active is 1/20, not ½ ± 1/(2Ht). Whether the summed "
    "inequality (163) still holds is cafed:lemma18-eq163.",
    reading=Reading(
        quote="Assume t ≥ T_P. … E_{A_t|A_{t−J_t},H_{t−J_t}}[Σ_{k∈A_t} q_k(F_k(w_{t−J_t,0}) − "
        "F_k(w_B*))] = Σ_a [P^{J_t}]_{A_{t−J_t},a} Σ_{k∈a} q_k(…) (166) ≥ Σ_a (ρ_a − 1/(2Ht))"
        " Σ_{k∈a} q_k(…) (168) … ≥ (Σ_k π_kq_k)(F_B(w_{t−J_t,0}) − F_B*) − MQ/(2t) (171) "
        "(l.1104–1124; 'in (168), we applied Lemma 16, Equation (158)')",
        hypotheses=(
            Hypothesis(
                "Assumption 1 (irreducible aperiodic chain), t ≥ T_P",
                "independent two-state clients (T_P = 0), N ≤ 4, every round t",
            ),
            Hypothesis(
                "Assumptions 2–3 and Lemma 1's H (eq. 8)",
                "quadratic clients on a "
                "ball W containing w* and w_B* in its interior; H of Lemma 1 on W",
            ),
            Hypothesis("w_{t−J_t,0} ∈ W, any state A_{t−J_t}", "any point of W, any state"),
        ),
        interpretation="The per-round inequality (171) for every round t ≥ T_P, state and "
        "point of W: the step the proof sums to get (163). This is the paper's own step "
        "(derived 'with a similar proof technique to [15, (6.35)]', whose typo it corrects), "
        "not a cited one. It uses (158), |[P^{J_t}]_{ij} − ρ_j| ≤ 1/(2Ht), which fails when "
        "J_t is capped at t (cafed:lemma16-eq158-printed).",
        alternatives="The summed conclusion (163): cafed:lemma18-eq163 (holds on the "
        "instances decided without simulation).",
    ),
    finding=Finding(
        "error",
        "(171) fails in rounds where J_t = t is capped (ln(2C_PHt)/ln(1/λ) > t): there "
        "(158) gives no 1/(2Ht) bound, and the conditional law of A_t is far from ρ",
        severity="step",
        survives="yes, as far as checked: Lemma 18's conclusion (163) held on every "
        "instance decided without simulation (cafed:lemma18-eq163), through the slack of "
        "C₃; the proof needs another argument for the capped rounds",
    ),
    explain=_step171_explain,
    verify=verify_step171,
)


def _lemma18(inst: Instance) -> float:
    """Lemma 18's conclusion (163) where it is decided without simulating: LHS ≥ 0 always, so
    RHS < 0 refutes it; LHS ≤ (Σπq)·sup_W(F_B − F_B*)·Σ_{t=T_P}^T η_t, so RHS above that
    proves it for every trajectory. In between the instance is declined (NumericalError)."""
    from fltheory.bounds.series import finite_sum
    from fltheory.bounds.theorem2 import theorem2_parts
    from fltheory.markov import ProductChain
    from fltheory.problems.steps import StepSizes

    prob, center, diameter, _ = _qp_setup(inst)
    pi = np.asarray(inst["pi"], dtype=float)
    l2 = np.asarray(inst["l2"], dtype=float)
    chain = ProductChain(pi, l2).constants()
    sigma = float(inst["sigma"])
    consts = prob.constants(center, diameter, sigma)
    q = prob.q
    Q = float(q.sum())
    E = int(inst["E"])
    eta1 = float(inst["eta_frac"]) / (2.0 * consts.L * (1.0 + 2.0 * E * Q))  # η₁ at its cap
    steps = StepSizes.power_law(eta1, float(inst["a"]))
    T = chain.T_P + int(inst["s"])
    parts = theorem2_parts(consts, chain, E, Q, steps, max(T, 1), n_partial=1 << 12)
    pq = float(pi @ q)
    C3 = (
        0.5 * float(np.sum(parts.sigma_diag * q * q))
        + math.exp(parts.log_v)
        + (parts.psi_gamma + parts.psi_grad) * pq
    )
    C1_over = pq * parts.phi_sign * math.exp(parts.log_phi_over_log) / 2.0  # C_1/ln(1/λ)
    rhs = C1_over + C3
    if rhs < 0:
        return rhs / (C3 + abs(C1_over))
    # sup over the ball of F_B − F_B* = Σᵢ ½(Σ_k p_k h_ki)(wᵢ − w_B,ᵢ*)²
    #   ≤ ½ max_i m_i (|c − w_B*| + r)²
    p = prob.p
    m = max(float(p @ prob.H[:, i, i]) for i in range(prob.dim))
    reach = float(np.linalg.norm(center - prob.w_B_star)) + 0.5 * diameter
    sum_eta = finite_sum(steps, T)[1] - finite_sum(steps, chain.T_P - 1)[0]
    bound = pq * 0.5 * m * reach**2 * sum_eta
    if rhs >= bound:
        return (rhs - bound) / rhs
    raise NumericalError("(163) is not decided without simulating the algorithm here")


register_claim(
    "cafed:lemma18-eq163",
    "App. B2 Lemma 18, eq. (163)",
    "(Σπq)Σ_{t=T_P}^T η_t E[F_B(w_{t−J_t}) − F_B*] ≤ C₁/ln(1/λ) + C₃",
    (1094, 1148),
    "for convex F_k, η decreasing with η₁ ≤ 1/(2L(1 + 2EQ)), Ση² < ∞ and Σ ln t·η² < ∞: "
    "(Σπq)Σ_{t=T_P}^T η_t E[F_B(w_{t−J_t,0}) − F_B*] ≤ C₁/ln(1/λ) + C₃",
    space=_qp_space(
        [
            Real("l2", lambda2_low, 1.0, size="N", closed=(True, False), special=(0.0, 0.9)),
            Real("sigma", 0.0, 5.0, closed=(True, True), special=(0.0,)),
            Integer("E", 1, 5),
            Real("eta_frac", 0.0, 1.0, closed=(False, True), special=(1.0,)),
            Real("a", 0.5, 1.0, closed=(False, True), special=(1.0,)),
            Integer("s", 0, 10**5),
        ]
    ),
    margin=_lemma18,
    tolerance=1e-9,
    budget=400,
    expected="holds",
    reading=Reading(
        quote="Lemma 18. … (Σ_kπ_kq_k)Σ_{t=T_P}^T η_tE[F_B(w_{t−J_t,0}) − F_B*] ≤ "
        "C₁/ln(1/λ(P)) + C₃ (163), C₁ (164), C₃ (165) — 002 App. B2, l.1094–1100",
        hypotheses=(
            Hypothesis(
                "Assumptions 1–3, 5, convex F_k, η_t decreasing with eq. (12)",
                "product chains of N ≤ 4 two-state clients, quadratic clients on a "
                "ball W ∋ w*, w_B*, η₁ at feta × the cap, T ≤ T_P + 10⁵",
            ),
        ),
        interpretation="As printed. Decided without simulating: a negative right side "
        "refutes it for every trajectory, one above (Σπq)·sup_W(F_B − F_B*)·Ση_t proves it "
        "for every trajectory; instances in between are declined (narrower than the paper "
        "in effect, but none was met in the searched space).",
    ),
    notes="Decided without simulation: the left side is ≥ 0 and at most (Σπq)·sup_W(F_B − "
    "F_B*)·Σ_{t=T_P}^T η_t (the model stays in W), so RHS < 0 would refute it for every "
    "trajectory and RHS ≥ that bound proves it for every trajectory; instances in between "
    "are declined (counted as skipped; none were met in the searched space). RHS from the "
    "library's Theorem-2 parts: C₃ = ½qᵀΣq + v + (ψ_Γ + ψ_G)πᵀq, C₁/ln(1/λ) = πᵀq·φ/(2 "
    "ln(1/λ)) (eqs. 164–165, 175–179). Product chains of N ≤ 4 two-state clients, quadratic "
    "clients on a ball W ∋ w*, w_B*, T ≤ 10⁵. The step (168)–(171) behind it fails for capped "
    "rounds (cafed:lemma18-eq163-step171); the conclusion survives through the MQ/4·Σ(η² + "
    "1/t²) and 2diam²/E terms of C₃. No exact margin (certified float series).",
)
