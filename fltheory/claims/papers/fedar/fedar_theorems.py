"""Claims of the FedAR paper (seed ``003_7bfc4ba284d104ce.txt``, ``l.N`` its lines) about what
FedAR converges to: Theorems 1 and 2 (l.385–466) read at their limit, Table 1's bias claims
(l.119–149), Remark 1's τ̄ (l.408–417) and Remark 2's N and cut-off (l.451–466), and ψ_max = 2
(l.295–301).

The theorems are O-statements whose constants are partly lost in the OCR; their executable core
is the limit. With steps → 0 (Theorem 1's η_t ∝ 1/(t + a), Theorem 2's η ∝ 1/√T) the stale
update G_i of client i is its update at a model that no longer moves, weighted by ψ(τ_i) of
eq. (6); averaged over time the iterates follow ẇ = −(1/N)Σ_i ω_i∇f_i(w) with the long-run
weights ω_i = E[min((τ_i + 1)^p, 2)] under the stationary law of client i's staleness τ_i, so
FedAR converges to argmin Σ_i ω_i f_i — not to argmin f = argmin Σ_i f_i unless the ω_i are
equal (p = 0, or equal availabilities).

Availability family (within the theorems' bounded staleness, Theorem 1's τ_max ≤ g(t) and
Theorem 2's Assumption 7): client i is available with probability a_i each round, independently,
and surely after v consecutive absences, so τ_i ≤ v and P(τ_i = k) ∝ (1 − a_i)^k, k = 0…v
(a_i = 0: available every (v + 1)-th round). Quadratics f_i(w) = (h_i/2)(w − u_i)², h_i > 0, no
gradient noise: μ-strongly convex, L-smooth, Hessian-Lipschitz (Λ = 0), bounded dissimilarity.

>>> round(staleness_weight(0.1, 1.0), 12), staleness_weight(0.0, 1.0, v=1)
(1.9, 1.5)
"""

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin
from fltheory.claims.explain import Explanation, Quantity, Step, dec, decs, show, signed
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.fedar.fedar import _mp_to_fraction, _register
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError

PAPER = "fedar"

# ---------------------------------------------------------------------------------------------
# Long-run weights ω = E[ψ(τ)] and the limit points
# ---------------------------------------------------------------------------------------------


def staleness_weight(avail: float, p: float, v: int | None = None) -> float:
    """ω = E[min((τ + 1)^p, 2)] under the stationary staleness law of a client available with
    probability a each round: P(τ = k) ∝ (1 − a)^k for k = 0…v when it is surely available
    after v absences (bounded staleness), the geometric law a(1 − a)^k when ``v`` is None:
    ω = 2 − Σ_{k<K} a(1 − a)^k (2 − (k + 1)^p), K = #{k: (k + 1)^p < 2} = ⌈2^{1/p}⌉ − 1.

    >>> round(staleness_weight(0.1, 0.1), 5), round(staleness_weight(0.5, 1.0, 2), 12)
    (1.21091, 1.428571428571)
    """
    if v is not None:
        z = 1.0 - avail
        weights = np.array([z**k for k in range(v + 1)])
        psi = np.minimum((np.arange(v + 1) + 1.0) ** p, 2.0)
        return float(weights @ psi / weights.sum())
    if p == 0.0 or avail >= 1.0:
        return 1.0
    if avail <= 0.0:
        raise NumericalError("a client never available has no staleness law")
    K = math.inf if 1.0 / p > 1000 else math.ceil(2.0 ** (1.0 / p) - 1.0)
    log_z = math.log1p(-avail)
    stop = math.ceil(math.log(1e-18) / log_z)  # z^k < 1e-18 beyond
    n = int(min(K, stop))
    if n > 5_000_000:
        raise NumericalError("staleness series too long (availability too small)")
    k = np.arange(n, dtype=float)
    corr = avail * float(np.sum(np.exp(k * log_z) * (2.0 - (k + 1.0) ** p)))
    return 2.0 - corr


def staleness_weight_mp(avail: Fraction, p: Fraction, v: int | None = None, dps: int = 40
                        ) -> Any:  # fmt: skip
    """The same at ``dps`` digits; without a bound via the Lerch transcendent:
    ω = a[Φ(z, −p, 1) − z^K Φ(z, −p, K + 1)] + 2z^K, Φ(z, s, c) = Σ_k z^k/(k + c)^s, z = 1 − a."""
    import mpmath

    with mpmath.workdps(dps):
        a = mpmath.mpf(avail.numerator) / avail.denominator
        pm = mpmath.mpf(p.numerator) / p.denominator
        if v is not None:
            z = 1 - a
            weights = [z**k for k in range(v + 1)]
            psi = [min(mpmath.mpf(k + 1) ** pm, mpmath.mpf(2)) for k in range(v + 1)]
            return mpmath.fsum(w * s for w, s in zip(weights, psi, strict=True)) / mpmath.fsum(
                weights
            )
        if pm == 0 or a >= 1:
            return mpmath.mpf(1)
        z = 1 - a
        K = mpmath.ceil(mpmath.power(2, 1 / pm) - 1)
        head = mpmath.lerchphi(z, -pm, 1)
        zk = mpmath.power(z, K)
        tail = zk * mpmath.lerchphi(z, -pm, K + 1) if zk > mpmath.mpf(10) ** (-dps - 5) else 0
        return a * (head - tail) + 2 * zk


def _omegas(inst: Instance) -> np.ndarray:
    return np.array([staleness_weight(float(a), inst["p"], int(inst["v"]))
                     for a in np.asarray(inst["avail"])])  # fmt: skip


def _limit_points(u: np.ndarray, h: np.ndarray, omega: np.ndarray) -> tuple[float, float]:
    """(argmin Σω_ih_i(w − u_i)²/2, argmin Σh_i(w − u_i)²/2)."""
    return float(np.sum(omega * h * u) / np.sum(omega * h)), float(np.sum(h * u) / np.sum(h))


def _spread(u: Any) -> float:
    return float(np.ptp(np.asarray(u, dtype=float)))


def _limit_mp(inst: Instance, dps: int = 40) -> dict[str, Any]:
    """ω_i, w_ω, w* and the spread of u at ``dps`` digits, on the decimal instance."""
    import mpmath

    with mpmath.workdps(dps):
        p, v = dec(inst["p"]), int(inst["v"])
        om = [staleness_weight_mp(a, p, v, dps) for a in decs(inst["avail"])]
        u = [mpmath.mpf(x.numerator) / x.denominator for x in decs(inst["u"])]
        h = [mpmath.mpf(x.numerator) / x.denominator for x in decs(inst["h"])]
        wf = mpmath.fsum(o * a * b for o, a, b in zip(om, h, u, strict=True)) / mpmath.fsum(
            o * a for o, a in zip(om, h, strict=True)
        )
        ws = mpmath.fsum(a * b for a, b in zip(h, u, strict=True)) / mpmath.fsum(h)
        return {"omega": om, "w_omega": wf, "w_star": ws, "spread": max(u) - min(u),
                "h_bar": mpmath.fsum(h) / len(h)}  # fmt: skip


LIMIT_SPACE = Space([
    Integer("n", 2, 6),
    Real("avail", 0.0, 1.0, size="n", closed=(True, True), special=(0.0, 0.5, 1.0)),
    Integer("v", 1, 12),
    Real("p", 0.0, 1.0, closed=(True, True), special=(0.0, 0.1, 0.5, 1.0)),
    Real("u", -1.0, 1.0, size="n", closed=(True, True), special=(0.0, 1.0, -1.0)),
    Real("h", 0.1, 10.0, size="n", closed=(True, True), special=(1.0,)),
], where=lambda i: _spread(i["u"]) > 0)  # fmt: skip

LIMIT_HYPOTHESES = (
    Hypothesis("f_i L-smooth and μ-strongly convex (Assumptions 1–2), f = (1/N)Σf_i (eq. 1)",
               "f_i(w) = (h_i/2)(w − u_i)², h_i ∈ [0.1, 10], u_i ∈ [−1, 1] not all equal, d = 1"),
    Hypothesis("bounded gradient variance / noise (Assumptions 3, 5)", "exact gradients (σ = 0)"),
    Hypothesis("bounded staleness: τ_max ≤ g(t) (Theorem 1), τ(i, t) ≤ v_i (Assumption 7)",
               "client i available w.p. a_i ∈ [0, 1] each round and surely after v ≤ 12 "
               "absences, so τ ≤ v; g(t) ≥ v eventually (t₀ ≥ v), so the cut-off excludes no "
               "client and N_t = N"),
    Hypothesis("ψ of eq. (6) with p ∈ [0, 1] (l.299)", "p ∈ [0, 1]"),
    Hypothesis("diminishing steps (Theorem 1: η_t ∝ 1/(t + a); Theorem 2: η ∝ 1/√T)",
               "the limit η → 0, where the iterates follow the averaged ODE"),
)  # fmt: skip


def _losses(u: tuple[Fraction, ...], h: tuple[Fraction, ...]) -> tuple[Quantity, ...]:
    out = []
    for i, (ui, hi) in enumerate(zip(u, h, strict=True)):
        body = "w²" if ui == 0 else f"(w {signed(-ui)})²"
        out.append(Quantity(f"f_{i + 1}", f"loss of client {i + 1}", ui,
                            f"f_{i + 1}(w) = ({show(hi)}/2)·{body}"))  # fmt: skip
    return tuple(out)


def _limit_explain(inst: Instance, theorem: int) -> Explanation:
    """The instance in the paper's terms: the clients' losses, availabilities, the staleness
    bound, the exponent p, the long-run weights ω_i and the two points; then the theorem's
    limiting quantity against 0."""
    import mpmath

    u, h, a = decs(inst["u"]), decs(inst["h"]), decs(inst["avail"])
    p, v = dec(inst["p"]), int(inst["v"])
    q = _limit_mp(inst)
    with mpmath.workdps(40):
        psi = [min(mpmath.mpf(k + 1) ** (mpmath.mpf(p.numerator) / p.denominator), 2)
               for k in range(v + 1)]  # fmt: skip
        diff = q["w_omega"] - q["w_star"]
        if theorem == 1:
            lhs = Step("lim_T f(w_T) − f(w*)", "f(w_ω) − f(w*) = (h̄/2)(w_ω − w*)²",
                       q["h_bar"] / 2 * diff**2)  # fmt: skip
            holds = abs(diff) / q["spread"] <= mpmath.mpf("1e-25")
            rhs = Step("0", "Theorem 1's bound O(σ²(1 + τ̄)/(μT)) + O(…/T²) as T → ∞", 0)
        else:
            lhs = Step("lim_T (1/T)Σ_t‖∇f(w_t)‖²", "‖∇f(w_ω)‖² = h̄²(w_ω − w*)²",
                       (q["h_bar"] * diff) ** 2)  # fmt: skip
            holds = diff**2 / q["spread"] ** 2 <= mpmath.mpf("1e-40")
            rhs = Step("0", "Theorem 2's bound R₁(f(w₀) − f*)/√T + O(…) as T → ∞", 0)
    return Explanation(
        quantities=(
            *_losses(u, h),
            Quantity("f", "global loss (eq. 1)", 0, "f(w) = (1/N)Σ_i f_i(w)"),
            Quantity("a", "availability: P(client i available in a round)", a),
            Quantity("v", "staleness bound: available for sure after v absences (τ ≤ v)", v),
            Quantity("p", "exponent of ψ in eq. (6)", p),
        ),
        steps=(
            Step("ψ(k)", "min((k + 1)^p, 2), k = 0…v (eq. 6)", tuple(psi)),
            Step("ω_i", "E[ψ(τ_i)], P(τ_i = k) ∝ (1 − a_i)^k, k = 0…v", tuple(q["omega"])),
            Step("w_ω", "Σω_ih_iu_i/Σω_ih_i (where FedAR converges)", q["w_omega"]),
            Step("w*", "Σh_iu_i/Σh_i = argmin f", q["w_star"]),
        ),
        lhs=lhs,
        relation="=",
        rhs=rhs,
        holds=bool(holds),
        verify_args={"p": p, "avail": list(a), "v": v, "u": list(u), "h": list(h)},
        note="The weights ψ over-weight the stale clients in the long run (ω_i > ω_j when "
        "a_i < a_j), so FedAR's limit w_ω is pulled towards the less available clients.",
    )


# ---------------------------------------------------------------------------------------------
# Theorem 1 (strongly convex) and Theorem 2 (non-convex): the limit
# ---------------------------------------------------------------------------------------------


def _thm1_margin(inst: Instance) -> float:
    u, h = np.asarray(inst["u"]), np.asarray(inst["h"])
    w_fedar, w_star = _limit_points(u, h, _omegas(inst))
    return -abs(w_fedar - w_star) / _spread(u)


def _thm1_exact(inst: Instance) -> ExactMargin:
    import mpmath

    q = _limit_mp(inst)
    with mpmath.workdps(40):
        value = mpmath.mpf("1e-25") - abs(q["w_omega"] - q["w_star"]) / q["spread"]
        return _mp_to_fraction(value), "mpmath 40 digits on the decimal instance"


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


_register(
    "thm1-o", "§5.1", "Theorem 1 (convex, as printed)", (385, 417),
    "For μ-strongly convex L-smooth f_i with bounded variance, τ_max ≤ g(t), η_t ∝ 1/(t + a): "
    "E[f(w̄_T)] − f(w*) = O(σ²(1 + τ̄)/(μT)) + O((F + μa³‖w₀ − w*‖² + …)/(KμT²)).",
    reason="the constants are partly lost in the OCR and hidden in O(·); the executable core "
    "(the iterate's limit) is fedar:thm1-limit.",
)  # fmt: skip

_register(
    "thm1-limit", "§5.1", "Theorem 1 and Remark 1, limit reading", (385, 417),
    "Under Theorem 1's hypotheses (bounded staleness, diminishing steps), FedAR converges to "
    "w* = argmin f: E[f(w_T)] − f(w*) → 0, for every exponent p of ψ.",
    space=LIMIT_SPACE, margin=_thm1_margin, exact=_thm1_exact, tolerance=1e-12,
    expected="refuted", explain=lambda i: _limit_explain(i, 1), verify=_verify_fedar_thm1,
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
)  # fmt: skip


def _thm2_margin(inst: Instance) -> float:
    u, h = np.asarray(inst["u"]), np.asarray(inst["h"])
    w_fedar, _ = _limit_points(u, h, _omegas(inst))
    grad = float(np.mean(h * (w_fedar - u)))
    return -(grad**2) / (float(np.mean(h)) * _spread(u)) ** 2


def _thm2_exact(inst: Instance) -> ExactMargin:
    import mpmath

    q = _limit_mp(inst)
    with mpmath.workdps(40):
        value = mpmath.mpf("1e-40") - (q["w_omega"] - q["w_star"]) ** 2 / q["spread"] ** 2
        return _mp_to_fraction(value), "mpmath 40 digits on the decimal instance"


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


_register(
    "thm2-o", "§5.2", "Theorem 2 (non-convex, as printed)", (437, 466),
    "Under Assumptions 1–7 (bounded staleness τ(i,t) ≤ v_i), η = √(…/T): "
    "(1/T)Σ_tE‖∇f(w_t)‖² ≤ R₁(f(w₀) − f*)/√T + O(…) → 0.",
    reason="the constants are lost in the OCR and hidden in O(·); the executable core is "
    "fedar:thm2-limit.",
)  # fmt: skip

_register(
    "thm2-limit", "§5.2", "Theorem 2, limit reading", (437, 466),
    "Under Assumptions 1–7 (bounded staleness τ(i, t) ≤ v_i), with η ∝ 1/√T, the average "
    "squared gradient (1/T)Σ_tE‖∇f(w_t)‖² → 0 as T → ∞, for every exponent p.",
    space=LIMIT_SPACE, margin=_thm2_margin, exact=_thm2_exact, tolerance=1e-14,
    expected="refuted", explain=lambda i: _limit_explain(i, 2), verify=_verify_fedar_thm2,
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
)  # fmt: skip

# ---------------------------------------------------------------------------------------------
# Table 1: MIFA's and FedAR's bias
# ---------------------------------------------------------------------------------------------


def _mifa_margin(inst: Instance) -> float:
    u, h = np.asarray(inst["u"]), np.asarray(inst["h"])
    w_mifa, w_star = _limit_points(u, h, np.ones(u.size))  # MIFA: every stored update, 1/N
    return abs(w_mifa - w_star) / _spread(u) - 1e-12


def _mifa_exact(inst: Instance) -> ExactMargin:
    u, h = decs(inst["u"]), decs(inst["h"])
    w_star = sum((a * b for a, b in zip(h, u, strict=True)), Fraction(0)) / sum(h, Fraction(0))
    # MIFA's stationary direction (1/N)Σ_i h_i(u_i − w) (every client's latest update, equal
    # weights) vanishes at w = Σh_iu_i/Σh_i: the same point.
    w_mifa = sum((a * b for a, b in zip(h, u, strict=True)), Fraction(0)) / sum(h, Fraction(0))
    dist = abs(w_mifa - w_star)
    return (dist if dist else Fraction(-1)), "exact rationals; −1 encodes lim = w* exactly"


_register(
    "table1-mifa-biased", "§2, Table 1", "MIFA is a biased scheme (limit-point reading)",
    (119, 149),
    "Limit-point reading: MIFA's limit (diminishing steps) is not argmin f under heterogeneous "
    "availability.",
    space=Space([
        Integer("n", 2, 6),
        Real("avail", 1e-3, 1.0, size="n", closed=(True, True), special=(0.1, 1.0)),
        Real("u", -1.0, 1.0, size="n", closed=(True, True), special=(0.0, 1.0)),
        Real("h", 0.1, 10.0, size="n", closed=(True, True), special=(1.0,)),
    ], where=lambda i: _spread(i["u"]) > 0 and np.ptp(np.asarray(i["avail"])) > 0),
    margin=_mifa_margin, exact=_mifa_exact, tolerance=0.0, expected="refuted",
    reading=Reading(
        quote="In particular, seeking to maximize non-IID data coverage, MIFA gives equal "
        "weightage to updates from both available and unavailable clients, making it a biased "
        "scheme. (Table 1, MIFA: rationale on local updates: all have the same contribution; "
        "solution: allocate the same weight to all local updates.)",
        hypotheses=(
            Hypothesis("MIFA [10]: the latest update of every client, averaged with equal "
                       "weights", "MIFA's step (1/N)Σ_iG_i[t] on quadratics f_i = (h_i/2)(w − "
                       "u_i)²"),
            Hypothesis("heterogeneous availability", "a_i ∈ [1e-3, 1], not all equal"),
        ),
        interpretation="Literal, not the authors' meaning: 'biased' read as a limit point "
        "away from argmin f. The paper's own notion of MIFA's bias is §3.2's: stale updates "
        "contribute less to the global model (Fig. 1, Shapley values on CIFAR-10), so equal "
        "weights under-count the unavailable clients' contributions — an empirical notion "
        "(fedar:sec3.2-motivation). In the limit-point sense MIFA is unbiased, as MIFA's own "
        "convergence theorem [10] (cited by the paper) states; the paper does not contest it.",
        alternatives="Contribution (Shapley) reading: fedar:sec3.2-motivation (empirical, not "
        "executable).",
    ),
    finding=Finding(
        "literal",
        "'biased' is §3.2's contribution notion (stale updates contribute less, Fig. 1), not a "
        "limit point; in the limit-point sense tested here MIFA converges to argmin f, as its "
        "own theorem [10] says",
    ),
    notes="MIFA's step is (1/N)Σ_iG_i over every client's latest update, so with steps → 0 it "
    "follows ẇ = (1/N)Σ_ih_i(u_i − w) whatever the availabilities, and converges to argmin f "
    "(the exponent-0 case of fedar:thm1-limit; the simulator's MIFA gives 0.4999 on u = (0, 1), "
    "a = (0.1, 1)). A '≠' claim: margin |w_MIFA − w*|/spread − 1e-12, refuted at every "
    "instance.",
)  # fmt: skip


def _less_biased_margin(inst: Instance) -> float:
    u, h = np.asarray(inst["u"]), np.asarray(inst["h"])
    w_fedar, w_star = _limit_points(u, h, _omegas(inst))
    w_mifa, _ = _limit_points(u, h, np.ones(u.size))
    return (abs(w_mifa - w_star) - abs(w_fedar - w_star)) / _spread(u)


def _less_biased_exact(inst: Instance) -> ExactMargin:
    import mpmath

    q = _limit_mp(inst)
    with mpmath.workdps(40):  # MIFA's limit is exactly w*: its distance is 0
        value = mpmath.mpf("1e-25") - abs(q["w_omega"] - q["w_star"]) / q["spread"]
        return _mp_to_fraction(value), "mpmath 40 digits (MIFA's limit is w* exactly)"


_register(
    "table1-fedar-less-biased", "§2, Table 1 and abstract",
    "FedAR reduces the bias (distance-to-optimum reading)", (119, 149),
    "Distance reading: FedAR's limit is at least as close to argmin f as MIFA's.",
    space=LIMIT_SPACE, margin=_less_biased_margin, exact=_less_biased_exact,
    tolerance=1e-12, expected="refuted", explain=lambda i: _limit_explain(i, 1),
    reading=Reading(
        quote="Table 1, FedAR: issue addressed: reduce bias against unavailable local updates; "
        "rationale on local updates: unavailable ones can also have contributions; solution: "
        "allocate higher weights to unavailable local updates with higher contributions. "
        "Abstract: … the bias mitigation.",
        hypotheses=LIMIT_HYPOTHESES,
        interpretation="Literal, not the authors' meaning: a symmetric distance of the limit "
        "to argmin f. Table 1 names a direction — bias AGAINST unavailable clients — and the "
        "paper measures it empirically (per-client accuracies, Table 3 and Fig. 3). In the "
        "direction the table names, FedAR does what it says: it gives the less available "
        "clients larger long-run weights than MIFA's equal ones "
        "(fedar:table1-fedar-upweights-unavailable, holds), which moves the limit towards them "
        "— past argmin f, since MIFA's limit already is argmin f (the over-correction is the "
        "finding of fedar:thm1-limit).",
        alternatives="Directional reading: fedar:table1-fedar-upweights-unavailable (holds). "
        "Convergence to argmin f: fedar:thm1-limit, fedar:thm2-limit (refuted, errors).",
    ),
    finding=Finding(
        "literal",
        "Table 1 claims to reduce bias against the unavailable clients, a direction: FedAR "
        "does up-weight them (fedar:table1-fedar-upweights-unavailable holds); that this "
        "over-corrects past argmin f is the error of fedar:thm1-limit",
        intended="fedar:table1-fedar-upweights-unavailable",
    ),
    notes="Margin (|w_MIFA − w*| − |w_FedAR − w*|)/spread with the limits of fedar:thm1-limit "
    "(w_MIFA = w*). Refuted whenever p > 0 and the availabilities differ.",
)  # fmt: skip


def _upweight_pair(inst: Instance) -> tuple[float, float, int | None]:
    a1 = float(inst["a1"])
    a2 = a1 + float(inst["da"]) * (1.0 - a1)
    v = int(inst["v"]) if inst["bounded"] else None
    if v is None and a1 < 1e-3:
        raise NumericalError("without a staleness bound, a < 1e-3 is not summed in float64")
    return a1, a2, v


def _upweight_margin(inst: Instance) -> float:
    a1, a2, v = _upweight_pair(inst)
    w1, w2 = staleness_weight(a1, inst["p"], v), staleness_weight(a2, inst["p"], v)
    return (w1 - w2) / w1


def _upweight_exact(inst: Instance) -> ExactMargin:
    import mpmath

    _, _, v = _upweight_pair(inst)
    a1, da, p = dec(inst["a1"]), dec(inst["da"]), dec(inst["p"])
    a2 = a1 + da * (1 - a1)
    with mpmath.workdps(40):
        w1, w2 = staleness_weight_mp(a1, p, v), staleness_weight_mp(a2, p, v)
        return _mp_to_fraction((w1 - w2) / w1), "mpmath 40 digits on the decimal instance"


_register(
    "table1-fedar-upweights-unavailable", "§2, Table 1 and §4",
    "FedAR up-weights the unavailable clients (directional reading)", (119, 149),
    "FedAR's long-run weight of a client's updates, ω(a) = E[min((τ + 1)^p, 2)], is "
    "non-increasing in its availability a: the less available a client, the larger the weight "
    "of its (stale) updates relative to MIFA's equal weights.",
    space=Space([
        Real("a1", 0.0, 1.0, closed=(True, True), special=(0.0, 0.1, 0.5, 1.0)),
        Real("da", 0.0, 1.0, closed=(False, True), special=(1.0, 0.5)),
        Integer("bounded", 0, 1),
        Integer("v", 1, 12),
        Real("p", 0.0, 1.0, closed=(True, True), special=(0.0, 0.1, 0.5, 1.0)),
    ]),
    margin=_upweight_margin, exact=_upweight_exact, tolerance=1e-12, expected="holds",
    reading=Reading(
        quote="Table 1, FedAR: reduce bias against unavailable local updates … allocate higher "
        "weights to unavailable local updates. §4: we assign them higher weights to increase "
        "their contributions.",
        hypotheses=(
            Hypothesis("ψ of eq. (6), p ∈ [0, 1]", "p ∈ [0, 1]"),
            Hypothesis("availability", "independent rounds with probability a, with (bounded "
                       "= 1) or without (bounded = 0) a staleness bound v ≤ 12"),
        ),
        interpretation="The directional content of Table 1: compared with MIFA's equal "
        "weights, FedAR gives the less available clients more weight in the long run. a₂ = a₁ "
        "+ da(1 − a₁) > a₁; margin (ω(a₁) − ω(a₂))/ω(a₁) ≥ 0. Holds because ψ is "
        "non-decreasing in τ and the staleness law is stochastically larger for smaller a.",
        alternatives="Distance reading: fedar:table1-fedar-less-biased (literal, refuted).",
    ),
    notes="ω from the stationary staleness law (bounded: P(τ = k) ∝ (1 − a)^k, k ≤ v; "
    "unbounded: geometric, a ≥ 1e-3); exact: 40 digits (the Lerch transcendent without a "
    "bound).",
)  # fmt: skip

# ---------------------------------------------------------------------------------------------
# Remark 1 (τ̄), ψ_max = 2, the cut-off g(t), Remark 2 (N)
# ---------------------------------------------------------------------------------------------


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
        return _mp_to_fraction((q[0] - q[1]) / q[0]), "mpmath 40 digits on the decimal instance"


_register(
    "remark1-tau-bar", "§5.1, Remark 1", "a larger τ̄ worsens convergence (noise term)",
    (408, 413),
    "At fixed data, gradient noise σ², step η, exponent p and staleness bound v, lowering the "
    "clients' common availability a (raising τ̄) does not decrease FedAR's noise error: the "
    "stationary E(w − w*)² ≈ ησ²E[R²]/(2N·h̄·E[R]) (R = Σψ over the rounds one update is "
    "used) is non-increasing in a.",
    space=Space([
        Real("a1", 0.0, 1.0, closed=(True, True), special=(0.0, 0.1, 0.5, 1.0)),
        Real("da", 0.0, 1.0, closed=(False, True), special=(1.0, 0.5)),
        Integer("v", 1, 30),
        Real("p", 0.0, 1.0, closed=(True, True), special=(0.0, 0.1, 0.5, 1.0)),
    ]),
    margin=_tau_bar_margin, exact=_tau_bar_exact, tolerance=1e-12, expected="holds",
    reading=Reading(
        quote="Remark 1. … The first term's convergence is related to the average inactive "
        "round number τ̄. We can find that too high a value of τ̄ will negatively impact "
        "convergence … Also, convergence is adversely affected when most clients remain "
        "unavailable for a long time, i.e., a large τ̄.",
        hypotheses=(
            Hypothesis("Theorem 1's first term O(σ²(1 + τ̄)/(μT)): the gradient-noise term",
                       "gradient noise of variance σ² in each received update; quadratics "
                       "f_i = (h_i/2)(w − u_i)²"),
            Hypothesis("bounded staleness τ ≤ g(t)", "available w.p. a each round and surely "
                       "after v ≤ 30 absences"),
            Hypothesis("the comparison at fixed other parameters", "every client shares the "
                       "availability a (so w_ω = w* and only the noise term differs); a₂ = a₁ "
                       "+ da(1 − a₁) > a₁"),
        ),
        interpretation="The remark compares systems that differ only in how long clients stay "
        "unavailable. On the paper's update rule (eqs. 4–7) a received update, noise included, "
        "is reused with weights ψ(0), ψ(1), … until the client returns, so its noise enters "
        "R = Σψ times; for a small step η the stationary error is ησ²E[R²]/(2N·h̄·E[R]) "
        "(diffusion limit; renewal-reward long-run variance σ²E[R²]/E[L] over the drift "
        "h̄E[R]/E[L]; checked against Monte Carlo in the tests). For p = 0 and no bound, "
        "E[R²]/E[R] = 1 + 2τ̄: the (1 + τ̄) of the bound. Margin (Q(a₁) − Q(a₂))/Q(a₁), Q = "
        "E[R²]/E[R].",
        alternatives="Read on the printed bound only: σ²(1 + τ̄)/(μT) increases with τ̄ "
        "(trivially).",
    ),
    notes="N, h̄, σ² and η cancel in the comparison, leaving Q(a) = E[R²]/E[R] over one "
    "holding period (J absent rounds, P(J = j) = (1 − a)^j a for j < v, (1 − a)^v at j = v). "
    "It holds because J is likelihood-ratio ordered in a and R is increasing in J, so the "
    "size-biased mean E[R²]/E[R] is monotone.",
)  # fmt: skip

_register(
    "psi-max-2", "§4", "ψ_max = 2 guarantees convergence", (295, 301),
    "Capping ψ at ψ_max = 2 guarantees the convergence of FedAR.",
    reading=Reading(
        quote="However, an extremely high weight ψ_{i,t} will cause the unavailable clients to "
        "dominate the global model update, which would induce bias against available clients. "
        "We therefore introduce the hyperparameter p ∈ [0, 1] in Eq. (6) to restrict the "
        "growth of ψ_{i,t}. We also set the maximum value of ψ_{i,t} (ψ_max) to 2 to guarantee "
        "the convergence of FedAR. Please refer to the Appendix for more details on the "
        "convergence analysis.",
        interpretation="A statement about the proof in the appendix (missing from the paper "
        "as available), where ψ_max enters the constants (Theorem 1's second term has "
        "Nψ_max).",
    ),
    reason="what the cap does in the (missing) proof cannot be evaluated. On the paper's update "
    "rule it has no testable effect on convergence: under the theorems' bounded staleness "
    "ψ ≤ (v + 1)^p is bounded anyway, and with diminishing steps FedAR converges for any "
    "bounded weights — to w_ω = argmin Σω_if_i, which is where the cap matters (it bounds ω_i "
    "≤ 2, hence the bias of fedar:thm1-limit); with a constant step, stability would depend on "
    "the step-size condition of the proof, lost in the OCR.",
)  # fmt: skip

_register(
    "cutoff-needed", "§4 and Remark 2", "the cut-off g(t) is needed for convergence",
    (289, 466),
    "A critical value g(t) excluding the clients inactive for more than g(t) rounds must exist "
    "to ensure the model's convergence.",
    reading=Reading(
        quote="We introduce g(t) to prevent local updates with many inactive rounds from "
        "negatively impacting the global model and to remove such updates from the current "
        "global update (§4). … Thus, there must exist a critical value g(t) as we express in "
        "Eq. (6) to exclude those clients from the global update to ensure the model "
        "convergence, i.e., the clients whose inactive round number exceeds g(t) will not be "
        "considered (Remark 2).",
        interpretation="A necessity statement drawn from the analysis (the theorems assume "
        "τ_max ≤ g(t)) and from Fig. 1's CIFAR-10 observation that very stale updates hurt.",
    ),
    reason="a necessity claim ('must exist … to ensure convergence') says that some instance "
    "fails without the cut-off; a finite search cannot show that none does, and on quadratics "
    "the cut-off is not what makes FedAR converge: under the theorems' bounded staleness "
    "(τ ≤ v) the growing g(t) eventually excludes no client, and without any bound FedAR "
    "without a cut-off still converges with diminishing steps, to w_ω with the finite ω_i = "
    "E[min((τ_i + 1)^p, 2)] (staleness_weight with v = None). The empirical side is "
    "fedar:sec3.2-motivation.",
)  # fmt: skip

_register(
    "remark2-more-clients", "§5.2, Remark 2", "more clients need more rounds", (451, 460),
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
)  # fmt: skip
