"""CA-Fed (ToN) App. E2 — eq. (224): the KKT form q_k* = (ι*π_k − θ*)/A_kk of the optimum of
(212) on its support with A ≻ 0 (holds), and the same with zeros of A_kk ≥ 0 (refuted: a
literal reading, (224) does not determine q_k* there).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:eq224-kkt-appendix").expected
'holds'
"""

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.explain import dec
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed._weights import (
    EQ224_NOTES,
    H212,
    dec_list,
    multipliers212,
    opt212,
    problem_floats,
    space212,
)
from fltheory.claims.space import Instance

KKT_QUOTE = (
    "1) If y_k* > 0 (and q_k* > 0), then ω_k* = 0 and: y_k* = (s*/A_kk)(ι*π_k − θ*), q_k* = "
    "(1/A_kk)(ι*π_k − θ*); (224) 2) y_k* = q_k* = 0 otherwise."
)


def _kkt_form_residual(q: np.ndarray, pi: np.ndarray, s: np.ndarray, v: float, Q: float) -> float:
    """max over the support of |q_k − (ι*π_k − θ*)/A_kk| relative to the terms' size."""
    iota, theta = multipliers212(q, pi, s, v, Q)
    on = q > 0.0
    if np.any(s[on] == 0.0):
        return math.inf
    pred = (iota * pi[on] - theta) / s[on]
    # θ* = (B − ½qᵀAq)/Q carries rounding of size ε(B + ½qᵀAq)/Q: part of the terms' size
    quad = 0.5 * float(s @ (q * q))
    scale = np.maximum(q[on], (iota * pi[on] + (v + quad) / Q) / s[on])
    return float(np.max(np.abs(q[on] - pred) / scale))


def _eq224_appendix(inst: Instance) -> float:
    pi, s, v, Q = problem_floats(inst)
    q = opt212(pi, s, v, Q)
    iota, _ = multipliers212(q, pi, s, v, Q)
    return min(-_kkt_form_residual(q, pi, s, v, Q), 1.0 if iota > 0 else -1.0)


register_claim(
    "cafed:eq224-kkt-appendix",
    "App. E2",
    "eq. (224)",
    (1399, 1441),
    "At the optimum of (212) with A ≻ 0, q_k* = (ι*π_k − θ*)/A_kk on the support (ι* > 0 "
    "and θ* the multipliers of πᵀy = 1 and ‖y‖₁ = Qs), q_k* = 0 off it.",
    space=space212("log"),
    margin=_eq224_appendix,
    tolerance=1e-8,
    notes=EQ224_NOTES + " Margin: −max relative residual of (224) on the support "
    "(tolerance 1e-8). TRUE for A_kk > 0 (the KKT conditions of a convex problem).",
    expected="holds",
    reading=Reading(
        quote=KKT_QUOTE,
        hypotheses=H212,
        interpretation="The KKT form on the support, with ι*, θ* the multipliers of "
        "(214d)–(214e) recovered from q*; A ≻ 0 as App. E1's strictly convex K requires.",
    ),
)


def _eq224_degenerate(inst: Instance) -> float:
    pi, s, v, Q = problem_floats(inst)
    q = opt212(pi, s, v, Q)
    if np.any((q > 0.0) & (s == 0.0)):
        return -1.0  # (224) reads (ι*π_k − θ*)/0 for a supported client
    return min(-_kkt_form_residual(q, pi, s, v, Q), 0.0)


def _eq224_degenerate_exact(inst: Instance) -> tuple[Any, str]:
    pi, s, v, Q = problem_floats(inst)
    q = opt212(pi, s, v, Q)
    P, S, V, QQ = dec_list(pi), dec_list(s), dec(v), dec(Q)
    qf = [Fraction(float(x)) for x in q]
    qf = [x * QQ / sum(qf) for x in qf]
    quad = sum(a * b * b for a, b in zip(S, qf, strict=True)) / 2
    iota = (quad + V) / sum(a * b for a, b in zip(P, qf, strict=True))
    theta = (V - quad) / QQ
    for k in range(len(qf)):
        if qf[k] > 0 and S[k] == 0:
            numer = iota * P[k] - theta
            what = "0/0" if numer == 0 else "c/0"
            return Fraction(-1), f"exact rationals at the certified optimum: (224) is {what}"
    return Fraction(0), "exact rationals"


register_claim(
    "cafed:eq224-kkt-degenerate",
    "App. E2",
    "eq. (224) with A_kk = 0 (σ_k = 0)",
    (1437, 1443),
    "Eq. (224) determines q_k* on the support also when A_kk ≥ 0 has zeros (the text "
    "considers 'A_kk ≥ 0').",
    space=space212("zeros"),
    margin=_eq224_degenerate,
    exact=_eq224_degenerate_exact,
    tolerance=1e-8,
    notes=EQ224_NOTES + " Margin: −1 if a client with A_kk = 0 has q_k* > 0 (eq. 224 "
    "divides by 0), else the residual of (224). FALSE: for a supported zero-noise client "
    "stationarity forces ι*π_k = θ*, so (224) reads 0/0 and leaves q_k* undetermined (the "
    "optimum splits the rest of Q among zero-noise clients at the largest such π; "
    "fltheory's closed form handles this case separately). Counterexample: N = 1, s = 0 "
    "(q* = Q, ι*π = θ* = v/Q).",
    expected="refuted",
    reading=Reading(
        quote=KKT_QUOTE + " […] By considering A_kk ≥ 0 and ι* ≥ 0 in Equation (224), we "
        "conclude that q_k* increases with π_k.",
        hypotheses=(
            Hypothesis("A_kk ≥ 0 (σ_k = 0 allowed)", "A_kk ∈ {0} ∪ [1e-6, 1e6]"),
            Hypothesis("B > 0, π_k ∈ (0, 1], ‖q‖₁ = Q", "B ∈ [1e-6, 1e6], Q ∈ [1e-3, 1e3]"),
        ),
        interpretation="Literal: (224) determines q_k* also for a supported client with "
        "A_kk = 0, as 'A_kk ≥ 0' might suggest. Not the authors' meaning: (224) is (223) "
        "divided by A_kk, and App. E1 calls K(q) = ½qᵀAq + B strictly convex (l.1381), "
        "i.e. A ≻ 0; 'A_kk ≥ 0' is about the sign of the factor 1/A_kk. At A_kk = 0, (223) "
        "gives ι*π_k = θ* instead and q_k* is set by the other conditions.",
        alternatives="A ≻ 0: cafed:eq224-kkt-appendix (holds).",
    ),
    finding=Finding(
        "literal",
        "(224) divides by A_kk, so it presupposes A_kk > 0, as App. E1's strictly convex K "
        "does; with A ≻ 0 it holds (cafed:eq224-kkt-appendix)",
        intended="cafed:eq224-kkt-appendix",
    ),
)
