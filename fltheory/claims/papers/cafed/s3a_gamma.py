"""CA-Fed (ToN) §III-A — eq. (9): Γ := max_k {F_k(w*) − F_k*} ≥ 0 and the remark after it,
checked on quadratic federations against the library's Γ.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:eq9-gamma").expected
'holds'
"""

from fractions import Fraction
from typing import Any

from fltheory.claims.claim import register_claim
from fltheory.claims.papers.cafed import _quadratic as cq
from fltheory.claims.papers.cafed._bounds import BUDGET, BUDGET_NOTE, qf_space
from fltheory.claims.space import Instance


def _gamma_parts(f: cq.QF) -> tuple[Any, Any]:
    """(Γ, an absolute rounding scale: L·R²·(1 + κ)·1e-12 with R² = max_k ‖u_k‖²)."""
    gaps = [f.gap(k, f.w_star) for k in range(f.n)]
    reach = max(cq.dot(uk, uk) for uk in f.u)
    scale = f.L * reach * (1 + f.L / f.mu) / 10**12
    return max(gaps), scale


def _gamma_margin(inst: Instance) -> float:
    f = cq.qf(inst)
    gamma_code = cq.code_problem(inst, f=f).Gamma
    gamma, scale = _gamma_parts(f)
    slack = 1e-9 * gamma + scale + 1e-300
    return 1.0 - abs(gamma_code - gamma) / slack if gamma_code >= -scale else -1.0


def _gamma_exact(inst: Instance) -> tuple[Any, str]:
    gamma_code = Fraction(cq.code_problem(inst).Gamma)
    gamma, scale = _gamma_parts(cq.qf(inst, exact=True))
    slack = gamma / 10**9 + scale + Fraction(1, 10**300)
    return 1 - abs(gamma_code - gamma) / slack, "exact rationals"


register_claim(
    "cafed:eq9-gamma",
    "§III-A",
    "eq. (9) and the remark after it",
    (134, 136),
    "Γ = max_k {F_k(w*) − F_k*} ≥ 0, and Γ = 0 iff w* minimises every F_k (the library's Γ "
    "equals the exact value up to rounding: 1e-9 relative plus 1e-12·L·R²·(1 + κ))",
    space=qf_space(),
    margin=_gamma_margin,
    exact=_gamma_exact,
    notes=(
        "A definition (TRUE): on quadratics Γ = max_k ½(w* − u_k)ᵀH_k(w* − u_k) is ≥ 0 and "
        "0 iff all u_k coincide. The executable check is the library's Γ "
        "(QuadraticProblem.Gamma) against the exact rational Γ of the same instance; "
        "margin = 1 − |Γ_code − Γ|/slack."
    )
    + BUDGET_NOTE,
    expected="holds",
    budget=BUDGET,
)
