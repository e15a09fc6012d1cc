"""Stores that fail, and workers that outlive nothing: every SQLite failure is one
:class:`StoreError` line naming its cause (a missing folder, a read-only file system, a full
disk or a file-size limit, a lock, a corrupt or foreign file, a store deleted or replaced under
a running sweep), seeds beyond SQLite's 64-bit integers are refused up front, and a sweep killed
with SIGKILL leaves no worker, forkserver or resource tracker behind.

The failures are real: SQLite's own errors from a store made full (``max_page_count``), locked
by another connection, truncated, or written past ``ulimit -f``; a read-only file system is a
bind mount where the test may mount (root), else the test is skipped.
"""

import contextlib
import dataclasses
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fltheory.cli.app import main
from fltheory.errors import InputError
from fltheory.sweep import load_sweep, run_sweep
from fltheory.sweep import store as store_module
from fltheory.sweep.export import export
from fltheory.sweep.store import Row, Store, StoreError, StoreLost

ROOT = Path(__file__).resolve().parents[2]
BASE = """device = "cpu"
[run]
rounds = {rounds}
[problem]
kind = "fedpbc_quadratic"
n_clients = 6
dim = 3
[availability]
kind = "bernoulli"
p = 0.5
[[algorithms]]
name = "fedavg"
"""
SWEEP = 'base = "base.toml"\nseeds = {seeds}\n[axes]\n"run.lr" = [0.05, 0.1]\n'


def write_sweep(folder: Path, *, seeds: int = 2, rounds: int = 20, sweep: str = SWEEP) -> Path:
    """base.toml and s.toml (2 points × ``seeds``) in ``folder``; the path of s.toml."""
    (folder / "base.toml").write_text(BASE.format(rounds=rounds))
    path = folder / "s.toml"
    path.write_text(sweep.format(seeds=seeds))
    return path


def _row(i: int) -> Row:
    return Row(f"k{i}", i, {"i": i}, {"seed": i, "pad": "x" * 2000}, {"m": i / 7}, 0.0)


def _filled(path: Path, rows: int = 3) -> Path:
    with Store(path) as store:
        for i in range(rows):
            store.add(_row(i))
    return path


def test_a_missing_folder_and_a_folder_that_is_a_file_are_named(tmp_path):
    with pytest.raises(StoreError, match=r"the folder .*/no does not exist"):
        Store(tmp_path / "no" / "r.db")
    (tmp_path / "f").write_text("x")
    with pytest.raises(StoreError, match=r"/f is not a folder"):
        Store(tmp_path / "f" / "r.db")


def test_a_full_store_is_named_and_keeps_its_runs(tmp_path):
    path = _filled(tmp_path / "r.db")
    with Store(path) as store:
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count = {pages + 1}")  # SQLite's SQLITE_FULL
        with pytest.raises(StoreError, match="full"):
            for i in range(3, 40):
                store.add(_row(i))
    with Store(path) as store:
        assert len(store) >= 3


def test_a_lock_held_too_long_is_named(tmp_path, monkeypatch):
    path = _filled(tmp_path / "r.db")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    monkeypatch.setattr(store_module, "BUSY_SECONDS", 0.05)
    try:
        with Store(path) as store, pytest.raises(StoreError, match="locked by another process"):
            store.add(_row(9))
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_corrupt_store_is_called_corrupt(tmp_path):
    path = _filled(tmp_path / "r.db", rows=40)
    data = path.read_bytes()
    path.write_bytes(data[:4096] + b"\x07" * (len(data) - 4096))
    with pytest.raises(StoreError, match="corrupt"):
        export(path, "csv", tmp_path / "x.csv")


def test_a_foreign_file_is_not_a_store(tmp_path):
    (tmp_path / "g.db").write_bytes(os.urandom(8192))
    with pytest.raises(StoreError, match="not a sweep results store"):
        Store(tmp_path / "g.db")


def test_a_store_deleted_or_replaced_while_open_is_lost(tmp_path):
    path = _filled(tmp_path / "r.db")
    with Store(path) as store:
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{path}{suffix}")
        with pytest.raises(StoreLost, match="deleted while in use"):
            store.add(_row(7))
    _filled(tmp_path / "s.db")
    with Store(tmp_path / "s.db") as store:
        os.replace(_filled(tmp_path / "other.db"), tmp_path / "s.db")
        with pytest.raises(StoreLost, match="replaced by another file"):
            store.verify()


@pytest.mark.parametrize("how", ["folder", "replaced"])
def test_a_sweep_whose_store_vanishes_is_an_error_not_a_report(tmp_path, how):
    sweep = load_sweep(write_sweep(tmp_path, seeds=2, rounds=3))
    (tmp_path / "data").mkdir()
    path = tmp_path / "data" / "r.db"

    def vanish(done: int, total: int) -> None:
        if done == 1:
            if how == "folder":
                for name in os.listdir(tmp_path / "data"):
                    os.unlink(tmp_path / "data" / name)
                os.rmdir(tmp_path / "data")
            else:
                os.replace(_filled(tmp_path / "other.db"), path)

    with pytest.raises(StoreLost, match="the runs stored since are lost"):
        run_sweep(sweep, path, progress=vanish)


def test_a_failed_insert_says_what_is_kept(tmp_path, monkeypatch):
    sweep = load_sweep(write_sweep(tmp_path, seeds=2, rounds=3))
    real = Store.add

    def add(self, row):
        if len(self) >= 2:
            raise StoreError(f"{self.path}: the disk is full (0 bytes free) while storing a run")
        return real(self, row)

    monkeypatch.setattr(Store, "add", add)
    with pytest.raises(StoreError, match=r"full.*the 2 runs stored before are kept"):
        run_sweep(sweep, tmp_path / "r.db")


def test_a_file_size_limit_mid_sweep_is_one_line(tmp_path):
    """``ulimit -f`` (no root needed): SQLite's short writes and EFBIG, named as the limit."""
    sweep = write_sweep(tmp_path, seeds=40, rounds=2)
    code = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (40 * 1024, 40 * 1024))\n"
        "from fltheory.cli.app import main\n"
        f"sys.exit(main(['sweep', {str(sweep)!r}, '--store', 'r.db']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert "file-size limit" in line and "kept" in line


@contextlib.contextmanager
def _read_only_copy(folder: Path, target: Path):
    """``folder`` bind-mounted read-only at ``target`` (root only), else skip."""
    if os.geteuid() != 0:
        pytest.skip("a read-only mount needs root")
    target.mkdir()
    for cmd in (
        ["mount", "--bind", str(folder), str(target)],
        ["mount", "-o", "remount,bind,ro", str(target)],
    ):
        if subprocess.run(cmd, capture_output=True).returncode != 0:
            subprocess.run(["umount", str(target)], capture_output=True)
            pytest.skip("mount is not permitted here")
    try:
        yield target
    finally:
        subprocess.run(["umount", "-l", str(target)], capture_output=True)


def test_a_store_on_a_read_only_file_system_is_exported_and_not_called_foreign(tmp_path):
    (tmp_path / "data").mkdir()
    _filled(tmp_path / "data" / "r.db")
    with _read_only_copy(tmp_path / "data", tmp_path / "ro") as ro:
        assert export(ro / "r.db", "csv", tmp_path / "x.csv") == 3
        with pytest.raises(StoreError, match="read-only file system") as err:
            Store(ro / "r.db")
        assert "not a sweep results store" not in str(err.value)


def test_read_only_is_named_before_sqlite_tries(tmp_path, monkeypatch):
    """Where no mount is possible: the file system reported read-only by statvfs."""
    path = _filled(tmp_path / "r.db")
    monkeypatch.setattr(store_module, "_read_only_fs", lambda folder: True)
    with pytest.raises(StoreError, match="read-only file system"):
        Store(path)
    with Store(path, readonly=True) as store:  # opened immutable: no -wal/-shm to make
        assert len(store) == 3


@pytest.mark.parametrize("seed", [2**63, 2**64 + 1])
def test_seeds_beyond_64_bits_are_refused_up_front(tmp_path, seed):
    path = write_sweep(tmp_path, sweep=f'base = "base.toml"\nseeds = [0, {seed}]\n')
    with pytest.raises(InputError, match=r"exceeds 9223372036854775807 = 2\^63 - 1"):
        load_sweep(path)
    sweep = dataclasses.replace(load_sweep(write_sweep(tmp_path)), seeds=(0, seed))
    with pytest.raises(InputError, match="signed 64-bit"):
        run_sweep(sweep, tmp_path / "r.db")
    assert not (tmp_path / "r.db").exists()
    with Store(tmp_path / "s.db") as store, pytest.raises(StoreError, match="64 bits"):
        store.add(Row("k", seed, {}, {}, {}, 0.0))


def test_the_largest_seed_a_store_holds_runs(tmp_path):
    path = write_sweep(
        tmp_path, seeds=2, rounds=2, sweep=f'base = "base.toml"\nseeds = [{2**63 - 1}]\n'
    )
    assert run_sweep(load_sweep(path), tmp_path / "r.db").runs_done == 1
    with Store(tmp_path / "r.db") as store:
        assert [r.seed for r in store.rows()] == [2**63 - 1]


def test_cli_store_errors_are_one_line(tmp_path, capsys):
    sweep = write_sweep(tmp_path, seeds=1, rounds=2)
    (tmp_path / "file").write_text("not a folder")
    assert main(["sweep", str(sweep), "--store", str(tmp_path / "file" / "r.db")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "file is not a directory" in err, err
    # a missing parent folder is created (as for every --out), not refused
    assert main(["sweep", str(sweep), "--store", str(tmp_path / "no" / "r.db")]) == 0
    assert (tmp_path / "no" / "r.db").is_file()


# --- workers die with the sweep --------------------------------------------------------------
def _procs() -> dict[int, tuple[int, str]]:
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                fields = stat[stat.rindex(")") + 2 :].split()
                table[int(entry.name)] = (int(fields[1]), fields[19])  # parent, start time
    return table


def _descendants(root: int) -> dict[int, str]:
    table, found, grown = _procs(), {root}, True
    while grown:
        grown = False
        for pid, (parent, _) in table.items():
            if parent in found and pid not in found:
                found.add(pid)
                grown = True
    found.discard(root)
    return {pid: table[pid][1] for pid in found}


def _alive(kids: dict[int, str]) -> list[int]:
    table = _procs()
    return [pid for pid, start in kids.items() if table.get(pid, (0, ""))[1] == start]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_sigkill_of_the_sweep_leaves_no_process_behind(tmp_path):
    """Forkserver, resource tracker and both workers: gone within 60 s of the parent's
    SIGKILL (the workers watch the sweep's process; the others see their pipes close)."""
    sweep = write_sweep(tmp_path, seeds=20, rounds=2000)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "fltheory",
            "sweep",
            str(sweep),
            "--store",
            "r.db",
            "--workers",
            "2",
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    kids: dict[int, str] = {}
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and len(kids) < 4:  # tracker, forkserver, 2 workers
        time.sleep(0.2)
        kids = _descendants(proc.pid)
    kids = _descendants(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and _alive(kids):
        time.sleep(0.2)
    alive = _alive(kids)
    for pid in alive:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert len(kids) >= 4 and not alive
