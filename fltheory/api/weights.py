"""Optimal aggregation weights for one problem, as one record: what ``fltheory optimize-q`` prints.

Problem 212 minimises ε̄_opt of Theorem 2 (eq. 13) over q ≥ 0, ‖q‖₁ = Q (closed form,
Appendix E); problem 14 minimises ε̄_opt + κ̄²·ε̄_bias with ε̄_bias = Γ·χ²(α‖p) (eq. 11), once per
κ̄² value. The coefficients (Σ, v, ψ + φ/ln(1/λ), Σ_t η_t) come from
:func:`fltheory.bounds.theorem2.opt_bound_coefficients`.
"""

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path  # noqa: F401 (the examples below use it)
from typing import Any

import numpy as np

from fltheory import checks
from fltheory.api.bounds import SetupSpec, as_setup
from fltheory.api.record import Record, cell, text_table
from fltheory.bounds.theorem2 import opt_bound_coefficients
from fltheory.errors import InputError, NumericalError
from fltheory.optimize.result import OptimizationResult
from fltheory.problems.setup import ProblemSetup

PROBLEMS = ("14", "212")
METHODS = ("closed-form", "cvxpy")


@dataclass(frozen=True, eq=False)
class WeightsReport(Record):
    """q* of problem (14) or (212) for one setup, and the setup's own q for comparison.

    ``results`` holds one :class:`~fltheory.optimize.OptimizationResult` per κ̄² of ``kappa2``
    (problem 14) or the one solve of problem 212 (``kappa2`` empty; its ``extras`` carry
    ``eps_opt``, ε̄_opt of eq. 13 at q*); ``objective_at_config_q`` is each objective at the
    setup's q.

    >>> examples = Path(__file__).resolve().parents[2] / "examples"
    >>> report = optimal_weights(examples / "quadratic_small.toml", problem="212")
    >>> report.q.round(6).tolist(), report.result.excluded  # eq. 13 alone: the most available
    ([1.0, 0.0, 0.0, 0.0, 0.0], (1, 2, 3, 4))
    """

    TITLE = "optimal aggregation weights (problems 14, 212)"

    setup: ProblemSetup
    results: tuple[OptimizationResult, ...]
    kappa2: tuple[float, ...]
    objective_at_config_q: tuple[float, ...]
    objective_meaning: str

    def __str__(self) -> str:
        res, setup = self.result, self.setup
        rows = [["client", "π", "α", "q*", "p*", "given q"]]
        for k in range(setup.n_clients):
            mark = " (excluded)" if k in res.excluded else ""
            values = (setup.pi[k], setup.alpha[k], res.q[k], res.p[k], setup.q[k])
            rows.append([f"{k}{mark}", *(cell(float(x)) for x in values)])
        head = f"{self.TITLE}: problem {res.problem}"
        if self.kappa2:
            head += f", κ̄² = {cell(self.kappa2[0])}"
        tail = f"objective {cell(res.objective)} ({self.objective_meaning}); status {res.status}"
        return "\n".join([head, text_table(rows), tail])

    @property
    def result(self) -> OptimizationResult:
        """The first solve (problem 14: at the first κ̄²).

        >>> examples = Path(__file__).resolve().parents[2] / "examples"
        >>> optimal_weights(examples / "quadratic_small.toml", kappa2=3.0).result.problem
        '14'
        """
        return self.results[0]

    @property
    def q(self) -> np.ndarray:
        """q* of the first solve (q ≥ 0, Σq = Q).

        >>> examples = Path(__file__).resolve().parents[2] / "examples"
        >>> float(optimal_weights(examples / "quadratic_small.toml", problem="212").q.sum())
        1.0
        """
        return self.result.q

    def to_dict(self) -> dict[str, Any]:
        """The ``fltheory optimize-q --json`` object: the first solve's ``to_dict()`` with
        ``objective_at_config_q``, ``kappa2`` (problem 14), ``objective_meaning``, ``sweep``
        (every solve, when κ̄² takes several values) and ``config``.

        >>> examples = Path(__file__).resolve().parents[2] / "examples"
        >>> d = optimal_weights(examples / "ca_fed_population.toml").to_dict()
        >>> d["problem"], d["kappa2"], [entry["kappa2"] for entry in d["sweep"]]
        ('14', 0.01, [0.01, 0.1, 1.0, 10.0, 100.0])
        """

        def entry(i: int) -> dict[str, Any]:
            out = self.results[i].to_dict()
            out["objective_at_config_q"] = self.objective_at_config_q[i]
            if self.kappa2:
                out["kappa2"] = self.kappa2[i]
            return out

        payload = entry(0)
        payload["objective_meaning"] = self.objective_meaning
        if len(self.results) > 1:
            payload["sweep"] = [entry(i) for i in range(len(self.results))]
        payload["config"] = None if self.setup.source is None else str(self.setup.source)
        return payload


def _coefficients(setup: ProblemSetup) -> tuple[np.ndarray, float, float, float]:
    s, v, const, denom = opt_bound_coefficients(setup)
    if not math.isfinite(v):
        raise NumericalError("v of Theorem 2 (eq. 13) overflows a double: q* is not computable")
    if not (math.isfinite(denom) and denom > 0.0):
        raise NumericalError(f"the denominator of eq. 13 is {denom}, not a positive number")
    return s, v, const, denom


def _problem212(setup: ProblemSetup, method: str) -> WeightsReport:
    from fltheory.optimize import problem212
    from fltheory.optimize.objective import opt_fraction

    s, v, const, denom = _coefficients(setup)
    solve = problem212.solve_cvxpy if method == "cvxpy" else problem212.solve_closed_form
    res = solve(setup.pi, s, v, setup.Q)
    eps_opt = (res.objective + const) / denom if math.isfinite(const) else None
    res = dataclasses.replace(res, extras={**res.extras, "eps_opt": eps_opt})
    return WeightsReport(
        setup=setup,
        results=(res,),
        kappa2=(),
        objective_at_config_q=(opt_fraction(setup.q, setup.pi, s, v),),
        objective_meaning="(q'Σq/2 + v)/π'q, eq. 212a without its constant C",
    )


def _problem14(setup: ProblemSetup, kappas: tuple[float, ...]) -> WeightsReport:
    from fltheory.optimize.problem14 import Problem14

    s, v, const, denom = _coefficients(setup)
    if not math.isfinite(const):
        raise NumericalError(
            "psi + phi/ln(1/lambda) of eq. 13 is not finite, so problem 14 has no finite "
            "objective; problem 212 still gives the minimiser of eps_opt"
        )
    prob = Problem14(
        setup.pi, setup.alpha, s, v, setup.Q, gamma=setup.constants.Gamma, const=const, denom=denom
    )
    results = tuple(prob.solve(1.0, k2) for k2 in kappas)
    with np.errstate(divide="ignore"):
        at_config = tuple(prob.objective(setup.q, 1.0, k2) for k2 in kappas)
    return WeightsReport(
        setup=setup,
        results=results,
        kappa2=kappas,
        objective_at_config_q=at_config,
        objective_meaning="eps_opt(q) + kappa2 * Gamma * chi2(alpha || p), eqs. 11, 13, 14",
    )


def optimal_weights(
    setup: SetupSpec,
    *,
    availability: Any = None,
    problem: str | int = "14",
    kappa2: float | None = None,
    method: str | None = None,
) -> WeightsReport:
    """q* of CA-Fed problem (14) or (212) for a problem setup, a problem file (TOML) or its
    tables as a dict; ``availability`` (a chain, a table or a file) replaces the file's own.

    Problem 14 weighs the bias term by ``kappa2`` when given, else by the setup's κ̄² values
    (the file's ``[optimize] kappa2``, a list solved as a sweep; default
    :data:`fltheory.optimize.DEFAULT_KAPPA2` = 1, eq. 14 as printed); it always uses cvxpy.
    Problem 212 takes ``method`` "closed-form" (the default) or "cvxpy". ``problem`` may be
    given as text or as a number (14 or 212).

    >>> examples = Path(__file__).resolve().parents[2] / "examples"
    >>> report = optimal_weights(examples / "quadratic_small.toml", kappa2=3.0)
    >>> report.q.round(3).tolist(), report.result.status
    ([0.791, 0.068, 0.046, 0.043, 0.052], 'optimal')
    """
    given = problem
    if isinstance(problem, int) and not isinstance(problem, bool):
        problem = str(problem)  # 14 and "14" alike
    if problem not in PROBLEMS:
        raise InputError(f"problem must be 14 or 212, got {given!r}")
    if method is not None and method not in METHODS:
        raise InputError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if problem == "212" and kappa2 is not None:
        raise InputError("kappa2 applies to problem 14 only")
    if problem == "14" and method is not None:
        raise InputError("method applies to problem 212 (problem 14 always uses cvxpy)")
    resolved = as_setup(setup, availability)
    if problem == "212":
        return _problem212(resolved, method or "closed-form")
    kappas = resolved.kappa2 if kappa2 is None else (checks.nonnegative(kappa2, "kappa2"),)
    return _problem14(resolved, kappas)
