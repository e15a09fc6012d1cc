"""Shared oracles of the FedPBC claims (:mod:`.fedpbc`, :mod:`.fedpbc_lemmas`,
:mod:`.fedpbc_theorem1`): enumeration of the 2^m link patterns (floats and exact
:class:`~fractions.Fraction`), the mixing matrix W^(t) of l.157, ρ = λ₂(E[W²]) computed as
1 − ν₂(E[I − W²]) from a matrix whose entries are sums of non-negative terms (so that 1 − ρ keeps
its relative accuracy when the link probabilities are tiny), and κ of eq. (4).

>>> kappa(3, 0.5), float(kappa_printed(3, Fraction(1, 2)))
(1.1666666666666667, 1.1666666666666667)
"""

import functools
import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import Claim, Source, register
from fltheory.errors import NumericalError

PAPER = "fedpbc"

# ---------------------------------------------------------------------------------------------
# Shared oracles
# ---------------------------------------------------------------------------------------------


def _masks(m: int) -> np.ndarray:
    """All 2^m link patterns as a (2^m, m) boolean matrix (bit i of the row index ↔ client i)."""
    return ((np.arange(2**m)[:, None] >> np.arange(m)) & 1).astype(bool)


def _set_probs(p: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """P(A = S) for every row S (products of non-negative factors)."""
    return np.prod(np.where(masks, p, 1.0 - p), axis=1)


def _nonempty_conditional(p: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """P(A = S | A ≠ ∅) for every row S (0 for the empty set), from log-probabilities shifted
    by their maximum: no underflow for subnormal link probabilities."""
    with np.errstate(divide="ignore"):
        logs = np.where(masks, np.log(p), np.log1p(-p)).sum(axis=1)
    logs = np.where(masks.any(axis=1), logs, -np.inf)
    top = np.max(logs)
    if not np.isfinite(top):
        raise NumericalError("no link is ever active")
    w = np.exp(logs - top)
    return w / w.sum()


def _fr(x: Any) -> Fraction:
    return Fraction(float(x)) if not isinstance(x, Fraction) else x


def _frs(xs: Any) -> list[Fraction]:
    return [_fr(v) for v in np.atleast_1d(np.asarray(xs, dtype=float))]


def _set_probs_exact(p: list[Fraction]) -> list[tuple[tuple[int, ...], Fraction]]:
    """(members of S, P(A = S)) for all 2^m sets, exactly."""
    out = []
    for bits in itertools.product((0, 1), repeat=len(p)):
        prob = Fraction(1)
        for b, v in zip(bits, p, strict=True):
            prob *= v if b else 1 - v
        out.append((tuple(i for i, b in enumerate(bits) if b), prob))
    return out


def _w_def(active: np.ndarray) -> np.ndarray:
    """W^(t) of l.157: 1/|A| on A×A, 1 on the diagonal outside A, 0 elsewhere."""
    m = active.size
    W = np.zeros((m, m))
    k = int(active.sum())
    for i in range(m):
        for j in range(m):
            if active[i] and active[j]:
                W[i, j] = 1.0 / k
            elif i == j:
                W[i, j] = 1.0
    return W


@functools.lru_cache(maxsize=16)
def _w_stack(m: int) -> np.ndarray:
    out = np.stack([_w_def(mask) for mask in _masks(m)])
    out.setflags(write=False)
    return out


def _w_exact(m: int, members: tuple[int, ...]) -> list[list[Fraction]]:
    k = len(members)
    return [
        [
            Fraction(1, k)
            if (i in members and j in members)
            else (Fraction(1) if i == j else Fraction(0))
            for j in range(m)
        ]
        for i in range(m)
    ]


def _laplacian(p: np.ndarray) -> np.ndarray:
    """E[I − W²] = E[I − W] by enumeration: (1 − 1/|A|) on the diagonal of A, −1/|A| on A×A
    off the diagonal. Every entry is a sum of terms of one sign (no cancellation)."""
    m = p.size
    masks = _masks(m)
    probs = _set_probs(p, masks)
    size = masks.sum(axis=1)
    inv = np.where(size > 0, 1.0 / np.maximum(size, 1), 0.0)
    S = masks.astype(float)
    L = -(S * (probs * inv)[:, None]).T @ S
    np.fill_diagonal(L, S.T @ (probs * np.where(size > 0, 1.0 - inv, 0.0)))
    return L


def _rho_gap(p: np.ndarray, *, resolved: bool = False) -> float:
    """1 − ρ = ν₂(E[I − W²]) (ρ(1 client) := 0, gap 1). eigvalsh errs by ≈ eps·‖E[I − W²]‖;
    with ``resolved`` a gap below 1e-12·‖E[I − W²]‖ is declined (NumericalError)."""
    if p.size == 1:
        return 1.0
    L = _laplacian(p)
    nu = np.linalg.eigvalsh(L)
    if resolved and nu[1] < 1e-12 * max(abs(nu[-1]), 1e-300):
        raise NumericalError("1 − ρ is below the resolution of the float eigenvalues")
    return float(max(nu[1], 0.0))


def _laplacian_exact(p: list[Fraction]) -> list[list[Fraction]]:
    """E[I − W²] in exact rationals, W² multiplied out (not using idempotence)."""
    m = len(p)
    L = [[Fraction(0)] * m for _ in range(m)]
    for members, prob in _set_probs_exact(p):
        if not members:
            continue
        W = _w_exact(m, members)
        for i in range(m):
            for j in range(m):
                w2 = sum((W[i][k] * W[k][j] for k in range(m)), Fraction(0))
                L[i][j] += prob * ((1 if i == j else 0) - w2)
    return L


def _rho_gap_mp(p: list[Fraction], dps: int = 50) -> Any:
    """1 − ρ at ``dps`` digits from the exact E[I − W²] (mpmath.eigsy)."""
    import mpmath

    m = len(p)
    if m == 1:
        return mpmath.mpf(1)
    with mpmath.workdps(dps):
        L = _laplacian_exact(p)
        A = mpmath.matrix([[mpmath.mpf(v.numerator) / v.denominator for v in row] for row in L])
        E, _ = mpmath.eigsy(A)
        nu = sorted(E[i] for i in range(m))
        return max(nu[1], mpmath.mpf(0))


def _rel(a: float, b: float, tiny: float = 1e-300) -> float:
    """(a − b)/max(|a|, |b|, tiny): a relative gap, positive iff a > b."""
    return (a - b) / max(abs(a), abs(b), tiny)


def _mp_to_fraction(value: Any) -> Fraction:
    """An mpmath number as the exact Fraction of its binary value (sign included).

    >>> import mpmath
    >>> _mp_to_fraction(mpmath.mpf(-0.375)), _mp_to_fraction(mpmath.mpf(0))
    (Fraction(-3, 8), Fraction(0, 1))
    """
    import mpmath

    sign, man, exp, _ = mpmath.mpf(value)._mpf_
    if not man:
        if exp:  # ±inf or nan
            raise NumericalError(f"non-finite high-precision margin {value}")
        return Fraction(0)
    out = Fraction(int(man)) * (Fraction(2) ** int(exp))
    return -out if sign else out


def _u_spread(u: np.ndarray) -> float:
    return float(np.max(np.abs(u - u.mean()))) if u.size else 0.0


def _register(label: str, section: str, name: str, lines: tuple[int, int], statement: str,
              **kw: Any) -> Claim:  # fmt: skip
    return register(Claim(f"{PAPER}:{label}", Source(PAPER, section, name, lines), statement, **kw))


# ---------------------------------------------------------------------------------------------
# κ of eq. (4) and Remark 2
# ---------------------------------------------------------------------------------------------


def kappa(s: int, x: float) -> float:
    """κ of eq. (4) as a function of x = ηL, by its series Σ_{j≥2} C(s,j) x^(j−2)/C(s,2)
    (positive terms: no cancellation at small x); κ := 0 for s = 1 (Remark 2's convention).

    >>> kappa(2, 0.7), kappa(1, 0.3)
    (1.0, 0.0)
    """
    if s == 1:
        return 0.0
    c2 = math.comb(s, 2)
    total, power = 0.0, 1.0
    for j in range(2, s + 1):
        total += math.comb(s, j) * power
        power *= x
        if not math.isfinite(total):
            return math.inf
    return total / c2


def kappa_printed(s: int, x: Fraction) -> Fraction:
    """Eq. (4) literally, ((1 + x)^s − 1 − sx)/(C(s,2)x²), in exact rationals (s ≥ 2, x > 0)."""
    return ((1 + x) ** s - 1 - s * x) / (math.comb(s, 2) * x * x)


def _frak_c(kap: float, L: float) -> float:
    """𝔆 = κ²L² + 2L(1 + κ²L²/4) (Lemma 4)."""
    return kap * kap * L * L + 2.0 * L * (1.0 + kap * kap * L * L / 4.0)


def _one_minus_sqrt(gap: float) -> float:
    """1 − √ρ from the gap 1 − ρ, without cancellation."""
    return gap / (1.0 + math.sqrt(max(1.0 - gap, 0.0)))


def _bisect_cap(cap: Callable[[float], float]) -> float:
    lo, hi = 0.0, cap(0.0)
    if hi <= 0:
        return 0.0
    if hi <= cap(hi):
        return hi
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid <= cap(mid):
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * hi:
            break
    return lo


def _gap_or_decline(p: np.ndarray) -> float:
    gap = _rho_gap(p)
    if gap < 1e-150:  # (1 − √ρ)² would underflow
        raise NumericalError("1 − ρ below 1e-150 (a link probability is nearly 0)")
    return gap
