"""Reprs that rebuild the object: arrays as nested Python lists of shortest round-trip floats, so
that a counterexample printed by hypothesis (or a log) can be pasted back to rebuild it exactly.

>>> import numpy as np
>>> array_literal(np.array([0.1, 1 / 3]))
'[0.1, 0.3333333333333333]'
>>> call_literal("Demo", [("x", "[1]"), ("y", None)])
'Demo(x=[1])'
"""

from typing import Any

import numpy as np


def array_literal(values: Any) -> str:
    """``values`` as a Python literal (floats with the shortest repr that round-trips)."""
    return repr(np.asarray(values).tolist())


def call_literal(name: str, arguments: list[tuple[str, str | None]]) -> str:
    """``name(key=value, ...)`` over the arguments whose source is not None."""
    inner = ", ".join(f"{key}={value}" for key, value in arguments if value is not None)
    return f"{name}({inner})"
