"""Expected limits on general quadratics F_k = ½(x − u_k)ᵀH_k(x − u_k) (objective inconsistency).

With s_k exact local steps of size η the update is Δ_k = B_k(u_k − x), B_k = I − (I − ηH_k)^(s_k)
(:mod:`fltheory.limits.local`) — the setting of Wang et al. (FedPBC paper ref. [11]) where
heterogeneous B_k already bias FedAvg under full participation. The server step is
x ← x + Σ_{k∈A} e_k(A) B_k (u_k − x), e_k(A) = η̄ c_k(A) (:class:`Aggregation`).

* Bernoulli links: A_t is independent of x_t, so E[x_{t+1}] = (I − S) E[x_t] + Σ_k ω_k B_k u_k
  with ω_k = E[e_k(A)] and S = Σ_k ω_k B_k (symmetric). The limit S⁻¹ Σ_k ω_k B_k u_k exists and
  attracts iff ρ(I − S) < 1.
* Markov availability: as in :mod:`fltheory.limits.markov`, now with matrix-valued
  C_a = I − Σ_k e_{ak} B_k and g_a = Σ_k e_{ak} B_k u_k: m_b = Σ_a P_ab (C_a m_a + π_a g_a),
  an (M·d)-dimensional linear system solved densely (M·d ≤ MAX_MARKOV_UNKNOWNS).

The target optimum is x* = (Σ_k α_k H_k)⁻¹ Σ_k α_k H_k u_k (FedPBC eq. 1 with α_k = 1/m, or
CA-Fed eq. 1 with target importance α).
"""

import numpy as np

from fltheory.defaults import LOCAL_LR as DEFAULT_LR
from fltheory.defaults import LOCAL_STEPS as DEFAULT_LOCAL_STEPS
from fltheory.errors import AssumptionViolation, InputError
from fltheory.limits.aggregation import FEDAVG, Aggregation, client_vectors, expected_coefficients
from fltheory.limits.bernoulli import link_probabilities
from fltheory.limits.local import local_operators
from fltheory.limits.result import LimitResult
from fltheory.limits.transition import DenseTransition

#: Largest M·d for the dense Markov system (its spectral radius costs O((M·d)³)).
MAX_MARKOV_UNKNOWNS = 2048


def _hessians(hessians: object, n: int, d: int) -> np.ndarray:
    H = np.asarray(hessians, dtype=float)
    if H.shape != (n, d, d):
        raise InputError(f"hessians must have shape ({n}, {d}, {d}), got {H.shape}")
    return H


def quadratic_optimum(hessians: object, u: object, alpha: object | None = None) -> np.ndarray:
    """x* = argmin Σ_k α_k F_k = (Σ α_k H_k)⁻¹ Σ α_k H_k u_k (α uniform by default).

    >>> quadratic_optimum([[[1.0]], [[3.0]]], [[0.0], [1.0]]).tolist()  # (0·1 + 1·3)/(1 + 3)
    [0.75]
    """
    vectors = client_vectors(u)
    n, d = vectors.shape
    H = _hessians(hessians, n, d)
    a = np.full(n, 1.0 / n) if alpha is None else np.asarray(alpha, dtype=float)
    if a.shape != (n,) or np.any(a < 0.0) or not a.any():
        raise InputError("alpha must be N non-negative weights, not all zero")
    total = np.einsum("k,kij->ij", a, H)
    if np.linalg.matrix_rank(total) < d:
        raise AssumptionViolation(
            "Σ α_k H_k is singular: the target objective has no unique minimiser"
        )
    return np.linalg.solve(total, np.einsum("k,kij,kj->i", a, H, vectors))


def bernoulli_quadratic_limit(
    p: object,
    hessians: object,
    u: object,
    aggregation: Aggregation = FEDAVG,
    *,
    lr: float = DEFAULT_LR,
    local_steps: object = DEFAULT_LOCAL_STEPS,
) -> LimitResult:
    """lim E[x_t] under independent Bernoulli links (module docstring).

    >>> H = [[[1.0]], [[1.0]]]
    >>> bernoulli_quadratic_limit([0.5, 1.0], H, [[0.0], [1.0]]).limit.round(12).tolist()
    [0.75]
    """
    arr = link_probabilities(p)
    vectors = client_vectors(u, arr.size)
    B = local_operators(_hessians(hessians, *vectors.shape), lr, local_steps)
    omega, err = expected_coefficients(arr, aggregation)
    S = np.einsum("k,kij->ij", omega, B)
    eig = np.linalg.eigvalsh(0.5 * (S + S.T))
    rate = float(np.max(np.abs(1.0 - eig)))
    if eig.min() <= 0.0 or rate >= 1.0:
        raise AssumptionViolation(
            f"the mean recursion does not contract: ρ(I − Σ ω_k B_k) = {rate:.6g}"
            + (" (Σ ω_k B_k is singular)" if eig.min() <= 0.0 else "")
        )
    limit = np.linalg.solve(S, np.einsum("k,kij,kj->i", omega, B, vectors))
    method = f"Bernoulli links, general quadratics, {aggregation.describe()}"
    return LimitResult(limit, None, rate, method, err)


def markov_quadratic_limit(
    P: object,
    active: object,
    hessians: object,
    u: object,
    aggregation: Aggregation = FEDAVG,
    *,
    lr: float = DEFAULT_LR,
    local_steps: object = DEFAULT_LOCAL_STEPS,
) -> LimitResult:
    """Stationary mean Σ_a m_a under Markov availability (dense; module docstring).

    >>> P, active, H = [[0.5, 0.5], [0.5, 0.5]], [[1, 0], [0, 1]], [[[1.0]], [[1.0]]]
    >>> markov_quadratic_limit(P, active, H, [[0.0], [1.0]]).limit.round(12).tolist()
    [0.5]
    """
    transition = DenseTransition(P)
    act = np.asarray(active, dtype=float)
    vectors = client_vectors(u)
    n, d = vectors.shape
    if act.shape != (transition.n_states, n):
        raise InputError(f"active must be {transition.n_states}×{n}, got shape {act.shape}")
    size = transition.n_states * d
    if size > MAX_MARKOV_UNKNOWNS:
        raise InputError(f"M·d = {size} exceeds {MAX_MARKOV_UNKNOWNS} for the dense solve")
    B = local_operators(_hessians(hessians, n, d), lr, local_steps)
    effect = aggregation.coefficients(act)  # e_{ak}
    C = np.eye(d)[None] - np.einsum("ak,kij->aij", effect, B)
    g = np.einsum("ak,kij,kj->ai", effect, B, vectors)
    pi = transition.stationary()
    # Block (b, a) of the operator m ↦ Pᵀ C m is P_ab C_a.
    op = np.einsum("ab,aij->biaj", transition.P, C).reshape(size, size)
    rate = float(np.max(np.abs(np.linalg.eigvals(op))))
    if rate >= 1.0:
        raise AssumptionViolation(f"the mean recursion does not contract: ρ = {rate:.6g} ≥ 1")
    rhs = (transition.P.T @ (pi[:, None] * g)).ravel()
    m = np.linalg.solve(np.eye(size) - op, rhs).reshape(transition.n_states, d)
    method = f"Markov chain (dense, M={transition.n_states}), general quadratics"
    return LimitResult(m.sum(axis=0), None, rate, f"{method}, {aggregation.describe()}")
