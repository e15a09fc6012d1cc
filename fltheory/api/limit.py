"""Where FedAvg-type aggregation converges in expectation, as one record: what ``fltheory limit``
prints.

Clients hold F_k = ½‖x − u_k‖² (FedPBC paper eq. 2); the limit is lim E[x_t] (equivalently the
long-run time average of one run), not a limit of the iterate itself. The server applies
x ← x + η̄ Σ_{k∈A} c_k(A) Δ_k (CA-Fed eq. 3) with the coefficients of
:class:`~fltheory.limits.Aggregation`, after s exact local gradient steps of size η.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fltheory import checks
from fltheory.api.record import Record
from fltheory.errors import InputError
from fltheory.limits import DEFAULT_LOCAL_STEPS, DEFAULT_LR, DEFAULT_SERVER_LR
from fltheory.limits.aggregation import Aggregation, bernoulli_limit, client_vectors
from fltheory.limits.local import local_gain
from fltheory.limits.markov import chain_limit, markov_limit
from fltheory.limits.result import LimitResult
from fltheory.markov.protocol import is_availability_chain


@dataclass(frozen=True, eq=False)
class LimitReport(Record):
    """lim E[x_t] on F_k = ½‖x − u_k‖², its distance to the optimum, and how it was obtained.

    ``weights`` are the effective client weights (limit = weights @ u); ``optimum`` is the
    uniform mean of the u_k (FedPBC eq. 2) or their α-weighted mean (CA-Fed eq. 1), as
    ``optimum_kind`` says; ``rate`` is the contraction factor of E[x_t]; ``local_gain`` is
    γ = 1 − (1 − η)^s; under Markov availability ``stationary_mse`` is E‖x − limit‖² in
    stationarity and ``expected_sq_distance`` = E‖x − x*‖² (None under Bernoulli links).

    >>> report = aggregation_limit([[0.0], [1.0]], p=[0.5, 1.0])
    >>> report.weights.round(12).tolist(), report.limit.round(12).tolist(), report.distance
    ([0.25, 0.75], [0.75], 0.25)
    """

    TITLE = "lim E[x_t] of FedAvg-type aggregation"

    limit: np.ndarray
    weights: np.ndarray | None
    optimum: np.ndarray
    optimum_kind: str
    distance: float
    method: str
    rate: float
    weights_error_bound: float
    local_gain: float
    stationary_mse: float | None
    expected_sq_distance: float | None
    note: str

    def to_dict(self) -> dict[str, Any]:
        """The ``fltheory limit --json`` object (arrays left as numpy; one key per field).

        >>> sorted(aggregation_limit([[0.0], [1.0]], p=[0.5, 1.0]).to_dict())[:4]
        ['distance', 'expected_sq_distance', 'limit', 'local_gain']
        """
        return {
            "limit": self.limit,
            "weights": self.weights,
            "optimum": self.optimum,
            "optimum_kind": self.optimum_kind,
            "distance": self.distance,
            "method": self.method,
            "rate": self.rate,
            "weights_error_bound": self.weights_error_bound,
            "local_gain": self.local_gain,
            "stationary_mse": self.stationary_mse,
            "expected_sq_distance": self.expected_sq_distance,
            "note": self.note,
        }


def _aggregation(
    q: object, normalised: bool | None, alpha: np.ndarray | None, server_lr: float
) -> Aggregation:
    if q is None and normalised is False:
        return Aggregation.fixed(alpha, server_lr=server_lr)
    return Aggregation(None if q is None else np.asarray(q, dtype=float), normalised, server_lr)


def _chain_file_limit(
    path: Path,
    states: str | Path | None,
    u: np.ndarray,
    aggregation: Aggregation,
    lr: float,
    local_steps: int,
) -> LimitResult:
    """The limit for a chain file: any finite chain with a unique stationary law (Assumption 1
    is not needed for the time average), its map from the file or from ``states``."""
    from fltheory.markov.io import read_matrix, read_state_clients

    spec = read_matrix(path)
    lists = read_state_clients(states) if states is not None else spec.state_clients
    if lists is None:
        raise InputError(f"{path} needs a state→clients map ('state_clients' or states)")
    n = u.shape[0]
    active = np.zeros((len(lists), n), dtype=np.int8)
    for a, clients in enumerate(lists):
        for k in clients:
            if not 0 <= k < n:
                raise InputError(f"state {a} names client {k}, but u has {n} rows")
            active[a, k] = 1
    return markov_limit(spec.matrix, active, u, aggregation, lr=lr, local_steps=local_steps)


#: Availability kinds whose links are independent over rounds with P(active) = p: their limit
#: is the Bernoulli one (FedPBC Proposition 1 and its extensions), for any number of clients.
LINK_KINDS = ("bernoulli", "uniform_noise")


def _matrix_file(path: Path) -> bool:
    """Whether ``path`` is a transition-matrix file (not a TOML table or a clients CSV)."""
    from fltheory.api.availability import is_clients_csv

    suffix = path.suffix.lower()
    if suffix == ".csv":
        return path.is_file() and not is_clients_csv(path)
    return suffix in (".npy", ".json")


def aggregation_limit(
    u: object,
    *,
    p: object = None,
    chain: Any = None,
    states: str | Path | None = None,
    q: object = None,
    normalised: bool | None = None,
    alpha: object = None,
    lr: float = DEFAULT_LR,
    local_steps: int = DEFAULT_LOCAL_STEPS,
    server_lr: float = DEFAULT_SERVER_LR,
) -> LimitReport:
    """lim E[x_t] of FedAvg-type aggregation for client optima ``u`` (N×d, one row per client).

    Availability, exactly one of: ``p``, independent Bernoulli links (FedPBC Proposition 1 and
    its extensions); ``chain``, any :class:`~fltheory.markov.AvailabilityChain`, an
    ``[availability]`` table (a dict, or a TOML file holding one: the vocabulary of
    ``docs/plugins.md``, N from the rows of u), or a chain file (format of
    :func:`fltheory.markov.io.read_matrix`, its state→clients map from the file or from the file
    ``states``; such a chain need not be aperiodic).

    Aggregation: FedAvg (FedPBC Algorithm 1) without ``q``; with ``q``, CA-Fed eq. 3
    (``normalised``: q_k/Σ_{j∈A} q_j instead). ``normalised=False`` without ``q`` is the
    simulator's fixed rule q = α. ``alpha`` (scaled to sum 1) sets the optimum to the α-weighted
    mean of the u_k (CA-Fed eq. 1) instead of their plain mean.

    >>> from fltheory.markov import ProductChain
    >>> u = [[0.0], [1.0]]
    >>> aggregation_limit(u, chain=ProductChain([0.5, 0.5], [0.0, 0.0])).limit.round(12).tolist()
    [0.5]
    >>> aggregation_limit(u, p=[0.2, 0.9], q=[1.0, 1.0]).limit.round(6).tolist()  # eq. 4: ∝ π_k q_k
    [0.818182]
    >>> aggregation_limit(u, chain={"kind": "bernoulli", "p": 0.5}).limit.round(12).tolist()
    [0.5]
    """
    vectors = client_vectors(u)
    if normalised is not None:
        normalised = checks.boolean(normalised, "normalised")
    n = vectors.shape[0]
    if (p is None) == (chain is None):
        raise InputError("give exactly one of p (Bernoulli links) and chain")
    if states is not None and not isinstance(chain, str | Path):
        raise InputError("states only applies to a chain file")
    if isinstance(chain, bool):
        raise InputError("chain must be an availability chain, a table or a file, got a bool")
    target = None
    if alpha is not None:
        target = checks.nonnegative_vector(alpha, "alpha", n)
        if not target.sum() > 0.0:
            raise InputError("alpha must have a positive entry")
        target = target / target.sum()
    aggregation = _aggregation(q, normalised, target, server_lr)
    if chain is None:
        probs = np.atleast_1d(np.asarray(p, dtype=float))
        if probs.size != n:
            raise InputError(f"p has {probs.size} entries, but u has {n} rows (one per client)")
        result = bernoulli_limit(probs, vectors, aggregation, lr=lr, local_steps=local_steps)
    elif isinstance(chain, str | Path) and _matrix_file(Path(chain)):
        result = _chain_file_limit(Path(chain), states, vectors, aggregation, lr, local_steps)
    elif is_availability_chain(chain):
        result = chain_limit(chain, vectors, aggregation, lr=lr, local_steps=local_steps)
    else:
        from fltheory.api.availability import availability_setting

        setting = availability_setting(chain, n_clients=n)
        if setting.kind in LINK_KINDS:  # links independent over rounds: any N, no 2^N states
            result = bernoulli_limit(
                setting.pi, vectors, aggregation, lr=lr, local_steps=local_steps
            )
        else:
            result = chain_limit(
                setting.chain, vectors, aggregation, lr=lr, local_steps=local_steps
            )
    if target is None:
        target, kind = np.full(n, 1.0 / n), "uniform mean of u_k (FedPBC eq. 2)"
    else:
        kind = "alpha-weighted mean of u_k (CA-Fed eq. 1)"
    optimum = target @ vectors
    distance = result.distance(optimum)
    mse = result.stationary_mse
    return LimitReport(
        limit=result.limit,
        weights=result.weights,
        optimum=optimum,
        optimum_kind=kind,
        distance=distance,
        method=result.method,
        rate=result.rate,
        weights_error_bound=result.error_bound,
        local_gain=local_gain(lr, local_steps).item(),
        stationary_mse=mse,
        expected_sq_distance=None if mse is None else mse + distance**2,
        note=result.note,
    )
