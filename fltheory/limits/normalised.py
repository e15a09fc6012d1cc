"""E[1{k∈A} q_k / Σ_{j∈A} q_j] under independent Bernoulli links (per-round normalised weights).

This is the expected coefficient of client k when the server renormalises the aggregation
weights over the clients that answered (AdaFed-style; CA-Fed ToN Section V's "unbiased"
baseline q_k ∝ α_k/π_k renormalised over A_t). With 1/a = ∫₀^∞ e^(−aτ) dτ (a > 0),

    E[ξ_k q_k / (q_k + Σ_{j≠k} q_j ξ_j)]
        = q_k p_k ∫₀^∞ e^(−q_k τ) Π_{j≠k}(1 − p_j + p_j e^(−q_j τ)) dτ,

which for equal q reduces to Proposition 1's integral (t = e^(−qτ)). For general q the
integrand is not a polynomial in one variable, so it is integrated adaptively (scipy's
``quad_vec``, Gauss–Kronrod 21, all clients at once) on [0, T] with T chosen from a certified
tail bound: the product is ≤ 1, so the tail is ≤ p_k e^(−q_k T), and Jensen gives the lower
bound ℓ_k = q_k p_k/(q_k + Σ_{j≠k} q_j p_j). Each client's integrand is divided by ℓ_k so that
the max-norm error control of ``quad_vec`` is a *relative* one. The quadrature error is an
estimate (not certified); it is reported, and NumericalError is raised above ``rtol``.
"""

import numpy as np
from scipy.integrate import quad_vec

from fltheory.errors import NumericalError


def weighted_harmonic_inclusion(
    p: np.ndarray, q: np.ndarray, *, rtol: float = 1e-12
) -> tuple[np.ndarray, float]:
    """(E[1{k∈A} q_k/Σ_{j∈A} q_j] for every k, relative error estimate); q ≥ 0, p in [0, 1].

    Clients with q_k = 0 get 0 and do not count in the denominator; the coefficient of an
    empty weighted set is 0 (the server then keeps x).
    """
    out = np.zeros(p.size)
    support = (q > 0.0) & (p > 0.0)
    if not support.any():
        return out, 0.0
    ps, qs = p[support], q[support] / q[support].max()
    others = (qs * ps).sum() - qs * ps
    lower = qs * ps / (qs + others)
    tail = min(0.5 * rtol, 1e-16)
    horizon = float(np.max((np.log((qs + others) / qs) - np.log(tail)) / qs))
    # Geometric break points from the shortest decay scale — 1/E[Σ q_j ξ_j] of the product, or
    # 1/max q_k of the own factor e^(−q_k τ) when links are rare — out to the horizon.
    start = 0.25 * min(1.0 / (qs * ps).sum(), 1.0 / qs.max())
    points = np.geomspace(start, max(horizon, 4.0 * start), 32)[:-1]

    def integrand(tau: float) -> np.ndarray:
        logs = np.log1p(ps * np.expm1(-qs * tau))
        return qs * ps * np.exp(logs.sum() - logs - qs * tau) / lower

    scaled, err = quad_vec(
        integrand, 0.0, horizon, epsabs=0.05 * rtol, epsrel=0.0, norm="max", points=points
    )
    rel_err = float(err / np.min(scaled)) + tail  # scaled ≥ 1 exactly, by Jensen
    if not rel_err <= rtol:
        raise NumericalError(
            f"normalised-weight integral not resolved (relative error estimate {rel_err:.1e})"
        )
    out[support] = scaled * lower
    return out, rel_err
