"""The record every limit computation returns."""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class LimitResult:
    """lim E[x_t] and how it was obtained.

    ``weights`` (isotropic objectives only) are the effective client weights, limit = weights @ u,
    summing to one; ``rate`` is the spectral radius of the linear part of the mean recursion
    (E[x_t] − limit = O(rate^t)); ``error_bound`` is a certified relative bound on the weights
    from quadrature (0.0: exact up to rounding); ``stationary_mse`` is E‖x − limit‖² under the
    stationary law when it was computed (None otherwise, see ``note``).

    >>> from fltheory.limits import bernoulli_limit
    >>> result = bernoulli_limit([0.5, 1.0], [[0.0], [1.0]])
    >>> result.limit.round(12).tolist(), round(result.rate, 12)  # 1 − γ·P(A ≠ ∅), γ = η = 0.1
    ([0.75], 0.9)
    """

    limit: np.ndarray
    weights: np.ndarray | None
    rate: float
    method: str
    error_bound: float = 0.0
    stationary_mse: float | None = None
    note: str = ""

    def distance(self, optimum: np.ndarray) -> float:
        """‖limit − optimum‖₂.

        >>> from fltheory.limits import bernoulli_limit
        >>> round(bernoulli_limit([0.5, 1.0], [[0.0], [1.0]]).distance([0.5]), 12)
        0.25
        """
        return float(np.linalg.norm(self.limit - np.asarray(optimum, dtype=float)))
