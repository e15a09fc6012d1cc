"""Theorem 1 of CA-Fed (ToN): ε ≤ 2κ²(ε_opt + ε_bias) (eq. 10), ε_bias ≤ κ²χ²(α‖p)Γ (eq. 11).

Eq. 10 as in the main text and the proof (eqs. 21–24); the appendix restatement misplaces the
bracket. Eq. 11 from eqs. 25–37.
"""

import math
from typing import Any

import numpy as np

from fltheory.bounds.result import BoundResult, safe_exp, safe_log
from fltheory.bounds.sources import bias_inputs
from fltheory.divergence import chi_square, starved_clients
from fltheory.errors import InputError
from fltheory.problems.constants import ProblemConstants
from fltheory.problems.quadratic import QuadraticProblem


def bias_bound_chi2(
    source: QuadraticProblem | ProblemConstants, q: Any | None = None
) -> BoundResult:
    """ε_bias = F(w_B*) − F* ≤ κ²·χ²(α‖p)·Γ (eq. 11).

    χ² is infinite when some client has α_k > 0 but p_k = 0 (q_k = 0 or π_k = 0); the bound is
    then reported as inf (even when Γ = 0, where κ²·∞·0 is undefined), with a warning.

    >>> H = [[[1.0]], [[1.0]]]
    >>> problem = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
    >>> bound = bias_bound_chi2(problem)  # p = (2/3, 1/3): χ²(α‖p) = 1/8, Γ = ½, κ = 1
    >>> round(bound.terms["chi_square"], 6), round(bound.value, 6), round(bound.exact, 6)
    (0.125, 0.0625, 0.055556)
    """
    inp = bias_inputs(source, q)
    chi2 = chi_square(inp.alpha, inp.p)
    kappa_sq = inp.kappa**2
    warnings: list[str] = []
    if math.isinf(chi2):
        starved = starved_clients(inp.alpha, inp.p)
        warnings.append(
            f"χ²(α‖p) = inf: clients {starved} have α_k > 0 but p_k = 0; eq. 11 diverges "
            "(an artifact of the proof, see eq. 15)"
        )
        log_value = math.inf
    else:
        log_value = 2.0 * math.log(inp.kappa) + safe_log(chi2) + safe_log(inp.Gamma)
    eps_bar = math.inf if math.isinf(chi2) else chi2 * inp.Gamma
    terms = {"kappa_sq": kappa_sq, "chi_square": chi2, "Gamma": inp.Gamma, "eps_bar_bias": eps_bar}
    return inp.result(log_value, "eq. 11", terms, warnings)


def total_error_bound(
    kappa: float, eps_opt: float, eps_bias: float, *, exact: float | None = None
) -> BoundResult:
    """ε = F(w) − F* ≤ 2κ²(ε_opt + ε_bias) (eq. 10), for given (bounds on) ε_opt and ε_bias.

    >>> total_error_bound(2.0, eps_opt=0.1, eps_bias=0.05).value  # 2·4·0.15
    1.2
    """
    for name, x in (("eps_opt", eps_opt), ("eps_bias", eps_bias)):
        if math.isnan(x) or x < 0.0:
            raise InputError(f"{name} must be non-negative, got {x}")
    return total_error_bound_log(kappa, safe_log(eps_opt), safe_log(eps_bias), exact=exact)


def total_error_bound_log(
    kappa: float, log_eps_opt: float, log_eps_bias: float, *, exact: float | None = None
) -> BoundResult:
    """Eq. 10 from the natural logs of ε_opt and ε_bias (for bounds that overflow a double)."""
    if not (math.isfinite(kappa) and kappa >= 1.0):
        raise InputError(f"kappa = L/μ must be finite and >= 1, got {kappa}")
    log_sum = float(np.logaddexp(log_eps_opt, log_eps_bias))
    log_value = math.log(2.0) + 2.0 * math.log(kappa) + log_sum
    log_terms = {
        "kappa_sq": 2.0 * math.log(kappa),
        "eps_opt": log_eps_opt,
        "eps_bias": log_eps_bias,
    }
    return BoundResult.from_log(
        log_value,
        "eq. 10",
        terms={k: safe_exp(v) for k, v in log_terms.items()},
        log_terms=log_terms,
        exact=exact,
    )


def total_error_at(problem: QuadraticProblem, w: Any) -> BoundResult:
    """Eq. 10 at w for a quadratic problem: exact ε_opt(w) and ε_bias, exact left side ε(w).

    >>> H = [[[1.0]], [[1.0]]]
    >>> problem = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
    >>> bound = total_error_at(problem, [1.0])  # w = w* = 1: ε = 0
    >>> bound.exact, bound.holds
    (0.0, True)
    """
    return total_error_bound(
        problem.kappa, problem.eps_opt(w), problem.eps_bias, exact=problem.eps(w)
    )
