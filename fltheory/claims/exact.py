"""Exact numbers for the claims' exact margins: floats as the Fractions of their binary values,
mpmath numbers likewise — shared by every paper module (one definition, no copies).

>>> fr(0.5), frs([0.25, 1])
(Fraction(1, 2), [Fraction(1, 4), Fraction(1, 1)])
"""

from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.errors import NumericalError


def fr(x: Any) -> Fraction:
    """``x`` itself when it is a Fraction, else the exact Fraction of ``float(x)``.

    >>> fr(0.1) == Fraction(3602879701896397, 36028797018963968)
    True
    """
    return x if isinstance(x, Fraction) else Fraction(float(x))


def frs(xs: Any) -> list[Fraction]:
    """The entries of a scalar or array as exact Fractions (:func:`fr` of each).

    >>> frs(0.75)
    [Fraction(3, 4)]
    """
    return [fr(v) for v in np.atleast_1d(np.asarray(xs, dtype=float))]


def mp_to_fraction(value: Any) -> Fraction:
    """An mpmath number as the exact Fraction of its binary value (sign included); a non-finite
    value raises NumericalError.

    >>> import mpmath
    >>> mp_to_fraction(mpmath.mpf(-0.375)), mp_to_fraction(mpmath.mpf(0))
    (Fraction(-3, 8), Fraction(0, 1))
    """
    import mpmath

    sign, man, exp, _ = mpmath.mpf(value)._mpf_
    if not man:
        if exp:  # ±inf or nan
            raise NumericalError(f"non-finite high-precision margin {value}")
        return Fraction(0)
    out = Fraction(int(man)) * (Fraction(2) ** int(exp))
    return -out if sign else out
