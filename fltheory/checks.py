"""The one module of input checks: scalars, vectors, probability vectors and stochastic matrices.

Every check takes the value first and the argument's name second, returns the value as a float64
array (or a Python number) when it passes, and otherwise raises one
:class:`~fltheory.errors.InputError` whose one-line message names the argument::

    >>> simplex([0.5, 0.6], "alpha")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: alpha must sum to 1, got 1.1

Checks never repair their input (no renormalisation); the one exception is
:func:`as_transition_matrix`, which clips entries within its tolerance of [0, 1] (round-off).
The symbols follow CA-Fed (ToN): α on the simplex (eq. 1), availabilities π (eq. 4), aggregation
weights q with πᵀq > 0 (eq. 4), row-stochastic transition matrices P (Assumption 1).
"""

import math
from numbers import Integral, Real
from typing import Any

import numpy as np

from fltheory.errors import InputError

#: Tolerance on |Σα − 1| for a vector on the probability simplex.
SIMPLEX_ATOL = 1e-9
#: Row-sum tolerance of a transition matrix for the analytics (exact constants, spectra).
ROW_SUM_ATOL = 1e-12
#: The looser row-sum tolerance that the limits and the simulator accept (matrices built by
#: arithmetic, e.g. Kronecker products of rounded factors).
LOOSE_ROW_SUM_ATOL = 1e-9


def _number(value: Any, name: str) -> float:
    """``value`` as a float when it is a real number (not a bool, a string or an array)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, bool | np.bool_) or not isinstance(value, Real):
        raise InputError(f"{name} must be a number, got {value!r}")
    return float(value)


def finite(value: Any, name: str) -> float:
    """A finite real number.

    >>> finite(2, "const")
    2.0
    >>> finite(float("nan"), "const")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: const must be a finite number, got nan
    """
    x = _number(value, name)
    if not math.isfinite(x):
        raise InputError(f"{name} must be a finite number, got {value!r}")
    return x


def positive(value: Any, name: str) -> float:
    """A finite number > 0 (L, μ of Assumptions 3–4, diameter(W), Q = ‖q‖₁, v of eq. 177, ...).

    >>> positive(0.5, "diameter")
    0.5
    >>> positive(0, "diameter")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: diameter must be a finite number > 0, got 0
    """
    x = _number(value, name)
    if not (math.isfinite(x) and x > 0.0):
        raise InputError(f"{name} must be a finite number > 0, got {value!r}")
    return x


def nonnegative(value: Any, name: str) -> float:
    """A finite number ≥ 0 (Γ of eq. 9, trade-off weights such as κ̄² of problem 14).

    >>> nonnegative(0, "Gamma")
    0.0
    >>> nonnegative(-1e-300, "Gamma")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: Gamma must be a finite number >= 0, got -1e-300
    """
    x = _number(value, name)
    if not (math.isfinite(x) and x >= 0.0):
        raise InputError(f"{name} must be a finite number >= 0, got {value!r}")
    return x


def positive_integer(value: Any, name: str) -> int:
    """An integer ≥ 1 (rounds T, local steps E); bools and floats such as 2.0 are refused.

    >>> positive_integer(5, "rounds")
    5
    >>> positive_integer(2.0, "rounds")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: rounds must be an integer >= 1, got 2.0
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, Integral) or value < 1:
        raise InputError(f"{name} must be an integer >= 1, got {value!r}")
    return int(value)


def boolean(value: Any, name: str) -> bool:
    """True or False (numpy's booleans too); 0, 1, "no" and None are refused.

    >>> boolean(True, "exact")
    True
    >>> boolean("no", "exact")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: exact must be True or False, got 'no'
    """
    if not isinstance(value, bool | np.bool_):
        raise InputError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def finite_vector(values: Any, name: str, n: int | None = None) -> np.ndarray:
    """A non-empty 1-D float64 vector of finite numbers, with ``n`` entries when ``n`` is given.

    >>> finite_vector([1, 2], "u").tolist()
    [1.0, 2.0]
    >>> finite_vector([1.0, 2.0], "sigma", 3)
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: sigma has 2 entries, expected 3
    """
    if isinstance(values, str) or (
        isinstance(values, np.ndarray) and values.dtype.kind not in "iufO"
    ):
        raise InputError(f"{name} must be a vector of numbers, got {values!r:.60}")
    try:
        arr = np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a vector of numbers, got {values!r:.60}") from None
    if arr.ndim != 1 or arr.size == 0:
        raise InputError(f"{name} must be a non-empty 1-D vector, got shape {arr.shape}")
    if n is not None and arr.size != n:
        raise InputError(f"{name} has {arr.size} entries, expected {n}")
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        raise InputError(f"{name} has a non-finite entry {arr[bad[0]]} at index {bad[0]}")
    return arr


def nonnegative_vector(values: Any, name: str, n: int | None = None) -> np.ndarray:
    """A finite vector with every entry ≥ 0 (σ_k of Assumption 5, s = diag(Σ) of eq. 176).

    >>> nonnegative_vector([0.0, 1.5], "sigma").tolist()
    [0.0, 1.5]
    """
    arr = finite_vector(values, name, n)
    bad = np.flatnonzero(arr < 0.0)
    if bad.size:
        raise InputError(f"{name} must be non-negative, got {arr[bad[0]]} at index {bad[0]}")
    return arr


def probabilities(values: Any, name: str, n: int | None = None) -> np.ndarray:
    """A finite vector with every entry in [0, 1] (link probabilities p_k of FedPBC).

    >>> probabilities([0.0, 1.0], "p").tolist()
    [0.0, 1.0]
    >>> probabilities([0.5, 1.5], "p")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: p must hold probabilities in [0, 1], got 1.5 at index 1
    """
    arr = finite_vector(values, name, n)
    bad = np.flatnonzero((arr < 0.0) | (arr > 1.0))
    if bad.size:
        raise InputError(
            f"{name} must hold probabilities in [0, 1], got {arr[bad[0]]} at index {bad[0]}"
        )
    return arr


def availability(
    pi: Any, name: str = "pi", n: int | None = None, *, allow_zero: bool = True
) -> np.ndarray:
    """Asymptotic availabilities π_k (eq. 4): in [0, 1] with some π_k > 0, or in (0, 1] when
    ``allow_zero`` is False (the optimisers divide by π).

    >>> availability([0.0, 0.5]).tolist()
    [0.0, 0.5]
    >>> availability([0.0, 0.5], allow_zero=False)
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: pi must lie in (0, 1], got 0.0 at index 0
    """
    arr = probabilities(pi, name, n)
    if not allow_zero:
        bad = np.flatnonzero(arr <= 0.0)
        if bad.size:
            raise InputError(f"{name} must lie in (0, 1], got {arr[bad[0]]} at index {bad[0]}")
    elif not np.any(arr > 0.0):
        raise InputError(f"{name} must have a positive entry (some client must be available)")
    return arr


def simplex(values: Any, name: str, n: int | None = None) -> np.ndarray:
    """A vector on the probability simplex: entries ≥ 0 summing to 1 within
    :data:`SIMPLEX_ATOL` (the target importance α of eq. 1).

    >>> simplex([0.25, 0.75], "alpha").tolist()
    [0.25, 0.75]
    """
    arr = nonnegative_vector(values, name, n)
    total = float(arr.sum())
    if abs(total - 1.0) > SIMPLEX_ATOL:
        raise InputError(f"{name} must sum to 1, got {total:.12g}")
    return arr


def aggregation_weights(q: Any, pi: np.ndarray, name: str = "q") -> np.ndarray:
    """Aggregation weights q ≥ 0, one per client of ``pi``, with πᵀq > 0 (eq. 4: some available
    client has a positive weight, so the biased importance p is defined).

    >>> aggregation_weights([1.0, 0.0], np.array([0.5, 0.5])).tolist()
    [1.0, 0.0]
    >>> aggregation_weights([1.0, 0.0], np.array([0.0, 0.5]))
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: πᵀq must be positive (some available client needs a positive q)
    """
    arr = nonnegative_vector(q, name, np.asarray(pi).size)
    if not float(np.asarray(pi, dtype=float) @ arr) > 0.0:
        raise InputError(
            f"πᵀ{name} must be positive (some available client needs a positive {name})"
        )
    return arr


def as_transition_matrix(
    P: Any, *, atol: float = ROW_SUM_ATOL, name: str = "transition matrix"
) -> np.ndarray:
    """``P`` as a float64 row-stochastic matrix (the chain of Assumption 1).

    Entries must be finite and in [0, 1]; entries within ``atol`` outside that range are
    clipped (round-off), and every row must sum to 1 within ``atol``. Rows are not
    renormalised: a sticky chain's off-diagonal mass is kept exactly as given.

    >>> as_transition_matrix([[0.5, 0.5], [0.0, 1.0]]).tolist()
    [[0.5, 0.5], [0.0, 1.0]]
    >>> as_transition_matrix([[0.5, 0.6], [0.0, 1.0]])
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: row 0 of the transition matrix sums to 1.1, not 1
    """
    try:
        A = np.array(P, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise InputError(f"{name} entries must be numbers ({err})") from None
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise InputError(f"{name} must be square, got shape {A.shape}")
    if A.shape[0] == 0:
        raise InputError(f"{name} is empty")
    bad = np.argwhere(~np.isfinite(A))
    if bad.size:
        i, j = bad[0]
        raise InputError(f"{name} entry ({i}, {j}) is not finite: {A[i, j]}")
    bad = np.argwhere((A < -atol) | (A > 1 + atol))
    if bad.size:
        i, j = bad[0]
        raise InputError(f"{name} entry ({i}, {j}) = {float(A[i, j])!r} is outside [0, 1]")
    np.clip(A, 0.0, 1.0, out=A)
    sums = A.sum(axis=1)
    rows = np.flatnonzero(np.abs(sums - 1.0) > atol)
    if rows.size:
        i = rows[0]
        raise InputError(f"row {i} of the {name} sums to {float(sums[i])!r}, not 1")
    return A
