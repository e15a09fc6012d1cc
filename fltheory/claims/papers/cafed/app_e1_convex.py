"""CA-Fed (ToN) App. E1 — problem (212) is convex, eqs. (207)–(214): J(q) = (½qᵀAq + B)/πᵀq
+ C is convex on the slice {q ≥ 0, πᵀq > 0, ‖q‖₁ = Q} and equals the perspective form of
eq. (213).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:appe1-convex").expected
'holds'
"""

from collections.abc import Callable
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.explain import dec
from fltheory.claims.finding import Hypothesis, Reading
from fltheory.claims.papers.cafed._weights import (
    CONVEXITY_NOTES,
    ZETA,
    Hessian,
    convexity_exact,
    convexity_margin,
    dec_list,
    hessian,
    opt_fr,
    opt_fraction_code,
    problem_floats,
    rel,
    s_of,
    space212,
    unit_sum,
)
from fltheory.claims.space import Instance, Simplex


def _opt_hessian(pi: np.ndarray, s: np.ndarray, v: float) -> Callable[[np.ndarray], Hessian]:
    return hessian(pi, s, v, 1.0)


def _appe1_margin(inst: Instance) -> float:
    pi, s, v, Q = problem_floats(inst)
    gap = convexity_margin(
        lambda q: opt_fraction_code(q, pi, s, v), _opt_hessian(pi, s, v), inst, Q
    )
    # eq. 213: J(y, s) = s·K(y/s) with y = q/πᵀq, s = 1/πᵀq equals J(q)
    q = Q * unit_sum(inst["w1"])
    sig = 1.0 / float(pi @ q)
    y = sig * q
    persp = 0.5 * float(s @ (y * y)) / sig + v * sig
    identity = abs(rel(persp, opt_fraction_code(q, pi, s, v)))
    return min(gap, 1e-12 - identity)


def _appe1_exact(inst: Instance) -> tuple[Any, str]:
    pi, s = dec_list(inst["pi"]), dec_list(s_of(inst))
    v, Q = dec(10.0 ** float(inst["log_v"])), dec(10.0 ** float(inst["log_Q"]))
    f = lambda q: opt_fr(q, pi, s, v)  # noqa: E731
    return convexity_exact(f, _opt_hessian(*problem_floats(inst)[:3]), inst, float(Q))


register_claim(
    "cafed:appe1-convex",
    "App. E1",
    "problem (212) is convex, eqs. (207)–(214)",
    (1359, 1395),
    "J(q) = (½qᵀAq + B)/πᵀq + C, A = diag(s) ⪰ 0, B > 0, is convex on {q ≥ 0, πᵀq > 0, "
    "‖q‖₁ = Q}, and equals the perspective form s·K(y/s) + C of eq. 213.",
    space=space212("zeros", Simplex("w1", "n"), Simplex("w2", "n"), ZETA),
    margin=_appe1_margin,
    exact=_appe1_exact,
    notes=CONVEXITY_NOTES + "s ∈ [1e-6, 1e6] with exact zeros (A ⪰ 0, not only s ∝ π as the "
    "old test drew), v ∈ [1e-6, 1e6], Q ∈ [1e-3, 1e3]; plus the identity of eq. 213 "
    "(relative error ≤ 1e-12). TRUE: quad-over-linear plus B/(linear).",
    expected="holds",
    reading=Reading(
        quote="the objective function J(y, s) = s·K(y/s) + C in (213) is the perspective of "
        "the convex function K(q) + C, and is therefore convex [40, pp. 89–90]. Moreover, the "
        "constraints in (214b)–(214e) define a convex set, and then the optimization problem "
        "defined by (214a)–(214e) is convex.",
        hypotheses=(
            Hypothesis(
                "A = Σ ⪰ 0 diagonal (σ_k = 0 allowed), B = υ > 0",
                "A_kk ∈ {0} ∪ [1e-6, 1e6], B ∈ [1e-6, 1e6]",
            ),
            Hypothesis("π_k ∈ (0, 1], ‖q‖₁ = Q", "N ∈ [1, 10], Q ∈ [1e-3, 1e3]"),
        ),
        interpretation="J convex on the slice in q itself (quad-over-linear plus B/linear), "
        "and the identity (213) with the perspective form.",
    ),
)
