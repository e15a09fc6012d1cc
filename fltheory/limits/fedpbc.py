"""FedPBC's mixing matrix (FedPBC paper Section IV): E[W], ρ = λ₂, Lemma 1, and its fixed point.

W⁽ᵗ⁾_ij = 1/|A| if i, j ∈ A; 1 if i = j ∉ A; 0 otherwise. On the active block W is the averaging
projection (1/|A|)11ᵀ and elsewhere the identity, so W is symmetric and idempotent:
Wᵀ W = W² = W. Hence the paper's M⁽ᵗ⁾ = E[(W⁽ᵗ⁾)²] equals E[W], and for independent links with
fixed p_i (K_i = |A ∖ {i}|, K_ij = |A ∖ {i, j}|)

    M_ij = p_i p_j E[1/(2 + K_ij)] = p_i p_j ∫₀¹ t Π_{z≠i,j}(1 − p_z + p_z t) dt     (i ≠ j),
    M_ii = 1 − p_i + p_i E[1/(1 + K_i)].

The off-diagonal part is a sum over Gauss nodes of rank-one terms, V diag(ω_n t_n) Vᵀ with
V_in = p_i/(1 − p_i + p_i t_n)·G(t_n)^(1/2) (G the pgf of |A|), evaluated in log space with
the certified rule of :mod:`fltheory.limits.quadrature` (r = 2). M is doubly stochastic
(checked) and positive semi-definite, λ₁ = 1 with eigenvector 1, and ρ = λ₂(M) (eq. 3).

Lemma 1: ρ ≤ 1 − c⁴[1 − (1 − c)^m]²/8 with c = min_i p_i.

Fixed point on the quadratic counterexample (eq. 2, Section VI): with γ = 1 − (1 − η)^s the
client matrix X (d × m) evolves as X_{t+1} = ((1 − γ)X_t + γU) W_t (inactive clients keep
their local progress), and W_t is independent of X_t, so E[X] → X̄ = γ U M (I − (1 − γ)M)⁻¹.
Because M1 = 1, X̄1 = U1: the expected average model x̄ = X̄1/m is exactly x* = mean(u_i),
whatever the p_i — FedPBC's bias correction. In fact more holds on this example: W_t1 = 1 on
every path, so x̄_{t+1} = (1 − γ)x̄_t + γ·x* deterministically and x̄_t → x* surely, at rate
|1 − γ| (in contrast with FedAvg, whose iterate keeps fluctuating). The PS model itself
(x^{t+1} = average of the active clients' x_i^{t++}) has stationary mean
Σ_i w_i ((1 − γ)X̄_i + γu_i) with the Proposition 1 weights w_i; it differs from x* by O(γ)
when the p_i differ.
"""

from dataclasses import dataclass

import numpy as np

from fltheory.defaults import LOCAL_LR as DEFAULT_LR
from fltheory.defaults import LOCAL_STEPS as DEFAULT_LOCAL_STEPS
from fltheory.errors import NumericalError
from fltheory.limits.aggregation import client_vectors
from fltheory.limits.bernoulli import fedavg_weights, harmonic_inclusion, link_probabilities
from fltheory.limits.local import local_gain
from fltheory.limits.quadrature import harmonic_rule


def mixing_expectation(p: object, *, rtol: float = 1e-15) -> np.ndarray:
    """M = E[W] = E[W²] (m × m) under independent links with probabilities p."""
    arr = link_probabilities(p)
    rule = harmonic_rule(arr, 2, rtol=rtol)
    # V_in = p_i exp(L_n/2 − ℓ_i(s_n)); node weight ω_n (1 − s_n), t = 1 − s.
    V = arr[:, None] * np.exp(0.5 * rule.log_full[None, :] - rule.log_factors(arr))
    M = (V * (rule.weights * (1.0 - rule.nodes))) @ V.T
    np.fill_diagonal(M, 1.0 - arr + harmonic_inclusion(arr, rtol=rtol).values)
    slack = np.max(np.abs(M.sum(axis=1) - 1.0))
    if slack > 1e-10:
        raise NumericalError(f"E[W] rows sum to 1 ± {slack:.1e}: quadrature failed")
    return M


def mixing_rho(p: object) -> float:
    """ρ = λ₂(E[W²]) (eq. 3), the second largest eigenvalue of the PSD matrix M.

    >>> round(mixing_rho([0.5, 0.5]), 12)  # M = [[7/8, 1/8], [1/8, 7/8]]: eigenvalues 1, 3/4
    0.75
    >>> mixing_rho([0.5, 0.5]) <= lemma1_bound([0.5, 0.5])  # Lemma 1
    True
    """
    M = mixing_expectation(p)
    if M.shape[0] == 1:
        return 0.0
    return float(np.linalg.eigvalsh(M)[-2])


def lemma1_bound(p: object) -> float:
    """Lemma 1: 1 − c⁴[1 − (1 − c)^m]²/8 with c = min p_i.

    >>> lemma1_bound([0.5, 0.5])  # 1 − (1/16)(3/4)²/8
    0.99560546875
    """
    arr = link_probabilities(p)
    c = float(arr.min())
    reach = 1.0 if c == 1.0 else -np.expm1(arr.size * np.log1p(-c))  # 1 − (1 − c)^m
    return float(1.0 - c**4 * reach**2 / 8.0)


@dataclass(frozen=True)
class FedPBCLimit:
    """Stationary means of FedPBC on F_i = ½‖x − u_i‖² under Bernoulli links.

    >>> limit = fedpbc_limit([0.2, 0.9], [[0.0], [1.0]])
    >>> limit.average.round(12).tolist(), limit.rate  # x̄ → mean(u) whatever p; rate 1 − γ
    ([0.5], 0.9)
    """

    client_means: np.ndarray  # (m, d): E[x_i] in stationarity
    average: np.ndarray  # E[x̄] = mean of client_means (= mean of u, exactly)
    server: np.ndarray  # E[x_PS] in stationarity
    rate: float  # |1 − γ|·λ_max(M) = |1 − γ|, the contraction of the mean recursion


def fedpbc_limit(
    p: object, u: object, *, lr: float = DEFAULT_LR, local_steps: int = DEFAULT_LOCAL_STEPS
) -> FedPBCLimit:
    """Expected fixed point of FedPBC (Algorithm 2) on the quadratic counterexample.

    >>> fedpbc_limit([0.5, 1.0], [[0.0], [1.0]]).average.round(12).tolist()  # the mean of u
    [0.5]
    """
    arr = link_probabilities(p)
    vectors = client_vectors(u, arr.size)
    gamma = float(local_gain(lr, local_steps))
    M = mixing_expectation(arr)
    # X̄ᵀ = (I − (1 − γ)M)⁻¹ γ M Uᵀ (M symmetric, so the factors commute). Solved for the
    # deviations from x* = mean(u): I − (1 − γ)M maps 1 to γ1, so solving for U itself loses
    # eps/γ in the mean (2e-5 at η = 1.3e-13, s = 30) and is singular once γ underflows. The
    # right side lies in 1^⊥, which the matrix preserves; adding J = 11ᵀ/m changes nothing
    # there and makes the 1-direction well conditioned.
    center = vectors.mean(axis=0)
    m = arr.size
    try:
        dev = np.linalg.solve(
            np.eye(m) - (1.0 - gamma) * M + 1.0 / m, gamma * (M @ (vectors - center))
        )
    except np.linalg.LinAlgError:
        raise NumericalError("FedPBC's mean recursion is singular (ρ = 1 and γ ≈ 0)") from None
    means = center + (dev - dev.mean(axis=0))
    local = (1.0 - gamma) * means + gamma * vectors
    server = fedavg_weights(arr).weights @ local
    return FedPBCLimit(means, means.mean(axis=0), server, abs(1.0 - gamma))
