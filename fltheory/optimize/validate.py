"""Input checks shared by the weight optimisers: every failure is a one-line InputError."""

import math

import numpy as np

from fltheory.errors import InputError

#: Tolerance on |Σα − 1| accepted before α is renormalised.
ALPHA_SUM_TOL = 1e-8


def vector(name: str, values: object, n: int | None = None) -> np.ndarray:
    """``values`` as a finite 1-D float64 array (of length ``n`` when given)."""
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise InputError(f"{name} must be a vector of numbers ({err})") from None
    if arr.ndim != 1 or arr.size == 0:
        raise InputError(f"{name} must be a non-empty 1-D vector, got shape {arr.shape}")
    if n is not None and arr.size != n:
        raise InputError(f"{name} has {arr.size} entries, expected {n} (one per client)")
    if not np.all(np.isfinite(arr)):
        raise InputError(f"{name} has non-finite entries")
    return arr


def availability(pi: object) -> np.ndarray:
    """π with every entry in (0, 1] (asymptotic availabilities, eq. 4)."""
    arr = vector("pi", pi)
    if np.any(arr <= 0.0) or np.any(arr > 1.0):
        raise InputError("pi entries must lie in (0, 1]")
    return arr


def target_weights(alpha: object, n: int) -> np.ndarray:
    """α on the probability simplex (eq. 1), renormalised to sum exactly to one."""
    arr = vector("alpha", alpha, n)
    if np.any(arr < 0.0):
        raise InputError("alpha entries must be non-negative")
    total = float(arr.sum())
    if abs(total - 1.0) > ALPHA_SUM_TOL:
        raise InputError(f"alpha must sum to 1 (got {total:.12g})")
    return arr / total


def curvature(s: object, n: int) -> np.ndarray:
    """s = diag(Σ) ≥ 0 (eq. 176 / 209)."""
    arr = vector("s", s, n)
    if np.any(arr < 0.0):
        raise InputError("s (the diagonal of Sigma) must be non-negative")
    return arr


def positive(name: str, value: object) -> float:
    """A finite scalar > 0 (v of eq. 177, the total weight Q, ...)."""
    try:
        x = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a number, got {value!r}") from None
    if not math.isfinite(x) or x <= 0.0:
        raise InputError(f"{name} must be a finite number > 0, got {value!r}")
    return x


def nonnegative(name: str, value: object) -> float:
    """A finite scalar ≥ 0 (trade-off weights)."""
    try:
        x = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a number, got {value!r}") from None
    if not math.isfinite(x) or x < 0.0:
        raise InputError(f"{name} must be a finite number >= 0, got {value!r}")
    return x
