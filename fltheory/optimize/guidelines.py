"""Guidelines A–C of CA-Fed (ToN Sections III-D, III-E) as plain functions.

* A: exclude the LEAST available clients (lowest π_k) — the active set of problem (212) is
  always a set of most available clients (Appendix E2; see :mod:`.problem212`).
* B: exclude the MOST correlated clients (highest λ(P_k) = (|λ₂,k| + 1)/2); for independent
  clients the reduced product chain P′ = ⊗_{kept} P_k has λ(P′) = max over kept clients
  (Appendix F2, Prop. 6).
* C: give the kept clients q_k ∝ α_k/π_k, which zeroes d_TV(α, p) and χ²(α‖p) restricted to
  them (eqs. 11, 15).

Orders are stable: ties keep ascending client index.
"""

import numpy as np

from fltheory import checks
from fltheory.errors import InputError
from fltheory.markov.product import ProductChain
from fltheory.markov.protocol import AvailabilityChain


def _keep_mask(keep: object, n: int) -> np.ndarray:
    """Bool mask (True = kept) from a length-n bool mask or from client indices."""
    arr = np.asarray(keep)
    if arr.dtype == bool:
        if arr.shape != (n,):
            raise InputError(f"keep mask must have shape ({n},), got {arr.shape}")
        mask = arr.copy()
    else:
        arr = arr.reshape(-1)
        if arr.size and not np.issubdtype(arr.dtype, np.integer):
            raise InputError(f"keep must be a bool mask or integer indices, got {arr.dtype}")
        if np.any((arr < 0) | (arr >= n)):
            raise InputError(f"keep indices must lie in 0..{n - 1}")
        mask = np.zeros(n, dtype=bool)
        mask[arr] = True
    if not mask.any():
        raise InputError("keep must retain at least one client")
    return mask


def _cut(order: np.ndarray, score: np.ndarray, count: int | None, exceeds) -> np.ndarray:
    """The first ``count`` of ``order``, or those whose score passes the threshold test."""
    if (count is None) == (exceeds is None):
        raise InputError("give exactly one of count or threshold")
    n = order.size
    if count is not None:
        if isinstance(count, bool) or not isinstance(count, int | np.integer):
            raise InputError(f"count must be an integer, got {count!r}")
        if not 0 <= count < n:
            raise InputError(f"count must lie in 0..{n - 1} (at least one client is kept)")
        return order[:count].copy()
    chosen = order[exceeds(score[order])]
    if chosen.size == n:
        raise InputError("the threshold would exclude every client")
    return chosen


def availability_order(pi: object) -> np.ndarray:
    """Client indices by increasing π_k: Guideline A's exclusion order.

    >>> availability_order([0.5, 0.1, 0.9]).tolist()
    [1, 0, 2]
    """
    return np.argsort(checks.availability(pi, allow_zero=False), kind="stable")


def exclude_by_availability(
    pi: object, *, count: int | None = None, threshold: float | None = None
) -> np.ndarray:
    """Guideline A: the ``count`` least available clients, or those with π_k < ``threshold``.

    Returned in exclusion order (lowest π first).

    >>> exclude_by_availability([0.5, 0.1, 0.9], threshold=0.6).tolist()
    [1, 0]
    """
    pi_arr = checks.availability(pi, allow_zero=False)
    order = np.argsort(pi_arr, kind="stable")
    test = None if threshold is None else (lambda x: x < float(threshold))
    return _cut(order, pi_arr, count, test)


def correlation_level(lambda2: object) -> np.ndarray:
    """λ(P_k) = (|λ₂,k| + 1)/2 (eq. 229) per client; λ₂,k ∈ (−1, 1).

    >>> correlation_level([0.2, -0.9]).tolist()
    [0.6, 0.95]
    """
    lam = checks.finite_vector(lambda2, "lambda2")
    if np.any(np.abs(lam) >= 1.0):
        raise InputError("lambda2 entries must lie in (-1, 1)")
    return (np.abs(lam) + 1.0) / 2.0


def correlation_order(lambda2: object) -> np.ndarray:
    """Client indices by decreasing λ(P_k): Guideline B's exclusion order."""
    return np.argsort(-correlation_level(lambda2), kind="stable")


def exclude_by_correlation(
    lambda2: object, *, count: int | None = None, threshold: float | None = None
) -> np.ndarray:
    """Guideline B: the ``count`` most correlated clients, or those with λ(P_k) > ``threshold``.

    ``lambda2`` holds each client's second eigenvalue λ₂,k; ``threshold`` is on λ(P_k) ∈ [½, 1).
    Returned in exclusion order (highest λ(P_k) first).

    >>> exclude_by_correlation([0.2, -0.9, 0.5], threshold=0.7).tolist()  # λ = 0.6, 0.95, 0.75
    [1, 2]
    """
    level = correlation_level(lambda2)
    order = np.argsort(-level, kind="stable")
    test = None if threshold is None else (lambda x: x > float(threshold))
    return _cut(order, level, count, test)


def unbiased_weights(alpha: object, pi: object, keep: object = None, Q: object = 1.0) -> np.ndarray:
    """Guideline C: q_k = Q·(α_k/π_k)/Σ_{kept}(α/π) on kept clients, 0 elsewhere.

    With every client kept (``keep=None``) this is the unbiased strategy of Section III-B,
    p = α (eq. 4), and the default q of problem files and of :class:`QuadraticProblem`. A client
    with π_k = 0 needs α_k = 0 or to be excluded (α_k/π_k is undefined otherwise).

    >>> unbiased_weights([0.5, 0.5], [1.0, 0.25]).tolist()
    [0.2, 0.8]
    """
    pi_arr = checks.availability(pi)
    alpha_arr = checks.simplex(alpha, "alpha", pi_arr.size)
    total_q = checks.positive(Q, "Q")
    mask = np.ones(pi_arr.size, dtype=bool) if keep is None else _keep_mask(keep, pi_arr.size)
    needed = mask & (alpha_arr > 0.0)
    if np.any(needed & (pi_arr == 0.0)):
        raise InputError("unbiased weights α/π are undefined where π_k = 0 < α_k; give q")
    safe_pi = np.where(needed, pi_arr, 1.0)
    with np.errstate(over="ignore"):
        ratio = np.where(needed, alpha_arr / safe_pi, 0.0)
        total = float(ratio.sum())
    if not np.isfinite(total):  # α_k/π_k overflows (π_k tiny, e.g. subnormal): rescale by π_min
        ratio = np.where(needed, alpha_arr * (float(np.min(pi_arr[needed])) / safe_pi), 0.0)
        total = float(ratio.sum())
    if total <= 0.0:
        raise InputError("the kept clients all have alpha = 0: no unbiased weights exist")
    return ratio * (total_q / total)


def reduced_lambda(chain: AvailabilityChain, keep: object) -> float:
    """λ(P′) of any chain restricted to the kept clients (Section III-D, Guideline B).

    ``chain.exclude`` gives P′: the product over the kept clients (Prop. 6), the kept clusters,
    or the lumped dense chain (InputError when the kept clients' availability is not Markov).

    >>> from fltheory.markov import ProductChain
    >>> reduced_lambda(ProductChain([0.5, 0.3], [0.9, 0.2]), [1])
    0.6
    """
    n = chain.n_clients
    if n is None:
        raise InputError("the chain has no state→clients map: no clients to keep")
    return float(chain.exclude(~_keep_mask(keep, n)).lam)


def reduced_chain_lambda(pi: object, lambda2: object, keep: object) -> float:
    """λ(P′) of the product chain over the kept clients (Prop. 6: max_{kept} (|λ₂,k|+1)/2).

    >>> reduced_chain_lambda([0.5, 0.3], [0.9, 0.2], [1])
    0.6
    """
    return reduced_lambda(ProductChain(pi, lambda2), keep)
