"""§III-B — Theorems 1 and 2 in the INFOCOM 2023 version of CA-Fed (seed
``001_4d8faa0e7730b5d7.txt``, ``l.N`` its lines): eq. (10) with the minimisers taken on W (the
decomposition survives the INFOCOM reading, ``cafed-infocom:assumption2-on-w-eq10``), and the
aliases of Theorem 1, the unbiased aggregation, Theorem 2's bound (12) and its correlation remark.

Statements whose formulas are lost in this extraction are registered as aliases
(:func:`._common.register_alias`): non-executable claims whose reason names what the INFOCOM text
would need and the ``cafed:`` claim of the journal version that checks the same statement.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed-infocom:assumption2-on-w-eq10").expected
'holds'
"""

from fractions import Fraction
from typing import Any

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.exact import fr
from fltheory.claims.papers.cafed_infocom._common import (
    QUAD_SPACE,
    quadratic_instance,
    register_alias,
)
from fltheory.claims.space import Instance, Real, Space


def _eq10_sides(inst: Instance, conv: Any) -> tuple[Any, Any, Any]:
    q = quadratic_instance(inst, conv)
    w = q["lo"] + conv(inst["t"]) * (q["hi"] - q["lo"])
    a, pw = q["alpha"], q["p"]
    if conv is float:  # closed forms ½H̄(w − w_min)²: no cancellation
        gap = q["gap"]
        eps = gap(a, w, q["w_star"])
        eps_opt = gap(pw, w, q["w_b"])
        eps_bias = gap(a, q["w_b"], q["w_star"])
    else:  # plain differences, exactly
        G = q["F"]
        eps = G(a, w) - G(a, q["w_star"])
        eps_opt = G(pw, w) - G(pw, q["w_b"])
        eps_bias = G(a, q["w_b"]) - G(a, q["w_star"])
    return 2 * q["kappa"] ** 2 * (eps_opt + eps_bias), eps, q["size"]


def _eq10_margin(inst: Instance) -> float:
    bound, eps, size = _eq10_sides(inst, float)
    return (bound - eps) / max(abs(bound), abs(eps), 1e-12 * size, 1e-300)


def _eq10_exact(inst: Instance) -> ExactMargin:
    bound, eps, _ = _eq10_sides(inst, fr)
    scale = max(abs(bound), abs(eps)) or Fraction(1)
    return (bound - eps) / scale, "exact rationals"


register_claim(
    "cafed-infocom:assumption2-on-w-eq10",
    "§III-B, Thm 1",
    "eq. (10) with the minimisers taken on W",
    (53, 54),
    "Under the same reading (only w*, w_B* interior): ε(w) = F(w) − F* ≤ 2κ²(ε_opt(w) + "
    "ε_bias) for every w ∈ W (Theorem 1's decomposition, bracketed form).",
    space=Space([*QUAD_SPACE, Real("t", 0.0, 1.0, closed=(True, True), special=(0.0, 1.0))]),
    margin=_eq10_margin,
    exact=_eq10_exact,
    tolerance=1e-12,
    expected="holds",
    notes="The decomposition only uses ∇F(w*) = 0 and ∇F_B(w_B*) = 0 (interior minimisers of "
    "F and F_B), not F_k*, so it survives the INFOCOM reading; w = lo + t(hi − lo) ranges over "
    "W. Relative margin, exact in rationals. (The journal's -B form ε ≤ 2κ²ε_opt + ε_bias is "
    "false; see cafed:thm1-eq10.)",
)


register_alias(
    "thm1",
    "§III-B, App. A",
    "Theorem 1 (decomposition of the total error)",
    (53, 55),
    "eqs. (10)–(11) (the statement is an empty 'Theorem 1 (Decomposing the total error).', "
    "and App. A's steps are lost too)",
    "cafed:thm1-eq10-a (holds), cafed:thm1-eq10-b (typo) and cafed:thm1-eq11; the INFOCOM "
    "hypotheses are checked by cafed-infocom:assumption2-on-w and -eq10",
)

register_alias(
    "unbiased",
    "§III-B",
    "the unbiased aggregation q_k ∝ α_k/π_k cancels the bias",
    (55, 55),
    "the formula q_k ∝ α_k/π_k (lost at l.55)",
    "cafed:unbiased-zero-bias",
)

register_alias(
    "thm2-eq12",
    "§III-B, App. B",
    "Theorem 2, bound (12)",
    (57, 58),
    "bound (12) with its Σ, υ, ψ, φ, J_t and the step-size condition (the statement is an "
    "empty 'Theorem 2 (Convergence of the optimization error).'); in particular which φ it "
    "prints and whether it divides by Σ_{t≤T}η_t, the two places where the journal copies "
    "differ",
    "cafed:thm2-eq13-printed-appendix (error), cafed:thm2-eq13-printed-main and "
    "cafed:thm2-eq13-phi-main-000 (typos), cafed:thm2-eq13-appendix-2cph-ge-1, "
    "cafed:thm2-eq13-000-divided and cafed:thm2-eq13-proved (hold)",
)

register_alias(
    "thm2-correlation",
    "§III-B",
    "a high correlation worsens the convergence rate",
    (58, 58),
    "bound (12): the remark's words survive ('captures the effect of correlation through the "
    "factor [ln(1/λ(P))]') but the bound whose monotonicity it describes does not",
    "cafed:thm2-correlation-monotone (literal) and cafed:thm2-correlation-monotone-2cph-ge-1 "
    "(holds)",
)
