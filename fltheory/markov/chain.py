"""A dense finite availability chain (CA-Fed ToN Section II-A, Assumption 1, Lemma 16).

:class:`MarkovChain` holds a transition matrix P over M states and, optionally, which clients
are available in each state. It validates Assumption 1 on construction and computes ρ (GTH),
π_k = Σ_a ρ_a 1{k ∈ a} (Appendix B, eq. 170), λ̄₂ and λ(P) (eq. 229), the Lemma 16 constants
(eqs. 156–157), the Appendix F1 mixing-time bounds and the empirical envelope of eq. (5). It
implements :class:`~fltheory.markov.protocol.AvailabilityChain`.
"""

from __future__ import annotations

import math
import operator
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from fltheory.errors import InputError
from fltheory.markov.constants import ChainConstants
from fltheory.markov.envelope import EmpiricalConstant, Envelope, empirical_constant, envelope
from fltheory.markov.sampling import check_draw, run_inverse_cdf
from fltheory.markov.spectrum import (
    DEFAULT_MIX_EPS,
    MixingTimeBounds,
    is_reversible,
    mixing_time_bounds,
    nonunit_spectrum,
    relaxation_time,
    slem_from_spectrum,
)
from fltheory.markov.stationary import gth_stationary
from fltheory.markov.validate import (
    as_transition_matrix,
    check_assumption1,
    exclusion_mask,
    to_rational_matrix,
)
from fltheory.reprs import array_literal, call_literal

if TYPE_CHECKING:  # heavy (scipy, sympy, mpmath): imported where a method needs them
    from fltheory.markov.jordan import JordanData
    from fltheory.markov.lemma16 import Lemma16Record

#: Default last step of the empirical envelope (:meth:`MarkovChain.empirical_constant`).
DEFAULT_T_MAX = 10_000


def _state_map(clients: Any, M: int, n_clients: int | None) -> np.ndarray:
    """M×N boolean indicator of "client k is available in state a".

    ``clients`` is either a 2-D numpy array (an M×N 0/1 matrix) or, for any other sequence, one
    collection of client indices per state (so ``[[0, 1], [1]]`` means state 0 has clients 0
    and 1, never a 0/1 row).
    """
    if isinstance(clients, np.ndarray):
        if clients.ndim != 2 or clients.shape[0] != M:
            raise InputError(
                f"state→clients matrix must have shape (M={M}, N), got {clients.shape}"
            )
        if not np.isin(clients, (0, 1)).all():
            raise InputError("state→clients matrix must contain only 0 and 1")
        if n_clients is not None and n_clients != clients.shape[1]:
            raise InputError(
                f"state→clients matrix has {clients.shape[1]} columns, not {n_clients}"
            )
        return clients.astype(bool)
    sets = list(clients)
    if len(sets) != M:
        raise InputError(f"state→clients map lists {len(sets)} states, expected M = {M}")
    indices: list[list[int]] = []
    for a, members in enumerate(sets):
        try:
            idx = [operator.index(k) for k in members]
        except TypeError:
            raise InputError(
                f"state {a}: client indices must be integers, got {members!r}"
            ) from None
        if any(k < 0 for k in idx):
            raise InputError(f"state {a} lists a negative client index")
        indices.append(idx)
    N = max((max(i) + 1 for i in indices if i), default=0) if n_clients is None else n_clients
    S = np.zeros((M, N), dtype=bool)
    for a, idx in enumerate(indices):
        if any(k >= N for k in idx):
            raise InputError(f"state {a} lists client {max(idx)} but n_clients = {N}")
        S[a, idx] = True
    return S


class MarkovChain:
    """A dense chain: P (M×M, validated for Assumption 1) and an optional state→clients map.

    Args:
        P: transition matrix (array-like of floats).
        state_clients: per state, the collection of available client indices (a sequence), or
            an M×N 0/1 numpy array.
        n_clients: N, when the map is given as index collections (default: largest index + 1).
        atol: tolerance of the row sums and of [0, 1] (see :func:`as_transition_matrix`); it
            is also the lumpability tolerance of :meth:`exclude`.

    >>> chain = MarkovChain([[0.5, 0.5], [0.3, 0.7]], [[], [0]])
    >>> chain.stationary.round(6).tolist(), round(chain.slem, 12), chain.n_clients
    ([0.375, 0.625], 0.2, 1)
    """

    def __init__(
        self,
        P: Any,
        state_clients: Any = None,
        *,
        n_clients: int | None = None,
        atol: float = 1e-12,
    ) -> None:
        self._atol = float(atol)
        self._P = as_transition_matrix(P, atol=atol)
        check_assumption1(self._P)
        M = self._P.shape[0]
        self._S = None if state_clients is None else _state_map(state_clients, M, n_clients)
        self._rational: Any = None  # a sympy.Matrix of the exact entries, when given
        self._jordan: dict[bool | None, JordanData] = {}

    def __repr__(self) -> str:
        """Source that rebuilds the chain (pasteable from a failing property test); a chain
        built from exact entries is shown with them.

        >>> MarkovChain([[0.5, 0.5], [0.3, 0.7]], [[], [0]])
        MarkovChain(P=[[0.5, 0.5], [0.3, 0.7]], state_clients=[[], [0]], n_clients=1)
        >>> MarkovChain.from_rational([["1/3", "2/3"], ["1/2", "1/2"]])
        MarkovChain.from_rational([['1/3', '2/3'], ['1/2', '1/2']])
        """
        states = None
        if self._S is not None:
            states = repr([np.flatnonzero(row).tolist() for row in self._S])
        n = None if self._S is None else str(self._S.shape[1])
        if self._rational is not None:
            rows = [[str(x) for x in self._rational.row(i)] for i in range(self._rational.rows)]
            inner = call_literal("", [("state_clients", states), ("n_clients", n)])[1:-1]
            return f"MarkovChain.from_rational({rows!r}{', ' + inner if inner else ''})"
        return call_literal(
            "MarkovChain",
            [("P", array_literal(self._P)), ("state_clients", states), ("n_clients", n)],
        )

    @classmethod
    def from_rational(
        cls, rows: Any, state_clients: Any = None, *, n_clients: int | None = None
    ) -> MarkovChain:
        """A chain from exact entries (Fractions, ints, strings like "1/3"); M ≤ 12.

        >>> MarkovChain.from_rational([["1/3", "2/3"], ["1/2", "1/2"]]).constants(exact=True).slem
        0.16666666666666666
        """
        R = to_rational_matrix(rows)
        chain = cls(np.array(R.tolist(), dtype=np.float64), state_clients, n_clients=n_clients)
        chain._rational = R
        return chain

    # --- basic quantities ------------------------------------------------------------------
    @property
    def P(self) -> np.ndarray:
        """The validated transition matrix (a read-only view).

        >>> MarkovChain([[0.5, 0.5], [0.3, 0.7]]).P.flags.writeable
        False
        """
        view = self._P.view()
        view.flags.writeable = False
        return view

    @property
    def n_states(self) -> int:
        """M, the number of states.

        >>> MarkovChain([[0.5, 0.5], [0.3, 0.7]]).n_states
        2
        """
        return self._P.shape[0]

    @property
    def log_n_states(self) -> float:
        """ln M.

        >>> round(MarkovChain([[0.5, 0.5], [0.3, 0.7]]).log_n_states, 6)
        0.693147
        """
        return math.log(self.n_states)

    @property
    def n_clients(self) -> int | None:
        """N, or None without a state→clients map.

        >>> MarkovChain([[0.5, 0.5], [0.3, 0.7]]).n_clients is None
        True
        """
        return None if self._S is None else self._S.shape[1]

    @cached_property
    def stationary(self) -> np.ndarray:
        """ρ by GTH elimination.

        >>> MarkovChain([[0.5, 0.5], [0.3, 0.7]]).stationary.round(6).tolist()
        [0.375, 0.625]
        """
        return gth_stationary(self._P, atol=self._atol)

    @property
    def client_availability(self) -> np.ndarray | None:
        """π_k = Σ_a ρ_a 1{k ∈ a}, or None without a state→clients map.

        >>> MarkovChain([[0.5, 0.5], [0.3, 0.7]], [[0], [0, 1]]).client_availability.round(6)
        array([1.   , 0.625])
        """
        return None if self._S is None else self.stationary @ self._S

    @property
    def lambda2(self) -> None:
        """None: a dense chain defines no per-client second eigenvalue (see the protocol).

        >>> MarkovChain([[0.5, 0.5], [0.3, 0.7]]).lambda2 is None
        True
        """
        return None

    @cached_property
    def nonunit_spectrum(self) -> np.ndarray:
        """The M − 1 eigenvalues other than 1 (dense path, eigenvalue 1 deflated).

        >>> MarkovChain([[0.5, 0.5], [0.3, 0.7]]).nonunit_spectrum.real.round(12).tolist()
        [0.2]
        """
        return nonunit_spectrum(self._P, self.stationary)

    @property
    def slem(self) -> float:
        """λ̄₂(P), eq. (229); exactly 0.0 when P = 1ρᵀ up to rounding (see :mod:`.spectrum`).

        >>> MarkovChain([[0.3, 0.7], [0.3, 0.7]]).slem
        0.0
        """
        return slem_from_spectrum(self.nonunit_spectrum)

    @property
    def lam(self) -> float:
        """λ(P) = (λ̄₂ + 1)/2, eq. (229).

        >>> round(MarkovChain([[0.5, 0.5], [0.3, 0.7]]).lam, 12)
        0.6
        """
        return (self.slem + 1.0) / 2.0

    @property
    def relaxation_time(self) -> float:
        """t_rel = 1/(1 − λ̄₂) (Appendix F1).

        >>> round(MarkovChain([[0.5, 0.5], [0.3, 0.7]]).relaxation_time, 12)
        1.25
        """
        return relaxation_time(self.slem)

    @cached_property
    def reversible(self) -> bool:
        """Detailed balance ρ_i P_ij = ρ_j P_ji (every two-state chain is reversible).

        >>> MarkovChain([[0.5, 0.5], [0.3, 0.7]]).reversible
        True
        """
        return is_reversible(self._P, self.stationary)

    def mixing_time_bounds(self, eps: float = DEFAULT_MIX_EPS) -> MixingTimeBounds:
        """Appendix F1 bounds on t_mix(ε) (``reversible`` says whether the upper one holds).

        >>> b = MarkovChain([[0.5, 0.5], [0.3, 0.7]]).mixing_time_bounds()
        >>> round(b.lower, 6), round(b.upper, 6), b.reversible
        (0.173287, 2.958905, True)
        """
        return mixing_time_bounds(
            self.slem, float(self.stationary.min()), eps=eps, reversible=self.reversible
        )

    # --- Lemma 16 ---------------------------------------------------------------------------
    def _exact_input(self) -> Any:
        return self._P if self._rational is None else self._rational

    def jordan(self, exact: bool | None = None) -> JordanData:
        """Jordan data: exact path (True), dense only (False), dense with exact fallback (None).

        >>> [n for _, n in MarkovChain([[0.5, 0.5], [0.3, 0.7]]).jordan().blocks]
        [1, 1]
        """
        from fltheory.markov.jordan import exact_jordan, numeric_jordan

        if exact not in self._jordan:
            if exact:
                jd = exact_jordan(self._exact_input())
            else:
                jd = numeric_jordan(
                    self._P,
                    self.stationary,
                    fallback=exact is None,
                    rational=self._rational,
                )
            self._jordan[exact] = jd
        return self._jordan[exact]

    def lemma16(self, exact: bool | None = None) -> Lemma16Record:
        """ChainConstants plus T_entrywise and the Jordan blocks.

        >>> MarkovChain([[0.5, 0.5], [0.3, 0.7]]).lemma16().T_entrywise
        0
        """
        from fltheory.markov.lemma16 import lemma16_record

        return lemma16_record(self.jordan(exact))

    def constants(self, exact: bool | None = None) -> ChainConstants:
        """The record the bounds consume (eqs. 5, 156, 157, 229); ``exact`` as in :meth:`jordan`.

        >>> c = MarkovChain([[0.5, 0.5], [0.3, 0.7]]).constants()
        >>> round(c.lam, 12), c.T_P, c.method, c.C_P_minimal
        (0.6, 0, 'dense', True)
        """
        return self.lemma16(exact).constants

    # --- empirical side of eq. (5) ------------------------------------------------------------
    def envelope(self, t_max: int) -> Envelope:
        """E(t) = max_ij |[Pᵗ]_ij − ρ_j| for t = 0..t_max (stops at the noise floor).

        >>> MarkovChain([[0.5, 0.5], [0.3, 0.7]]).envelope(2).values.round(6).tolist()
        [0.625, 0.125, 0.025]
        """
        return envelope(self._P, t_max, rho=self.stationary)

    def empirical_constant(
        self, t_max: int = DEFAULT_T_MAX, t_start: int | None = None, exact: bool | None = None
    ) -> EmpiricalConstant | None:
        """sup_{t_start ≤ t ≤ t_stop} E(t)/λ(P)ᵗ; ``t_start`` defaults to T_P (eq. 157).

        >>> round(MarkovChain([[0.5, 0.5], [0.3, 0.7]]).empirical_constant(50).value, 6)
        0.625
        """
        consts = self.constants(exact)
        start = consts.T_P if t_start is None else t_start
        return empirical_constant(self.envelope(t_max), consts.lam, start)

    # --- state map, dense forms ---------------------------------------------------------------
    def _state_map(self, what: str) -> np.ndarray:
        if self._S is None:
            raise InputError(f"{what} needs a state→clients map; this chain has none")
        return self._S

    def state_clients(self) -> np.ndarray:
        """M×N 0/1 matrix: entry (a, k) = 1 iff client k is active in state a.

        >>> MarkovChain([[0.5, 0.5], [0.3, 0.7]], [[1], [0, 1]]).state_clients().tolist()
        [[0, 1], [1, 1]]
        """
        return self._state_map("state_clients()").astype(np.int8)

    def dense_matrix(self) -> np.ndarray:
        """P as a (writable) M×M array.

        >>> MarkovChain([[0.5, 0.5], [0.3, 0.7]]).dense_matrix().tolist()
        [[0.5, 0.5], [0.3, 0.7]]
        """
        return self._P.copy()

    def dense(self) -> MarkovChain:
        """This chain itself (the protocol's dense form).

        >>> chain = MarkovChain([[0.5, 0.5], [0.3, 0.7]])
        >>> chain.dense() is chain
        True
        """
        return self

    def kronecker_factors(self) -> tuple[np.ndarray, ...]:
        """(P,): a dense chain is its own only Kronecker factor.

        >>> len(MarkovChain([[0.5, 0.5], [0.3, 0.7]]).kronecker_factors())
        1
        """
        return (self._P.copy(),)

    # --- Guideline B --------------------------------------------------------------------------
    def exclude(self, excluded: Any) -> MarkovChain:
        """P′: the chain of the remaining clients' active set (Section III-D, Guideline B).

        ``excluded`` is a bool mask (True = drop) or client indices. The remaining clients'
        active set is a function of the state; it is a Markov chain (for every initial law)
        iff P is strongly lumpable with respect to the partition of the states by that set:
        Σ_{b∈B′} P_ab must be the same for all states a of one block B, for every block B′.
        Then P′_{BB′} is that common value. Lumpability is checked up to ``atol`` (the row-sum
        tolerance, 1e-12 by default; a product chain's dense form lumps to a few ε_mach);
        otherwise InputError: the remaining clients' availability is not a Markov chain (the
        paper's Guideline B assumes independent clients). The blocks keep the order of their
        first state; the remaining clients are renumbered 0..N′−1 in their original order.

        >>> from fltheory.markov import ProductChain
        >>> full = ProductChain([0.5, 0.3], [0.2, 0.6]).dense()
        >>> reduced = full.exclude([0])
        >>> reduced.n_states, round(reduced.slem, 12), reduced.state_clients().tolist()
        (2, 0.6, [[0], [1]])
        """
        S = self._state_map("exclude()")
        keep = ~exclusion_mask(excluded, S.shape[1])
        if not keep.any():
            raise InputError("cannot exclude every client: the reduced chain would be empty")
        keys = S[:, keep]
        _, first, block = np.unique(keys, axis=0, return_index=True, return_inverse=True)
        order = np.argsort(first)
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        block = rank[np.ravel(block)]
        members = np.zeros((self.n_states, order.size))
        members[np.arange(self.n_states), block] = 1.0
        into = self._P @ members  # into[a, B′] = Σ_{b ∈ B′} P_ab
        representatives = first[order]
        lumped = into[representatives]
        deviation = float(np.max(np.abs(into - lumped[block])))
        if deviation > self._atol:
            raise InputError(
                "the remaining clients' availability is not a Markov chain: P is not lumpable "
                f"by their active sets (rows differ by {deviation:.3g}); the paper's "
                "Guideline B assumes independent clients"
            )
        return MarkovChain(lumped, keys[representatives].astype(np.int8), atol=self._atol)

    # --- sampling -------------------------------------------------------------------------------
    def sample_states(self, T: int, rng: np.random.Generator) -> np.ndarray:
        """(T,) state indices from ρ, one uniform per round (``rng.random(T)``, inverse CDF).

        >>> MarkovChain([[0.5, 0.5], [0.1, 0.9]]).sample_states(4, np.random.default_rng(0))
        array([1, 1, 0, 0])
        """
        T = check_draw(T, rng)
        return run_inverse_cdf(rng.random(T), self._P, self.stationary)

    def sample(self, T: int, rng: np.random.Generator) -> np.ndarray:
        """(T, N) boolean trace: the active sets of :meth:`sample_states` (needs a state map).

        >>> chain = MarkovChain([[0.5, 0.5], [0.1, 0.9]], [[], [0]])
        >>> chain.sample(3, np.random.default_rng(0)).tolist()
        [[True], [True], [False]]
        """
        S = self._state_map("sample()")
        return S[self.sample_states(T, rng)]
