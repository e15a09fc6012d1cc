"""KKT conditions of  min f(q)  s.t.  q ≥ 0, 1ᵀq = Q  (problems 14 and 212 in q).

Lagrangian f(q) + μ(1ᵀq − Q) − ωᵀq. At an optimum: ∇f + μ1 − ω = 0, ω ≥ 0, q ≥ 0,
ω⊙q = 0, 1ᵀq = Q. Both problems are convex on this slice (Appendix D, Prop. 2; Appendix E1), so
these conditions are also sufficient.

Multiplier recovery (no support threshold needed): dotting stationarity with q and using
ωᵀq = 0 gives μ = −qᵀ∇f / Q; then ω := max(∇f + μ1, 0), the dual-feasible part.
"""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class KKTReport:
    """Recovered multipliers and the scaled residual of each KKT condition.

    Attributes:
        mu: multiplier of 1ᵀq = Q.
        omega: multipliers of q ≥ 0 (non-negative by construction).
        stationarity: ‖min(∇f + μ1, 0)‖∞ / g_scale: the part of ∇f + μ1 that no ω ≥ 0 absorbs
            (covers dual infeasibility).
        complementarity: max_k ω_k q_k / (g_scale·Q).
        primal: max(|1ᵀq − Q|, max_k(−q_k)) / Q.
        g_scale: max(term_scale, ‖∇f‖∞, |μ|), floored at the smallest normal double. The
            objectives' gradients are differences of terms that cancel at an optimum, so the
            caller passes the largest term magnitude as ``term_scale``: residuals are relative
            to what a solver's rounding actually perturbs.
    """

    mu: float
    omega: np.ndarray
    stationarity: float
    complementarity: float
    primal: float
    g_scale: float

    @property
    def residual(self) -> float:
        """The largest of the three scaled residuals (dimensionless)."""
        return max(self.stationarity, self.complementarity, self.primal)


def simplex_kkt(q: np.ndarray, grad: np.ndarray, Q: float, term_scale: float = 0.0) -> KKTReport:
    """Check the KKT conditions at ``q`` given ``grad`` = ∇f(q)."""
    mu = -float(np.dot(q, grad)) / Q
    shifted = grad + mu
    omega = np.maximum(shifted, 0.0)
    g_scale = max(term_scale, float(np.max(np.abs(grad))), abs(mu), np.finfo(float).tiny)
    stationarity = float(np.max(np.maximum(-shifted, 0.0))) / g_scale
    complementarity = float(np.max(omega * np.abs(q))) / (g_scale * Q)
    primal = max(abs(float(q.sum()) - Q), float(np.max(np.maximum(-q, 0.0)))) / Q
    return KKTReport(mu, omega, stationarity, complementarity, primal, g_scale)
