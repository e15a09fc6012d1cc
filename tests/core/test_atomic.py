"""Crash-safe result directories: refusals before work, manifests, checksums."""

import json
import os

import pytest

from fltheory.atomic import (
    MANIFEST,
    is_complete,
    prepare_result_dir,
    read_manifest,
    write_atomic,
    write_manifest,
)
from fltheory.errors import InputError


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
        (lambda d: d / "missing" / "out", "does not exist"),
        (lambda d: (d / "x").mkdir() or ((d / "x" / "notes.txt").write_text("mine") and d / "x"),
         "not an fltheory result"),
        (lambda d: __import__("pathlib").Path("/proc/fltheory-out"), "cannot create"),
    ],
)  # fmt: skip
def test_bad_out_directories_are_refused_up_front(tmp_path, make, fragment):
    with pytest.raises(InputError, match=fragment):
        prepare_result_dir(make(tmp_path))


def _complete_result(directory):
    prepare_result_dir(directory)
    write_atomic(directory / "summary.json", "{}")
    write_manifest(directory, ["summary.json"], status="complete", provenance={"seed": 1})


def test_complete_results_need_overwrite_or_resume(tmp_path):
    out = tmp_path / "run"
    _complete_result(out)
    assert is_complete(out)
    with pytest.raises(InputError, match="already holds a complete result"):
        prepare_result_dir(out, owned=("summary.json",))
    prepare_result_dir(out, resume=True, owned=("summary.json",))
    assert is_complete(out)
    prepare_result_dir(out, overwrite=True, owned=("summary.json",))
    assert sorted(os.listdir(out)) == []


def test_overwrite_keeps_the_named_caches(tmp_path):
    out = tmp_path / "run"
    _complete_result(out)
    (out / "grid").mkdir()
    (out / "grid" / "abc.json").write_text("{}")
    prepare_result_dir(out, overwrite=True, owned=("summary.json", "grid"), keep=("grid",))
    assert sorted(os.listdir(out)) == ["grid"] and (out / "grid" / "abc.json").is_file()


def test_unfinished_runs_need_resume_or_overwrite(tmp_path):
    out = tmp_path / "run"
    prepare_result_dir(out)
    write_manifest(out, [], status="in_progress")
    with pytest.raises(InputError, match="unfinished run"):
        prepare_result_dir(out)
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
