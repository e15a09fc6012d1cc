"""Theorems 1–3 of CA-Fed (ToN) as computable bounds: eqs. 10, 11, 13 and 15.

* :func:`bias_bound_chi2` — Theorem 1: ε_bias ≤ κ²·χ²(α‖p)·Γ (eq. 11);
* :func:`optimization_error_bound` — Theorem 2: ε̄_opt (eq. 13);
* :func:`bias_bound_tv` — Theorem 3: ε_bias ≤ 4κ²·d_TV²(α, p)·Γ′ (eq. 15);
* :func:`total_error_bound`, :func:`total_error_at` — eq. 10: ε ≤ 2κ²(ε_opt + ε_bias);
* :func:`all_bounds` — all of them for one :class:`~fltheory.problems.ProblemSetup`;
* :class:`BoundResult` — what each returns: the value, its log, its terms and its caveats.

>>> from fltheory.bounds import bias_bound_chi2
>>> from fltheory.problems import QuadraticProblem
>>> H = [[[1.0]], [[1.0]]]
>>> problem = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
>>> bound = bias_bound_chi2(problem)  # the biased weights p = (2/3, 1/3) miss α = (½, ½)
>>> round(bound.value, 4), round(bound.exact, 4), bound.holds
(0.0625, 0.0556, True)
"""

from typing import TYPE_CHECKING

from fltheory._exports import lazy_exports

if TYPE_CHECKING:
    from fltheory.bounds.report import all_bounds
    from fltheory.bounds.result import BoundResult
    from fltheory.bounds.theorem1 import bias_bound_chi2, total_error_at, total_error_bound
    from fltheory.bounds.theorem2 import optimization_error_bound
    from fltheory.bounds.theorem3 import bias_bound_tv

__all__ = [
    "BoundResult",
    "all_bounds",
    "bias_bound_chi2",
    "bias_bound_tv",
    "optimization_error_bound",
    "total_error_at",
    "total_error_bound",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "fltheory.bounds.report": ("all_bounds",),
        "fltheory.bounds.result": ("BoundResult",),
        "fltheory.bounds.theorem1": ("bias_bound_chi2", "total_error_at", "total_error_bound"),
        "fltheory.bounds.theorem2": ("optimization_error_bound",),
        "fltheory.bounds.theorem3": ("bias_bound_tv",),
    },
)
