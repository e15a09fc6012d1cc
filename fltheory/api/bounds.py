"""Theorems 1–3 of CA-Fed (ToN) for one problem, as one record: what ``fltheory bound`` prints."""

import dataclasses
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fltheory import checks
from fltheory.api.availability import availability_setting, resolve_table
from fltheory.api.record import Record, cell, text_table
from fltheory.bounds.report import all_bounds
from fltheory.bounds.result import BoundResult
from fltheory.errors import InputError
from fltheory.problems.config import load_problem_config, problem_setup
from fltheory.problems.setup import ProblemSetup

if TYPE_CHECKING:
    from fltheory.api.availability import AvailabilitySetting, AvailabilitySpec

#: What the façade accepts as a problem: a setup, a problem file, or its tables as a dict.
SetupSpec = ProblemSetup | str | os.PathLike[str] | Mapping[str, Any]


def as_setup(
    setup: SetupSpec, availability: "AvailabilitySpec | AvailabilitySetting | None" = None
) -> ProblemSetup:
    """``setup`` itself, the problem file it names, or the problem file's tables as a dict, read
    into a :class:`ProblemSetup`; ``availability`` (a chain, a table or a file, see
    :mod:`fltheory.api.availability`) replaces the file's ``[availability]`` or ``[clients]``.

    >>> examples = Path(__file__).resolve().parents[2] / "examples"
    >>> as_setup(examples / "quadratic_small.toml").n_clients
    5
    >>> as_setup({"rounds": 100, "local_steps": 1, "sigma": 1.0,
    ...           "steps": {"eta1": 0.01, "power": 1.0},
    ...           "problem": {"u": [[0.0], [1.0]], "diameter": 4.0}},
    ...          availability={"kind": "bernoulli", "p": [0.9, 0.3]}).pi.tolist()
    [0.9, 0.3]
    """
    if isinstance(setup, ProblemSetup):
        if availability is not None:
            raise InputError("availability applies to a problem file or its tables, not a setup")
        return setup
    given = None if availability is None else availability_setting(availability)
    chain = None if given is None else given.chain
    if isinstance(setup, Mapping):
        out = problem_setup(setup, availability=resolve_table, chain=chain)
    elif isinstance(setup, str | os.PathLike):
        out = load_problem_config(Path(setup), availability=resolve_table, chain=chain)
    else:
        raise InputError(
            "setup must be a ProblemSetup, a problem file (TOML) or its tables as a dict, got "
            f"{type(setup).__name__}"
        )
    if given is not None and given.groups:
        out = dataclasses.replace(out, groups=given.groups)
    return out


@dataclass(frozen=True, eq=False)
class BoundReport(Record):
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

    TITLE = "CA-Fed bounds (Theorems 1–3)"

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

    def __str__(self) -> str:
        rows = [["bound", "equation", "value", "exact", "holds", "vacuous", "trivial bound"]]
        for name, b in self.results.items():
            value = cell(b.value) if math.isfinite(b.value) else f"e^{b.log_value:.6g}"
            rows.append(
                [
                    name,
                    b.equation,
                    value,
                    *(cell(x) for x in (b.exact, b.holds, b.vacuous)),
                    cell(b.trivial),
                ]
            )
        lines = [self.TITLE, text_table(rows)]
        if self.setup.q_default is not None:
            lines.append(f"{self.setup.q_default}: p = α, so the exact bias is 0")
        return "\n".join(lines)

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
            "q_default": setup.q_default,
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


def bound_report(
    setup: SetupSpec,
    *,
    availability: "AvailabilitySpec | AvailabilitySetting | None" = None,
    use_safe_T_P: bool = False,
) -> BoundReport:
    """Theorems 1–3 (eqs. 10, 11, 13, 15) for a problem setup, a problem file (TOML, format in
    :mod:`fltheory.problems.config` and ``docs/problem_file.md``) or its tables as a dict;
    ``availability`` (a chain object, an ``[availability]`` table or a file) replaces the
    file's own; ``use_safe_T_P`` takes the chain's T_P_safe for T_P.

    >>> examples = Path(__file__).resolve().parents[2] / "examples"
    >>> report = bound_report(examples / "quadratic_small.toml")
    >>> round(report.theorem1.value, 2), round(report.theorem1.exact, 4)  # bound ≥ exact ε_bias
    (232.78, 0.0764)
    """
    resolved = as_setup(setup, availability)
    bounds = all_bounds(resolved, use_safe_T_P=checks.boolean(use_safe_T_P, "use_safe_T_P"))
    return BoundReport(setup=resolved, **bounds)
