"""JSON-safe values from numpy scalars and arrays, tuples, complex and non-finite numbers.

Used by the library (result files) and by the CLI (``--json`` output) alike.
"""

import math
from typing import Any

import numpy as np


def to_jsonable(value: Any) -> Any:
    """Convert numpy scalars/arrays, tuples and non-finite floats to JSON-safe values.

    NaN and ±inf become ``None`` (JSON has no such numbers); callers that need to say *why* a
    value is missing add a separate key for it.

    >>> to_jsonable({"a": np.array([1.5, np.inf]), 2: (np.int64(3), True)})
    {'a': [1.5, None], '2': [3, True]}
    """
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return _array(value)
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer, int)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        f = float(value)
        return f if math.isfinite(f) else None
    if isinstance(value, complex):
        return [to_jsonable(value.real), to_jsonable(value.imag)]
    return value


def _array(value: np.ndarray) -> Any:
    """Nested lists of a numeric array in C (``tolist``), non-finite floats as None; other
    dtypes (complex, objects) element by element."""
    if value.dtype.kind in "biu":
        return value.tolist()
    if value.dtype.kind == "f":
        finite = np.isfinite(value)
        if finite.all():
            return value.tolist()
        entries = value.astype(object)
        entries[~finite] = None
        return entries.tolist()
    return to_jsonable(value.tolist())
