"""Client availability processes for the simulator: (R, T, N) boolean traces.

Every process draws from explicit streams ``generator(seed, purpose)`` with one purpose per
repetition, so a trace depends only on (process, seed, repetition, T): the simulator draws it
ONCE and runs every algorithm of a comparison on it. Markov processes start from their
stationary law (CA-Fed ToN Assumption 1) and persist across rounds.

Processes:
* :class:`TwoStateChains` — independent two-state chains per client, eq. (236);
* :class:`ClusteredChains` — one two-state chain per cluster (Section V-B(e));
* :class:`BernoulliLinks` — i.i.d. links with fixed p_i (FedPBC Section VI, scenario 1);
* :class:`UniformNoiseLinks` — p_i^t = p_i + U(−a, a) (FedPBC Section VI, scenario 2);
* :class:`DayCycleLinks` — p_i^t = p_i + A·sin(2π(t/period + phase_i)) (a day cycle);
* :class:`FiniteChain` — any finite chain with a state → active-clients map;
* :class:`TraceReplay` — a recorded (T, N) trace (see :mod:`fltheory.sim.availability_io`).

Each exposes ``n_clients``, ``pi`` (marginal availability, the "oracle" π), ``lambda2`` (per-client
λ₂ of a two-state marginal chain, or None when the marginal is not such a chain) and
``sample(seed, reps, rounds)``. The three Markov processes are thin adapters over the chains of
:mod:`fltheory.markov` (their ``chain`` property): repetition r is ``chain.sample(rounds, rng)``
with ``rng = generator(seed, f"{purpose}/rep{r}")``, drawn by the pure step functions of
:mod:`fltheory.markov.sampling`.
"""

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from fltheory import checks
from fltheory.checks import LOOSE_ROW_SUM_ATOL, as_transition_matrix
from fltheory.errors import InputError
from fltheory.markov.chain import MarkovChain
from fltheory.markov.clustered import ClusteredChain
from fltheory.markov.product import ProductChain
from fltheory.markov.protocol import AvailabilityChain
from fltheory.markov.sampling import stationary_start, two_state_step
from fltheory.rng import generator

__all__ = [
    "AvailabilityProcess",
    "BernoulliLinks",
    "ClusteredChains",
    "DayCycleLinks",
    "FiniteChain",
    "TraceReplay",
    "TwoStateChains",
    "UniformNoiseLinks",
    "stationary_start",
    "two_state_step",
]


class AvailabilityProcess(Protocol):
    """What the simulator needs from an availability model."""

    @property
    def n_clients(self) -> int: ...

    @property
    def pi(self) -> np.ndarray: ...

    @property
    def lambda2(self) -> np.ndarray | None: ...

    def sample(self, seed: int, reps: int, rounds: int) -> np.ndarray: ...


@runtime_checkable
class ChainBacked(Protocol):
    """A process that samples a chain of :mod:`fltheory.markov` (its ``chain`` property): the
    theory commands and the exact limits read the chain itself."""

    @property
    def chain(self) -> AvailabilityChain: ...


def _check_counts(reps: int, rounds: int) -> None:
    if reps < 1 or rounds < 1:
        raise InputError(f"need reps >= 1 and rounds >= 1, got reps={reps}, rounds={rounds}")


def _uniforms(seed: int, purpose: str, reps: int, shape: tuple[int, ...]) -> np.ndarray:
    """(reps, *shape) uniforms; repetition r uses its own stream ``purpose/rep{r}``."""
    return np.stack([generator(seed, f"{purpose}/rep{r}").random(shape) for r in range(reps)])


def _repetitions(
    chain: AvailabilityChain, seed: int, purpose: str, reps: int, rounds: int
) -> np.ndarray:
    """(reps, rounds, N) traces; repetition r is drawn from its own stream ``purpose/rep{r}``."""
    _check_counts(reps, rounds)
    return np.stack(
        [chain.sample(rounds, generator(seed, f"{purpose}/rep{r}")) for r in range(reps)]
    )


@dataclass(frozen=True, eq=False)
class TwoStateChains:
    """Independent chains P_k of eq. (236) with stationary π_k and second eigenvalue λ₂,k.

    A thin adapter over :class:`~fltheory.markov.product.ProductChain` (``chain``).

    >>> process = TwoStateChains([0.9, 0.2], [0.5, 0.0])
    >>> process.sample(seed=0, reps=2, rounds=3).shape, process.chain.lam
    ((2, 3, 2), 0.75)
    """

    pi_: np.ndarray
    lambda2_: np.ndarray
    purpose: str = "sim/availability/two-state"
    _chain: ProductChain = field(init=False, repr=False)

    def __post_init__(self) -> None:
        chain = ProductChain(self.pi_, self.lambda2_)  # validates (eqs. 236–238)
        object.__setattr__(self, "_chain", chain)
        object.__setattr__(self, "pi_", chain.client_availability)
        object.__setattr__(self, "lambda2_", chain.lambda2)

    @property
    def chain(self) -> ProductChain:
        """The product chain this process samples.

        >>> TwoStateChains([0.9], [0.5]).chain.client_availability.tolist()
        [0.9]
        """
        return self._chain

    @property
    def n_clients(self) -> int:
        """N.

        >>> TwoStateChains([0.9, 0.2], [0.5, 0.0]).n_clients
        2
        """
        return self.chain.n_clients

    @property
    def pi(self) -> np.ndarray:
        """π_k, the stationary availabilities.

        >>> TwoStateChains([0.9, 0.2], [0.5, 0.0]).pi.tolist()
        [0.9, 0.2]
        """
        return self.chain.client_availability

    @property
    def lambda2(self) -> np.ndarray:
        """λ₂,k of each client's chain.

        >>> TwoStateChains([0.9, 0.2], [0.5, 0.0]).lambda2.tolist()
        [0.5, 0.0]
        """
        return self.chain.lambda2

    def sample(self, seed: int, reps: int, rounds: int) -> np.ndarray:
        """(reps, rounds, N) traces; repetition r is ``chain.sample(rounds, rng_r)``.

        >>> TwoStateChains([0.9], [0.5]).sample(seed=1, reps=3, rounds=4).shape
        (3, 4, 1)
        """
        return _repetitions(self.chain, seed, self.purpose, reps, rounds)


@dataclass(frozen=True, eq=False)
class ClusteredChains:
    """One two-state chain per cluster; client k is active iff its cluster is (Section V-B(e)).

    A thin adapter over :class:`~fltheory.markov.clustered.ClusteredChain` (``chain``).

    >>> process = ClusteredChains([0.9, 0.2], [0.5, 0.0], np.array([0, 0, 1]))
    >>> trace = process.sample(seed=0, reps=1, rounds=5)
    >>> bool((trace[..., 0] == trace[..., 1]).all()), process.pi.tolist()
    (True, [0.9, 0.9, 0.2])
    """

    cluster_pi: np.ndarray
    cluster_lambda2: np.ndarray
    assignment: np.ndarray
    purpose: str = "sim/availability/clustered"
    _chain: ClusteredChain = field(init=False, repr=False)

    def __post_init__(self) -> None:
        chain = ClusteredChain(self.cluster_pi, self.cluster_lambda2, self.assignment)
        object.__setattr__(self, "_chain", chain)
        object.__setattr__(self, "cluster_pi", chain.cluster_chain.client_availability)
        object.__setattr__(self, "cluster_lambda2", chain.cluster_chain.lambda2)
        object.__setattr__(self, "assignment", chain.assignment)

    @property
    def chain(self) -> ClusteredChain:
        """The clustered chain this process samples.

        >>> ClusteredChains([0.9], [0.5], np.array([0, 0])).chain.n_clusters
        1
        """
        return self._chain

    @property
    def n_clients(self) -> int:
        """N.

        >>> ClusteredChains([0.9], [0.5], np.array([0, 0])).n_clients
        2
        """
        return self.chain.n_clients

    @property
    def pi(self) -> np.ndarray:
        """π of each client's cluster.

        >>> ClusteredChains([0.9, 0.2], [0.5, 0.0], np.array([1, 0])).pi.tolist()
        [0.2, 0.9]
        """
        return self.chain.client_availability

    @property
    def lambda2(self) -> np.ndarray:
        """λ₂ of each client's cluster.

        >>> ClusteredChains([0.9, 0.2], [0.5, 0.0], np.array([1, 0])).lambda2.tolist()
        [0.0, 0.5]
        """
        return self.chain.lambda2

    def sample(self, seed: int, reps: int, rounds: int) -> np.ndarray:
        """(reps, rounds, N) traces; repetition r is ``chain.sample(rounds, rng_r)``.

        >>> ClusteredChains([0.9], [0.5], np.array([0, 0])).sample(0, 2, 3).shape
        (2, 3, 2)
        """
        return _repetitions(self.chain, seed, self.purpose, reps, rounds)


class _IndependentLinks:
    """Shared by link processes with per-client probabilities ``p``, independent over rounds
    (so the marginal availability is p and λ₂ = 0)."""

    p: np.ndarray

    @property
    def n_clients(self) -> int:
        return int(self.p.size)

    @property
    def pi(self) -> np.ndarray:
        return self.p

    @property
    def lambda2(self) -> np.ndarray | None:
        return np.zeros_like(self.p)


@dataclass(frozen=True, eq=False)
class BernoulliLinks(_IndependentLinks):
    """Link of client i active independently each round with probability p_i (λ₂ = 0)."""

    p: np.ndarray
    purpose: str = "sim/availability/bernoulli"

    def __post_init__(self) -> None:
        object.__setattr__(self, "p", checks.probabilities(self.p, "p"))

    def sample(self, seed: int, reps: int, rounds: int) -> np.ndarray:
        _check_counts(reps, rounds)
        return _uniforms(seed, self.purpose, reps, (rounds, self.n_clients)) < self.p


@dataclass(frozen=True, eq=False)
class UniformNoiseLinks(_IndependentLinks):
    """p_i^t = p_i + X_i^t, X_i^t ~ U(−a, a) i.i.d. over clients and rounds (FedPBC Sec. VI).

    Needs a ≤ p_i ≤ 1 − a so that p_i^t stays a probability; then E[p_i^t] = p_i and rounds are
    independent, so the marginal availability is p_i and λ₂ = 0.
    """

    p: np.ndarray
    half_width: float = 0.02
    purpose: str = "sim/availability/uniform-noise"

    def __post_init__(self) -> None:
        p = checks.probabilities(self.p, "p")
        a = float(self.half_width)
        if not (np.isfinite(a) and a >= 0):
            raise InputError(f"noise half-width must be finite and >= 0, got {a}")
        if (p < a).any() or (p > 1 - a).any():
            raise InputError(f"every p_i must lie in [a, 1 - a] for noise half-width a={a}")
        object.__setattr__(self, "p", p)

    def link_probabilities(self, seed: int, reps: int, rounds: int) -> np.ndarray:
        """The (R, T, N) realised p_i^t (first half of each repetition's stream)."""
        return self._draw(seed, reps, rounds)[0]

    def _draw(self, seed: int, reps: int, rounds: int) -> tuple[np.ndarray, np.ndarray]:
        u = _uniforms(seed, self.purpose, reps, (2, rounds, self.n_clients))
        probs = self.p + self.half_width * (2.0 * u[:, 0] - 1.0)
        return probs, u[:, 1]

    def sample(self, seed: int, reps: int, rounds: int) -> np.ndarray:
        _check_counts(reps, rounds)
        probs, u = self._draw(seed, reps, rounds)
        return u < probs


@dataclass(frozen=True, eq=False)
class DayCycleLinks(_IndependentLinks):
    """p_i^t = p_i + A·sin(2π(t/period + phase_i)): a deterministic day cycle, i.i.d. links.

    Needs A ≤ p_i ≤ 1 − A. Over a whole number of periods the mean availability is p_i; the
    marginal is not a time-homogeneous chain, so ``lambda2`` is None.
    """

    p: np.ndarray
    amplitude: float
    period: float
    phase: np.ndarray = field(default_factory=lambda: np.zeros(1))
    purpose: str = "sim/availability/day-cycle"

    def __post_init__(self) -> None:
        p = checks.probabilities(self.p, "p")
        amp, period = float(self.amplitude), float(self.period)
        if not (np.isfinite(amp) and amp >= 0 and np.isfinite(period) and period > 0):
            raise InputError("day cycle needs a finite amplitude >= 0 and a period > 0")
        if (p < amp).any() or (p > 1 - amp).any():
            raise InputError(f"every p_i must lie in [A, 1 - A] for amplitude A={amp}")
        phase = np.broadcast_to(np.asarray(self.phase, dtype=float), p.shape).copy()
        object.__setattr__(self, "p", p)
        object.__setattr__(self, "phase", phase)

    @property
    def lambda2(self) -> None:
        return None

    def link_probabilities(self, rounds: int) -> np.ndarray:
        """The (T, N) probabilities p_i^t."""
        t = np.arange(rounds, dtype=float)[:, None]
        return np.asarray(
            self.p + self.amplitude * np.sin(2.0 * np.pi * (t / self.period + self.phase))
        )

    def sample(self, seed: int, reps: int, rounds: int) -> np.ndarray:
        _check_counts(reps, rounds)
        return _uniforms(seed, self.purpose, reps, (rounds, self.n_clients)) < (
            self.link_probabilities(rounds)
        )


@dataclass(frozen=True, eq=False)
class FiniteChain:
    """A finite chain (M states, matrix P) and a 0/1 map ``state_clients`` (M, N) of who is
    active in each state. Starts from the stationary law ρ; π_k = Σ_s ρ_s·1{k active in s}.

    A thin adapter over :class:`~fltheory.markov.chain.MarkovChain` (``chain``), with the
    looser row-sum tolerance of matrices built by arithmetic (``LOOSE_ROW_SUM_ATOL``).

    >>> process = FiniteChain([[0.5, 0.5], [0.1, 0.9]], [[0], [1]])
    >>> process.pi.round(6).tolist(), process.states(seed=0, reps=1, rounds=4).shape
    ([0.833333], (1, 4))
    """

    P: np.ndarray
    state_clients: np.ndarray
    purpose: str = "sim/availability/finite-chain"
    _chain: MarkovChain = field(init=False, repr=False)

    def __post_init__(self) -> None:
        P = as_transition_matrix(self.P, atol=LOOSE_ROW_SUM_ATOL)
        sc = np.asarray(self.state_clients)
        if sc.ndim != 2 or sc.shape[0] != P.shape[0]:
            raise InputError(f"state_clients must have shape ({P.shape[0]}, N), got {sc.shape}")
        if not np.isin(sc, (0, 1)).all():
            raise InputError("state_clients entries must be 0 or 1")
        chain = MarkovChain(P, sc.astype(bool), atol=LOOSE_ROW_SUM_ATOL)
        object.__setattr__(self, "_chain", chain)
        object.__setattr__(self, "P", P)
        object.__setattr__(self, "state_clients", sc.astype(bool))

    @property
    def chain(self) -> MarkovChain:
        """The dense chain this process samples.

        >>> FiniteChain([[0.5, 0.5], [0.1, 0.9]], [[0], [1]]).chain.n_states
        2
        """
        return self._chain

    @property
    def n_clients(self) -> int:
        """N.

        >>> FiniteChain([[0.5, 0.5], [0.1, 0.9]], [[0, 1], [1, 1]]).n_clients
        2
        """
        return int(self.state_clients.shape[1])

    @property
    def rho(self) -> np.ndarray:
        """The stationary law ρ (GTH).

        >>> FiniteChain([[0.5, 0.5], [0.1, 0.9]], [[0], [1]]).rho.round(6).tolist()
        [0.166667, 0.833333]
        """
        return self.chain.stationary

    @property
    def pi(self) -> np.ndarray:
        """π_k = Σ_s ρ_s·1{k active in s}.

        >>> FiniteChain([[0.5, 0.5], [0.1, 0.9]], [[1], [1]]).pi.round(12).tolist()
        [1.0]
        """
        return np.asarray(self.rho @ self.state_clients)

    @property
    def lambda2(self) -> None:
        """None: a dense chain defines no per-client λ₂.

        >>> FiniteChain([[0.5, 0.5], [0.1, 0.9]], [[0], [1]]).lambda2 is None
        True
        """
        return None

    def states(self, seed: int, reps: int, rounds: int) -> np.ndarray:
        """(R, T) state indices: repetition r is ``chain.sample_states(rounds, rng_r)``,
        inverse-CDF steps driven by one uniform per round.

        >>> FiniteChain([[0.5, 0.5], [0.1, 0.9]], [[0], [1]]).states(0, 2, 5).shape
        (2, 5)
        """
        _check_counts(reps, rounds)
        return np.stack(
            [
                self.chain.sample_states(rounds, generator(seed, f"{self.purpose}/rep{r}"))
                for r in range(reps)
            ]
        )

    def sample(self, seed: int, reps: int, rounds: int) -> np.ndarray:
        """(R, T, N) traces: the active sets of :meth:`states`.

        >>> FiniteChain([[0.5, 0.5], [0.1, 0.9]], [[0], [1]]).sample(0, 2, 5).shape
        (2, 5, 1)
        """
        return np.asarray(self.state_clients[self.states(seed, reps, rounds)])


@dataclass(frozen=True, eq=False)
class TraceReplay:
    """A recorded (T', N) trace replayed identically in every repetition (first T rounds).

    ``pi`` is the trace's empirical availability; ``lambda2`` its empirical lag-1 statistic
    1 − P̂01 − P̂10 (the λ₂ of the two-state chain fitted by transition frequencies).
    """

    trace: np.ndarray

    def __post_init__(self) -> None:
        from fltheory.markov.estimators import as_trace

        object.__setattr__(self, "trace", as_trace(self.trace))

    @property
    def n_clients(self) -> int:
        return int(self.trace.shape[1])

    @property
    def pi(self) -> np.ndarray:
        return np.asarray(self.trace.mean(axis=0))

    @property
    def lambda2(self) -> np.ndarray | None:
        from fltheory.markov.estimators import transition_counts

        c = transition_counts(self.trace).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            lam = 1.0 - c[:, 0, 1] / c[:, 0].sum(1) - c[:, 1, 0] / c[:, 1].sum(1)
        return lam if np.isfinite(lam).all() else None

    def sample(self, seed: int, reps: int, rounds: int) -> np.ndarray:
        _check_counts(reps, rounds)
        if rounds > self.trace.shape[0]:
            raise InputError(
                f"the recorded trace has {self.trace.shape[0]} rounds, {rounds} were requested"
            )
        return np.broadcast_to(self.trace[:rounds], (reps, rounds, self.n_clients)).copy()
