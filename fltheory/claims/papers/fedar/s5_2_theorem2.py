"""§5.2 — Theorem 2 (non-convex, l.437–466) of the FedAR paper (seed ``003_7bfc4ba284d104ce.txt``,
``l.N`` its lines): as printed with O(·), read at its limit (the average squared gradient of f tends
to ‖∇f(w_ω)‖², the limits in :mod:`._limits`), and Remark 2's 'more clients need more rounds'
(l.451–460).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("fedar:thm2-limit").expected
'refuted'
"""

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.exact import mp_to_fraction
from fltheory.claims.finding import Finding, Reading
from fltheory.claims.papers.fedar._limits import (
    LIMIT_HYPOTHESES,
    LIMIT_SPACE,
    data_spread,
    limit_explain,
    limit_mp,
    limit_points,
    omegas,
)
from fltheory.claims.space import Instance


def _thm2_margin(inst: Instance) -> float:
    u, h = np.asarray(inst["u"]), np.asarray(inst["h"])
    w_fedar, _ = limit_points(u, h, omegas(inst))
    grad = float(np.mean(h * (w_fedar - u)))
    return -(grad**2) / (float(np.mean(h)) * data_spread(u)) ** 2


def _thm2_exact(inst: Instance) -> ExactMargin:
    import mpmath

    q = limit_mp(inst)
    with mpmath.workdps(40):
        value = mpmath.mpf("1e-40") - (q["w_omega"] - q["w_star"]) ** 2 / q["spread"] ** 2
        return mp_to_fraction(value), "mpmath 40 digits on the decimal instance"


def _verify_fedar_thm2(p, avail, v, u, h):
    """The average squared gradient at FedAR's limit, ‖∇f(w_ω)‖² (ω_i = E[ψ(τ_i)] under the
    stationary staleness law P(τ_i = k) ∝ (1 − a_i)^k, k = 0…v), against 0: 50 digits."""
    import mpmath

    with mpmath.workdps(50):
        P = mpmath.mpf(p.numerator) / p.denominator
        psi = [min(mpmath.mpf(k + 1) ** P, mpmath.mpf(2)) for k in range(v + 1)]  # eq. (6)
        omega = []
        for a in avail:
            z = 1 - mpmath.mpf(a.numerator) / a.denominator
            law = [z**k for k in range(v + 1)]  # unnormalised P(τ = k); 0**0 = 1
            weighted = mpmath.fsum(q * s for q, s in zip(law, psi, strict=True))
            omega.append(weighted / mpmath.fsum(law))
        U = [mpmath.mpf(x.numerator) / x.denominator for x in u]
        H = [mpmath.mpf(x.numerator) / x.denominator for x in h]
        w_omega = mpmath.fsum(o * c * x for o, c, x in zip(omega, H, U, strict=True)) / mpmath.fsum(
            o * c for o, c in zip(omega, H, strict=True)
        )
        grad = mpmath.fsum(c * (w_omega - x) for c, x in zip(H, U, strict=True)) / len(U)  # ∇f(w_ω)
        mean_h = mpmath.fsum(H) / len(H)
        holds = (grad / mean_h) ** 2 / (max(U) - min(U)) ** 2 <= mpmath.mpf("1e-40")
    return {"lhs": grad**2, "rhs": 0, "holds": bool(holds)}


register_claim(
    "fedar:thm2-o",
    "§5.2",
    "Theorem 2 (non-convex, as printed)",
    (437, 466),
    "Under Assumptions 1–7 (bounded staleness τ(i,t) ≤ v_i), η = √(…/T): "
    "(1/T)Σ_tE‖∇f(w_t)‖² ≤ R₁(f(w₀) − f*)/√T + O(…) → 0.",
    reason="the constants are lost in the OCR and hidden in O(·); the executable core is "
    "fedar:thm2-limit.",
)

register_claim(
    "fedar:thm2-limit",
    "§5.2",
    "Theorem 2, limit reading",
    (437, 466),
    "Under Assumptions 1–7 (bounded staleness τ(i, t) ≤ v_i), with η ∝ 1/√T, the average "
    "squared gradient (1/T)Σ_tE‖∇f(w_t)‖² → 0 as T → ∞, for every exponent p.",
    space=LIMIT_SPACE,
    margin=_thm2_margin,
    exact=_thm2_exact,
    tolerance=1e-14,
    expected="refuted",
    explain=lambda i: limit_explain(i, 2),
    verify=_verify_fedar_thm2,
    reading=Reading(
        quote="Theorem 2: Suppose Assumptions 1 to 7 hold, set learning rate η = √(…/T), T > "
        "max{320LNK, …} and τ ≤ g(t). After T rounds, FedAR satisfies: (1/T)Σ_tE‖∇f(w_t)‖² ≤ "
        "R₁(f(w₀) − f*)/√T + O(…). Remark 2: the convergence of FedAR for a non-convex smooth "
        "loss function is dominated by the first term, which converges at the rate of "
        "O(1/√T) … the impact produced by ψ is not significant.",
        hypotheses=LIMIT_HYPOTHESES,
        interpretation="Remark 2 states the reading: the bound → 0 at rate O(1/√T), so the "
        "average squared gradient of f (eq. 1) tends to 0. Tested at T → ∞ (η ∝ 1/√T → 0): "
        "the iterates settle at w_ω = argmin Σω_if_i and the average squared gradient tends "
        "to ‖∇f(w_ω)‖² > 0 whenever the ω_i differ. Quadratics satisfy Assumptions 1–6 "
        "(Hessian-Lipschitz with Λ = 0); the availability family satisfies Assumption 7.",
        alternatives="Stationarity of the weighted objective Σω_if_i holds, but the theorem "
        "bounds ∇f with f of eq. (1).",
    ),
    finding=Finding(
        "error",
        "under Assumption 7 FedAR's iterates settle at argmin Σ_iω_if_i, so (1/T)Σ_t‖∇f(w_t)‖² "
        "→ ‖∇f(w_ω)‖² > 0 whenever the long-run weights ω_i = E[ψ(τ_i)] differ",
        severity="result",
    ),
    notes="Same family and limit as fedar:thm1-limit. Margin −‖∇f(w_ω)‖²/(mean h·spread u)²; "
    "exact 40 digits. Example: u = (0, 1), h = (1, 1), v = 1, a = (0, 1) (client 1 available "
    "every other round), p = 1: ω = (1.5, 1), w_ω = 0.4, plateau ‖∇f(0.4)‖² = 0.01 (direct "
    "iteration with η = 1/√T: 0.0136, 0.0112, 0.0104 at T = 10³, 10⁴, 10⁵).",
)


register_claim(
    "fedar:remark2-more-clients",
    "§5.2, Remark 2",
    "more clients need more rounds",
    (451, 460),
    "As more clients continue to join the FL, more rounds are required to achieve convergence.",
    reading=Reading(
        quote="Compared to v̄, τ̄ and N have a greater influence on the convergence via "
        "impacting the dominant term. We can draw similar conclusions as Theorem 1: as more "
        "clients continue to join the FL, more rounds are required to achieve convergence.",
        interpretation="Read off Theorem 2's bound: its legible parts grow with N (T > "
        "max{320LNK, …}; R₁ has terms linear in N).",
        alternatives="On the update rule with statistically identical clients added (same "
        "data, noise and availability), the noise of (1/N_t)Σψ_iG_i falls as 1/N (the "
        "stationary error ησ²E[R²]/(2N·h̄·E[R]) of fedar:remark1-tau-bar), so more clients "
        "need fewer rounds; with new clients bringing new data the comparison changes the "
        "objective. Neither is what the remark derives.",
    ),
    reason="the comparison the remark makes is of Theorem 2's bound, whose N-dependent terms "
    "are largely lost in the OCR (legible: T > 320LNK, linear in N — monotone trivially); an "
    "algorithm-level reading is not determined (N at fixed per-client data, or clients joining "
    "during training, N_t of Algorithm 1) and its natural form, identical clients added, "
    "needs fewer rounds, not more (see the reading's alternatives).",
)
