"""The infinite series of Theorem 2 (CA-Fed ToN, eqs. 176–179), with certified tails.

Each series is a partial sum of its first n terms (numpy pairwise summation of positive terms,
relative rounding error ≲ 1e-13, not included in the tail) plus an upper bound of the remainder
Σ_{t>n} from an integral of a monotone majorant. ``upper = partial + tail`` is what the bound
uses; both parts are reported.

Tail rules:

* Σ c²t^(−p), p = 2a > 1: x^(−p) is convex, so each term is at most the integral over
  [t − ½, t + ½] (Hermite–Hadamard) and Σ_{t>n} ≤ c²(n + ½)^(1−p)/(p − 1).
* Σ ℓ(t)·η²_{t−J_t} with ℓ(t) = ln(2C_P H t) and J_t of eq. 132: see
  :func:`sum_log_delayed`.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fltheory.errors import InputError, NumericalError
from fltheory.problems.steps import StepSizes

#: Default number of directly summed terms.
N_PARTIAL = 2**20
#: Terms evaluated per numpy chunk.
CHUNK = 2**20
#: Most terms summed directly before a series is declared too slow to certify.
MAX_TERMS = 5 * 10**7
#: Finite sums Σ_{t≤m} η_t longer than this are bracketed by integrals instead.
DIRECT_LIMIT = 10**7
#: Capped stretch {t : J_t = t} summed in closed form when longer than this.
SHORTCUT_MIN = 2**16


@dataclass(frozen=True)
class SeriesValue:
    """A series as partial sum (first ``n_terms`` terms) plus a certified tail bound."""

    partial: float
    tail: float
    n_terms: int
    rule: str
    notes: tuple[str, ...] = field(default=())

    @property
    def upper(self) -> float:
        """partial + tail ≥ the series."""
        return self.partial + self.tail

    def to_dict(self) -> dict[str, Any]:
        return {
            "partial": self.partial,
            "tail": self.tail,
            "upper": self.upper,
            "n_terms": self.n_terms,
            "rule": self.rule,
        }


def chunked_sum(term: Callable[[np.ndarray], np.ndarray], start: int, stop: int) -> float:
    """Σ_{t=start}^{stop} term(t), evaluated in chunks (empty range gives 0)."""
    total = 0.0
    for lo in range(start, stop + 1, CHUNK):
        t = np.arange(lo, min(lo + CHUNK, stop + 1), dtype=np.int64)
        total += float(np.sum(term(t)))
    return total


def power_tail(coef_sq: float, p: float, n: int) -> float:
    """Upper bound of Σ_{t>n} coef_sq·t^(−p): coef_sq(n + ½)^(1−p)/(p − 1); inf when p ≤ 1."""
    if coef_sq == 0.0:
        return 0.0
    if p <= 1.0:
        return math.inf
    return coef_sq * math.exp((1.0 - p) * math.log(n + 0.5)) / (p - 1.0)


def power_integral(coef: float, a: float, lo: float, hi: float) -> float:
    """∫_lo^hi coef·x^(−a) dx for 0 < lo ≤ hi, stable near a = 1."""
    if hi <= lo or coef == 0.0:
        return 0.0
    r = math.log(hi / lo)
    e = 1.0 - a
    if abs(e * r) < 1e-12:
        return coef * math.exp(e * math.log(lo)) * r
    return coef * math.exp(e * math.log(lo)) * math.expm1(e * r) / e


def sum_eta_squared(steps: StepSizes, n_partial: int = N_PARTIAL) -> SeriesValue:
    """Σ_{t≥1} η_t² (eqs. 176–178)."""
    head = float(np.sum(steps.head**2))
    n0 = steps.n_head
    if steps.power is None:
        return SeriesValue(head, 0.0, n0, "schedule is zero after its explicit values")
    c, p = steps.coef, 2.0 * steps.power
    n = n0 + n_partial
    body = chunked_sum(lambda t: c * c * t.astype(float) ** (-p), n0 + 1, n)
    tail = power_tail(c * c, p, n)
    return SeriesValue(head + body, tail, n, "∫_{n+½}^∞ c²x^(−2a) dx (convex majorant)")


def sum_inverse_squares(n_partial: int = N_PARTIAL) -> SeriesValue:
    """Σ_{t≥1} 1/t² (= π²/6; computed like the others so the tail rule is exercised)."""
    body = chunked_sum(lambda t: t.astype(float) ** -2.0, 1, n_partial)
    return SeriesValue(body, power_tail(1.0, 2.0, n_partial), n_partial, "∫_{n+½}^∞ x^(−2) dx")


def finite_sum(steps: StepSizes, m: int) -> tuple[float, float]:
    """(lower, upper) bounds of Σ_{t=1}^{m} η_t; equal when summed directly (m ≤ 10⁷ or so)."""
    if m <= 0:
        return 0.0, 0.0
    n0 = steps.n_head
    head = float(np.sum(steps.head[: min(m, n0)]))
    if m <= n0 or steps.power is None:
        return head, head
    c, a = steps.coef, steps.power
    direct_stop = min(m, n0 + DIRECT_LIMIT)
    body = chunked_sum(lambda t: c * t.astype(float) ** (-a), n0 + 1, direct_stop)
    if direct_stop == m:
        return head + body, head + body
    lower = power_integral(c, a, direct_stop + 1.0, m + 1.0)
    upper = power_integral(c, a, float(direct_stop), float(m))
    return head + body + lower, head + body + upper


def delays(t: np.ndarray, log_K: float, log_inv_lam: float, T_P: int) -> np.ndarray:
    """J_t = min{max{⌈ln(2C_P H t)/ln(1/λ)⌉, T_P}, t} (eq. 132), with ln K = ln(2C_P H)."""
    t_arr = np.asarray(t, dtype=np.int64)
    ratio = (log_K + np.log(t_arr.astype(float))) / log_inv_lam
    j = np.maximum(np.ceil(ratio), float(T_P))
    return np.minimum(j, t_arr.astype(float)).astype(np.int64)


def _capped_until(log_K: float, log_inv_lam: float, T_P: int) -> int:
    """Largest t_c with J_t = t for every t ≤ t_c (needs ln K > 0), or 0 if it cannot be shown.

    J_t = t iff t ≤ T_P or ℓ(t)/ln(1/λ) > t − 1. g(x) = (ln K + ln x)/ln(1/λ) − x + 1 is
    concave with g(1) > 0, so {g > 0} ∩ [1, ∞) = [1, x*); bisection finds x*, and the integer
    end is checked against :func:`delays` itself.
    """
    L = log_inv_lam

    def g(x: float) -> float:
        return (log_K + math.log(x)) / L - x + 1.0

    lo, hi = max(1.0, 1.0 / L), 2.0 * max(1.0, 1.0 / L)
    while g(hi) > 0.0:
        lo, hi = hi, 2.0 * hi
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if g(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    t_c = max(math.floor(lo), T_P)
    probe = np.array([t_c, t_c + 1], dtype=np.int64)
    j = delays(probe, log_K, L, T_P)
    if j[0] != t_c or j[1] == t_c + 1:
        return 0
    return t_c


def _log_delayed_cutoff(start: int, steps: StepSizes, log_K: float, L: float, T_P: int) -> int:
    """Smallest n ≥ start meeting the tail conditions of :func:`sum_log_delayed`."""
    n = max(start, math.ceil(4.0 / L), math.ceil(math.exp(min(2.0 - log_K, 700.0))))
    for _ in range(200):
        need = math.ceil(max(2.0 + (log_K + math.log(n)) / L, float(T_P)) + steps.n_head + 1)
        if n >= need:
            return n
        n = need
    raise NumericalError("could not find where the delayed-series tail bound applies")


def _negative_stretch(
    steps: StepSizes, log_K: float, log_inv_lam: float, T_P: int, shortcut_min: float
) -> SeriesValue | None:
    """The whole series in closed form when 2C_PH = K ≪ 1 (None when this does not apply).

    Applies to η_t = c·t^(−a) (no explicit head, a > ½), T_P = 0, t_K = ⌊1/K⌋ > shortcut_min
    and β = 1 − 1/(e·c_λ) − K ≥ K with c_λ = ln(1/λ)/K. For t ≤ t_K, ln(Kt) ≤ 0, so J_t = 0 and
    Σ_{t≤t_K} ln(Kt)c²t^(−2a) = c²[ln K·(ζ(2a) − ζ(2a, t_K+1)) + Σ_{t≤t_K} ln t·t^(−2a)]
    (Hurwitz ζ and its derivative). For t > t_K every term is ≥ 0 and, as J_t ≤ ln(Kt)/ln(1/λ)
    + 1 and ln(x)/x ≤ 1/e, t − J_t ≥ βt ≥ 1: the term is at most ln(Kt)c²(βt)^(−2a); f(x) =
    ln(Kx)x^(−2a) is unimodal on [1/K, ∞), so their sum is at most c²β^(−2a)(∫f + max f) =
    c²β^(−2a)(K^(2a−1)/(2a − 1)² + K^(2a)/(2ae)) — the certified tail (no direct terms at all).
    """
    a = steps.power
    if log_K >= 0.0 or log_K < -700.0 or T_P != 0 or steps.n_head != 0 or a is None:
        return None
    if a <= 0.5 or math.exp(-log_K) <= shortcut_min + 1.0:
        return None
    K = math.exp(log_K)
    t_K = math.floor(1.0 / K)
    while t_K > 1 and log_K + math.log(t_K) > 0.0:  # rounding at the edge
        t_K -= 1
    beta = 1.0 - K / (math.e * log_inv_lam) - K
    if not beta >= K:
        return None
    import mpmath

    p, c = 2.0 * a, steps.coef
    head = log_K * (mpmath.zeta(p) - mpmath.zeta(p, t_K + 1)) - (
        mpmath.zeta(p, 1, 1) - mpmath.zeta(p, t_K + 1, 1)
    )  # ζ'(s, q) = −Σ_{n≥0} ln(n + q)(n + q)^(−s), so the bracket is −Σ_{t≤t_K} ln t·t^(−s)
    tail = c * c * beta ** (-p) * (K ** (p - 1.0) / (p - 1.0) ** 2 + K**p / (p * math.e))
    note = (
        "ln(2 C_P H t) < 0 for t ≤ 1/(2 C_P H) (2 C_P H < 1): those terms are negative, a case "
        "the proof's step (141)-(142) does not cover"
    )
    rule = "t ≤ 1/K: Hurwitz ζ closed form; t > 1/K: c²β^(−2a)(K^(2a−1)/(2a−1)² + K^(2a)/(2ae))"
    return SeriesValue(c * c * float(head), tail, t_K, rule, (note,))


def sum_log_delayed(
    steps: StepSizes,
    log_K: float,
    log_inv_lam: float,
    T_P: int,
    *,
    n_partial: int = N_PARTIAL,
    shortcut_min: float = SHORTCUT_MIN,
) -> SeriesValue:
    """S = Σ_{t≥1} ln(K t)·η²_{t−J_t} with K = 2C_P H (eq. 179), certified.

    Reading: where J_t = t the index t − J_t is 0; the schedule starts at t = 1, so η_0 is read
    as η_1 (keeping η non-increasing, all that eq. 141 uses). Terms are used as defined even
    where ln(Kt) < 0 (K t < 1), which the proof's step (141)–(142) does not cover (a note says
    so).

    Closed form: on the stretch [1, t_c] where J_t = t (when ln K > 0 and t_c > shortcut_min)
    the sum is η₁²(t_c ln K + ln t_c!). When K < 1/shortcut_min (T_P = 0, a pure power law and
    ln(1/λ) not far below K) the whole series is a closed form plus a certified tail, see
    :func:`_negative_stretch` (direct summation would need ~e²/K terms).

    Tail: with h(x) = x − max(2 + ℓ(x)/ln(1/λ), T_P), J_t ≤ max(⌈ℓ/ln(1/λ)⌉, T_P) gives
    t − J_t ≥ h(t). The cutoff n satisfies n·ln(1/λ) ≥ 4, ℓ(n) ≥ 2 and h(n) ≥ n₀ + 1, so on
    [n, ∞): h increases (h′ ≥ 1 − 1/(n ln(1/λ))), h(x)/x increases, and f(x) = c²ℓ(x)h(x)^(−2a)
    is a decreasing majorant of the terms. Hence, with b = 2a − 1 and r = h(n)/n,
    Σ_{t>n} ≤ ∫_n^∞ f ≤ c²h(n)^(−b)(ℓ(n)/b + 1/b²)/(1 − 1/(n ln(1/λ))) (substituting s = h(x)
    and ln x ≤ ln s − ln r). With a zero-tail schedule every term past n vanishes.
    """
    L = float(log_inv_lam)
    if not (math.isfinite(L) and L > 0.0):
        raise InputError(f"ln(1/λ) must be positive and finite, got {log_inv_lam}")
    if not math.isfinite(log_K):
        raise InputError(f"ln(2 C_P H) must be finite, got {log_K}")
    closed_form = _negative_stretch(steps, log_K, L, T_P, shortcut_min)
    if closed_form is not None:
        return closed_form
    eta1_sq = steps.eta1**2
    notes: list[str] = []
    closed, start = 0.0, 1
    if log_K > 0.0:
        t_c = _capped_until(log_K, L, T_P)
        if t_c > shortcut_min:
            closed = eta1_sq * (t_c * log_K + math.lgamma(t_c + 1.0))
            start = t_c + 1
    else:
        notes.append(
            "ln(2 C_P H t) < 0 for some t (2 C_P H < 1): those terms are negative, a case the "
            "proof's step (141)-(142) does not cover"
        )
    n = _log_delayed_cutoff(start - 1 + n_partial, steps, log_K, L, T_P)
    if n - start + 1 > MAX_TERMS:
        raise NumericalError(
            f"the delayed series of eq. 179 needs {n - start + 1:.3g} direct terms "
            f"(ln(1/λ) = {L:.3g}, ln(2 C_P H) = {log_K:.3g}); too many to certify"
        )

    def term(t: np.ndarray) -> np.ndarray:
        s = np.maximum(t - delays(t, log_K, L, T_P), 1)
        return (log_K + np.log(t.astype(float))) * steps.eta(s) ** 2

    partial = closed + chunked_sum(term, start, n)
    if steps.power is None:
        return SeriesValue(partial, 0.0, n, "terms vanish past n (t − J_t > n₀)", tuple(notes))
    b = 2.0 * steps.power - 1.0
    if b <= 0.0:
        return SeriesValue(partial, math.inf, n, "diverges: 2a ≤ 1", tuple(notes))
    ell_n = log_K + math.log(n)
    h_n = n - max(2.0 + ell_n / L, float(T_P))
    tail = (
        steps.coef**2
        * math.exp(-b * math.log(h_n))
        * (ell_n / b + 1.0 / b**2)
        / (1.0 - 1.0 / (n * L))
    )
    rule = "c²h(n)^(−b)(ℓ(n)/b + 1/b²)/(1 − 1/(n ln(1/λ))), h(x) = x − max(2 + ℓ(x)/ln(1/λ), T_P)"
    return SeriesValue(partial, tail, n, rule, tuple(notes))
