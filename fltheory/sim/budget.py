"""Memory a simulation would need, estimated from the raw config before anything is built.

The largest arrays of a run are of two kinds:

* (R, T, N) arrays: the uniforms an availability process draws its trace from (float64, drawn
  per seed and stacked: up to 32 bytes an entry for the two-state chains), the boolean trace
  itself, and per algorithm the applied weights (float32) and the inclusion flags;
* arrays of P model parameters (:mod:`fltheory.sim.sizes` gives P from the ``[problem]`` table):
  the problem's own data and fixed arrays; per algorithm the global models kept at every
  evaluation (R × evaluations × P) and the final one; while an algorithm runs, the
  (rows, P) copies of the models its local steps start from and end at — every (seed,
  client) row at once for quadratics, chunks of at most :func:`chunk_bytes` for data
  problems — and the (R, N, P) client tables of the algorithms that keep one.

:func:`check_config_size` refuses, with :func:`fltheory.resources.require_memory`'s one line,
a config whose estimate exceeds the machine (or its ``memory_limit``) — before torch is imported
or any data is made. The CLI, sweeps and the Python API all call it (through
:func:`fltheory.sim.config.build`, or up front for a sweep's points × its workers).
"""

from typing import Any

from fltheory.errors import InputError
from fltheory.resources import human_bytes, parse_bytes, require_memory
from fltheory.sim.sizes import ProblemSize, problem_size

#: Bytes per (seed, round, client) entry of the availability draw and trace.
TRACE_BYTES = 33
#: Bytes per (seed, round, client) entry of each algorithm's records (float32 weight, bool).
RECORD_BYTES = 5
#: Clients assumed when the config leaves the number to a plug-in's default.
DEFAULT_CLIENTS = 100
#: Copies of the (rows, P) parameters the engine holds while it steps rows (start, end,
#: difference, weighted difference).
ROW_COPIES = 4
#: (R, N, P) tables (kept, and a copy while a round updates it) of an algorithm that keeps
#: one per client, or of local momentum buffers.
CLIENT_TABLES = 2
#: Algorithms that keep an (R, N, P) table of their clients (:mod:`fltheory.sim.algorithms`).
TABLE_ALGORITHMS = frozenset({"fedar", "fedpbc", "fedvarp", "mifa", "scaffold"})
#: Algorithms that keep more than the server model at each evaluation (FedPBC: the clients'
#: mean model too), and how many models in all.
EVAL_MODELS = {"fedpbc": 2}
#: Bytes of one chunk of a data problem's local steps: the features it gathers, or the
#: engine's (rows, P) copies. Fixed — never sized from the free memory, so that results do
#: not depend on the machine's load; a ``memory_limit`` lowers it (see :func:`chunk_bytes`).
LOCAL_CHUNK_BYTES = 256 * 2**20
#: Share of a ``memory_limit`` one chunk of local steps may use.
LOCAL_FRACTION = 1 / 16


def chunk_bytes(memory_limit: int | None) -> int:
    """Bytes of one chunk of local steps: :data:`LOCAL_CHUNK_BYTES`, or a 16th of an explicit
    ``memory_limit`` when that is smaller — never a function of the free memory.

    >>> chunk_bytes(None) == LOCAL_CHUNK_BYTES, chunk_bytes(2**30) // 2**20
    (True, 64)
    """
    if memory_limit is None:
        return LOCAL_CHUNK_BYTES
    return int(min(LOCAL_CHUNK_BYTES, LOCAL_FRACTION * memory_limit))


def _count(value: Any) -> int | None:
    """A positive integer of the config, or None (wrong types are the parser's to report)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return None
    return value


def _table(raw: dict[str, Any], key: str) -> dict[str, Any]:
    value = raw.get(key)
    return value if isinstance(value, dict) else {}


def config_size(raw: dict[str, Any]) -> tuple[int, int, int, int]:
    """(seeds R, rounds T, clients N, algorithms A) as far as the raw config says them
    (defaults where it does not, 1 where a value is malformed).

    >>> config_size({"seeds": 3, "run": {"rounds": 10}, "problem": {"u": [[0.0], [1.0]]},
    ...              "algorithms": [{"name": "fedavg"}]})
    (3, 10, 2, 1)
    """
    run = _table(raw, "run")
    problem = _table(raw, "problem")
    algorithms = raw.get("algorithms")
    seeds = _count(raw.get("seeds", 1)) or 1
    rounds = _count(run.get("rounds")) or 1
    clients = _count(problem.get("n_clients"))
    if clients is None and isinstance(problem.get("u"), list):
        clients = len(problem["u"])
    n_algorithms = len(algorithms) if isinstance(algorithms, list) else 1
    return seeds, rounds, clients or DEFAULT_CLIENTS, max(n_algorithms, 1)


def _evaluations(rounds: int, every: int) -> int:
    """Rounds after which the models are evaluated and kept: every ``every``-th and the last."""
    return rounds // every + (1 if rounds % every else 0)


def _names(raw: dict[str, Any]) -> list[Any]:
    algorithms = raw.get("algorithms")
    if not isinstance(algorithms, list):
        return []
    return [a.get("name") for a in algorithms if isinstance(a, dict)]


def _keeps_client_tables(raw: dict[str, Any]) -> bool:
    run = _table(raw, "run")
    names = _names(raw)
    momentum = run.get("local_momentum", 0)
    moving = isinstance(momentum, int | float) and not isinstance(momentum, bool) and momentum > 0
    # a [local] method may keep one (R, N, P) buffer (``LocalMethod.needs_buffer``): counted
    # whenever the table is there (it is known only once the method is built)
    own_local = isinstance(raw.get("local"), dict)
    return moving or own_local or any(name in TABLE_ALGORITHMS for name in names)


def _memory_limit(raw: dict[str, Any]) -> int | None:
    limit = raw.get("memory_limit")
    return None if limit is None else parse_bytes(limit, "memory_limit")


def footprint(raw: dict[str, Any]) -> dict[str, float]:
    """Estimated bytes of a run of the raw config, by part: ``trace`` (availability and
    per-round records), ``data`` (the problem's arrays), ``models`` (kept at evaluations),
    ``steps`` (the rows of local steps and client tables while one algorithm runs).

    >>> parts = footprint({"seeds": 2, "run": {"rounds": 4},
    ...                    "problem": {"kind": "fedpbc_quadratic", "n_clients": 3, "dim": 10},
    ...                    "algorithms": [{"name": "fedavg"}]})
    >>> parts["trace"], parts["models"], parts["steps"]
    (912, 480, 960)
    """
    seeds, rounds, clients, n_algorithms = config_size(raw)
    size: ProblemSize = problem_size(_table(raw, "problem"), clients)
    clients, params = size.n_clients, size.n_params
    run = _table(raw, "run")
    itemsize = 8 if raw.get("dtype") == "float64" else 4
    evals = _evaluations(rounds, _count(run.get("eval_every")) or 1)
    rows: float = ROW_COPIES * seeds * clients * params * itemsize
    if size.chunked:  # the engine's update rows and the gathered features, a chunk at most
        chunk = chunk_bytes(_memory_limit(raw))
        batch = _count(run.get("batch_size")) or size.samples
        steps = _count(run.get("local_steps")) or 1
        gathered = seeds * clients * steps * batch * (size.features + 2) * itemsize
        rows = min(rows, chunk) + min(gathered, chunk)
    tables = CLIENT_TABLES * seeds * clients * params * itemsize
    names = _names(raw)
    kept = max(n_algorithms, len(names)) + sum(
        EVAL_MODELS.get(name, 1) - 1 for name in names if isinstance(name, str)
    )
    return {
        "trace": seeds * rounds * clients * (TRACE_BYTES + RECORD_BYTES * n_algorithms),
        "data": size.data_bytes,
        "models": kept * seeds * params * (itemsize * evals + 8),
        "steps": rows + (tables if _keeps_client_tables(raw) else 0),
    }


#: What each part of :func:`footprint` holds, for messages.
PARTS = {
    "trace": "the availability trace and per-round records",
    "data": "the problem's data",
    "models": "the models kept at each evaluation",
    "steps": "the local steps' model copies",
}


def check_config_size(raw: dict[str, Any], runs_at_once: int = 1) -> None:
    """Refuse a config whose arrays (:func:`footprint`), for ``runs_at_once`` runs side by
    side (a sweep's workers), would not fit in the available memory (or in its
    ``memory_limit``, which bounds each run).

    >>> check_config_size({"seeds": 2, "run": {"rounds": 4}, "problem": {"n_clients": 3}})
    >>> check_config_size({"seeds": 2, "run": {"rounds": 4}, "problem": {"n_clients": 3},
    ...                    "memory_limit": "100B"})
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: would need ~912 B for ...; the limit is 100 B (... available)
    >>> check_config_size({"seeds": 10**9, "run": {"rounds": 4}, "problem": {"n_clients": 3}})
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: would need ~... most of it for the availability trace ...
    >>> check_config_size({"run": {"rounds": 3}, "algorithms": [{"name": "fedavg"}],
    ...                    "problem": {"kind": "fedpbc_quadratic", "n_clients": 10, "dim": 10**9}})
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: would need ~... for a run of 10 clients × 1,000,000,000 ...
    """
    if runs_at_once < 1:
        raise InputError(f"runs at once must be >= 1, got {runs_at_once}")
    seeds, rounds, clients, n_algorithms = config_size(raw)
    size = problem_size(_table(raw, "problem"), clients)
    parts = footprint(raw)
    needed = sum(parts.values())
    largest = max(parts, key=lambda k: parts[k])
    shape = (
        f"{size.n_clients:,} clients × {size.n_params:,} parameters × {seeds:,} seed(s) × "
        f"{rounds:,} rounds × {n_algorithms} algorithm(s)"
    )
    runs = "a run" if runs_at_once == 1 else f"{runs_at_once} runs at once, each"
    what = f"{runs} of {shape}, most of it for {PARTS[largest]} ({human_bytes(parts[largest])})"
    limit = _memory_limit(raw)
    if limit is not None:
        require_memory(needed, what, limit=limit)
    require_memory(needed * runs_at_once, what)


#: Tables every simulation config must have (those of ``SimFile`` without a default).
REQUIRED_TABLES = ("run", "problem", "availability", "algorithms")


def check_required_tables(raw: dict[str, Any], source: str) -> None:
    """Refuse a config without one of :data:`REQUIRED_TABLES` (in the words of the schema's
    message), before the schema itself — which imports torch — is loaded.

    >>> check_required_tables({"run": {}}, "s.toml")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: missing table [problem] in s.toml
    """
    for name in REQUIRED_TABLES:
        if name not in raw:
            raise InputError(f"missing table [{name}] in {source}")
