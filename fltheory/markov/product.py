"""Product of independent two-state client chains (CA-Fed ToN Section III-D, Appendix F2).

P = ⊗ₖ Pₖ over N clients has M = 2^N states; nothing here builds it unless asked for a dense
matrix on a small N. State order is that of ``np.kron(P_1, P_2, ...)``: the bits of a state
index are the clients' states (1 = active), first client most significant.

Structure used (Props. 3–6, eqs. 230–235): the stationary law is ⊗ₖ ρₖ; the eigenvalues are all
products of one eigenvalue per factor, so λ̄₂(P) = maxₖ |λ₂,ₖ| (eq. 234); U = ⊗ₖ Uₖ
diagonalises P, which is therefore diagonalisable with M one-by-one Jordan blocks. C_P is the
basis-independent minimum of eq. (156), computed by :mod:`.projectors`.
"""

import math
from functools import cached_property, reduce
from typing import Any

import numpy as np

from fltheory.errors import InputError
from fltheory.markov.chain import MarkovChain
from fltheory.markov.constants import ChainConstants
from fltheory.markov.projectors import (
    ProjectorSum,
    log_states_minus_one,
    projector_norm_sum,
)
from fltheory.markov.sampling import check_draw, run_two_state
from fltheory.markov.spectrum import (
    DEFAULT_MIX_EPS,
    MixingTimeBounds,
    mixing_time_bounds_from_log,
)
from fltheory.markov.two_state import (
    check_two_state,
    two_state_matrix,
    two_state_params,
)
from fltheory.markov.validate import exclusion_mask
from fltheory.reprs import array_literal, call_literal

#: Largest N for which ``n_states`` is an exact int (2^62 fits a signed 64-bit integer).
MAX_EXACT_STATES_LOG2 = 62
#: Largest N for ``stationary`` and ``state_clients()`` (2^20 states).
MAX_STATIONARY_CLIENTS = 20
#: Largest N for ``dense_matrix()`` and ``dense()`` (4096 states).
MAX_DENSE_CLIENTS = 12

__all__ = [
    "MAX_DENSE_CLIENTS",
    "MAX_EXACT_STATES_LOG2",
    "MAX_STATIONARY_CLIENTS",
    "ProductChain",
    "log_states_minus_one",
]


class ProductChain:
    """Independent two-state clients with availabilities ``pi`` and second eigenvalues ``lambda2``.

    ``client_ids`` labels the clients (default 0..N-1) and survives :meth:`exclude`. Implements
    :class:`~fltheory.markov.protocol.AvailabilityChain`.

    >>> chain = ProductChain([0.5, 0.3, 0.8], [0.0, 0.0, 0.0])
    >>> chain.n_states, chain.slem, round(chain.constants().C_P, 4)
    (8, 0.0, 22.5208)
    """

    def __init__(self, pi: Any, lambda2: Any, *, client_ids: Any = None) -> None:
        pi_arr, lam_arr = check_two_state(pi, lambda2)
        if pi_arr.ndim != 1 or pi_arr.size == 0:
            raise InputError(f"pi and lambda2 must be non-empty 1-D arrays, got {pi_arr.shape}")
        ids = np.arange(pi_arr.size) if client_ids is None else np.array(client_ids)
        if ids.shape != pi_arr.shape:
            raise InputError(f"client_ids must have shape {pi_arr.shape}, got {ids.shape}")
        for arr in (pi_arr, lam_arr, ids):
            arr.setflags(write=False)
        self._pi, self._lambda2, self._ids = pi_arr, lam_arr, ids

    def __repr__(self) -> str:
        """Source that rebuilds the chain (pasteable from a failing property test).

        >>> ProductChain([0.5, 0.25], [0.1, 0.0])
        ProductChain(pi=[0.5, 0.25], lambda2=[0.1, 0.0])
        >>> ProductChain([0.5, 0.25], [0.1, 0.0]).exclude([0])
        ProductChain(pi=[0.25], lambda2=[0.0], client_ids=[1])
        """
        default = np.array_equal(self._ids, np.arange(self._pi.size))
        return call_literal(
            "ProductChain",
            [
                ("pi", array_literal(self._pi)),
                ("lambda2", array_literal(self._lambda2)),
                ("client_ids", None if default else array_literal(self._ids)),
            ],
        )

    @classmethod
    def from_matrices(cls, P: Any) -> "ProductChain":
        """Build from an (N, 2, 2) stack of client transition matrices (eqs. 237–238).

        >>> ProductChain.from_matrices([[[0.6, 0.4], [0.4, 0.6]]]).lambda2.round(12).tolist()
        [0.2]
        """
        return cls(*two_state_params(P))

    # --- sizes and per-client data ---------------------------------------------------------
    @property
    def n_clients(self) -> int:
        """N.

        >>> ProductChain([0.5, 0.3], [0.1, 0.2]).n_clients
        2
        """
        return int(self._pi.size)

    @property
    def client_ids(self) -> np.ndarray:
        """The clients' labels (default 0..N−1; kept by :meth:`exclude`).

        >>> ProductChain([0.5, 0.3], [0.1, 0.2]).exclude([0]).client_ids.tolist()
        [1]
        """
        return self._ids

    @property
    def client_availability(self) -> np.ndarray:
        """πₖ, the stationary probability that client k is active (read-only).

        >>> ProductChain([0.5, 0.3], [0.1, 0.2]).client_availability.tolist()
        [0.5, 0.3]
        """
        return self._pi

    @property
    def lambda2(self) -> np.ndarray:
        """λ₂,ₖ, each client's second eigenvalue (read-only).

        >>> ProductChain([0.5, 0.3], [0.1, 0.2]).lambda2.tolist()
        [0.1, 0.2]
        """
        return self._lambda2

    @property
    def log_n_states(self) -> float:
        """ln M = N ln 2.

        >>> round(ProductChain([0.5] * 100, [0.1] * 100).log_n_states, 6)
        69.314718
        """
        return self.n_clients * math.log(2.0)

    @property
    def n_states(self) -> int | None:
        """M = 2^N exactly when N ≤ 62, else None.

        >>> ProductChain([0.5] * 63, [0.1] * 63).n_states is None
        True
        """
        return 1 << self.n_clients if self.n_clients <= MAX_EXACT_STATES_LOG2 else None

    # --- spectral constants ----------------------------------------------------------------
    @cached_property
    def slem(self) -> float:
        """λ̄₂(P) = maxₖ |λ₂,ₖ| (Prop. 6, eq. 234).

        >>> ProductChain([0.5, 0.3], [0.1, -0.2]).slem
        0.2
        """
        return float(np.max(np.abs(self._lambda2)))

    @property
    def lam(self) -> float:
        """λ(P) = (λ̄₂ + 1)/2 (eq. 229) = maxₖ λ(Pₖ).

        >>> ProductChain([0.5, 0.3], [0.1, -0.2]).lam
        0.6
        """
        return (self.slem + 1.0) / 2.0

    @property
    def relaxation_time(self) -> float:
        """t_rel = 1/(1 − λ̄₂) (Appendix F1).

        >>> ProductChain([0.5], [0.5]).relaxation_time
        2.0
        """
        return 1.0 / (1.0 - self.slem)

    @property
    def reversible(self) -> bool:
        """True: two-state chains, and products of them, are reversible.

        >>> ProductChain([0.5], [0.5]).reversible
        True
        """
        return True

    @cached_property
    def log_rho_min(self) -> float:
        """ln ρ_min = Σₖ ln min(πₖ, 1 − πₖ): the least likely state of ⊗ₖ ρₖ.

        >>> round(ProductChain([0.5, 0.2], [0.0, 0.0]).log_rho_min, 6)
        -2.302585
        """
        return float(np.sum(np.log(np.minimum(self._pi, 1.0 - self._pi))))

    def mixing_time_bounds(self, eps: float = DEFAULT_MIX_EPS) -> MixingTimeBounds:
        """(t_rel − 1)·ln(1/(2ε)) ≤ t_mix(ε) ≤ ln(1/(ε ρ_min))·t_rel (Appendix F1, [31, 12.4–5]).

        Valid because two-state chains, and products of them, are reversible; ρ_min enters in
        log space (it underflows for large N). The lower bound is clipped at 0.

        >>> b = ProductChain([0.5], [0.5]).mixing_time_bounds(0.25)
        >>> round(b.lower, 6), round(b.upper, 6), b.reversible
        (0.693147, 4.158883, True)
        """
        return mixing_time_bounds_from_log(
            self.slem, self.log_rho_min, eps=eps, reversible=self.reversible
        )

    @cached_property
    def hitting_time(self) -> float:
        """maxₖ 1/((1 − λ₂,ₖ)πₖ) (Section V-B(d)).

        1/Pₖ(0→1) is the expected number of rounds an inactive client k waits to become active;
        the paper takes the slowest client as the observation horizon needed to estimate λₖ.

        >>> round(ProductChain([0.1, 0.9], [0.9, 0.9]).hitting_time, 9)
        100.0
        """
        return float(np.max(1.0 / ((1.0 - self._lambda2) * self._pi)))

    @cached_property
    def _projector_sum(self) -> ProjectorSum:
        return projector_norm_sum(self._pi, self._lambda2)

    @property
    def log_C_P(self) -> float:
        """ln C_P of eq. (156): ½ ln(M − 1) + ln Σ_μ ‖Π_μ‖_*, the minimum over eigenbases.

        All Jordan blocks have size 1, so (Σ_{i≥2} nᵢ²)^{1/2} = (M − 1)^{1/2}; the sum of the
        spectral projectors' nuclear norms is computed from the Kronecker structure (closed
        forms for λ₂ = 0 clients and equal λ₂ values, exact group norms for the other
        coincidences when N ≤ 12; see :mod:`.projectors`), in log space.

        >>> round(ProductChain([0.7, 0.2, 0.6], [0.5, 0.5, 0.25]).log_C_P, 6)
        3.299784
        """
        return 0.5 * log_states_minus_one(self.n_clients) + self._projector_sum.log_value

    @property
    def C_P_minimal(self) -> bool:
        """Whether :attr:`log_C_P` is the basis-independent minimum (see :mod:`.projectors`).

        >>> ProductChain([0.5] * 13, [0.5] * 6 + [0.25] * 7).C_P_minimal
        False
        """
        return self._projector_sum.minimal

    @property
    def C_P(self) -> float | None:
        """C_P, or None when it overflows a double (use ``log_C_P``).

        >>> ProductChain([0.5] * 2000, [0.1] * 2000).C_P is None
        True
        """
        return self.constants().C_P

    @property
    def T_P(self) -> int:
        """T_P of eq. (157) is 0: every Jordan block has nᵢ = 1, so each term has the factor
        2nᵢ(nᵢ − 1) = 0 (and max{·, 0} = 0).

        >>> ProductChain([0.5], [0.9]).T_P
        0
        """
        return 0

    @property
    def T_P_safe(self) -> int:
        """The safe variant of eq. (157) is 0 for the same reason as :attr:`T_P`.

        >>> ProductChain([0.5], [0.9]).T_P_safe
        0
        """
        return 0

    def constants(self, exact: bool | None = None) -> ChainConstants:
        """The record the bounds consume (method "structured").

        ``exact`` is accepted for the protocol and ignored: the structured constants are
        closed forms (computed exactly for N ≤ 12 up to the coalescence rule of
        :mod:`.projectors`).

        >>> c = ProductChain([0.5, 0.3, 0.8], [0.0, 0.0, 0.0]).constants()
        >>> round(c.C_P, 4), c.method, c.C_P_minimal
        (22.5208, 'structured', True)
        """
        return ChainConstants(
            log_n_states=self.log_n_states,
            slem=self.slem,
            lam=self.lam,
            log_C_P=self.log_C_P,
            T_P=self.T_P,
            T_P_safe=self.T_P_safe,
            method="structured",
            C_P_minimal=self.C_P_minimal,
        )

    # --- dense objects for small N ---------------------------------------------------------
    def _require_small(self, limit: int, what: str) -> None:
        if self.n_clients > limit:
            raise InputError(
                f"{what} needs 2^{self.n_clients} states; it is only built for N <= {limit}"
            )

    @cached_property
    def stationary(self) -> np.ndarray:
        """ρ = ⊗ₖ (1 − πₖ, πₖ) (Prop. 3), in ``np.kron`` state order; N ≤ 20.

        >>> ProductChain([0.5, 0.2], [0.0, 0.0]).stationary.round(6).tolist()
        [0.4, 0.1, 0.4, 0.1]
        """
        self._require_small(MAX_STATIONARY_CLIENTS, "the stationary distribution")
        factors = np.stack([1.0 - self._pi, self._pi], axis=1)
        return reduce(np.kron, factors)

    def kronecker_factors(self) -> tuple[np.ndarray, ...]:
        """The client matrices Pₖ of eq. (236); P = P₁ ⊗ P₂ ⊗ … (eq. 230).

        >>> ProductChain([0.5], [0.5]).kronecker_factors()[0].tolist()
        [[0.75, 0.25], [0.25, 0.75]]
        """
        return tuple(two_state_matrix(self._pi, self._lambda2))

    def dense_matrix(self) -> np.ndarray:
        """P = P₁ ⊗ P₂ ⊗ ... (eq. 230) as an M×M array; N ≤ 12.

        >>> ProductChain([0.5, 0.5], [0.0, 0.0]).dense_matrix().tolist()[0]
        [0.25, 0.25, 0.25, 0.25]
        """
        self._require_small(MAX_DENSE_CLIENTS, "dense_matrix()")
        return reduce(np.kron, self.kronecker_factors())

    def state_clients(self) -> np.ndarray:
        """M×N 0/1 matrix: entry (s, k) = 1 iff client k is active in state s; N ≤ 20.

        >>> ProductChain([0.5, 0.5], [0.0, 0.0]).state_clients().tolist()
        [[0, 0], [0, 1], [1, 0], [1, 1]]
        """
        self._require_small(MAX_STATIONARY_CLIENTS, "state_clients()")
        n = self.n_clients
        shifts = np.arange(n - 1, -1, -1, dtype=np.int64)
        return ((np.arange(1 << n, dtype=np.int64)[:, None] >> shifts) & 1).astype(np.int8)

    def dense(self) -> MarkovChain:
        """The same chain as a dense :class:`MarkovChain` with its state map, for cross-checks
        (eq. 230; N ≤ 12, as for :meth:`dense_matrix`).

        >>> ProductChain([0.5, 0.3], [0.2, 0.6]).dense().n_states
        4
        """
        return MarkovChain(self.dense_matrix(), state_clients=self.state_clients())

    # --- Guideline B -----------------------------------------------------------------------
    def exclude(self, excluded: Any) -> "ProductChain":
        """P′ over the clients not in ``excluded`` (Section III-D, Guideline B).

        ``excluded``: a bool mask (True = drop) or indices, both relative to this chain's
        positions. λ(P′) = max over the remaining clients.

        >>> ProductChain([0.5, 0.3], [0.9, 0.2]).exclude([0]).lam
        0.6
        """
        keep = ~exclusion_mask(excluded, self.n_clients)
        if not keep.any():
            raise InputError("cannot exclude every client: the reduced chain would be empty")
        return ProductChain(self._pi[keep], self._lambda2[keep], client_ids=self._ids[keep])

    # --- sampling ----------------------------------------------------------------------------
    def sample(self, T: int, rng: np.random.Generator) -> np.ndarray:
        """(T, N) boolean trace from ⊗ₖ ρₖ: ``u = rng.random((T, N))``, active at t = 0 iff
        u < πₖ, then eq. (236) steps (see :func:`~fltheory.markov.sampling.run_two_state`).

        >>> ProductChain([0.5, 0.5], [0.9, 0.0]).sample(3, np.random.default_rng(1)).shape
        (3, 2)
        """
        T = check_draw(T, rng)
        return run_two_state(rng.random((T, self.n_clients)), self._pi, self._lambda2)
