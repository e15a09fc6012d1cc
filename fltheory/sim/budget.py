"""Memory a simulation would need, estimated from the raw config before anything is built.

The largest arrays of a run are (R, T, N): the uniforms an availability process draws its trace
from (float64, drawn per seed and stacked: up to 32 bytes an entry for the two-state chains), the
boolean trace itself, and per algorithm the applied weights (float32) and the inclusion flags.
:func:`check_config_size` refuses, with :func:`fltheory.resources.require_memory`'s one line,
a config whose estimate exceeds the machine — before torch is imported or any data is made.
"""

from typing import Any

from fltheory.errors import InputError
from fltheory.resources import parse_bytes, require_memory

#: Bytes per (seed, round, client) entry of the availability draw and trace.
TRACE_BYTES = 33
#: Bytes per (seed, round, client) entry of each algorithm's records (float32 weight, bool).
RECORD_BYTES = 5
#: Clients assumed when the config leaves the number to a plug-in's default.
DEFAULT_CLIENTS = 100


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


def check_config_size(raw: dict[str, Any]) -> None:
    """Refuse a config whose (R, T, N) arrays would not fit in the available memory (or in
    its ``memory_limit``).

    >>> check_config_size({"seeds": 2, "run": {"rounds": 4}, "problem": {"n_clients": 3}})
    >>> check_config_size({"seeds": 2, "run": {"rounds": 4}, "problem": {"n_clients": 3},
    ...                    "memory_limit": "100B"})
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: would need ~912 B for ...; the limit is 100 B (... available)
    >>> check_config_size({"seeds": 10**9, "run": {"rounds": 4}, "problem": {"n_clients": 3}})
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: would need ~... for the availability trace and per-round records ...
    """
    seeds, rounds, clients, n_algorithms = config_size(raw)
    entries = seeds * rounds * clients
    needed = entries * (TRACE_BYTES + RECORD_BYTES * n_algorithms)
    limit = raw.get("memory_limit")
    require_memory(
        needed,
        f"the availability trace and per-round records ({seeds:,} seeds × {rounds:,} rounds × "
        f"{clients:,} clients, {n_algorithms} algorithm(s))",
        limit=None if limit is None else parse_bytes(limit, "memory_limit"),
    )
