"""CA-Fed (ToN) bound claims, shared arithmetic (registers nothing): the quadratic-federation
space of Γ (eq. 9) and of the Theorem-1 family — Theorem 1 (eqs. 10–11, §III-B), the total error
of §III-C and Theorem 3 (eq. 15) — with their margins, exact re-evaluations and explanations
(:func:`t1_fields`), and the lowered default budget of every bounds claim.

Every side the paper states is recomputed from the instance's parameters (Python lists;
Fractions for the exact margins) and compared with the library's evaluation
(:mod:`fltheory.bounds`, :mod:`fltheory.divergence`,
:class:`~fltheory.problems.quadratic.QuadraticProblem`), on quadratic federations
(:mod:`._quadratic`).

>>> sorted(t1_fields("eq11", "", extra_params=False))
['budget', 'exact', 'margin', 'notes', 'simplify', 'space']
"""

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.explain import Explanation, Quantity, Step, decs
from fltheory.claims.finding import Hypothesis
from fltheory.claims.papers.cafed import _quadratic as cq
from fltheory.claims.papers.cafed._verify import verify_thm1
from fltheory.claims.space import Instance, Real, Space

#: Default evaluations of every bounds claim (s2_model, s3a_gamma, s3b_theorem1, s3c_bounds: a
#: margin costs 2-10 ms with the search's own sampling; 500 keeps their twelve claims near 40 s,
#: so that every cafed module fits the paper's 5-minute run).
BUDGET = 500
#: Appended to the notes of every bounds claim: why its default budget is lowered.
BUDGET_NOTE = f" Default budget {BUDGET} evaluations (2-10 ms each, search overhead included)."


# --- eq. 9: Γ ------------------------------------------------------------------------------------
def qf_space(
    extra: list[Any] | None = None, n: tuple[int, int] = (1, cq.N_MAX), **ranges: Any
) -> Space:
    return Space([*cq.qf_params(n, **ranges), *(extra or [])], where=cq.positive_pq)


# --- Theorem 1 (eqs. 10-11), Section III-C, Theorem 3 (eq. 15) ----------------------------------
def _point_params() -> list[Any]:
    return [
        *(Real(f"wd{i}", -1.0, 1.0, special=(0.0, 1.0)) for i in range(1, cq.D_MAX + 1)),
        Real("lw", -8.0, 3.0, special=(0.0,)),
    ]


def _offset(inst: Instance) -> np.ndarray:
    """w − w_B*: 10^lw·S·(wd1, wd2, wd3)[:d], S = largest distance between two u_k (or 1)."""
    d = int(inst["d"])
    u = np.array([[float(inst[f"u{i + 1}"][k]) for i in range(d)] for k in range(int(inst["n"]))])
    spread = float(np.max(np.linalg.norm(u[:, None] - u[None, :], axis=-1)))
    direction = np.array([float(inst[f"wd{i + 1}"]) for i in range(d)])
    return 10.0 ** float(inst["lw"]) * (spread if spread > 0.0 else 1.0) * direction


def _point(inst: Instance, f: cq.QF) -> np.ndarray:
    """The point w = w_B* (float, computed here) + offset; the exact margins use the same
    float vector."""
    return np.array(f.w_B) + _offset(inst)


def _errors(inst: Instance, exact: bool, f_float: cq.QF) -> dict[str, Any]:
    """ε(w), ε_opt(w), ε_bias, κ², χ², d_TV, Γ, Γ′ from the raw parameters (w only when the
    instance has a point)."""
    f = cq.qf(inst, exact=True) if exact else f_float
    if "lw" in inst:
        w_float = _point(inst, f_float)
        w = cq.to_exact(w_float) if exact else [float(x) for x in w_float]
    else:
        w = f.w_B
    tv = sum((abs(a - b) for a, b in zip(f.alpha, f.p, strict=True)), f.alpha[0] * 0) / 2
    return {
        "eps": f.weighted_gap(f.alpha, w, f.w_star),
        "eps_opt": f.weighted_gap(f.p, w, f.w_B),
        "eps_bias": f.weighted_gap(f.alpha, f.w_B, f.w_star),
        "kappa2": (f.L / f.mu) ** 2,
        "chi2": cq.chi_square(f.alpha, f.p),
        "tv": tv,
        "Gamma": max(f.gap(k, f.w_star) for k in range(f.n)),
        "Gamma_p": max(f.gap(k, f.w_B) for k in range(f.n)),
    }


def _exact_gap(rhs: Any, lhs: Any) -> Any:
    if rhs == math.inf:
        return Fraction(1)
    scale = max(abs(rhs), abs(lhs))
    return (rhs - lhs) / scale if scale else Fraction(0)


def _code_rhs(label: str, inst: Instance, f: cq.QF) -> float:
    from fltheory.bounds.theorem1 import bias_bound_chi2, total_error_at
    from fltheory.bounds.theorem3 import bias_bound_tv
    from fltheory.divergence import chi_square

    prob = cq.code_problem(inst, f=f)
    w = _point(inst, f) if "lw" in inst else None
    if label == "eq10-a":
        return total_error_at(prob, w).value
    if label == "eq10-b":
        return 2.0 * prob.kappa**2 * prob.eps_opt(w) + prob.eps_bias
    if label in ("sec3c", "sec3c-main"):
        chi2 = chi_square(prob.alpha, prob.p)
        bias = chi2 * prob.Gamma if label == "sec3c" else chi2
        if math.isinf(chi2):
            return math.inf
        return 2.0 * prob.kappa**2 * (prob.eps_opt(w) + bias)
    if label == "eq11":
        return bias_bound_chi2(prob).value
    return bias_bound_tv(prob).value


def _exact_rhs(label: str, e: dict[str, Any]) -> Any:
    if label == "eq10-a":
        return 2 * e["kappa2"] * (e["eps_opt"] + e["eps_bias"])
    if label == "eq10-b":
        return 2 * e["kappa2"] * e["eps_opt"] + e["eps_bias"]
    if label in ("sec3c", "sec3c-main"):
        if e["chi2"] == math.inf:
            return math.inf
        bias = e["chi2"] * e["Gamma"] if label == "sec3c" else e["chi2"]
        return 2 * e["kappa2"] * (e["eps_opt"] + bias)
    if label == "eq11":
        return math.inf if e["chi2"] == math.inf else e["kappa2"] * e["chi2"] * e["Gamma"]
    return 4 * e["kappa2"] * e["tv"] ** 2 * e["Gamma_p"]


_LHS = {"eq11": "eps_bias", "eq15": "eps_bias"}


def _rounding_floor(f: cq.QF) -> float:
    """1e-7·κ·L·R² (R = max‖u_k‖ + spread): errors of the ε's below ~1e-16 of it are rounding
    (the closed forms lose ~κ·1e-16 relative accuracy)."""
    u = np.array(f.u, dtype=float)
    R = float(np.max(np.linalg.norm(u, axis=1)) + np.ptp(u, axis=0).max())
    return 1e-7 * (f.L / f.mu) * f.L * R * R


def _t1_margin(label: str) -> Any:
    def margin(inst: Instance) -> float:
        f = cq.qf(inst)
        lhs = _errors(inst, exact=False, f_float=f)[_LHS.get(label, "eps")]
        with np.errstate(over="ignore"):  # χ² overflows to +inf for subnormal p_k: correct
            rhs = _code_rhs(label, inst, f)
        return cq.relative_gap(rhs, lhs, floor=_rounding_floor(f))

    def exact(inst: Instance) -> tuple[Any, str]:
        e = _errors(inst, exact=True, f_float=cq.qf(inst))
        return _exact_gap(_exact_rhs(label, e), e[_LHS.get(label, "eps")]), "exact rationals"

    return margin, exact


def thm1_explain(form: str) -> Any:
    """explain(inst) for the Theorem-1 family: the federation in exact decimals, the point w,
    w*, w_B*, p, κ, ε, ε_opt, ε_bias (and χ²), both sides evaluated exactly."""

    def explain(inst: Instance) -> Explanation:
        pf = cq.paper_federation(inst)
        w = list(decs(_point(inst, cq.qf(inst))))
        f = pf.qf()
        e = _errors_at(f, w)
        kappa = f.L / f.mu
        steps = [
            Step("p", "π_kq_k/Σ_hπ_hq_h (eq. 4)", tuple(f.p)),
            Step("w*", "minimiser of F = Σα_kF_k", tuple(f.w_star)),
            Step("w_B*", "minimiser of F_B = Σp_kF_k", tuple(f.w_B)),
            Step("κ", "L/μ (largest over smallest Hessian eigenvalue)", kappa),
            Step("ε_opt", "F_B(w) − F_B*", e["eps_opt"]),
            Step("ε_bias", "F(w_B*) − F*", e["eps_bias"]),
        ]
        if form == "eq10-b":
            rhs = Step(
                "2κ²ε_opt + ε_bias",
                "eq. (10) as printed in 000 and App. A",
                2 * kappa**2 * e["eps_opt"] + e["eps_bias"],
            )
        else:
            chi2 = cq.chi_square(f.alpha, f.p)
            steps.append(Step("χ²(α‖p)", "Σ(α_k − p_k)²/p_k (000's ε̄_bias)", chi2))
            rhs = Step(
                "2κ²(ε_opt + ε̄_bias)",
                "§III-C's title with ε̄_bias := χ² (000)",
                2 * kappa**2 * (e["eps_opt"] + chi2),
            )
        out = verify_thm1(form, w=w, **pf.verify_args())
        return Explanation(
            quantities=(
                *cq.federation_quantities(pf),
                Quantity("w", "the point where the error is evaluated", tuple(w)),
            ),
            steps=tuple(steps),
            lhs=Step("ε", "F(w) − F*", e["eps"]),
            relation="≤",
            rhs=rhs,
            holds=bool(out["holds"]),
            verify_args={"form": form, **pf.verify_args(), "w": w},
        )

    return explain


def _errors_at(f: cq.QF, w: list[Any]) -> dict[str, Any]:
    return {
        "eps": f.weighted_gap(f.alpha, w, f.w_star),
        "eps_opt": f.weighted_gap(f.p, w, f.w_B),
        "eps_bias": f.weighted_gap(f.alpha, f.w_B, f.w_star),
    }


T1_HYPOTHESES = (
    Hypothesis(
        "Assumptions 3–4: F_k L-smooth and μ-strongly convex, κ = L/μ",
        "F_k = ½(w − u_k)ᵀH_k(w − u_k) with Hessian eigenvalues in [10⁻⁴, 10⁴]; L, μ the "
        "largest and smallest eigenvalue over the clients",
    ),
    Hypothesis(
        "Assumption 2: W convex and compact with w*, w_B*, w_k* in its interior",
        "W any ball containing w*, w_B*, the u_k and the point w (the statement is "
        "pointwise in w, W plays no other role)",
    ),
    Hypothesis(
        "α positive, Σα_k = 1; q ≥ 0 with πᵀq > 0; π_k ∈ (0, 1]",
        "α on the open simplex, q ∈ [0, 1]ᴺ (zeros allowed), π ∈ (0, 1]ᴺ, πᵀq > 0",
    ),
)


_T1_NOTES = (
    "Quadratic federations F_k = ½(w − u_k)ᵀH_k(w − u_k), N ≤ 4, d ≤ 3, H_k = R diag(h) Rᵀ with "
    "a Cayley rotation R (exact rational eigen-decomposition), κ up to 10⁸, α on the simplex, "
    "π ∈ (0, 1], q ≥ 0 with zeros, the point w = w_B* + 10^lw·S·direction (lw ∈ [−8, 3]: "
    "points near and far from w_B*). LHS recomputed from the parameters (floats; Fractions for "
    "the exact margin); the right-hand side from the library. Margin = (rhs − lhs)/max(|rhs|, "
    "|lhs|, floor) with the rounding floor 1e-7·κ·L·R² (R = max‖u_k‖ + spread)."
)


def t1_fields(
    label: str,
    notes: str,
    extra_params: bool = True,
    n: tuple[int, int] = (1, cq.N_MAX),
    ranges: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The claim fields shared by the Theorem-1 family (eqs. 10, 11, 15 and §III-C's total):
    the quadratic-federation space, the margin of ``label`` and its exact re-evaluation, the
    family's notes before ``notes``, and the lowered budget."""
    margin, exact = _t1_margin(label)
    return {
        "space": qf_space(_point_params() if extra_params else None, n, **(ranges or {})),
        "margin": margin,
        "exact": exact,
        "simplify": cq.simplify,
        "notes": f"{_T1_NOTES} {notes}" + BUDGET_NOTE,
        "budget": BUDGET,
    }
