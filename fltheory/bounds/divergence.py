"""Biased importance and the two divergences between α and p used by Theorems 1 and 3."""

import math

import numpy as np


def biased_importance(pi: np.ndarray, q: np.ndarray) -> np.ndarray:
    """p = π⊙q / πᵀq (eq. 4)."""
    w = np.asarray(pi, dtype=float) * np.asarray(q, dtype=float)
    return w / w.sum()


def chi_square(alpha: np.ndarray, p: np.ndarray) -> float:
    """χ²(α‖p) = Σ_k (α_k − p_k)²/p_k (Theorem 1); inf when p_k = 0 < α_k, and 0/0 = 0."""
    alpha, p = np.asarray(alpha, dtype=float), np.asarray(p, dtype=float)
    if np.any((p <= 0.0) & (alpha > 0.0)):
        return math.inf
    pos = p > 0.0
    return float(np.sum((alpha[pos] - p[pos]) ** 2 / p[pos]))


def total_variation(alpha: np.ndarray, p: np.ndarray) -> float:
    """d_TV(α, p) = ½ Σ_k |α_k − p_k| (Theorem 3)."""
    return 0.5 * float(np.sum(np.abs(np.asarray(alpha, float) - np.asarray(p, float))))


def starved_clients(alpha: np.ndarray, p: np.ndarray) -> list[int]:
    """Clients with α_k > 0 but p_k = 0 (they make χ² infinite)."""
    return np.flatnonzero((np.asarray(p) <= 0.0) & (np.asarray(alpha) > 0.0)).tolist()
