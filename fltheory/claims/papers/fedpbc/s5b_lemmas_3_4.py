"""§V-B — Lemma 3 (l.211–215), Remark 2 on κ of eq. (4) (l.217–221) and Lemma 4, the descent lemma
(l.227–231), of the FedPBC paper (seed ``004_7f83552c6af82f79.txt``, ``l.N`` its lines). "c" is used
twice in the paper (the link lower bound, and the constant of Remark 2(d)); here the second is
``c_step``.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("fedpbc:remark2-c").margin({"s": 2, "log_x": 0.0})
0.0
"""

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.exact import fr, frs, mp_to_fraction
from fltheory.claims.finding import Hypothesis, Reading
from fltheory.claims.papers.fedpbc._common import (
    kappa,
    kappa_printed,
    rel,
)
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError


def _rotation(t: Any, one: Any) -> tuple[Any, Any]:
    """(cos, sin) of a rational rotation: ((1 − t²)/(1 + t²), 2t/(1 + t²))."""
    return (one - t * t) / (one + t * t), 2 * t / (one + t * t)


def _hessian(lam: list, t: Any, one: Any) -> list[list[Any]]:
    if len(lam) == 1:
        return [[lam[0]]]
    c, s = _rotation(t, one)
    a, b = lam
    return [[c * c * a + s * s * b, c * s * (a - b)], [c * s * (a - b), s * s * a + c * c * b]]


def _lemma3_sides(
    lam: list, t: Any, g0: list, x: Any, s: int, one: Any, coef: Any
) -> tuple[Any, Any, Any]:
    """(LHS², RHS/‖g₀‖, ‖g₀‖²) with ηH = x·H/L: g_k = (I − ηH)^k g₀, LHS = ‖Σ_{k<s}(g_k − g₀)‖,
    RHS = ((1 + x)^s − 1 − sx)/x·‖g₀‖ (= κηC(s,2)L‖g₀‖). The differences d_k = g_k − g₀ are
    carried directly (d_{k+1} = d_k − ηH(g₀ + d_k)): no cancellation at small x."""
    H = _hessian(lam, t, one)
    d = len(g0)
    diff = [0 * one] * d
    total = [0 * one] * d
    for _ in range(1, s):
        g = [g0[i] + diff[i] for i in range(d)]
        diff = [diff[i] - x * sum((H[i][j] * g[j] for j in range(d)), 0 * one) for i in range(d)]
        total = [total[i] + diff[i] for i in range(d)]
    lhs2 = sum((v * v for v in total), 0 * one)
    norm2 = sum((v * v for v in g0), 0 * one)
    return lhs2, coef, norm2


def _lemma3_margin(inst: Instance) -> float:
    d = inst["d"]
    lam = [float(v) for v in np.asarray(inst["lam"])[:d]]
    g0 = [float(v) for v in np.asarray(inst["g0"])[:d]]
    x, s = 10.0 ** inst["log_x"], inst["s"]
    coef = x * math.comb(s, 2) * kappa(s, x)  # ((1 + x)^s − 1 − sx)/x by its series
    lhs2, coef, norm2 = _lemma3_sides(lam, inst["rot"], g0, x, s, 1.0, coef)
    lhs, rhs = math.sqrt(lhs2), coef * math.sqrt(norm2)
    if rhs == 0.0 and lhs == 0.0:
        return 0.0
    return rel(rhs, lhs)


def _lemma3_exact(inst: Instance) -> ExactMargin:
    d = inst["d"]
    lam = frs(np.asarray(inst["lam"])[:d])
    g0 = frs(np.asarray(inst["g0"])[:d])
    x, s = fr(10.0 ** inst["log_x"]), inst["s"]
    coef = ((1 + x) ** s - 1 - s * x) / x
    lhs2, coef, norm2 = _lemma3_sides(lam, fr(inst["rot"]), g0, x, s, Fraction(1), coef)
    # RHS ≥ LHS ⇔ coef²‖g₀‖² ≥ LHS² (both sides non-negative)
    rhs2 = coef * coef * norm2
    scale = max(rhs2, lhs2) or Fraction(1)
    return (rhs2 - lhs2) / scale, "exact rationals (rational rotation, squared sides)"


register_claim(
    "fedpbc:lemma3",
    "§V-B",
    "Lemma 3 (Lemma 1 of [18])",
    (211, 215),
    "For s ≥ 1 and all x: ‖Σ_{k<s}[∇ℓ_i(x^{(t,k)}) − ∇ℓ_i(x^t)]‖ ≤ κηC(s,2)L_i‖∇ℓ_i(x^t)‖, "
    "x^{(t,k)} the local GD iterates on ℓ_i(·; ξ) with one sample ξ.",
    space=Space(
        [
            Integer("d", 1, 2),
            Real("lam", -1.0, 1.0, size=2, closed=(True, True), special=(-1.0, 1.0, 0.0)),
            Real("rot", -1.0, 1.0, closed=(True, True), special=(0.0,)),
            Real("g0", -1.0, 1.0, size=2, special=(0.0, 1.0)),
            Real("log_x", -8.0, 1.3, closed=(True, True), special=(0.0,)),
            Integer("s", 1, 40),
        ]
    ),
    margin=_lemma3_margin,
    exact=_lemma3_exact,
    tolerance=1e-12,
    expected="holds",
    reading=Reading(
        quote="Lemma 3 (Lemma 1 in [18]). For s ≥ 1, we have for all x ∈ ℝ^d: "
        "‖Σ_{k<s}[∇ℓ_i(x^{(t,k)}) − ∇ℓ_i(x^t)]‖₂ ≤ κηC(s,2)L_i‖∇ℓ_i(x^t)‖₂.",
        hypotheses=(
            Hypothesis(
                "ℓ_i with L_i-Lipschitz gradient (Assumption 1), local GD on one sample",
                "quadratic ℓ_i with Hessian eigenvalues in [−L_i, L_i] "
                "(non-convex allowed), d ≤ 2, ηL_i ≤ 20, s ≤ 40",
            ),
        ),
        interpretation="As printed, with κ := κ_i (the strongest form); quadratics are the "
        "extremal case of the smoothness bound.",
    ),
    notes="Quadratic ℓ_i with Hessian H (eigenvalues lam·L_i in [−L_i, L_i], non-convex "
    "allowed; rational rotation in d = 2), so ∇ℓ at the k-th iterate is (I − ηH)^k g₀ and only "
    "x = ηL_i and H/L_i matter (x up to 20). With κ := κ_i, the strongest form (κ = max_i κ_i "
    "is larger). Relative margin; equality at H = −L_iI (tight), hence the exact margin in "
    "rationals on the squared sides.",
)


def _remark2a_margin(inst: Instance) -> float:
    s = inst["s"]
    x1 = 10.0 ** inst["log_x"]
    x2 = x1 * (1.0 + inst["step"])
    k1, k2 = kappa(s, x1), kappa(s, x2)
    if s == 1:
        return 0.0
    return rel(k2, k1)


def _remark2a_exact(inst: Instance) -> ExactMargin:
    s = inst["s"]
    if s == 1:
        return Fraction(0), "κ := 0 for s = 1"
    x1 = fr(10.0 ** inst["log_x"])
    x2 = x1 * (1 + fr(inst["step"]))
    k1, k2 = kappa_printed(s, x1), kappa_printed(s, x2)
    return (k2 - k1) / max(k1, k2), "exact rationals (eq. 4 as printed)"


register_claim(
    "fedpbc:remark2-a",
    "§V-B",
    "Remark 2 / l.217: κ is non-decreasing in η",
    (217, 221),
    "For any s, κ = ((1 + ηL)^s − 1 − sηL)/(C(s,2)(ηL)²) is non-decreasing in η > 0.",
    space=Space(
        [
            Integer("s", 1, 40),
            Real("log_x", -8.0, 1.0, closed=(True, True)),
            Real("step", 0.0, 10.0, special=(1.0,)),
        ]
    ),
    margin=_remark2a_margin,
    exact=_remark2a_exact,
    tolerance=1e-12,
    expected="holds",
    notes="x = ηL; margin (κ(x₂) − κ(x₁))/κ(x₂) for x₂ = x₁(1 + step). The float κ uses the "
    "positive series Σ_{j≥2}C(s,j)x^{j−2}/C(s,2) (eq. 4 literally cancels catastrophically at "
    "small x, which would fake non-monotonicity); the exact margin evaluates eq. (4) as "
    "printed in rationals.",
)

register_claim(
    "fedpbc:remark2-b",
    "§V-B",
    "Remark 2: s = 1 ⇒ κ = 0",
    (221, 221),
    "When s = 1, κ = 0.",
    reason="a convention, not a statement: eq. (4) at s = 1 is 0/0 ((1 + x) − 1 − x over "
    "C(1,2)x² = 0); this module's kappa() returns 0 for s = 1, as Remark 2 and Lemma 3 "
    "(whose left side is 0 for s = 1) need.",
)


def _remark2c_margin(inst: Instance) -> float:
    k = kappa(inst["s"], 10.0 ** inst["log_x"])
    return (k - 1.0) / k


def _remark2c_exact(inst: Instance) -> ExactMargin:
    k = kappa_printed(inst["s"], fr(10.0 ** inst["log_x"]))
    return (k - 1) / k, "exact rationals (eq. 4 as printed)"


register_claim(
    "fedpbc:remark2-c",
    "§V-B",
    "Remark 2: s ≥ 2 ⇒ κ ≥ 1",
    (221, 221),
    "For s ≥ 2, κ ≥ 1.",
    space=Space([Integer("s", 2, 60), Real("log_x", -8.0, 1.0, closed=(True, True))]),
    margin=_remark2c_margin,
    exact=_remark2c_exact,
    tolerance=1e-12,
    expected="holds",
    notes="Margin (κ − 1)/κ; equality at s = 2 (κ = 1 for every η). κ's series has positive "
    "coefficients and constant term 1.",
)


def _remark2d_margin(inst: Instance) -> float:
    s, c = inst["s"], 10.0 ** inst["log_c"]
    x = inst["theta"] * c / s  # ηL ≤ c/s
    bound = math.expm1(c) - c
    bound = bound / (c * c / 2.0) if c > 1e-4 else 1.0 + c / 3.0 + c * c / 12.0 + c**3 / 60.0
    return rel(bound, kappa(s, x))


def _remark2d_exact(inst: Instance) -> ExactMargin:
    import mpmath

    s, c = inst["s"], fr(10.0 ** inst["log_c"])
    k = kappa_printed(s, fr(inst["theta"]) * c / s)
    with mpmath.workdps(60):
        cm = mpmath.mpf(c.numerator) / c.denominator
        bound = (mpmath.exp(cm) - 1 - cm) / (cm * cm / 2)
        km = mpmath.mpf(k.numerator) / k.denominator
        return mp_to_fraction((bound - km) / bound), "exact κ, mpmath 60 digits (e^c)"


register_claim(
    "fedpbc:remark2-d",
    "§V-B",
    "Remark 2: η ≤ c/(sL) ⇒ κ ≤ (e^c − 1 − c)/(c²/2)",
    (221, 221),
    "If η ≤ c/(sL) then κ ≤ (e^c − 1 − c)/(c²/2).",
    space=Space(
        [
            Integer("s", 2, 200),
            Real("log_c", -6.0, 1.5, closed=(True, True), special=(0.0,)),
            Real("theta", 0.0, 1.0, closed=(False, True), special=(1.0,)),
        ]
    ),
    margin=_remark2d_margin,
    exact=_remark2d_exact,
    tolerance=1e-12,
    expected="holds",
    notes="η = θc/(sL), θ ∈ (0, 1]. Termwise C(s,j)(c/s)^{j−2}/C(s,2) ≤ 2c^{j−2}/j!, so the "
    "bound holds, tight as s → ∞ at θ = 1. Relative margin; the exact margin evaluates eq. (4) in "
    "rationals and e^c at 60 digits.",
)

register_claim(
    "fedpbc:remark2-e",
    "§V-B",
    "Remark 2: the convention √2/(κsL) = ∞ for s = 1",
    (221, 221),
    "With √2/(κsL) := ∞ for s = 1, min{1/(2s), √2/(κsL), (1 − √ρ)/(6√(2ρ)Ls²)} = "
    "min{1/(2s), (1 − √ρ)/(6√(2ρ)Ls²)}.",
    reason="a convention for s = 1 (where it is a tautology); for s ≥ 2 the middle term can be "
    "the smallest (κL > 2√2 and small ρ), which the remark does not claim otherwise.",
)


def _lemma4_sides(
    h: list, b: list, x: list, eta: Any, s: int, sigma2: Any, delta: Any, one: Any, kap: Any
) -> tuple[Any, Any] | None:
    """(RHS, LHS) of Lemma 4 for ℓ_i(x; ξ) = ½h_ix² − b_ix + ξx, d = 1, E[ξ] = 0, E[ξ²] = σ²,
    the same ξ for all s local steps; β² = C̄ + δ, ζ² the smallest value for that β."""
    m = len(h)
    zero = 0 * one
    hb = sum(h, zero) / m
    bb = sum(b, zero) / m
    if hb == 0:
        return None
    c = [(hi - hb) / hb for hi in h]
    e = [ci * bb - (bi - bb) for ci, bi in zip(c, b, strict=True)]
    Cb = sum((ci * ci for ci in c), zero) / m
    f = sum((ci * ei for ci, ei in zip(c, e, strict=True)), zero) / m
    eb = sum((ei * ei for ei in e), zero) / m
    beta2 = Cb + delta
    if f == 0:
        zeta2 = eb
    elif delta == 0:
        return None  # no finite ζ for this β: the lemma is void
    else:
        zeta2 = eb + f * f / delta
    L = max(abs(hi) for hi in h)
    if isinstance(one, float):
        # A^s − 1 and S = Σ_{k<s}A^k = (1 − A^s)/(ηh) without cancellation at small ηh
        D = [
            math.expm1(s * math.log1p(-eta * hi))
            if abs(eta * hi) < 0.5
            else (1.0 - eta * hi) ** s - 1.0
            for hi in h
        ]
        S = [-Di / (eta * hi) if eta * hi != 0 else float(s) for Di, hi in zip(D, h, strict=True)]
    else:
        A = [one - eta * hi for hi in h]
        D = [a**s - 1 for a in A]
        S = [sum((a**k for k in range(s)), zero) for a in A]
    xbar = sum(x, zero) / m
    # x̄^{t+1} − x̄^t = mean_i[(A_i^s − 1)x_i + ηS_ib_i] − (η/m)Σ_iS_iξ_i
    step = (
        sum((Di * xi + eta * Si * bi for Di, xi, Si, bi in zip(D, x, S, b, strict=True)), zero) / m
    )
    var = eta * eta / (m * m) * sigma2 * sum((Si * Si for Si in S), zero)
    # F(x̄ + step) − F(x̄) = step·(h̄(2x̄ + step)/2 − b̄), plus h̄/2 times the noise variance
    lhs = step * (hb * (2 * xbar + step) / 2 - bb) + hb * var / 2
    C = kap * kap * L * L + 2 * L * (one + kap * kap * L * L / 4)
    grad = hb * xbar - bb
    cons = sum(((xi - xbar) ** 2 for xi in x), zero) / m
    rhs = (
        sigma2 * eta**2 * s**2 * (kap * kap * L * L + 2 * L * (one / m + kap * kap * L * L / 4))
        + 3 * zeta2 * eta**2 * s**2 * C
        - (s * eta / 4 - 3 * eta**2 * s**2 * (beta2 + 1) * C) * grad * grad
        + (eta * s * L * L + 3 * eta**2 * s**2 * L * L * C) * cons
    )
    return rhs, lhs


def _lemma4_inputs(inst: Instance) -> tuple[list, list, list, float, int, float, float]:
    s = inst["s"]
    scale = 10.0 ** inst["log_h"]
    h = [scale * v for v in np.asarray(inst["h"]).tolist()]
    eta = inst["theta"] / (2 * s)
    b = np.asarray(inst["b"]).tolist()
    x = np.asarray(inst["x"]).tolist()
    return h, b, x, eta, s, inst["sigma2"], inst["delta"]


def _lemma4_where(inst: Instance) -> bool:
    h = np.asarray(inst["h"])
    return bool(h.mean() != 0.0)


def _lemma4_margin(inst: Instance) -> float:
    h, b, x, eta, s, sigma2, delta = _lemma4_inputs(inst)
    L = max(abs(v) for v in h)
    out = _lemma4_sides(h, b, x, eta, s, sigma2, delta, 1.0, kappa(s, eta * L))
    if out is None:
        return 1.0
    rhs, lhs = out
    if not (math.isfinite(rhs) and math.isfinite(lhs)):
        raise NumericalError("overflow in Lemma 4's sides")
    return rel(rhs, lhs)


def _lemma4_exact(inst: Instance) -> ExactMargin:
    h, b, x, eta, s, sigma2, delta = _lemma4_inputs(inst)
    hf, bf, xf = frs(h), frs(b), frs(x)
    etaf = fr(eta)
    L = max(abs(v) for v in hf)
    kap = Fraction(0) if s == 1 else (Fraction(1) if L == 0 else kappa_printed(s, etaf * L))
    out = _lemma4_sides(hf, bf, xf, etaf, s, fr(sigma2), fr(delta), Fraction(1), kap)
    if out is None:
        return Fraction(1), "void (no finite ζ)"
    rhs, lhs = out
    return (rhs - lhs) / (max(abs(rhs), abs(lhs)) or 1), "exact rationals"


register_claim(
    "fedpbc:lemma4",
    "§V-B",
    "Lemma 4 (descent lemma)",
    (227, 231),
    "Under Assumptions 1, 2, 4 and η ≤ 1/(2s): E[F(x̄^{t+1}) − F(x̄^t) | F^t] ≤ "
    "σ²η²s²[κ²L² + 2L(1/m + κ²L²/4)] + 3ζ²η²s²𝔆 − {sη/4 − 3η²s²(β² + 1)𝔆}‖∇F(x̄^t)‖² + "
    "{ηsL² + 3η²s²L²𝔆}(1/m)Σ‖x_i^t − x̄^t‖².",
    space=Space(
        [
            Integer("m", 1, 6),
            Real("h", -1.0, 1.0, size="m", closed=(True, True), special=(1.0, -1.0, 0.5)),
            Real("log_h", -3.0, 3.0, closed=(True, True), special=(0.0,)),
            Real("b", -10.0, 10.0, size="m", special=(0.0, 1.0)),
            Real("x", -10.0, 10.0, size="m", special=(0.0, 1.0)),
            Real("theta", 0.0, 1.0, closed=(False, True), special=(1.0,)),
            Integer("s", 1, 12),
            Real("sigma2", 0.0, 10.0, closed=(True, True), special=(0.0,)),
            Real("delta", 0.0, 100.0, closed=(True, True), special=(0.0, 1e-6)),
        ],
        where=_lemma4_where,
    ),
    margin=_lemma4_margin,
    exact=_lemma4_exact,
    tolerance=1e-10,
    expected="holds",
    reading=Reading(
        quote="Lemma 4 (Descent Lemma). Suppose Assumptions 1, 2, and 4 hold, under a choice "
        "of the learning rate η ≤ 1/(2s), … E[F(x̄^{t+1}) − F(x̄^t) | F^t] ≤ σ²η²s²[κ²L² + "
        "2L(1/m + κ²L²/4)] + 3ζ²η²s²𝔆 − {sη/4 − 3η²s²(β² + 1)𝔆}‖∇F(x̄^t)‖² + {ηsL² + "
        "3η²s²L²𝔆}(1/m)Σ_i‖x_i^t − x̄^t‖².",
        hypotheses=(
            Hypothesis(
                "Assumptions 1, 2, 4; η ≤ 1/(2s)",
                "d = 1 quadratics with "
                "heterogeneous, possibly negative curvatures, noise of variance σ² "
                "fixed over the s local steps, the smallest ζ² for each β, η = θ/(2s)",
            ),
        ),
        interpretation="As printed, for any client models x_i^t (one step, conditional on F^t).",
    ),
    notes="d = 1 quadratics ℓ_i(x; ξ) = ½h_ix² − b_ix + ξx with heterogeneous, possibly "
    "negative curvatures h_i (L = max|h_i|), any client models x_i^t, η = θ/(2s). x̄^{t+1} does "
    "not depend on A^t (W is doubly stochastic), so the LHS is a closed form in the local "
    "steps (x̄^{t+1} affine in ξ). Assumption 4: ∇F_i − ∇F = c_i∇F + e_i with c_i = "
    "(h_i − h̄)/h̄; for β² = mean c_i² + δ the smallest ζ² is mean e_i² + (mean c_ie_i)²/δ "
    "(identical h_i: β = 0, ζ² = mean e_i²). h̄ = 0 with heterogeneous h admits no (β, ζ) and "
    "is excluded. Relative margin; exact in rationals.",
)
