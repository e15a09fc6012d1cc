"""One simulated comparison (a TOML config or its dict), as one record: what ``fltheory simulate``
computes; with ``out`` it is written to a crash-safe, resumable result directory
(:mod:`fltheory.sim.rundir`)."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fltheory.sim.config import SimConfig, build, load_config, run_config
from fltheory.sim.results import RunResult

#: progress(algorithm label, rounds done, rounds in all)
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True, eq=False)
class SimulationReport:
    """Every algorithm of one configuration, run on one shared availability trace.

    ``summary`` is the ``fltheory simulate --json`` object (the comparison, and per algorithm
    its time-averaged and final metrics over the seeds, inclusion and weights by client
    group); ``runs`` holds each algorithm's per-round records; ``config`` is the parsed config.

    >>> report = simulate({"run": {"rounds": 2}, "seeds": 2, "device": "cpu",
    ...                    "problem": {"kind": "fedpbc_quadratic", "n_clients": 3, "dim": 2},
    ...                    "availability": {"kind": "bernoulli", "p": 1.0},
    ...                    "algorithms": [{"name": "fedavg"}, {"name": "mifa"}]})
    >>> report.summary["clients"], list(report.summary["algorithms"]), report.runs[0].label
    (3, ['fedavg', 'mifa'], 'fedavg')
    """

    summary: dict[str, Any]
    runs: tuple[RunResult, ...]
    config: SimConfig

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
) -> SimulationReport:
    """Run a comparison: a TOML file (format in :mod:`fltheory.sim.config`) or the same tables
    as a dict (relative paths then resolve from the working directory). ``seeds``, ``device``
    ("auto", "cpu" or "cuda"), ``threads`` and ``memory_limit`` (bytes or text such as "4GiB":
    sizes the chunks of local steps) override the config's values; ``progress`` is
    called as progress(label, rounds done, rounds in all) while each algorithm runs.

    ``out``: a result directory (summary.json, rounds.csv and its schema, clients.npz,
    timing.json, manifest.json), checkpointed every ``checkpoint_every`` rounds (None: often
    enough to cost under 5 %; 0: never); ``resume`` continues an unfinished run from its last
    checkpoint, or keeps a complete result (``runs`` is then empty); ``overwrite`` replaces it.

    >>> report = simulate({"run": {"rounds": 3}, "device": "cpu",
    ...                    "problem": {"kind": "fedpbc_quadratic", "n_clients": 2, "dim": 1},
    ...                    "availability": {"kind": "bernoulli", "p": 1.0},
    ...                    "algorithms": [{"name": "fedavg"}]},
    ...                   progress=lambda label, done, total: print(label, done, total))
    fedavg 1 3
    fedavg 2 3
    fedavg 3 3
    """
    if isinstance(config, Mapping):
        overrides = {"seeds": seeds, "device": device, "threads": threads}
        overrides["memory_limit"] = memory_limit
        raw = {**config, **{key: value for key, value in overrides.items() if value is not None}}
        cfg = build(raw)
    else:
        cfg = load_config(
            config, seeds=seeds, device=device, threads=threads, memory_limit=memory_limit
        )
    rounds = cfg.settings.rounds
    tick = None if progress is None else (lambda label, done: progress(label, done, rounds))
    if out is None:
        summary, runs = run_config(cfg, progress=tick)
    else:
        from fltheory.sim.rundir import simulate_into

        summary, kept = simulate_into(
            cfg,
            out,
            overwrite=overwrite,
            resume=resume,
            checkpoint_every=checkpoint_every,
            progress=tick,
        )
        runs = [] if kept is None else kept
    return SimulationReport(summary=summary, runs=tuple(runs), config=cfg)
