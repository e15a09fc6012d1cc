"""Reading chains from files and command-line specs (thin shell over the chain classes).

Formats for a transition matrix:

* ``.csv``: M rows of M entries, no header; entries are decimals (``0.25``) or fractions
  (``1/3``), kept as text so the exact path reads them as rationals.
* ``.npy``: an M×M float array.
* ``.json``: ``{"P": [[...], ...], "state_clients": [[0, 2], [1], [], ...]}``; entries are numbers
  or fraction strings; ``state_clients`` (optional) lists the clients active in each state.

A state→clients map may also come from its own file (``.csv``/``.npy``: an M×N 0/1 matrix, or
``.json``: a list of client-index lists).
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from fltheory.config.files import load_json, load_npy, read_text, regular_file
from fltheory.config.numbers import parse_float
from fltheory.errors import InputError
from fltheory.markov.chain import MarkovChain
from fltheory.markov.validate import EXACT_MAX_STATES


@dataclass(frozen=True)
class MatrixSpec:
    """A transition matrix as floats and as the text it was written in, plus a state map."""

    matrix: np.ndarray
    entries: list[list[str]]
    state_clients: list[list[int]] | None


#: Most states a matrix file may describe (a dense M×M matrix of doubles of 1.6 GB).
MAX_STATES = 15_000


def _parse_entry(text: str, where: str) -> float:
    return parse_float(text, where)


def _square(rows: list[list[str]], path: Path) -> MatrixSpec:
    m = len(rows)
    if m == 0:
        raise InputError(f"{path}: the transition matrix is empty")
    if m > MAX_STATES:
        raise InputError(f"{path}: {m:,} states; at most {MAX_STATES:,} are accepted")
    for i, row in enumerate(rows):
        if len(row) != m:
            raise InputError(f"{path}: row {i} has {len(row)} entries, expected {m} (square)")
    values = np.array(
        [[_parse_entry(x, f"{path} row {i}") for x in row] for i, row in enumerate(rows)]
    )
    return MatrixSpec(values, rows, None)


def _read_text_rows(path: Path, what: str) -> list[list[str]]:
    lines = [ln.strip() for ln in read_text(path, what).splitlines()]
    return [[x.strip() for x in ln.split(",")] for ln in lines if ln and not ln.startswith("#")]


def _client_lists_from_indicator(indicator: np.ndarray, path: Path) -> list[list[int]]:
    if indicator.ndim != 2 or indicator.size == 0 or not np.isin(indicator, (0, 1)).all():
        raise InputError(f"{path}: a state→clients matrix must be 2-D with 0/1 entries")
    return [np.flatnonzero(row).tolist() for row in indicator]


def _client_lists_from_json(raw: object, path: Path) -> list[list[int]]:
    if not isinstance(raw, list) or not all(isinstance(s, list) for s in raw):
        raise InputError(f"{path}: state_clients must be a list of client-index lists")
    try:
        return [[int(k) for k in s] for s in raw]
    except (TypeError, ValueError):
        raise InputError(f"{path}: state_clients entries must be integers") from None


def read_state_clients(path: str | Path) -> list[list[int]]:
    """Read a state→clients map (see module docstring for formats)."""
    what = "state map file"
    path = regular_file(path, what)
    suffix = path.suffix.lower()
    if suffix == ".json":
        return _client_lists_from_json(load_json(path, what), path)
    if suffix == ".npy":
        return _client_lists_from_indicator(load_npy(path, what, ndim=2, kinds="biu"), path)
    if suffix == ".csv":
        rows = _read_text_rows(path, what)
        try:
            indicator = np.array([[int(x) for x in row] for row in rows])
        except ValueError:
            raise InputError(f"{path}: state→clients CSV must hold 0/1 integers") from None
        return _client_lists_from_indicator(indicator, path)
    raise InputError(f"{path}: unknown state map format '{suffix}' (use .csv, .npy or .json)")


def read_matrix(path: str | Path) -> MatrixSpec:
    """Read a transition matrix file (and the state map a JSON file may carry)."""
    what = "matrix file"
    path = regular_file(path, what)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return _square(_read_text_rows(path, what), path)
    if suffix == ".npy":
        array = load_npy(path, what, ndim=2, kinds="f")
        if array.shape[0] != array.shape[1] or array.shape[0] > MAX_STATES:
            _square([[""] * array.shape[1]] * min(array.shape[0], MAX_STATES + 1), path)
        if not np.isfinite(array).all():
            raise InputError(f"{path}: the transition matrix has a non-finite entry")
        return _square([[repr(float(x)) for x in row] for row in array], path)
    if suffix == ".json":
        raw = load_json(path, what)
        if isinstance(raw, list):
            raw = {"P": raw}
        if not isinstance(raw, dict) or "P" not in raw:
            raise InputError(f"{path}: expected an object with key 'P' (the transition matrix)")
        rows = raw["P"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise InputError(f"{path}: 'P' must be a list of rows")
        for i, row in enumerate(rows):
            for x in row:
                if isinstance(x, bool) or not isinstance(x, int | float | str):
                    raise InputError(f"{path} row {i}: {x!r} is not a number or fraction")
        spec = _square([[str(x) for x in r] for r in rows], path)
        states = raw.get("state_clients")
        clients = None if states is None else _client_lists_from_json(states, path)
        return MatrixSpec(spec.matrix, spec.entries, clients)
    raise InputError(f"{path}: unknown matrix format '{suffix}' (use .csv, .npy or .json)")


def parse_client_spec(spec: str) -> tuple[float, float]:
    """Parse ``PI:LAMBDA2`` (e.g. ``0.9:0.5``) into floats."""
    parts = spec.split(":")
    if len(parts) != 2:
        raise InputError(f"--client '{spec}': expected PI:LAMBDA2, e.g. 0.9:0.5")
    pi, lambda2 = (_parse_entry(p, f"--client '{spec}'") for p in parts)
    return pi, lambda2


def load_chain(
    matrix_path: str | Path, states_path: str | Path | None = None, *, exact: bool = False
) -> MarkovChain:
    """A dense chain from a matrix file and an optional state-map file (which overrides a map
    the JSON carries).

    The exact entries of the file are kept when they can be (M ≤ EXACT_MAX_STATES and rows
    summing to exactly 1), so that a near-defective spectrum falls back to the exact Jordan path
    instead of failing; ``exact=True`` requires them.

    >>> from pathlib import Path
    >>> examples = Path(__file__).resolve().parents[2] / "examples"
    >>> chain = load_chain(examples / "chain_sticky3.csv", examples / "chain_sticky3_states.json")
    >>> chain.n_states, chain.n_clients, chain.client_availability.round(4).tolist()
    (3, 2, [0.7917, 0.3333])
    """
    spec = read_matrix(matrix_path)
    state_clients = read_state_clients(states_path) if states_path else spec.state_clients
    if exact or spec.matrix.shape[0] <= EXACT_MAX_STATES:
        try:
            return MarkovChain.from_rational(spec.entries, state_clients=state_clients)
        except InputError:
            if exact:
                raise
    return MarkovChain(spec.matrix, state_clients=state_clients)
