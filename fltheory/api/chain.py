"""The constants of an availability chain, as one record: what ``fltheory chain`` prints.

Which numbers are listed, the warnings and the hints ("use --exact") are decided here, once for
the Python API and the CLI; the chain classes only compute.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from fltheory import checks
from fltheory.api.record import Record
from fltheory.errors import InputError
from fltheory.markov.chain import MarkovChain
from fltheory.markov.clustered import ClusteredChain
from fltheory.markov.envelope import EmpiricalConstant, empirical_constant
from fltheory.markov.product import ProductChain
from fltheory.markov.protocol import AvailabilityChain, is_availability_chain

if TYPE_CHECKING:
    from fltheory.api.availability import AvailabilitySpec
from fltheory.markov.spectrum import (
    DEFAULT_MIX_EPS,
    MixingTimeBounds,
    mixing_time_bounds,
    relaxation_time,
)

#: The report lists the stationary law of structured chains up to this many states.
MAX_REPORTED_STATES = 4096
#: Most steps of the empirical envelope of a dense chain.
DEFAULT_T_MAX = 10_000
#: Flop budget of the empirical envelope (2M³ per step).
ENVELOPE_FLOPS = 2e10
#: Fewest steps of an empirical envelope worth computing.
MIN_ENVELOPE_STEPS = 10


@dataclass(frozen=True, eq=False)
class ChainReport(Record):
    """λ̄₂, λ(P), C_P, T_P and friends of one chain (CA-Fed Lemma 16: eqs. 5, 156, 157, 229;
    Appendix F), with the caveats as ``warnings``.

    ``method`` is "exact" or "dense" for a :class:`~fltheory.markov.MarkovChain` and
    "structured" for product and clustered chains. Dense chains add ``T_entrywise`` (where the
    proof's entrywise bound starts), ``jordan_blocks`` ((eigenvalue, size) pairs) and
    ``empirical`` (sup_{t ≥ T_P} E(t)/λ(P)ᵗ, E(t) = max_ij |[Pᵗ]_ij − ρ_j|); structured chains
    add ``hitting_time`` (max_k 1/((1 − λ_k)π_k), Section V-B(d)); clustered chains add the
    ``cluster_*`` fields. Fields that do not apply are None.

    >>> report = chain_report(ProductChain([0.9, 0.1], [0.5, 0.9]))
    >>> report.lam, report.T_P, report.n_states, report.warnings
    (0.95, 0, 4, ())
    """

    TITLE = "availability chain (CA-Fed Lemma 16, Appendix F)"

    n_clients: int | None
    n_states: int | None
    log_n_states: float
    stationary: np.ndarray | None
    client_availability: np.ndarray | None
    slem: float
    lam: float
    C_P: float | None
    log_C_P: float | None
    C_P_minimal: bool
    T_P: int
    T_P_safe: int
    relaxation_time: float
    mixing_time_bounds: MixingTimeBounds
    reversible: bool
    method: str
    warnings: tuple[str, ...]
    T_entrywise: int | None = None
    jordan_blocks: tuple[tuple[complex, int], ...] | None = None
    empirical: EmpiricalConstant | None = None
    hitting_time: float | None = None
    n_clusters: int | None = None
    cluster_availability: np.ndarray | None = None
    cluster_lambda2: np.ndarray | None = None
    cluster_of_client: np.ndarray | None = None

    @property
    def dense(self) -> bool:
        """True for a dense chain (``method`` "exact" or "dense").

        >>> chain_report(MarkovChain([[0.5, 0.5], [0.3, 0.7]])).dense
        True
        """
        return self.method != "structured"

    def to_dict(self) -> dict[str, Any]:
        """The ``fltheory chain --json`` object (arrays left as numpy for
        :func:`~fltheory.jsonable.to_jsonable`; ``lam`` is the key "lambda").

        >>> d = chain_report(MarkovChain([[0.5, 0.5], [0.3, 0.7]])).to_dict()
        >>> d["lambda"], d["T_entrywise"], d["jordan_blocks"][1]
        (0.6, 0, {'eigenvalue': [0.2, 0.0], 'size': 1})
        """
        bounds = self.mixing_time_bounds
        mixing: dict[str, Any] = {"eps": bounds.eps, "lower": bounds.lower, "upper": bounds.upper}
        head: dict[str, Any] = {
            "n_clients": self.n_clients,
            "n_states": self.n_states,
            "log_n_states": self.log_n_states,
            "stationary": self.stationary,
            "client_availability": self.client_availability,
            "slem": self.slem,
            "lambda": self.lam,
            "C_P": self.C_P,
            "log_C_P": self.log_C_P,
            "C_P_minimal": self.C_P_minimal,
            "T_P": self.T_P,
            "T_P_safe": self.T_P_safe,
        }
        if not self.dense:
            out = {
                **head,
                "jordan_blocks": None,
                "relaxation_time": self.relaxation_time,
                "mixing_time_bounds": mixing,
                "hitting_time": self.hitting_time,
                "method": self.method,
                "warnings": list(self.warnings),
            }
            if self.n_clusters is not None:
                out.update(
                    n_clusters=self.n_clusters,
                    cluster_availability=self.cluster_availability,
                    cluster_lambda2=self.cluster_lambda2,
                    cluster_of_client=self.cluster_of_client,
                )
            return out
        emp = self.empirical
        return {
            **head,
            "T_entrywise": self.T_entrywise,
            "jordan_blocks": [
                {"eigenvalue": [mu.real, mu.imag], "size": n} for mu, n in self.jordan_blocks or ()
            ],
            "relaxation_time": self.relaxation_time,
            "mixing_time_bounds": {**mixing, "upper_valid": bounds.reversible},
            "empirical_C_P": None if emp is None else emp.value,
            "empirical_C_P_range": None
            if emp is None
            else {
                "log_value": emp.log_value,
                "t_argmax": emp.t_argmax,
                "t_start": emp.t_start,
                "t_stop": emp.t_stop,
            },
            "reversible": self.reversible,
            "method": self.method,
            "warnings": list(self.warnings),
        }


def _overflow(log_C_P: float | None, C_P: float | None) -> list[str]:
    return [] if C_P is not None else [f"C_P overflows a double (ln C_P = {log_C_P:.6g})"]


def _dense_report(
    chain: MarkovChain, exact: bool | None, eps: float, t_max: int | None
) -> ChainReport:
    record = chain.lemma16(exact)
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
    warnings += _overflow(consts.log_C_P, consts.C_P)
    if not consts.C_P_minimal:
        warnings.append(
            "P has Jordan blocks of size >= 2: C_P uses the Jordan chain basis (valid for "
            "eq. 156, not minimised over bases)"
        )
    if consts.T_P < record.T_entrywise:
        warnings.append(
            f"T_P = {consts.T_P} (eq. 157) is below T_entrywise = {record.T_entrywise}, "
            "from which the entrywise step of the Lemma 16 proof holds; "
            f"T_P_safe = {consts.T_P_safe}"
        )
    # From the record's λ̄₂ (the exact path's, with exact=True), as C_P and T_P.
    bounds = mixing_time_bounds(
        consts.slem, float(chain.stationary.min()), eps=eps, reversible=chain.reversible
    )
    if not chain.reversible:
        warnings.append(
            "the mixing-time upper bound is proven for reversible chains only "
            "(Levin–Peres Thm 12.4); this chain is not reversible"
        )
    M = chain.n_states
    affordable = int(ENVELOPE_FLOPS / (2 * M**3))
    steps = min(DEFAULT_T_MAX if t_max is None else t_max, affordable)
    empirical: EmpiricalConstant | None = None
    if steps < MIN_ENVELOPE_STEPS:
        why = (
            f"M = {M} is too large for the envelope"
            if affordable < MIN_ENVELOPE_STEPS
            else f"t_max = {t_max} is below the {MIN_ENVELOPE_STEPS} steps it needs"
        )
        warnings.append(f"empirical C_P skipped: {why}")
    else:
        env = chain.envelope(steps)
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
                warnings.append(f"E(t) > C_P λ(P)^t at t = {emp.t_argmax}: eq. (5) fails from T_P")
    return ChainReport(
        n_clients=chain.n_clients,
        n_states=M,
        log_n_states=chain.log_n_states,
        stationary=chain.stationary,
        client_availability=chain.client_availability,
        slem=consts.slem,
        lam=consts.lam,
        C_P=consts.C_P,
        log_C_P=consts.log_C_P,
        C_P_minimal=consts.C_P_minimal,
        T_P=consts.T_P,
        T_P_safe=consts.T_P_safe,
        relaxation_time=relaxation_time(consts.slem),
        mixing_time_bounds=bounds,
        reversible=chain.reversible,
        method=consts.method,
        warnings=tuple(warnings),
        T_entrywise=record.T_entrywise,
        jordan_blocks=record.blocks,
        empirical=empirical,
    )


def _structured_report(chain: ProductChain | ClusteredChain, eps: float) -> ChainReport:
    consts = chain.constants()
    warnings: list[str] = []
    n_states = chain.n_states
    if n_states is None:
        warnings.append("M = 2^N exceeds 2^62: n_states omitted, use log_n_states")
    listed = n_states is not None and n_states <= MAX_REPORTED_STATES
    if not listed:
        warnings.append(f"stationary distribution not listed (M > {MAX_REPORTED_STATES})")
    warnings += _overflow(consts.log_C_P, consts.C_P)
    if not consts.C_P_minimal:
        warnings.append(
            "more than 12 factors: coincidences between products of different nonzero λ₂ "
            "values were not searched for, so C_P (valid for eq. 156) may exceed its minimum"
        )
    clusters: dict[str, Any] = {}
    if isinstance(chain, ClusteredChain):
        clusters = {
            "n_clusters": chain.cluster_chain.n_clients,
            "cluster_availability": chain.cluster_chain.client_availability,
            "cluster_lambda2": chain.cluster_chain.lambda2,
            "cluster_of_client": chain.assignment,
        }
    return ChainReport(
        n_clients=chain.n_clients,
        n_states=n_states,
        log_n_states=chain.log_n_states,
        stationary=chain.stationary if listed else None,
        client_availability=chain.client_availability,
        slem=consts.slem,
        lam=consts.lam,
        C_P=consts.C_P,
        log_C_P=consts.log_C_P,
        C_P_minimal=consts.C_P_minimal,
        T_P=consts.T_P,
        T_P_safe=consts.T_P_safe,
        relaxation_time=chain.relaxation_time,
        mixing_time_bounds=chain.mixing_time_bounds(eps),
        reversible=chain.reversible,
        method=consts.method,
        warnings=tuple(warnings),
        hitting_time=chain.hitting_time,
        **clusters,
    )


def chain_report(
    chain: "AvailabilityChain | AvailabilitySpec",
    exact: bool | None = None,
    *,
    eps: float = DEFAULT_MIX_EPS,
    t_max: int | None = None,
) -> ChainReport:
    """Every constant ``fltheory chain`` reports for ``chain`` (eqs. 5, 156, 157, 229).

    ``exact`` (dense chains) forces (True) or forbids (False) the exact sympy Jordan path;
    ``eps`` is the ε of the t_mix(ε) bounds; ``t_max`` (a positive integer, dense chains)
    caps the steps of the empirical envelope. Options that do not apply to the chain are
    refused, as the CLI refuses them. ``chain`` may also be an ``[availability]`` table (a
    dict) or a file (see :mod:`fltheory.api.availability`).

    >>> report = chain_report(MarkovChain([[0.5, 0.5], [0.3, 0.7]]))
    >>> report.slem, report.lam, round(report.C_P, 6), report.method
    (0.2, 0.6, 2.061553, 'dense')
    >>> round(chain_report(ProductChain([0.5, 0.3, 0.8], [0.0] * 3)).hitting_time, 6)
    3.333333
    >>> chain_report({"kind": "two_state", "pi": [0.9, 0.1], "lambda2": [0.5, 0.9]}).lam
    0.95
    """
    if not is_availability_chain(chain):
        from fltheory.api.availability import as_chain

        chain = as_chain(chain)
    if not isinstance(chain, MarkovChain | ProductChain | ClusteredChain):
        raise InputError(
            "chain must be a MarkovChain, ProductChain or ClusteredChain of fltheory.markov, "
            f"got {type(chain).__name__}"
        )
    if exact is not None:
        exact = checks.boolean(exact, "exact")
    if t_max is not None:
        t_max = checks.positive_integer(t_max, "t_max")
    if isinstance(chain, MarkovChain):
        return _dense_report(chain, exact, eps, t_max)
    for name, value in (("exact", exact), ("t_max", t_max)):
        if value is not None:  # as the CLI refuses --exact for chains that are not matrices
            raise InputError(
                f"{name} applies to dense chains (MarkovChain); the constants of a "
                f"{type(chain).__name__} are closed-form"
            )
    return _structured_report(chain, eps)
