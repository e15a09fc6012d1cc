"""The results store: idempotent inserts, two writing processes, a reader while one writes."""

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fltheory.errors import InputError
from fltheory.sweep.store import Row, Store

ROOT = Path(__file__).resolve().parents[2]

WRITER = """
import sys, time
from fltheory.sweep.store import Row, Store
path, first, last, pause = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
with Store(path) as store:
    for i in range(first, last):
        store.add(Row(f"k{i}", i, {"i": i}, {"seed": i}, {"a/objective/final": i / 7}, 0.0))
        time.sleep(pause)
"""


def _writer(path: Path, first: int, last: int, pause: float = 0.0) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), str(first), str(last), str(pause)],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )


def test_insert_is_idempotent_and_keeps_the_first_row(tmp_path):
    with Store(tmp_path / "r.db") as store:
        assert store.add(Row("k", 1, {"x": 1}, {}, {"m": 0.1}, 1.0))
        assert not store.add(Row("k", 1, {"x": 1}, {}, {"m": 0.2}, 1.0))
        assert len(store) == 1
    with Store(tmp_path / "r.db") as store:  # reopened: the row persisted
        assert [r.metrics for r in store.rows()] == [{"m": 0.1}]


def test_floats_and_nan_round_trip_exactly(tmp_path):
    metrics = {"a": 0.1 + 0.2, "b": float("nan"), "c": 1e-308, "d": 2.0**0.5}
    with Store(tmp_path / "r.db") as store:
        store.add(Row("k", 0, {}, {}, metrics, 0.0))
        (back,) = [r.metrics for r in store.rows()]
    assert back["a"] == 0.1 + 0.2 and back["c"] == 1e-308 and back["d"] == 2.0**0.5
    assert back["b"] != back["b"]  # NaN


def test_two_processes_write_one_store(tmp_path):
    path = tmp_path / "r.db"
    Store(path).close()
    writers = [_writer(path, 0, 150), _writer(path, 100, 250)]  # 50 keys in common
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    with Store(path) as store:
        rows = list(store.rows())
    assert sorted(r.seed for r in rows) == list(range(250))  # each key once, none lost
    assert all(r.metrics["a/objective/final"] == r.seed / 7 for r in rows)


def test_the_store_is_readable_while_a_sweep_writes(tmp_path):
    path = tmp_path / "r.db"
    Store(path).close()
    writer = _writer(path, 0, 100, pause=0.01)
    counts = []
    reader = sqlite3.connect(path, timeout=0.05)  # a reader that waits for no lock
    while writer.poll() is None:
        counts.append(reader.execute("SELECT COUNT(*) FROM runs").fetchone()[0])
        time.sleep(0.005)
    assert writer.returncode == 0
    counts.append(reader.execute("SELECT COUNT(*) FROM runs").fetchone()[0])
    assert counts == sorted(counts) and counts[-1] == 100
    assert len(set(counts)) > 2  # it saw the store grow, not only before and after
    assert reader.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_what_is_not_a_store_is_refused(tmp_path):
    with pytest.raises(InputError, match="is a directory"):
        Store(tmp_path)
    (tmp_path / "notes.db").write_text("not a database, just some text " * 100)
    with pytest.raises(InputError, match="not a sweep results store"):
        Store(tmp_path / "notes.db")
    other = sqlite3.connect(tmp_path / "other.db")
    other.execute("CREATE TABLE t (x)")
    other.commit()
    other.close()
    with pytest.raises(InputError, match="not a sweep results store"):
        Store(tmp_path / "other.db")
