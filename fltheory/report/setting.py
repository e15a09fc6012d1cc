"""The report's shared setting: its population, the clients' optima and the problem of
Theorems 1–3 built on them — used by sections 1–4 (:mod:`fltheory.report.data`) and section 5
(:mod:`fltheory.report.simulation`) alike.
"""

from typing import Any

import numpy as np

from fltheory.markov.population import Population, ca_fed_population
from fltheory.report.config import ReportConfig
from fltheory.rng import generator

__all__ = ["client_optima", "population_of", "problem_setup"]


def population_of(cfg: ReportConfig, n: int | None = None) -> Population:
    """The config's CA-Fed preset population (with ``n`` clients instead when given).

    >>> population_of(ReportConfig(), 8).n_clients
    8
    """
    p = cfg.population
    return ca_fed_population(p.n if n is None else n, p.g, p.nu, p.eps, seed=p.seed, split=p.split)


def client_optima(cfg: ReportConfig, population: Population) -> np.ndarray:
    """u_k = ±spread·1 + N(0, I) (+ for the more available class), from the stream
    ``generator(problem.seed, "report/u")``.

    >>> client_optima(ReportConfig(), population_of(ReportConfig(), 8)).shape
    (8, 2)
    """
    p = cfg.problem
    noise = generator(p.seed, "report/u").normal(size=(population.n_clients, p.dim))
    sign = np.where(population.more_available, 1.0, -1.0)
    return noise + p.spread * sign[:, None]


def problem_setup(cfg: ReportConfig, population: Population, u: np.ndarray) -> Any:
    """The :class:`~fltheory.problems.ProblemSetup` of Theorems 1–3: quadratic clients
    ½‖w − u_k‖² on a ball of the config's diameter around 0, uniform α, q per ``weights``."""
    from fltheory.optimize.guidelines import unbiased_weights
    from fltheory.problems.config import QuadraticTable
    from fltheory.problems.setup import ProblemSetup
    from fltheory.problems.steps import StepSizes

    p = cfg.problem
    n = population.n_clients
    alpha = np.full(n, 1.0 / n)
    q = alpha.copy() if p.weights == "uniform" else unbiased_weights(alpha, population.pi, Q=1.0)
    sigma = np.full(n, p.sigma)
    table = QuadraticTable(u=u.tolist(), H_diag=np.ones_like(u).tolist(), diameter=p.diameter)
    problem, constants, center = table.build(alpha, population.pi, q, sigma)
    return ProblemSetup(
        constants=constants,
        chain=population.chain().constants(),
        pi=population.pi,
        alpha=alpha,
        q=q,
        local_steps=p.local_steps,
        Q=float(q.sum()),
        steps=StepSizes.power_law(p.eta1, p.power),
        rounds=p.rounds,
        problem=problem,
        center=center,
        kappa2=tuple(p.kappa2),
    )
