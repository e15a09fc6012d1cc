"""Read and write recorded availability traces: rounds × clients, 0/1 (CSV or .npy)."""

from pathlib import Path

import numpy as np

from fltheory.config.files import load_npy, read_text
from fltheory.config.numbers import parse_table
from fltheory.errors import InputError

#: Largest CSV trace read (bytes); larger traces belong in .npy files.
MAX_TRACE_CSV_BYTES = 256 * 2**20


def load_trace(path: str | Path) -> np.ndarray:
    """A (T, N) boolean trace from ``.npy`` or ``.csv`` (one row per round, no header, or a
    header line of client names that is skipped when it is not numeric)."""
    from fltheory.markov.estimators import as_trace

    path = Path(path)
    what = "trace file"
    if path.suffix == ".npy":
        arr = load_npy(path, what, ndim=2)
    elif path.suffix == ".csv":
        text = read_text(path, what, max_bytes=MAX_TRACE_CSV_BYTES)
        first, _, rest = text.partition("\n")
        numeric = any(c.isdigit() for c in first) and not any(c.isalpha() for c in first)
        body, start = (text, 1) if numeric else (rest, 2)
        if not body.strip():
            raise InputError(f"{path}: no rounds in the trace")
        arr, _ = parse_table(body, str(path), first_line=start)
    else:
        raise InputError(f"{path}: trace files must end in .csv or .npy")
    return as_trace(arr)


def save_trace(path: str | Path, trace: np.ndarray) -> None:
    """Write a (T, N) trace as .npy or 0/1 CSV (chosen by the suffix)."""
    path = Path(path)
    arr = np.asarray(trace, dtype=bool)
    if path.suffix == ".npy":
        np.save(path, arr)
    elif path.suffix == ".csv":
        np.savetxt(path, arr.astype(int), fmt="%d", delimiter=",")
    else:
        raise InputError(f"{path}: trace files must end in .csv or .npy")
