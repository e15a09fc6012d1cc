"""The paper's client population (CA-Fed ToN Section V-A(a)) and per-client CSV input.

N clients fall into two equal classes, "more available" (π = ½ + g) and "less available"
(π = ½ − g); each class splits into "correlated" (λ₂ = ν) and "weakly correlated"
(λ₂ ~ N(0, ε²)) halves. The paper uses N = 100, g = 0.4, ν = 0.9, ε = 10⁻².
"""

import csv
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from fltheory.config.files import read_text
from fltheory.config.numbers import fast_table, parse_float
from fltheory.errors import InputError
from fltheory.markov.product import ProductChain
from fltheory.markov.two_state import check_two_state, first_violation
from fltheory.resources import require_memory
from fltheory.rng import generator

#: Largest clients CSV read (bytes): about 10⁷ clients.
MAX_CSV_BYTES = 512 * 2**20
#: Bytes a client of the preset costs while the chain's constants are computed (a generous
#: count of the float arrays of N entries made on the way).
PRESET_BYTES_PER_CLIENT = 160

#: Group names, indexed by ``Population.labels``; also the "blocks" order of clients.
GROUP_NAMES = (
    "more available, correlated",
    "more available, weakly correlated",
    "less available, correlated",
    "less available, weakly correlated",
)


@dataclass(frozen=True, eq=False)
class Population:
    """Per-client π and λ₂ with group labels (indices into ``group_names``)."""

    pi: np.ndarray
    lambda2: np.ndarray
    labels: np.ndarray
    group_names: tuple[str, ...] = GROUP_NAMES

    @property
    def n_clients(self) -> int:
        return int(self.pi.size)

    @property
    def more_available(self) -> np.ndarray:
        """True for the π = ½ + g class (groups 0, 1)."""
        return self.labels <= 1

    @property
    def correlated(self) -> np.ndarray:
        """True for the λ₂ = ν sub-classes (groups 0, 2)."""
        return self.labels % 2 == 0

    def chain(self) -> ProductChain:
        """The product chain of independent clients (Section III-D)."""
        return ProductChain(self.pi, self.lambda2)


def group_sizes(n: int) -> np.ndarray:
    """Sizes of the four groups: n // 4 each, and the n mod 4 remaining clients go one each
    to the first groups in ``GROUP_NAMES`` order (so the classes differ by at most one)."""
    sizes = np.full(4, n // 4)
    sizes[: n % 4] += 1
    return sizes


def ca_fed_population(
    n: int = 100,
    g: float = 0.4,
    nu: float = 0.9,
    eps: float = 1e-2,
    seed: int = 0,
    split: Literal["blocks", "random"] = "blocks",
) -> Population:
    """The Section V-A(a) population.

    split="blocks": clients 0.. are ordered by group as in ``GROUP_NAMES`` (first quarter more
    available and correlated, then more available weakly correlated, less available correlated,
    less available weakly correlated). split="random": the same labels permuted by the stream
    ``generator(seed, "population/split")``. Weakly correlated clients take N(0, ε²) draws from
    ``generator(seed, "population/lambda2")`` in increasing client index.

    >>> population = ca_fed_population(n=8, g=0.4, nu=0.9, eps=0.0)
    >>> population.pi.tolist(), population.lambda2.tolist()
    ([0.9, 0.9, 0.9, 0.9, 0.1, 0.1, 0.1, 0.1], [0.9, 0.9, 0.0, 0.0, 0.9, 0.9, 0.0, 0.0])
    >>> population.chain().lam  # (λ̄₂ + 1)/2 with λ̄₂ = ν (eq. 229)
    0.95
    """
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 4:
        raise InputError(f"population size n must be an integer >= 4, got {n}")
    if not (math.isfinite(g) and 0.0 < g < 0.5):
        raise InputError(f"availability gap g must lie in (0, 1/2), got {g}")
    if not (math.isfinite(eps) and eps >= 0.0):
        raise InputError(f"weak-correlation scale eps must be finite and >= 0, got {eps}")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise InputError(f"seed must be a non-negative integer, got {seed}")
    if split not in ("blocks", "random"):
        raise InputError(f"split must be 'blocks' or 'random', got {split!r}")
    require_memory(int(n) * PRESET_BYTES_PER_CLIENT, f"a population of {int(n):,} clients")
    labels = np.repeat(np.arange(4), group_sizes(int(n)))
    if split == "random":
        labels = generator(seed, "population/split").permutation(labels)
    pi = np.where(labels <= 1, 0.5 + g, 0.5 - g)
    lambda2 = np.full(labels.size, float(nu))
    weak = labels % 2 == 1
    lambda2[weak] = generator(seed, "population/lambda2").normal(0.0, eps, size=int(weak.sum()))
    pi, lambda2 = check_two_state(pi, lambda2)
    return Population(pi=pi, lambda2=lambda2, labels=labels)


#: The authors' joint probability of (availability, stability) types (arodio/CA-Fed
#: ``data/constants.py``): rows available/unavailable, columns stable/shifting/unstable.
AUTHORS_JOINT = np.array([[0.0, 0.5, 0.0], [0.25, 0.25, 0.0]])
#: The authors' ``ERROR`` margin in the λ bounds.
AUTHORS_MARGIN = 1e-8


def authors_types(
    rng: np.random.Generator, n: int, deterministic: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """(availability type, stability type) per client, drawn from ``rng`` exactly as the
    authors' ``generate_tasks_types``: a permutation of the clients, then counts per type
    (multinomial over :data:`AUTHORS_JOINT`, or ⌊N·p⌋ plus one to the first non-empty types
    while clients remain), the permutation split at the cumulative counts.

    >>> a, s = authors_types(np.random.default_rng(0), 8, deterministic=True)
    >>> np.bincount(a * 3 + s, minlength=6).tolist()
    [0, 4, 0, 2, 2, 0]
    """
    p = AUTHORS_JOINT.ravel()
    perm = rng.permutation(n)
    if deterministic:
        counts = (n * p).astype(int)
        remaining = n - int(counts.sum())
        for j in range(p.size):
            if remaining > 0 and counts[j] != 0:
                counts[j] += 1
                remaining -= 1
    else:
        counts = rng.multinomial(n, p)
    cell = np.empty(n, dtype=np.int64)
    for j, part in enumerate(np.split(perm, np.cumsum(counts[:-1]))):
        cell[part] = j
    return cell // 3, cell % 3


def authors_lambda(
    stability: int, pi: float, nu: float, eps: float, rng: np.random.Generator
) -> float:
    """λ₂ of one client as the authors' ``compute_stability``: stable max(ν, bounds), shifting
    clip(½(N(0, ε²) + ε), bounds) (one normal draw from ``rng``), unstable max(−ν, bounds).

    >>> authors_lambda(0, 0.1, 0.9, 0.01, np.random.default_rng(0))
    0.9
    """
    m = AUTHORS_MARGIN
    if stability == 1:
        low = max(-1 + m, 1 - 1 / pi + m, 1 - 1 / (1 - pi)) + m
        return float(np.clip(0.5 * (rng.normal(0.0, eps) + eps), low, 1 - m))
    value = nu if stability == 0 else -nu
    return float(max(value, 1 - 1 / pi + m, 1 - 1 / (1 - pi) + m))


def authors_population(
    n: int = 100,
    g: float = 0.4,
    nu: float = 0.9,
    eps: float = 1e-2,
    seed: int = 0,
    split: Literal["multinomial", "deterministic"] = "multinomial",
) -> Population:
    """The population of the authors' public code (spec A.6, C.8): 50 % available & shifting,
    25 % unavailable & stable, 25 % unavailable & shifting (multinomial, or the deterministic
    split), π = ½ ± g, shifting λ₂ ~ ½(N(0, ε²) + ε) = N(ε/2, (ε/2)²) clipped. Types and λ₂ come
    from one stream ``generator(seed, "population/authors")`` in the code's order. (The LEAF
    replica draws them inside the data stream instead: :func:`fltheory.sim.data.authors_leaf`.)
    Labels index :data:`GROUP_NAMES`.

    >>> pop = authors_population(8, split="deterministic", seed=1)
    >>> np.bincount(pop.labels, minlength=4).tolist(), sorted(set(pop.pi.round(2).tolist()))
    ([0, 4, 2, 2], [0.1, 0.9])
    """
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
        raise InputError(f"population size n must be an integer >= 1, got {n}")
    if not (math.isfinite(g) and 0.0 < g < 0.5):
        raise InputError(f"availability gap g must lie in (0, 1/2), got {g}")
    if split not in ("multinomial", "deterministic"):
        raise InputError(f"split must be 'multinomial' or 'deterministic', got {split!r}")
    rng = generator(seed, "population/authors")
    avail, stab = authors_types(rng, int(n), split == "deterministic")
    return population_of_types(avail, stab, g, nu, eps, rng)


def population_of_types(
    avail: np.ndarray,
    stab: np.ndarray,
    g: float,
    nu: float,
    eps: float,
    rng: np.random.Generator,
) -> Population:
    """The :class:`Population` of the authors' types, λ₂ drawn in client order from ``rng``."""
    pi = np.where(avail == 0, 0.5 + g, 0.5 - g)
    lam = np.array(
        [authors_lambda(int(s), float(p), nu, eps, rng) for s, p in zip(stab, pi, strict=True)]
    )
    labels = 2 * avail + (stab != 0)
    pi, lam = check_two_state(pi, lam)
    return Population(pi=pi, lambda2=lam, labels=labels)


#: The columns of a clients CSV: required, then optional.
CSV_REQUIRED = ("pi", "lambda2")
CSV_OPTIONAL = ("count", "name")
#: Most clients a clients CSV may describe (after its ``count`` column is expanded).
MAX_CSV_CLIENTS = 10_000_000


@dataclass(frozen=True, eq=False)
class ClientRows:
    """The clients of a clients CSV, one entry per client (rows expanded by ``count``), and
    the named groups (by the ``name`` column, else one group per row when there is a ``count``
    column, else none).

    >>> rows = ClientRows(np.array([0.9, 0.9]), np.array([0.1, 0.1]), {"a": np.array([1, 1], bool)})
    >>> rows.n_clients, list(rows.groups)
    (2, ['a'])
    """

    pi: np.ndarray
    lambda2: np.ndarray
    groups: dict[str, np.ndarray]

    @property
    def n_clients(self) -> int:
        return int(self.pi.size)


def load_clients_csv(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    r"""(π, λ₂) of every client of a clients CSV (see :func:`read_clients_csv`).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "clients.csv"
    ...     _ = path.write_text("lambda2,pi\n0.5,0.9\n0,0.25\n")
    ...     [a.tolist() for a in load_clients_csv(path)]
    [[0.9, 0.25], [0.5, 0.0]]
    """
    rows = read_clients_csv(path)
    return rows.pi, rows.lambda2


def read_clients_csv(path: str | Path) -> ClientRows:
    r"""The clients of a CSV with a header: columns ``pi`` and ``lambda2`` (required), ``count``
    (optional: the row stands for that many identical clients) and ``name`` (optional: the
    row's group; rows of one name form one group), in any order. Any other column is an error.

    Errors name the file line: a missing or unknown column, a value that is not a finite number
    (or whose decimal exponent is beyond ±400), a count that is not a positive integer, or an
    inadmissible (π, λ₂) pair (see :func:`~fltheory.markov.two_state.check_two_state`). An
    all-numeric file is parsed in C (10⁶ clients in well under a second); other files go
    through :mod:`csv`.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "clients.csv"
    ...     _ = path.write_text("name,pi,lambda2,count\noffice,0.85,0.2,2\nmobile,0.15,0.95,1\n")
    ...     rows = read_clients_csv(path)
    >>> rows.pi.tolist(), {name: mask.tolist() for name, mask in rows.groups.items()}
    ([0.85, 0.85, 0.15], {'office': [True, True, False], 'mobile': [False, False, True]})
    """
    path = Path(path)
    text = read_text(path, "clients file", max_bytes=MAX_CSV_BYTES)
    head, _, body = text.partition("\n")
    header = [name.strip() for name in next(csv.reader([head]), [])]
    if not any(header):
        raise InputError(f"{path}: empty file (expected a header with columns pi,lambda2)")
    known = (*CSV_REQUIRED, *CSV_OPTIONAL)
    for name in header:
        if name not in known:
            raise InputError(
                f"{path}: unknown column '{name or '(empty)'}'{_column_hint(name, known)}"
            )
    if len(set(header)) != len(header):
        twice = next(name for name in header if header.count(name) > 1)
        raise InputError(f"{path}: column '{twice}' appears twice in the header")
    for name in CSV_REQUIRED:
        if name not in header:
            raise InputError(f"{path}: missing column '{name}' (header: {','.join(header)})")
    columns = {name: header.index(name) for name in header}
    numeric = [name for name in ("pi", "lambda2", "count") if name in columns]
    fast = None if "name" in columns else fast_table(body)
    names: list[str] | None = None
    if fast is not None and fast.shape[1] == len(header):
        values = fast[:, [columns[name] for name in numeric]]
        lines = np.arange(2, 2 + values.shape[0])
    else:
        values, lines, names = _careful_rows(path, body, columns, numeric)
    found = first_violation(values[:, 0], values[:, 1])
    if found is not None:
        (i,), error, reason = found
        raise error(f"{path} line {lines[i]}: {reason}")
    counts = np.ones(values.shape[0], dtype=np.int64)
    if "count" in columns:
        raw = values[:, 2]
        bad = np.flatnonzero(~((raw >= 1) & (raw == np.floor(raw))))
        if bad.size:
            i = int(bad[0])
            raise InputError(f"{path} line {lines[i]}: count={raw[i]:g} is not a positive integer")
        if raw.sum() > MAX_CSV_CLIENTS:
            raise InputError(
                f"{path}: the counts add up to {raw.sum():.6g} clients; at most "
                f"{MAX_CSV_CLIENTS:,} are accepted"
            )
        counts = raw.astype(np.int64)
    pi = np.repeat(values[:, 0], counts)
    lambda2 = np.repeat(values[:, 1], counts)
    row_of_client = np.repeat(np.arange(values.shape[0]), counts)
    groups: dict[str, np.ndarray] = {}
    if names is not None:
        for name in dict.fromkeys(names):
            rows = np.flatnonzero([n == name for n in names])
            groups[name] = np.isin(row_of_client, rows)
    elif "count" in columns:
        groups = {f"row {lines[i]}": row_of_client == i for i in range(values.shape[0])}
    return ClientRows(pi, lambda2, groups)


def _column_hint(name: str, known: tuple[str, ...]) -> str:
    """``; did you mean 'pi'?`` or the list of the columns a clients CSV takes."""
    from fltheory.config.schema import suggest

    return suggest(name, known) or f" (the columns are: {', '.join(known)})"


def _careful_rows(
    path: Path, body: str, columns: dict[str, int], numeric: Sequence[str]
) -> tuple[np.ndarray, np.ndarray, list[str] | None]:
    """(values of the ``numeric`` columns, line numbers, names or None) of the client rows
    through :mod:`csv`, one number at a time."""
    try:
        rows = list(csv.reader(body.splitlines()))
    except csv.Error as exc:
        raise InputError(f"{path}: not a readable CSV file ({exc})") from None
    records = [(line, row) for line, row in enumerate(rows, start=2) if any(row)]
    if not records:
        raise InputError(f"{path}: no client rows after the header")
    values = np.empty((len(records), len(numeric)))
    names: list[str] | None = [] if "name" in columns else None
    for i, (line, row) in enumerate(records):
        for j, name in enumerate(numeric):
            text = row[columns[name]].strip() if columns[name] < len(row) else ""
            try:
                values[i, j] = parse_float(text, "")
            except InputError:
                raise InputError(
                    f"{path} line {line}: {name}='{text}' is not a finite number"
                ) from None
        if names is not None:
            k = columns["name"]
            label = row[k].strip() if k < len(row) else ""
            if not label:
                raise InputError(f"{path} line {line}: empty name")
            names.append(label)
    return values, np.array([line for line, _ in records]), names
