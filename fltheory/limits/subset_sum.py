"""Proposition 1 of the FedPBC paper in its subset-sum form: exact, symbolic and literal float.

The paper writes the limit weight of client i as

    w_i = p_i [1 + Σ_{j=2}^m (−1)^(j+1) (1/j) Σ_{S∈B_j} Π_{z∈S} p_z] / (1 − Π_z (1 − p_z)),
    B_j = {S ⊆ [m] ∖ {i} : |S| = j − 1},

(derivation: p_i E[1/(1 + K_i)] with E[t^{K_i}] = Π_{z≠i}(1 − p_z(1 − t)) expanded in powers of
p and integrated term by term). The inner sum is the elementary symmetric polynomial
e_{j−1}(p_{−i}), so the exact form needs only O(m²) ring operations per client.

* :func:`fedavg_weights_exact` works in any exact ring: :class:`fractions.Fraction` (floats are
  converted exactly, so this is the exact value for the binary numbers given) or sympy
  expressions (symbols give the symbolic weights).
* :func:`fedavg_weights_subset_sum` evaluates the literal formula in floats over all 2^m
  subsets. It is the paper's form, not a good algorithm: the alternating sum cancels
  catastrophically (terms up to ~C(m−1, m/2)/m for p near 1), and it costs O(m 2^m).
"""

from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.errors import InputError

#: Largest m for the float subset-sum form (2^m doubles per pass).
MAX_SUBSET_SUM_CLIENTS = 26


def _exact(value: Any) -> Any:
    """A Fraction for numbers and numeric strings; sympy objects pass through unchanged."""
    if hasattr(value, "free_symbols"):  # sympy.Basic
        return value
    try:
        return Fraction(value)
    except (TypeError, ValueError):
        raise InputError(f"p entry {value!r} is not an exact number or sympy expression") from None


def _elementary_symmetric(values: list[Any]) -> list[Any]:
    """e_0, …, e_n of ``values`` by the exact recursion e_k ← e_k + v·e_{k−1}."""
    e: list[Any] = [1] + [0] * len(values)
    for v in values:
        for k in range(len(values), 0, -1):
            e[k] = e[k] + v * e[k - 1]
    return e


def fedavg_weights_exact(p: list[Any]) -> list[Any]:
    """Exact (or symbolic) Proposition 1 weights w_i, in the paper's subset-sum form."""
    ps = [_exact(v) for v in p]
    if not ps:
        raise InputError("p must hold at least one client")
    none_active = 1
    for v in ps:
        none_active = none_active * (1 - v)
    denominator = 1 - none_active
    if denominator == 0:
        raise InputError("P(A ≠ ∅) = 0: no client is ever active")
    weights = []
    for i, p_i in enumerate(ps):
        e = _elementary_symmetric(ps[:i] + ps[i + 1 :])
        bracket = 1 + sum(Fraction((-1) ** (j + 1), j) * e[j - 1] for j in range(2, len(ps) + 1))
        weights.append(p_i * bracket / denominator)
    return weights


def fedavg_weights_subset_sum(p: np.ndarray) -> np.ndarray:
    """Float evaluation of the literal subset-sum formula over all 2^m subsets (m ≤ 26)."""
    arr = np.asarray(p, dtype=np.float64)
    m = arr.size
    if not 1 <= m <= MAX_SUBSET_SUM_CLIENTS:
        raise InputError(f"the subset-sum form needs 1 ≤ m ≤ {MAX_SUBSET_SUM_CLIENTS}, got {m}")
    # products[S] = Π_{z∈S} p_z and |S| for every subset S; bit z of the index S ↔ client z.
    products = np.ones(1)
    sizes = np.zeros(1, dtype=np.int8)
    for v in arr:
        products = np.concatenate([products, products * v])
        sizes = np.concatenate([sizes, sizes + 1])
    # term(S) = (−1)^(j+1)/j · Π_S p with j = |S| + 1 (j = 1 is the leading "1").
    terms = np.where(sizes % 2 == 0, 1.0, -1.0) / (sizes + 1.0) * products
    del products, sizes
    brackets = np.array([terms.reshape(2 ** (m - 1 - i), 2, 2**i)[:, 0, :].sum() for i in range(m)])
    with np.errstate(divide="ignore"):  # p_z = 1: log 0 = −inf, P(A ≠ ∅) = 1
        return arr * brackets / -np.expm1(np.log1p(-arr).sum())
