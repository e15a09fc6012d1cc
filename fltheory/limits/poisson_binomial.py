"""Poisson-binomial pmf and leave-one-out deflation: an independent O(m²) route to Prop. 1.

|A| = Σ_i ξ_i with independent ξ_i ~ Bernoulli(p_i) has the pmf f built by the convolution
recursion f ← (1 − p_i) f + p_i (f shifted by one). Removing client i again ("deflation")
inverts one step: with g the pmf of K_i = |A ∖ {i}|,

    f_k = (1 − p_i) g_k + p_i g_{k−1}.

Solved forwards (g_k = (f_k − p_i g_{k−1})/(1 − p_i)) the error is multiplied by
p_i/(1 − p_i) per step, so forwards is stable for p_i ≤ ½; backwards
(g_{k−1} = (f_k − (1 − p_i) g_k)/p_i) the factor is (1 − p_i)/p_i, stable for p_i > ½.
Then h_i = E[1{i∈A}/|A|] = p_i Σ_k g_k/(k + 1). All clients are deflated at once (vectorised
over i), O(m²) time and O(m) memory per step.
"""

import numpy as np

from fltheory.limits.bernoulli import link_probabilities


def poisson_binomial_pmf(p: object) -> np.ndarray:
    """P(|A| = k), k = 0..m, by the O(m²) convolution recursion (all terms non-negative)."""
    arr = link_probabilities(p)
    pmf = np.zeros(arr.size + 1)
    pmf[0] = 1.0
    for n, v in enumerate(arr, start=1):
        pmf[1 : n + 1] = (1.0 - v) * pmf[1 : n + 1] + v * pmf[:n]
        pmf[0] *= 1.0 - v
    return pmf


def harmonic_inclusion_deflation(p: object) -> np.ndarray:
    """h_i = p_i E[1/(1 + K_i)] for all i, deflating the pmf of |A| (module docstring)."""
    arr = link_probabilities(p)
    m = arr.size
    pmf = poisson_binomial_pmf(arr)
    fwd = arr <= 0.5
    pf, pb = arr[fwd], arr[~fwd]
    total_f = np.zeros(pf.size)
    g = np.zeros(pf.size)  # g_{k−1} for the forward clients
    for k in range(m):
        g = (pmf[k] - pf * g) / (1.0 - pf)
        total_f += g / (k + 1.0)
    total_b = np.zeros(pb.size)
    g = np.zeros(pb.size)  # g_k for the backward clients (g_m = 0)
    for k in range(m, 0, -1):
        g = (pmf[k] - (1.0 - pb) * g) / pb
        total_b += g / k  # this g is g_{k−1}, weighted by 1/((k − 1) + 1)
    out = np.empty(m)
    out[fwd] = pf * total_f
    out[~fwd] = pb * total_b
    return out
