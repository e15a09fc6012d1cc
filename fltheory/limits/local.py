"""Client updates on quadratics after s exact local gradient steps of size η.

For F_k(x) = ½(x − u_k)ᵀH_k(x − u_k), one step maps y − u_k ↦ (I − ηH_k)(y − u_k), so after s_k
steps from x the update is Δ_k = B_k (u_k − x) with B_k = I − (I − ηH_k)^(s_k) (FedPBC paper,
Algorithm 1 lines 12–14; CA-Fed ToN eq. 2 with exact gradients). For H_k = I this is the scalar
gain γ_k = 1 − (1 − η)^(s_k).
"""

import numpy as np

from fltheory.errors import InputError


def _steps(local_steps: object) -> np.ndarray:
    steps = np.asarray(local_steps)
    if steps.size == 0 or not np.issubdtype(steps.dtype, np.number):
        raise InputError("local_steps must be a positive integer (or one per client)")
    if np.any(steps < 1) or np.any(steps != np.round(steps)):
        raise InputError("local_steps must be positive integers")
    return steps.astype(np.int64)


def _lr(lr: float) -> float:
    if not (np.isfinite(lr) and 0.0 < lr < 2.0):
        raise InputError(f"local learning rate lr={lr} must lie in (0, 2) (|1 − η| < 1)")
    return float(lr)


def _one_minus_power(base_gap: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """1 − (1 − g)^s, accurate for small g via −expm1(s·log1p(−g)) when g < 1."""
    g = np.asarray(base_gap, dtype=float)
    safe = g < 1.0
    out = 1.0 - np.power(1.0 - g, steps)
    out = np.where(safe, -np.expm1(steps * np.log1p(-np.where(safe, g, 0.0))), out)
    return out


def local_gain(lr: float, local_steps: object = 1) -> np.ndarray:
    """γ = 1 − (1 − η)^s for isotropic objectives (H = I); an array shaped like local_steps.

    >>> local_gain(0.5, [1, 2, 3]).tolist()
    [0.5, 0.75, 0.875]
    """
    return _one_minus_power(np.asarray(_lr(lr)), _steps(local_steps))


def local_operators(hessians: np.ndarray, lr: float, local_steps: object = 1) -> np.ndarray:
    """B_k = I − (I − ηH_k)^(s_k) for symmetric H_k, shape (N, d, d).

    Raises InputError unless every H_k is symmetric with η·λ(H_k) in [0, 2) (local steps stable).
    """
    H = np.asarray(hessians, dtype=float)
    if H.ndim != 3 or H.shape[1] != H.shape[2]:
        raise InputError(f"hessians must have shape (N, d, d), got {H.shape}")
    if not np.allclose(H, np.swapaxes(H, 1, 2), rtol=1e-12, atol=1e-12):
        raise InputError("every H_k must be symmetric")
    eta = _lr(lr)
    steps = np.broadcast_to(_steps(local_steps), (H.shape[0],))
    eigval, eigvec = np.linalg.eigh(H)
    scaled = eta * eigval
    if np.any(scaled < -1e-12) or np.any(scaled >= 2.0):
        raise InputError("need 0 ≤ η·λ(H_k) < 2 for every client (PSD H_k, stable local steps)")
    gains = _one_minus_power(np.clip(scaled, 0.0, None), steps[:, None])
    return np.einsum("kij,kj,klj->kil", eigvec, gains, eigvec)
