"""The problem constants the bounds of CA-Fed (ToN) consume, for users with their own model."""

import math
from dataclasses import dataclass, field

import numpy as np

from fltheory.errors import InputError

#: Tolerance on Σα = 1.
SIMPLEX_ATOL = 1e-9


def check_simplex(x: np.ndarray, name: str) -> np.ndarray:
    """A non-negative 1-D float vector summing to 1 (within ``SIMPLEX_ATOL``)."""
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 1 or arr.size == 0:
        raise InputError(f"{name} must be a non-empty 1-D vector, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0.0):
        raise InputError(f"{name} must be finite and non-negative")
    if abs(arr.sum() - 1.0) > SIMPLEX_ATOL:
        raise InputError(f"{name} must sum to 1, got {arr.sum():.12g}")
    return arr


def check_availability(pi: np.ndarray, n: int) -> np.ndarray:
    """π as a length-n float vector in [0, 1] with some positive entry."""
    arr = np.asarray(pi, dtype=float)
    if arr.shape != (n,):
        raise InputError(f"pi must have shape ({n},), got {arr.shape}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0.0) or np.any(arr > 1.0):
        raise InputError("pi must lie in [0, 1]")
    if not np.any(arr > 0.0):
        raise InputError("pi must have a positive entry (some client must be available)")
    return arr


def check_weights(q: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """Aggregation weights q ≥ 0 (length N) with πᵀq > 0, as a float vector."""
    arr = np.asarray(q, dtype=float)
    if arr.shape != pi.shape:
        raise InputError(f"q must have shape {pi.shape}, got {arr.shape}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0.0):
        raise InputError("q must be finite and non-negative")
    if not float(pi @ arr) > 0.0:
        raise InputError("πᵀq must be positive (some available client needs a positive weight)")
    return arr


def _positive(value: float, name: str, *, allow_zero: bool = False) -> float:
    v = float(value)
    ok = v >= 0.0 if allow_zero else v > 0.0
    if not (math.isfinite(v) and ok):
        sign = "non-negative" if allow_zero else "positive"
        raise InputError(f"{name} must be finite and {sign}, got {value}")
    return v


@dataclass(frozen=True, eq=False)
class ProblemConstants:
    """Constants of Assumptions 2–5, Lemma 1 and eq. 9 (CA-Fed ToN).

    Attributes:
        L: smoothness of every F_k (Assumption 3).
        mu: strong convexity of every F_k (Assumption 4); μ ≤ L.
        Gamma: Γ = max_k {F_k(w*) − F_k*} (eq. 9).
        Gamma_prime: Γ′ = max_k {F_k(w_B*) − F_k*} (Theorem 3) at the weights in use, or None.
        D, G, H: Lemma 1 (eqs. 6–8) on W.
        sigma: σ_k, the per-client gradient-noise bound (Assumption 5).
        diam: diam(W) (Assumption 2).
        alpha: target importance α (eq. 1), on the simplex.
        pi: asymptotic availabilities π_k (eq. 4).
    """

    L: float
    mu: float
    Gamma: float
    D: float
    G: float
    H: float
    diam: float
    sigma: np.ndarray
    alpha: np.ndarray
    pi: np.ndarray
    Gamma_prime: float | None = None
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        L, mu = _positive(self.L, "L"), _positive(self.mu, "mu")
        if mu > L * (1.0 + 1e-12):
            raise InputError(f"mu = {mu} exceeds L = {L} (strong convexity > smoothness)")
        _positive(self.Gamma, "Gamma", allow_zero=True)
        if self.Gamma_prime is not None:
            _positive(self.Gamma_prime, "Gamma_prime", allow_zero=True)
        for name in ("D", "G", "H", "diam"):
            _positive(getattr(self, name), name)
        alpha = check_simplex(self.alpha, "alpha")
        pi = check_availability(self.pi, alpha.size)
        sigma = np.asarray(self.sigma, dtype=float)
        if sigma.ndim == 0:
            sigma = np.full(alpha.size, float(sigma))
        if sigma.shape != alpha.shape:
            raise InputError(f"sigma must have shape {alpha.shape}, got {sigma.shape}")
        if not np.all(np.isfinite(sigma)) or np.any(sigma < 0.0):
            raise InputError("sigma must be finite and non-negative")
        for arr in (alpha, pi, sigma):
            arr.setflags(write=False)
        object.__setattr__(self, "alpha", alpha)
        object.__setattr__(self, "pi", pi)
        object.__setattr__(self, "sigma", sigma)

    @property
    def n_clients(self) -> int:
        return int(self.alpha.size)

    @property
    def kappa(self) -> float:
        """κ = L/μ (Theorem 1)."""
        return self.L / self.mu
