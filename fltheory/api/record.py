"""What every record of the façade shares: its ``--json`` keys as attributes, and ``str()`` as
a readable table (plain text: the Python API loads no terminal library)."""

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

#: Arrays longer than this print as their range.
LISTED = 8


def text_table(rows: list[list[str]]) -> str:
    """Rows of cells as plain aligned text (the first row the header), two spaces between
    columns.

    >>> print(text_table([["a", "bb"], ["ccc", "d"]]))
    a    bb
    ccc  d
    """
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    return "\n".join(line.rstrip() for line in lines)


def cell(value: Any) -> str:
    """One value as text: numbers to 6 significant digits, short arrays listed, long ones as
    their range, None as "—".

    >>> cell(0.123456789), cell([1.0, 2.0]), cell(np.arange(20.0)), cell(None), cell(True)
    ('0.123457', '[1, 2]', '0 … 19 (20 values)', '—', 'yes')
    """
    if value is None:
        return "—"
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating):
        x = float(value)
        return "0" if x == 0.0 else (f"{x:.6g}" if math.isfinite(x) else str(x))
    if isinstance(value, np.ndarray | list | tuple):
        arr = np.asarray(value, dtype=object)
        flat = arr.ravel().tolist()
        numeric = all(isinstance(x, int | float | np.number) for x in flat)
        if numeric and len(flat) > LISTED:
            values = np.asarray(flat, dtype=float)
            return f"{cell(values.min())} … {cell(values.max())} ({len(flat)} values)"
        if len(flat) > LISTED:
            return f"{len(flat)} entries"
        return "[" + ", ".join(cell(x) for x in value) + "]"
    if isinstance(value, Mapping):
        return f"{len(value)} entries"
    return str(value)


def flatten(mapping: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """(dotted key, value) pairs of a nested mapping, tables of tables unrolled.

    >>> flatten({"a": 1, "b": {"c": 2}})
    [('a', 1), ('b.c', 2)]
    """
    out: list[tuple[str, Any]] = []
    for key, value in mapping.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value and len(value) <= 16:
            out += flatten(value, f"{name}.")
        else:
            out.append((name, value))
    return out


class Record:
    """Mixin of the façade's records: every key of ``to_dict()`` (the command's ``--json``
    object) is an attribute, and ``str()`` is a two-column table of them."""

    #: The first line of ``str()``.
    TITLE = "record"

    def to_dict(self) -> dict[str, Any]:  # pragma: no cover - every record defines it
        raise NotImplementedError

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        payload = self.to_dict()
        if name in payload:
            return payload[name]
        raise AttributeError(f"{type(self).__name__} has no attribute or key {name!r}")

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self.to_dict()))

    def __str__(self) -> str:
        rows = [["key", "value"]] + [[k, cell(v)] for k, v in flatten(self.to_dict())]
        return f"{self.TITLE}\n{text_table(rows)}"
