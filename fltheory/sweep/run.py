"""Run a sweep: every run of the sweep file not yet in the store, one stored row per finished run.

:func:`run_one` is the work of one run — a pure function of the config and the seed (the
simulator draws every random number from generators keyed by the seed and a purpose), so a row
is the same, bit for bit, whichever process, machine or executor computes it.
"""

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fltheory.errors import InputError
from fltheory.sweep.executors import make_executor
from fltheory.sweep.spec import Run, Sweep, check_seeds, runs
from fltheory.sweep.store import Row, Store, StoreError, StoreLost

#: progress(runs done, runs in all), runs already in the store counted as done.
Progress = Callable[[int, int], None]
#: The statistics kept of each metric (mean over the rounds evaluated, and the last value).
STATISTICS = ("final", "time_average")


def run_one(config: dict[str, Any], seed: int, base: str) -> dict[str, Any]:
    """The metrics row of one run: ``config`` (a raw simulation config; relative paths from the
    folder ``base``) with master seed ``seed`` and one repetition; per algorithm label and
    metric, ``"label/metric/final"`` and ``"label/metric/time_average"``.

    >>> row = run_one({"run": {"rounds": 3}, "device": "cpu",
    ...                "problem": {"kind": "quadratic", "u": [[0.0], [1.0]]},
    ...                "availability": {"kind": "bernoulli", "p": 1.0},
    ...                "algorithms": [{"name": "fedavg"}]}, 0, ".")
    >>> sorted(row)
    ['fedavg/distance/final', 'fedavg/distance/time_average', 'fedavg/objective/final', ...]
    >>> row == run_one({"run": {"rounds": 3}, "device": "cpu",
    ...                 "problem": {"kind": "quadratic", "u": [[0.0], [1.0]]},
    ...                 "availability": {"kind": "bernoulli", "p": 1.0},
    ...                 "algorithms": [{"name": "fedavg"}]}, 0, ".")
    True
    """
    from fltheory.sim.config import build, run_config

    cfg = build({**config, "seed": seed, "seeds": 1}, base=Path(base))
    summary, _ = run_config(cfg)
    row: dict[str, Any] = {}
    for label, entry in summary["algorithms"].items():
        for metric, stats in entry.items():
            if isinstance(stats, dict) and "time_average" in stats:
                row.update({f"{label}/{metric}/{s}": stats[s] for s in STATISTICS})
    return row


def _timed(config: dict[str, Any], seed: int, base: str) -> tuple[dict[str, Any], float]:
    """(run_one's row, its wall time in seconds)."""
    start = time.perf_counter()
    row = run_one(config, seed, base)
    return row, time.perf_counter() - start


@dataclass(frozen=True)
class SweepReport:
    """What a sweep did: ``runs_done`` finished now, ``runs_skipped`` found in the store.

    >>> SweepReport(8, 5, 3, "r.db").runs_total
    8
    """

    runs_total: int
    runs_done: int
    runs_skipped: int
    store: str

    def to_dict(self) -> dict[str, Any]:
        """The ``fltheory sweep --json`` object.

        >>> SweepReport(8, 5, 3, "r.db").to_dict()
        {'runs_total': 8, 'runs_done': 5, 'runs_skipped': 3, 'store': 'r.db'}
        """
        return dict(vars(self))


def run_sweep(
    sweep: Sweep,
    store: str | Path,
    *,
    executor: str = "local",
    workers: int = 1,
    address: str | None = None,
    progress: Progress | None = None,
) -> SweepReport:
    """Run every run of ``sweep`` missing from ``store`` (created if needed) and store each
    as it finishes; an interruption (Ctrl-C, SIGTERM) stops the workers and leaves every
    finished run stored. Refused up front: seeds a store cannot hold, and runs that would not
    fit in memory as many at once as there are local workers. A store that fails (full disk,
    lock, deleted or replaced while the sweep runs) ends the sweep with a
    :class:`~fltheory.sweep.store.StoreError`, never with a report of runs that were lost.

    >>> import tempfile
    >>> from fltheory.sweep.spec import load_sweep
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "base.toml").write_text(
    ...     'device = "cpu"\\n[run]\\nrounds = 2\\n[problem]\\nkind = "quadratic"\\n'
    ...     'u = [[0.0], [1.0]]\\n[availability]\\nkind = "bernoulli"\\np = 0.5\\n'
    ...     '[[algorithms]]\\nname = "fedavg"\\n')
    >>> _ = (folder / "s.toml").write_text('base = "base.toml"\\nseeds = 2\\n')
    >>> sweep = load_sweep(folder / "s.toml")
    >>> run_sweep(sweep, folder / "r.db").runs_done
    2
    >>> run_sweep(sweep, folder / "r.db").runs_skipped
    2
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError(f"workers must be an integer >= 1, got {workers!r}")
    check_seeds(sweep.seeds, f"the sweep file {sweep.source}")
    todo = runs(sweep)
    at_once = workers if executor == "local" or address is None else 1
    _check_memory(todo, at_once)
    with Store(store) as db:
        finished = db.keys()
        pending = [run for run in todo if run.key not in finished]
        skipped = len(todo) - len(pending)
        if progress is not None:
            progress(skipped, len(todo))
        done = 0
        if pending:
            from fltheory.provenance import provenance

            db.add_provenance(provenance(sweep=str(sweep.source), executor=executor))
            base = str(sweep.base.parent.resolve())
            tasks = [(run.config, run.seed, base) for run in pending]
            pool = make_executor(executor, workers, address)
            try:
                for index, (metrics, seconds) in pool.map_unordered(_timed, tasks):
                    run = pending[index]
                    try:
                        db.add(Row(run.key, run.seed, run.swept, run.resolved, metrics, seconds))
                    except StoreLost:
                        raise
                    except StoreError as err:
                        raise StoreError(f"{err}; {_kept(done, skipped)}") from None
                    done += 1
                    if progress is not None:
                        progress(skipped + done, len(todo))
            finally:
                pool.close()
        db.verify()  # a store deleted or replaced after its last insert: the rows are lost
    return SweepReport(len(todo), done, skipped, str(store))


def _kept(done: int, skipped: int) -> str:
    if done + skipped == 0:
        return "no run was stored"
    return f"the {done + skipped} runs stored before are kept: run the sweep again to resume"


def _check_memory(todo: list[Run], at_once: int) -> None:
    """Refuse a sweep whose largest run, ``at_once`` of them side by side (the workers, or
    fewer runs), would not fit in memory (:func:`fltheory.sim.budget.check_config_size`)."""
    from fltheory.sim.budget import check_config_size, footprint

    seen: dict[str, dict[str, Any]] = {}
    for run in todo:  # one config per point: the seed changes no size
        seen.setdefault(json.dumps(run.swept, sort_keys=True, default=str), run.config)
    if not seen:
        return
    largest = max(seen.values(), key=lambda config: sum(footprint(config).values()))
    try:
        check_config_size(largest, min(at_once, len(todo)))
    except InputError as err:
        point = next(k for k, v in seen.items() if v is largest)
        where = "" if point == "{}" else f" (point {point})"
        raise InputError(f"the sweep{where} {err}") from None
