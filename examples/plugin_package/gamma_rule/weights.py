"""The γ-rule's effective weights: where aggregation with q_k = α_k/π_k^γ leads.

Clients available with probability π_k and aggregated with weights q_k optimise the biased
objective F_B = Σ_k p_k F_k with p_k ∝ π_k q_k (CA-Fed ToN eq. (4)). For the γ-rule
p_k(γ) = α_k π_k^(1−γ) / Σ_j α_j π_j^(1−γ): γ = 1 removes the bias (p = α), γ = 0 is FedAvg with
q = α (p ∝ απ).
"""

import numpy as np


def effective_weights(alpha: np.ndarray, pi: np.ndarray, gamma: float) -> np.ndarray:
    """p(γ) ∝ α π^(1−γ), computed in log space (π may be tiny).

    >>> effective_weights(np.array([0.5, 0.5]), np.array([1.0, 0.25]), 0.0).round(12).tolist()
    [0.8, 0.2]
    """
    log_p = np.log(alpha) + (1.0 - gamma) * np.log(pi)
    p = np.exp(log_p - log_p.max())
    return np.asarray(p / p.sum())


def total_variation(p: np.ndarray, q: np.ndarray) -> float:
    """d_TV(p, q) = ½ Σ |p_k − q_k|.

    >>> round(total_variation(np.array([0.8, 0.2]), np.array([0.5, 0.5])), 12)
    0.3
    """
    return float(0.5 * np.abs(p - q).sum())
