"""The sweep file: a base simulation config, the seeds, and axes of dotted keys → lists.

Layout (TOML)::

    base = "sim.toml"              # the base config, relative to this file
    seeds = 10                     # master seeds 0..9 (or a list: seeds = [3, 7])
    [axes]
    "run.lr" = [0.01, 0.03, 0.1]   # dotted key of the base config → the values it takes
    "availability.p" = [0.2, 0.5]
    "algorithms.0.lr" = [0.1]      # list entries by index

The runs are the Cartesian product of the axes × the seeds; each run is the base config with
the axes' values set, ``seed`` = that seed and ``seeds`` = 1. Everything is checked before a run
starts: unknown keys of the sweep file, dotted keys that name nothing in the base config, values
its schema refuses, and products too large to be a sensible sweep.
"""

import copy
import hashlib
import itertools
import json
import math
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fltheory.config.files import load_toml, regular_file
from fltheory.config.schema import key_hint, suggest
from fltheory.errors import InputError
from fltheory.sweep.store import SEED_MAX, SEED_MIN

#: The most runs (points × seeds) one sweep may name.
MAX_RUNS = 100_000
#: The keys of a sweep file: (type, default, meaning), for the checks and docs/sweep_file.md.
SWEEP_KEY_DOCS: dict[str, tuple[str, str, str]] = {
    "base": (
        "a string",
        "required",
        "the base simulation config (docs/simulation_file.md), relative to the sweep file",
    ),
    "seeds": (
        "an integer (≥ 1) or a list of integers (≥ 0)",
        "`1`",
        "n: master seeds 0..n−1, or the seeds listed; each run has seeds = 1",
    ),
    "axes": (
        "a table of lists",
        "`{}`",
        'dotted keys of the base config → the values they take ("run.lr", '
        '"availability.groups.0.pi", "algorithms.0.lr"); the runs are their product × seeds',
    ),
}
SWEEP_KEYS = tuple(SWEEP_KEY_DOCS)
#: Top-level config keys an axis may not set (the sweep's ``seeds`` sets them).
RESERVED = ("seed", "seeds")


@dataclass(frozen=True)
class Run:
    """One run of a sweep: its key, seed, swept values, raw config (axes applied, seed set)
    and fully resolved config (see :func:`runs`).

    >>> Run("k", 1, {"run.lr": 0.1}, {"seed": 1}, {"seed": 1}).seed
    1
    """

    key: str
    seed: int
    swept: dict[str, Any]
    config: dict[str, Any]
    resolved: dict[str, Any]


@dataclass(frozen=True)
class Sweep:
    """A parsed sweep file (see :func:`load_sweep`).

    >>> Sweep(Path("s.toml"), Path("b.toml"), {}, (0,), {}).size
    1
    """

    source: Path
    base: Path
    raw: dict[str, Any]
    seeds: tuple[int, ...]
    axes: dict[str, list[Any]]

    @property
    def size(self) -> int:
        """Runs in the sweep: product of the axis lengths × seeds.

        >>> Sweep(Path("s.toml"), Path("b.toml"), {}, (0, 1), {"run.lr": [0.1, 0.2, 0.3]}).size
        6
        """
        return math.prod(len(values) for values in self.axes.values()) * len(self.seeds)


def _describe(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def _seeds(value: Any, where: str) -> tuple[int, ...]:
    """``seeds = n`` → 0..n-1; a list → its (distinct, non-negative) integers."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 1:
            raise InputError(f"'seeds' in {where} must be >= 1, got {value}")
        if value > MAX_RUNS:
            raise InputError(f"'seeds' in {where} is {value:,}, more than {MAX_RUNS:,} runs")
        return tuple(range(value))
    if isinstance(value, list) and value:
        if not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in value):
            raise InputError(
                f"'seeds' in {where}: expected non-negative integers, got {_describe(value)}"
            )
        check_seeds(value, where)
        if len(set(value)) != len(value):
            raise InputError(f"'seeds' in {where} lists a seed twice: {value}")
        return tuple(value)
    raise InputError(
        f"'seeds' in {where}: expected a count or a list of seeds, got {_describe(value)}"
    )


def check_seeds(seeds: Iterable[int], where: str) -> None:
    """Refuse a seed that a results store cannot hold (SQLite integers are signed 64-bit).

    >>> check_seeds([0, 2**63], "the sweep file s.toml")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: 'seeds' in the sweep file s.toml: seed 9223372036854775808 ...
    """
    for seed in seeds:
        if not SEED_MIN <= seed <= SEED_MAX:
            raise InputError(
                f"'seeds' in {where}: seed {seed} exceeds {SEED_MAX} = 2^63 - 1, the largest "
                "a results store holds (SQLite integers are signed 64-bit)"
            )


def set_dotted(raw: dict[str, Any], key: str, value: Any) -> None:
    """Set ``raw[a][b]...`` for the dotted ``key`` "a.b..." (list entries by index); every
    table on the way must exist, the last key may be new.

    >>> cfg = {"run": {"rounds": 3}, "algorithms": [{"name": "fedavg"}]}
    >>> set_dotted(cfg, "run.lr", 0.5); set_dotted(cfg, "algorithms.0.lr", 0.1)
    >>> cfg
    {'run': {'rounds': 3, 'lr': 0.5}, 'algorithms': [{'name': 'fedavg', 'lr': 0.1}]}
    >>> set_dotted(cfg, "rnu.lr", 0.5)
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: 'rnu' names no table of the base config; did you mean 'run'?
    """
    parts = key.split(".")
    if not all(parts):
        raise InputError(f"'{key}' is not a dotted key (empty part)")
    node: Any = raw
    for depth, part in enumerate(parts):
        where = ".".join(parts[: depth + 1])
        last = depth == len(parts) - 1
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise InputError(f"'{where}': the list has entries 0..{len(node) - 1}")
            if last:
                node[int(part)] = value
                return
            node = node[int(part)]
        elif isinstance(node, dict):
            if last:
                node[part] = value
                return
            if part not in node:
                hint = suggest(part, [k for k in node if isinstance(node[k], (dict, list))])
                raise InputError(f"'{where}' names no table of the base config{hint}")
            node = node[part]
        else:
            raise InputError(f"'{where}': '{'.'.join(parts[:depth])}' is a value, not a table")


def resolve(raw: dict[str, Any], source: str | None = None) -> dict[str, Any]:
    """The fully resolved config (defaults filled in, JSON types), as the simulator records it
    in ``SimConfig.resolved``, validated against every table's schema but with nothing built.

    >>> cfg = resolve({"run": {"rounds": 2}, "device": "cpu",
    ...                "problem": {"kind": "quadratic", "u": [[0.0], [1.0]]},
    ...                "availability": {"kind": "bernoulli", "p": 0.5},
    ...                "algorithms": [{"name": "fedavg"}]})
    >>> cfg["run"]["lr"], cfg["algorithms"][0]["label"], cfg["seeds"]
    (0.1, 'fedavg', 1)
    """
    from fltheory.config.schema import check_keys, parse
    from fltheory.sim.availability_spec import availability_params
    from fltheory.sim.config.loader import plugin, resolve_device
    from fltheory.sim.config.tables import AlgorithmOptions, SimFile
    from fltheory.sim.registries import ALGORITHMS, MODELS, PROBLEMS

    top = parse(SimFile, raw, source=source)
    out: dict[str, Any] = top.model_dump(mode="json")
    out["device"] = resolve_device(top.device)
    entry, body = plugin(PROBLEMS, top.problem, "kind", "problem", source)
    own = entry.params.model_fields
    mine = {k: v for k, v in body.items() if k in own}
    params = parse(entry.params, mine, table="problem", source=source)
    model_fields: list[str] = []
    if "model" in own:
        model = MODELS.get(params.model_dump(include={"model"})["model"], where="[problem]")
        model_fields = list(model.params.model_fields)
        rest = {k: v for k, v in body.items() if k not in own}
        model_params = parse(model.params, rest, table="problem", source=source)
        out["problem"].update(model_params.model_dump(mode="json"))
    check_keys(body, [*own, *model_fields], table="problem", source=source)
    out["problem"].update(params.model_dump(mode="json"))
    _, avail, _ = availability_params(top.availability, source)
    _check_clients(params, top.availability, source)
    out["availability"].update(avail.model_dump(mode="json"))
    options = AlgorithmOptions.model_fields
    for i, item in enumerate(top.algorithms):
        table = f"algorithms.{i}"
        entry, body = plugin(ALGORITHMS, item, "name", table, source)
        check_keys(body, [*options, *entry.params.model_fields], table=table, source=source)
        chosen = {k: v for k, v in body.items() if k in options}
        opts = parse(AlgorithmOptions, {**top.run.defaults(), **chosen}, table=table, source=source)
        own_params = {k: v for k, v in body.items() if k not in options}
        algo = parse(entry.params, own_params, table=table, source=source)
        resolved = {**opts.model_dump(mode="json"), **algo.model_dump(mode="json")}
        out["algorithms"][i].update({**resolved, "label": opts.label or entry.name})
    return out


def _check_clients(problem: Any, availability: dict[str, Any], source: str | None) -> None:
    """Refuse an ``[availability]`` table whose own number of clients differs from the
    problem's, when both are known without building anything (a problem's ``n_clients`` or the
    rows of its ``u``); a table reading a file is checked when its run builds it."""
    from fltheory.config.schema import table_name
    from fltheory.sim.availability_spec import table_size

    n = getattr(problem, "n_clients", None)
    u = getattr(problem, "u", None)
    if n is None and isinstance(u, list):
        n = len(u)
    if "path" in availability:  # a table that reads a file is checked when it is built
        return
    own = table_size(availability, source=source)
    if isinstance(n, int) and own is not None and own != n:
        where = table_name("availability", source)
        raise InputError(f"{where}: the table describes {own} clients, the problem has {n}")


def run_key(resolved: dict[str, Any]) -> str:
    """The store's key of a run: SHA-256 of its fully resolved config (which holds the seed).

    >>> run_key({"seed": 1, "run": {"lr": 0.1}}) == run_key({"run": {"lr": 0.1}, "seed": 1})
    True
    >>> len(run_key({"seed": 2}))
    64
    """
    text = json.dumps(resolved, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_sweep(path: str | Path) -> Sweep:
    """Read and check a sweep file (see the module docstring); nothing is run.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "base.toml").write_text(
    ...     'device = "cpu"\\n[run]\\nrounds = 2\\n[problem]\\nkind = "quadratic"\\n'
    ...     'u = [[0.0], [1.0]]\\n[availability]\\nkind = "bernoulli"\\np = 0.5\\n'
    ...     '[[algorithms]]\\nname = "fedavg"\\n')
    >>> _ = (folder / "s.toml").write_text('base = "base.toml"\\nseeds = 2\\n'
    ...                                    '[axes]\\n"run.lr" = [0.1, 0.2]\\n')
    >>> sweep = load_sweep(folder / "s.toml")
    >>> sweep.seeds, sweep.axes, sweep.size
    ((0, 1), {'run.lr': [0.1, 0.2]}, 4)
    >>> _ = (folder / "t.toml").write_text('base = "base.toml"\\n[axes]\\n"run.lrr" = [0.1]\\n')
    >>> load_sweep(folder / "t.toml")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: axis 'run.lrr' of ...t.toml: unknown key 'lrr' in [run]...
    """
    if not isinstance(path, str | os.PathLike):
        raise InputError(f"the sweep file must be a path, got {path!r}")
    path = Path(path)
    data = load_toml(path, "sweep file")
    where = f"the sweep file {path}"
    for key in data:
        if key not in SWEEP_KEYS:
            raise InputError(f"unknown key '{key}' in {where}{key_hint(key, SWEEP_KEYS)}")
    if "base" not in data:
        raise InputError(f"missing key 'base' (the base config) in {where}")
    if not isinstance(data["base"], str) or not data["base"]:
        raise InputError(f"'base' in {where}: expected a path, got {_describe(data['base'])}")
    base = regular_file(path.parent / data["base"], "base config")
    seeds = _seeds(data.get("seeds", 1), where)
    axes = data.get("axes", {})
    if not isinstance(axes, dict):
        raise InputError(f"'axes' in {where} must be a table, got {_describe(axes)}")
    for key, values in axes.items():
        if not isinstance(values, list) or not values:
            got = "an empty list" if values == [] else _describe(values)
            raise InputError(f"axis '{key}' of {path}: expected a list of values, got {got}")
        if key in RESERVED:
            raise InputError(f"axis '{key}' of {path}: the seeds are set by 'seeds'")
    sweep = Sweep(path, base, load_toml(base, "base config"), seeds, dict(axes))
    if sweep.size > MAX_RUNS:
        shape = " × ".join(str(len(v)) for v in [*axes.values(), seeds])
        raise InputError(f"{path} names {sweep.size:,} runs ({shape}), more than {MAX_RUNS:,}")
    for key, values in axes.items():
        for value in values:
            try:
                raw = copy.deepcopy(sweep.raw)
                set_dotted(raw, key, value)
                resolve(raw)
            except InputError as err:
                raise InputError(f"axis '{key}' of {path}: {err}") from None
    return sweep


def runs(sweep: Sweep) -> list[Run]:
    """Every run of ``sweep``, each point of the product once per seed (seeds innermost);
    points that resolve to the same config count once.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "base.toml").write_text(
    ...     'device = "cpu"\\n[run]\\nrounds = 2\\n[problem]\\nkind = "quadratic"\\n'
    ...     'u = [[0.0], [1.0]]\\n[availability]\\nkind = "bernoulli"\\np = 0.5\\n'
    ...     '[[algorithms]]\\nname = "fedavg"\\n')
    >>> _ = (folder / "s.toml").write_text('base = "base.toml"\\nseeds = [4, 5]\\n'
    ...                                    '[axes]\\n"availability.p" = [0.5, 1.0]\\n')
    >>> [(r.swept, r.seed, r.config["seed"]) for r in runs(load_sweep(folder / "s.toml"))]
    [({'availability.p': 0.5}, 4, 4), ({'availability.p': 0.5}, 5, 5), ({'availability.p': 1.0}, 4, 4), ({'availability.p': 1.0}, 5, 5)]
    """  # noqa: E501
    out: list[Run] = []
    seen: set[str] = set()
    names = list(sweep.axes)
    for values in itertools.product(*sweep.axes.values()):
        swept = dict(zip(names, values, strict=True))
        config = copy.deepcopy(sweep.raw)
        for key, value in swept.items():
            set_dotted(config, key, value)
        config["seeds"] = 1
        try:
            resolved = resolve(config)
        except InputError as err:
            raise InputError(f"{sweep.source}, point {_describe(swept)}: {err}") from None
        for seed in sweep.seeds:
            full = {**resolved, "seed": seed}
            key = run_key(full)
            if key not in seen:
                seen.add(key)
                out.append(Run(key, seed, swept, {**config, "seed": seed}, full))
    return out
