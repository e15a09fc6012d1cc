"""Theorem 3 of CA-Fed (ToN): ε_bias ≤ 4κ²·d_TV²(α, p)·Γ′ (eq. 15; proof eqs. 188–190)."""

import math
from typing import Any

from fltheory.bounds.result import BoundResult, safe_log
from fltheory.bounds.sources import bias_inputs
from fltheory.divergence import total_variation
from fltheory.problems.constants import ProblemConstants
from fltheory.problems.quadratic import QuadraticProblem


def bias_bound_tv(source: QuadraticProblem | ProblemConstants, q: Any | None = None) -> BoundResult:
    """ε_bias ≤ 4κ²·d_TV²(α, p)·Γ′ with Γ′ = max_k {F_k(w_B*) − F_k*} at this q (eq. 15).

    Unlike eq. 11 it stays finite when some q_k = 0. With a table of constants and no Γ′ the
    bound is reported as inf with a warning.

    >>> H = [[[1.0]], [[1.0]]]
    >>> problem = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
    >>> bound = bias_bound_tv(problem)  # d_TV((½, ½), (2/3, 1/3)) = 1/6
    >>> round(bound.terms["tv_distance"], 6), bound.exact <= bound.value
    (0.166667, True)
    """
    inp = bias_inputs(source, q)
    tv = float(total_variation(inp.alpha, inp.p))
    warnings: list[str] = []
    if inp.Gamma_prime is None:
        warnings.append("Γ′ not given: eq. 15 cannot be evaluated")
        gamma_p, log_value = math.inf, math.inf
    else:
        gamma_p = inp.Gamma_prime
        log_value = (
            math.log(4.0) + 2.0 * math.log(inp.kappa) + 2.0 * safe_log(tv) + safe_log(gamma_p)
        )
    terms = {
        "kappa_sq": inp.kappa**2,
        "tv_distance": tv,
        "Gamma_prime": gamma_p,
        "eps_bar_bias_prime": tv**2 * gamma_p if math.isfinite(gamma_p) else math.inf,
    }
    return inp.result(log_value, "eq. 15", terms, warnings)
