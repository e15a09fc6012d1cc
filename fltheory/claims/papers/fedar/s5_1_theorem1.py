"""§5.1 — Theorem 1 (strongly convex, l.385–417) of the FedAR paper (seed
``003_7bfc4ba284d104ce.txt``, ``l.N`` its lines): as printed with O(·), read at its limit (FedAR
converges to argmin Σω_if_i, not argmin f; the limits are in :mod:`._limits`), and Remark 1's τ̄
(l.408–413) read on the stationary noise error.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("fedar:thm1-limit").expected
'refuted'
"""

from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.exact import mp_to_fraction
from fltheory.claims.explain import dec
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.fedar._limits import (
    LIMIT_HYPOTHESES,
    LIMIT_SPACE,
    data_spread,
    limit_explain,
    limit_mp,
    limit_points,
    omegas,
)
from fltheory.claims.space import Instance, Integer, Real, Space


def _thm1_margin(inst: Instance) -> float:
    u, h = np.asarray(inst["u"]), np.asarray(inst["h"])
    w_fedar, w_star = limit_points(u, h, omegas(inst))
    return -abs(w_fedar - w_star) / data_spread(u)


def _thm1_exact(inst: Instance) -> ExactMargin:
    import mpmath

    q = limit_mp(inst)
    with mpmath.workdps(40):
        value = mpmath.mpf("1e-25") - abs(q["w_omega"] - q["w_star"]) / q["spread"]
        return mp_to_fraction(value), "mpmath 40 digits on the decimal instance"


def _verify_fedar_thm1(p, avail, v, u, h):
    """FedAR's limit w_ω = argmin Σω_if_i (ω_i = E[ψ(τ_i)], the stationary staleness law
    P(τ_i = k) ∝ (1 − a_i)^k, k = 0…v) against w* = argmin f: f(w_ω) − f(w*), 50 digits."""
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
        w_star = mpmath.fsum(c * x for c, x in zip(H, U, strict=True)) / mpmath.fsum(H)

        def f(w):  # eq. (1): f(w) = (1/N)Σ_i (h_i/2)(w − u_i)²
            return mpmath.fsum(c / 2 * (w - x) ** 2 for c, x in zip(H, U, strict=True)) / len(U)

        gap = f(w_omega) - f(w_star)
        holds = abs(w_omega - w_star) / (max(U) - min(U)) <= mpmath.mpf("1e-25")
    return {"lhs": gap, "rhs": 0, "holds": bool(holds)}


register_claim(
    "fedar:thm1-o",
    "§5.1",
    "Theorem 1 (convex, as printed)",
    (385, 417),
    "For μ-strongly convex L-smooth f_i with bounded variance, τ_max ≤ g(t), η_t ∝ 1/(t + a): "
    "E[f(w̄_T)] − f(w*) = O(σ²(1 + τ̄)/(μT)) + O((F + μa³‖w₀ − w*‖² + …)/(KμT²)).",
    reason="the constants are partly lost in the OCR and hidden in O(·); the executable core "
    "(the iterate's limit) is fedar:thm1-limit.",
)

register_claim(
    "fedar:thm1-limit",
    "§5.1",
    "Theorem 1 and Remark 1, limit reading",
    (385, 417),
    "Under Theorem 1's hypotheses (bounded staleness, diminishing steps), FedAR converges to "
    "w* = argmin f: E[f(w_T)] − f(w*) → 0, for every exponent p of ψ.",
    space=LIMIT_SPACE,
    margin=_thm1_margin,
    exact=_thm1_exact,
    tolerance=1e-12,
    expected="refuted",
    explain=lambda i: limit_explain(i, 1),
    verify=_verify_fedar_thm1,
    reading=Reading(
        quote="Theorem 1: Suppose the objective loss function f_i(w) satisfies Assumptions 1 to "
        "3, τ_max ≤ g(t). By setting the learning rate η_t = …/(t + a) and constant a = …, after "
        "T rounds, FedAR satisfies: E[f(w̄_T)] − f(w*) = O(σ²(1 + τ̄)/(μT)) + O((F + … + "
        "τ̄…Nψ_max…)/(KμT²)). Remark 1: both the first and the second terms tend to zero as T "
        "increases, indicating that FedAR converges at the rate of O(1/T) … weight function ψ "
        "has a relatively negligible effect on the convergence rate.",
        hypotheses=LIMIT_HYPOTHESES,
        interpretation="Remark 1 states the reading: both terms → 0, so E[f(w̄_T)] → f(w*), "
        "with f the global loss of eq. (1) and w* its minimiser. Tested at the limit T → ∞ "
        "(steps → 0), where no constant lost in the OCR matters: the iterates follow the "
        "averaged ODE and settle at w_ω = argmin Σω_if_i, so lim E[f(w_T)] − f(w*) = "
        "f(w_ω) − f(w*), which is > 0 whenever the long-run weights ω_i differ and u is not "
        "degenerate. The cut-off hypothesis τ_max ≤ g(t) holds (staleness ≤ v ≤ g). "
        "Cross-checked: the simulator's FedAR with η_t ∝ 1/t (tests), and for p = 1 the exact "
        "stationary mean of the constant-step recursion equals w_ω for every step size.",
        alternatives="The weighted objective Σω_if_i as 'f' would make the theorem hold, but "
        "the paper defines f by eq. (1) and claims FedAR removes the bias of partial "
        "participation (abstract). The weighted average w̄_T of the iterates has the same "
        "limit.",
    ),
    finding=Finding(
        "error",
        "with heterogeneous availability FedAR converges to argmin Σ_iω_if_i, ω_i = E[min((τ_i "
        "+ 1)^p, 2)], not to argmin f: E[f(w_T)] − f(w*) stays positive under Theorem 1's own "
        "hypotheses (bounded staleness, diminishing steps)",
        severity="result",
    ),
    notes="Quadratics f_i = (h_i/2)(w − u_i)², f = (1/N)Σf_i, bounded-staleness Bernoulli "
    "availability (see the module docstring), no noise. With steps → 0 the stored update of "
    "client i is h_i(u_i − w)·(step) at a w that no longer moves, weighted by ψ(τ_i), so the "
    "iterates follow ẇ = Σ_iω_ih_i(u_i − w) (N_t = N once every client was seen; the cut-off "
    "excludes nobody) and converge to w_ω = Σω_ih_iu_i/Σω_ih_i. Margin −|w_ω − w*|/(max u − "
    "min u); exact: 40 digits on the decimal instance. Refuted whenever p > 0 and the a_i "
    "differ, e.g. u = (0, 1), h = (1, 1), v = 1, a = (0, 1), p = 1: ω = (1.5, 1), w_ω = 0.4, "
    "w* = 0.5, f(w_ω) − f(w*) = 0.005; at the paper's p = 0.1, a = (0, 1), v = 3: ω₁ = 1.08415, "
    "w_ω = 0.47981. Without the staleness bound (v = ∞, a = (0.1, 1), p = 1) ω = (1.9, 1) and "
    "the simulator gives 0.344 against w_ω = 0.34483.",
)


def _holding_moments(a: Any, v: int, p: Any, one: Any, power: Any) -> tuple[Any, Any, Any]:
    """(E[L], E[R], E[R²]) over one holding period of a client's update: it is received
    (τ = 0, ψ(0) = 1), then reused while the client is absent, J ∈ {0…v} rounds, P(J = j) =
    (1 − a)^j a for j < v and (1 − a)^v for j = v; L = J + 1 rounds, R = Σ_{k≤J}ψ(k)."""
    z = one - a
    psi = [min(power(k + 1, p), 2 * one) for k in range(v + 1)]
    EL = ER = ER2 = 0 * one
    partial = 0 * one
    for j in range(v + 1):
        partial += psi[j]
        prob = z**j * (a if j < v else one)
        EL += prob * (j + 1)
        ER += prob * partial
        ER2 += prob * partial * partial
    return EL, ER, ER2


def _noise_ratio(a: float, v: int, p: float) -> float:
    _, ER, ER2 = _holding_moments(a, v, p, 1.0, lambda b, e: float(b) ** e)
    return ER2 / ER


def _tau_pair(inst: Instance) -> tuple[float, float]:
    a1 = float(inst["a1"])
    return a1, a1 + float(inst["da"]) * (1.0 - a1)


def _tau_bar_margin(inst: Instance) -> float:
    a1, a2 = _tau_pair(inst)
    q1, q2 = (_noise_ratio(a, int(inst["v"]), inst["p"]) for a in (a1, a2))
    return (q1 - q2) / q1


def _tau_bar_exact(inst: Instance) -> ExactMargin:
    import mpmath

    a1, da, p, v = dec(inst["a1"]), dec(inst["da"]), dec(inst["p"]), int(inst["v"])
    a2 = a1 + da * (1 - a1)
    with mpmath.workdps(40):
        pm = mpmath.mpf(p.numerator) / p.denominator
        q = []
        for a in (a1, a2):
            am = mpmath.mpf(a.numerator) / a.denominator
            _, ER, ER2 = _holding_moments(am, v, pm, mpmath.mpf(1), mpmath.power)
            q.append(ER2 / ER)
        return mp_to_fraction((q[0] - q[1]) / q[0]), "mpmath 40 digits on the decimal instance"


register_claim(
    "fedar:remark1-tau-bar",
    "§5.1, Remark 1",
    "a larger τ̄ worsens convergence (noise term)",
    (408, 413),
    "At fixed data, gradient noise σ², step η, exponent p and staleness bound v, lowering the "
    "clients' common availability a (raising τ̄) does not decrease FedAR's noise error: the "
    "stationary E(w − w*)² ≈ ησ²E[R²]/(2N·h̄·E[R]) (R = Σψ over the rounds one update is "
    "used) is non-increasing in a.",
    space=Space(
        [
            Real("a1", 0.0, 1.0, closed=(True, True), special=(0.0, 0.1, 0.5, 1.0)),
            Real("da", 0.0, 1.0, closed=(False, True), special=(1.0, 0.5)),
            Integer("v", 1, 30),
            Real("p", 0.0, 1.0, closed=(True, True), special=(0.0, 0.1, 0.5, 1.0)),
        ]
    ),
    margin=_tau_bar_margin,
    exact=_tau_bar_exact,
    tolerance=1e-12,
    expected="holds",
    reading=Reading(
        quote="Remark 1. … The first term's convergence is related to the average inactive "
        "round number τ̄. We can find that too high a value of τ̄ will negatively impact "
        "convergence … Also, convergence is adversely affected when most clients remain "
        "unavailable for a long time, i.e., a large τ̄.",
        hypotheses=(
            Hypothesis(
                "Theorem 1's first term O(σ²(1 + τ̄)/(μT)): the gradient-noise term",
                "gradient noise of variance σ² in each received update; quadratics "
                "f_i = (h_i/2)(w − u_i)²",
            ),
            Hypothesis(
                "bounded staleness τ ≤ g(t)",
                "available w.p. a each round and surely after v ≤ 30 absences",
            ),
            Hypothesis(
                "the comparison at fixed other parameters",
                "every client shares the "
                "availability a (so w_ω = w* and only the noise term differs); a₂ = a₁ "
                "+ da(1 − a₁) > a₁",
            ),
        ),
        interpretation="The remark compares systems that differ only in how long clients stay "
        "unavailable. On the paper's update rule (eqs. 4–7) a received update, noise included, "
        "is reused with weights ψ(0), ψ(1), … until the client returns, so its noise enters "
        "R = Σψ times; for a small step η the stationary error is ησ²E[R²]/(2N·h̄·E[R]) "
        "(diffusion limit; renewal-reward long-run variance σ²E[R²]/E[L] over the drift "
        "h̄E[R]/E[L]; checked against Monte Carlo in the tests). For p = 0 and no bound, "
        "E[R²]/E[R] = 1 + 2τ̄: the (1 + τ̄) of the bound. Margin (Q(a₁) − Q(a₂))/Q(a₁), Q = "
        "E[R²]/E[R].",
        alternatives="Read on the printed bound only: σ²(1 + τ̄)/(μT) increases with τ̄ (trivially).",
    ),
    notes="N, h̄, σ² and η cancel in the comparison, leaving Q(a) = E[R²]/E[R] over one "
    "holding period (J absent rounds, P(J = j) = (1 − a)^j a for j < v, (1 − a)^v at j = v). "
    "It holds because J is likelihood-ratio ordered in a and R is increasing in J, so the "
    "size-biased mean E[R²]/E[R] is monotone.",
)
