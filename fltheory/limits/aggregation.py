"""Aggregation rules and their expected fixed point under independent Bernoulli availability.

Server step (CA-Fed ToN eq. 3, without projection): x ← x + η̄ Σ_{k∈A} c_k(A) Δ_k with
Δ_k = γ_k (u_k − x) on isotropic quadratics (:mod:`fltheory.limits.local`) and coefficients

* unnormalised (CA-Fed eq. 3): c_k(A) = q_k;
* normalised (AdaFed-style, FedAvg when q is uniform): c_k(A) = q_k / Σ_{j∈A} q_j, and x is
  kept when Σ_{j∈A} q_j = 0 — FedAvg (FedPBC paper Algorithm 1) is q ≡ 1, η̄ = 1.

With A_t independent of x_t (Bernoulli links), E[x_{t+1}] = E[x_t] + Σ_k γ_k ω_k (u_k − E[x_t]),
ω_k = η̄ E[c_k(A)]. The mean recursion has the single multiplier 1 − Σ_k γ_k ω_k, so it
contracts iff 0 < Σ_k γ_k ω_k < 2, and then

    lim E[x_t] = Σ_k γ_k ω_k u_k / Σ_k γ_k ω_k.

For the unnormalised rule ω_k = η̄ q_k p_k: with a common γ the limit minimises CA-Fed's biased
objective F_B (eq. 4, p_k ∝ π_k q_k, π = p), exactly and for every step size. It fails to
exist when η̄ γ Σ q_k p_k ≥ 2 (server step too large) — raised as AssumptionViolation.
"""

from dataclasses import dataclass, field

import numpy as np

from fltheory import checks
from fltheory.defaults import LOCAL_LR as DEFAULT_LR
from fltheory.defaults import LOCAL_STEPS as DEFAULT_LOCAL_STEPS
from fltheory.defaults import SERVER_LR as DEFAULT_SERVER_LR
from fltheory.errors import AssumptionViolation, InputError
from fltheory.limits.bernoulli import harmonic_inclusion, link_probabilities
from fltheory.limits.local import local_gain
from fltheory.limits.normalised import weighted_harmonic_inclusion
from fltheory.limits.result import LimitResult


@dataclass(frozen=True)
class Aggregation:
    """Coefficients c_k(A) of x ← x + η̄ Σ_{k∈A} c_k(A) Δ_k (CA-Fed eq. 3).

    ``q=None`` means uniform weights: with the normalised rule that is FedAvg (FedPBC paper,
    Algorithm 1), without it q = α = 1/N, the simulator's ``fixed`` FedAvg rule with uniform α
    (:meth:`fixed` takes another α). ``normalised=None`` means normalised exactly when no q is
    given, the same default as ``fltheory limit``.

    >>> Aggregation().coefficients(np.array([[1, 1, 0]])).tolist()
    [[0.5, 0.5, 0.0]]
    >>> Aggregation(normalised=False).coefficients(np.array([[1, 1, 0]])).tolist()
    [[0.3333333333333333, 0.3333333333333333, 0.0]]
    """

    q: np.ndarray | None = None
    normalised: bool | None = None
    server_lr: float = DEFAULT_SERVER_LR
    label: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        checks.positive(self.server_lr, "server_lr")
        if self.normalised is None:
            object.__setattr__(self, "normalised", self.q is None)
        if self.q is not None:
            q = checks.nonnegative_vector(self.q, "q")
            if not q.any():
                raise InputError("q must have a positive entry")
            object.__setattr__(self, "q", q)

    @classmethod
    def fixed(cls, alpha: object = None, server_lr: float = DEFAULT_SERVER_LR) -> "Aggregation":
        """The simulator's ``fixed`` FedAvg rule: CA-Fed eq. 3 with q = α (uniform α when None),
        not normalised — the default of ``fltheory limit --no-normalise`` without ``--q``.

        >>> Aggregation.fixed([0.25, 0.75]).coefficients(np.array([[1, 1]])).tolist()
        [[0.25, 0.75]]
        """
        q = None if alpha is None else checks.simplex(alpha, "alpha")
        return cls(q=q, normalised=False, server_lr=server_lr)

    def weights_for(self, n: int) -> np.ndarray:
        """q as a length-n array (InputError on a length mismatch). Without q: 1/n each for the
        unnormalised rule (q = α uniform); ones for the normalised one, whose coefficients do
        not depend on the scale of q (FedAvg's 1/|A| computed as 1/Σ_{A} 1).

        >>> Aggregation(normalised=False).weights_for(4).tolist()
        [0.25, 0.25, 0.25, 0.25]
        """
        if self.q is None:
            return np.ones(n) if self.normalised else np.full(n, 1.0 / n)
        if self.q.size != n:
            raise InputError(f"q has {self.q.size} entries, expected {n} (one per client)")
        return self.q

    def coefficients(self, active: np.ndarray) -> np.ndarray:
        """η̄·c_k(A) for each row A of a 0/1 matrix (rows = availability sets, columns = clients).

        >>> Aggregation(q=np.array([1.0, 3.0]), normalised=True).coefficients([[1, 1], [1, 0]])
        array([[0.25, 0.75],
               [1.  , 0.  ]])
        """
        act = np.asarray(active, dtype=float)
        c = act * self.weights_for(act.shape[-1])
        if self.normalised:
            total = c.sum(axis=-1, keepdims=True)
            c = np.divide(c, total, out=np.zeros_like(c), where=total > 0.0)
        return self.server_lr * c

    def describe(self) -> str:
        """A short name for reports.

        >>> Aggregation(normalised=False, server_lr=0.5).describe()
        'unnormalised aggregation, uniform q, server lr 0.5'
        """
        if self.label:
            return self.label
        kind = "normalised" if self.normalised else "unnormalised"
        q = "uniform q" if self.q is None else "given q"
        return f"{kind} aggregation, {q}, server lr {self.server_lr:g}"


#: FedAvg of the FedPBC paper (Algorithm 1): average of the active clients' models.
FEDAVG = Aggregation(label="FedAvg (Algorithm 1)")


def expected_coefficients(
    p: object, aggregation: Aggregation = FEDAVG, *, rtol: float = 1e-12
) -> tuple[np.ndarray, float]:
    """(ω_k = η̄ E[c_k(A)] for every client, relative error bound) under Bernoulli links."""
    arr = link_probabilities(p)
    q = aggregation.weights_for(arr.size)
    if not aggregation.normalised:
        return aggregation.server_lr * q * arr, 0.0
    support = q > 0.0
    if np.all(q[support] == q[support][0]):
        omega = np.zeros(arr.size)
        h = harmonic_inclusion(arr[support], rtol=min(rtol, 1e-15))
        omega[support] = h.values
        return aggregation.server_lr * omega, h.error_bound
    omega, err = weighted_harmonic_inclusion(arr, q, rtol=rtol)
    return aggregation.server_lr * omega, err


def mean_limit_from_coefficients(
    effective: np.ndarray, u: np.ndarray, method: str, error_bound: float = 0.0
) -> LimitResult:
    """Limit of E[x_{t+1}] = E[x_t] + Σ_k e_k (u_k − E[x_t]) with e_k = γ_k ω_k (i.i.d. sets)."""
    total = float(effective.sum())
    if total <= 0.0:
        raise AssumptionViolation("no client ever contributes (Σ γ_k E[c_k] = 0): x never moves")
    rate = abs(1.0 - total)
    if rate >= 1.0:
        raise AssumptionViolation(
            f"the mean recursion does not contract: |1 − Σ γ_k E[c_k]| = {rate:.6g} ≥ 1 "
            "(server or local step too large), so E[x_t] has no limit"
        )
    weights = effective / total
    return LimitResult(weights @ u, weights, rate, method, error_bound)


def client_vectors(u: object, n: int | None = None) -> np.ndarray:
    """u as an (N, d) float array (a 1-D input is N×1)."""
    try:
        arr = np.asarray(u, dtype=float)
    except (TypeError, ValueError):
        raise InputError(f"u must be an N×d matrix of numbers, got {u!r}"[:200]) from None
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise InputError(f"u must be an N×d matrix (one row per client), got shape {arr.shape}")
    if n is not None and arr.shape[0] != n:
        raise InputError(f"u has {arr.shape[0]} rows, expected {n} (one per client)")
    if not np.all(np.isfinite(arr)):
        raise InputError("u has non-finite entries")
    return arr


def bernoulli_limit(
    p: object,
    u: object,
    aggregation: Aggregation = FEDAVG,
    *,
    lr: float = DEFAULT_LR,
    local_steps: object = DEFAULT_LOCAL_STEPS,
    rtol: float = 1e-12,
) -> LimitResult:
    """lim E[x_t] for isotropic quadratics F_k = ½‖x − u_k‖² under Bernoulli links.

    FedAvg (the default) reproduces Proposition 1 of the FedPBC paper; see module docstring.

    >>> bernoulli_limit([0.5, 1.0], [[0.0], [1.0]]).weights.round(12).tolist()  # E[1{k∈A}/|A|]
    [0.25, 0.75]
    """
    arr = link_probabilities(p)
    vectors = client_vectors(u, arr.size)
    gains = np.broadcast_to(local_gain(lr, local_steps), arr.shape)
    omega, err = expected_coefficients(arr, aggregation, rtol=rtol)
    return mean_limit_from_coefficients(
        gains * omega, vectors, f"Bernoulli links, {aggregation.describe()}", err
    )
