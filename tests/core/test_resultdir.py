"""Result folders as transactions (issue 24, classes 1-3): one writer (a lock naming its holder,
taken over from a dead one), files staged and committed at once (a full disk or ``kill -9``
never leaves a "complete" manifest over a mix), resumes that verify, overwrites that remove
only what fltheory wrote, output files that are never a store, a device or a FIFO."""

import errno
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from fltheory.atomic import MANIFEST, check_result_dir, is_complete, read_manifest, sha256_of
from fltheory.errors import InputError
from fltheory.lock import FOLDER_LOCK, OutputLock, held_by
from fltheory.resultdir import STAGING, ResultFolder, check_output_file, output_file

ROOT = Path(__file__).resolve().parents[2]
OWNED = ("a.txt", "b.txt", "c.txt", "figures", "checkpoint")


def _result(out: Path, files: dict[str, str], provenance: dict | None = None, **kw) -> None:
    with ResultFolder(out, owned=OWNED, scratch=("checkpoint",), **kw) as folder:
        if kw.get("overwrite"):
            folder.clear()
        for name, text in files.items():
            folder.write(name, text)
        folder.commit(list(files), provenance or {"config_hash": "h1"})


def _lies(out: Path) -> bool:
    """A manifest that says complete over files that do not match it."""
    manifest = read_manifest(out)
    return manifest is not None and manifest["status"] == "complete" and not is_complete(out)


# --- one writer ---------------------------------------------------------------------------------


def test_a_second_writer_is_refused_naming_the_first(tmp_path):
    out = tmp_path / "out"
    with ResultFolder(out, owned=OWNED):
        with pytest.raises(InputError) as err:
            ResultFolder(out, owned=OWNED, overwrite=True).__enter__()
        holder = held_by(out / FOLDER_LOCK)
    message = str(err.value)
    assert "another fltheory command is writing it" in message
    assert f"pid {os.getpid()} on {socket.gethostname()}, since " in message
    assert holder is not None and holder["pid"] == os.getpid()
    assert not (out / FOLDER_LOCK).exists()  # released and removed
    assert not out.exists()  # created for nothing: removed


def _lock_holder(path: Path) -> subprocess.Popen:
    """A real process that holds the lock file ``path`` until killed (ready once it printed)."""
    code = (
        "import sys, time; from pathlib import Path; from fltheory.lock import OutputLock\n"
        f"lock = OutputLock(Path({str(path)!r}), 'x').acquire(); print('locked', flush=True)\n"
        "time.sleep(600)"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "locked"
    return child


def test_a_lock_of_a_killed_process_is_taken_over(tmp_path):
    """kill -9 leaves the lock file behind; the kernel dropped the lock, so it is taken over."""
    out = tmp_path / "out"
    out.mkdir()
    child = _lock_holder(out / FOLDER_LOCK)
    try:
        with pytest.raises(InputError, match=f"pid {child.pid} on "):
            ResultFolder(out, owned=OWNED).__enter__()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert (out / FOLDER_LOCK).exists() and held_by(out / FOLDER_LOCK) is None
    _result(out, {"a.txt": "1"})
    assert is_complete(out) and not (out / FOLDER_LOCK).exists()


def test_a_lock_file_naming_a_dead_pid_does_not_block(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    record = {"pid": dead.pid, "host": socket.gethostname(), "command": "x", "since": "then"}
    (out / FOLDER_LOCK).write_text(json.dumps(record))
    _result(out, {"a.txt": "1"})
    assert is_complete(out)


def test_lock_of_an_output_file_beside_it(tmp_path):
    out = tmp_path / "runs.csv"
    with output_file(out) as target:
        with pytest.raises(InputError, match="another fltheory command is writing it"):
            with output_file(out):
                pass
        target.write_text("x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runs.csv"]


def test_a_lock_on_an_unlinked_file_is_retried(tmp_path, monkeypatch):
    """A process that opened the lock file just before its holder removed it has locked a file
    no longer there: it must lock the new one (else two writers would both hold "the" lock)."""
    path = tmp_path / ".lock"
    path.write_text("")
    stale = os.open(path, os.O_RDWR)
    path.unlink()  # what a releasing holder does
    real_open, calls = os.open, []

    def opened(name, flags, mode=0o777):
        calls.append(name)
        return stale if len(calls) == 1 else real_open(name, flags, mode)

    monkeypatch.setattr(os, "open", opened)
    lock = OutputLock(path, "x").acquire()
    monkeypatch.undo()
    assert len(calls) == 2 and held_by(path)["pid"] == os.getpid()
    lock.release()  # (the stale descriptor was closed by acquire)


# --- all or nothing -----------------------------------------------------------------------------


def test_a_commit_replaces_a_result_whole(tmp_path):
    out = tmp_path / "out"
    _result(out, {"a.txt": "old a", "b.txt": "old b", "figures/f1.png": "old f1"})
    _result(out, {"a.txt": "new a", "c.txt": "new c"}, {"config_hash": "h2"}, overwrite=True)
    assert is_complete(out)
    assert sorted(p.name for p in out.iterdir()) == ["a.txt", "c.txt", MANIFEST]
    assert read_manifest(out)["provenance"] == {"config_hash": "h2"}


def test_stale_files_of_the_previous_result_are_removed_at_commit(tmp_path):
    """Without a clear (check, report): the files the old manifest listed and the new one does
    not are removed by the commit, a user's file in a sub-folder stays."""
    out = tmp_path / "out"
    _result(out, {"a.txt": "1", "figures/old.png": "o"})
    (out / "figures" / "mine.svg").write_text("<svg/>")
    with ResultFolder(out, owned=OWNED, overwrite=True) as folder:
        folder.write("figures/new.png", "n")
        folder.commit(["figures/new.png"], {})
    assert sorted(p.name for p in (out / "figures").iterdir()) == ["mine.svg", "new.png"]
    assert not (out / "a.txt").exists() and is_complete(out)


def _fail_fsync_after(monkeypatch, calls: int) -> None:
    real, count = os.fsync, [0]

    def fsync(fd):
        count[0] += 1
        if count[0] >= calls:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)


@pytest.mark.parametrize("calls", [1, 2, 3])
def test_a_full_disk_while_staging_leaves_the_old_result_whole(tmp_path, monkeypatch, calls):
    out = tmp_path / "out"
    _result(out, {"a.txt": "old a", "b.txt": "old b"})
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    _fail_fsync_after(monkeypatch, calls)
    with pytest.raises(OSError, match="No space"):
        _result(out, {"a.txt": "new a", "b.txt": "new b", "c.txt": "new c"}, overwrite=False,
                resume=True)  # fmt: skip
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before and is_complete(out)


def test_a_failure_in_the_middle_of_a_commit_never_looks_complete(tmp_path, monkeypatch):
    out = tmp_path / "out"
    _result(out, {"a.txt": "old a", "b.txt": "old b"})
    real, count = os.replace, [0]

    def replace(src, dst):
        count[0] += 1
        if count[0] == 3:  # the manifest's demotion, then a.txt; b.txt fails
            raise OSError(errno.ENOSPC, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OSError):
        with ResultFolder(out, owned=OWNED, resume=True) as folder:
            folder.write("a.txt", "new a")
            folder.write("b.txt", "new b")
            count[0] = 0
            folder.commit(["a.txt", "b.txt"], {})
    monkeypatch.undo()
    assert (out / "a.txt").read_text() == "new a" and (out / "b.txt").read_text() == "old b"
    assert read_manifest(out)["status"] == "in_progress" and not _lies(out)
    assert not (out / STAGING).exists()


def test_kill_9_in_the_middle_of_a_commit_never_looks_complete(tmp_path):
    """A real SIGKILL between two renames of a commit (a forked child kills itself there)."""
    out = tmp_path / "out"
    _result(out, {"a.txt": "old a", "b.txt": "old b"})
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        real = os.replace

        def replace(src, dst):
            real(src, dst)
            if Path(dst) == out / "a.txt":  # committed, b.txt not yet
                os.kill(os.getpid(), signal.SIGKILL)

        os.replace = replace
        try:
            _result(out, {"a.txt": "new a", "b.txt": "new b"}, resume=True)
        finally:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    assert (out / "a.txt").read_text() == "new a" and (out / "b.txt").read_text() == "old b"
    assert read_manifest(out)["status"] == "in_progress" and not _lies(out)
    assert (out / STAGING).is_dir() and (out / FOLDER_LOCK).exists()  # what the kill left
    with pytest.raises(InputError, match="unfinished run"):
        _result(out, {"a.txt": "x"})
    _result(out, {"a.txt": "again"}, overwrite=True)
    assert is_complete(out) and not (out / STAGING).exists()
    assert sorted(p.name for p in out.iterdir()) == ["a.txt", MANIFEST]


def test_a_folder_created_for_a_run_that_failed_is_removed(tmp_path):
    out = tmp_path / "new" / "deeper" / "out"
    with pytest.raises(RuntimeError):
        with ResultFolder(out, owned=OWNED) as folder:
            folder.write("a.txt", "x")
            raise RuntimeError("the run failed")
    assert not (tmp_path / "new").exists()


# --- refusals and trust -------------------------------------------------------------------------


def test_missing_parents_are_created_a_file_in_the_way_is_refused(tmp_path):
    _result(tmp_path / "results" / "a" / "out", {"a.txt": "1"})
    assert is_complete(tmp_path / "results" / "a" / "out")
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="file is not a directory"):
        ResultFolder(tmp_path / "file" / "b" / "out").__enter__()
    assert (tmp_path / "file").read_text() == "x"


@pytest.mark.parametrize(
    ("manifest", "fragment"),
    [
        ("{not json", "is not JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"status": "done", "files": [], "provenance": {}}', "status 'done'"),
        ('{"status": "complete", "files": "a.txt", "provenance": {}}', "files is not a list"),
        ('{"status": "complete", "files": [{"name": "a.txt"}], "provenance": {}}', "files[0]"),
        ('{"status": "complete", "files": [{"name": "../x", "size": 1, "sha256": "0"}]}',
         "files[0]"),
        ('{"status": "complete", "files": [{"name": ".git", "size": 1, "sha256": "0"}]}',
         "files[0]"),
        ('{"status": "complete", "files": [], "provenance": [1]}', "provenance is not a table"),
    ],
)  # fmt: skip
def test_a_damaged_manifest_is_refused_in_one_line(tmp_path, manifest, fragment):
    out = tmp_path / "out"
    out.mkdir()
    (out / MANIFEST).write_text(manifest)
    for overwrite in (False, True):
        with pytest.raises(InputError, match="is damaged") as err:
            check_result_dir(out, overwrite=overwrite, resume=True, owned=OWNED)
        assert fragment in str(err.value) and "\n" not in str(err.value)


def test_differences_name_what_differs(tmp_path):
    out = tmp_path / "out"
    _result(out, {"a.txt": "1", "b.txt": "2"}, {"config_hash": "h1", "fltheory_version": "1.0"})
    expected = {"config_hash": "h1", "fltheory_version": "1.0"}
    with ResultFolder(out, owned=OWNED, resume=True) as folder:
        assert folder.found == "complete" and folder.differences(expected) == []
        found = folder.differences({"config_hash": "h2", "fltheory_version": "2.0"})
        assert found == [
            "its config_hash differs: h1 in the folder, h2 now",
            "its fltheory_version differs: 1.0 in the folder, 2.0 now",
        ]
        assert "belongs to another run (its config_hash" in str(folder.mismatch(found))
        (out / "a.txt").write_text("9")  # same size, other bytes
        (out / "b.txt").unlink()
        found = folder.differences(expected)
        assert found == ["file a.txt (its SHA-256 differs)", "file b.txt (missing)"]
        assert "changed after it was written" in str(folder.mismatch(found))


@pytest.mark.parametrize(
    ("resume", "overwrite", "same", "kept", "files_left"),
    [
        (True, False, True, True, True),  # --resume, the same run: kept
        (True, True, True, True, True),
        (True, True, False, False, False),  # --resume --overwrite, another run: cleared
        (False, True, True, False, False),  # --overwrite alone: always cleared
    ],
)
def test_keep_or_clear_settles_a_complete_result(
    tmp_path, resume, overwrite, same, kept, files_left
):
    out = tmp_path / "out"
    _result(out, {"a.txt": "1", "b.txt": "2"}, {"config_hash": "h1"})
    mine = {"config_hash": "h1" if same else "h2"}
    with ResultFolder(out, owned=OWNED, resume=resume, overwrite=overwrite) as folder:
        assert folder.keep_or_clear(mine) is kept
    assert (out / "a.txt").exists() is files_left


def test_keep_or_clear_refuses_another_run_under_resume_alone(tmp_path):
    out = tmp_path / "out"
    _result(out, {"a.txt": "1"}, {"config_hash": "h1"})
    with ResultFolder(out, owned=OWNED, resume=True) as folder:
        with pytest.raises(InputError, match="belongs to another run"):
            folder.keep_or_clear({"config_hash": "h2"})
    assert (out / "a.txt").read_text() == "1"


def test_keep_or_clear_continues_an_unfinished_run_of_the_same_run(tmp_path):
    """An unfinished run of the same run is continued (its caches stay), of another cleared."""
    out = tmp_path / "out"
    with ResultFolder(out, owned=OWNED) as folder:
        folder.begin({"config_hash": "h1"})
        (out / "a.txt").write_text("partial")
    for expected, left in (({"config_hash": "h1"}, True), ({"config_hash": "h2"}, False)):
        with ResultFolder(out, owned=OWNED, resume=True, overwrite=True) as folder:
            assert folder.found == "unfinished"
            assert folder.keep_or_clear(expected) is False
        assert (out / "a.txt").exists() is left


def test_overwrite_removes_only_what_fltheory_wrote(tmp_path):
    out = tmp_path / "out"
    _result(out, {"a.txt": "1", "figures/f.png": "f"})
    (out / "checkpoint").mkdir()
    (out / "checkpoint" / "current.npz").write_text("c")
    (out / ".git").mkdir()
    (out / ".git" / "HEAD").write_text("ref")
    (out / ".notes").write_text("mine")
    (out / "figures" / "mine.svg").write_text("<svg/>")
    outside = tmp_path / "precious.txt"
    outside.write_text("keep")
    manifest = read_manifest(out)
    manifest["files"].append({"name": "precious.txt", "size": 4, "sha256": sha256_of(outside)})
    (out / MANIFEST).write_text(json.dumps(manifest))
    with ResultFolder(out, owned=OWNED, scratch=("checkpoint",), overwrite=True) as folder:
        folder.clear()
        folder.committed = True
    left = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
    assert left == [".git", ".git/HEAD", ".notes", "figures", "figures/mine.svg", MANIFEST]
    assert outside.read_text() == "keep"


def test_an_input_inside_the_folder_is_refused(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    config = out / "c.toml"
    config.write_text("x")
    with pytest.raises(InputError, match=r"holds an input of this command \(.*c.toml\)"):
        check_result_dir(out, inputs=(config,))
    with pytest.raises(InputError, match="is an input of this command"):
        check_result_dir(config, inputs=(config,))


# --- output files -------------------------------------------------------------------------------


def _store(path: Path) -> Path:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE runs (key TEXT)")
    return path


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda d: _store(d / "runs.db"), "is the store read"),
        (lambda d: (d / "l.csv").symlink_to(_store(d / "runs.db")) or d / "l.csv", "store read"),
        (lambda d: os.link(_store(d / "runs.db"), d / "h.csv") or d / "h.csv", "store read"),
        (lambda d: _store(d / "runs.db") and _store(d / "other.db"), "is a SQLite database"),
        (lambda d: os.mkfifo(d / "pipe") or d / "pipe", "not a regular file"),
        (lambda d: (d / "dir").mkdir() or d / "dir", "is a directory"),
        (lambda d: (d / "l.csv").symlink_to(d / "x.csv") or d / "l.csv", "symbolic link"),
        (lambda d: (d / "f").write_text("x") and d / "f" / "out.csv", "f is not a directory"),
    ],
)  # fmt: skip
def test_output_files_that_are_refused(tmp_path, make, fragment):
    out = make(tmp_path)
    store = tmp_path / "runs.db"
    with pytest.raises(InputError, match=fragment):
        check_output_file(out, inputs={store: "the store read"})


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_an_output_file_that_is_a_device_node_is_refused(tmp_path):
    node = tmp_path / "null"
    os.mknod(node, 0o666 | 0o020000, os.makedev(1, 3))
    with pytest.raises(InputError, match="not a regular file"):
        check_output_file(node)
    assert node.is_char_device()
