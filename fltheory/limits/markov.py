"""Stationary mean and mean-square error of FedAvg-type iterates under Markov availability.

Model (CA-Fed ToN Section II-A): a finite chain a_t with transition matrix P and stationary law
π drives the active set A(a_t) (a state→clients 0/1 matrix). On isotropic quadratics
F_k = ½‖x − u_k‖² with the aggregation rules of :mod:`fltheory.limits.aggregation`,

    x_{t+1} = C_{a} x_t + g_{a}   at a = a_t,   C_a = 1 − Σ_k e_{ak},  g_a = Σ_k e_{ak} u_k,

with e_{ak} = γ_k η̄ c_k(A(a)). x_t depends on a_0, …, a_{t−1} only, so with
m_a(t) = E[x_t 1{a_t = a}] the Markov property gives

    m_b(t+1) = Σ_a P_ab (C_a m_a(t) + π_a(t) g_a),   i.e.   m = Pᵀ(C m + Π g)   in stationarity

(C = diag(C_a), Π = diag(π)). The stationary mean is x̄ = Σ_a m_a = 1ᵀ(I − PᵀC)⁻¹PᵀΠg; with
y = (I − CP)⁻¹1 (one solve, whatever d is) this is x̄ = Σ_k w_k u_k, w_k = Σ_a π_a (Py)_a e_{ak}.
Since every map fixes x = u when all u_k = u, Σ_k w_k = 1 (checked). It exists and attracts
iff ρ(CP) < 1; it is lim E[x_t] for an aperiodic chain and the long-run time average of x_t
along one run in any case (ergodicity).

Second moment: with e_t = x_t − x̄, e_{t+1} = C_a e_t + h_a, h_a = Σ_k e_{ak}(u_k − x̄); with
n_a = E[e 1{a}] (n = (I − PᵀC)⁻¹PᵀΠh) and s_a = E[‖e‖² 1{a}],

    s = Pᵀ(C² s + 2 C (h·n) + Π‖h‖²),   E‖x − x̄‖² = Σ_a s_a,

finite iff ρ(C²P) < 1. Then E‖x − x*‖² = E‖x − x̄‖² + ‖x̄ − x*‖². Only the Gram matrix of the
u_k − x̄ enters, so d is first reduced to min(d, N) columns (a QR factor) — the coordinates of
x decouple for isotropic objectives.

When P has identical rows (i.i.d. states) and every state's set is drawn as independent
Bernoulli links — e.g. a product of two-state chains with all λ₂ = 0 — this reduces to the
Bernoulli answer of :func:`fltheory.limits.aggregation.bernoulli_limit`. With correlation
(λ₂ ≠ 0) the limit moves whenever C_a varies with the state (empty sets under FedAvg, any set
under unnormalised weights): x_t and a_t are then correlated.
"""

from typing import cast

import numpy as np

from fltheory.defaults import LOCAL_LR as DEFAULT_LR
from fltheory.defaults import LOCAL_STEPS as DEFAULT_LOCAL_STEPS
from fltheory.errors import AssumptionViolation, InputError, NumericalError
from fltheory.limits.aggregation import FEDAVG, Aggregation, client_vectors
from fltheory.limits.local import local_gain
from fltheory.limits.result import LimitResult
from fltheory.limits.transition import (
    DenseTransition,
    KroneckerTransition,
    product_active,
)
from fltheory.markov.protocol import AvailabilityChain
from fltheory.markov.two_state import two_state_matrix

#: Above this many clients a product chain (2^N states) is refused.
MAX_PRODUCT_CLIENTS = 20


def _active_matrix(active: object, n_states: int) -> np.ndarray:
    arr = np.asarray(active)
    if arr.ndim != 2 or arr.shape[0] != n_states:
        raise InputError(
            f"the state→clients map must be an M×N 0/1 matrix with M = {n_states} rows, "
            f"got shape {arr.shape}"
        )
    if not np.isin(arr, (0, 1)).all():
        raise InputError("the state→clients map must hold 0/1 entries")
    return arr.astype(float)


def _reduced_deviations(u: np.ndarray, center: np.ndarray) -> np.ndarray:
    """V (N×r, r = min(N, d)) with V Vᵀ = (u − x̄)(u − x̄)ᵀ."""
    dev = u - center
    if dev.shape[1] <= dev.shape[0]:
        return dev
    return cast(np.ndarray, np.linalg.qr(dev.T, mode="r")).T


def stationary_limit(
    transition: DenseTransition | KroneckerTransition,
    active: object,
    u: object,
    aggregation: Aggregation = FEDAVG,
    *,
    lr: float = DEFAULT_LR,
    local_steps: object = DEFAULT_LOCAL_STEPS,
    second_moment: bool = True,
    method: str = "Markov availability",
) -> LimitResult:
    """Stationary mean (and E‖x − x̄‖²) for any transition operator; see module docstring.

    >>> from fltheory.limits.transition import DenseTransition
    >>> P = DenseTransition([[0.5, 0.5], [0.5, 0.5]])
    >>> stationary_limit(P, [[1, 0], [0, 1]], [[0.0], [1.0]]).limit.round(12).tolist()
    [0.5]
    """
    act = _active_matrix(active, transition.n_states)
    vectors = client_vectors(u, act.shape[1])
    gains = np.broadcast_to(local_gain(lr, local_steps), (act.shape[1],))
    effect = aggregation.coefficients(act) * gains  # e_{ak}
    contraction = 1.0 - effect.sum(axis=1)  # C_a
    pi = transition.stationary()
    rate = transition.spectral_radius(contraction)
    if not rate < 1.0:
        raise AssumptionViolation(
            f"the mean recursion does not contract: ρ(diag(C)P) = {rate:.6g} ≥ 1, so the "
            "stationary mean does not exist (step sizes too large or no client ever active)"
        )
    y = transition.solve(contraction, np.ones(transition.n_states), adjoint=True)
    weights = (pi * transition.apply(y)) @ effect
    slack = abs(weights.sum() - 1.0)
    if slack > 1e-9:
        raise NumericalError(f"stationary weights sum to 1 + {slack:.1e}: ill-conditioned system")
    center = weights @ vectors
    if not second_moment:
        return LimitResult(center, weights, rate, method, note="second moment not requested")
    rate2 = transition.spectral_radius(contraction**2)
    if not rate2 < 1.0:
        return LimitResult(
            center, weights, rate, method,
            note=f"E‖x − x̄‖² is infinite: ρ(diag(C²)P) = {rate2:.6g} ≥ 1",
        )  # fmt: skip
    h = effect @ _reduced_deviations(vectors, center)  # h_a, reduced coordinates
    n = transition.solve(contraction, transition.apply_t(pi[:, None] * h))
    source = 2.0 * contraction * np.einsum("ar,ar->a", h, n) + pi * np.einsum("ar,ar->a", h, h)
    z = transition.solve(contraction**2, np.ones(transition.n_states), adjoint=True)
    mse = float(transition.apply(z) @ source)
    return LimitResult(center, weights, rate, method, stationary_mse=max(mse, 0.0))


def markov_limit(
    P: object,
    active: object,
    u: object,
    aggregation: Aggregation = FEDAVG,
    *,
    lr: float = DEFAULT_LR,
    local_steps: object = DEFAULT_LOCAL_STEPS,
    stationary: np.ndarray | None = None,
    second_moment: bool = True,
) -> LimitResult:
    """Any finite chain: dense P (M×M), ``active`` the M×N state→clients 0/1 matrix.

    >>> P, active = [[0.5, 0.5], [0.5, 0.5]], [[1, 0], [0, 1]]
    >>> markov_limit(P, active, [[0.0], [1.0]]).limit.round(12).tolist()
    [0.5]
    """
    transition = DenseTransition(P, stationary)
    return stationary_limit(
        transition, active, u, aggregation, lr=lr, local_steps=local_steps,
        second_moment=second_moment, method=f"Markov chain (dense, M={transition.n_states}), "
        f"{aggregation.describe()}",
    )  # fmt: skip


def product_markov_limit(
    pi: object,
    lambda2: object,
    u: object,
    aggregation: Aggregation = FEDAVG,
    *,
    lr: float = DEFAULT_LR,
    local_steps: object = DEFAULT_LOCAL_STEPS,
    second_moment: bool = True,
) -> LimitResult:
    """Independent two-state clients (π_k, λ₂,k) (CA-Fed eq. 236), Kronecker structure kept.

    >>> product_markov_limit([0.5, 0.5], [0.0, 0.0], [[0.0], [1.0]]).weights.round(12).tolist()
    [0.5, 0.5]
    """
    factors = two_state_matrix(
        np.atleast_1d(np.asarray(pi, dtype=float)), np.atleast_1d(np.asarray(lambda2, dtype=float))
    )
    n = factors.shape[0]
    if n > MAX_PRODUCT_CLIENTS:
        raise InputError(
            f"a product of {n} two-state chains has 2^{n} states; at most "
            f"{MAX_PRODUCT_CLIENTS} clients are supported"
        )
    transition = KroneckerTransition(list(factors))
    return stationary_limit(
        transition, product_active(n), u, aggregation, lr=lr, local_steps=local_steps,
        second_moment=second_moment,
        method=f"product of {n} two-state chains (Kronecker), {aggregation.describe()}",
    )  # fmt: skip


def chain_limit(
    chain: AvailabilityChain,
    u: object,
    aggregation: Aggregation = FEDAVG,
    *,
    lr: float = DEFAULT_LR,
    local_steps: object = DEFAULT_LOCAL_STEPS,
    second_moment: bool = True,
) -> LimitResult:
    """The limit for any :class:`~fltheory.markov.protocol.AvailabilityChain`.

    Dispatch is through the protocol: ``kronecker_factors()`` gives P as ⊗ of factors (one per
    client of a ``ProductChain``, one per cluster of a ``ClusteredChain``: the Kronecker
    structure is kept; ``(P,)`` for a ``MarkovChain``) and ``state_clients()`` the M×N map.

    >>> from fltheory.markov import ProductChain
    >>> res = chain_limit(ProductChain([0.5, 0.5], [0.0, 0.0]), [[0.0], [1.0]])
    >>> res.limit.round(12).tolist()
    [0.5]
    """
    if not isinstance(chain, AvailabilityChain):
        raise InputError(f"{type(chain).__name__} is not an availability chain of fltheory.markov")
    factors = chain.kronecker_factors()
    if len(factors) > MAX_PRODUCT_CLIENTS:
        raise InputError(
            f"a product of {len(factors)} two-state chains has 2^{len(factors)} states; at most "
            f"{MAX_PRODUCT_CLIENTS} factors are supported"
        )
    if len(factors) == 1:
        transition: DenseTransition | KroneckerTransition = DenseTransition(
            factors[0], chain.stationary
        )
        method = f"Markov chain (dense, M={transition.n_states})"
    else:
        transition = KroneckerTransition(list(factors))
        method = f"product of {len(factors)} two-state chains (Kronecker)"
    return stationary_limit(
        transition, chain.state_clients(), u, aggregation, lr=lr, local_steps=local_steps,
        second_moment=second_moment, method=f"{method}, {aggregation.describe()}",
    )  # fmt: skip
