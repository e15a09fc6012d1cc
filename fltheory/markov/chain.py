"""A dense finite availability chain (CA-Fed ToN Section II-A, Assumption 1, Lemma 16).

:class:`MarkovChain` holds a transition matrix P over M states and, optionally, which clients
are available in each state. It validates Assumption 1 on construction and computes ρ (GTH),
π_k = Σ_a ρ_a 1{k ∈ a} (Appendix B, eq. 170), λ̄₂ and λ(P) (eq. 229), the Lemma 16 constants
(eqs. 156–157), the Appendix F1 mixing-time bounds and the empirical envelope of eq. (5).
"""

import math
import operator
from functools import cached_property
from typing import Any

import numpy as np
import sympy

from fltheory.errors import InputError
from fltheory.markov.constants import ChainConstants
from fltheory.markov.envelope import EmpiricalConstant, Envelope, empirical_constant, envelope
from fltheory.markov.jordan import JordanData, exact_jordan, numeric_jordan
from fltheory.markov.lemma16 import Lemma16Record, lemma16_record
from fltheory.markov.spectrum import (
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
    to_rational_matrix,
)

#: Default ε of the mixing-time bounds (t_mix = t_mix(1/4) in Levin–Peres).
DEFAULT_MIX_EPS = 0.25
#: Most steps of the empirical envelope in ``report()``.
DEFAULT_T_MAX = 10_000
#: Flop budget of the empirical envelope in ``report()`` (2M³ per step).
ENVELOPE_FLOPS = 2e10


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
        atol: tolerance of the row sums and of [0, 1] (see :func:`as_transition_matrix`).
    """

    def __init__(
        self,
        P: Any,
        state_clients: Any = None,
        *,
        n_clients: int | None = None,
        atol: float = 1e-12,
    ) -> None:
        self._P = as_transition_matrix(P, atol=atol)
        check_assumption1(self._P)
        M = self._P.shape[0]
        self._S = None if state_clients is None else _state_map(state_clients, M, n_clients)
        self._rational: sympy.Matrix | None = None
        self._jordan: dict[bool | None, JordanData] = {}

    @classmethod
    def from_rational(
        cls, rows: Any, state_clients: Any = None, *, n_clients: int | None = None
    ) -> "MarkovChain":
        """A chain from exact entries (Fractions, ints, strings like "1/3"); M ≤ 12."""
        R = to_rational_matrix(rows)
        chain = cls(np.array(R.tolist(), dtype=np.float64), state_clients, n_clients=n_clients)
        chain._rational = R
        return chain

    # --- basic quantities ------------------------------------------------------------------
    @property
    def P(self) -> np.ndarray:
        """The validated transition matrix (a read-only view)."""
        view = self._P.view()
        view.flags.writeable = False
        return view

    @property
    def n_states(self) -> int:
        return self._P.shape[0]

    @property
    def n_clients(self) -> int | None:
        return None if self._S is None else self._S.shape[1]

    @cached_property
    def stationary(self) -> np.ndarray:
        """ρ by GTH elimination."""
        return gth_stationary(self._P)

    @property
    def client_availability(self) -> np.ndarray | None:
        """π_k = Σ_a ρ_a 1{k ∈ a}, or None without a state→clients map."""
        return None if self._S is None else self.stationary @ self._S

    @cached_property
    def nonunit_spectrum(self) -> np.ndarray:
        """The M − 1 eigenvalues other than 1 (dense path, eigenvalue 1 deflated)."""
        return nonunit_spectrum(self._P, self.stationary)

    @property
    def slem(self) -> float:
        """λ̄₂(P), eq. (229)."""
        return slem_from_spectrum(self.nonunit_spectrum)

    @property
    def lam(self) -> float:
        """λ(P) = (λ̄₂ + 1)/2, eq. (229)."""
        return (self.slem + 1.0) / 2.0

    @property
    def relaxation_time(self) -> float:
        return relaxation_time(self.slem)

    @cached_property
    def reversible(self) -> bool:
        return is_reversible(self._P, self.stationary)

    def mixing_time_bounds(self, eps: float = DEFAULT_MIX_EPS) -> MixingTimeBounds:
        """Appendix F1 bounds on t_mix(ε) (upper bound flagged when P is not reversible)."""
        return mixing_time_bounds(
            self.slem, float(self.stationary.min()), eps=eps, reversible=self.reversible
        )

    # --- Lemma 16 ---------------------------------------------------------------------------
    def _exact_input(self) -> Any:
        return self._P if self._rational is None else self._rational

    def jordan(self, exact: bool | None = None) -> JordanData:
        """Jordan data: exact path (True), dense only (False), dense with exact fallback (None)."""
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
        """ChainConstants plus T_entrywise and the Jordan blocks."""
        return lemma16_record(self.jordan(exact))

    def constants(self, exact: bool | None = None) -> ChainConstants:
        """The record the bounds consume (eqs. 5, 156, 157, 229)."""
        return self.lemma16(exact).constants

    # --- empirical side of eq. (5) ------------------------------------------------------------
    def envelope(self, t_max: int) -> Envelope:
        """E(t) = max_ij |[Pᵗ]_ij − ρ_j| for t = 0..t_max (stops at the noise floor)."""
        return envelope(self._P, t_max, rho=self.stationary)

    def empirical_constant(
        self, t_max: int = DEFAULT_T_MAX, t_start: int | None = None, exact: bool | None = None
    ) -> EmpiricalConstant | None:
        """sup_{t_start ≤ t ≤ t_stop} E(t)/λ(P)ᵗ; ``t_start`` defaults to T_P (eq. 157)."""
        consts = self.constants(exact)
        start = consts.T_P if t_start is None else t_start
        return empirical_constant(self.envelope(t_max), consts.lam, start)

    # --- report -------------------------------------------------------------------------------
    def report(
        self, exact: bool | None = None, eps: float = DEFAULT_MIX_EPS, t_max: int | None = None
    ) -> dict[str, Any]:
        """Everything the CLI prints for a dense chain (arrays are numpy; see ``to_jsonable``)."""
        record = self.lemma16(exact)
        consts = record.constants
        warnings: list[str] = []
        fallback = record.diagnostics.get("fallback_reason")
        if fallback:
            warnings.append(f"dense eigenbasis rejected ({fallback}); used the exact path")
        for cluster in record.diagnostics.get("clusters", []):
            if cluster["spread"] > 0.0:
                warnings.append(
                    f"{cluster['multiplicity']} eigenvalues within {cluster['spread']:.1e} of "
                    f"{complex(cluster['eigenvalue']):.6g} were taken as one repeated eigenvalue; "
                    "if they are in fact distinct, eq. 156 gives a larger C_P (use --exact)"
                )
        if consts.C_P is None:
            warnings.append(f"C_P overflows a double (ln C_P = {consts.log_C_P:.6g})")
        if consts.T_P < record.T_entrywise:
            warnings.append(
                f"T_P = {consts.T_P} (eq. 157) is below T_entrywise = {record.T_entrywise}, "
                "from which the entrywise step of the Lemma 16 proof holds; "
                f"T_P_safe = {consts.T_P_safe}"
            )
        t_rel = relaxation_time(consts.slem)
        bounds = mixing_time_bounds(
            consts.slem, float(self.stationary.min()), eps=eps, reversible=self.reversible
        )
        if not self.reversible:
            warnings.append(
                "the mixing-time upper bound is proven for reversible chains only "
                "(Levin–Peres Thm 12.4); this chain is not reversible"
            )
        M = self.n_states
        steps = min(DEFAULT_T_MAX if t_max is None else t_max, int(ENVELOPE_FLOPS / (2 * M**3)))
        empirical: EmpiricalConstant | None = None
        if steps < 10:
            warnings.append(f"empirical C_P skipped: M = {M} is too large for the envelope")
        else:
            env = self.envelope(steps)
            emp = empirical_constant(env, consts.lam, consts.T_P)
            if not env.reached_floor:
                warnings.append(
                    f"envelope stopped at t = {env.t_stop} before E(t) reached the noise floor; "
                    "empirical C_P is a lower bound of the supremum"
                )
            if emp is None:
                warnings.append(f"empirical C_P undefined: T_P = {consts.T_P} > t_stop")
            else:
                empirical = emp
                if consts.log_C_P is not None and emp.log_value > consts.log_C_P:
                    warnings.append(
                        f"E(t) > C_P λ(P)^t at t = {emp.t_argmax}: eq. (5) fails from T_P"
                    )
        return {
            "n_clients": self.n_clients,
            "n_states": M,
            "log_n_states": math.log(M),
            "stationary": self.stationary,
            "client_availability": self.client_availability,
            "slem": consts.slem,
            "lambda": consts.lam,
            "C_P": consts.C_P,
            "log_C_P": consts.log_C_P,
            "T_P": consts.T_P,
            "T_P_safe": consts.T_P_safe,
            "T_entrywise": record.T_entrywise,
            "jordan_blocks": [
                {"eigenvalue": [mu.real, mu.imag], "size": n} for mu, n in record.blocks
            ],
            "relaxation_time": t_rel,
            "mixing_time_bounds": {
                "eps": bounds.eps,
                "lower": bounds.lower,
                "upper": bounds.upper,
                "upper_valid": bounds.reversible,
            },
            "empirical_C_P": None if empirical is None else empirical.value,
            "empirical_C_P_range": None
            if empirical is None
            else {
                "log_value": empirical.log_value,
                "t_argmax": empirical.t_argmax,
                "t_start": empirical.t_start,
                "t_stop": empirical.t_stop,
            },
            "reversible": self.reversible,
            "method": consts.method,
            "warnings": warnings,
        }
