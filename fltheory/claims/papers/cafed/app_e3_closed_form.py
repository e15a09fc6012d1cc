"""CA-Fed (ToN) App. E3 — eqs. (225)–(227): the identities at the optimum (holds) and the
closed form of θ* from (227), whose denominator vanishes at some optima (refuted).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:eq225-227-closed-form").expected
'refuted'
"""

from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.explain import Explanation, Step
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed import _weights_verify as V
from fltheory.claims.papers.cafed._weights import (
    EQ224_NOTES,
    H212,
    MOVES212,
    MP_DIGITS,
    TINY,
    as_floats,
    multipliers212,
    opt212,
    opt212_explained,
    problem_exact,
    problem_floats,
    quantities212,
    space212,
    to_mpf,
)
from fltheory.claims.space import Instance
from fltheory.errors import NumericalError


def _distinct_pi(inst: Instance) -> bool:
    return bool(np.unique(as_floats(inst["pi"])).size == int(inst["n"]))


def _active_sums(q: np.ndarray, pi: np.ndarray, s: np.ndarray) -> tuple[float, float, float, float]:
    """(S₀, S₁, S₂, S₀S₂ − S₁²) over the support, the last by Lagrange's identity
    ½ΣΣ(π_i − π_j)²/(A_iA_j) (no cancellation)."""
    on = q > 0.0
    a, p = 1.0 / s[on], pi[on]
    if np.any(a * p**2 < TINY) or not np.all(np.isfinite(a * p**2)):
        raise NumericalError("π_k²/A_kk leaves double precision on the support")
    det = 0.5 * float(np.sum(np.outer(a, a) * (p[:, None] - p[None, :]) ** 2))
    return float(a.sum()), float(a @ p), float(a @ p**2), det


def _eq225_identities(inst: Instance) -> float:
    pi, s, v, Q = problem_floats(inst)
    q = opt212(pi, s, v, Q)
    iota, theta = multipliers212(q, pi, s, v, Q)
    sstar = 1.0 / float(pi @ q)
    s0, s1, s2, det = _active_sums(q, pi, s)
    # θ* = (B − ½q*ᵀAq*)/Q cancels: its rounding is ~ε(B + ½q*ᵀAq*)/Q, part of its size
    theta_size = abs(theta) + (v + 0.5 * float(s @ (q * q))) / Q
    residuals = [
        # (225): ι s S₂ − θ s S₁ = 1
        abs(iota * sstar * s2 - theta * sstar * s1 - 1.0)
        / (abs(iota * sstar * s2) + theta_size * sstar * s1 + 1.0),
        # (226): ι S₁ = Q + θ S₀
        abs(iota * s1 - Q - theta * s0) / (abs(iota * s1) + Q + theta_size * s0),
        # (227), cross-multiplied: θ s [S₀S₂ − S₁²] = S₁ − Q s S₂
        abs(theta * sstar * det - (s1 - Q * sstar * s2))
        / (theta_size * sstar * s0 * s2 + s1 + Q * sstar * s2),
    ]
    return -max(residuals)


register_claim(
    "cafed:eq225-227-closed-form-identities",
    "App. E3",
    "eqs. (225)–(227) as identities",
    (1445, 1463),
    "At the optimum, with s* = 1/πᵀq* and the active set, ι*s*Σπ²/A − θ*s*Σπ/A = 1 (225), "
    "ι* = (Q + θ*Σ1/A)/Σπ/A (226) and θ*s*[(Σ1/A)(Σπ²/A) − (Σπ/A)²] = Σπ/A − Qs*Σπ²/A "
    "(227, cross-multiplied).",
    space=space212("log"),
    margin=_eq225_identities,
    tolerance=1e-8,
    notes=EQ224_NOTES + " Residuals relative to the sum of the terms' magnitudes (θ*'s "
    "counted with its rounding error ε(B + ½q*ᵀAq*)/Q: it is a difference); (227) "
    "cross-multiplied so that it stays meaningful where its denominator vanishes. TRUE "
    "(the algebra of (225)–(227) re-derived here agrees with the print).",
    expected="holds",
    reading=Reading(
        quote="(225) ι*s*Σπ_k²/A_kk − θ*s*Σπ_k/A_kk = 1; (226) ι* = (Q + θ*Σ1/A_kk)/"
        "Σπ_k/A_kk; (227) θ* = [Σπ_k/A_kk − Qs*Σπ_k²/A_kk]/(s*[(Σ1/A_kk)(Σπ_k²/A_kk) − "
        "(Σπ_k/A_kk)²]) (sums over k ∉ X)",
        hypotheses=H212,
        interpretation="The three relations hold at the optimum ((227) cross-multiplied, so "
        "that it stays meaningful where its denominator vanishes).",
    ),
)


def _eq227_determines(inst: Instance) -> float:
    pi, s, v, Q = problem_floats(inst)
    q = opt212(pi, s, v, Q)
    s0, _, s2, det = _active_sums(q, pi, s)
    return det / (s0 * s2) if det > 0.0 else -1.0


def _eq227_determines_exact(inst: Instance) -> tuple[Any, str]:
    pi, s, v, Q = problem_exact(inst)
    q, _, _, _ = opt212_explained(pi, s, v, Q)
    on = [k for k in range(len(q)) if q[k] > 0]
    s0 = sum(1 / s[k] for k in on)
    s1 = sum(pi[k] / s[k] for k in on)
    s2 = sum(pi[k] ** 2 / s[k] for k in on)
    det = s0 * s2 - s1**2
    return (det / (s0 * s2) if det > 0 else Fraction(-1)), (
        "exact rationals on the support of the 50-digit brute-force optimum"
    )


def _eq227_explain(inst: Instance) -> Explanation:
    pi, s, v, Q = problem_exact(inst)
    args = {"pi": pi, "A": s, "B": v, "Q": Q}
    result = V.verify_eq225_227_closed_form(**args)
    q, _, _, steps = opt212_explained(pi, s, v, Q)
    on = [k for k in range(len(q)) if q[k] > 0]
    s0 = sum(1 / s[k] for k in on)
    s1 = sum(pi[k] / s[k] for k in on)
    s2 = sum(pi[k] ** 2 / s[k] for k in on)
    import mpmath as mp

    with mp.workdps(MP_DIGITS):
        sstar = 1 / mp.fsum(to_mpf(pi[k]) * q[k] for k in on)
        numerator = to_mpf(s1) - to_mpf(Q) * sstar * to_mpf(s2)
    return Explanation(
        quantities=quantities212(pi, s, v, Q),
        steps=(
            *steps,
            Step("s*", "1/πᵀq*", sstar),
            Step("S₀, S₁, S₂", "Σ_{k∉X}1/A_kk, Σ_{k∉X}π_k/A_kk, Σ_{k∉X}π_k²/A_kk", (s0, s1, s2)),
            Step("numerator of (227)", "S₁ − Qs*S₂", numerator),
        ),
        lhs=Step("S₀S₂ − S₁²", "the denominator of (227) over s*", result["lhs"]),
        relation="≠",
        rhs=Step("0", "what a closed form for θ* needs", 0),
        holds=result["holds"],
        verify_args=args,
        note="With one client on the support, or equal π_k on it, (225) and (226) are the same "
        "equation and (227) reads 0/0; θ* = (B − ½q*ᵀAq*)/Q (from ∂L/∂s = 0) still fixes it.",
    )


register_claim(
    "cafed:eq225-227-closed-form",
    "App. E3",
    "eq. (227), 'the closed-form solution for θ*'",
    (1445, 1463),
    "Eq. (227) gives θ* in closed form: its denominator s*[(Σ_{k∉X}1/A_kk)(Σπ_k²/A_kk) − "
    "(Σπ_k/A_kk)²] is non-zero at the optimum.",
    space=space212("log", n_min=2, where=_distinct_pi),
    margin=_eq227_determines,
    exact=_eq227_determines_exact,
    notes="Margin: the relative Cauchy–Schwarz gap [S₀S₂ − S₁²]/(S₀S₂) over the support of the "
    "certified optimum (Lagrange's identity, no cancellation), −1 where it is 0. FALSE: "
    "it is 0 whenever the optimum keeps one client (common for large B) or the active "
    "π_k are all equal, and then (227) reads 0/0 although θ* = (B − ½q*ᵀAq*)/Q is "
    "determined. Also not a closed form as printed: it contains s* = 1/πᵀq* (README); "
    "fltheory.optimize.problem212 re-derives one (a quadratic in the threshold). "
    "N ≥ 2 and distinct π_k: with one client there is nothing to aggregate, and equal "
    "π_k (the other way (227) is 0/0) would let the witness look degenerate; the "
    "single-client support is the robust case. Counterexample (moderate): π = (0.5, "
    "0.9), A = 1, B = 10, Q = 1: q* = (0, 1).",
    expected="refuted",
    simplify=MOVES212,
    explain=_eq227_explain,
    verify=V.verify_eq225_227_closed_form,
    reading=Reading(
        quote="replacing (226) in (225), we derive the closed-form solution for θ*: θ* = "
        "[Σ_{k∉X}π_k/A_kk − Qs*Σ_{k∉X}π_k²/A_kk] / (s*[(Σ_{k∉X}1/A_kk)(Σ_{k∉X}π_k²/A_kk) − "
        "(Σ_{k∉X}π_k/A_kk)²]) (227)",
        hypotheses=(
            *H212[:2],
            Hypothesis(
                "N ≥ 2 clients, π_k ∈ (0, 1], ‖q‖₁ = Q > 0",
                "N ∈ [2, 10], π ∈ (0, 1]^N with distinct entries, Q ∈ [1e-3, 1e3]",
            ),
        ),
        interpretation="(227) determines θ* at the optimum, for every instance of (212): "
        "App. E3 presents it as the closed-form solution 'for completeness', with no "
        "condition on the active set X. Its denominator vanishes (Cauchy–Schwarz with "
        "equality) when the optimum keeps one client — what large B gives, and B = υ "
        "contains MQ/4·Σ(η_t² + 1/t²), large for product chains (M = 2^N states) — or "
        "when the kept clients have equal π_k.",
        alternatives="The identities (225)–(227) themselves hold at the optimum "
        "(cafed:eq225-227-closed-form-identities); θ* = (B − ½q*ᵀAq*)/Q from ∂L/∂s = 0 is "
        "always defined.",
    ),
    finding=Finding(
        "error",
        "(227)'s denominator S₀S₂ − S₁² is 0 — (227) reads 0/0 — whenever the optimum keeps "
        "a single client (e.g. large B) or the kept clients have equal π_k",
        severity="step",
        survives="θ* = (B − ½q*ᵀAq*)/Q (from ∂L/∂s = 0) is always determined, and nothing "
        "else in the paper uses (227); (227) also contains s* = 1/πᵀq*, so it is not a "
        "closed form as printed",
    ),
)
