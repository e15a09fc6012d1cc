"""Numbers for people: ``1.2 × 10⁵⁵`` rather than ``1.2e+55`` in running text."""

import math

_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def human(x: float | int | None, digits: int = 3) -> str:
    """``x`` with ``digits`` significant digits; powers of ten as ``× 10ⁿ`` beyond 10⁴ or below
    10⁻³; "—" for None, "∞" for infinity.

    >>> human(7.883e55), human(0.95), human(12345.0), human(2.0e-31), human(None), human(3)
    ('7.88 × 10⁵⁵', '0.95', '1.23 × 10⁴', '2 × 10⁻³¹', '—', '3')
    >>> human(2316.448), human(10.0), human(6.2383), human(-1.5)
    ('2316', '10', '6.24', '−1.5')
    """
    if x is None:
        return "—"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return f"{x:,}".replace(",", " ") if abs(x) >= 10**5 else str(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if x == 0.0:
        return "0"
    exponent = math.floor(math.log10(abs(x)))
    if -3 <= exponent < 0:
        return f"{x:.{digits}g}".replace("-", "−")
    if 0 <= exponent < 4:  # 1 ≤ |x| < 10⁴: plain digits, never "2.32e+03"
        text = f"{x:.{max(digits - 1 - exponent, 0)}f}"
        text = text.rstrip("0").rstrip(".") if "." in text else text
        return text.replace("-", "−")
    mantissa = x / 10.0**exponent
    if round(abs(mantissa), digits - 1) >= 10.0:
        mantissa, exponent = mantissa / 10.0, exponent + 1
    head = f"{mantissa:.{digits}g}".replace("-", "−")
    return f"{head} × 10{str(exponent).translate(_SUPERSCRIPT)}"


def power_of_ten(log10_value: float | None, digits: int = 3) -> str:
    """A number given by its log₁₀ (finite even when the number overflows a double); log₁₀ = −∞
    is the number 0, printed as 0.

    >>> power_of_ten(55.8967), power_of_ten(400.0), power_of_ten(None), power_of_ten(-math.inf)
    ('7.88 × 10⁵⁵', '1 × 10⁴⁰⁰', '—', '0')
    """
    if log10_value is None:
        return "—"
    if math.isnan(log10_value):
        return "NaN"
    if math.isinf(log10_value):
        return "0" if log10_value < 0 else "∞"
    if abs(log10_value) < 300:
        return human(10.0**log10_value, digits)
    exponent = math.floor(log10_value)
    mantissa = 10.0 ** (log10_value - exponent)
    return f"{mantissa:.{digits}g} × 10{str(exponent).translate(_SUPERSCRIPT)}"


def percent(share: float | None) -> str:
    """A share in [0, 1] as a percentage.

    >>> percent(0.9999), percent(0.5), percent(1e-9)
    ('99.99 %', '50 %', '< 0.01 %')
    """
    if share is None:
        return "—"
    if 0.0 < share < 1e-4:
        return "< 0.01 %"
    return f"{100.0 * share:.4g} %"
