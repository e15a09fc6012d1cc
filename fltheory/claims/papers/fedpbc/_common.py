"""Shared oracles of the FedPBC claims (the section modules ``s3_*``, ``s4_*``, ``s5b_*``, ``s6_*``
of this package; they register nothing here): enumeration of the 2^m link patterns (floats and exact
:class:`~fractions.Fraction`), the mixing matrix W^(t) of l.157, ρ = λ₂(E[W²]) computed as 1 −
ν₂(E[I − W²]) from a matrix whose entries are sums of non-negative terms (so that 1 − ρ keeps its
relative accuracy when the link probabilities are tiny), κ of eq. (4), the local gain of §III's
quadratics, Proposition 1's limit by the code path, and Theorem 1's step-size caps (l.251; used by
Theorem 1 and by its comparison with Lemma 5).

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

from fltheory.claims.explain import Quantity, signed
from fltheory.claims.space import Instance
from fltheory.errors import NumericalError


def link_masks(m: int) -> np.ndarray:
    """All 2^m link patterns as a (2^m, m) boolean matrix (bit i of the row index ↔ client i)."""
    return ((np.arange(2**m)[:, None] >> np.arange(m)) & 1).astype(bool)


def set_probs(p: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """P(A = S) for every row S (products of non-negative factors)."""
    return np.prod(np.where(masks, p, 1.0 - p), axis=1)


def nonempty_conditional(p: np.ndarray, masks: np.ndarray) -> np.ndarray:
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


def set_probs_exact(p: list[Fraction]) -> list[tuple[tuple[int, ...], Fraction]]:
    """(members of S, P(A = S)) for all 2^m sets, exactly."""
    out = []
    for bits in itertools.product((0, 1), repeat=len(p)):
        prob = Fraction(1)
        for b, v in zip(bits, p, strict=True):
            prob *= v if b else 1 - v
        out.append((tuple(i for i, b in enumerate(bits) if b), prob))
    return out


def w_def(active: np.ndarray) -> np.ndarray:
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
def w_stack(m: int) -> np.ndarray:
    """W^(t) of every link pattern of :func:`link_masks` (read-only, cached)."""
    out = np.stack([w_def(mask) for mask in link_masks(m)])
    out.setflags(write=False)
    return out


def w_exact(m: int, members: tuple[int, ...]) -> list[list[Fraction]]:
    """W^(t) of l.157 for the active set ``members``, in exact rationals."""
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


def laplacian(p: np.ndarray) -> np.ndarray:
    """E[I − W²] = E[I − W] by enumeration: (1 − 1/|A|) on the diagonal of A, −1/|A| on A×A
    off the diagonal. Every entry is a sum of terms of one sign (no cancellation)."""
    m = p.size
    masks = link_masks(m)
    probs = set_probs(p, masks)
    size = masks.sum(axis=1)
    inv = np.where(size > 0, 1.0 / np.maximum(size, 1), 0.0)
    S = masks.astype(float)
    L = -(S * (probs * inv)[:, None]).T @ S
    np.fill_diagonal(L, S.T @ (probs * np.where(size > 0, 1.0 - inv, 0.0)))
    return L


def rho_gap(p: np.ndarray, *, resolved: bool = False) -> float:
    """1 − ρ = ν₂(E[I − W²]) (ρ(1 client) := 0, gap 1). eigvalsh errs by ≈ eps·‖E[I − W²]‖;
    with ``resolved`` a gap below 1e-12·‖E[I − W²]‖ is declined (NumericalError)."""
    if p.size == 1:
        return 1.0
    L = laplacian(p)
    nu = np.linalg.eigvalsh(L)
    if resolved and nu[1] < 1e-12 * max(abs(nu[-1]), 1e-300):
        raise NumericalError("1 − ρ is below the resolution of the float eigenvalues")
    return float(max(nu[1], 0.0))


def laplacian_exact(p: list[Fraction]) -> list[list[Fraction]]:
    """E[I − W²] in exact rationals, W² multiplied out (not using idempotence)."""
    m = len(p)
    L = [[Fraction(0)] * m for _ in range(m)]
    for members, prob in set_probs_exact(p):
        if not members:
            continue
        W = w_exact(m, members)
        for i in range(m):
            for j in range(m):
                w2 = sum((W[i][k] * W[k][j] for k in range(m)), Fraction(0))
                L[i][j] += prob * ((1 if i == j else 0) - w2)
    return L


def rho_gap_mp(p: list[Fraction], dps: int = 50) -> Any:
    """1 − ρ at ``dps`` digits from the exact E[I − W²] (mpmath.eigsy)."""
    import mpmath

    m = len(p)
    if m == 1:
        return mpmath.mpf(1)
    with mpmath.workdps(dps):
        L = laplacian_exact(p)
        A = mpmath.matrix([[mpmath.mpf(v.numerator) / v.denominator for v in row] for row in L])
        E, _ = mpmath.eigsy(A)
        nu = sorted(E[i] for i in range(m))
        return max(nu[1], mpmath.mpf(0))


def rel(a: float, b: float, tiny: float = 1e-300) -> float:
    """(a − b)/max(|a|, |b|, tiny): a relative gap, positive iff a > b."""
    return (a - b) / max(abs(a), abs(b), tiny)


def u_spread(u: np.ndarray) -> float:
    """max_i |u_i − ū|: the scale of the data (0 for no clients)."""
    return float(np.max(np.abs(u - u.mean()))) if u.size else 0.0


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


def frak_c(kap: float, L: float) -> float:
    """𝔆 = κ²L² + 2L(1 + κ²L²/4) (Lemma 4)."""
    return kap * kap * L * L + 2.0 * L * (1.0 + kap * kap * L * L / 4.0)


def one_minus_sqrt(gap: float) -> float:
    """1 − √ρ from the gap 1 − ρ, without cancellation."""
    return gap / (1.0 + math.sqrt(max(1.0 - gap, 0.0)))


def bisect_cap(cap: Callable[[float], float]) -> float:
    """Largest η ≥ 0 with η ≤ cap(η) (cap non-increasing in η), by bisection."""
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


def gap_or_decline(p: np.ndarray) -> float:
    """1 − ρ of the links p; NumericalError when (1 − √ρ)² would underflow."""
    gap = rho_gap(p)
    if gap < 1e-150:  # (1 − √ρ)² would underflow
        raise NumericalError("1 − ρ below 1e-150 (a link probability is nearly 0)")
    return gap


def local_gain(inst: Instance) -> float:
    """γ = 1 − (1 − η)^s: the local gain of s exact gradient steps on ½(x − u_i)²."""
    return 1.0 - (1.0 - inst["eta"]) ** inst["s"]


def loss_quantity(i: int, ui: Fraction) -> Quantity:
    """F_i(x) = ½(x − u_i)² with its number in (½x² when u_i = 0)."""
    body = "x²" if ui == 0 else f"(x {signed(-ui)})²"
    return Quantity(f"F_{i + 1}", f"loss of client {i + 1}", ui, f"F_{i + 1}(x) = ½{body}")


def prop1_code_limit(p: np.ndarray, u: np.ndarray) -> float:
    """Proposition 1's limit Σ_i w_iu_i by the code path (limits.bernoulli)."""
    from fltheory.limits.bernoulli import fedavg_weights

    return float(fedavg_weights(p).weights @ u)


def thm1_caps(
    eta: float, s: int, L: float, rho: float, beta2: float, gap: float | None = None
) -> list[float]:
    """Theorem 1's step-size caps (l.251) at η (κ depends on η), as printed."""
    k = kappa(s, eta * L)
    C = frak_c(k, L)
    oms = one_minus_sqrt(1.0 - rho if gap is None else gap)
    q = s * s * L * L * rho / oms**2
    caps = [1.0 / (24 * (beta2 + 1) * C * (1 + 18 * q) + 144 * (beta2 + 1) * q), 1.0 / (2 * s)]
    if s > 1:
        caps.append(math.sqrt(2.0) / (k * s * L))
    if rho > 0:
        caps.append(1.0 / (rho * s**3))
        caps.append(oms / (6 * math.sqrt(2.0) * rho * L * s * s))
    return caps


def thm1_eta_max(s: int, L: float, rho: float, beta2: float, gap: float | None = None) -> float:
    """Theorem 1's largest admissible step (every cap of l.251 at once)."""
    return bisect_cap(lambda eta: min(thm1_caps(eta, s, L, rho, beta2, gap)))
