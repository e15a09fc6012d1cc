"""§II — the minimisers in the INFOCOM 2023 version of CA-Fed (seed ``001_4d8faa0e7730b5d7.txt``,
``l.N`` its lines): F_k* is the minimum of F_k **on W** (l.15) and Assumption 2 puts only the
minimisers of F and F_B in the interior of W (l.37–39); then eq. (11)'s bias bound fails
(``cafed-infocom:assumption2-on-w``). Also the alias of eq. (4)'s limit (l.21–23).

Statements whose formulas are lost in this extraction are registered as aliases
(:func:`._common.register_alias`): non-executable claims whose reason names what the INFOCOM text
would need and the ``cafed:`` claim of the journal version that checks the same statement.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed-infocom:assumption2-on-w").expected
'refuted'
"""

from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.exact import fr
from fltheory.claims.explain import Explanation, Quantity, Step, decs, show, signed
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed._verify import verify_eq11_on_w
from fltheory.claims.papers.cafed_infocom._common import (
    QUAD_SPACE,
    quadratic_instance,
    register_alias,
    shown_decimal,
)
from fltheory.claims.space import Instance, Space


def _eq11_sides(inst: Instance, conv: Any) -> tuple[Any, Any, Any]:
    """(κ²χ²Γ_W, ε_bias, size); ε_bias as the closed form ½H̄(w_B* − w*)² in floats (no
    cancellation) and as the difference F(w_B*) − F(w*) in rationals."""
    q = quadratic_instance(inst, conv)
    if conv is float:
        eps_bias = q["gap"](q["alpha"], q["w_b"], q["w_star"])
    else:
        eps_bias = q["F"](q["alpha"], q["w_b"]) - q["F"](q["alpha"], q["w_star"])
    if q["gamma_w"] == 0:
        bound = 0 * q["gamma_w"]  # Γ = 0: the bound is 0 even where χ² overflows
    else:
        bound = q["kappa"] ** 2 * q["chi2"] * q["gamma_w"]
    return bound, eps_bias, q["size"]


def _eq11_margin(inst: Instance) -> float:
    with np.errstate(over="ignore"):
        bound, eps_bias, size = _eq11_sides(inst, float)
    if not np.isfinite(bound):
        return 1.0  # χ² = ∞ (a p_k underflows) with Γ > 0: the bound is vacuous
    return (bound - eps_bias) / max(abs(bound), abs(eps_bias), 1e-12 * size, 1e-300)


def _eq11_exact(inst: Instance) -> ExactMargin:
    bound, eps_bias, _ = _eq11_sides(inst, fr)
    scale = max(abs(bound), abs(eps_bias)) or Fraction(1)
    return (bound - eps_bias) / scale, "exact rationals"


def _eq11_explain(inst: Instance) -> Explanation:
    """The instance in the INFOCOM reading: F_k, α, p, W, then w*, w_B*, the minima F_k* on W,
    Γ, χ², κ, and both sides of eq. (11), exactly (decimals of the instance's numbers)."""
    q = quadratic_instance(inst, fr)  # the bounds of W from the binary floats, as the margin
    alpha, p = list(decs(inst["alpha"])), list(decs(inst["p"]))
    ta, tp = sum(alpha), sum(p)
    alpha, p = [a / ta for a in alpha], [b / tp for b in p]
    u, h = list(decs(inst["u"])), list(decs(inst["h"]))
    lo, hi = shown_decimal(q["lo"]), shown_decimal(q["hi"])
    args = {"alpha": alpha, "p": p, "u": u, "h": h, "lo": lo, "hi": hi}
    out = verify_eq11_on_w(**args)
    exact = quadratic_instance(
        {**inst, "alpha": alpha, "p": p, "u": u, "h": h}, fr
    )  # w*, w_B* of the decimal instance
    f_star = [hk * (min(max(uk, lo), hi) - uk) ** 2 / 2 for uk, hk in zip(u, h, strict=True)]
    losses = tuple(
        Quantity(
            f"F_{k + 1}",
            f"loss of client {k + 1}",
            u[k],
            f"F_{k + 1}(w) = ½·{show(h[k])}·(w {signed(-u[k])})²",
        )
        for k in range(len(u))
    )
    return Explanation(
        quantities=(
            *losses,
            Quantity("α", "target importance", tuple(alpha)),
            Quantity("p", "biased importance π_kq_k/πᵀq (eq. 4)", tuple(p)),
            Quantity("W", "the hypothesis class [lo, hi]", (lo, hi)),
        ),
        steps=(
            Step("w*", "minimiser of F = Σα_kF_k (interior of W)", exact["w_star"]),
            Step("w_B*", "minimiser of F_B = Σp_kF_k (interior of W)", exact["w_b"]),
            Step("F_k*", "minimum of F_k on W (l.15: the minimiser of F_k on W)", tuple(f_star)),
            Step("Γ", "max_k{F_k(w*) − F_k*} (eq. 9)", exact["gamma_w"]),
            Step("χ²(α‖p)", "Σ(α_k − p_k)²/p_k", exact["chi2"]),
            Step("κ", "L/μ = max h_k/min h_k", exact["kappa"]),
        ),
        lhs=Step("ε_bias", "F(w_B*) − F(w*)", out["lhs"]),
        relation="≤",
        rhs=Step("κ²χ²Γ", "eq. (11) of the journal version", out["rhs"]),
        holds=bool(out["holds"]),
        verify_args=args,
        note="Some u_k lie outside W, so ∇F_k(w_k*) ≠ 0 at the constrained minimiser and the "
        "proof's ‖∇F_k(w)‖² ≤ 2L(F_k(w) − F_k*) fails.",
    )


register_claim(
    "cafed-infocom:assumption2-on-w",
    "§II, §III-A and Thm 1",
    "eq. (11) with the minimisers taken on W",
    (15, 54),
    "With w_k*, F_k* the minimiser and minimum of F_k on W (l.15) and only the minimisers of F "
    "and F_B in the interior of W (Assumption 2, l.37–39): ε_bias = F(w_B*) − F(w*) ≤ "
    "κ²χ²(α‖p)Γ, Γ = max_k{F_k(w*) − F_k*} (Theorem 1's bias term, eq. (11) of the journal "
    "version; the INFOCOM formulas are lost).",
    space=Space(QUAD_SPACE),
    margin=_eq11_margin,
    exact=_eq11_exact,
    tolerance=1e-12,
    expected="refuted",
    notes="Quadratics F_k = (h_k/2)(w − u_k)² in d = 1, κ = max h/min h, W an interval around "
    "w* and w_B* (both interior); F_k* = F_k(clip(u_k, W)). When some u_k lies outside W, "
    "F_k* exceeds the global minimum, Γ shrinks, and the proof's step ‖∇F_k(w)‖² ≤ "
    "2L(F_k(w) − F_k*) (∇F_k(w_k*) = 0) no longer holds. Exact counterexample: u = (10, −10), "
    "h = 1, α = (½, ½), p = (0.6, 0.4), W = [−2.5, 2.5]: w* = 0, w_B* = 2, ε_bias = 2, χ² = "
    "1/24, Γ_W = 50 − 28.125 = 21.875, bound 0.911 < 2. Default search (seed 0), shrunk: "
    "α = (1/16, 15/16), p = (0.0526, 0.9474), u = (4, −2), h = (3, 7), W = [w_B* − 10⁻², "
    "w* + 10⁻⁷]: margin −0.835 (exact rationals −0.835). In general for this family the bound "
    "fails iff p₂ > ¼ once W hugs w_B*. Under the journal's Assumption 2 (w_k* interior too, "
    "ToN l.108) this is cafed:thm1-eq11, which holds. So the INFOCOM version needs the local "
    "minimisers in W's interior (or F_k* read as the unconstrained minimum).",
    reading=Reading(
        quote="Moreover, for k, F_k admits a unique minimizer on W. We use (w_k*, F_k*) to "
        "denote the minimizer (resp. the minimum value) of F_k (l.15). … Let (w*, w_B*) "
        "denote the minimizers of F and F_B on W, respectively. Assumption 2. The hypothesis "
        "class W is convex, compact, and contains in its interior the minimizers (w*, w_B*) "
        "(l.37–39). [Theorem 1 and eqs. (9)–(11) are lost in the extraction; l.55 says the "
        "bias term depends on the chi-square divergence and on Γ.]",
        hypotheses=(
            Hypothesis(
                "Assumption 2 (INFOCOM): w*, w_B* in the interior of W",
                "W = [min(w*, w_B*) − r_lo, max(w*, w_B*) + r_hi], r > 0",
            ),
            Hypothesis(
                "Assumptions 3–4: L-smooth, μ-strongly convex F_k",
                "F_k = (h_k/2)(w − u_k)², h_k ∈ [0.1, 10], κ = max h/min h",
            ),
            Hypothesis("F_k* the minimum of F_k on W (l.15)", "F_k* = F_k(clip(u_k, W))"),
        ),
        interpretation="The INFOCOM version's hypotheses with the journal's eq. (11) (the "
        "symbols of l.37–39 are lost: the reading takes the list of interior minimisers to be "
        "the w*, w_B* that the sentence before defines). The journal version changed exactly "
        "these two places — F_k 'admits a unique minimizer' (not 'on W', 002 l.57) and "
        "Assumption 2 lists w*, w_B*, w_k* (002 l.108) — which is what the proof's step (28), "
        "∇F_k(w_k*) = 0, needs. Under the INFOCOM wording that step fails when a client's "
        "unconstrained minimiser lies outside W.",
        alternatives="The journal's hypotheses (w_k* interior, F_k* the global minimum): "
        "cafed:thm1-eq11 (holds).",
    ),
    finding=Finding(
        "version",
        "INFOCOM takes F_k* on W and puts only w*, w_B* inside W; then eq. (11) fails when some "
        "u_k is outside W. The journal adds w_k* to Assumption 2 and the bound holds",
        intended="cafed:thm1-eq11",
    ),
    explain=_eq11_explain,
    verify=verify_eq11_on_w,
)


register_alias(
    "eq4-limit",
    "§II",
    "scheme (2)–(3) converges to the minimiser of F_B",
    (21, 23),
    "scheme (3) (the server step with η̄) and eq. (4) (F_B and p_k = π_kq_k/Σπ_hq_h), both "
    "empty placeholders at l.19 and l.21",
    "cafed:eq4-limit-diminishing (holds; the constant-step reading cafed:eq4-limit-constant-step "
    "is literal) and cafed:eq4-biased-importance",
)
