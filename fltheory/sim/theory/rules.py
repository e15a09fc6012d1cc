"""Which simulator rule converges to which exact limit of :mod:`fltheory.limits`.

The simulator's weight rules (:mod:`fltheory.sim.algorithms`) are the server step of CA-Fed ToN
eq. (3), w ← w + η̄ Σ_{k∈A_t} c_k(A_t) Δ_k, with coefficients c_k(A) that depend only on the
active set A (and on the oracle π): exactly the rules :class:`~fltheory.limits.Aggregation`
describes, unnormalised (c_k = q_k) or normalised (c_k = q_k / Σ_{j∈A} q_j, the model kept when
that sum is 0). Each entry of :data:`LIMIT_RULES` maps one algorithm (its registry name) onto its
:class:`Aggregation`, or onto FedPBC's own limit (FedPBC paper, Algorithm 2 and Section IV);
``docs/theory_vs_simulation.md`` tabulates them.

A rule is a function ``(algorithm, RuleContext) → LimitRule | str`` (a string: why there is no
known limit for these parameters) registered with :func:`register_limit_rule`, so an algorithm
defined outside the package can declare its limit the same way. Algorithms whose weights depend
on the model, the losses or their own memory (CA-Fed, F3AST, FedAR, MIFA, FedVARP, SCAFFOLD) have
no entry: :data:`NO_LIMIT` says why, and :func:`limit_rule` returns that reason.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from fltheory.limits.aggregation import Aggregation
from fltheory.sim.algorithms.base import Algorithm
from fltheory.sim.algorithms.fedavg_uniform import FedAvgUniform
from fltheory.sim.algorithms.more_available import MoreAvailable
from fltheory.sim.algorithms.sampled import FedAvgSampled


@dataclass(frozen=True)
class RuleContext:
    """What a rule may depend on: N, the target weights α (eq. 1, summing to 1), the oracle
    availability π the server knows, and the server learning rate η̄.

    >>> RuleContext(2, np.array([0.5, 0.5]), np.array([0.5, 1.0]), 1.0).n_clients
    2
    """

    n_clients: int
    alpha: np.ndarray
    pi: np.ndarray
    server_lr: float


@dataclass(frozen=True)
class LimitRule:
    """A configured algorithm's limit: CA-Fed eq. (3) with ``aggregation``, or FedPBC's own
    stationary means (``fedpbc``: the server model and the mean of the client models).

    >>> LimitRule("1/|A|", Aggregation()).fedpbc
    False
    """

    rule: str
    aggregation: Aggregation | None = None
    fedpbc: bool = False


RuleFn = Callable[[Algorithm, RuleContext], "LimitRule | str"]
F = TypeVar("F", bound=RuleFn)


#: The library functions computing the limit of a rule of CA-Fed eq. (3) (an Aggregation).
AGGREGATION_FUNCTIONS = (
    "H = I: `bernoulli_limit` (Bernoulli links), `chain_limit` (Markov); general H: "
    "`bernoulli_quadratic_limit`, `markov_quadratic_limit`"
)


@dataclass(frozen=True)
class RuleEntry:
    """One registered rule: the function and, for the docs table, the rule, its limit and the
    library functions computing it, in words."""

    name: str
    fn: RuleFn
    rule: str
    limit: str
    functions: str = AGGREGATION_FUNCTIONS


#: Algorithm name → its rule (see :func:`register_limit_rule`).
LIMIT_RULES: dict[str, RuleEntry] = {}

#: Algorithms of the package without a known limit, and why.
NO_LIMIT: dict[str, str] = {
    "ca_fed": "its weights depend on the reported losses and their running minima (eq. 20)",
    "f3ast": "its weights depend on participation rates it updates every round",
    "f3ast_code": "its coefficients (the top K by α²/r², r = (1 − β)π + β·1{k∈A}) are not a "
    "fixed q, plain or normalised",
    "fedar": "it reuses stale updates rectified by their age (a memory of past models)",
    "mifa": "it reuses every client's latest update (a memory of past models)",
    "fedvarp": "it reuses stored updates for variance reduction (a memory of past models)",
    "scaffold": "its control variates change the local steps (a memory of past updates)",
}


def register_limit_rule(
    name: str, *, rule: str, limit: str, functions: str = AGGREGATION_FUNCTIONS
) -> Callable[[F], F]:
    """Decorator: declare that algorithm ``name`` converges to the limit ``fn`` returns
    (``rule``, ``limit``, ``functions``: the words of the docs table).

    >>> @register_limit_rule("everyone_half", rule="½ on A", limit="eq. 3, q = ½")
    ... def _half(alg, ctx):
    ...     return LimitRule("½ on A", Aggregation(q=np.full(ctx.n_clients, 0.5),
    ...                                            normalised=False, server_lr=ctx.server_lr))
    >>> LIMIT_RULES["everyone_half"].limit
    'eq. 3, q = ½'
    >>> del LIMIT_RULES["everyone_half"]
    """

    def decorate(fn: F) -> F:
        LIMIT_RULES[name] = RuleEntry(name, fn, rule, limit, functions)
        return fn

    return decorate


def limit_rule(algorithm: Algorithm, ctx: RuleContext) -> LimitRule | str:
    """The limit rule of a built algorithm, or why none is known.

    >>> from fltheory.sim.algorithms import FedAvg, MIFA
    >>> ctx = RuleContext(2, np.array([0.5, 0.5]), np.array([0.5, 1.0]), 1.0)
    >>> limit_rule(FedAvg(), ctx).aggregation.normalised
    True
    >>> print(limit_rule(MIFA(), ctx))
    it reuses every client's latest update (a memory of past models)
    """
    entry = LIMIT_RULES.get(algorithm.name)
    if entry is None:
        return NO_LIMIT.get(
            algorithm.name,
            f"no limit rule is registered for algorithm {algorithm.name!r} "
            "(fltheory.sim.theory.register_limit_rule declares one)",
        )
    return entry.fn(algorithm, ctx)


def _eq3(q: np.ndarray, normalised: bool, ctx: RuleContext, rule: str) -> LimitRule:
    return LimitRule(rule, Aggregation(q=q, normalised=normalised, server_lr=ctx.server_lr))


@register_limit_rule(
    "fedavg",
    rule="mean: 1/|A_t| on A_t (FedPBC Alg. 1); fixed: q_k on A_t (CA-Fed eq. 3, q = α by default)",
    limit="mean: Bernoulli links, H = I: Σ_k w_k u_k, w_k = E[1{k∈A}/|A| | A ≠ ∅] "
    "(FedPBC Prop. 1); fixed: Bernoulli links, H = I: Σ_k p_k q_k u_k / Σ_k p_k q_k, the "
    "minimiser of F_B (CA-Fed eq. 4); Markov: the stationary mean",
)
def _fedavg(alg: Algorithm, ctx: RuleContext) -> LimitRule | str:
    rule = getattr(alg, "rule", "mean")
    if rule == "mean":
        return LimitRule("1/|A_t| on A_t", Aggregation(server_lr=ctx.server_lr))
    q = getattr(alg, "q", None)
    weights = ctx.alpha if q is None else np.asarray(q, dtype=float)
    if not weights.any():
        return "every fixed weight q_k is 0: the model never moves"
    return _eq3(weights, False, ctx, "q_k on A_t (fixed, " + ("α)" if q is None else "given q)"))


@register_limit_rule(
    "unbiased",
    rule="α_k/π_k on A_t (Guideline C)",
    limit="Bernoulli links, H = I: w* itself (F_B = F, Guideline C: no bias); Markov: the "
    "stationary mean, biased when λ₂ ≠ 0",
)
def _unbiased(alg: Algorithm, ctx: RuleContext) -> LimitRule:
    return _eq3(ctx.alpha / ctx.pi, False, ctx, "α_k/π_k on A_t")


@register_limit_rule(
    "adafed",
    rule="α_k/π_k normalised over A_t (Tan et al.)",
    limit="Bernoulli links, H = I: Σ_k w_k u_k, w_k ∝ E[c_k(A)]; Markov: the stationary mean",
)
def _adafed(alg: Algorithm, ctx: RuleContext) -> LimitRule:
    return _eq3(ctx.alpha / ctx.pi, True, ctx, "α_k/π_k normalised over A_t")


@register_limit_rule(
    "fedavg_is",
    rule="α_k/π_k on A_t, divided by its sum over A_t when normalise = true",
    limit="as unbiased (normalise = false) or adafed (normalise = true)",
)
def _fedavg_is(alg: Algorithm, ctx: RuleContext) -> LimitRule:
    if getattr(alg, "normalise", False):
        return _adafed(alg, ctx)
    return _unbiased(alg, ctx)


@register_limit_rule(
    "more_available",
    rule="α_k/π_k on A_t for the clients with π_k above the threshold, else 0",
    limit="Bernoulli links, H = I: the α-weighted mean of the members' u_k; Markov: the "
    "stationary mean",
)
def _more_available(alg: Algorithm, ctx: RuleContext) -> LimitRule:
    assert isinstance(alg, MoreAvailable)
    members = np.asarray(alg.members, dtype=bool)
    return _eq3(np.where(members, ctx.alpha / ctx.pi, 0.0), False, ctx, "α_k/π_k on A_t ∩ M")


@register_limit_rule(
    "fedavg_uniform",
    rule="α_k normalised over A_t ∩ S_t, S_t = K clients sampled uniformly",
    limit="K ≥ N only (every client sampled): as adafed with q = α; none known for K < N",
)
def _fedavg_uniform(alg: Algorithm, ctx: RuleContext) -> LimitRule | str:
    assert isinstance(alg, FedAvgUniform)
    k = int(alg.k)
    if k < ctx.n_clients:
        return (
            f"K = {k} < N = {ctx.n_clients}: the sampled set S_t ∩ A_t is not a product of "
            "independent links"
        )
    return _eq3(ctx.alpha, True, ctx, "α_k normalised over A_t (K ≥ N)")


@register_limit_rule(
    "fedavg_sampled",
    rule="1/|chosen| over at most S active clients drawn uniformly",
    limit="S ≥ N only (nobody dropped): as fedavg (mean); none known for S < N",
)
def _fedavg_sampled(alg: Algorithm, ctx: RuleContext) -> LimitRule | str:
    assert isinstance(alg, FedAvgSampled)
    s = int(alg.s)
    if s < ctx.n_clients:
        return f"S = {s} < N = {ctx.n_clients}: the subsampled set is not a product of links"
    return LimitRule("1/|A_t| on A_t (S ≥ N)", Aggregation(server_lr=ctx.server_lr))


@register_limit_rule(
    "fedpbc",
    rule="postponed broadcast: every client computes, the server averages A_t (Alg. 2)",
    limit="server: Σ_i w_i((1 − γ)X̄_i + γu_i) (Prop. 1 weights); client mean: mean of u_k "
    "(Bernoulli links, H = I, η̄ = 1, compute = all)",
    functions="`fedpbc_limit` (Bernoulli links, H = I)",
)
def _fedpbc(alg: Algorithm, ctx: RuleContext) -> LimitRule | str:
    if getattr(alg, "compute", "all") != "all":
        return "compute = 'active' (Remark 1): no limit known"
    if ctx.server_lr != 1.0:
        return f"server lr {ctx.server_lr:g} ≠ 1: fedpbc_limit covers Algorithm 2 (η̄ = 1)"
    return LimitRule("mean over A_t of every client's own model (Alg. 2)", fedpbc=True)
