"""λ̄₂(P), λ(P), relaxation time and mixing-time bounds (CA-Fed ToN eqs. 228–229, Appendix F1).

The eigenvalue 1 is *deflated*, not searched for among computed eigenvalues: with ρ the
stationary distribution, the subspace ker(ρᵀ) = {x : ρᵀx = 0} is invariant under P
(ρᵀPx = ρᵀx), complementary to the eigenvector 1, and carries every eigenvalue except 1. With
Q an orthonormal basis of it, A = QᵀPQ ((M−1)×(M−1)) has exactly the non-unit spectrum, so
λ̄₂ = max |eig(A)| (eq. 229: negative and complex eigenvalues count by modulus). This stays
right when λ̄₂ → 1 (no eigenvalue has to be told apart from a neighbour at 1 − 1e-9) and when
λ̄₂ = 0. Q is one Householder reflection H = I − 2uuᵀ with H(ρ/‖ρ‖) = −e₁, applied in O(M²);
A is the trailing block of HPH.
"""

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from fltheory.errors import InputError, NumericalError
from fltheory.markov.stationary import gth_stationary
from fltheory.markov.validate import as_transition_matrix

#: P is taken as rank one (P = 1ρᵀ, all non-unit eigenvalues 0) when ‖P − 1ρᵀ‖_F is at most
#: this times ‖P‖_F: about 45 ε_mach. Kronecker products of up to 12 rank-one two-state factors
#: with π in [10⁻³, 1 − 10⁻³] were measured at ≤ 11 ε_mach.
RANK_ONE_TOL = 1e-14
#: Default ε of the mixing-time bounds (t_mix = t_mix(1/4) in Levin–Peres).
DEFAULT_MIX_EPS = 0.25

#: Two eigenvalues i, j whose estimated distance to coalescence |λ_i − λ_j| / (κ_i + κ_j)
#: (relative to the scale ‖P‖_F at which A = QᵀPQ is known, see :mod:`.spectrum`) is below
#: this are treated as one cluster; a numerically computed Jordan block of size 2 sits at
#: ~ε_mach, an exactly repeated semisimple eigenvalue at ~0. Kept at a few dozen ε_mach: a
#: looser value merges distinct eigenvalues that double precision still resolves (e.g. the
#: many tiny products λ_a·λ_b·λ_c of a product chain), which would give a C_P below the one of
#: eq. 156. The scale is ‖P‖_F, not ‖A‖: for a nearly rank-one P, A is rounding noise, and
#: measured against ‖A‖ its noise eigenvalues would look distinct.
COALESCE_TOL = 1e-14


@dataclass(frozen=True)
class Deflation:
    """P in the basis [ρ/‖ρ‖, Q] where Q = H[:, 1:], H = I − 2uuᵀ (u a unit vector).

    Attributes:
        A: QᵀPQ, the (M−1)×(M−1) matrix carrying the non-unit spectrum of P.
        u: the Householder unit vector.
        rho: the stationary distribution used.
        rank_one: True when P = 1ρᵀ up to rounding (see :data:`RANK_ONE_TOL`); then A = 0.
        scale: ‖P‖_F, the scale at which the entries and eigenvalues of A are known.

    >>> d = deflate([[0.5, 0.5], [0.3, 0.7]])
    >>> round(float(d.u @ d.u), 12), round(d.scale, 6), d.apply_Q(np.ones((1, 1))).shape
    (1.0, 1.03923, (2, 1))
    """

    A: np.ndarray
    u: np.ndarray
    rho: np.ndarray
    rank_one: bool
    scale: float

    def apply_Q(self, X: np.ndarray) -> np.ndarray:
        """Q X for an (M−1)×k matrix X (an M×k result)."""
        full = np.vstack([np.zeros((1, X.shape[1]), dtype=X.dtype), X])
        return full - 2.0 * np.outer(self.u, self.u @ full)

    def Qt_ones(self) -> np.ndarray:
        """Qᵀ1, the coordinates of the all-ones vector in the basis Q."""
        ones = np.ones_like(self.u)
        return (ones - 2.0 * self.u * (self.u @ ones))[1:]


def deflate(P: Any, rho: np.ndarray | None = None) -> Deflation:
    """Build A = QᵀPQ for a validated chain (ρ by GTH when not given).

    >>> d = deflate([[0.5, 0.5], [0.3, 0.7]])
    >>> d.A.round(12).tolist(), d.rank_one
    ([[0.2]], False)
    >>> deflate([[0.3, 0.7], [0.3, 0.7]]).rank_one
    True
    """
    P = as_transition_matrix(P)
    rho = gth_stationary(P) if rho is None else np.asarray(rho, dtype=np.float64)
    M = P.shape[0]
    x = rho / np.linalg.norm(rho)
    u = x.copy()
    u[0] += 1.0  # x₀ > 0, so no cancellation; H x = −e₁
    u /= np.linalg.norm(u)
    scale = float(np.linalg.norm(P))
    if np.linalg.norm(P - rho[None, :]) <= RANK_ONE_TOL * scale:
        return Deflation(np.zeros((M - 1, M - 1)), u, rho, True, scale)
    B = P - 2.0 * np.outer(u, u @ P)
    HPH = B - 2.0 * np.outer(B @ u, u)
    return Deflation(HPH[1:, 1:], u, rho, False, scale)


def nonunit_spectrum(P: Any, rho: np.ndarray | None = None) -> np.ndarray:
    """The M−1 eigenvalues of P other than the (deflated) eigenvalue 1, complex, unsorted."""
    d = deflate(P, rho)
    if d.A.size == 0 or d.rank_one:
        return np.zeros(d.A.shape[0], dtype=complex)
    return np.linalg.eigvals(d.A).astype(complex)


def slem_from_spectrum(nonunit: np.ndarray) -> float:
    """λ̄₂ = max modulus of the non-unit eigenvalues (eq. 229); 0 for a one-state chain."""
    value = float(np.max(np.abs(nonunit))) if nonunit.size else 0.0
    if value >= 1.0:
        raise NumericalError(
            f"computed second largest eigenvalue modulus {value!r} is not below 1: the "
            "spectral gap is below floating-point resolution; use the exact path"
        )
    return value


def slem(P: Any, rho: np.ndarray | None = None) -> float:
    """Second largest eigenvalue modulus λ̄₂(P) (eq. 229)."""
    return slem_from_spectrum(nonunit_spectrum(P, rho))


def lam(slem_value: float) -> float:
    """λ(P) = (λ̄₂ + 1)/2 (eq. 229)."""
    return (slem_value + 1.0) / 2.0


def relaxation_time(slem_value: float) -> float:
    """t_rel = 1/(1 − λ̄₂), the reciprocal of the absolute spectral gap (Appendix F1)."""
    return 1.0 / (1.0 - slem_value)


def is_reversible(P: np.ndarray, rho: np.ndarray, *, rtol: float = 1e-9) -> bool:
    """Detailed balance ρ_i P_ij = ρ_j P_ji, up to ``rtol`` relative to the largest flow."""
    flow = rho[:, None] * P
    return bool(np.max(np.abs(flow - flow.T)) <= rtol * np.max(flow))


@dataclass(frozen=True)
class MixingTimeBounds:
    """(t_rel − 1) ln(1/(2ε)) ≤ t_mix(ε) ≤ ln(1/(ε ρ_min)) t_rel (Appendix F1; [31] Thms 12.4–5).

    The lower bound holds for every irreducible aperiodic chain (Levin–Peres Theorem 12.5,
    applied to the eigenvalue of modulus λ̄₂); it is clipped at 0 (negative for ε > ½). The
    upper bound is proven for *reversible* chains only (Levin–Peres Theorem 12.4);
    ``reversible`` says whether it applies. Every chain's ``mixing_time_bounds`` returns one.

    >>> MixingTimeBounds(eps=0.25, lower=0.0, upper=4.2, reversible=True).upper
    4.2
    """

    eps: float
    lower: float
    upper: float
    reversible: bool


def _bounds(slem_value: float, log_inv: float, eps: float, reversible: bool) -> MixingTimeBounds:
    """The bounds from ln(1/(ε ρ_min)) (``log_inv``)."""
    t_rel = relaxation_time(slem_value)
    # −ln 2 − ln ε, not ln(1/(2ε)): 1/(2ε) overflows for a subnormal ε
    lower = max(0.0, (t_rel - 1.0) * (-math.log(2.0) - math.log(eps)))
    return MixingTimeBounds(eps=eps, lower=lower, upper=log_inv * t_rel, reversible=reversible)


def _check_eps(eps: float) -> None:
    if not 0.0 < eps < 1.0:
        raise InputError(f"mixing-time eps must lie in (0, 1), got {eps}")


def mixing_time_bounds(
    slem_value: float, rho_min: float, *, eps: float = DEFAULT_MIX_EPS, reversible: bool = True
) -> MixingTimeBounds:
    """The Appendix F1 bounds on t_mix(ε) from λ̄₂ and ρ_min = min_a ρ_a.

    >>> b = mixing_time_bounds(0.5, 0.25, eps=0.25)
    >>> round(b.lower, 6), round(b.upper, 6), b.reversible
    (0.693147, 5.545177, True)
    """
    _check_eps(eps)
    if not 0.0 < rho_min <= 1.0:
        raise InputError(f"rho_min must lie in (0, 1], got {rho_min}")
    # −ln ε − ln ρ_min, not ln(1/(ε ρ_min)): the product underflows for a subnormal ε
    return _bounds(slem_value, -math.log(eps) - math.log(rho_min), eps, reversible)


def mixing_time_bounds_from_log(
    slem_value: float,
    log_rho_min: float,
    *,
    eps: float = DEFAULT_MIX_EPS,
    reversible: bool = True,
) -> MixingTimeBounds:
    """:func:`mixing_time_bounds` from ln ρ_min (product chains: ρ_min underflows for large N).

    >>> round(mixing_time_bounds_from_log(0.0, -1e4).upper, 3)
    10001.386
    """
    _check_eps(eps)
    if not log_rho_min <= 0.0:
        raise InputError(f"ln rho_min must be <= 0, got {log_rho_min}")
    return _bounds(slem_value, -math.log(eps) - log_rho_min, eps, reversible)
