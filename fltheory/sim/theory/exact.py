"""The exact limits lim E[w_t] of a configured comparison, before it runs.

A comparison has known limits when its problem is quadratic, F_k(w) = ½(w − u_k)ᵀH_k(w − u_k)
(``quadratic``, ``fedpbc_quadratic``), and its availability is one whose law the limits take:
independent links with fixed p_i (``bernoulli``; ``uniform_noise``, whose links are Bernoulli(p_i)
marginally and independent across clients and rounds) or a stationary Markov chain (any process
with an :class:`~fltheory.markov.AvailabilityChain` as ``chain``: ``two_state``, ``clients_csv``,
``ca_fed``, ``clustered``, ``finite_chain``, …). Anything else is refused in one line
(:func:`plan_theory`). Per algorithm, :mod:`~fltheory.sim.theory.rules` gives the rule; the
limit is then computed by

* H_k = I: :func:`~fltheory.limits.bernoulli_limit` (FedPBC Proposition 1 and its extension to
  CA-Fed eq. 3) or :func:`~fltheory.limits.chain_limit` (the stationary solve under Markov
  availability); FedPBC by :func:`~fltheory.limits.fedpbc_limit`;
* general H_k: :func:`~fltheory.limits.bernoulli_quadratic_limit` or
  :func:`~fltheory.limits.markov_quadratic_limit` (dense P, M·d ≤ 2048 unknowns).

The limits assume what the simulator does with its defaults: constant local learning rate η, E
exact local steps, server step η̄ without momentum, weight decay or projection, and the oracle
π for the rules that divide by it; any other setting makes the algorithm "no known limit", with
the reason.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from fltheory.errors import AssumptionViolation, FLTheoryError, InputError
from fltheory.limits.aggregation import Aggregation, bernoulli_limit
from fltheory.limits.fedpbc import fedpbc_limit
from fltheory.limits.markov import chain_limit
from fltheory.limits.quadratic import (
    MAX_MARKOV_UNKNOWNS,
    bernoulli_quadratic_limit,
    markov_quadratic_limit,
)
from fltheory.markov.protocol import AvailabilityChain
from fltheory.sim.availability import BernoulliLinks, ChainBacked, UniformNoiseLinks
from fltheory.sim.problems import QuadraticSim
from fltheory.sim.settings import AlgorithmSpec, SimSettings
from fltheory.sim.theory.rules import LimitRule, RuleContext, limit_rule

#: The statuses of an algorithm: a limit to compare with, none known, or none at all.
KNOWN, NO_KNOWN_LIMIT, NO_LIMIT = "known", "no known limit", "no limit"


@dataclass(frozen=True)
class AvailabilityLaw:
    """Independent Bernoulli links with probabilities ``p``, or a stationary ``chain``.

    >>> availability_law(BernoulliLinks(np.array([0.5, 0.9]))).p.tolist()
    [0.5, 0.9]
    """

    description: str
    p: np.ndarray | None = None
    chain: AvailabilityChain | None = None


def _links(process: Any) -> AvailabilityLaw:
    return AvailabilityLaw("independent Bernoulli links", p=np.asarray(process.p, dtype=float))


def _noisy_links(process: Any) -> AvailabilityLaw:
    return AvailabilityLaw(
        "links with p_i + U(−a, a): Bernoulli(p_i), independent", p=np.asarray(process.p)
    )


#: Availability processes by type → their law (other processes: their ``chain``, if any).
LAWS: dict[type, Callable[[Any], AvailabilityLaw]] = {
    BernoulliLinks: _links,
    UniformNoiseLinks: _noisy_links,
}


def availability_law(process: Any) -> AvailabilityLaw | None:
    """The law of a simulator availability process, or None when no limit takes it.

    >>> from fltheory.sim.availability import TwoStateChains
    >>> availability_law(TwoStateChains([0.9, 0.2], [0.5, 0.0])).description
    'stationary Markov chain (ProductChain, 4 states)'
    """
    make = LAWS.get(type(process))
    if make is not None:
        return make(process)
    chain = process.chain if isinstance(process, ChainBacked) else None
    if isinstance(chain, AvailabilityChain):
        states = chain.n_states
        size = f"{states} states" if states is not None else f"e^{chain.log_n_states:.0f} states"
        return AvailabilityLaw(
            f"stationary Markov chain ({type(chain).__name__}, {size})", chain=chain
        )
    return None


@dataclass(frozen=True)
class ExactLimit:
    """lim E[w_t] of one model of an algorithm (``server``, or FedPBC's ``client_mean``), the
    library function that computed it, and the contraction rate of the mean recursion
    (E[w_t] − limit = O(rate^t))."""

    model: str
    limit: np.ndarray
    function: str
    method: str
    rate: float
    #: F(limit) − F(w*), the excess of the target objective (eq. 1) at the limit.
    objective_gap: float = math.nan


@dataclass(frozen=True)
class AlgorithmTheory:
    """What the theory says about one configured algorithm: its ``status`` (:data:`KNOWN`,
    :data:`NO_KNOWN_LIMIT` or :data:`NO_LIMIT`), its rule in words, why there is no limit
    (``reason``), and its exact limits."""

    label: str
    algorithm: str
    status: str
    rule: str
    reason: str
    limits: tuple[ExactLimit, ...] = ()


@dataclass(frozen=True)
class TheoryPlan:
    """The exact limits of every algorithm of a comparison, the target optimum w* (the
    minimiser of F = Σ_k α_k F_k, eq. 1) and the start w0 (0 for every quadratic problem, as
    :class:`~fltheory.sim.compare.Setup` starts them), from :func:`plan_theory`.

    >>> plan = TheoryPlan(np.array([0.5]), "independent Bernoulli links", (), np.zeros(1))
    >>> plan.optimum.tolist(), plan.start.tolist(), plan.algorithms
    ([0.5], [0.0], ())
    """

    optimum: np.ndarray
    availability: str
    algorithms: tuple[AlgorithmTheory, ...]
    start: np.ndarray


def _kind(cfg: Any, table: str, fallback: object) -> str:
    kind = (cfg.resolved or cfg.raw).get(table, {}).get("kind")
    return str(kind) if kind is not None else type(fallback).__name__


def _hessians(problem: QuadraticSim) -> np.ndarray | None:
    """H_k as (N, d, d) matrices, or None for H_k = I."""
    if problem.hess is None:
        return None
    h = np.asarray(problem.hess, dtype=float)
    if h.ndim == 2:  # diagonals
        return np.stack([np.diag(row) for row in h])
    return np.asarray(0.5 * (h + h.transpose(0, 2, 1)))


def _obstacle(spec: AlgorithmSpec, settings: SimSettings) -> str | None:
    """Why the limits do not describe this algorithm's run (None: they do)."""
    server = spec.server
    checks = (
        (spec.schedule.kind != "constant", f"the learning rate decays ({spec.schedule.kind})"),
        (server.momentum != 0.0, f"server momentum {server.momentum:g}"),
        (server.weight_decay != 0.0, f"server weight decay {server.weight_decay:g}"),
        (server.diameter is not None, "projection onto the ball W (diameter)"),
        (settings.local_momentum != 0.0, "local SGD momentum"),
        (settings.local_weight_decay != 0.0, "local weight decay"),
        (
            spec.estimator != "oracle" and spec.algorithm.needs_pi,
            f"π estimated online (estimator = {spec.estimator!r})",
        ),
    )
    found = [why for hit, why in checks if hit]
    if not found:
        return None
    return "the limits assume none of: " + ", ".join(found)


def _aggregation_limit(
    agg: Aggregation,
    law: AvailabilityLaw,
    u: np.ndarray,
    hess: np.ndarray | None,
    lr: float,
    steps: int,
) -> ExactLimit:
    if hess is None and law.p is not None:
        res, fn = bernoulli_limit(law.p, u, agg, lr=lr, local_steps=steps), "bernoulli_limit"
    elif hess is None:
        assert law.chain is not None
        res = chain_limit(law.chain, u, agg, lr=lr, local_steps=steps, second_moment=False)
        fn = "chain_limit"
    elif law.p is not None:
        res = bernoulli_quadratic_limit(law.p, hess, u, agg, lr=lr, local_steps=steps)
        fn = "bernoulli_quadratic_limit"
    else:
        chain = law.chain
        assert chain is not None
        states = chain.n_states
        if states is None or states * u.shape[1] > MAX_MARKOV_UNKNOWNS:
            raise InputError(
                f"general Hessians under a chain of {states or 'too many'} states need a dense "
                f"solve of M·d > {MAX_MARKOV_UNKNOWNS} unknowns"
            )
        res = markov_quadratic_limit(
            chain.dense_matrix(), chain.state_clients(), hess, u, agg, lr=lr, local_steps=steps
        )
        fn = "markov_quadratic_limit"
    return ExactLimit("server", res.limit, f"fltheory.limits.{fn}", res.method, res.rate)


def _fedpbc_limits(
    law: AvailabilityLaw, u: np.ndarray, hess: np.ndarray | None, lr: float, steps: int
) -> tuple[ExactLimit, ...]:
    if law.p is None:
        raise InputError("fedpbc_limit covers independent Bernoulli links, not Markov chains")
    if hess is not None:
        raise InputError("fedpbc_limit covers isotropic quadratics (H_k = I)")
    res = fedpbc_limit(law.p, u, lr=lr, local_steps=steps)
    fn = "fltheory.limits.fedpbc_limit"
    return (
        ExactLimit("server", res.server, fn, "FedPBC, Bernoulli links: stationary server mean",
                   res.rate),
        ExactLimit("client_mean", res.average, fn,
                   "FedPBC: mean of the client models → mean of the u_k", res.rate),
    )  # fmt: skip


def objective(problem: QuadraticSim, hess: np.ndarray | None, x: np.ndarray) -> float:
    """F(x) = ½ Σ_k α_k (x − u_k)ᵀH_k(x − u_k) (eq. 1).

    >>> objective(QuadraticSim(np.array([[0.0], [2.0]]), np.full(2, 0.5)), None, np.zeros(1))
    1.0
    """
    diff = x[None, :] - np.asarray(problem.u, dtype=float)
    quad = (diff * diff).sum(-1) if hess is None else np.einsum("ki,kij,kj->k", diff, hess, diff)
    return float(0.5 * problem.alpha @ quad)


def _algorithm_theory(
    spec: AlgorithmSpec, cfg: Any, law: AvailabilityLaw, hess: np.ndarray | None
) -> AlgorithmTheory:
    problem: QuadraticSim = cfg.problem
    name = spec.algorithm.name
    obstacle = _obstacle(spec, cfg.settings)
    if obstacle is not None:
        return AlgorithmTheory(spec.label, name, NO_KNOWN_LIMIT, "", obstacle)
    ctx = RuleContext(
        problem.n_clients,
        problem.alpha,
        np.asarray(cfg.process.pi, dtype=float),
        spec.server.lr,
    )
    rule: LimitRule | str = limit_rule(spec.algorithm, ctx)
    if isinstance(rule, str):
        return AlgorithmTheory(spec.label, name, NO_KNOWN_LIMIT, "", rule)
    lr, steps = spec.schedule.lr, cfg.settings.local_steps
    u = np.asarray(problem.u, dtype=float)
    try:
        if rule.fedpbc:
            limits = _fedpbc_limits(law, u, hess, lr, steps)
        else:
            assert rule.aggregation is not None
            limits = (_aggregation_limit(rule.aggregation, law, u, hess, lr, steps),)
    except AssumptionViolation as exc:
        return AlgorithmTheory(spec.label, name, NO_LIMIT, rule.rule, str(exc))
    except FLTheoryError as exc:
        return AlgorithmTheory(spec.label, name, NO_KNOWN_LIMIT, rule.rule, str(exc))
    best = objective(problem, hess, np.asarray(problem.w_star, dtype=float))
    limits = tuple(
        replace(lim, objective_gap=max(objective(problem, hess, lim.limit) - best, 0.0))
        for lim in limits
    )
    return AlgorithmTheory(spec.label, name, KNOWN, rule.rule, "", limits)


def plan_theory(cfg: Any) -> TheoryPlan:
    """The exact limits of a parsed configuration (:class:`~fltheory.sim.config.SimConfig`);
    InputError (one line) when its problem or availability has no known limit.

    >>> from fltheory.sim.config import build
    >>> cfg = build({"run": {"rounds": 2}, "device": "cpu",
    ...              "problem": {"kind": "quadratic", "u": [[0.0], [1.0]]},
    ...              "availability": {"kind": "bernoulli", "p": [0.5, 1.0]},
    ...              "algorithms": [{"name": "fedavg"}, {"name": "mifa"}]})
    >>> plan = plan_theory(cfg)
    >>> [(a.label, a.status) for a in plan.algorithms], plan.optimum.tolist()
    ([('fedavg', 'known'), ('mifa', 'no known limit')], [0.5])
    >>> plan.algorithms[0].limits[0].limit.round(12).tolist()  # FedPBC Proposition 1
    [0.75]
    """
    problem = cfg.problem
    if not isinstance(problem, QuadraticSim):
        raise InputError(
            f"no limit is known for problem kind {_kind(cfg, 'problem', problem)!r}: exact "
            "limits need a quadratic problem (kind = 'quadratic' or 'fedpbc_quadratic')"
        )
    law = availability_law(cfg.process)
    if law is None:
        raise InputError(
            f"no limit is known for availability kind {_kind(cfg, 'availability', cfg.process)!r}"
            ": exact limits need independent links with fixed p (bernoulli, uniform_noise) or "
            "a stationary Markov chain (two_state, clients_csv, ca_fed, clustered, finite_chain)"
        )
    hess = _hessians(problem)
    algorithms = tuple(_algorithm_theory(spec, cfg, law, hess) for spec in cfg.specs)
    optimum = np.asarray(problem.w_star, dtype=float)
    return TheoryPlan(optimum, law.description, algorithms, np.zeros_like(optimum))
