"""CA-Fed (ToN) App. D — Proposition 2: χ²(α‖p(q)) convex on the slice ‖q‖₁ = Q (refuted:
an error) and what the proof covers, equal availabilities π ∝ 1 (holds).

>>> from fltheory.claims import CLAIMS
>>> claim = CLAIMS.get("cafed:appd-prop2")
>>> claim.expected
'refuted'
>>> round(claim.margin(PROP2_COUNTEREXAMPLE), 4)
-0.0345
>>> claim.exact(PROP2_COUNTEREXAMPLE)[0] < 0
True
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
    PROP1_HYPOTHESES,
    ZETA,
    Hessian,
    chi2,
    chi2_fr,
    convexity_exact,
    convexity_margin,
    convexity_steps,
    convexity_witness,
    dec_list,
    decimal_moves,
    fr_unit,
    hessian,
    pi_param,
    pis,
    unit_sum,
)
from fltheory.claims.space import Instance, Integer, Real, Simplex, Space

# --- Proposition 2 ----------------------------------------------------------------------------

#: The inventory's exact counterexample to Prop. 2 (Q = 1, ζ = ½).
PROP2_COUNTEREXAMPLE: Instance = {
    "n": 3,
    "pi": np.array([1.0, 0.1, 0.1]),
    "alpha": np.array([2 / 9, 1 / 2, 5 / 18]),
    "w1": np.array([0.1, 0.1, 0.8]),
    "w2": np.array([0.45, 0.15, 0.4]),
    "zeta": 0.5,
}


def _chi2_hessian(alpha: np.ndarray, pi: np.ndarray) -> Callable[[np.ndarray], Hessian]:
    return hessian(pi, np.zeros(pi.size), 1.0, 0.0, alpha, 1.0)


def _prop2_margin(inst: Instance) -> float:
    alpha, pi = unit_sum(inst["alpha"]), _pi_of(inst)
    return convexity_margin(lambda q: chi2(alpha, pi, q), _chi2_hessian(alpha, pi), inst, floor=1.0)


def _prop2_exact(inst: Instance) -> tuple[Any, str]:
    alpha, pi = fr_unit(inst["alpha"]), _pi_of_fr(inst)
    hess = _chi2_hessian(unit_sum(inst["alpha"]), _pi_of(inst))
    return convexity_exact(lambda q: chi2_fr(alpha, pi, q), hess, inst, floor=1.0)


def _pi_of(inst: Instance) -> np.ndarray:
    """π, or c·1 for the equal-π variant."""
    if "pi_c" in inst:
        return np.full(int(inst["n"]), float(pis(inst, "pi_c")[0]))
    return pis(inst)


def _pi_of_fr(inst: Instance) -> list[Any]:
    if "pi_c" in inst:
        return [dec(inst["pi_c"])] * int(inst["n"])
    return dec_list(inst["pi"])


PROP2_NOTES = (
    CONVEXITY_NOTES + "Q = 1: χ² is homogeneous of degree 0 and the slice is Q times the "
    "simplex, so neither part depends on Q. FALSE: the proof's lemma (200)–(206) needs cᵀq + d = "
    "πᵀq constant, but the slice fixes 1ᵀq, so it only covers π ∝ 1 (claim "
    "cafed:appd-prop2-equal-pi). Inventory counterexample, verified exactly: π = (1, 1/10, "
    "1/10), α = (2/9, 1/2, 5/18), q = (1/10, 1/10, 4/5), q′ = (9/20, 3/20, 2/5), ζ = ½: "
    "χ²(q) = 4.02708, χ²(q′) = 8.44624, χ²(mid) = 6.45929 > 6.23666; the exact gap "
    "−285643/1283040. For N = 2 the statement is true (a convex function of one variable). "
    "tests/optimize/test_convexity_chi2.py asserted Prop. 2 (hypothesis, π ∈ [0.01, 1], "
    "~100 examples) and passed by chance; it now asserts the refutation."
)


def _prop2_explain(inst: Instance) -> Explanation:
    """The witness in the paper's quantities: π, α, two points q, q′ of one slice and ζ (the
    instance's own, or a segment along a direction of negative curvature), χ² at each."""
    alpha, pi = fr_unit(inst["alpha"]), _pi_of_fr(inst)
    f = lambda q: chi2_fr(alpha, pi, q)  # noqa: E731
    hess = _chi2_hessian(unit_sum(inst["alpha"]), _pi_of(inst))
    points, lhs, rhs = convexity_witness(f, hess, inst, Fraction(1))
    q, q2, zeta = points
    return Explanation(
        quantities=(
            Quantity("π", "availability of each client", tuple(pi)),
            Quantity("α", "target importance", tuple(alpha)),
            Quantity("Q", "‖q‖₁ of the slice", sum(q)),
            Quantity("q", "first point (‖q‖₁ = Q)", tuple(q)),
            Quantity("q′", "second point (‖q′‖₁ = Q)", tuple(q2)),
            Quantity("ζ", "mixing weight", zeta),
        ),
        steps=convexity_steps(f, pi, points, "χ²"),
        lhs=Step("χ²(q_ζ)", "Σ(α_k − p_k)²/p_k at q_ζ (eq. 11)", lhs),
        relation="≤",
        rhs=Step("ζχ²(q) + (1 − ζ)χ²(q′)", "", rhs),
        holds=lhs <= rhs,
        verify_args={
            "pi": list(pi),
            "alpha": list(alpha),
            "q": list(q),
            "q2": list(q2),
            "zeta": zeta,
        },
    )


PROP2_QUOTE = (
    "Proposition 2. The function χ²_{α‖p}(q) is convex over ℝ^N_{>0} ∩ {q : ‖q‖₁ = Q > 0}. "
    "[…] It is then sufficient to apply this result to each pair (g_k, h_k) to conclude that "
    "(g_k∘h_k) is convex and then χ²_{α‖p}(q) is convex."
)

register_claim(
    "cafed:appd-prop2",
    "App. D",
    "Proposition 2",
    (1302, 1338),
    "χ²(α‖p(q)) is convex over ℝ^N_{>0} ∩ {q : ‖q‖₁ = Q > 0}.",
    space=Space(
        [
            Integer("n", 1, 8),
            pi_param(),
            Simplex("alpha", "n"),
            Simplex("w1", "n"),
            Simplex("w2", "n"),
            ZETA,
        ]
    ),
    margin=_prop2_margin,
    exact=_prop2_exact,
    simplify=decimal_moves(("pi", "alpha", "w1", "w2"), ("alpha", "w1", "w2")),
    notes=PROP2_NOTES,
    expected="refuted",
    explain=_prop2_explain,
    verify=V.verify_appd_prop2,
    reading=Reading(
        quote=PROP2_QUOTE,
        hypotheses=(
            *PROP1_HYPOTHESES,
            Hypothesis("any number N of clients (the proof is per summand)", "N ∈ [1, 8]"),
            Hypothesis(
                "the slice ‖q‖₁ = Q of problem (14)",
                "q = Q·w, w on the simplex (χ² is homogeneous of degree 0: Q = 1 loses nothing)",
            ),
        ),
        interpretation="As printed, for every π and α: it is what App. D needs (problem "
        "(14) constrains ‖q‖₁ = Q, §III-C) and what its proof argues, applying the lemma "
        "(199)–(206) to each g_k∘h_k. The lemma needs cᵀq + d constant on the domain "
        "(206); for h_k that is πᵀq, which the slice ‖q‖₁ = Q keeps constant only when "
        "π ∝ 1. Both copies (000 refers to App. D, 002 prints it) state the same.",
        alternatives="On the slice πᵀq = const (where the lemma applies), or with π ∝ 1: "
        "cafed:appd-prop2-equal-pi (holds). For N = 2 it holds (one variable).",
    ),
    finding=Finding(
        "error",
        "χ² is not convex on the slice ‖q‖₁ = Q once three clients have unequal "
        "availabilities; the proof's lemma (200)–(206) needs πᵀq, not ‖q‖₁, constant",
        severity="result",
    ),
)

register_claim(
    "cafed:appd-prop2-equal-pi",
    "App. D",
    "Proposition 2, π ∝ 1 (what the proof covers)",
    (1302, 1338),
    "With equal availabilities π = c·1, χ²(α‖p(q)) is convex on {q > 0, ‖q‖₁ = Q}.",
    space=Space(
        [
            Integer("n", 1, 8),
            Real("pi_c", 0.0, 1.0, closed=(False, True)),
            Simplex("alpha", "n"),
            Simplex("w1", "n"),
            Simplex("w2", "n"),
            ZETA,
        ]
    ),
    margin=_prop2_margin,
    exact=_prop2_exact,
    notes="With π ∝ 1, πᵀq = cQ is constant on the slice and the lemma (200)–(206) applies: "
    "TRUE. " + PROP2_NOTES.split(" FALSE:")[0],
    expected="holds",
    reading=Reading(
        quote=PROP2_QUOTE,
        hypotheses=(
            Hypothesis(
                "π = c·1: the case where the proof's lemma applies (cᵀq + d = πᵀq "
                "constant on the slice)",
                "π_k = c ∈ (0, 1] for all k",
            ),
            PROP1_HYPOTHESES[1],
        ),
        interpretation="Prop. 2 restricted to the configurations its proof covers.",
    ),
)
