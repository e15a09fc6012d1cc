"""Optimal aggregation weights (CA-Fed ToN Sections III-C–E, Appendices D–E).

* problem (212), min ε̄_opt (eq. 13): :func:`solve_closed_form` (Appendix E2–E3, O(N log N))
  and :func:`solve_cvxpy` (the perspective form of Appendix E1);
* problem (14), min ε̄_opt + κ̄²·ε̄_bias: :class:`Problem14` (cvxpy, compiled once);
* Guidelines A–C: :func:`exclude_by_availability`, :func:`exclude_by_correlation`,
  :func:`reduced_lambda`, :func:`unbiased_weights`;
* :class:`OptimizationResult` — what every solver returns, certified by a KKT check;
  :data:`DEFAULT_KAPPA2` — κ̄² of problem (14) as printed.

Modules: ``problem212``, ``problem14``, ``guidelines``, ``result``, and
``objective``/``kkt``/``polish`` (numpy objectives, KKT certificate, Newton refinement).

>>> from fltheory.optimize import solve_closed_form
>>> solve_closed_form([0.9, 0.5, 0.1], [1.0, 1.0, 1.0], v=1.0, Q=1.0).excluded  # Guideline A
(2,)
"""

from typing import TYPE_CHECKING

from fltheory._exports import lazy_exports
from fltheory.defaults import KAPPA2 as DEFAULT_KAPPA2

if TYPE_CHECKING:
    from fltheory.optimize.guidelines import (
        exclude_by_availability,
        exclude_by_correlation,
        reduced_lambda,
        unbiased_weights,
    )
    from fltheory.optimize.problem14 import Problem14
    from fltheory.optimize.problem212 import solve_closed_form, solve_cvxpy
    from fltheory.optimize.result import OptimizationResult

__all__ = [
    "DEFAULT_KAPPA2",
    "OptimizationResult",
    "Problem14",
    "exclude_by_availability",
    "exclude_by_correlation",
    "reduced_lambda",
    "solve_closed_form",
    "solve_cvxpy",
    "unbiased_weights",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "fltheory.optimize.guidelines": (
            "exclude_by_availability",
            "exclude_by_correlation",
            "reduced_lambda",
            "unbiased_weights",
        ),
        "fltheory.optimize.problem14": ("Problem14",),
        "fltheory.optimize.problem212": ("solve_closed_form", "solve_cvxpy"),
        "fltheory.optimize.result": ("OptimizationResult",),
    },
)
