"""Theorems 1–3 of CA-Fed (ToN) for one problem, as one record: what ``fltheory bound`` prints."""

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fltheory import checks
from fltheory.bounds.report import all_bounds
from fltheory.bounds.result import BoundResult
from fltheory.errors import InputError
from fltheory.problems.config import load_problem_config
from fltheory.problems.setup import ProblemSetup


def as_setup(setup: ProblemSetup | str | Path) -> ProblemSetup:
    """``setup`` itself, or the problem file it names read into a :class:`ProblemSetup`.

    >>> examples = Path(__file__).resolve().parents[2] / "examples"
    >>> as_setup(examples / "quadratic_small.toml").n_clients
    5
    """
    if isinstance(setup, ProblemSetup):
        return setup
    if not isinstance(setup, str | os.PathLike):
        raise InputError(f"setup must be a ProblemSetup or a problem file (TOML), got {setup!r}")
    return load_problem_config(setup)


@dataclass(frozen=True, eq=False)
class BoundReport:
    """The bounds of Theorems 1–3 for one :class:`~fltheory.problems.ProblemSetup`.

    ``theorem1`` bounds ε_bias by eq. 11, ``theorem2`` ε_opt by eq. 13, ``theorem3`` ε_bias by
    eq. 15, and ``total`` E[F(w̄_T) − F*] by eq. 10 (ε_opt from eq. 13, ε_bias from the better of
    eqs. 11 and 15); see :func:`fltheory.bounds.all_bounds`.

    >>> examples = Path(__file__).resolve().parents[2] / "examples"
    >>> report = bound_report(examples / "quadratic_small.toml")
    >>> round(report.theorem3.value, 2), round(report.theorem3.exact, 4), report.theorem3.holds
    (91.25, 0.0764, True)
    >>> report.total.details["bias_from"]  # eq. 15 is the tighter bias bound here
    'eq. 15'
    """

    setup: ProblemSetup
    theorem1: BoundResult
    theorem2: BoundResult
    theorem3: BoundResult
    total: BoundResult

    @property
    def results(self) -> dict[str, BoundResult]:
        """The four bounds by name, in the order theorem1, theorem2, theorem3, total.

        >>> examples = Path(__file__).resolve().parents[2] / "examples"
        >>> report = bound_report(examples / "quadratic_small.toml")
        >>> {name: bound.equation for name, bound in report.results.items()}
        {'theorem1': 'eq. 11', 'theorem2': 'eq. 13', 'theorem3': 'eq. 15', 'total': 'eq. 10'}
        """
        return {
            "theorem1": self.theorem1,
            "theorem2": self.theorem2,
            "theorem3": self.theorem3,
            "total": self.total,
        }

    def to_dict(self) -> dict[str, Any]:
        """The ``fltheory bound --json`` object: each bound's ``to_dict()`` and ``setup``.

        >>> examples = Path(__file__).resolve().parents[2] / "examples"
        >>> setup = bound_report(examples / "quadratic_small.toml").to_dict()["setup"]
        >>> setup["n_clients"], setup["rounds"], setup["kappa"], setup["chain"]["lambda"]
        (5, 500, 8.0, 0.95)
        """
        setup = self.setup
        payload: dict[str, Any] = {name: bound.to_dict() for name, bound in self.results.items()}
        payload["setup"] = {
            "config": None if setup.source is None else str(setup.source),
            "n_clients": setup.n_clients,
            "local_steps": setup.local_steps,
            "rounds": setup.rounds,
            "Q": setup.Q,
            "q": setup.q,
            "kappa": setup.constants.kappa,
            "chain": {
                "log_n_states": setup.chain.log_n_states,
                "lambda": setup.chain.lam,
                "log_C_P": setup.chain.log_C_P,
                "T_P": setup.chain.T_P,
            },
            "steps": setup.steps.to_dict(),
        }
        return payload


def bound_report(setup: ProblemSetup | str | Path, *, use_safe_T_P: bool = False) -> BoundReport:
    """Theorems 1–3 (eqs. 10, 11, 13, 15) for a problem setup or a problem file (TOML, format
    in :mod:`fltheory.problems.config`); ``use_safe_T_P`` takes the chain's T_P_safe for T_P.

    >>> examples = Path(__file__).resolve().parents[2] / "examples"
    >>> report = bound_report(examples / "quadratic_small.toml")
    >>> round(report.theorem1.value, 2), round(report.theorem1.exact, 4)  # bound ≥ exact ε_bias
    (232.78, 0.0764)
    """
    resolved = as_setup(setup)
    bounds = all_bounds(resolved, use_safe_T_P=checks.boolean(use_safe_T_P, "use_safe_T_P"))
    return BoundReport(setup=resolved, **bounds)
