"""Spatially correlated clients: clusters share one two-state chain (CA-Fed ToN Section V-B(e)).

All clients of cluster c are active together, following a two-state chain (π_c, λ_c); distinct
clusters are independent. Because every cluster has at least one client, the set of active
clients determines the clusters' states, so the availability chain (A_t) is exactly the product
chain over clusters: M = 2^{#clusters}, and all its constants are those of that product. It
implements :class:`~fltheory.markov.protocol.AvailabilityChain`.
"""

from typing import Any

import numpy as np

from fltheory.errors import InputError
from fltheory.markov.chain import MarkovChain
from fltheory.markov.constants import ChainConstants
from fltheory.markov.product import ProductChain
from fltheory.markov.spectrum import DEFAULT_MIX_EPS, MixingTimeBounds
from fltheory.markov.two_state import check_two_state
from fltheory.markov.validate import exclusion_mask
from fltheory.reprs import array_literal, call_literal


class ClusteredChain:
    """Clusters with parameters ``pi``, ``lambda2`` (one per cluster) and a client→cluster map.

    ``assignment[k]`` is the cluster index (0..C-1) of client k; every cluster needs a client.
    ``client_ids`` and ``cluster_ids`` label clients and clusters and survive :meth:`exclude`.

    >>> chain = ClusteredChain([0.9, 0.2], [0.5, 0.0], [0, 0, 1])
    >>> chain.n_clients, chain.n_states, chain.client_availability.tolist()
    (3, 4, [0.9, 0.9, 0.2])
    """

    def __init__(
        self,
        pi: Any,
        lambda2: Any,
        assignment: Any,
        *,
        client_ids: Any = None,
        cluster_ids: Any = None,
    ) -> None:
        pi, lambda2 = check_two_state(pi, lambda2, what="cluster")  # messages name the cluster
        self._clusters = ProductChain(pi, lambda2, client_ids=cluster_ids)
        n_clusters = self._clusters.n_clients
        assign = np.asarray(assignment)
        if assign.ndim != 1 or assign.size == 0:
            raise InputError(f"assignment must be a non-empty 1-D array, got shape {assign.shape}")
        if not np.issubdtype(assign.dtype, np.integer):
            raise InputError(f"assignment must hold integer cluster indices, got {assign.dtype}")
        outside = (assign < 0) | (assign >= n_clusters)
        if outside.any():
            k = int(np.argmax(outside))
            raise InputError(
                f"client {k}: cluster index {int(assign[k])} is outside 0..{n_clusters - 1}"
            )
        sizes = np.bincount(assign, minlength=n_clusters)
        if (sizes == 0).any():
            c = int(np.argmin(sizes))
            raise InputError(f"cluster {c} has no clients (every cluster needs at least one)")
        client_arr = np.arange(assign.size) if client_ids is None else np.array(client_ids)
        if client_arr.shape != assign.shape:
            raise InputError(f"client_ids must have shape {assign.shape}, got {client_arr.shape}")
        self._assign = assign.astype(np.int64)
        self._client_ids = client_arr
        for arr in (self._assign, self._client_ids):
            arr.setflags(write=False)

    def __repr__(self) -> str:
        """Source that rebuilds the chain (pasteable from a failing property test).

        >>> ClusteredChain([0.9, 0.2], [0.5, 0.0], [0, 0, 1])
        ClusteredChain(pi=[0.9, 0.2], lambda2=[0.5, 0.0], assignment=[0, 0, 1])
        """
        clusters = self._clusters
        default_clients = np.array_equal(self._client_ids, np.arange(self._assign.size))
        default_clusters = np.array_equal(clusters.client_ids, np.arange(clusters.n_clients))
        return call_literal(
            "ClusteredChain",
            [
                ("pi", array_literal(clusters.client_availability)),
                ("lambda2", array_literal(clusters.lambda2)),
                ("assignment", array_literal(self._assign)),
                ("client_ids", None if default_clients else array_literal(self._client_ids)),
                ("cluster_ids", None if default_clusters else array_literal(clusters.client_ids)),
            ],
        )

    # --- sizes and maps --------------------------------------------------------------------
    @property
    def cluster_chain(self) -> ProductChain:
        """The product chain over clusters (its ``client_ids`` are the cluster ids).

        >>> ClusteredChain([0.9, 0.2], [0.5, 0.0], [0, 0, 1]).cluster_chain.n_clients
        2
        """
        return self._clusters

    @property
    def n_clients(self) -> int:
        """N, the number of clients.

        >>> ClusteredChain([0.9], [0.5], [0, 0, 0]).n_clients
        3
        """
        return int(self._assign.size)

    @property
    def n_clusters(self) -> int:
        """C, the number of clusters.

        >>> ClusteredChain([0.9], [0.5], [0, 0, 0]).n_clusters
        1
        """
        return self._clusters.n_clients

    @property
    def assignment(self) -> np.ndarray:
        """Cluster index of each client.

        >>> ClusteredChain([0.9, 0.2], [0.5, 0.0], [1, 0, 1]).assignment.tolist()
        [1, 0, 1]
        """
        return self._assign

    @property
    def client_ids(self) -> np.ndarray:
        """The clients' labels (kept by :meth:`exclude`).

        >>> ClusteredChain([0.9, 0.2], [0.5, 0.0], [1, 0, 1]).exclude([0]).client_ids.tolist()
        [1, 2]
        """
        return self._client_ids

    @property
    def cluster_ids(self) -> np.ndarray:
        """The clusters' labels (kept by :meth:`exclude`).

        >>> ClusteredChain([0.9, 0.2], [0.5, 0.0], [1, 0, 1]).exclude([1]).cluster_ids.tolist()
        [1]
        """
        return self._clusters.client_ids

    @property
    def client_availability(self) -> np.ndarray:
        """π of each client's cluster.

        >>> ClusteredChain([0.9, 0.2], [0.5, 0.0], [1, 0]).client_availability.tolist()
        [0.2, 0.9]
        """
        return self._clusters.client_availability[self._assign]

    @property
    def lambda2(self) -> np.ndarray:
        """λ₂ of each client's cluster (the client's marginal is that two-state chain).

        >>> ClusteredChain([0.9, 0.2], [0.5, 0.0], [1, 0]).lambda2.tolist()
        [0.0, 0.5]
        """
        return self._clusters.lambda2[self._assign]

    # --- constants: those of the cluster product -------------------------------------------
    @property
    def log_n_states(self) -> float:
        """ln M = C ln 2.

        >>> round(ClusteredChain([0.9, 0.2], [0.5, 0.0], [0, 1, 1]).log_n_states, 6)
        1.386294
        """
        return self._clusters.log_n_states

    @property
    def n_states(self) -> int | None:
        """M = 2^C (None when C > 62).

        >>> ClusteredChain([0.9, 0.2], [0.5, 0.0], [0, 1, 1]).n_states
        4
        """
        return self._clusters.n_states

    @property
    def stationary(self) -> np.ndarray:
        """Stationary law over cluster states (bits = clusters, first most significant).

        >>> ClusteredChain([0.5], [0.5], [0, 0]).stationary.tolist()
        [0.5, 0.5]
        """
        return self._clusters.stationary

    @property
    def slem(self) -> float:
        """λ̄₂ = max over clusters of |λ₂,c| (eq. 234).

        >>> ClusteredChain([0.9, 0.2], [0.5, -0.1], [0, 1]).slem
        0.5
        """
        return self._clusters.slem

    @property
    def lam(self) -> float:
        """λ(P) = (λ̄₂ + 1)/2 (eq. 229).

        >>> ClusteredChain([0.9, 0.2], [0.5, -0.1], [0, 1]).lam
        0.75
        """
        return self._clusters.lam

    @property
    def relaxation_time(self) -> float:
        """t_rel = 1/(1 − λ̄₂) (Appendix F1).

        >>> ClusteredChain([0.9], [0.5], [0, 0]).relaxation_time
        2.0
        """
        return self._clusters.relaxation_time

    @property
    def reversible(self) -> bool:
        """True (a product of two-state chains).

        >>> ClusteredChain([0.9], [0.5], [0, 0]).reversible
        True
        """
        return True

    @property
    def hitting_time(self) -> float:
        """max over clusters of 1/((1 − λ₂,c)π_c) (Section V-B(d)).

        >>> round(ClusteredChain([0.1], [0.9], [0, 0]).hitting_time, 9)
        100.0
        """
        return self._clusters.hitting_time

    @property
    def log_C_P(self) -> float:
        """ln C_P (eq. 156) of the cluster product.

        >>> round(ClusteredChain([0.5], [0.5], [0, 0]).log_C_P, 6)
        0.693147
        """
        return self._clusters.log_C_P

    @property
    def C_P(self) -> float | None:
        """C_P, or None when it overflows a double.

        >>> round(ClusteredChain([0.5], [0.5], [0, 0]).C_P, 6)  # M = 2: 2√2·‖ρ‖
        2.0
        """
        return self._clusters.C_P

    @property
    def T_P(self) -> int:
        """0 (every Jordan block has size 1, eq. 157).

        >>> ClusteredChain([0.5], [0.5], [0, 0]).T_P
        0
        """
        return self._clusters.T_P

    @property
    def T_P_safe(self) -> int:
        """0, as :attr:`T_P`.

        >>> ClusteredChain([0.5], [0.5], [0, 0]).T_P_safe
        0
        """
        return self._clusters.T_P_safe

    def mixing_time_bounds(self, eps: float = DEFAULT_MIX_EPS) -> MixingTimeBounds:
        """Appendix F1 bounds of the cluster product.

        >>> round(ClusteredChain([0.5], [0.5], [0, 0]).mixing_time_bounds().upper, 6)
        4.158883
        """
        return self._clusters.mixing_time_bounds(eps)

    def constants(self, exact: bool | None = None) -> ChainConstants:
        """The cluster product's :class:`ChainConstants`; ``exact`` is accepted and ignored.

        >>> ClusteredChain([0.5], [0.5], [0, 0]).constants().method
        'structured'
        """
        return self._clusters.constants()

    # --- dense objects -----------------------------------------------------------------------
    def kronecker_factors(self) -> tuple[np.ndarray, ...]:
        """One 2×2 matrix per cluster (eq. 236); P is their Kronecker product.

        >>> len(ClusteredChain([0.5, 0.2], [0.5, 0.0], [0, 1, 1]).kronecker_factors())
        2
        """
        return self._clusters.kronecker_factors()

    def dense_matrix(self) -> np.ndarray:
        """Transition matrix over cluster states, ``np.kron`` order; at most 12 clusters.

        >>> ClusteredChain([0.5], [0.5], [0, 0]).dense_matrix().tolist()
        [[0.75, 0.25], [0.25, 0.75]]
        """
        return self._clusters.dense_matrix()

    def state_clients(self) -> np.ndarray:
        """M×N 0/1 matrix: client k is active in state s iff its cluster is; at most 20 clusters.

        >>> ClusteredChain([0.5, 0.2], [0.5, 0.0], [1, 0, 1]).state_clients().tolist()
        [[0, 0, 0], [1, 0, 1], [0, 1, 0], [1, 1, 1]]
        """
        return self._clusters.state_clients()[:, self._assign]

    def dense(self) -> MarkovChain:
        """The same chain as a dense :class:`MarkovChain` with its state map, for cross-checks
        (eq. 230; at most 12 clusters, as for :meth:`dense_matrix`).

        >>> ClusteredChain([0.5], [0.5], [0, 0]).dense().client_availability.tolist()
        [0.5, 0.5]
        """
        return MarkovChain(self.dense_matrix(), state_clients=self.state_clients())

    # --- exclusion -------------------------------------------------------------------------
    def exclude(self, excluded: Any) -> "ClusteredChain":
        """Drop clients (bool mask or indices, by position); a cluster disappears only when all
        of its clients are dropped, and with it its factor of the chain (Section III-D).

        >>> reduced = ClusteredChain([0.9, 0.2], [0.5, 0.0], [0, 1, 1]).exclude([0])
        >>> reduced.n_clusters, reduced.slem
        (1, 0.0)
        """
        keep = ~exclusion_mask(excluded, self.n_clients)
        if not keep.any():
            raise InputError("cannot exclude every client: the reduced chain would be empty")
        kept_assign = self._assign[keep]
        alive = np.bincount(kept_assign, minlength=self.n_clusters) > 0
        renumber = np.cumsum(alive) - 1
        clusters = self._clusters.exclude(~alive)
        return ClusteredChain(
            clusters.client_availability,
            clusters.lambda2,
            renumber[kept_assign],
            client_ids=self._client_ids[keep],
            cluster_ids=clusters.client_ids,
        )

    # --- sampling ------------------------------------------------------------------------------
    def sample(self, T: int, rng: np.random.Generator) -> np.ndarray:
        """(T, N) trace: one two-state chain per cluster (``u = rng.random((T, C))``, see
        :meth:`ProductChain.sample`), each client copying its cluster.

        >>> trace = ClusteredChain([0.5], [0.5], [0, 0]).sample(4, np.random.default_rng(0))
        >>> bool((trace[:, 0] == trace[:, 1]).all())
        True
        """
        return self._clusters.sample(T, rng)[:, self._assign]
