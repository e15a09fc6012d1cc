"""One availability model for the simulator and the theory: an ``[availability]`` table.

The table of a simulation config (``kind`` and that kind's fields, ``docs/plugins.md``) is the
one way to write a setting's availability: the simulator builds its process from it
(:func:`fltheory.sim.config.loader.build_availability`), and the theory commands build the same
process here and take its Markov chain (:func:`availability_chain`): independent two-state
clients, clusters and finite chains carry one (their ``chain``); independent links are two-state
chains with λ₂ = 0 (CA-Fed eq. 236); a day cycle or a replayed trace has no stationary chain and
is refused by name.

Every kind also takes ``n_clients``; a table fixes N itself when it lists one value per client,
has ``groups`` (a ``count`` each) or reads a file, and otherwise takes N from its context (the
simulated problem, the rows of a problem file's ``u``) or from ``n_clients``.

No torch here: the theory commands use this module without loading the simulator's engine.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fltheory.config.schema import parse, table_name
from fltheory.errors import FLTheoryError, InputError
from fltheory.markov.product import ProductChain
from fltheory.markov.protocol import AvailabilityChain, is_availability_chain
from fltheory.registry import Entry
from fltheory.sim.availability import BernoulliLinks, ChainBacked, UniformNoiseLinks
from fltheory.sim.registries import AVAILABILITY, AvailabilityContext

#: The key every ``[availability]`` table takes besides its kind's fields.
N_CLIENTS_KEY = "n_clients"
#: Most clients ``n_clients`` may ask for.
MAX_N_CLIENTS = 10_000_000

Source = str | Path | None


def availability_params(
    data: Any, source: Source = None, table: str = "availability"
) -> tuple[Entry[Any], Any, int | None]:
    """(registry entry, validated parameters, the table's ``n_clients`` or None) of an
    ``[availability]`` table: ``kind``, that kind's fields and, for any kind, ``n_clients``.

    >>> entry, params, n = availability_params({"kind": "bernoulli", "p": 0.5, "n_clients": 3})
    >>> entry.name, params.p, n
    ('bernoulli', 0.5, 3)
    >>> availability_params({"kind": "two_state", "pi": 0.5, "lambda2": 0.0, "pie": 1})
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: unknown key 'pie' in [availability]; did you mean 'pi'?
    """
    where = table_name(table, source)
    if not isinstance(data, dict):
        raise InputError(f"{where} must be a table, got {type(data).__name__}")
    if "kind" not in data:
        raise InputError(f"missing key 'kind' in {where} (choose from: {_kinds()})")
    kind = data["kind"]
    if not isinstance(kind, str):
        raise InputError(f"key 'kind' in {where}: expected a string, got {kind!r}")
    entry = AVAILABILITY.get(kind, where=where)
    body = {k: v for k, v in data.items() if k not in ("kind", N_CLIENTS_KEY)}
    n = data.get(N_CLIENTS_KEY)
    if n is not None and (
        isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_N_CLIENTS
    ):
        raise InputError(
            f"key '{N_CLIENTS_KEY}' in {where}: must be an integer from 1 to "
            f"{MAX_N_CLIENTS:,}, got {n!r}"
        )
    params = parse(entry.params, body, table=table, source=source)
    return entry, params, n


def table_size(data: Any, base: str | Path = ".", source: Source = None) -> int | None:
    """The number of clients an ``[availability]`` table fixes by itself (its ``n_clients``,
    groups, per-client lists or file), None when it fits any number.

    >>> table_size({"kind": "two_state", "pi": [0.5, 0.4], "lambda2": 0.0})
    2
    >>> table_size({"kind": "ca_fed"}) is None
    True
    """
    _, params, own_n = availability_params(data, source)
    if own_n is not None:
        return own_n
    size_of = getattr(params, "size", None)
    try:
        return size_of(Path(base)) if callable(size_of) else None
    except FLTheoryError as err:
        raise _located(table_name("availability", source), err) from None


def _kinds() -> str:
    return ", ".join(AVAILABILITY.names())


def _located(where: str, err: FLTheoryError) -> FLTheoryError:
    return type(err)(f"{where}: {err}")


@dataclass(frozen=True, eq=False)
class BuiltAvailability:
    """What one ``[availability]`` table builds: the kind, the process the simulator samples,
    its named client groups, and the table with every default filled in (``resolved``)."""

    kind: str
    process: Any
    groups: dict[str, np.ndarray]
    resolved: dict[str, Any]

    @property
    def n_clients(self) -> int:
        return int(self.process.n_clients)


def build_table(
    data: Any,
    *,
    n_clients: int | None = None,
    seed: int = 0,
    base: str | Path = ".",
    source: Source = None,
    table: str = "availability",
    context: str = "the setting",
) -> BuiltAvailability:
    """Build the process of an ``[availability]`` table; N is the table's own (its groups, its
    per-client lists, its file, its ``n_clients``) and must agree with ``n_clients`` when both
    are known. ``base`` is the folder relative paths start from; ``seed`` draws the kinds that
    draw (``ca_fed``); ``context`` names where ``n_clients`` comes from in messages.

    >>> built = build_table({"kind": "two_state", "groups": [
    ...     {"name": "office", "count": 2, "pi": 0.85, "lambda2": 0.2},
    ...     {"name": "mobile", "count": 1, "pi": 0.15, "lambda2": 0.95}]})
    >>> built.n_clients, built.process.pi.tolist(), list(built.groups)
    (3, [0.85, 0.85, 0.15], ['office', 'mobile'])
    >>> build_table({"kind": "ca_fed"})
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: [availability]: kind 'ca_fed' does not fix the number of ...
    """
    where = table_name(table, source)
    entry, params, own_n = availability_params(data, source, table)
    base = Path(base)
    if own_n is not None and n_clients is not None and own_n != n_clients:
        raise InputError(f"{where} has {N_CLIENTS_KEY} = {own_n}, {context} {n_clients} clients")
    n = own_n if own_n is not None else n_clients
    if n is None:  # only then ask the table (a file it names is read once more when built)
        size_of = getattr(params, "size", None)
        try:
            n = size_of(base) if callable(size_of) else None
        except FLTheoryError as err:
            raise _located(where, err) from None
    if n is None:
        raise InputError(
            f"{where}: kind '{entry.name}' does not fix the number of clients here: add "
            f"{N_CLIENTS_KEY} = N (or give groups with a count, or one value per client)"
        )
    listed = getattr(params, "groups", None)
    if isinstance(listed, list) and listed and n != sum(g.count for g in listed):
        total = sum(g.count for g in listed)
        raise InputError(f"{where}: the groups count {total} clients, {context} has {n}")
    try:
        process, groups = entry.build(params, AvailabilityContext(n, seed, base))
    except FLTheoryError as err:
        raise _located(where, err) from None
    if process.n_clients != n:
        raise InputError(f"{where} describes {process.n_clients} clients, {context} {n}")
    resolved = {"kind": entry.name, **params.model_dump(mode="json")}
    if own_n is not None:
        resolved[N_CLIENTS_KEY] = own_n
    return BuiltAvailability(entry.name, process, dict(groups), resolved)


def process_chain(process: Any, kind: str) -> AvailabilityChain:
    """The stationary Markov chain of a simulator process (CA-Fed Assumption 1): its ``chain``,
    or, for links independent over rounds, two-state chains with λ₂ = 0 (eq. 236).

    >>> process_chain(BernoulliLinks(np.array([0.5, 0.9])), "bernoulli").lam
    0.5
    """
    chain = process.chain if isinstance(process, ChainBacked) else None
    if is_availability_chain(chain):
        return chain
    if isinstance(process, BernoulliLinks | UniformNoiseLinks):
        pi = np.asarray(process.pi, dtype=float)
        return ProductChain(pi, np.zeros_like(pi))
    raise InputError(
        f"availability kind '{kind}' has no stationary Markov chain, which the theory needs "
        "(two_state, clients_csv, ca_fed, ca_fed_authors, clustered, finite_chain, bernoulli "
        "and uniform_noise have one)"
    )


def availability_chain(
    data: Any,
    *,
    n_clients: int | None = None,
    seed: int = 0,
    base: str | Path = ".",
    source: Source = None,
    table: str = "availability",
    context: str = "the setting",
) -> tuple[AvailabilityChain, BuiltAvailability]:
    """(the chain, what the table built) of an ``[availability]`` table (see
    :func:`build_table`).

    >>> chain, built = availability_chain({"kind": "bernoulli", "p": [0.2, 0.9]})
    >>> chain.n_clients, chain.client_availability.tolist(), chain.lambda2.tolist()
    (2, [0.2, 0.9], [0.0, 0.0])
    """
    built = build_table(
        data,
        n_clients=n_clients,
        seed=seed,
        base=base,
        source=source,
        table=table,
        context=context,
    )
    try:
        return process_chain(built.process, built.kind), built
    except FLTheoryError as err:
        raise _located(table_name(table, source), err) from None
