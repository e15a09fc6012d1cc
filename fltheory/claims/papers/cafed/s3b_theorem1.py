"""CA-Fed (ToN) §III-B — Theorem 1: eq. (10) bracketed as in 002's main text and the proof
(21)–(24) (``cafed:thm1-eq10-a``, holds) and as printed in 000 and App. A
(``cafed:thm1-eq10-b``, a typo: refuted), eq. (11) ε_bias ≤ κ²χ²(α‖p)Γ (proof eqs. 25–37),
and the remark after it (l.149, with §III-E l.210): the unbiased weights q_k ∝ α_k/π_k give
p = α and ε_bias = 0.

>>> from fltheory.claims import CLAIMS
>>> claim = CLAIMS.get("cafed:thm1-eq10-b")
>>> inst = EQ10_COUNTEREXAMPLE
>>> round(claim.margin(inst), 4), claim.exact(inst)[0] < 0
(-0.1852, True)
"""

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.finding import Finding, Reading
from fltheory.claims.papers.cafed import _quadratic as cq
from fltheory.claims.papers.cafed._bounds import (
    BUDGET,
    BUDGET_NOTE,
    T1_HYPOTHESES,
    t1_fields,
    thm1_explain,
)
from fltheory.claims.papers.cafed._verify import verify_thm1
from fltheory.claims.space import Instance, Space

#: F₁ = ½w², F₂ = ½(w − 2)², α = (½, ½), p = (9/10, 1/10) (π = 1, q = (9/10, 1/10)), w = 1/10.
EQ10_COUNTEREXAMPLE: Instance = {
    "n": 2,
    "d": 1,
    "lh1": np.zeros(2),
    "lh2": np.zeros(2),
    "lh3": np.zeros(2),
    "s1": np.zeros(2),
    "s2": np.zeros(2),
    "s3": np.zeros(2),
    "u1": np.array([0.0, 2.0]),
    "u2": np.zeros(2),
    "u3": np.zeros(2),
    "alpha": np.array([0.5, 0.5]),
    "pi": np.array([1.0, 1.0]),
    "q": np.array([0.9, 0.1]),
    "wd1": -1.0,
    "wd2": 0.0,
    "wd3": 0.0,
    "lw": math.log10(0.05),
}


register_claim(
    "cafed:thm1-eq10-a",
    "§III-B",
    "Theorem 1, eq. (10) (bracket around both terms; proof eqs. 21-24)",
    (140, 142),
    "ε = F(w) − F* ≤ 2κ²(ε_opt + ε_bias), ε_opt = F_B(w) − F_B*, ε_bias = F(w_B*) − F*",
    **t1_fields(
        "eq10-a",
        "Code path: bounds.theorem1.total_error_at. TRUE: (21)-(24) are valid (the weaker "
        "ε ≤ 2κ(ε_opt + ε_bias) also holds).",
    ),
    expected="holds",
    reading=Reading(
        quote="Theorem 1. Let κ := L/μ. Under Assumptions 2–4, the optimization error of the "
        "target global objective ε = F(w) − F* can be bounded as follows: ε ≤ 2κ²(F_B(w) − F_B* "
        "+ F(w_B*) − F*) (002 main text l.142; the proof's last line (24) brackets both terms).",
        hypotheses=T1_HYPOTHESES,
        interpretation="The bracketed form, as in 002's main text and the proof (21)–(24), for "
        "every w (the statement is pointwise).",
        alternatives="Without the bracket (000 l.155, App. A l.411): cafed:thm1-eq10-b.",
    ),
)
register_claim(
    "cafed:thm1-eq10-b",
    "§III-B",
    "Theorem 1, eq. (10) as printed in 000 l.155 and in App. A l.411",
    (409, 411),
    "ε = F(w) − F* ≤ 2κ²·ε_opt + ε_bias (bracket only on ε_opt)",
    **t1_fields(
        "eq10-b",
        "Code path: QuadraticProblem.eps_opt/eps_bias/kappa (the library implements variant A). "
        "FALSE: near w_B*, ε − ε_bias is linear in the displacement along +∇F(w_B*) while ε_opt is "
        "quadratic. Counterexample (exact): F₁ = ½w², F₂ = ½(w − 2)², α = (½, ½), p = (9/10, 1/10) "
        "(π = (1, 1), q = (9/10, 1/10)), w = 1/10 (w* = 1, w_B* = 1/5, κ = 1): ε = 81/200 but "
        "2κ²ε_opt + ε_bias = 1/100 + 32/100 = 33/100.",
    ),
    expected="refuted",
    reading=Reading(
        quote="ε ≤ 2κ² (F_B(w) − F_B*) + (F(w_B*) − F*) (eq. 10 as typeset in 000 l.155 and in "
        "002 App. A l.411: the bracket closes after ε_opt)",
        hypotheses=T1_HYPOTHESES,
        interpretation="The printed form, for every w. It is a typesetting slip, not the "
        "authors' statement: 002's main text (l.142) brackets both terms, the proof ends with "
        "2L²/μ²(ε_opt + ε_bias) (eq. 24), and the section title uses 2κ²(ε̄_opt + ε̄_bias).",
        alternatives="The bracketed form: cafed:thm1-eq10-a (holds).",
    ),
    finding=Finding(
        "typo",
        "the bracket of eq. (10) closes after ε_opt in 000 and App. A; 002's main text and the "
        "proof (24) bracket both terms, and that form holds",
        intended="cafed:thm1-eq10-a",
    ),
    explain=thm1_explain("eq10-b"),
    verify=verify_thm1,
)
register_claim(
    "cafed:thm1-eq11",
    "§III-B",
    "Theorem 1, eq. (11); proof eqs. (25)-(37)",
    (144, 147),
    "ε_bias = F(w_B*) − F* ≤ κ²·χ²(α‖p)·Γ (+∞ when some p_k = 0 < α_k)",
    **t1_fields(
        "eq11",
        "Code path: bounds.theorem1.bias_bound_chi2. TRUE (proof checked; loose by ≥ κ).",
        extra_params=False,
    ),
    expected="holds",
    reading=Reading(
        quote="Moreover, let χ²_{α‖p} := Σ_k(α_k − p_k)²/p_k. Then: ε_bias ≤ κ²·χ²_{α‖p}·Γ "
        "(eq. 11, l.144–146), Γ := max_k{F_k(w*) − F_k*} (eq. 9)",
        hypotheses=T1_HYPOTHESES,
        interpretation="As printed; +∞ on the right when some p_k = 0 < α_k (q_k = 0 is "
        "allowed by the paper, and l.181 notes the divergence).",
    ),
)


# --- the unbiased strategy (remark after Theorem 1, l.149) ----------------------------------------
def _unbiased_parts(inst: Instance, exact: bool) -> Any:
    from fltheory.divergence import biased_importance
    from fltheory.optimize.guidelines import unbiased_weights

    q = unbiased_weights(inst["alpha"], inst["pi"])
    p: Any
    alpha: Any
    if not exact:
        p = biased_importance(q, np.asarray(inst["pi"], dtype=float))
        alpha = np.asarray(inst["alpha"], dtype=float)
        f = cq.qf(inst, q=q)
        bias = cq.code_problem(inst, q=q, f=f).eps_bias
    else:
        f = cq.qf(inst, exact=True, q=q)
        p, alpha = f.p, f.alpha
        bias = f.weighted_gap(f.alpha, f.w_B, f.w_star)
    reach = max(cq.dot(cq.sub(a, b), cq.sub(a, b)) for a in f.u for b in f.u)
    scale = f.L * reach + (f.L if reach == 0 else 0)
    err = max(max(abs(x - y) for x, y in zip(p, alpha, strict=True)), bias / scale)
    return err


register_claim(
    "cafed:unbiased-zero-bias",
    "§III-B",
    "remark after Theorem 1 (l.149) and §III-E (l.210)",
    (149, 149),
    "q_k ∝ α_k/π_k ⇒ p = α, χ²(α‖p) = 0 and ε_bias = 0 (to 1e-10: max|p − α| and "
    "ε_bias/(L·spread²))",
    space=Space(cq.qf_params()),
    margin=lambda i: 1.0 - float(_unbiased_parts(i, exact=False)) / 1e-10,
    exact=lambda i: (
        1 - _unbiased_parts(i, exact=True) / Fraction(1, 10**10),
        "exact rationals (p and ε_bias of the library's q)",
    ),
    notes=(
        "Code path: optimize.guidelines.unbiased_weights, divergence.biased_importance, "
        "QuadraticProblem(q).eps_bias; exact margin: p and ε_bias of the library's float q "
        "in exact rationals (its rounding, ~1e-16, is what remains). TRUE."
    )
    + BUDGET_NOTE,
    expected="holds",
    budget=BUDGET,
)
