"""CA-Fed (ToN) §III-C — problem (14): "a convex optimization problem" in q (refuted, with
Prop. 2: χ² is not convex on the slice), and convex in the perspective variables of App. E1
(eqs. 213–214, holds).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:problem14-convex-in-q").expected
'refuted'
"""

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.explain import Explanation, Quantity, Step, dec
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed import _weights_verify as V
from fltheory.claims.papers.cafed._weights import (
    CONVEXITY_NOTES,
    LOG_Q,
    LOG_V,
    ZETA,
    Hessian,
    chi2,
    chi2_fr,
    combined_moves,
    convexity_exact,
    convexity_margin,
    convexity_steps,
    convexity_witness,
    dec_list,
    decimal_moves,
    fr_unit,
    frel,
    hessian,
    log_moves,
    mix,
    opt_fr,
    opt_fraction_code,
    pi_param,
    pis,
    problem_exact,
    rel,
    require_finite,
    s_of,
    unit_sum,
)
from fltheory.claims.space import Instance, Integer, Real, Simplex, Space

P14_PARAMS: list[Any] = [
    Integer("n", 1, 8),
    pi_param(),
    Simplex("alpha", "n"),
    Real("log_s", -6.0, 6.0, size="n", closed=(True, True), special=(0.0,)),
    Real("zero", 0.0, 1.0, size="n", closed=(True, True), special=(0.0,)),
    LOG_V,
    LOG_Q,
    Real("log_gamma", -6.0, 12.0, closed=(True, True), special=(0.0,)),
    Simplex("w1", "n"),
    Simplex("w2", "n"),
    ZETA,
]


def _p14_parts(inst: Instance) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float, float]:
    return (
        pis(inst),
        unit_sum(inst["alpha"]),
        s_of(inst),
        10.0 ** float(inst["log_v"]),
        10.0 ** float(inst["log_Q"]),
        10.0 ** float(inst["log_gamma"]),
    )


def _p14_objective(q: np.ndarray, pi, alpha, s, v, gamma) -> float:
    """ε̄_opt + ε̄_bias of eq. (14) up to constants, through the library (Problem14.objective
    computes exactly this: opt_fraction + Γ·χ²)."""
    return opt_fraction_code(q, pi, s, v) + gamma * chi2(alpha, pi, q)


def _p14_hessian(inst: Instance) -> Callable[[np.ndarray], Hessian]:
    pi, alpha, s, v, _, gamma = _p14_parts(inst)
    return hessian(pi, s, v, 1.0, alpha, gamma)


def _p14_in_q(inst: Instance) -> float:
    pi, alpha, s, v, Q, gamma = _p14_parts(inst)
    f = lambda q: _p14_objective(q, pi, alpha, s, v, gamma)  # noqa: E731
    return convexity_margin(f, _p14_hessian(inst), inst, Q, floor=gamma)


def _p14_exact_parts(inst: Instance) -> tuple[Callable[[list[Any]], Any], dict[str, Any]]:
    """f(q) = (½qᵀΣq + υ)/πᵀq + Γχ²(q) in Fractions, and its parameters as exact decimals."""
    parts: dict[str, Any] = {
        "pi": dec_list(inst["pi"]),
        "alpha": fr_unit(inst["alpha"]),
        "sigma": problem_exact(inst)[1],
        "upsilon": dec(10.0 ** float(inst["log_v"])),
        "gamma": dec(10.0 ** float(inst["log_gamma"])),
        "Q": dec(10.0 ** float(inst["log_Q"])),
    }

    def f(q: list[Any]) -> Any:
        opt = opt_fr(q, parts["pi"], parts["sigma"], parts["upsilon"])
        return opt + parts["gamma"] * chi2_fr(parts["alpha"], parts["pi"], q)

    return f, parts


def _p14_in_q_exact(inst: Instance) -> tuple[Any, str]:
    f, parts = _p14_exact_parts(inst)
    return convexity_exact(
        f, _p14_hessian(inst), inst, float(parts["Q"]), floor=float(parts["gamma"])
    )


def _p14_explain(inst: Instance) -> Explanation:
    """The witness in the paper's quantities: π, α, Σ = diag(Σ_kk), υ, Γ, Q, two points of the
    slice and ζ; the objective of (14) up to its constant ψ + φ/ln(1/λ) (it cancels)."""
    f, parts = _p14_exact_parts(inst)
    pi = parts["pi"]
    points, lhs, rhs = convexity_witness(f, _p14_hessian(inst), inst, parts["Q"])
    q, q2, zeta = points
    return Explanation(
        quantities=(
            Quantity("π", "availability of each client", tuple(pi)),
            Quantity("α", "target importance", tuple(parts["alpha"])),
            Quantity("Σ_kk", "Σ = diag(2(E+1)σ_k²π_kΣ_tη_t²) of Theorem 2", tuple(parts["sigma"])),
            Quantity("υ", "the constant υ of Theorem 2", parts["upsilon"]),
            Quantity("Γ", "heterogeneity (eq. 9)", parts["gamma"]),
            Quantity("Q", "‖q‖₁ of the slice", parts["Q"]),
            Quantity(
                "f",
                "objective of (14) less its constant ψ + φ/ln(1/λ)",
                "",
                "f(q) = (½qᵀΣq + υ)/πᵀq + Γ·χ²_{α‖p(q)}",
            ),
            Quantity("q", "first point (‖q‖₁ = Q)", tuple(q)),
            Quantity("q′", "second point (‖q′‖₁ = Q)", tuple(q2)),
            Quantity("ζ", "mixing weight", zeta),
        ),
        steps=convexity_steps(f, pi, points, "f"),
        lhs=Step("f(q_ζ)", "", lhs),
        relation="≤",
        rhs=Step("ζf(q) + (1 − ζ)f(q′)", "", rhs),
        holds=lhs <= rhs,
        verify_args={
            "pi": list(pi),
            "alpha": list(parts["alpha"]),
            "sigma": list(parts["sigma"]),
            "upsilon": parts["upsilon"],
            "gamma": parts["gamma"],
            "q": list(q),
            "q2": list(q2),
            "zeta": zeta,
        },
        note="ψ + φ/ln(1/λ(P)) does not depend on q on the slice: it cancels from both sides.",
    )


register_claim(
    "cafed:problem14-convex-in-q",
    "§III-C",
    "problem (14), 'a convex optimization problem'",
    (171, 181),
    "ε̄_opt(q) + ε̄_bias(q) = (½qᵀΣq + υ)/πᵀq + ψ + φ/ln(1/λ) + Γχ²(α‖p(q)) is convex on "
    "{q ≥ 0, ‖q‖₁ = Q}.",
    space=Space(P14_PARAMS),
    margin=_p14_in_q,
    exact=_p14_in_q_exact,
    simplify=combined_moves(
        log_moves(("log_s", "log_v", "log_Q", "log_gamma")),
        decimal_moves(("pi", "alpha", "w1", "w2"), ("alpha", "w1", "w2")),
    ),
    notes=CONVEXITY_NOTES
    + "(The objective is what Problem14.objective evaluates.) ε̄_bias = χ²Γ as in 002 "
    "l.146; the main text (000 l.159) drops Γ "
    "(Γ = 1 here, inside the space). FALSE: it follows from Prop. 2 being false "
    "(cafed:appd-prop2) once Γχ² dominates; Appendix D's proof of the claim rests on "
    "Prop. 2. fltheory.optimize.problem14 does not rely on it: it solves the "
    "perspective form (cafed:problem14-convex-reparametrised).",
    expected="refuted",
    explain=_p14_explain,
    verify=V.verify_problem14_convex_in_q,
    reading=Reading(
        quote="minimize ε̄_opt(q) + ε̄_bias(q); subject to q ≥ 0, ‖q‖₁ = Q. (14) In Appendix "
        "D we prove that (14) is a convex optimization problem, which can be solved with "
        "the method of Lagrange multipliers.",
        hypotheses=(
            Hypothesis(
                "ε̄_opt of (13): Σ = diag(2(E+1)σ_k²π_kΣ_tη_t²), υ > 0; ψ + "
                "φ/ln(1/λ) constant on the slice",
                "Σ_kk ∈ [1e-6, 1e6] (σ_k free), υ ∈ [1e-6, 1e6]; the constant cancels",
            ),
            Hypothesis(
                "ε̄_bias = χ²_{α‖p}·Γ (eq. 11), Γ ≥ 0 the heterogeneity (eq. 9)",
                "Γ ∈ [1e-6, 1e12]",
            ),
            Hypothesis("π_k ∈ (0, 1], α on the simplex, N clients", "π ∈ (0, 1]^N, N ∈ [1, 8]"),
            Hypothesis("the slice ‖q‖₁ = Q", "q = Q·w, Q ∈ [1e-3, 1e3]"),
        ),
        interpretation="A convex optimization problem in its variable q (convex objective "
        "on the convex feasible set), which is what App. D sets out to prove: ε̄_opt by "
        "App. E1 and ε̄_bias through Prop. 2 (cafed:appd-prop2).",
        alternatives="Convex after the change of variables y = q/πᵀq, σ = 1/πᵀq (the one "
        "App. E1 makes for ε̄_opt alone, not for (14)): "
        "cafed:problem14-convex-reparametrised (holds).",
    ),
    finding=Finding(
        "error",
        "ε̄_opt + Γχ² is not convex in q on the slice when Γχ² dominates (Prop. 2 fails); it "
        "is convex in the perspective variables (y, σ), so (14) is still solvable globally",
        severity="result",
    ),
)


def _p14_perspective(y: np.ndarray, sigma: float, pi, alpha, s, v, gamma) -> float:
    """J(y, σ) + Γ = ½Σs_k y_k²/σ + vσ + ΓΣα_k²/(π_k y_k) (eq. 213 plus χ² + 1 in y = p/π; the
    constant −Γ is left out: it cancels in every gap, and would cancel the χ² + 1 term)."""
    pos = alpha > 0.0
    bias = float(np.sum(alpha[pos] ** 2 / (pi[pos] * y[pos])))
    return float(0.5 * (s @ (y * y)) / sigma + v * sigma + gamma * bias)


def _p14_reparam(inst: Instance) -> float:
    pi, alpha, s, v, Q, gamma = _p14_parts(inst)
    zeta = float(inst["zeta"])
    pts = []
    for key in ("w1", "w2"):
        q = Q * unit_sum(inst[key])
        d = float(pi @ q)
        y, sigma = q / d, 1.0 / d
        value = _p14_perspective(y, sigma, pi, alpha, s, v, gamma)
        direct = _p14_objective(q, pi, alpha, s, v, gamma) + gamma
        require_finite(value, direct)
        identity = abs(rel(value, direct))  # eq. 213: the change of variables is exact
        pts.append((y, sigma, value, identity))
    (y1, s1, f1, e1), (y2, s2, f2, e2) = pts
    y_mid, s_mid = zeta * y1 + (1 - zeta) * y2, zeta * s1 + (1 - zeta) * s2
    chord = zeta * f1 + (1 - zeta) * f2
    value = _p14_perspective(y_mid, s_mid, pi, alpha, s, v, gamma)
    require_finite(chord, value)
    # πᵀy = 1 and 1ᵀy = Qσ are linear: the midpoint stays feasible (and y/σ on the slice)
    feasible = max(abs(float(pi @ y_mid) - 1.0), abs(float(y_mid.sum()) / (Q * s_mid) - 1.0))
    return min(rel(chord, value), -max(e1, e2, feasible) + 1e-12)


def _p14_reparam_exact(inst: Instance) -> tuple[Any, str]:
    pi, alpha = dec_list(inst["pi"]), fr_unit(inst["alpha"])
    s = problem_exact(inst)[1]
    v, Q, gamma = (dec(10.0 ** float(inst[k])) for k in ("log_v", "log_Q", "log_gamma"))
    zeta = dec(inst["zeta"])

    def J(y: list[Any], sig: Fraction) -> Any:
        quad = sum(a * b * b for a, b in zip(s, y, strict=True)) / (2 * sig)
        bias = sum(a * a / (p * b) for a, p, b in zip(alpha, pi, y, strict=True) if a)
        return quad + v * sig + gamma * bias

    pts = []
    for key in ("w1", "w2"):
        q = [Q * x for x in fr_unit(inst[key])]
        d = sum(a * b for a, b in zip(pi, q, strict=True))
        pts.append(([x / d for x in q], 1 / d))
    (y1, s1), (y2, s2) = pts
    chord = zeta * J(y1, s1) + (1 - zeta) * J(y2, s2)
    return frel(chord, J(mix(zeta, y1, y2), zeta * s1 + (1 - zeta) * s2)), "exact rationals"


register_claim(
    "cafed:problem14-convex-reparametrised",
    "§III-C / App. E1",
    "problem (14) in the perspective variables (eqs. 213–214)",
    (1375, 1395),
    "In y = q/πᵀq, σ = 1/πᵀq, problem (14) is convex: ½Σs_ky_k²/σ + vσ + Γ(Σα_k²/(π_ky_k) − 1) "
    "is jointly convex on {y ≥ 0, σ > 0, πᵀy = 1, 1ᵀy = Qσ}, equals ε̄_opt + ε̄_bias at "
    "q = y/σ, and the constraint set is the image of the slice.",
    space=Space(P14_PARAMS),
    margin=_p14_reparam,
    exact=_p14_reparam_exact,
    notes="Margin: min of the relative midpoint gap in (y, σ) (for the images of two slice "
    "points) and −(relative error of the identity J(y(q), σ(q)) = objective(q), and of "
    "the linear constraints at the midpoint) + 1e-12. TRUE: a perspective plus Σ "
    "c_k/y_k, both convex; this is the DCP/DPP form fltheory.optimize.problem14 "
    "compiles. As y/σ maps segments onto segments of the slice (a linear-fractional "
    "map), the objective in q is convex along every segment after a monotone "
    "reparametrisation, so every KKT point in q is a global minimum: this, not "
    "Prop. 2, is why the KKT check of fltheory.optimize.kkt is sufficient for (14).",
    expected="holds",
    reading=Reading(
        quote="Let us rewrite the problem by adding a variable s := 1/πᵀq and then replacing "
        "y := sq. […] the objective function J(y, s) = s·K(y/s) + C in (213) is the "
        "perspective of the convex function K(q) + C, and is therefore convex (App. E1, for "
        "ε̄_opt); applied here to the whole objective of (14).",
        hypotheses=(
            Hypothesis(
                "Σ ⪰ 0 diagonal (σ_k = 0 allowed), υ > 0, Γ ≥ 0",
                "Σ_kk ∈ {0} ∪ [1e-6, 1e6], υ ∈ [1e-6, 1e6], Γ ∈ [1e-6, 1e12]",
            ),
            Hypothesis("π_k ∈ (0, 1], α on the simplex, ‖q‖₁ = Q", "N ∈ [1, 8], Q ∈ [1e-3, 1e3]"),
        ),
        interpretation="The toolkit's reformulation (not a statement the paper makes for "
        "(14)): the sense in which (14) is a convex problem.",
    ),
)
