"""The problem constants the bounds of CA-Fed (ToN) consume, for users with their own model."""

from dataclasses import dataclass, field

import numpy as np

from fltheory import checks
from fltheory.errors import InputError


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
        diameter: diameter(W) (Assumption 2).
        alpha: target importance α (eq. 1), on the simplex.
        pi: asymptotic availabilities π_k (eq. 4).

    >>> c = ProblemConstants(4.0, 0.5, 0.1, 1.0, 1.0, 1.0, 2.0, 1.0, [0.5, 0.5], [0.9, 0.3])
    >>> c.kappa, c.sigma.tolist()
    (8.0, [1.0, 1.0])
    """

    L: float
    mu: float
    Gamma: float
    D: float
    G: float
    H: float
    diameter: float
    sigma: np.ndarray
    alpha: np.ndarray
    pi: np.ndarray
    Gamma_prime: float | None = None
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        L, mu = checks.positive(self.L, "L"), checks.positive(self.mu, "mu")
        if mu > L * (1.0 + 1e-12):
            raise InputError(f"mu = {mu} exceeds L = {L} (strong convexity > smoothness)")
        checks.nonnegative(self.Gamma, "Gamma")
        if self.Gamma_prime is not None:
            checks.nonnegative(self.Gamma_prime, "Gamma_prime")
        for name in ("D", "G", "H", "diameter"):
            checks.positive(getattr(self, name), name)
        alpha = checks.simplex(self.alpha, "alpha")
        pi = checks.availability(self.pi, "pi", alpha.size)
        sigma = self.sigma
        if np.ndim(sigma) == 0:
            sigma = np.full(alpha.size, checks.nonnegative(sigma, "sigma"))
        sigma = checks.nonnegative_vector(sigma, "sigma", alpha.size)
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
        """κ = L/μ (Theorem 1).

        >>> ProblemConstants(4.0, 0.5, 0.1, 1.0, 1.0, 1.0, 2.0, 1.0, [0.5, 0.5], [0.9, 0.3]).kappa
        8.0
        """
        return self.L / self.mu
