"""Bayesian estimates of each client's availability and correlation (CA-Fed ToN Section IV-B).

A trace is a (T, N) array: row s says which of the N clients were active at round s + 1.

* π̂ₖ = (Σ_{s≤t} 1{k ∈ A_s} + nₖ)/(t + nₖ + mₖ): the posterior mean under a Beta(nₖ, mₖ)
  prior (Section IV-B).
* P̂ₖ: independent Beta priors on the conditional probabilities P(0→1) and P(1→0), updated
  with the observed transition counts; each estimate is its posterior mean (Section IV-B reads
  "estimate the transition matrix through a Bayesian estimator similarly to π̂").
* λ̂ₖ = 1 − P̂01 − P̂10, the second eigenvalue of the 2×2 P̂ₖ (eq. 238).

Note that π̂ is the empirical frequency (as in the paper), not the stationary law of P̂.
"""

from dataclasses import dataclass, field

import numpy as np

from fltheory.errors import InputError
from fltheory.markov.two_state import transition_matrix


@dataclass(frozen=True)
class BetaPrior:
    """Beta(a, b) pseudo-counts: ``a`` for the event (active / the transition), ``b`` against.

    Scalars or per-client arrays of positive numbers.
    """

    a: float | np.ndarray = 1.0
    b: float | np.ndarray = 1.0


@dataclass(frozen=True)
class Priors:
    """Priors of the three estimates: π (paper's (nₖ, mₖ)), P(0→1) and P(1→0)."""

    pi: BetaPrior = field(default_factory=BetaPrior)
    up: BetaPrior = field(default_factory=BetaPrior)
    down: BetaPrior = field(default_factory=BetaPrior)


@dataclass(frozen=True, eq=False)
class AvailabilityEstimates:
    """Estimates per client, shape (N,) for a trace or (T, N) for the running version."""

    pi: np.ndarray
    p01: np.ndarray
    p10: np.ndarray

    @property
    def lambda2(self) -> np.ndarray:
        """λ̂₂ = 1 − P̂01 − P̂10 (eq. 238)."""
        return 1.0 - self.p01 - self.p10

    def matrices(self) -> np.ndarray:
        """P̂ as (..., 2, 2) transition matrices."""
        return transition_matrix(self.p01, self.p10)


def as_trace(trace: np.ndarray) -> np.ndarray:
    """Validate a (T, N) activity trace (bool, or numbers in {0, 1}) and return it as bool."""
    arr = np.asarray(trace)
    if arr.ndim != 2:
        raise InputError(f"trace must be a (T, N) array, got shape {arr.shape}")
    if arr.dtype == bool:
        return arr
    if not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise InputError(f"trace must be boolean or 0/1 numbers, got dtype {arr.dtype}")
    bad = (arr != 0) & (arr != 1)
    if bad.any():
        s, k = np.unravel_index(int(np.argmax(bad)), arr.shape)
        raise InputError(f"trace round {s}, client {k}: {arr[s, k]} is not 0 or 1")
    return arr.astype(bool)


def _prior(prior: BetaPrior, n: int, name: str) -> tuple[np.ndarray, np.ndarray]:
    out = []
    for label, value in (("a", prior.a), ("b", prior.b)):
        arr = np.asarray(value, dtype=float)
        try:
            arr = np.broadcast_to(arr, (n,))
        except ValueError:
            raise InputError(f"{name} prior {label} must be a scalar or length {n}") from None
        if not (np.isfinite(arr).all() and (arr > 0).all()):
            raise InputError(f"{name} prior {label} must be finite and > 0")
        out.append(arr)
    return out[0], out[1]


def transition_counts(trace: np.ndarray) -> np.ndarray:
    """(N, 2, 2) counts: [k, i, j] = #{s : client k in state i at round s and j at s + 1}."""
    x = as_trace(trace)
    prev, nxt = x[:-1], x[1:]
    counts = np.empty((x.shape[1], 2, 2), dtype=np.int64)
    counts[:, 0, 0] = np.sum(~prev & ~nxt, axis=0)
    counts[:, 0, 1] = np.sum(~prev & nxt, axis=0)
    counts[:, 1, 0] = np.sum(prev & ~nxt, axis=0)
    counts[:, 1, 1] = np.sum(prev & nxt, axis=0)
    return counts


def estimate_availability(trace: np.ndarray, priors: Priors | None = None) -> AvailabilityEstimates:
    """Posterior-mean estimates (π̂, P̂01, P̂10) after the whole trace, shape (N,).

    With the uniform Beta(1, 1) priors, π̂ = (#active + 1)/(T + 2) (Section IV-B):

    >>> trace = [[1, 0], [1, 0], [0, 0], [1, 1]]
    >>> est = estimate_availability(trace)
    >>> est.pi.tolist(), est.p01.tolist(), est.lambda2.round(4).tolist()
    ([0.6666666666666666, 0.3333333333333333], [0.6666666666666666, 0.4], [-0.1667, 0.1])
    """
    x = as_trace(trace)
    priors = priors or Priors()
    n_rounds, n = x.shape
    pa, pb = _prior(priors.pi, n, "pi")
    ua, ub = _prior(priors.up, n, "up")
    da, db = _prior(priors.down, n, "down")
    counts = transition_counts(x)
    pi = (x.sum(axis=0) + pa) / (n_rounds + pa + pb)
    p01 = (counts[:, 0, 1] + ua) / (counts[:, 0].sum(axis=1) + ua + ub)
    p10 = (counts[:, 1, 0] + da) / (counts[:, 1].sum(axis=1) + da + db)
    return AvailabilityEstimates(pi=pi, p01=p01, p10=p10)


def _shifted_cumsum(events: np.ndarray) -> np.ndarray:
    """Row t = number of events among rows 0..t-1 (a zero row first), shape (len + 1, N)."""
    out = np.zeros((events.shape[0] + 1, events.shape[1]), dtype=np.int64)
    np.cumsum(events, axis=0, out=out[1:])
    return out


def running_estimates(trace: np.ndarray, priors: Priors | None = None) -> AvailabilityEstimates:
    """Estimates after every round, shape (T, N): row t uses rounds 0..t (t transitions).

    Cumulative sums, O(T·N); the last row equals :func:`estimate_availability`.

    >>> running_estimates([[1], [1], [0], [1]]).pi[:, 0].tolist()  # (#active + 1)/(t + 2)
    [0.6666666666666666, 0.75, 0.6, 0.6666666666666666]
    """
    x = as_trace(trace)
    priors = priors or Priors()
    n_rounds, n = x.shape
    pa, pb = _prior(priors.pi, n, "pi")
    ua, ub = _prior(priors.up, n, "up")
    da, db = _prior(priors.down, n, "down")
    if n_rounds == 0:
        empty = np.empty((0, n))
        return AvailabilityEstimates(pi=empty, p01=empty, p10=empty)
    rounds = np.arange(1, n_rounds + 1, dtype=float)[:, None]
    pi = (np.cumsum(x, axis=0) + pa) / (rounds + pa + pb)
    prev, nxt = x[:-1], x[1:]
    ones_seen = _shifted_cumsum(prev)  # visits to 1 with an observed successor
    zeros_seen = np.arange(n_rounds)[:, None] - ones_seen
    ups = _shifted_cumsum(~prev & nxt)
    downs = _shifted_cumsum(prev & ~nxt)
    p01 = (ups + ua) / (zeros_seen + ua + ub)
    p10 = (downs + da) / (ones_seen + da + db)
    return AvailabilityEstimates(pi=pi, p01=p01, p10=p10)
