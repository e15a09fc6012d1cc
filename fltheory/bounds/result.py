"""The record every bound returns: its value (also as a log), its parts, and its caveats."""

import math
from dataclasses import dataclass, field
from typing import Any

#: Default tolerances of :attr:`BoundResult.holds` (floating-point slack, not modelling slack).
HOLDS_RTOL = 1e-9
HOLDS_ATOL = 1e-12


def safe_log(x: float) -> float:
    """ln x, with ln 0 = −inf and ln inf = inf; NaN or negative input is a programming error."""
    if x == 0.0:
        return -math.inf
    if math.isinf(x):
        return math.inf
    if not x > 0.0:
        raise ValueError(f"log of a negative or NaN value: {x}")
    return math.log(x)


def safe_exp(log_x: float) -> float:
    """e^log_x, with overflow mapped to inf (callers keep the log for such values)."""
    if log_x > 709.78:
        return math.inf
    return math.exp(log_x)


@dataclass(eq=False)
class BoundResult:
    """An upper bound from the paper, evaluated.

    Attributes:
        value: the bound (inf when it diverges or overflows a double).
        log_value: its natural log, finite even when ``value`` overflows.
        equation: the paper equation it evaluates, e.g. "eq. 11".
        terms: named parts of the bound (floats; inf where they overflow).
        log_terms: natural logs of the non-negative parts (finite even where ``terms`` overflow).
        exact: the exact left-hand side when a problem with an exact answer was given.
        vacuous: True when the bound is no better than a trivial bound (see ``trivial``).
        trivial: the trivial bound it is compared against, or None.
        conditions: the paper's hypotheses that fail (empty when all hold).
        warnings: other caveats (readings of the text, approximations, ...).
        details: extra JSON-able information (series partial sums and tails, ...).

    >>> bound = BoundResult.from_value(2.0, "eq. 11", exact=1.5)
    >>> bound.value, round(bound.log_value, 6), bound.holds
    (2.0, 0.693147, True)
    """

    value: float
    log_value: float
    equation: str
    terms: dict[str, float] = field(default_factory=dict)
    log_terms: dict[str, float] = field(default_factory=dict)
    exact: float | None = None
    vacuous: bool | None = None
    trivial: float | None = None
    conditions: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    rtol: float = HOLDS_RTOL
    atol: float = HOLDS_ATOL

    @classmethod
    def from_log(cls, log_value: float, equation: str, **kwargs: Any) -> "BoundResult":
        """Build from the log of the value (``value`` is inf where e^log_value overflows).

        >>> BoundResult.from_log(1000.0, "eq. 13").value
        inf
        """
        return cls(value=safe_exp(log_value), log_value=log_value, equation=equation, **kwargs)

    @classmethod
    def from_value(cls, value: float, equation: str, **kwargs: Any) -> "BoundResult":
        """Build from a non-negative value.

        >>> BoundResult.from_value(0.0, "eq. 15").log_value
        -inf
        """
        return cls(value=value, log_value=safe_log(value), equation=equation, **kwargs)

    @property
    def holds(self) -> bool | None:
        """exact ≤ value up to ``rtol``·max(|exact|, |value|) + ``atol``; None without exact.

        >>> BoundResult.from_value(1.0, "eq. 11", exact=1.0 + 1e-12).holds  # rounding slack
        True
        >>> BoundResult.from_value(1.0, "eq. 11", exact=1.1).holds
        False
        """
        if self.exact is None:
            return None
        if math.isinf(self.value):
            return True
        slack = self.rtol * max(abs(self.exact), abs(self.value)) + self.atol
        return self.exact <= self.value + slack

    @property
    def conditions_hold(self) -> bool:
        """True when no hypothesis of the theorem was found to fail.

        >>> BoundResult.from_value(1.0, "eq. 13", conditions=["T < T_P"]).conditions_hold
        False
        """
        return not self.conditions

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (non-finite floats are left for ``to_jsonable`` to map to null).

        >>> d = BoundResult.from_value(2.0, "eq. 11", exact=1.5).to_dict()
        >>> d["equation"], d["value"], d["holds"]
        ('eq. 11', 2.0, True)
        """
        return {
            "equation": self.equation,
            "value": self.value,
            "log_value": self.log_value,
            "exact": self.exact,
            "holds": self.holds,
            "vacuous": self.vacuous,
            "trivial": self.trivial,
            "terms": dict(self.terms),
            "log_terms": dict(self.log_terms),
            "conditions": list(self.conditions),
            "warnings": list(self.warnings),
            "details": self.details,
        }


def mark_vacuous(result: BoundResult, trivial: float | None) -> None:
    """Set ``vacuous`` (value ≥ trivial) and ``trivial``; without a trivial bound only an
    infinite value counts as vacuous."""
    if trivial is None:
        result.vacuous = True if not math.isfinite(result.value) else None
        return
    result.trivial = trivial
    result.vacuous = bool(result.log_value >= safe_log(trivial))
