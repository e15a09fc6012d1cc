"""Running sweeps: the same rows whatever the workers, restarts skip finished runs, and a sweep
killed with SIGKILL (or stopped with Ctrl-C) and restarted ends with the uninterrupted rows."""

import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import write_sweep

from fltheory.cli.app import run as cli
from fltheory.sweep.export import export
from fltheory.sweep.run import run_one, run_sweep
from fltheory.sweep.spec import load_sweep, runs
from fltheory.sweep.store import Store

ROOT = Path(__file__).resolve().parents[2]


def stored(path: Path) -> dict[str, tuple]:
    """key → (seed, swept values, metrics) of every stored run."""
    with Store(path) as store:
        return {r.key: (r.seed, r.swept, r.metrics) for r in store.rows()}


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> tuple[Path, dict[str, tuple]]:
    """(sweep file, rows) of the 8-run sweep computed in this process, one run after another."""
    path = write_sweep(tmp_path_factory.mktemp("ref"))
    rows = {}
    for r in runs(load_sweep(path)):
        rows[r.key] = (r.seed, r.swept, run_one(r.config, r.seed, str(path.parent)))
    return path, rows


def test_one_and_two_workers_store_the_reference_rows(reference, tmp_path):
    path, expected = reference
    sweep = load_sweep(path)
    one = run_sweep(sweep, tmp_path / "one.db", workers=1)
    two = run_sweep(sweep, tmp_path / "two.db", workers=2)
    assert (one.runs_total, one.runs_done, one.runs_skipped) == (8, 8, 0)
    assert (two.runs_total, two.runs_done, two.runs_skipped) == (8, 8, 0)
    assert stored(tmp_path / "one.db") == stored(tmp_path / "two.db") == expected
    # the rows differ between runs: the axes and the seeds do change the numbers
    assert len({json.dumps(metrics) for _, _, metrics in expected.values()}) == 8


def test_a_restart_skips_the_finished_runs(reference, tmp_path):
    path, expected = reference
    write_sweep(tmp_path, seeds=1)  # the first half: seed 0 only
    first = run_sweep(load_sweep(tmp_path / "s.toml"), tmp_path / "r.db")
    assert (first.runs_total, first.runs_done) == (4, 4)
    report = run_sweep(load_sweep(path), tmp_path / "r.db")
    assert (report.runs_total, report.runs_done, report.runs_skipped) == (8, 4, 4)
    assert stored(tmp_path / "r.db") == expected


def test_export_csv_round_trips(reference, tmp_path):
    path, expected = reference
    status = cli(["sweep", str(path), "--store", str(tmp_path / "r.db"), "--json"])
    assert status == 0
    out = tmp_path / "runs.csv"
    assert (
        cli(["sweep", "export", str(tmp_path / "r.db"), "--format", "csv", "--out", str(out)]) == 0
    )
    try:
        import pandas

        frame = pandas.read_csv(out)
        table = frame.to_dict("records")
        columns = list(frame.columns)
    except ImportError:
        with out.open() as handle:
            reader = csv.DictReader(handle)
            table = list(reader)
            columns = list(reader.fieldnames or [])
    assert columns[:4] == ["key", "run.lr", "availability.p", "seed"]
    assert len(table) == len(expected) == 8
    for row in table:
        seed, swept, metrics = expected[row["key"]]
        assert int(row["seed"]) == seed
        assert float(row["run.lr"]) == swept["run.lr"]
        assert set(columns[4:]) == set(metrics)
        assert all(float(row[m]) == value for m, value in metrics.items())  # exact


def test_parquet_without_pyarrow_names_the_extra(reference, tmp_path):
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        with Store(tmp_path / "r.db"):
            pass
        with pytest.raises(Exception, match=r"pip install 'fltheory\[parquet\]'"):
            export(tmp_path / "r.db", "parquet", tmp_path / "r.parquet")
        assert not (tmp_path / "r.parquet").exists()
    else:
        import pyarrow.parquet as pq

        run_sweep(load_sweep(reference[0]), tmp_path / "r.db")
        assert export(tmp_path / "r.db", "parquet", tmp_path / "r.parquet") == 8
        assert export(tmp_path / "r.db", "csv", tmp_path / "r.csv") == 8
        # The Parquet file holds the CSV export's rows, the metrics as exact floats.
        table = pq.read_table(tmp_path / "r.parquet").to_pylist()
        with (tmp_path / "r.csv").open() as f:
            rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
        assert [r["key"] for r in table] == [r["key"] for r in rows]
        for got, want in zip(table, rows, strict=True):
            for column, value in want.items():
                cell = got[column]
                assert (str(cell) == value) or float(cell) == float(value), column


def _start(sweep: Path, store: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "fltheory", "sweep", str(sweep), "--store", str(store), "--json"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _wait_for_rows(store: Path, process: subprocess.Popen, n: int) -> int:
    """Poll the store (as a reader) until it holds at least ``n`` runs."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if store.exists():
            try:
                with sqlite3.connect(store, timeout=1) as db:
                    count = db.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
            except sqlite3.OperationalError:  # the table is not there yet
                count = 0
            if count >= n:
                return count
        time.sleep(0.02)
    raise AssertionError(f"the sweep stored fewer than {n} runs ({process.poll()})")


SLOW_SWEEP = """base = "base.toml"
seeds = {seeds}
[axes]
"run.lr" = [0.05, 0.1, 0.2]
"""


def _slow_sweep(folder: Path) -> tuple[Path, dict[str, tuple]]:
    """6 runs of 1000 rounds (about 0.2 s each) and their rows computed here, one by one."""
    path = write_sweep(folder, rounds=1000, sweep=SLOW_SWEEP)
    rows = {}
    for r in runs(load_sweep(path)):
        rows[r.key] = (r.seed, r.swept, run_one(r.config, r.seed, str(folder)))
    return path, rows


@pytest.mark.slow
def test_a_sweep_killed_with_sigkill_and_restarted_has_every_row_once(tmp_path):
    path, expected = _slow_sweep(tmp_path)
    store = tmp_path / "r.db"
    process = _start(path, store)
    count = _wait_for_rows(store, process, 2)
    os.killpg(process.pid, signal.SIGKILL)  # the sweep and its workers
    process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    interrupted = stored(store)
    assert count <= len(interrupted) < len(expected)  # killed mid-run, what was stored stays
    restart = _start(path, store)
    out, err = restart.communicate(timeout=300)
    assert restart.returncode == 0, err
    report = json.loads(out)
    assert report["runs_skipped"] == len(interrupted)
    assert report["runs_done"] == len(expected) - len(interrupted)
    with sqlite3.connect(store) as db:  # exactly one row per run
        assert db.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == len(expected)
    assert stored(store) == expected


@pytest.mark.slow
def test_ctrl_c_stops_with_130_and_a_consistent_store(tmp_path):
    path, expected = _slow_sweep(tmp_path)
    store = tmp_path / "r.db"
    process = _start(path, store)
    _wait_for_rows(store, process, 1)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal sends it: to the whole group
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert out == b"" and err.decode().count("\n") == 1 and "interrupted" in err.decode()
    partial = stored(store)
    assert 1 <= len(partial) < len(expected)
    assert all(expected[key] == row for key, row in partial.items())


@pytest.mark.slow
def test_two_sweeps_share_a_store(reference, tmp_path):
    path, expected = reference
    store = tmp_path / "r.db"
    first, second = _start(path, store), _start(path, store)  # the same runs, at the same time
    reports = [json.loads(p.communicate(timeout=300)[0]) for p in (first, second)]
    assert (first.returncode, second.returncode) == (0, 0)
    assert all(r["runs_total"] == 8 for r in reports)
    assert stored(store) == expected  # each run once, whichever sweep stored it
