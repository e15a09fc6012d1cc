"""Crash-safe result directories: refusals before work, manifests, checksums."""

import json
import os

import pytest

from fltheory.atomic import (
    MANIFEST,
    check_result_dir,
    is_complete,
    read_manifest,
    write_atomic,
    write_manifest,
)
from fltheory.errors import InputError
from fltheory.resultdir import ResultFolder


def prepare_result_dir(directory, *, overwrite=False, resume=False, owned=(), keep=()):
    """Open ``directory`` as a result folder and leave it as ``--overwrite`` leaves it for a
    new run (what the commands do before their work)."""
    with ResultFolder(directory, overwrite=overwrite, resume=resume, owned=owned, keep=keep) as f:
        if overwrite and not resume:
            f.clear()
        f.committed = True  # keep the folder, even when empty
    return directory


def test_write_atomic_leaves_no_temporary_files(tmp_path):
    write_atomic(tmp_path / "a.json", "{}")
    write_atomic(tmp_path / "a.json", b"[1]")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]
    assert (tmp_path / "a.json").read_bytes() == b"[1]"


def test_a_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "a.txt"
    write_atomic(target, "old")

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        write_atomic(target, "new")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda d: (d / "file").write_text("x") and d / "file", "not a directory"),
        (lambda d: (d / "file").write_text("x") and d / "file" / "out", "file is not a directory"),
        (lambda d: (d / "x").mkdir() or ((d / "x" / "notes.txt").write_text("mine") and d / "x"),
         "not an fltheory result"),
        (lambda d: __import__("pathlib").Path("/proc/fltheory-out"), "/proc/fltheory-out"),
    ],
)  # fmt: skip
def test_bad_out_directories_are_refused_up_front(tmp_path, make, fragment):
    with pytest.raises(InputError, match=fragment):
        prepare_result_dir(make(tmp_path))


def _complete_result(directory):
    with ResultFolder(directory, owned=("summary.json",)) as folder:
        folder.write("summary.json", "{}")
        folder.commit(["summary.json"], {"seed": 1})


def test_complete_results_need_overwrite_or_resume(tmp_path):
    out = tmp_path / "run"
    _complete_result(out)
    assert is_complete(out)
    with pytest.raises(InputError, match="already holds a complete result"):
        prepare_result_dir(out, owned=("summary.json",))
    prepare_result_dir(out, resume=True, owned=("summary.json",))
    assert is_complete(out)
    prepare_result_dir(out, overwrite=True, owned=("summary.json",))
    assert sorted(os.listdir(out)) == [MANIFEST] and read_manifest(out)["files"] == []
    assert read_manifest(out)["status"] == "in_progress"


def test_overwrite_keeps_the_named_caches(tmp_path):
    out = tmp_path / "run"
    _complete_result(out)
    (out / "grid").mkdir()
    (out / "grid" / "abc.json").write_text("{}")
    prepare_result_dir(out, overwrite=True, owned=("summary.json", "grid"), keep=("grid",))
    assert sorted(os.listdir(out)) == ["grid", MANIFEST] and (out / "grid" / "abc.json").is_file()


def test_unfinished_runs_need_resume_or_overwrite(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    write_manifest(out, [], status="in_progress")
    with pytest.raises(InputError, match="unfinished run; give --resume to continue it or"):
        prepare_result_dir(out)
    with pytest.raises(InputError, match="unfinished run; give --overwrite to start again"):
        check_result_dir(out, resumable=False)  # a command without --resume never offers it
    assert prepare_result_dir(out, resume=True) == out


def test_foreign_files_are_never_mixed_in(tmp_path):
    out = tmp_path / "run"
    _complete_result(out)
    (out / "stranger.csv").write_text("1")
    with pytest.raises(InputError, match="foreign files"):
        prepare_result_dir(out, overwrite=True, owned=("summary.json",))


def test_tampered_or_truncated_files_make_a_result_incomplete(tmp_path):
    out = tmp_path / "run"
    _complete_result(out)
    (out / "summary.json").write_text("{ }")  # same size would still differ by checksum
    assert not is_complete(out)
    manifest = read_manifest(out)
    assert manifest["files"][0]["name"] == "summary.json"
    (out / MANIFEST).write_text(json.dumps({**manifest, "status": "in_progress"}))
    assert not is_complete(out)
