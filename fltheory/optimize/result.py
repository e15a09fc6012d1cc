"""The record every weight optimiser returns, built from a raw q by :func:`finalize`.

The solver's own objective value is never reported: :func:`finalize` recomputes the ORIGINAL
objective (in q, not in the perspective variables) in numpy and the KKT residual of the original
problem (see :mod:`fltheory.optimize.kkt`). Anything that would be NaN, infeasible or clearly
not optimal raises :class:`~fltheory.errors.NumericalError` instead of being returned.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fltheory.divergence import biased_importance
from fltheory.errors import NumericalError
from fltheory.optimize.kkt import simplex_kkt

#: q_k ≤ EXCLUDED_TOL·Q counts as "client k excluded" (q_k* = 0).
EXCLUDED_TOL = 1e-7
#: Solver outputs with q_k < −NEGATIVE_TOL·Q are rejected; smaller negatives are clipped to 0.
NEGATIVE_TOL = 1e-6
#: Answers whose scaled KKT residual exceeds this are rejected as unreliable.
KKT_TOL = 1e-5


@dataclass(frozen=True)
class OptimizationResult:
    """Optimal aggregation weights for problem (14) or (212).

    Attributes:
        status: "optimal", or cvxpy's "optimal_inaccurate" when the KKT check still passed
            (every other outcome raises before a result exists).
        objective: the original objective at ``q``, recomputed in numpy.
        q: aggregation weights, q ≥ 0, Σq = Q.
        p: biased importance π⊙q/πᵀq (eq. 4).
        excluded: indices k with q_k ≤ ``excluded_tol``·Q, ascending.
        kkt_residual: scaled KKT residual of the original problem at ``q`` (kkt.simplex_kkt).
        solver: "closed-form" or the cvxpy solver name.
        solve_time: wall seconds of the solve (for cvxpy: the whole ``Problem.solve`` call).
        problem: "14" or "212".
        mu: recovered multiplier of Σq = Q.
        excluded_tol: the relative threshold used for ``excluded``.
        extras: problem-specific numbers (e.g. the two terms of problem 14's objective).

    >>> from fltheory.optimize import solve_closed_form
    >>> res = solve_closed_form([0.9, 0.5], [1.0, 1.0], v=1.0, Q=1.0)
    >>> res.status, res.p.round(4).tolist(), res.kkt_residual < 1e-9
    ('optimal', [0.8957, 0.1043], True)
    """

    status: str
    objective: float
    q: np.ndarray
    p: np.ndarray
    excluded: tuple[int, ...]
    kkt_residual: float
    solver: str
    solve_time: float
    problem: str
    mu: float
    excluded_tol: float = EXCLUDED_TOL
    extras: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with keys status, objective, q, p, excluded, kkt_residual, ...

        >>> from fltheory.optimize import solve_closed_form
        >>> d = solve_closed_form([0.9, 0.5], [1.0, 1.0], v=1.0, Q=1.0).to_dict()
        >>> d["problem"], d["solver"], d["excluded"]
        ('212', 'closed-form', [])
        """
        return {
            "status": self.status,
            "objective": self.objective,
            "q": self.q.tolist(),
            "p": self.p.tolist(),
            "excluded": list(self.excluded),
            "kkt_residual": self.kkt_residual,
            "solver": self.solver,
            "solve_time": self.solve_time,
            "problem": self.problem,
            "mu": self.mu,
            "excluded_tol": self.excluded_tol,
            **self.extras,
        }


def finalize(
    q_raw: np.ndarray,
    *,
    problem: str,
    pi: np.ndarray,
    Q: float,
    objective: Callable[[np.ndarray], float],
    gradient: Callable[[np.ndarray], tuple[np.ndarray, float]],
    solver: str,
    solve_time: float,
    status: str = "optimal",
    extras: dict[str, Any] | None = None,
    kkt_tol: float = KKT_TOL,
) -> OptimizationResult:
    """Clean a solver's q (clip tiny negatives, rescale to Σq = Q) and certify it."""
    q = np.asarray(q_raw, dtype=np.float64)
    if q.shape != pi.shape or not np.all(np.isfinite(q)):
        raise NumericalError(f"problem {problem}: {solver} returned a non-finite q")
    if np.min(q) < -NEGATIVE_TOL * Q:
        raise NumericalError(
            f"problem {problem}: {solver} returned q with entry {np.min(q):.3g} < 0"
        )
    q = np.maximum(q, 0.0)
    total = float(q.sum())
    if total <= 0.0:
        raise NumericalError(f"problem {problem}: {solver} returned q = 0")
    q = q * (Q / total)
    value = objective(q)
    if not np.isfinite(value):
        raise NumericalError(f"problem {problem}: objective is not finite at {solver}'s q")
    grad, term_scale = gradient(q)
    report = simplex_kkt(q, grad, Q, term_scale)
    if not np.isfinite(report.residual) or report.residual > kkt_tol:
        raise NumericalError(
            f"problem {problem}: {solver}'s answer fails the KKT check "
            f"(scaled residual {report.residual:.3g} > {kkt_tol:.1g})"
        )
    excluded = tuple(int(k) for k in np.flatnonzero(q <= EXCLUDED_TOL * Q))
    return OptimizationResult(
        status=status,
        objective=float(value),
        q=q,
        p=biased_importance(q, pi),
        excluded=excluded,
        kkt_residual=float(report.residual),
        solver=solver,
        solve_time=float(solve_time),
        problem=problem,
        mu=report.mu,
        extras=dict(extras or {}),
    )
