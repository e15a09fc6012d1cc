"""Numbers typed by users: decimals and fractions, parsed without overflow or runaway cost.

``float("1e400")`` is ``inf`` and ``Fraction("1e-99999999")`` builds a hundred-million-digit
integer; both are refused here, up front, by looking at the text: the decimal exponent must lie
within ±:data:`MAX_EXPONENT` and the text within :data:`MAX_DIGITS` characters before any exact
arithmetic happens.
"""

import math
import re
from fractions import Fraction

import numpy as np

from fltheory.errors import InputError

#: Largest |decimal exponent| accepted (doubles span about 1e-324 .. 1.8e308).
MAX_EXPONENT = 400
#: Longest number text accepted (digits of an exact decimal or of a fraction's terms).
MAX_DIGITS = 400

_DECIMAL = re.compile(r"[+-]?(?:\d+(?:_\d+)*)?(?:\.\d*)?(?:[eE]([+-]?\d+))?")


def _check_decimal(text: str, where: str) -> None:
    match = _DECIMAL.fullmatch(text)
    if match is None or not any(c.isdigit() for c in text.split("e")[0].split("E")[0]):
        raise InputError(f"{where}: '{text}' is not a number or fraction")
    exponent = match.group(1)
    if exponent is not None and (len(exponent) > 6 or abs(int(exponent)) > MAX_EXPONENT):
        raise InputError(
            f"{where}: '{text}' has a decimal exponent beyond ±{MAX_EXPONENT} (no double holds it)"
        )


def parse_fraction(text: str, where: str) -> Fraction:
    """The exact value of a decimal (``0.25``, ``1e-3``) or fraction (``1/3``) text.

    >>> parse_fraction("1/3", "entry")
    Fraction(1, 3)
    >>> parse_fraction("1e-99999999", "x")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: x: '1e-99999999' has a decimal exponent beyond ±400 ...
    """
    text = text.strip()
    if len(text) > MAX_DIGITS:
        raise InputError(f"{where}: a number of {len(text)} characters is too long")
    parts = text.split("/")
    if len(parts) > 2:
        raise InputError(f"{where}: '{text}' is not a number or fraction")
    for part in parts:
        _check_decimal(part.strip(), where)
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{where}: '{text}' is not a number or fraction") from None
    return value


def parse_float(text: str, where: str) -> float:
    """A finite double from a decimal or fraction text (overflow is an error, not ``inf``).

    >>> parse_float("0.5", "--client")
    0.5
    >>> parse_float("1e400", "--client")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: --client: '1e400' overflows a double (largest about 1.8e308)
    """
    stripped = text.strip()
    if "/" in stripped:
        value = parse_fraction(stripped, where)
        try:
            result = float(value)
        except OverflowError:
            result = math.inf
    else:  # a decimal: float() rounds exactly as Fraction would, without building one
        if len(stripped) > MAX_DIGITS:
            raise InputError(f"{where}: a number of {len(stripped)} characters is too long")
        _check_decimal(stripped, where)
        result = float(stripped)
    if not math.isfinite(result):
        raise InputError(f"{where}: '{text.strip()}' overflows a double (largest about 1.8e308)")
    return result


_EXPONENT = re.compile(r"[eE][+-]?0*(\d+)")


def _exponents_bounded(raw: np.ndarray) -> bool:
    """Whether every decimal exponent in the ASCII bytes ``raw`` lies within ±MAX_EXPONENT
    (vectorised: only exponents of three or more digits are read one by one)."""
    marks = np.flatnonzero((raw | 0x20) == ord("e"))
    if marks.size == 0:
        return True
    padded = np.concatenate([raw, np.zeros(4, dtype=np.uint8)])
    start = marks + 1 + np.isin(padded[marks + 1], (ord("+"), ord("-")))
    digit = lambda i: (padded[i] >= ord("0")) & (padded[i] <= ord("9"))  # noqa: E731
    long = marks[digit(start) & digit(start + 1) & digit(start + 2)]
    for mark in long.tolist():
        match = _EXPONENT.match(raw[mark : mark + 32].tobytes().decode("ascii"))
        if match is None or len(match.group(1)) > 6 or int(match.group(1)) > MAX_EXPONENT:
            return False
    return True


def fast_table(text: str) -> np.ndarray | None:
    r"""The (rows, columns) doubles of plain comma-separated ASCII numbers (one row a line, no
    blank or comment lines, equal row lengths, every value finite), parsed in C; None when the
    text is anything else, for the careful path (:func:`parse_table`) to explain.

    Each line end becomes a ``,inf,`` marker, so that the row structure is checked on the
    parsed values: a valid table has infinities exactly at the end of each row, nowhere else.

    >>> fast_table("1,2\n3,4\n").tolist(), fast_table("1,2\n3,nan\n"), fast_table("1,2,3\n4\n")
    ([[1.0, 2.0], [3.0, 4.0]], None, None)
    >>> fast_table("1,2\n ,4\n") is None  # a blank field
    True
    """
    body = text.rstrip("\r\n")
    if not body or not body.isascii() or "#" in body or "i" in body or "I" in body:
        return None  # "#": comments; "i": inf/nan spellings take the careful path
    if not _exponents_bounded(np.frombuffer(body.encode("ascii"), dtype=np.uint8)):
        return None
    n_rows = body.count("\n") + 1
    try:  # raises on any stray token, including an empty field
        flat = np.fromstring(body.replace("\n", ",inf,") + ",inf", sep=",")
    except ValueError:
        return None
    # numpy reads a blank field as -1 (or skips it): a -1 anywhere takes the careful path.
    if flat.size != body.count(",") + 2 * n_rows or (flat == -1.0).any():
        return None
    if flat.size % n_rows:  # rows of different lengths
        return None
    table = flat.reshape(n_rows, flat.size // n_rows)
    ends = np.isinf(table[:, -1])
    values = table[:, :-1]
    if table.shape[1] < 2 or not ends.all() or not np.isfinite(values).all():
        return None
    return np.ascontiguousarray(values)


def parse_table(text: str, where: str, *, first_line: int = 1) -> tuple[np.ndarray, np.ndarray]:
    r"""(values, line numbers): the rows of comma-separated numbers in ``text`` as a 2-D array
    of finite doubles, skipping blank lines and ``#`` comments; ``first_line`` is the number of
    the text's first line in its file, for messages.

    Every number obeys :func:`parse_float` (decimal exponent within ±:data:`MAX_EXPONENT`, no
    NaN, no infinity, no overflow); rows must be equally long. Plain files are parsed in C
    (vectorised); anything else goes through the per-entry path that names the offending line.

    >>> values, lines = parse_table("0.5,1\n\n2e-3,4\n", "t.csv")
    >>> values.tolist(), lines.tolist()
    ([[0.5, 1.0], [0.002, 4.0]], [1, 3])
    >>> parse_table("1,2\n1e400,3\n", "t.csv")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: t.csv line 2: '1e400' overflows a double (largest about 1.8e308)
    """
    fast = fast_table(text)
    if fast is not None:
        return fast, np.arange(first_line, first_line + fast.shape[0])
    rows: list[list[float]] = []
    lines: list[int] = []
    for number, line in enumerate(text.splitlines(), start=first_line):
        content = line.split("#")[0].strip()
        if not content.strip(", \t"):
            continue
        row = [parse_float(x, f"{where} line {number}") for x in content.split(",")]
        if rows and len(row) != len(rows[0]):
            raise InputError(
                f"{where} line {number}: {len(row)} entries, expected {len(rows[0])} (first row)"
            )
        rows.append(row)
        lines.append(number)
    if not rows:
        raise InputError(f"{where}: no numbers in the file")
    return np.array(rows, dtype=float), np.array(lines)
