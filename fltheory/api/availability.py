"""A setting's availability from whatever the user holds: a chain object, a table, or a file.

Every façade function takes its availability through :func:`availability_setting`, so that
one model is accepted everywhere in the same three forms:

* an :class:`~fltheory.markov.AvailabilityChain` (``ProductChain``, ``ClusteredChain``,
  ``MarkovChain``);
* an ``[availability]`` table as a dict (``{"kind": "two_state", "groups": [...]}``, the
  vocabulary of ``docs/plugins.md``), or a whole config dict holding one;
* a file: a TOML file whose top level is such a table or that holds an ``[availability]``
  table (a simulation config, a problem file, a report file), a clients CSV (a header with
  ``pi`` and ``lambda2``), or a transition-matrix file (``.csv``, ``.npy``, ``.json``, format of
  :func:`fltheory.markov.io.read_matrix`).
"""

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from fltheory.api.record import text_table
from fltheory.errors import InputError
from fltheory.markov.protocol import AvailabilityChain, is_availability_chain

#: What :func:`availability_setting` accepts.
AvailabilitySpec = AvailabilityChain | Mapping[str, Any] | str | os.PathLike[str]


@dataclass(frozen=True, eq=False)
class AvailabilitySetting:
    """A setting's availability: its chain, its named client groups and where it came from.

    ``kind`` and ``table`` (every default filled in) are those of the ``[availability]`` table
    it was built from, None for a chain object or a matrix file; ``process`` is what the
    simulator samples (None for a chain object); ``source`` names the file.

    >>> setting = availability_setting({"kind": "two_state", "groups": [
    ...     {"name": "office", "count": 2, "pi": 0.85, "lambda2": 0.2},
    ...     {"name": "mobile", "count": 1, "pi": 0.15, "lambda2": 0.95}]})
    >>> setting.n_clients, setting.group_names, setting.labels.tolist()
    (3, ('office', 'mobile'), [0, 0, 1])
    >>> print(setting)
    availability: two_state, 3 clients
    group   clients  π     λ₂
    office  2        0.85  0.2
    mobile  1        0.15  0.95
    """

    chain: AvailabilityChain
    groups: dict[str, np.ndarray] = field(default_factory=dict)
    kind: str | None = None
    table: dict[str, Any] | None = None
    process: Any = None
    source: str | None = None

    @property
    def n_clients(self) -> int:
        """N.

        >>> availability_setting({"kind": "bernoulli", "p": [0.5, 0.9]}).n_clients
        2
        """
        return int(self.pi.size)

    @property
    def pi(self) -> np.ndarray:
        """π_k, each client's stationary availability.

        >>> availability_setting({"kind": "bernoulli", "p": [0.5, 0.9]}).pi.tolist()
        [0.5, 0.9]
        """
        pi = self.chain.client_availability
        if pi is None:
            raise InputError("the chain has no state→clients map, so no client availabilities")
        return np.asarray(pi, dtype=float)

    @property
    def lambda2(self) -> np.ndarray | None:
        """λ₂,k of each client's two-state marginal chain, when the chain defines one.

        >>> availability_setting({"kind": "bernoulli", "p": [0.5, 0.9]}).lambda2.tolist()
        [0.0, 0.0]
        """
        lam = self.chain.lambda2
        return None if lam is None else np.asarray(lam, dtype=float)

    @property
    def group_names(self) -> tuple[str, ...]:
        """The groups' names; clients in no group form "other clients", and a setting without
        groups is one group, "all clients".

        >>> availability_setting({"kind": "bernoulli", "p": [0.5, 0.9]}).group_names
        ('all clients',)
        """
        names = tuple(self.groups)
        covered = np.zeros(self.n_clients, dtype=bool)
        for mask in self.groups.values():
            covered |= np.asarray(mask, dtype=bool)
        if not names:
            return ("all clients",)
        return names if covered.all() else (*names, "other clients")

    @property
    def labels(self) -> np.ndarray:
        """Each client's group, an index into :attr:`group_names` (the first group that holds
        it).

        >>> availability_setting({"kind": "bernoulli", "groups": [{"count": 1, "p": 0.5},
        ...     {"count": 2, "p": 0.9}]}).labels.tolist()
        [0, 1, 1]
        """
        names = self.group_names
        labels = np.full(self.n_clients, len(names) - 1, dtype=np.int64)
        for i, mask in reversed(list(enumerate(self.groups.values()))):
            labels[np.asarray(mask, dtype=bool)] = i
        return labels

    def simulation_table(self) -> dict[str, Any]:
        """An ``[availability]`` table that simulates this chain: the table it came from, or
        ``two_state`` (product chains), ``clustered`` or ``finite_chain`` (a dense chain with
        its state map).

        >>> from fltheory.markov import ProductChain
        >>> availability_setting(ProductChain([0.9, 0.2], [0.5, 0.0])).simulation_table()
        {'kind': 'two_state', 'pi': [0.9, 0.2], 'lambda2': [0.5, 0.0]}
        """
        if self.table is not None:
            return dict(self.table)
        return chain_table(self.chain)

    def __str__(self) -> str:
        names, labels = self.group_names, self.labels
        lam = self.lambda2
        rows = [["group", "clients", "π", "λ₂"]]
        for g, name in enumerate(names):
            mask = labels == g
            if not mask.any():
                continue
            rows.append(
                [
                    name,
                    str(int(mask.sum())),
                    _span(self.pi[mask]),
                    "—" if lam is None else _span(lam[mask]),
                ]
            )
        head = f"availability: {self.kind or type(self.chain).__name__}, {self.n_clients} clients"
        return head + "\n" + text_table(rows)


def _span(values: np.ndarray) -> str:
    low, high = f"{values.min():.4g}", f"{values.max():.4g}"
    return low if low == high else f"{low} to {high}"


def chain_table(chain: AvailabilityChain) -> dict[str, Any]:
    """The ``[availability]`` table of a chain object (see
    :meth:`AvailabilitySetting.simulation_table`).

    >>> from fltheory.markov import ClusteredChain
    >>> chain_table(ClusteredChain([0.9], [0.5], [0, 0]))["kind"]
    'clustered'
    """
    from fltheory.markov.chain import MarkovChain
    from fltheory.markov.clustered import ClusteredChain
    from fltheory.markov.product import ProductChain

    if isinstance(chain, ProductChain):
        return {
            "kind": "two_state",
            "pi": chain.client_availability.tolist(),
            "lambda2": chain.lambda2.tolist(),
        }
    if isinstance(chain, ClusteredChain):
        clusters = chain.cluster_chain
        return {
            "kind": "clustered",
            "pi": clusters.client_availability.tolist(),
            "lambda2": clusters.lambda2.tolist(),
            "assignment": np.asarray(chain.assignment).tolist(),
        }
    if isinstance(chain, MarkovChain) and chain.client_availability is not None:
        return {
            "kind": "finite_chain",
            "matrix": chain.dense_matrix().tolist(),
            "state_clients": chain.state_clients().astype(int).tolist(),
        }
    raise InputError(
        f"a {type(chain).__name__} without a state→clients map cannot be simulated: it says "
        "nothing about which clients are available"
    )


def _from_table(
    table: Mapping[str, Any],
    *,
    n_clients: int | None,
    seed: int,
    base: Path,
    source: str | Path | None,
    context: str = "the setting",
) -> AvailabilitySetting:
    from fltheory.sim.availability_spec import availability_chain

    chain, built = availability_chain(
        dict(table), n_clients=n_clients, seed=seed, base=base, source=source, context=context
    )
    return AvailabilitySetting(
        chain=chain,
        groups=built.groups,
        kind=built.kind,
        table=built.resolved,
        process=built.process,
        source=None if source is None else str(source),
    )


def is_clients_csv(path: Path) -> bool:
    """A CSV whose first line (comments aside) is a header with letters (a clients file), not
    the rows of a transition matrix (numbers and fractions).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "c.csv"
    ...     _ = path.write_text("# P\\n0.5,1/2\\n1e-1,0.9\\n")
    ...     is_clients_csv(path)
    False
    """
    from fltheory.config.files import read_text

    for line in read_text(path, "CSV file").splitlines():
        text = line.strip()
        if text and not text.startswith("#"):
            return any(c.isalpha() for c in text.replace("e", "").replace("E", ""))
    return False


def _from_file(path: Path, *, n_clients: int | None, seed: int) -> AvailabilitySetting:
    from fltheory.config.files import load_toml, regular_file

    path = regular_file(path, "availability file")
    suffix = path.suffix.lower()
    if suffix == ".toml":
        raw = load_toml(path, "availability file")
        if "kind" in raw:
            return _from_table(raw, n_clients=n_clients, seed=seed, base=path.parent, source=path)
        table = raw.get("availability")
        if not isinstance(table, dict):
            raise InputError(f"{path} has no [availability] table (nor a 'kind' at its top level)")
        return _from_table(table, n_clients=n_clients, seed=seed, base=path.parent, source=path)
    if suffix == ".csv" and is_clients_csv(path):
        table = {"kind": "clients_csv", "path": path.name}
        return _from_table(table, n_clients=n_clients, seed=seed, base=path.parent, source=path)
    if suffix in (".csv", ".npy", ".json"):
        from fltheory.markov.io import load_chain

        chain = load_chain(path)
        setting = AvailabilitySetting(chain=chain, source=str(path))
        if n_clients is not None and chain.n_clients != n_clients:
            raise InputError(f"{path} has {chain.n_clients} clients, the setting {n_clients}")
        return setting
    raise InputError(
        f"{path}: an availability file is .toml (an [availability] table), a clients .csv, or "
        f"a transition matrix (.csv, .npy, .json), not '{suffix}'"
    )


def availability_setting(
    spec: "AvailabilitySpec | AvailabilitySetting",
    *,
    n_clients: int | None = None,
    seed: int = 0,
    base: str | Path = ".",
) -> AvailabilitySetting:
    """The availability of a setting from a chain object, a table (dict) or a file (see the
    module docstring). ``n_clients`` is N when the caller knows it (a table that fixes N must
    agree); ``seed`` draws the kinds that draw (``ca_fed``); ``base`` is where the relative
    paths of a dict table start (a file's start from its folder).

    >>> from fltheory.markov import ProductChain
    >>> availability_setting(ProductChain([0.9], [0.5])).kind is None
    True
    >>> availability_setting({"kind": "bernoulli", "p": 0.5, "n_clients": 4}).pi.tolist()
    [0.5, 0.5, 0.5, 0.5]
    >>> availability_setting(42)
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: availability must be an AvailabilityChain (MarkovChain, ...
    """
    if isinstance(spec, AvailabilitySetting):
        if n_clients is not None and spec.n_clients != n_clients:
            raise InputError(
                f"the availability has {spec.n_clients} clients, the setting {n_clients}"
            )
        return spec
    if is_availability_chain(spec):
        setting = AvailabilitySetting(chain=spec)
        if spec.client_availability is not None and n_clients is not None:
            if setting.n_clients != n_clients:
                raise InputError(
                    f"the chain has {setting.n_clients} clients, the setting {n_clients}"
                )
        return setting
    if isinstance(spec, Mapping):
        if "kind" not in spec and (
            isinstance(spec.get("availability"), Mapping)
            or is_availability_chain(spec.get("availability"))
        ):
            return availability_setting(
                spec["availability"], n_clients=n_clients, seed=seed, base=base
            )
        return _from_table(spec, n_clients=n_clients, seed=seed, base=Path(base), source=None)
    if isinstance(spec, str | os.PathLike):
        return _from_file(Path(spec), n_clients=n_clients, seed=seed)
    hint = "; wrap a matrix as MarkovChain(P)" if isinstance(spec, list | np.ndarray) else ""
    raise InputError(
        "availability must be an AvailabilityChain (MarkovChain, ProductChain or "
        "ClusteredChain), an [availability] table (dict) or a file path, got "
        f"{type(spec).__name__}{hint}"
    )


def as_chain(
    spec: "AvailabilitySpec | AvailabilitySetting",
    *,
    n_clients: int | None = None,
    seed: int = 0,
    base: str | Path = ".",
) -> AvailabilityChain:
    """The chain of :func:`availability_setting`.

    >>> as_chain({"kind": "two_state", "pi": [0.9, 0.1], "lambda2": [0.5, 0.9]}).lam
    0.95
    """
    return availability_setting(spec, n_clients=n_clients, seed=seed, base=base).chain


def resolve_table(
    table: dict[str, Any], base: Path, source: Path | None, n_clients: int | None
) -> tuple[AvailabilityChain, dict[str, np.ndarray]]:
    """The :data:`~fltheory.problems.config.AvailabilityResolver` of the façade: (chain,
    groups) of a problem file's ``[availability]`` table."""
    setting = _from_table(
        table, n_clients=n_clients, seed=0, base=base, source=source, context="the problem"
    )
    return setting.chain, setting.groups
