"""One simulated comparison (a TOML config or its dict), as one record: what ``fltheory simulate``
computes; with ``out`` it is written to a crash-safe, resumable result directory
(:mod:`fltheory.sim.rundir`)."""

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fltheory.api.record import Record
from fltheory.errors import InputError
from fltheory.resources import parse_bytes

if TYPE_CHECKING:  # the simulator (and torch) load on the first call of simulate()
    from fltheory.sim.config import SimConfig
    from fltheory.sim.results import RunResult
    from fltheory.sim.theory.compare import TheoryComparison

#: progress(algorithm label, rounds done, rounds in all)
Progress = Callable[[str, int, int], None]
#: The devices a simulation runs on (``device`` of a config, ``--device``).
DEVICES = ("auto", "cpu", "cuda")


def _count(value: object, name: str, least: int, unit: str = "") -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{name} must be an integer, got {value!r}")
    if value < least:
        raise InputError(f"{name} must be >= {least}{unit}, got {value}")


def check_options(
    *,
    seeds: object = None,
    device: object = None,
    threads: object = None,
    memory_limit: object = None,
    out: object = None,
    overwrite: object = False,
    resume: object = False,
    checkpoint_every: object = None,
    theory: object = False,
    burn_in: object = None,
    flags: bool = False,
) -> None:
    """Refuse options of :func:`simulate` (``flags``: of ``fltheory simulate``, named as the
    command line spells them) that no config could make valid — the one check of both faces.

    >>> check_options(seeds=0)
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: seeds must be >= 1, got 0
    >>> check_options(resume=True, flags=True)
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: --resume, --overwrite and --checkpoint-every need --out
    """

    def name(option: str) -> str:
        return "--" + option.replace("_", "-") if flags else option

    _count(seeds, name("seeds"), 1)
    _count(threads, name("threads"), 0)
    _count(checkpoint_every, name("checkpoint_every"), 0, " rounds")
    _count(burn_in, name("burn_in"), 0, " rounds")
    if device is not None and device not in DEVICES:
        raise InputError(f"{name('device')} must be auto, cpu or cuda, got {device!r}")
    if memory_limit is not None:
        if isinstance(memory_limit, bool) or not isinstance(memory_limit, int | str):
            raise InputError(f"{name('memory_limit')} must be a size, got {memory_limit!r}")
        parse_bytes(memory_limit, name("memory_limit"))
    for option, value in (("overwrite", overwrite), ("resume", resume), ("theory", theory)):
        if not isinstance(value, bool):
            raise InputError(f"{name(option)} must be True or False, got {value!r}")
    if out is None and (resume or overwrite or checkpoint_every is not None):
        needs = ", ".join(name(o) for o in ("resume", "overwrite"))
        raise InputError(f"{needs} and {name('checkpoint_every')} need {name('out')}")
    if burn_in is not None and not theory:
        raise InputError(f"{name('burn_in')} needs {name('theory')}")


@dataclass(frozen=True, eq=False)
class SimulationReport(Record):
    """Every algorithm of one configuration, run on one shared availability trace.

    ``summary`` is the ``fltheory simulate --json`` object (the comparison, and per algorithm
    its time-averaged and final metrics over the seeds, inclusion and weights by client
    group); ``runs`` holds each algorithm's per-round records; ``config`` is the parsed config;
    ``theory`` (with ``theory=True``) every algorithm against its exact limit.

    >>> report = simulate({"run": {"rounds": 2}, "seeds": 2, "device": "cpu",
    ...                    "problem": {"kind": "fedpbc_quadratic", "n_clients": 3, "dim": 2},
    ...                    "availability": {"kind": "bernoulli", "p": 1.0},
    ...                    "algorithms": [{"name": "fedavg"}, {"name": "mifa"}]})
    >>> report.summary["clients"], list(report.summary["algorithms"]), report.runs[0].label
    (3, ['fedavg', 'mifa'], 'fedavg')
    """

    TITLE = "simulated comparison"

    summary: dict[str, Any]
    runs: "tuple[RunResult, ...]"
    config: "SimConfig"
    theory: "TheoryComparison | None" = None

    def to_dict(self) -> dict[str, Any]:
        """The summary (a copy), as ``fltheory simulate --json`` prints it.

        >>> report = simulate({"run": {"rounds": 2}, "device": "cpu",
        ...                    "problem": {"kind": "fedpbc_quadratic", "n_clients": 4, "dim": 2},
        ...                    "availability": {"kind": "bernoulli", "p": 1.0},
        ...                    "algorithms": [{"name": "fedavg"}]})
        >>> report.to_dict()["algorithms"]["fedavg"]["inclusion_rate"]
        1.0
        """
        return dict(self.summary)


def _availability_table(spec: Any) -> dict[str, Any]:
    """The ``[availability]`` table of a chain object, a table or a file, its relative ``path``
    made absolute when it came from a file."""
    from fltheory.api.availability import availability_setting

    if isinstance(spec, Mapping) and "kind" in spec:
        return dict(spec)
    setting = availability_setting(spec)
    table = setting.simulation_table()
    path = table.get("path")
    if setting.source is not None and isinstance(path, str) and not Path(path).is_absolute():
        table["path"] = str(Path(setting.source).parent / path)
    return table


def simulate(
    config: str | Path | Mapping[str, Any],
    *,
    seeds: int | None = None,
    device: str | None = None,
    threads: int | None = None,
    memory_limit: int | str | None = None,
    progress: Progress | None = None,
    out: str | Path | None = None,
    overwrite: bool = False,
    resume: bool = False,
    checkpoint_every: int | None = None,
    theory: bool = False,
    burn_in: int | None = None,
    availability: Any = None,
) -> SimulationReport:
    """Run a comparison: a TOML file (format in :mod:`fltheory.sim.config`) or the same tables
    as a dict (relative paths then resolve from the working directory). ``seeds``, ``device``
    ("auto", "cpu" or "cuda"), ``threads`` and ``memory_limit`` (bytes or text such as "4GiB":
    a run estimated above it is refused; lowers the chunks of local steps) override the
    config's values; ``progress`` is called as progress(label, rounds done, rounds in all)
    while each algorithm runs.

    ``out``: a result directory (summary.json, rounds.csv and its schema, clients.npz,
    timing.json, manifest.json), checkpointed every ``checkpoint_every`` rounds (None: often
    enough to cost under 5 %; 0: never); ``resume`` continues an unfinished run from its last
    checkpoint, or keeps a complete result (``runs`` is then empty); ``overwrite`` replaces it.
    Options are checked as ``fltheory simulate`` checks its flags (:func:`check_options`):
    ``resume``, ``overwrite`` and ``checkpoint_every`` without ``out`` are refused.

    ``theory``: compare every algorithm with its exact limit lim E[w_t]
    (:mod:`fltheory.sim.theory`; a quadratic problem under Bernoulli links or a stationary
    chain, else refused before anything runs) into ``report.theory``, and with ``out`` write
    ``theory.json``, ``theory.csv`` and the overlay plot ``theory.png`` beside the result;
    ``burn_in``: rounds left out of the time averages (None: from each limit's rate).

    >>> report = simulate({"run": {"rounds": 200, "lr": 0.5}, "seeds": 8, "device": "cpu",
    ...                    "problem": {"kind": "quadratic", "u": [[0.0], [1.0]]},
    ...                    "availability": {"kind": "bernoulli", "p": [0.5, 0.9]},
    ...                    "algorithms": [{"name": "fedavg"}, {"name": "mifa"}]}, theory=True)
    >>> report.theory.verdicts
    {'fedavg': 'agrees', 'mifa': 'no known limit'}

    ``availability`` replaces the config's ``[availability]`` table: an availability chain
    object, a table (dict) or a file (see :mod:`fltheory.api.availability`).

    >>> report = simulate({"run": {"rounds": 3}, "device": "cpu",
    ...                    "problem": {"kind": "fedpbc_quadratic", "n_clients": 2, "dim": 1},
    ...                    "availability": {"kind": "bernoulli", "p": 1.0},
    ...                    "algorithms": [{"name": "fedavg"}]},
    ...                   progress=lambda label, done, total: print(label, done, total))
    fedavg 1 3
    fedavg 2 3
    fedavg 3 3
    """
    check_options(
        seeds=seeds,
        device=device,
        threads=threads,
        memory_limit=memory_limit,
        out=out,
        overwrite=overwrite,
        resume=resume,
        checkpoint_every=checkpoint_every,
        theory=theory,
        burn_in=burn_in,
    )
    if not isinstance(config, Mapping | str | os.PathLike):
        raise InputError(f"config must be a TOML file or a dict of tables, got {config!r}")
    if progress is not None and not callable(progress):
        raise InputError(f"progress must be a function of (label, done, total), got {progress!r}")
    from fltheory.sim.config import build, load_config, run_config

    if isinstance(config, Mapping) or availability is not None:
        from fltheory.config.files import load_toml

        base, source = Path("."), None
        if not isinstance(config, Mapping):
            base, source = Path(config).parent, Path(config)
            config = load_toml(source)
        overrides = {"seeds": seeds, "device": device, "threads": threads}
        overrides["memory_limit"] = memory_limit
        raw = {**config, **{key: value for key, value in overrides.items() if value is not None}}
        if availability is not None:
            raw["availability"] = _availability_table(availability)
        cfg = build(raw, base=base, source=source)
    else:
        cfg = load_config(
            config, seeds=seeds, device=device, threads=threads, memory_limit=memory_limit
        )
    rounds = cfg.settings.rounds
    tick = None if progress is None else (lambda label, done: progress(label, done, rounds))
    judge = None
    if theory:  # refuses a setting without known limits before anything runs
        from fltheory.sim.rundir import result_provenance
        from fltheory.sim.theory.run import TheoryRun

        judge = TheoryRun(cfg, burn_in=burn_in, plot=out is not None,
                          provenance=result_provenance(cfg))  # fmt: skip
    if out is None:
        summary, runs = run_config(cfg, progress=tick)
        if judge is not None:
            from fltheory.sim.theory.compare import models_of_runs

            judge.judge(models_of_runs(runs))
    else:
        from fltheory.sim.rundir import simulate_into

        summary, kept = simulate_into(
            cfg,
            out,
            overwrite=overwrite,
            resume=resume,
            checkpoint_every=checkpoint_every,
            progress=tick,
            extra=None if judge is None else judge.files,
        )
        runs = [] if kept is None else kept
    comparison = None if judge is None else judge.result
    return SimulationReport(summary=summary, runs=tuple(runs), config=cfg, theory=comparison)
