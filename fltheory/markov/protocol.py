"""One interface for every availability chain (CA-Fed ToN Section II-A, Appendices B2, F).

:class:`AvailabilityChain` is what the bounds, the optimisers, the limits, the CLI and the
simulator may ask of a chain. :class:`~fltheory.markov.chain.MarkovChain` (dense P),
:class:`~fltheory.markov.product.ProductChain` (independent two-state clients) and
:class:`~fltheory.markov.clustered.ClusteredChain` (clusters sharing a two-state chain)
implement it with the same names, kinds (property or method) and return types, so a consumer
dispatches through these members and never on the concrete class.
"""

from typing import TYPE_CHECKING, Any, Protocol, TypeGuard, runtime_checkable

import numpy as np

from fltheory.markov.constants import ChainConstants
from fltheory.markov.spectrum import DEFAULT_MIX_EPS, MixingTimeBounds

if TYPE_CHECKING:
    from fltheory.markov.chain import MarkovChain


@runtime_checkable
class AvailabilityChain(Protocol):
    """A stationary availability chain over client-activity states (Assumption 1).

    Properties:
        n_clients: N (None only for a dense chain without a state→clients map).
        n_states: M (None when M > 2⁶², see ``log_n_states``).
        log_n_states: ln M.
        stationary: ρ over the M states (lazy; InputError when M is too large to list).
        client_availability: π_k = P(client k active) under ρ (None without a state map).
        lambda2: each client's second eigenvalue λ₂,k where the chain defines one (product and
            clustered chains: eq. 236), None for a dense chain.
        slem: λ̄₂(P) (eq. 229).
        lam: λ(P) = (λ̄₂ + 1)/2 (eq. 229).
        relaxation_time: 1/(1 − λ̄₂) (Appendix F1).
        reversible: detailed balance (decides whether the t_mix upper bound applies).

    Methods:
        constants(exact=None): the Lemma 16 :class:`ChainConstants` (eqs. 156, 157, 229);
            structured chains accept and ignore ``exact`` (their constants are closed forms).
        mixing_time_bounds(eps=0.25): Appendix F1 bounds on t_mix(ε).
        exclude(excluded): P′ over the remaining clients (Section III-D, Guideline B).
        sample(T, rng): a (T, N) boolean trace started from ρ.
        dense(): the same chain as a dense MarkovChain with its state map.
        dense_matrix(): P as an M×M array.
        state_clients(): the M×N 0/1 matrix of who is active in each state.
        kronecker_factors(): matrices whose Kronecker product (``np.kron`` order) is P: one
            2×2 per client (product), per cluster (clustered), or (P,) for a dense chain.

    >>> from fltheory.markov import MarkovChain, ProductChain
    >>> isinstance(ProductChain([0.5], [0.2]), AvailabilityChain)
    True
    >>> isinstance(MarkovChain([[0.5, 0.5], [0.3, 0.7]]), AvailabilityChain)
    True
    """

    @property
    def n_clients(self) -> int | None: ...

    @property
    def n_states(self) -> int | None: ...

    @property
    def log_n_states(self) -> float: ...

    @property
    def stationary(self) -> np.ndarray: ...

    @property
    def client_availability(self) -> np.ndarray | None: ...

    @property
    def lambda2(self) -> np.ndarray | None: ...

    @property
    def slem(self) -> float: ...

    @property
    def lam(self) -> float: ...

    @property
    def relaxation_time(self) -> float: ...

    @property
    def reversible(self) -> bool: ...

    def constants(self, exact: bool | None = None) -> ChainConstants: ...

    def mixing_time_bounds(self, eps: float = DEFAULT_MIX_EPS) -> MixingTimeBounds: ...

    def exclude(self, excluded: Any) -> "AvailabilityChain": ...

    def sample(self, T: int, rng: np.random.Generator) -> np.ndarray: ...

    def dense(self) -> "MarkovChain": ...

    def dense_matrix(self) -> np.ndarray: ...

    def state_clients(self) -> np.ndarray: ...

    def kronecker_factors(self) -> tuple[np.ndarray, ...]: ...


#: The members :func:`is_availability_chain` looks for.
_MEMBERS = tuple(
    name for name in vars(AvailabilityChain) if not name.startswith("_") and name != "register"
)


def is_availability_chain(obj: object) -> TypeGuard[AvailabilityChain]:
    """Whether ``obj`` implements :class:`AvailabilityChain`, decided on its class.

    ``isinstance(obj, AvailabilityChain)`` evaluates every property of ``obj`` (a runtime
    protocol check reads each member), which for a large chain means building its stationary
    law over 2^N states; this looks at the class only.

    >>> from fltheory.markov import ProductChain
    >>> is_availability_chain(ProductChain([0.5] * 100, [0.1] * 100)), is_availability_chain([])
    (True, False)
    """
    cls = type(obj)
    return all(hasattr(cls, name) for name in _MEMBERS)
