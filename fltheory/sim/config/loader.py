"""Read a simulation config and build the problem, availability process and algorithms it names.

Each ``kind`` (``[problem]``, ``[availability]``) and ``name`` (``[[algorithms]]``) is looked up in
its registry (:mod:`fltheory.sim.registries`); the rest of the table is validated against that
plug-in's parameter schema, so every error names the file, the table and the key, with a
suggestion for a misspelled key or kind.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import torch

from fltheory.config import check_keys, load_toml, parse
from fltheory.config.schema import table_name
from fltheory.errors import FLTheoryError, InputError
from fltheory.registry import Entry, Registry
from fltheory.resources import parse_bytes
from fltheory.sim.budget import check_config_size
from fltheory.sim.config.tables import AlgorithmOptions, RunTable, SimFile
from fltheory.sim.contract import DataBacked
from fltheory.sim.local.select import local_method
from fltheory.sim.local_minima import local_minima
from fltheory.sim.problems import DataProblem
from fltheory.sim.registries import (
    ALGORITHMS,
    LOCAL_METHODS,
    MODELS,
    PROBLEMS,
    AlgorithmContext,
    AvailabilityContext,
    Built,
    ProblemContext,
)
from fltheory.sim.settings import AlgorithmSpec, SimSettings

Source = str | Path | None


@dataclass(eq=False)
class SimConfig:
    """A parsed configuration, ready to run (see :func:`build`).

    >>> cfg = build({"run": {"rounds": 5}, "seeds": 3, "device": "cpu",
    ...              "problem": {"kind": "fedpbc_quadratic", "n_clients": 4, "dim": 2},
    ...              "availability": {"kind": "bernoulli", "p": 0.5},
    ...              "algorithms": [{"name": "fedavg"}, {"name": "unbiased"}]})
    >>> cfg.seeds, cfg.settings.rounds, [spec.label for spec in cfg.specs]
    (3, 5, ['fedavg', 'unbiased'])
    """

    name: str
    seed: int
    seeds: int
    device: str
    dtype: torch.dtype
    threads: int | None
    settings: SimSettings
    problem: Any
    process: Any
    specs: list[AlgorithmSpec]
    prior: tuple[float, float]
    raw: dict[str, Any]
    #: t′ of the "warmed" estimator ([run] warmup).
    warmup: int = 0
    groups: dict[str, np.ndarray] = field(default_factory=dict)
    #: every table with its defaults filled in (JSON types): what the run used, for provenance.
    resolved: dict[str, Any] = field(default_factory=dict)
    #: the file it was read from (None: built from a dict).
    source: str | None = None


def load_config(
    path: str | Path,
    *,
    seeds: int | None = None,
    device: str | None = None,
    threads: int | None = None,
    memory_limit: int | str | None = None,
) -> SimConfig:
    """Read and build a TOML configuration (keyword arguments override the file's values).

    >>> import tempfile
    >>> text = '''[run]
    ... rounds = 3
    ... [problem]
    ... kind = "fedpbc_quadratic"
    ... n_clients = 4
    ... dim = 2
    ... [availability]
    ... kind = "bernoulli"
    ... p = 0.5
    ... [[algorithms]]
    ... name = "fedavg"
    ... '''
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "c.toml"
    ...     _ = path.write_text(text)
    ...     cfg = load_config(path, seeds=2, device="cpu")
    >>> cfg.seeds, cfg.problem.n_clients, [s.label for s in cfg.specs]
    (2, 4, ['fedavg'])
    """
    path = Path(path)
    raw = load_toml(path)
    overrides = {"seeds": seeds, "device": device, "threads": threads}
    overrides["memory_limit"] = memory_limit
    raw.update({key: value for key, value in overrides.items() if value is not None})
    return build(raw, base=path.parent, source=path)


def resolve_device(name: str) -> str:
    """The torch device of a config's ``device``: "cpu", or "cuda" (also for "auto" when present).

    >>> resolve_device("cpu")
    'cpu'
    """
    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise InputError("device 'cuda' requested but CUDA is not available")
    return name


def build(raw: dict[str, Any], base: Path = Path("."), source: Source = None) -> SimConfig:
    """Validate a configuration dictionary and build every object it names.

    ``base`` is the folder that relative paths (traces, CSV files) start from; ``source`` names
    the file in error messages.

    >>> cfg = build({"run": {"rounds": 2}, "device": "cpu",
    ...              "problem": {"kind": "quadratic", "u": [[0.0], [1.0]]},
    ...              "availability": {"kind": "bernoulli", "p": [0.5, 1.0]},
    ...              "algorithms": [{"name": "unbiased"}, {"name": "fedavg", "lr": 0.5}]})
    >>> [(s.label, s.schedule.lr) for s in cfg.specs]
    [('unbiased', 0.1), ('fedavg', 0.5)]
    >>> build({**cfg.raw, "algorithms": [{"name": "fedavgg"}]})
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: unknown algorithm 'fedavgg' in [algorithms.0]; did you mean ...
    """
    check_config_size(raw)
    top = parse(SimFile, raw, source=source)
    device = resolve_device(top.device)
    dtype = getattr(torch, top.dtype)
    resolved: dict[str, Any] = top.model_dump(mode="json")
    resolved["device"] = device
    problem, groups = build_problem(
        top.problem, ProblemContext(top.seed, device, dtype), source, resolved["problem"]
    )
    if top.memory_limit is not None and isinstance(problem, DataProblem):
        problem.memory_limit = parse_bytes(top.memory_limit, "memory_limit")
    n = problem.n_clients
    process, process_groups = build_availability(
        top.availability, AvailabilityContext(n, top.seed, base), source, resolved["availability"]
    )
    settings = top.run.settings()
    if top.local is not None:
        settings = build_local(top.local, settings, source, resolved)
    data_problem = isinstance(problem, DataBacked)
    context = AlgorithmContext(
        n,
        settings.rounds,
        top.seed,
        np.asarray(process.pi),
        None if data_problem else problem.local_minima,
        minima=partial(local_minima, problem),
    )
    specs = [
        build_algorithm(
            item, f"algorithms.{i}", top.run, context, source, resolved["algorithms"][i]
        )
        for i, item in enumerate(top.algorithms)
    ]
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        where = table_name("[algorithms]", source)
        raise InputError(f"the labels in {where} must be distinct, got {labels}")
    return SimConfig(
        name=top.name,
        seed=top.seed,
        seeds=top.seeds,
        device=device,
        dtype=dtype,
        threads=top.threads or None,
        settings=settings,
        problem=problem,
        process=process,
        specs=specs,
        prior=(top.run.prior[0], top.run.prior[1]),
        warmup=top.run.warmup,
        raw=raw,
        groups={**process_groups, **groups},
        resolved=resolved,
        source=None if source is None else str(source),
    )


def build_local(
    data: dict[str, Any], settings: SimSettings, source: Source, resolved: dict[str, Any]
) -> SimSettings:
    """The settings with the ``[local]`` table's method and fields (validated: the method is
    built once here), recorded in ``resolved["local"]``.

    >>> from fltheory.sim.settings import SimSettings
    >>> out: dict[str, Any] = {}
    >>> chosen = build_local({"method": "proximal", "mu": 0.1}, SimSettings(rounds=1), None, out)
    >>> chosen.local_method, chosen.local_params
    ('proximal', {'mu': 0.1})
    >>> out["local"]
    {'method': 'proximal', 'mu': 0.1}
    """
    entry, body = plugin(LOCAL_METHODS, data, "method", "local", source)
    params = parse(entry.params, body, table="local", source=source)
    values = params.model_dump(mode="json")
    chosen = replace(settings, local_method=entry.name, local_params=values)
    with located("local", source):
        local_method(chosen, corrects_gradients=False)
    resolved["local"] = {"method": entry.name, **values}
    return chosen


def plugin(
    registry: Registry[Any], data: dict[str, Any], key: str, table: str, source: Source
) -> tuple[Entry[Any], dict[str, Any]]:
    """(registry entry named by ``data[key]``, the table's other keys).

    >>> entry, rest = plugin(PROBLEMS, {"kind": "digits", "n_clients": 5}, "kind", "problem", None)
    >>> entry.name, rest
    ('digits', {'n_clients': 5})
    """
    where = table_name(table, source)
    if key not in data:
        raise InputError(f"missing key '{key}' in {where}")
    name = data[key]
    if not isinstance(name, str):
        raise InputError(f"key '{key}' in {where}: expected a string, got {name!r}")
    rest = {k: v for k, v in data.items() if k != key}
    return registry.get(name, where=where), rest


@contextmanager
def located(table: str, source: Source) -> Iterator[None]:
    """Prefix errors raised while building a plug-in with the table and file they come from."""
    try:
        yield
    except FLTheoryError as err:
        raise type(err)(f"{table_name(table, source)}: {err}") from None


def build_problem(
    data: dict[str, Any],
    ctx: ProblemContext,
    source: Source = None,
    resolved: dict[str, Any] | None = None,
) -> Built:
    """(problem, client groups) from a ``[problem]`` table; a ``model`` key picks a model of
    :data:`~fltheory.sim.registries.MODELS` whose fields sit in the same table. ``resolved``,
    when given, is updated with every field, defaults filled in (likewise below).

    >>> problem, _ = build_problem({"kind": "fedpbc_quadratic", "n_clients": 3}, ProblemContext(0))
    >>> problem.n_clients, problem.n_params
    (3, 100)
    """
    entry, body = plugin(PROBLEMS, data, "kind", "problem", source)
    own = entry.params.model_fields
    mine = {k: v for k, v in body.items() if k in own}
    params = parse(entry.params, mine, table="problem", source=source)
    model = None
    if "model" in own:
        name = params.model_dump(include={"model"})["model"]
        model = MODELS.get(name, where=table_name("problem", source))
    model_fields = [] if model is None else list(model.params.model_fields)
    check_keys(body, [*own, *model_fields], table="problem", source=source)
    if model is not None:
        rest = {k: v for k, v in body.items() if k not in own}
        model_params = parse(model.params, rest, table="problem", source=source)
        ctx = replace(ctx, model=partial(model.build, model_params))
        if resolved is not None:
            resolved.update(model_params.model_dump(mode="json"))
    if resolved is not None:
        resolved.update(params.model_dump(mode="json"))
    with located("problem", source):
        built: Built = entry.build(params, ctx)
    return built


def build_availability(
    data: dict[str, Any],
    ctx: AvailabilityContext,
    source: Source = None,
    resolved: dict[str, Any] | None = None,
) -> Built:
    """(availability process over ``ctx.n_clients`` clients, client groups) from a table.

    >>> process, _ = build_availability({"kind": "bernoulli", "p": 0.5}, AvailabilityContext(3, 0))
    >>> process.pi.tolist()
    [0.5, 0.5, 0.5]
    """
    from fltheory.sim.availability_spec import build_table

    built = build_table(
        data,
        n_clients=ctx.n_clients,
        seed=ctx.seed,
        base=ctx.base,
        source=source,
        context="the problem",
    )
    if resolved is not None:
        resolved.update({k: v for k, v in built.resolved.items() if k != "kind"})
    return built.process, built.groups


def build_algorithm(
    data: dict[str, Any],
    table: str,
    run: RunTable,
    ctx: AlgorithmContext,
    source: Source = None,
    resolved: dict[str, Any] | None = None,
) -> AlgorithmSpec:
    """One ``[[algorithms]]`` entry: its ``name``, its own parameters, and the options of
    :class:`~fltheory.sim.config.tables.AlgorithmOptions` (defaults from ``[run]``).

    >>> ctx = AlgorithmContext(4, 10, 0, np.full(4, 0.5))
    >>> spec = build_algorithm({"name": "f3ast", "k": 2, "label": "F3AST (K=2)"}, "algorithms.0",
    ...                        RunTable(rounds=10, lr=0.3), ctx)
    >>> spec.label, spec.algorithm.k, spec.schedule.lr
    ('F3AST (K=2)', 2, 0.3)
    """
    entry, body = plugin(ALGORITHMS, data, "name", table, source)
    options = AlgorithmOptions.model_fields
    check_keys(body, [*options, *entry.params.model_fields], table=table, source=source)
    chosen = {k: v for k, v in body.items() if k in options}
    opts = parse(AlgorithmOptions, {**run.defaults(), **chosen}, table=table, source=source)
    own = {k: v for k, v in body.items() if k not in options}
    params = parse(entry.params, own, table=table, source=source)
    with located(table, source):
        algorithm = entry.build(params, ctx)
    spec = opts.spec(entry.name, algorithm)
    if resolved is not None:
        resolved.update({**opts.model_dump(mode="json"), **params.model_dump(mode="json")})
        resolved["label"] = spec.label
    return spec
