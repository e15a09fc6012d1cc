"""What FedAR converges to, shared by the claims on Theorems 1 and 2 (:mod:`.s5_1_theorem1`,
:mod:`.s5_2_theorem2`) and Table 1 (:mod:`.s2_table1`) of the FedAR paper (seed
``003_7bfc4ba284d104ce.txt``, ``l.N`` its lines); it registers nothing.

The theorems are O-statements whose constants are partly lost in the OCR; their executable core is
the limit. With steps → 0 (Theorem 1's η_t ∝ 1/(t + a), Theorem 2's η ∝ 1/√T) the stale update G_i
of client i is its update at a model that no longer moves, weighted by ψ(τ_i) of eq. (6); averaged
over time the iterates follow ẇ = −(1/N)Σ_i ω_i∇f_i(w) with the long-run weights ω_i = E[min((τ_i +
1)^p, 2)] under the stationary law of client i's staleness τ_i, so FedAR converges to argmin Σ_i ω_i
f_i — not to argmin f = argmin Σ_i f_i unless the ω_i are equal (p = 0, or equal availabilities).

Availability family (within the theorems' bounded staleness, Theorem 1's τ_max ≤ g(t) and Theorem
2's Assumption 7): client i is available with probability a_i each round, independently, and surely
after v consecutive absences, so τ_i ≤ v and P(τ_i = k) ∝ (1 − a_i)^k, k = 0…v (a_i = 0: available
every (v + 1)-th round). Quadratics f_i(w) = (h_i/2)(w − u_i)², h_i > 0, no gradient noise:
μ-strongly convex, L-smooth, Hessian-Lipschitz (Λ = 0), bounded dissimilarity.

>>> round(staleness_weight(0.1, 1.0), 12), staleness_weight(0.0, 1.0, v=1)
(1.9, 1.5)
"""

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.explain import Explanation, Quantity, Step, dec, decs, show, signed
from fltheory.claims.finding import Hypothesis
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError


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


def staleness_weight_mp(avail: Fraction, p: Fraction, v: int | None = None, dps: int = 40) -> Any:
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


def omegas(inst: Instance) -> np.ndarray:
    """The long-run weights ω_i = E[ψ(τ_i)] of an instance's clients (bounded staleness v)."""
    return np.array(
        [staleness_weight(float(a), inst["p"], int(inst["v"])) for a in np.asarray(inst["avail"])]
    )


def limit_points(u: np.ndarray, h: np.ndarray, omega: np.ndarray) -> tuple[float, float]:
    """(argmin Σω_ih_i(w − u_i)²/2, argmin Σh_i(w − u_i)²/2)."""
    return float(np.sum(omega * h * u) / np.sum(omega * h)), float(np.sum(h * u) / np.sum(h))


def data_spread(u: Any) -> float:
    """max u − min u (the scale of the limit margins)."""
    return float(np.ptp(np.asarray(u, dtype=float)))


def limit_mp(inst: Instance, dps: int = 40) -> dict[str, Any]:
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
        return {
            "omega": om,
            "w_omega": wf,
            "w_star": ws,
            "spread": max(u) - min(u),
            "h_bar": mpmath.fsum(h) / len(h),
        }


LIMIT_SPACE = Space(
    [
        Integer("n", 2, 6),
        Real("avail", 0.0, 1.0, size="n", closed=(True, True), special=(0.0, 0.5, 1.0)),
        Integer("v", 1, 12),
        Real("p", 0.0, 1.0, closed=(True, True), special=(0.0, 0.1, 0.5, 1.0)),
        Real("u", -1.0, 1.0, size="n", closed=(True, True), special=(0.0, 1.0, -1.0)),
        Real("h", 0.1, 10.0, size="n", closed=(True, True), special=(1.0,)),
    ],
    where=lambda i: data_spread(i["u"]) > 0,
)

LIMIT_HYPOTHESES = (
    Hypothesis(
        "f_i L-smooth and μ-strongly convex (Assumptions 1–2), f = (1/N)Σf_i (eq. 1)",
        "f_i(w) = (h_i/2)(w − u_i)², h_i ∈ [0.1, 10], u_i ∈ [−1, 1] not all equal, d = 1",
    ),
    Hypothesis("bounded gradient variance / noise (Assumptions 3, 5)", "exact gradients (σ = 0)"),
    Hypothesis(
        "bounded staleness: τ_max ≤ g(t) (Theorem 1), τ(i, t) ≤ v_i (Assumption 7)",
        "client i available w.p. a_i ∈ [0, 1] each round and surely after v ≤ 12 "
        "absences, so τ ≤ v; g(t) ≥ v eventually (t₀ ≥ v), so the cut-off excludes no "
        "client and N_t = N",
    ),
    Hypothesis("ψ of eq. (6) with p ∈ [0, 1] (l.299)", "p ∈ [0, 1]"),
    Hypothesis(
        "diminishing steps (Theorem 1: η_t ∝ 1/(t + a); Theorem 2: η ∝ 1/√T)",
        "the limit η → 0, where the iterates follow the averaged ODE",
    ),
)


def loss_quantities(u: tuple[Fraction, ...], h: tuple[Fraction, ...]) -> tuple[Quantity, ...]:
    """The clients' losses f_i(w) = (h_i/2)(w − u_i)² as explanation quantities."""
    out = []
    for i, (ui, hi) in enumerate(zip(u, h, strict=True)):
        body = "w²" if ui == 0 else f"(w {signed(-ui)})²"
        out.append(
            Quantity(
                f"f_{i + 1}", f"loss of client {i + 1}", ui, f"f_{i + 1}(w) = ({show(hi)}/2)·{body}"
            )
        )
    return tuple(out)


def limit_explain(inst: Instance, theorem: int) -> Explanation:
    """The instance in the paper's terms: the clients' losses, availabilities, the staleness
    bound, the exponent p, the long-run weights ω_i and the two points; then the theorem's
    limiting quantity against 0."""
    import mpmath

    u, h, a = decs(inst["u"]), decs(inst["h"]), decs(inst["avail"])
    p, v = dec(inst["p"]), int(inst["v"])
    q = limit_mp(inst)
    with mpmath.workdps(40):
        psi = [
            min(mpmath.mpf(k + 1) ** (mpmath.mpf(p.numerator) / p.denominator), 2)
            for k in range(v + 1)
        ]
        diff = q["w_omega"] - q["w_star"]
        if theorem == 1:
            lhs = Step(
                "lim_T f(w_T) − f(w*)",
                "f(w_ω) − f(w*) = (h̄/2)(w_ω − w*)²",
                q["h_bar"] / 2 * diff**2,
            )
            holds = abs(diff) / q["spread"] <= mpmath.mpf("1e-25")
            rhs = Step("0", "Theorem 1's bound O(σ²(1 + τ̄)/(μT)) + O(…/T²) as T → ∞", 0)
        else:
            lhs = Step(
                "lim_T (1/T)Σ_t‖∇f(w_t)‖²", "‖∇f(w_ω)‖² = h̄²(w_ω − w*)²", (q["h_bar"] * diff) ** 2
            )
            holds = diff**2 / q["spread"] ** 2 <= mpmath.mpf("1e-40")
            rhs = Step("0", "Theorem 2's bound R₁(f(w₀) − f*)/√T + O(…) as T → ∞", 0)
    return Explanation(
        quantities=(
            *loss_quantities(u, h),
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
