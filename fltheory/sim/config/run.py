"""Run every algorithm of a parsed configuration on one shared trace and summarise."""

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import torch

from fltheory.sim.checkpoint import Checkpointer, restore_run, restore_state
from fltheory.sim.compare import Setup
from fltheory.sim.config.loader import SimConfig
from fltheory.sim.results import RunResult

#: progress(algorithm label, rounds done)
Progress = Callable[[str, int], None]


@contextmanager
def torch_threads(n: int | None) -> Iterator[None]:
    """Use ``n`` intra-op CPU threads inside the block (None: leave torch's setting).

    >>> with torch_threads(1):
    ...     torch.get_num_threads()
    1
    """
    before = torch.get_num_threads()
    if n is not None:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def run_config(
    cfg: SimConfig, progress: Progress | None = None, checkpointer: Checkpointer | None = None
) -> tuple[dict[str, Any], list[RunResult]]:
    """(summary, runs): the trace is drawn once and every algorithm runs on it. With a
    ``checkpointer`` the run continues from its checkpoints (finished algorithms, the state of
    the next one) and saves new ones (:mod:`fltheory.sim.checkpoint`).

    >>> from fltheory.sim.config.loader import build
    >>> cfg = build({"run": {"rounds": 2}, "device": "cpu",
    ...              "problem": {"kind": "fedpbc_quadratic", "n_clients": 3, "dim": 2},
    ...              "availability": {"kind": "bernoulli", "p": 1.0},
    ...              "algorithms": [{"name": "fedavg"}]})
    >>> summary, runs = run_config(cfg)
    >>> summary["clients"], summary["empirical_availability"], runs[0].label
    (3, 1.0, 'fedavg')
    """
    with torch_threads(cfg.threads):
        setup = Setup(
            cfg.problem, cfg.process, cfg.settings, cfg.seed, cfg.seeds, cfg.prior, cfg.warmup
        )
        runs: list[RunResult] = []
        done, current = ([], None) if checkpointer is None else checkpointer.load()
        rounds = cfg.settings.rounds
        for i, spec in enumerate(cfg.specs):
            tick = None if progress is None else (lambda t, lb=spec.label: progress(lb, t + 1))
            if i < len(done):
                runs.append(restore_run(done[i], spec, setup))
                if tick is not None:
                    tick(rounds - 1)
                continue
            start = None
            if current is not None and checkpointer is not None:
                start = restore_state(current, spec, setup.trace.shape, cfg.device)
                current = None
            if checkpointer is not None:
                checkpointer.index, checkpointer.rounds = i, rounds
            runs.append(setup.run(spec, progress=tick, start=start, checkpoint=checkpointer))
            if checkpointer is not None:
                checkpointer.finished(i, runs[-1])
    return summarise(cfg, setup.trace, runs), runs


def summarise(cfg: SimConfig, trace: np.ndarray, runs: list[RunResult]) -> dict[str, Any]:
    """The summary of ``fltheory simulate``: the comparison, and per algorithm its time-averaged
    metrics, final values and mean weight / inclusion per client group (see ``run_config``)."""

    def by_group(values: np.ndarray) -> dict[str, float]:
        """Mean of ``values`` (..., N) over each group's clients (NaN, i.e. null, when empty)."""
        return {
            name: float(values[..., members].mean()) if members.any() else math.nan
            for name, members in cfg.groups.items()
        }

    algorithms = {}
    for run in runs:
        entry = run.summary()
        entry["mean_weight_by_group"] = by_group(entry.pop("mean_weights"))
        entry["inclusion_by_group"] = by_group(run.included)
        algorithms[run.label] = entry
    return {
        "name": cfg.name,
        "seed": cfg.seed,
        "seeds": cfg.seeds,
        "rounds": cfg.settings.rounds,
        "clients": int(trace.shape[2]),
        "device": cfg.device,
        "dtype": str(cfg.dtype).removeprefix("torch."),
        "threads": torch.get_num_threads() if cfg.threads is None else cfg.threads,
        "empirical_availability": float(trace.mean()),
        "algorithms": algorithms,
    }
