"""Read and write recorded availability traces: rounds × clients, 0/1 (CSV or .npy)."""

from pathlib import Path

import numpy as np

from fltheory.errors import InputError


def load_trace(path: str | Path) -> np.ndarray:
    """A (T, N) boolean trace from ``.npy`` or ``.csv`` (one row per round, no header, or a
    header line of client names that is skipped when it is not numeric)."""
    from fltheory.markov.estimators import as_trace

    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: trace file not found")
    if path.suffix == ".npy":
        try:
            arr = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise InputError(f"{path}: not a readable .npy file ({exc})") from None
    elif path.suffix == ".csv":
        try:
            lines = [ln for ln in path.read_text().splitlines() if ln.strip()]
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"{path}: cannot read ({exc})") from None
        if lines and not _numeric(lines[0]):
            lines = lines[1:]
        if not lines:
            raise InputError(f"{path}: no rounds in the trace")
        try:
            arr = np.array([[float(v) for v in ln.split(",")] for ln in lines])
        except ValueError:
            raise InputError(f"{path}: every entry must be 0 or 1 and rows equally long") from None
    else:
        raise InputError(f"{path}: trace files must end in .csv or .npy")
    return as_trace(arr)


def _numeric(line: str) -> bool:
    try:
        [float(v) for v in line.split(",")]
    except ValueError:
        return False
    return True


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
