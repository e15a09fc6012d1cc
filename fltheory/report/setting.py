"""The report's setting: its availability, client groups, client optima and the problem of
Theorems 1–3 built on them — shared by sections 1–4 (:mod:`fltheory.report.data`) and section 5
(:mod:`fltheory.report.simulation`).

The availability is the config's ``[availability]`` table (any model of ``docs/plugins.md``)
or, by default, the CA-Fed preset of ``[population]``. Section 5 and the exact Markov limit
need the joint chain's states (2^N for independent clients), so they run on a *small* setting:
the whole one when it is small enough, else clients taken from every group in proportion
(:func:`small_setting`), which the report says.
"""

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from fltheory.api.availability import AvailabilitySetting, availability_setting
from fltheory.errors import InputError
from fltheory.markov.population import ca_fed_population
from fltheory.markov.product import ProductChain
from fltheory.markov.protocol import AvailabilityChain
from fltheory.report.config import ReportConfig
from fltheory.rng import generator

__all__ = [
    "RULES",
    "ReportSetting",
    "client_optima",
    "population_of",
    "problem_setup",
    "setting_of",
    "small_setting",
]


@dataclass(frozen=True, eq=False)
class ReportSetting:
    """A report's availability with its client groups (a partition: ``labels`` index
    ``group_names``); ``preset`` says whether it is the CA-Fed population of ``[population]``,
    ``clients`` which clients of the whole setting it holds (all of them, or the small
    setting's share).

    >>> s = setting_of(ReportConfig.model_validate({"availability": {"kind": "two_state",
    ...     "groups": [{"count": 3, "pi": 0.9, "lambda2": 0.1, "name": "a"},
    ...                {"count": 1, "pi": 0.2, "lambda2": 0.8, "name": "b"}]}}))
    >>> s.n_clients, s.group_names, s.more_available.tolist(), s.correlated.tolist()
    (4, ('a', 'b'), [True, True, True, False], [False, False, False, True])
    """

    availability: AvailabilitySetting
    preset: bool
    clients: np.ndarray
    labels: np.ndarray
    group_names: tuple[str, ...]

    @property
    def chain(self) -> AvailabilityChain:
        return self.availability.chain

    @property
    def n_clients(self) -> int:
        return int(self.labels.size)

    @property
    def pi(self) -> np.ndarray:
        return self.availability.pi

    @property
    def lambda2(self) -> np.ndarray | None:
        return self.availability.lambda2

    @property
    def more_available(self) -> np.ndarray:
        """Clients available more often than the average client (the preset: π = ½ + g)."""
        if self.preset:
            return self.labels <= 1
        return self.pi > self.pi.mean()

    @property
    def correlated(self) -> np.ndarray | None:
        """Clients more correlated than the average client (λ₂,k above the mean; the preset:
        λ₂ = ν); None when the chain has no per-client λ₂."""
        if self.preset:
            return self.labels % 2 == 0
        lam = self.lambda2
        return None if lam is None else lam > lam.mean()

    def simulation_table(self) -> dict[str, Any]:
        """The ``[availability]`` table that simulates this setting's chain, client by client."""
        from fltheory.api.availability import chain_table

        return chain_table(self.chain)


def _preset(cfg: ReportConfig, n: int | None) -> ReportSetting:
    p = cfg.population
    pop = ca_fed_population(p.n if n is None else n, p.g, p.nu, p.eps, seed=p.seed, split=p.split)
    groups = {name: pop.labels == g for g, name in enumerate(pop.group_names)}
    table = {"kind": "ca_fed", "g": p.g, "nu": p.nu, "eps": p.eps, "split": p.split}
    avail = AvailabilitySetting(chain=pop.chain(), groups=groups, kind="ca_fed", table=table)
    return ReportSetting(
        avail, True, np.arange(pop.n_clients), pop.labels.copy(), tuple(pop.group_names)
    )


def population_of(cfg: ReportConfig, n: int | None = None) -> ReportSetting:
    """The config's CA-Fed preset population (with ``n`` clients instead when given).

    >>> population_of(ReportConfig(), 8).n_clients
    8
    """
    return _preset(cfg, n)


def setting_of(cfg: ReportConfig) -> ReportSetting:
    """The whole setting of ``cfg``: its ``[availability]`` table, else the preset.

    >>> setting_of(ReportConfig()).group_names[0]
    'more available, correlated'
    """
    if cfg.availability is None:
        return _preset(cfg, None)
    from fltheory.sim.availability_spec import table_size

    n_u = None if cfg.problem.u is None else len(cfg.problem.u)
    own = table_size(cfg.availability)
    if own is not None and n_u is not None and own != n_u:
        raise InputError(f"[problem] u has {n_u} rows, but [availability] describes {own} clients")
    avail = availability_setting(cfg.availability, n_clients=n_u, seed=cfg.population.seed)
    if avail.chain.client_availability is None:
        raise InputError("[availability]: the chain needs a state→clients map")
    return ReportSetting(avail, False, np.arange(avail.n_clients), avail.labels, avail.group_names)


def _proportional(labels: np.ndarray, total: int) -> np.ndarray:
    """The first clients of each group, about ``total`` in all, each group in proportion to
    its size and at least one client (largest remainders).

    >>> _proportional(np.array([0] * 6 + [1] * 3 + [2] * 1), 5).tolist()
    [0, 1, 2, 6, 9]
    """
    sizes = np.bincount(labels)
    present = np.flatnonzero(sizes)
    share = sizes[present] * total / labels.size
    take = np.maximum(1, np.floor(share)).astype(int)
    order = np.argsort(-(share - np.floor(share)), kind="stable")
    for i in order:
        if take.sum() >= total:
            break
        if take[i] < sizes[present[i]]:
            take[i] += 1
    picked = [np.flatnonzero(labels == g)[:k] for g, k in zip(present, take, strict=True)]
    return np.sort(np.concatenate(picked))


def small_setting(cfg: ReportConfig, setting: ReportSetting) -> ReportSetting:
    """The setting of section 5 and the exact Markov limit: at most ``limit_clients``
    independent factors of the chain (2^limit_clients joint states). The preset draws its
    population anew with that many clients; an own setting of independent clients keeps the
    first clients of each group, in proportion; a clustered or dense chain small enough is
    kept whole.

    >>> cfg = ReportConfig.model_validate({"availability": {"kind": "two_state",
    ...     "groups": [{"count": 30, "pi": 0.9, "lambda2": 0.1}, {"count": 10, "pi": 0.2,
    ...     "lambda2": 0.8}]}, "simulation": {"limit_clients": 8}})
    >>> small = small_setting(cfg, setting_of(cfg))
    >>> small.n_clients, np.bincount(small.labels).tolist()
    (8, [6, 2])
    """
    limit = cfg.simulation.limit_clients
    if setting.preset:
        return _preset(cfg, min(limit, cfg.population.n))
    factors = len(setting.chain.kronecker_factors())
    if factors <= limit:
        return setting
    chain = setting.chain
    if not isinstance(chain, ProductChain):
        raise InputError(
            f"[availability]: the exact limit of section 5 needs the joint chain's states, "
            f"2^{factors} here; at most 2^{limit} ([simulation] limit_clients, up to 20)"
        )
    idx = _proportional(setting.labels, limit)
    small = ProductChain(chain.client_availability[idx], chain.lambda2[idx])
    groups = {
        name: np.asarray(mask, dtype=bool)[idx]
        for name, mask in setting.availability.groups.items()
    }
    avail = replace(setting.availability, chain=small, groups=groups, table=None, process=None)
    return ReportSetting(avail, False, idx, setting.labels[idx], setting.group_names)


def client_optima(cfg: ReportConfig, setting: ReportSetting) -> np.ndarray:
    """The clients' minimisers u_k: ``[problem] u`` (rows of the clients the setting holds),
    else u_k = ±spread·1 + N(0, I) (+ for the more available clients), from the stream
    ``generator(problem.seed, "report/u")``.

    >>> client_optima(ReportConfig(), population_of(ReportConfig(), 8)).shape
    (8, 2)
    """
    p = cfg.problem
    if p.u is not None:
        u = np.asarray(p.u, dtype=float)
        if u.ndim != 2:
            raise InputError("[problem] u must be a rectangular list of rows (one per client)")
        return u[setting.clients]
    noise = generator(p.seed, "report/u").normal(size=(setting.n_clients, p.dim))
    sign = np.where(setting.more_available, 1.0, -1.0)
    return noise + p.spread * sign[:, None]


#: The aggregation rules of ``[problem] weights``, in words.
RULES = {"uniform": "fixed q = α, eq. 3", "unbiased": "fixed q = α/π, unbiased (Guideline C)"}


def problem_setup(cfg: ReportConfig, setting: ReportSetting, u: np.ndarray) -> Any:
    """The :class:`~fltheory.problems.ProblemSetup` of Theorems 1–3: quadratic clients
    ½‖w − u_k‖² on a ball of the config's diameter around 0, uniform α, q per ``weights``
    (:data:`RULES`)."""
    from fltheory.optimize.guidelines import unbiased_weights
    from fltheory.problems.config import QuadraticTable
    from fltheory.problems.setup import ProblemSetup
    from fltheory.problems.steps import StepSizes

    p = cfg.problem
    n = setting.n_clients
    pi = setting.pi
    alpha = np.full(n, 1.0 / n)
    q = alpha.copy() if p.weights == "uniform" else unbiased_weights(alpha, pi, Q=1.0)
    sigma = np.full(n, p.sigma)
    table = QuadraticTable(u=u.tolist(), H_diag=np.ones_like(u).tolist(), diameter=p.diameter)
    problem, constants, center = table.build(alpha, pi, q, sigma)
    return ProblemSetup(
        constants=constants,
        chain=setting.chain.constants(),
        pi=pi,
        alpha=alpha,
        q=q,
        local_steps=p.local_steps,
        Q=float(q.sum()),
        steps=StepSizes.power_law(p.eta1, p.power),
        rounds=p.rounds,
        problem=problem,
        center=center,
        kappa2=tuple(p.kappa2),
        groups=dict(setting.availability.groups),
    )
