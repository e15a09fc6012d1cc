"""Output helpers shared by subcommands: one JSON object on stdout, or rich tables."""

import json
import math
import sys
from typing import Any

import numpy as np
from rich.console import Console


def to_jsonable(value: Any) -> Any:
    """Convert numpy scalars/arrays, tuples and non-finite floats to JSON-safe values.

    NaN and ±inf become ``None`` (JSON has no such numbers); callers that need to say *why* a
    value is missing add a separate key for it.
    """
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
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


def emit_json(payload: dict[str, Any]) -> None:
    """Print ``payload`` as a single JSON object on stdout and nothing else."""
    sys.stdout.write(json.dumps(to_jsonable(payload), allow_nan=False) + "\n")


def console() -> Console:
    """A rich console on stdout for human-readable output."""
    return Console()


def warn(message: str) -> None:
    """A one-line warning on stderr (never on stdout, which may carry JSON)."""
    Console(stderr=True).print(f"[yellow]warning:[/yellow] {message}", highlight=False)
