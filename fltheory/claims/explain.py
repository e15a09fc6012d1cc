"""A claim's instance in the paper's own quantities, with both sides of the statement evaluated.

A claim searches in coordinates chosen for the search (logarithms, positions in an interval,
``lw``, ``feta`` …); a reader checks a counterexample in the paper's symbols. A claim's
``explain(instance)`` returns an :class:`Explanation`: the :class:`Quantity` values of the paper
(clients' losses F_k as formulas with their numbers, π, λ₂ or P, q, α, η_t, E, T …), the
derivation as :class:`Step` values, the two sides of the statement, and ``verify_args`` — the
same instance as exact literals for the claim's standalone ``verify`` function, which the
errata scripts (``docs/errata/ID.py``) run without fltheory.

>>> from fractions import Fraction
>>> e = Explanation(
...     quantities=(Quantity("x", "the point", Fraction(1, 2)),),
...     lhs=Step("x²", "x·x", Fraction(1, 4)), relation="≥", rhs=Step("x", "x", Fraction(1, 2)),
...     holds=False, verify_args={"x": Fraction(1, 2)})
>>> print(e.text())
  x = 0.5 — the point
  x² = x·x = 0.25
  x = 0.5
  0.25 ≥ 0.5 is false: the statement fails here
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

#: Denominators up to this many digits print as p/q; longer ones as a rounded decimal.
SHORT_DIGITS = 12


def show(value: Any) -> str:
    """A value as a reader checks it: integers and short fractions exactly, terminating
    decimals exactly, anything else to 8 significant digits (marked ≈).

    >>> show(Fraction(3, 10)), show(Fraction(1, 3)), show(Fraction(1, 7**20)), show(2.5)
    ('0.3', '1/3', '≈ 1.2532543e-17', '2.5')
    >>> show([1, Fraction(1, 2)]), show(True)
    ('(1, 0.5)', 'true')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        decimal = _terminating(value)
        if decimal is not None and len(decimal) <= SHORT_DIGITS + 2:
            return decimal
        if len(str(value)) <= SHORT_DIGITS:
            return str(value)
        return "≈ " + _sig(float(value))
    if isinstance(value, float):
        if math.isfinite(value) and value == round(value, 6) and abs(value) < 1e15:
            return f"{value:.6g}"
        return _sig(value) if not math.isfinite(value) else "≈ " + _sig(value)
    if isinstance(value, str):
        return value
    if isinstance(value, Sequence):
        return "(" + ", ".join(show(v) for v in value) + ")"
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return show(value.tolist())
    try:  # mpmath numbers and the like
        return "≈ " + _sig(float(value))
    except (TypeError, ValueError, OverflowError):
        return str(value)


def dec(x: Any) -> Fraction:
    """The number a reader sees, exactly: a float as the decimal of its shortest repr
    (0.2 → 1/5, not the binary 3602879701896397/18014398509481984), an int or a Fraction
    unchanged. Explanations and the errata scripts evaluate this decimal instance.

    >>> dec(0.2), dec(3), dec(Fraction(1, 3)), dec(1e-12)
    (Fraction(1, 5), Fraction(3, 1), Fraction(1, 3), Fraction(1, 1000000000000))
    """
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int | np.integer):
        return Fraction(int(x))
    value = float(x)
    if not math.isfinite(value):
        raise ValueError(f"{value} has no exact decimal")
    return Fraction(repr(value))


def decs(xs: Any) -> tuple[Fraction, ...]:
    """:func:`dec` of each entry of a vector.

    >>> decs([0.5, 0.25])
    (Fraction(1, 2), Fraction(1, 4))
    """
    return tuple(dec(x) for x in np.atleast_1d(np.asarray(xs, dtype=object)).tolist())


def signed(value: Any) -> str:
    """``+ v`` or ``− |v|`` for writing a term after another (``x − 0.2``, ``x + 0.2``).

    >>> "x " + signed(-Fraction(1, 5)), "x " + signed(Fraction(1, 5))
    ('x − 0.2', 'x + 0.2')
    """
    negative = value < 0
    return ("− " if negative else "+ ") + show(-value if negative else value)


def _sig(x: float) -> str:
    return f"{x:.8g}"


def _terminating(value: Fraction) -> str | None:
    """The exact decimal expansion of ``value`` when its denominator is 2^a·5^b (else None)."""
    d, twos, fives = value.denominator, 0, 0
    while d % 2 == 0:
        d, twos = d // 2, twos + 1
    while d % 5 == 0:
        d, fives = d // 5, fives + 1
    if d != 1:
        return None
    digits = max(twos, fives)
    scaled = abs(value.numerator) * 10**digits // value.denominator
    sign = "-" if value < 0 else ""
    text = str(scaled).rjust(digits + 1, "0")
    return f"{sign}{text[:-digits]}.{text[-digits:]}".rstrip("0").rstrip(".")


def literal(value: Any) -> str:
    """Python source that rebuilds ``value`` exactly (for the standalone errata scripts):
    ints, bools, strings, Fractions and (nested) lists/tuples of them.

    >>> literal([Fraction(1, 3), 2, "a"])
    "[Fraction(1, 3), 2, 'a']"
    """
    if isinstance(value, bool | int | str):
        return repr(value)
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, list | tuple):
        inner = ", ".join(literal(v) for v in value)
        return (
            f"[{inner}]"
            if isinstance(value, list)
            else f"({inner}{',' if len(value) == 1 else ''})"
        )
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"{type(value).__name__} is not an exact literal (use int, Fraction, str)")


@dataclass(frozen=True)
class Quantity:
    """One quantity of the paper: its symbol, plain-words name, value, and (for functions such
    as a client's loss) its formula with the numbers in."""

    symbol: str
    name: str
    value: Any
    formula: str = ""

    def text(self) -> str:
        shown = self.formula or f"{self.symbol} = {show(self.value)}"
        return f"{shown} — {self.name}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "symbol": self.symbol,
            "name": self.name,
            "value": show(self.value),
            "formula": self.formula,
        }


@dataclass(frozen=True)
class Step:
    """One step of the derivation: a label (equation number and plain words), the expression in
    the paper's symbols, and its value."""

    label: str
    expression: str
    value: Any

    def text(self) -> str:
        if self.expression and self.expression != self.label:
            return f"{self.label} = {self.expression} = {show(self.value)}"
        return f"{self.label} = {show(self.value)}"

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "expression": self.expression, "value": show(self.value)}


@dataclass(frozen=True)
class Explanation:
    """An instance in the paper's quantities, the derivation, and both sides evaluated.

    ``holds`` is the statement's truth at this instance (decided by the claim, exactly where it
    can be); ``relation`` is printed between the sides (``≤``, ``=``, ``converges to`` …).
    ``verify_args`` are the keyword arguments of the claim's standalone ``verify`` function, as
    exact literals (see :func:`literal`)."""

    quantities: tuple[Quantity, ...]
    lhs: Step
    relation: str
    rhs: Step
    holds: bool
    steps: tuple[Step, ...] = ()
    verify_args: dict[str, Any] = field(default_factory=dict)
    note: str = ""

    def text(self, indent: str = "  ") -> str:
        lines = [indent + q.text() for q in self.quantities]
        lines += [indent + s.text() for s in self.steps]
        lines += [indent + self.lhs.text(), indent + self.rhs.text()]
        verdict = "holds" if self.holds else "is false: the statement fails here"
        lines.append(
            f"{indent}{show(self.lhs.value)} {self.relation} {show(self.rhs.value)} {verdict}"
        )
        if self.note:
            lines.append(indent + self.note)
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "quantities": [q.to_dict() for q in self.quantities],
            "steps": [s.to_dict() for s in self.steps],
            "lhs": self.lhs.to_dict(),
            "relation": self.relation,
            "rhs": self.rhs.to_dict(),
            "holds": self.holds,
            "verify_args": {k: literal(v) for k, v in self.verify_args.items()},
            "note": self.note,
        }
