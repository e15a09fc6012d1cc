"""Sweeps: a grid of simulation configs × seeds, run by a pool of workers into a resumable store.

* :mod:`~fltheory.sweep.spec` — the sweep file: base config, seeds, axes; every run up front;
* :mod:`~fltheory.sweep.store` — the SQLite results store (one transaction per finished run);
* :mod:`~fltheory.sweep.executors` — local processes or Ray, behind one small interface;
* :mod:`~fltheory.sweep.run` — one run (a pure worker function) and the whole sweep;
* :mod:`~fltheory.sweep.export` — the store as a CSV or Parquet table, one row per run.
"""
