"""Equality-constrained Newton refinement of a solver's q on its support, in O(N) per step.

Interior-point solvers stop at a duality gap of ~1e-10, which leaves q off by ~1e-5 on these
flat objectives. Starting from their answer, Newton's method on {q_F : 1ᵀq_F = Q − Σ q_rest}
(F = the support, other entries held fixed) converges quadratically. The Hessian is
diag + rank 2 (objective.structured_hessian), so each KKT system

    [H 1; 1ᵀ 0] [d; λ] = [−g; 0]

is solved with the Woodbury identity: d = −H⁻¹(g + λ1), λ = −1ᵀH⁻¹g / 1ᵀH⁻¹1. H may be
indefinite off the slice (χ² is not convex on the orthant, Appendix D Prop. 1) but the decrement
−gᵀd = dᵀHd is ≥ 0 on the slice (Prop. 2); steps that do not decrease the objective are refused.
The caller keeps whichever of the raw and polished q has the smaller KKT residual.
"""

from collections.abc import Callable

import numpy as np

from fltheory.optimize.kkt import simplex_kkt

Hessian = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]


def _woodbury_solve(diag: np.ndarray, U: np.ndarray, C: np.ndarray, X: np.ndarray) -> np.ndarray:
    """(diag + U C Uᵀ)⁻¹ X for X of shape (n, m)."""
    dinv_x = X / diag[:, None]
    dinv_u = U / diag[:, None]
    core = np.linalg.inv(C) + U.T @ dinv_u
    return dinv_x - dinv_u @ np.linalg.solve(core, U.T @ dinv_x)


def newton_polish(
    q0: np.ndarray,
    free: np.ndarray,
    value: Callable[[np.ndarray], float],
    gradient: Callable[[np.ndarray], tuple[np.ndarray, float]],
    hessian: Hessian,
    max_iter: int = 60,
) -> np.ndarray:
    """Refine ``q0`` over the boolean mask ``free``; returns q0 unchanged if no step helps."""
    q = q0.copy()
    f = value(q)
    if not free.any() or not np.isfinite(f):
        return q
    for _ in range(max_iter):
        g = gradient(q)[0][free]
        diag, U, C = hessian(q)
        diag, U = diag[free], U[free]
        if np.any(diag <= 0.0) or not np.all(np.isfinite(diag)):
            break
        try:
            sol = _woodbury_solve(diag, U, C, np.column_stack([g, np.ones_like(g)]))
        except np.linalg.LinAlgError:
            break
        lam = -sol[:, 0].sum() / sol[:, 1].sum()
        d = -(sol[:, 0] + lam * sol[:, 1])
        decrement = -float(np.dot(g, d))
        if not np.isfinite(decrement) or decrement <= 1e-30 * max(abs(f), 1e-300):
            break
        qf = q[free]
        shrink = d < 0.0
        t = min(1.0, 0.99 * float(np.min(-qf[shrink] / d[shrink]))) if shrink.any() else 1.0
        while t > 1e-12:
            trial = q.copy()
            trial[free] = qf + t * d
            f_trial = value(trial)
            if np.isfinite(f_trial) and f_trial <= f - 0.25 * t * decrement:
                break
            t *= 0.5
        else:
            break
        q, f = trial, f_trial
    return q


def kkt_residual(
    q: np.ndarray, gradient: Callable[[np.ndarray], tuple[np.ndarray, float]], Q: float
) -> float:
    """The scaled KKT residual of :func:`fltheory.optimize.kkt.simplex_kkt` (inf if undefined)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        g, scale = gradient(q)
        res = simplex_kkt(q, g, Q, scale).residual
    return res if np.isfinite(res) else np.inf


#: Candidate support thresholds (relative to Q) tried by :func:`refine`.
SUPPORT_CUTS = (1e-7, 1e-5, 1e-3)


def refine(
    q_raw: np.ndarray,
    Q: float,
    value: Callable[[np.ndarray], float],
    gradient: Callable[[np.ndarray], tuple[np.ndarray, float]],
    hessian: Hessian,
) -> tuple[np.ndarray, bool]:
    """Polish a solver's q; return (q, whether a polished candidate was kept).

    Interior-point answers can put ~1e-5·Q on clients whose optimal weight is 0, or ~1e-9·Q on
    clients whose optimal weight is small but positive. So for each cut in :data:`SUPPORT_CUTS`
    two starts are polished: q zeroed where q_k ≤ cut·Q (those held at 0), and q lifted to
    max(q_k, cut·Q) (all free). All candidates and the raw q (clipped at 0 and rescaled to
    Σq = Q) are judged by the KKT residual of the original problem; the best wins (the loop
    stops early once a residual is below 1e-12).
    """
    raw = np.maximum(np.asarray(q_raw, dtype=np.float64), 0.0)
    if not np.all(np.isfinite(raw)) or raw.sum() <= 0.0:
        return np.asarray(q_raw, dtype=np.float64), False
    raw *= Q / raw.sum()

    def residual(q: np.ndarray) -> float:
        return kkt_residual(q, gradient, Q)

    starts = []
    for cut in SUPPORT_CUTS:
        free = raw > cut * Q
        if free.any():
            starts.append((np.where(free, raw, 0.0), free))
        starts.append((np.maximum(raw, cut * Q), np.ones_like(free)))
    best, best_res, polished = raw, residual(raw), False
    for start, free in starts:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            candidate = newton_polish(start * (Q / start.sum()), free, value, gradient, hessian)
            res = residual(candidate)
        if res < best_res:
            best, best_res, polished = candidate, res, True
        if best_res < 1e-12:
            break
    return best, polished
