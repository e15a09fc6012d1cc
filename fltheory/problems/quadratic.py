"""Quadratic federated problems, where every quantity of CA-Fed (ToN) has a closed form.

F_k(w) = ½(w − u_k)ᵀH_k(w − u_k) + c_k with every H_k symmetric positive definite: Assumption 4
asks each *local* function to be μ-strongly convex, and the proof of Theorem 1 uses it for F_k
(eq. 29) as well as for F and F_B (eq. 24), so μ = min_k λ_min(H_k) and L = max_k λ_max(H_k)
(Assumption 3). Then F_k* = c_k, w_k* = u_k, and for any weights ω on the simplex the minimiser
of Σ ω_k F_k is (Σ ω_k H_k)⁻¹ Σ ω_k H_k u_k (one linear solve, no iterations).
"""

from functools import cached_property
from typing import Any

import numpy as np

from fltheory import checks
from fltheory.errors import AssumptionViolation, InputError, NumericalError
from fltheory.optimize.guidelines import unbiased_weights
from fltheory.problems.constants import ProblemConstants
from fltheory.reprs import array_literal, call_literal

#: Relative asymmetry tolerated in H_k before it is rejected (then symmetrised).
SYMMETRY_RTOL = 1e-10
#: Largest κ = L/μ for which the closed forms are trusted in double precision.
MAX_CONDITION = 1e12


def _quad_forms(diffs: np.ndarray, hess: np.ndarray) -> np.ndarray:
    """(d_kᵀ H_k d_k)_k for diffs (N, d) and hess (N, d, d)."""
    return np.einsum("ki,kij,kj->k", diffs, hess, diffs)


class QuadraticProblem:
    """N quadratic clients with target importance α, availabilities π and weights q.

    Args:
        u: (N, d) local minimisers w_k*.
        H: (N, d, d) symmetric positive definite Hessians.
        c: (N,) local minimum values F_k*.
        alpha: target importance α (eq. 1), on the simplex.
        pi: asymptotic availabilities π_k ∈ [0, 1] (eq. 4).
        q: aggregation weights q ≥ 0 with πᵀq > 0 (eq. 4); default α/π scaled to sum 1
            (the unbiased strategy, Section III-B, :func:`~fltheory.optimize.guidelines.
            unbiased_weights`), which needs π > 0 where α > 0.

    >>> prob = QuadraticProblem([[0.0], [2.0]], [[[1.0]], [[1.0]]], 0.0, [0.5, 0.5], [1.0, 0.5])
    >>> prob.q.tolist(), prob.w_star.tolist()
    ([0.3333333333333333, 0.6666666666666666], [1.0])
    """

    def __init__(self, u: Any, H: Any, c: Any, alpha: Any, pi: Any, q: Any | None = None) -> None:
        u_arr = np.asarray(u, dtype=float)
        if u_arr.ndim != 2 or 0 in u_arr.shape:
            raise InputError(f"u must be a non-empty (N, d) array, got shape {u_arr.shape}")
        n, d = u_arr.shape
        h_arr = np.asarray(H, dtype=float)
        if h_arr.shape != (n, d, d):
            raise InputError(f"H must have shape ({n}, {d}, {d}), got {h_arr.shape}")
        c_arr = np.asarray(c, dtype=float)
        if c_arr.ndim == 0:
            c_arr = np.full(n, float(c_arr))
        if c_arr.shape != (n,):
            raise InputError(f"c must have shape ({n},), got {c_arr.shape}")
        for name, arr in (("u", u_arr), ("H", h_arr), ("c", c_arr)):
            if not np.all(np.isfinite(arr)):
                raise InputError(f"{name} must be finite")
        scale = max(float(np.max(np.abs(h_arr))), np.finfo(float).tiny)
        asym = float(np.max(np.abs(h_arr - h_arr.transpose(0, 2, 1))))
        if asym > SYMMETRY_RTOL * scale:
            raise InputError(f"H_k must be symmetric (max |H − Hᵀ| = {asym:.3g})")
        h_arr = 0.5 * (h_arr + h_arr.transpose(0, 2, 1))
        eig = np.linalg.eigvalsh(h_arr)
        lam_min = eig[:, 0]
        if np.any(lam_min <= 0.0):
            k = int(np.argmin(lam_min))
            raise AssumptionViolation(
                f"Assumption 4: H_k of client {k} is not positive definite "
                f"(λ_min = {lam_min[k]:.3g}); every local function must be strongly convex"
            )
        self._L = float(eig[:, -1].max())
        self._mu = float(lam_min.min())
        if self._L / self._mu > MAX_CONDITION:
            raise NumericalError(
                f"κ = L/μ = {self._L / self._mu:.3g} exceeds {MAX_CONDITION:.0e}: "
                "closed forms would be unreliable in double precision"
            )
        self._lam_max = eig[:, -1]
        alpha_arr = checks.simplex(alpha, "alpha", n)
        pi_arr = checks.availability(pi, "pi", n)
        q_arr = checks.aggregation_weights(
            unbiased_weights(alpha_arr, pi_arr) if q is None else q, pi_arr
        )
        for arr in (u_arr, h_arr, c_arr, alpha_arr, pi_arr, q_arr, self._lam_max):
            arr.setflags(write=False)
        self.u, self.H, self.c = u_arr, h_arr, c_arr
        self.alpha, self.pi, self.q = alpha_arr, pi_arr, q_arr

    def __repr__(self) -> str:
        """Source that rebuilds the problem (pasteable from a failing property test).

        >>> QuadraticProblem([[0.0], [2.0]], [[[1.0]], [[1.0]]], 0.0, [0.5, 0.5], [1.0, 0.5])
        QuadraticProblem(u=[[0.0], [2.0]], H=[[[1.0]], [[1.0]]], c=[0.0, 0.0], ...)
        """
        return call_literal(
            "QuadraticProblem",
            [
                (name, array_literal(getattr(self, name)))
                for name in ("u", "H", "c", "alpha", "pi", "q")
            ],
        )

    @classmethod
    def from_diagonal(
        cls, u: Any, h_diag: Any, c: Any, alpha: Any, pi: Any, q: Any | None = None
    ) -> "QuadraticProblem":
        """Build with diagonal Hessians H_k = diag(h_diag[k]).

        >>> prob = QuadraticProblem.from_diagonal([[0.0, 0.0]], [[1.0, 4.0]], 0.0, [1.0], [1.0])
        >>> prob.L, prob.mu
        (4.0, 1.0)
        """
        h = np.asarray(h_diag, dtype=float)
        if h.ndim != 2:
            raise InputError(f"diagonal H must be an (N, d) array, got shape {h.shape}")
        full = np.zeros((*h.shape, h.shape[1]))
        idx = np.arange(h.shape[1])
        full[:, idx, idx] = h
        return cls(u, full, c, alpha, pi, q)

    def with_weights(self, q: Any) -> "QuadraticProblem":
        """The same clients with aggregation weights q.

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.with_weights([1 / 3, 2 / 3]).p.tolist()  # unbiased weights α/π: p = α
        [0.5, 0.5]
        """
        return QuadraticProblem(self.u, self.H, self.c, self.alpha, self.pi, q)

    # --- sizes and constants -----------------------------------------------------------
    @property
    def n_clients(self) -> int:
        return int(self.u.shape[0])

    @property
    def dim(self) -> int:
        return int(self.u.shape[1])

    @property
    def L(self) -> float:
        """max_k λ_max(H_k) (Assumption 3).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.L
        3.0
        """
        return self._L

    @property
    def mu(self) -> float:
        """min_k λ_min(H_k) (Assumption 4: every F_k is μ-strongly convex).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.mu
        1.0
        """
        return self._mu

    @property
    def kappa(self) -> float:
        """κ = L/μ (Theorem 1).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.kappa
        3.0
        """
        return self._L / self._mu

    @property
    def local_minima(self) -> np.ndarray:
        """F_k* = c_k.

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.local_minima.tolist()
        [0.0, 0.0]
        """
        return self.c

    @cached_property
    def p(self) -> np.ndarray:
        """Biased importance p = π⊙q/πᵀq (eq. 4).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.p.round(6).tolist()
        [0.666667, 0.333333]
        """
        w = self.pi * self.q
        return w / w.sum()

    # --- evaluation ----------------------------------------------------------------------
    def _point(self, w: Any, name: str = "w") -> np.ndarray:
        return checks.finite_vector(w, name, self.dim)

    def local_gaps(self, w: Any) -> np.ndarray:
        """F_k(w) − F_k* = ½(w − u_k)ᵀH_k(w − u_k) for every k (no cancellation).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.local_gaps([1.0]).tolist()
        [0.5, 1.5]
        """
        diffs = self._point(w)[None, :] - self.u
        return 0.5 * _quad_forms(diffs, self.H)

    def local_values(self, w: Any) -> np.ndarray:
        """F_k(w) for every k.

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.local_values([2.0]).tolist()
        [2.0, 0.0]
        """
        return self.local_gaps(w) + self.c

    def local_gradients(self, w: Any) -> np.ndarray:
        """∇F_k(w) = H_k(w − u_k), shape (N, d).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.local_gradients([1.0]).tolist()
        [[1.0], [-3.0]]
        """
        diffs = self._point(w)[None, :] - self.u
        return np.einsum("kij,kj->ki", self.H, diffs)

    def F(self, w: Any) -> float:
        """Target objective F = Σ α_k F_k (eq. 1).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.F([1.0])  # ½·0.5 + ½·1.5
        1.0
        """
        return float(self.alpha @ self.local_values(w))

    def F_B(self, w: Any) -> float:
        """Biased objective F_B = Σ p_k F_k (eq. 4).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> round(prob.F_B([1.0]), 6)  # ⅔·0.5 + ⅓·1.5
        0.833333
        """
        return float(self.p @ self.local_values(w))

    # --- minimisers ----------------------------------------------------------------------
    def hessian(self, weights: Any) -> np.ndarray:
        """Σ_k ω_k H_k.

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.hessian([0.5, 0.5]).tolist()
        [[2.0]]
        """
        return np.einsum("k,kij->ij", np.asarray(weights, dtype=float), self.H)

    def minimizer(self, weights: Any) -> np.ndarray:
        """argmin Σ ω_k F_k = (Σ ω_k H_k)⁻¹ Σ ω_k H_k u_k for simplex weights ω.

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.minimizer([0.5, 0.5]).tolist()  # (½·0 + ½·3·2)/(½ + ½·3)
        [1.5]
        """
        omega = np.asarray(weights, dtype=float)
        rhs = np.einsum("k,kij,kj->i", omega, self.H, self.u)
        return np.linalg.solve(self.hessian(omega), rhs)

    @cached_property
    def w_star(self) -> np.ndarray:
        """w* = argmin F (Section II).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.w_star.tolist()
        [1.5]
        """
        return self.minimizer(self.alpha)

    @cached_property
    def w_B_star(self) -> np.ndarray:
        """w_B* = argmin F_B (Section II).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.w_B_star.round(12).tolist()  # (⅓·3·2)/(⅔ + ⅓·3)
        [1.2]
        """
        return self.minimizer(self.p)

    @cached_property
    def F_star(self) -> float:
        return self.F(self.w_star)

    @cached_property
    def F_B_star(self) -> float:
        return self.F_B(self.w_B_star)

    # --- errors and heterogeneity --------------------------------------------------------
    def eps(self, w: Any) -> float:
        """ε = F(w) − F* = ½(w − w*)ᵀ(Σα_kH_k)(w − w*) (Theorem 1).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.eps([1.0])  # ½·0.5²·2
        0.25
        """
        d = self._point(w) - self.w_star
        return float(0.5 * d @ self.hessian(self.alpha) @ d)

    def eps_opt(self, w: Any) -> float:
        """ε_opt = F_B(w) − F_B* = ½(w − w_B*)ᵀ(Σp_kH_k)(w − w_B*) (eq. 10).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> round(prob.eps_opt([1.0]), 6)  # ½·0.2²·5/3
        0.033333
        """
        d = self._point(w) - self.w_B_star
        return float(0.5 * d @ self.hessian(self.p) @ d)

    @cached_property
    def eps_bias(self) -> float:
        """ε_bias = F(w_B*) − F* (eq. 10).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> round(prob.eps_bias, 12)  # ½·0.3²·2
        0.09
        """
        return self.eps(self.w_B_star)

    @cached_property
    def Gamma(self) -> float:
        """Γ = max_k {F_k(w*) − F_k*} (eq. 9).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> prob.Gamma  # max(½·1.5², ½·3·0.5²)
        1.125
        """
        return float(self.local_gaps(self.w_star).max())

    @cached_property
    def Gamma_prime(self) -> float:
        """Γ′ = max_k {F_k(w_B*) − F_k*} (Theorem 3), at this problem's q.

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> round(prob.Gamma_prime, 12)  # max(½·1.2², ½·3·0.8²)
        0.96
        """
        return float(self.local_gaps(self.w_B_star).max())

    # --- Lemma 1 on a ball ---------------------------------------------------------------
    def lemma1(self, center: Any, diameter: float, sigma: Any) -> tuple[float, float, float]:
        """(D, G, H) of Lemma 1 on the ball W of the given center and diameter.

        D = L·sup_{w∈W} max_k ‖w − w_k*‖ = L·max_k(‖center − u_k‖ + diameter/2): the constant
        the proof defines (eq. 42), which bounds ‖∇F_k(w)‖ on W (eq. 6).
        G² = D² + max_k σ_k² (eq. 43), which bounds E‖∇F_k(w, B)‖² (eq. 7).
        H = max_k max{½λ_max(H_k)ρ_k², F_k(w_B*) − F_k*} with ρ_k = ‖center − u_k‖ + diameter/2:
        on W both F_k(w) − F_k* and F_k(w_B*) − F_k* lie in [0, H], so |F_k(w) − F_k(w_B*)| ≤ H
        (eq. 8); the paper only asserts that such an H exists.

        >>> prob = QuadraticProblem([[0.0], [2.0]], [[[1.0]], [[1.0]]], 0.0, [0.5, 0.5], [1, 1])
        >>> prob.lemma1([1.0], 4.0, 0.0)  # ρ_k = 1 + 2: D = 3, G = D, H = ½·3²
        (3.0, 3.0, 4.5)
        """
        center_arr = self._point(center, "center")
        radius = 0.5 * checks.positive(diameter, "diameter")
        sigma_arr = checks.nonnegative_vector(
            np.broadcast_to(np.asarray(sigma, dtype=float), (self.n_clients,)), "sigma"
        )
        reach = np.linalg.norm(center_arr[None, :] - self.u, axis=1) + radius
        D = self._L * float(reach.max())
        G = float(np.sqrt(D**2 + float(np.max(sigma_arr)) ** 2))
        gaps_B = self.local_gaps(self.w_B_star)
        H = float(np.max(np.maximum(0.5 * self._lam_max * reach**2, gaps_B)))
        return D, G, H

    def outside_ball(self, center: Any, diameter: float) -> list[str]:
        """Names of w*, w_B* that are not in the interior of the ball (Assumption 2).

        >>> prob = QuadraticProblem([[0.0], [2.0]], [[[1.0]], [[1.0]]], 0.0, [0.5, 0.5], [1, 1])
        >>> prob.outside_ball([1.0], 4.0), prob.outside_ball([5.0], 4.0)
        ([], ['w*', 'w_B*'])
        """
        center_arr = self._point(center, "center")
        radius = 0.5 * float(diameter)
        points = {"w*": self.w_star, "w_B*": self.w_B_star}
        return [n for n, w in points.items() if np.linalg.norm(w - center_arr) >= radius]

    def constants(self, center: Any, diameter: float, sigma: Any) -> ProblemConstants:
        """The :class:`ProblemConstants` of this problem on the ball W(center, diameter).

        >>> H = [[[1.0]], [[3.0]]]
        >>> prob = QuadraticProblem([[0.0], [2.0]], H, 0.0, [0.5, 0.5], [1.0, 0.5], q=[0.5, 0.5])
        >>> consts = prob.constants([1.0], 4.0, 0.0)
        >>> consts.kappa, consts.Gamma, consts.D  # D = L·(‖center − u_k‖ + 2) = 3·3
        (3.0, 1.125, 9.0)
        """
        D, G, H = self.lemma1(center, diameter, sigma)
        notes: tuple[str, ...] = ()
        outside = self.outside_ball(center, diameter)
        if outside:
            notes = (
                f"Assumption 2 fails: {', '.join(outside)} not in the interior of W "
                f"(ball of diameter {diameter:g})",
            )
        return ProblemConstants(
            L=self._L,
            mu=self._mu,
            Gamma=self.Gamma,
            Gamma_prime=self.Gamma_prime,
            D=D,
            G=G,
            H=H,
            diameter=float(diameter),
            sigma=np.broadcast_to(np.asarray(sigma, dtype=float), (self.n_clients,)).copy(),
            alpha=self.alpha,
            pi=self.pi,
            notes=notes,
        )
