"""Sweeps: a grid of simulation configs × seeds, run by a pool of workers into a resumable store.

* :mod:`~fltheory.sweep.spec` — the sweep file: base config, seeds, axes; every run up front;
* :mod:`~fltheory.sweep.store` — the SQLite results store (one transaction per finished run);
* :mod:`~fltheory.sweep.executors` — local processes or Ray, behind one small interface;
* :mod:`~fltheory.sweep.run` — one run (a pure worker function) and the whole sweep;
* :mod:`~fltheory.sweep.export` — the store as a CSV or Parquet table, one row per run.
"""

from fltheory.sweep.export import export
from fltheory.sweep.run import SweepReport, run_one, run_sweep
from fltheory.sweep.spec import Run, Sweep, load_sweep, runs
from fltheory.sweep.store import Row, Store

__all__ = [
    "Row",
    "Run",
    "Store",
    "Sweep",
    "SweepReport",
    "export",
    "load_sweep",
    "run_one",
    "run_sweep",
    "runs",
]
