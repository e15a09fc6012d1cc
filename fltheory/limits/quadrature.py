"""Certified Gauss–Legendre rules for Poisson-binomial harmonic moments.

With A the random set of active clients (independent links, P(i ∈ A) = p_i) and K = |A ∖ O|
for a set O of r left-out clients, the identity 1/(r + k) = ∫₀¹ t^(r−1) t^k dt gives

    E[1/(r + K)] = ∫₀¹ t^(r−1) Π_{z∉O} (1 − p_z + p_z t) dt
                 = ∫₀¹ (1 − s)^(r−1) Π_{z∉O} (1 − p_z s) ds

(s = 1 − t). This is the integral behind Proposition 1 of the FedPBC paper (r = 1) and behind
the FedPBC mixing matrix (r = 2). The integrand is a polynomial of degree m − 1, so Gauss–Legendre
with ⌈m/2⌉ nodes is exact — but that costs O(m²). For large Σp the integrand is concentrated at
scale 1/Σp near s = 0, and a rule with a few dozen nodes on a truncated interval [0, s₀] suffices.
The rule below comes with a *certified* relative error bound (rounding aside):

* tail: 1 − p s ≤ e^(−p s) gives ∫_{s₀}^1 ≤ e^(−λ s₀)/λ with λ = Σ_{z∉O} p_z, and Jensen gives
  E[1/(r + K)] ≥ 1/(r + λ); so the relative tail is ≤ (r + λ) e^(−λ s₀)/λ, worst at the
  smallest λ over the choices of O (total minus the r largest p's);
* quadrature: the integrand is entire; on the Bernstein ellipse E_ρ of [0, s₀] (semi-major
  axis a = (ρ + 1/ρ)/2 in the reference variable) |s| ≤ σ = s₀(a + 1)/2, so
  |integrand| ≤ (1 + σ)^(r−1) e^(σΛ) with Λ = Σ_z p_z, and Gauss with n nodes errs by at most
  (s₀/2)·(64/15)·max|f|/((ρ² − 1) ρ^(2n)) (Trefethen, *Approximation Theory and Approximation
  Practice*, Thm 19.3); dividing by the Jensen lower bound 1/(r + Λ) makes it relative. The bound
  is minimised over ρ on a grid. With n ≥ ⌈m/2⌉ the quadrature error is exactly zero.

Rounding: the integrand is evaluated as exp(L(s) − Σ_{z∈O} ℓ_z(s)), ℓ_z = log1p(−p_z s),
L = Σ_z ℓ_z. Removing a factor by subtracting its logarithm never divides by a small number;
the absolute error of the exponent is ≈ eps·Σ_z|ℓ_z(s)|, which is ≤ eps·(tens) wherever the
integrand is not negligible, so the relative rounding error stays ≈ 1e-14.
"""

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from fltheory.errors import NumericalError

#: Node counts tried in turn; the first whose certified bound meets the tolerance is used.
NODE_LADDER = (4, 8, 12, 16, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256)
#: ρ grid (ρ − 1 log-spaced) over which the Bernstein-ellipse bound is minimised.
_RHO = 1.0 + np.exp(np.linspace(-6.0, 6.0, 601))


@dataclass(frozen=True)
class HarmonicRule:
    """Nodes s_n, weights and L(s_n) = Σ_z log1p(−p_z s_n) for E[1/(r + K)] integrals."""

    nodes: np.ndarray
    weights: np.ndarray
    log_full: np.ndarray
    s_max: float
    error_bound: float  # certified relative bound (tail + quadrature); 0.0 when exact
    exact: bool  # polynomial integrated exactly on the whole of [0, 1]

    def log_factors(self, p: np.ndarray) -> np.ndarray:
        """ℓ_z(s_n) = log1p(−p_z s_n) for the given p's: shape (len(p), n)."""
        return np.log1p(-np.outer(p, self.nodes))


def _legendre_near_one(n: int, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """P_n and P_{n−1} at x = 1 − y by the difference recurrence (relative accuracy near x = 1).

    With D_k = P_k − P_{k−1}, Bonnet's recurrence becomes
    D_k = ((k − 1) D_{k−1} − (2k − 1) y P_{k−1})/k: the small increments are carried
    separately from P_k ≈ 1 instead of being recovered from a rounded x = 1 − y.
    """
    p_prev, p, d = np.ones_like(y), 1.0 - y, -y
    for k in range(2, n + 1):
        d = ((k - 1) * d - (2 * k - 1) * y * p) / k
        p_prev, p = p, p + d
    return p, p_prev


@lru_cache(maxsize=64)
def gauss_legendre_unit(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss–Legendre nodes and weights on [0, 1], accurate to ~n ulps *relative*, even near 0.

    Library rules (numpy, scipy) store the nodes as x ∈ [−1, 1], so the nodes next to an
    endpoint lose relative accuracy and their small weights carry errors of 1e-13 and more —
    fatal here, where the integrand sits at s = 0. We run Newton in y = 1 − x on the half
    x ≥ 0 with the recurrence of :func:`_legendre_near_one`, w = 2y(2 − y)/(n P_{n−1})², and
    mirror: the nodes near s = 0 are s = y/2 exactly as computed.
    """
    half = (n + 1) // 2
    theta = np.pi * (4.0 * np.arange(1, half + 1) - 1.0) / (4.0 * n + 2.0)
    y = 2.0 * np.sin(0.5 * theta) ** 2
    converged = False
    for _ in range(40):
        p_n, p_prev = _legendre_near_one(n, y)
        step = p_n * y * (2.0 - y) / (n * (p_prev - (1.0 - y) * p_n))
        y = y + step
        if converged:
            break
        converged = bool(np.all(np.abs(step) <= 1e-14 * y))
    if n % 2:
        y[-1] = 1.0  # the middle node x = 0
    p_n, p_prev = _legendre_near_one(n, y)
    w = y * (2.0 - y) / (n * p_prev) ** 2  # half the [−1, 1] weight
    mirror = slice(n // 2 - 1, None, -1) if n > 1 else slice(0, 0)
    nodes = np.concatenate([0.5 * y, 1.0 - 0.5 * y[mirror]])
    weights = np.concatenate([w, w[mirror]])
    nodes.flags.writeable = False
    weights.flags.writeable = False
    return nodes, weights


def _tail_cut(lam_min: float, r: int, rtol: float) -> float:
    """Smallest s₀ ≤ 1 whose relative tail bound (r + λ)e^(−λ s₀)/λ is ≤ rtol."""
    if lam_min <= 0.0:
        return 1.0
    with np.errstate(over="ignore"):  # λ < ~1e-306 overflows s₀ to inf: the cut is then 1
        s0 = (np.log((r + lam_min) / lam_min) - np.log(rtol)) / lam_min
    return float(min(1.0, s0))


def _quadrature_bound(n: int, s0: float, total: float, r: int) -> float:
    """Certified relative Gauss error with n nodes on [0, s₀] (see module docstring)."""
    a = 0.5 * (_RHO + 1.0 / _RHO)
    sigma = 0.5 * s0 * (a + 1.0)
    log_bound = (
        np.log((r + total) * 0.5 * s0 * 64.0 / 15.0)
        + (r - 1) * np.log1p(sigma)
        + sigma * total
        - np.log(_RHO**2 - 1.0)
        - 2.0 * n * np.log(_RHO)
    )
    return float(np.exp(min(log_bound.min(), 0.0)))


def harmonic_rule(
    p: np.ndarray, r: int = 1, *, rtol: float = 1e-15, exact: bool = False
) -> HarmonicRule:
    """A Gauss–Legendre rule for ∫₀¹ (1 − s)^(r−1) Π_{z∉O}(1 − p_z s) ds, any |O| = r.

    ``p`` must be a float array in [0, 1]; the rule serves every left-out set O of size r. The
    certified relative error is ≤ rtol (tail and quadrature each ≤ rtol/2). The exact rule
    (⌈m/2⌉ nodes on [0, 1], O(m) nodes) is used when ``exact`` is set or when it is smaller.
    """
    m = p.size
    total = float(p.sum())
    lam_min = max(total - float(np.sort(p)[-r:].sum()), 0.0) if m > r else 0.0
    n_exact = max(1, -(-m // 2))
    n, s0, bound, is_exact = n_exact, 1.0, 0.0, True
    if not exact:
        s0 = _tail_cut(lam_min, r, 0.5 * rtol)
        tail = 0.0 if s0 >= 1.0 else (r + lam_min) * np.exp(-lam_min * s0) / lam_min
        for candidate in NODE_LADDER:
            if candidate >= n_exact:
                s0 = 1.0
                break
            q_bound = _quadrature_bound(candidate, s0, total, r)
            if q_bound <= 0.5 * rtol:
                n, bound, is_exact = candidate, q_bound + tail, False
                break
        else:
            raise NumericalError(
                f"no certified Gauss rule with at most {NODE_LADDER[-1]} nodes for m={m}"
            )
    unit_nodes, unit_weights = gauss_legendre_unit(n)
    nodes = s0 * unit_nodes
    weights = s0 * unit_weights
    log_full = np.zeros(n)
    for chunk in np.array_split(p, max(1, (m * n) // 4_000_000 + 1)):
        log_full += np.log1p(-np.outer(nodes, chunk)).sum(axis=1)  # pairwise sums
    return HarmonicRule(nodes, weights, log_full, s0, float(bound), is_exact)
