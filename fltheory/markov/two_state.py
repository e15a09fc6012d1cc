"""Two-state client availability chains (CA-Fed ToN, Appendix F3, eqs. 236–238).

State 0 = inactive, 1 = active. A client is parametrised by its availability π (the stationary
probability of "active") and the second eigenvalue λ₂ of its 2×2 transition matrix. With
a = 1 − λ₂, eq. (236) reads

    P = [[1 − aπ, aπ], [a(1 − π), 1 − a(1 − π)]],

so P(0→1) = aπ, P(1→0) = a(1 − π); eq. (237) inverts π = P01/(P01 + P10) and eq. (238)
λ₂ = P00 + P11 − 1. Every function broadcasts over leading (client) axes.

Admissible parameters: π ∈ (0, 1) open, and λ₂ ∈ [1 − 1/max(π, 1 − π), 1), minus λ₂ = −1.
The lower end is exactly "all entries in [0, 1]" (aπ ≤ 1 and a(1 − π) ≤ 1); λ₂ < 1 is
irreducibility and λ₂ ≠ −1 aperiodicity (Assumption 1); λ₂ = −1 is reachable only at π = ½.
"""

import math

import numpy as np

from fltheory.errors import AssumptionViolation, FLTheoryError, InputError

#: Slack allowed below the lower end of the λ₂ range, for a bound computed by another formula.
LOWER_EDGE_TOL = 1e-12


def lambda2_range(pi: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
    """(lower, upper) ends of the admissible λ₂ interval for availability ``pi``.

    lower = 1 − 1/max(π, 1 − π) (entries of eq. 236 in [0, 1]) is included, except that
    lower = −1 (π = ½) is periodic; upper = 1 is excluded (reducible).

    >>> lower, upper = lambda2_range([0.5, 0.8])
    >>> lower.tolist(), upper.tolist()
    ([-1.0, -0.25], [1.0, 1.0])
    """
    pi = np.asarray(pi, dtype=float)
    return 1.0 - 1.0 / np.maximum(pi, 1.0 - pi), np.ones_like(pi)


def _diagnose(pi: float, lambda2: float) -> tuple[type[FLTheoryError], str] | None:
    """Why the scalar pair (π, λ₂) is not admissible, or None when it is."""
    if not (math.isfinite(pi) and math.isfinite(lambda2)):
        return InputError, f"pi={pi} and lambda2={lambda2} must be finite numbers"
    if not 0.0 <= pi <= 1.0:
        return InputError, f"availability pi={pi} is outside (0, 1)"
    if pi in (0.0, 1.0):
        return AssumptionViolation, (
            f"availability pi={pi} makes the chain reducible (Assumption 1 needs pi in (0, 1))"
        )
    lower = 1.0 - 1.0 / max(pi, 1.0 - pi)
    interval = f"[{lower:.6g}, 1)" if lower > -1.0 else "(-1, 1)"
    if lambda2 > 1.0 or lambda2 < lower - LOWER_EDGE_TOL:
        return InputError, (
            f"lambda2={lambda2} is outside the admissible interval {interval} for pi={pi}"
        )
    if lambda2 == 1.0:
        return AssumptionViolation, (
            f"lambda2=1 makes the chain reducible (Assumption 1); admissible interval {interval}"
        )
    if lambda2 <= -1.0:
        return AssumptionViolation, (
            f"lambda2=-1 makes the chain periodic (Assumption 1); admissible interval {interval}"
        )
    return None


def first_violation(
    pi: np.ndarray, lambda2: np.ndarray
) -> tuple[tuple[int, ...], type[FLTheoryError], str] | None:
    """(index, error class, reason) of the first inadmissible pair, or None (vectorised scan)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        lower, _ = lambda2_range(pi)
        bad = ~(np.isfinite(pi) & np.isfinite(lambda2))
        bad |= (pi <= 0.0) | (pi >= 1.0) | (lambda2 >= 1.0) | (lambda2 <= -1.0)
        bad |= lambda2 < lower - LOWER_EDGE_TOL
    if not bad.any():
        return None
    index = np.unravel_index(int(np.argmax(bad)), bad.shape)
    diagnosis = _diagnose(float(pi[index]), float(lambda2[index]))
    assert diagnosis is not None, "vectorised and scalar admissibility checks disagree"
    return tuple(int(i) for i in index), *diagnosis


def check_two_state(
    pi: np.ndarray | float, lambda2: np.ndarray | float, *, what: str = "client"
) -> tuple[np.ndarray, np.ndarray]:
    """Validate and broadcast (π, λ₂); return them as float arrays of a common shape.

    Raises InputError (malformed or outside the stochastic range) or AssumptionViolation
    (reducible or periodic chain) with a one-line message naming the first bad ``what`` index
    and its admissible interval.
    """
    try:
        pi_arr, lam_arr = np.broadcast_arrays(
            np.asarray(pi, dtype=float), np.asarray(lambda2, dtype=float)
        )
    except (TypeError, ValueError) as exc:
        raise InputError(
            f"pi and lambda2 must be numeric arrays of matching shape: {exc}"
        ) from None
    found = first_violation(pi_arr, lam_arr)
    if found is not None:
        index, error, reason = found
        label = f"{what} {', '.join(map(str, index))}" if index else what
        raise error(f"{label}: {reason}")
    return np.array(pi_arr), np.array(lam_arr)


def two_state_matrix(pi: np.ndarray | float, lambda2: np.ndarray | float) -> np.ndarray:
    """The (..., 2, 2) transition matrices of eq. (236) (validated with :func:`check_two_state`).

    >>> two_state_matrix(0.8, 0.5).tolist()  # P01 = (1 − λ₂)π, P10 = (1 − λ₂)(1 − π)
    [[0.6, 0.4], [0.09999999999999998, 0.9]]
    """
    pi, lambda2 = check_two_state(pi, lambda2)
    gap = 1.0 - lambda2
    p01 = np.clip(gap * pi, 0.0, 1.0)  # clip: λ₂ may sit LOWER_EDGE_TOL below the edge
    p10 = np.clip(gap * (1.0 - pi), 0.0, 1.0)
    return transition_matrix(p01, p10)


def transition_matrix(p01: np.ndarray, p10: np.ndarray) -> np.ndarray:
    """Assemble [[1 − P01, P01], [P10, 1 − P10]] over leading axes (no validation)."""
    p01 = np.asarray(p01, dtype=float)
    p10 = np.asarray(p10, dtype=float)
    out = np.empty((*np.broadcast_shapes(p01.shape, p10.shape), 2, 2))
    out[..., 0, 0] = 1.0 - p01
    out[..., 0, 1] = p01
    out[..., 1, 0] = p10
    out[..., 1, 1] = 1.0 - p10
    return out


def two_state_params(P: np.ndarray, *, atol: float = 1e-9) -> tuple[np.ndarray, np.ndarray]:
    """(π, λ₂) of (..., 2, 2) stochastic matrices: eq. (237) π = P01/(P01 + P10), eq. (238).

    >>> pi, lambda2 = two_state_params([[0.6, 0.4], [0.1, 0.9]])
    >>> round(float(pi), 12), round(float(lambda2), 12)
    (0.8, 0.5)
    """
    P = np.asarray(P, dtype=float)
    if P.ndim < 2 or P.shape[-2:] != (2, 2):
        raise InputError(f"two-state matrices must have shape (..., 2, 2), got {P.shape}")
    if not np.isfinite(P).all():
        raise InputError("two-state matrices must have finite entries")
    bad = np.any((P < -atol) | (P > 1.0 + atol), axis=(-2, -1))
    bad |= np.any(np.abs(P.sum(axis=-1) - 1.0) > atol, axis=-1)
    if bad.any():
        index = np.unravel_index(int(np.argmax(bad)), bad.shape)
        raise InputError(f"matrix {index}: not stochastic (entries in [0, 1], rows summing to 1)")
    p01, p10 = P[..., 0, 1], P[..., 1, 0]
    stuck = p01 + p10 <= 0.0
    if stuck.any():
        index = np.unravel_index(int(np.argmax(stuck)), stuck.shape)
        raise AssumptionViolation(f"matrix {index}: identity chain is reducible (Assumption 1)")
    pi = p01 / (p01 + p10)
    lambda2 = P[..., 0, 0] + P[..., 1, 1] - 1.0
    return check_two_state(pi, lambda2, what="matrix")


def two_state_eigenvectors(pi: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
    """Right eigenvectors U (columns) and U⁻¹ (rows = left eigenvectors), eigenvalues (1, λ₂).

    u₁ = (1, 1), v₁ = ρ = (1 − π, π); u₂ = (π, −(1 − π)), v₂ = (1, −1); vᵢᵀuⱼ = δᵢⱼ. Both
    depend on π only: λ₂ moves the eigenvalue, not the eigenvectors.
    """
    pi = np.asarray(pi, dtype=float)
    U = np.empty((*pi.shape, 2, 2))
    U[..., 0, 0], U[..., 1, 0] = 1.0, 1.0
    U[..., 0, 1], U[..., 1, 1] = pi, -(1.0 - pi)
    V = np.empty((*pi.shape, 2, 2))
    V[..., 0, 0], V[..., 0, 1] = 1.0 - pi, pi
    V[..., 1, 0], V[..., 1, 1] = 1.0, -1.0
    return U, V


def eigenbasis_norm_product(pi: np.ndarray | float) -> np.ndarray:
    """min over column scalings D of ‖UD‖_F·‖(UD)⁻¹‖_F = 2√2·sqrt(π² + (1 − π)²).

    Derivation: ‖UD‖_F² = Σᵢ dᵢ²‖uᵢ‖² and ‖D⁻¹U⁻¹‖_F² = Σᵢ ‖vᵢ‖²/dᵢ², so by Cauchy–Schwarz
    their product is ≥ (Σᵢ ‖uᵢ‖‖vᵢ‖)², with equality at dᵢ² = ‖vᵢ‖/‖uᵢ‖. For the vectors of
    :func:`two_state_eigenvectors`, ‖u₁‖‖v₁‖ = √2·sqrt((1 − π)² + π²) and
    ‖u₂‖‖v₂‖ = sqrt(π² + (1 − π)²)·√2. The value lies in [2, 2√2).
    """
    pi = np.asarray(pi, dtype=float)
    return 2.0 * math.sqrt(2.0) * np.sqrt(pi * pi + (1.0 - pi) ** 2)
