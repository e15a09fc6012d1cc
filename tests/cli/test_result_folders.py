"""Result folders on the command line (issue 24, classes 1-3 and 8): a second writer — a real
process — is refused naming the first; ``--resume`` keeps only a result it can vouch for;
``--overwrite`` keeps what fltheory did not write; ``report`` and ``sweep export`` refuse
what ``simulate`` refuses; the README's ``--out results/...`` forms work on a fresh clone."""

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from fltheory.atomic import is_complete, read_manifest, sha256_of
from fltheory.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
TINY = """
name = "tiny"
seed = 3
seeds = 2
device = "cpu"
dtype = "float64"
[run]
rounds = 4
local_steps = 1
lr = 0.1
[problem]
kind = "quadratic"
u = [[0.0], [1.0], [2.0]]
[availability]
kind = "bernoulli"
p = [0.5, 0.5, 0.9]
[[algorithms]]
name = "fedavg"
"""
OTHER = TINY.replace("lr = 0.1", "lr = 0.2")
FOLDER_LOCK = ".fltheory.lock"  # fltheory.lock.FOLDER_LOCK (spelled out: these tests also run
# against the code before issue 24, which had no lock, to show they fail there)


def _folder(*args, **kwargs):
    from fltheory.resultdir import ResultFolder

    return ResultFolder(*args, **kwargs)


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}


def _refusal(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("fltheory: error: "), err
    return err


@pytest.fixture
def tiny(tmp_path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    return path


@pytest.fixture
def result(tmp_path, tiny, capsys) -> Path:
    """A complete simulate result of ``tiny``."""
    out = tmp_path / "out"
    assert main(["simulate", "--config", str(tiny), "--out", str(out), "--json"]) == 0
    capsys.readouterr()
    return out


def _simulate(config: Path, out: Path, *flags: str) -> int:
    return main(["simulate", "--config", str(config), "--out", str(out), "--json", *flags])


# --- class 1: one writer ------------------------------------------------------------------------


def test_a_second_simulate_process_is_refused_naming_the_holder(tmp_path, tiny):
    """The test holds the folder's lock (as a running simulate does); a real ``python -m
    fltheory simulate`` into it — with or without --overwrite/--resume — is refused in one line
    naming this process, and the folder is left alone."""
    out = tmp_path / "out"
    with _folder(out, owned=("summary.json",)):
        for flags in ([], ["--overwrite"], ["--resume"]):
            done = subprocess.run(
                [sys.executable, "-m", "fltheory", "simulate", "--config", str(tiny),
                 "--out", str(out), *flags],
                capture_output=True, text=True, env=_env(), timeout=300,
            )  # fmt: skip
            assert done.returncode == 2 and done.stdout == "", done.stderr
            line = done.stderr.strip()
            assert line.count("\n") == 0 and "another fltheory command is writing it" in line
            assert f"pid {os.getpid()} on {socket.gethostname()}, since " in line
        assert sorted(p.name for p in out.iterdir()) == [FOLDER_LOCK]
    assert not out.exists()


def test_a_killed_writer_does_not_block_the_next(tmp_path, tiny, capsys):
    """A real process holding the lock is refused to others while alive; killed with SIGKILL,
    its lock is taken over by the next simulate (no stale-lock cleanup needed)."""
    out = tmp_path / "out"
    code = (
        "import time; from fltheory.resultdir import ResultFolder\n"
        f"f = ResultFolder({str(out)!r}, owned=('summary.json',)).__enter__()\n"
        "print('locked', flush=True); time.sleep(600)"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                             env=_env())  # fmt: skip
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "locked"
        assert _simulate(tiny, out) == 2
        assert f"pid {child.pid} on " in _refusal(capsys)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert _simulate(tiny, out) == 0 and is_complete(out)
    assert not (out / FOLDER_LOCK).exists()


def test_check_writes_its_folder_as_one_transaction(tmp_path, capsys, monkeypatch):
    """A ``check --overwrite`` whose write hits a full disk leaves the old result whole."""
    out = tmp_path / "chk"
    argv = ["check", "fedpbc:prop1-printed", "--budget", "20", "--out", str(out), "--json"]
    assert main(argv) == 0 and is_complete(out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real, calls = os.fsync, []

    def fsync(fd):
        calls.append(fd)
        if len(calls) >= 2:
            raise OSError(28, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    assert main([*argv, "--seed", "1", "--overwrite"]) == 2
    monkeypatch.undo()
    assert "No space left on device" in _refusal(capsys)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before and is_complete(out)


# --- class 2: --resume verifies -----------------------------------------------------------------


def test_resume_refuses_a_result_of_another_config(tmp_path, result, capsys):
    other = tmp_path / "other.toml"
    other.write_text(OTHER)
    assert _simulate(other, result, "--resume") == 2
    assert "belongs to another run (its config_hash differs" in _refusal(capsys)
    for seeds in ("3",):  # an override is part of the config too
        assert _simulate(tmp_path / "tiny.toml", result, "--resume", "--seeds", seeds) == 2
        assert "config_hash" in _refusal(capsys)
    assert _simulate(other, result, "--resume", "--overwrite") == 0  # recomputed
    assert json.loads(capsys.readouterr().out)["algorithms"]["fedavg"]["lr"] == 0.2
    assert is_complete(result)
    assert read_manifest(result)["provenance"]["config"]["run"]["lr"] == 0.2


def test_resume_keeps_a_result_it_can_vouch_for(result, tiny, capsys):
    before = {p.name: p.read_bytes() for p in result.iterdir()}
    assert _simulate(tiny, result, "--resume") == 0
    assert "fedavg" in json.loads(capsys.readouterr().out)["algorithms"]
    assert {p.name: p.read_bytes() for p in result.iterdir()} == before


def test_resume_refuses_edited_numbers_and_another_version(result, tiny, capsys):
    summary = json.loads((result / "summary.json").read_text())
    summary["summary"]["algorithms"]["fedavg"]["objective"]["final"] = 123.0
    (result / "summary.json").write_text(json.dumps(summary))
    assert _simulate(tiny, result, "--resume") == 2
    err = _refusal(capsys)
    assert "changed after it was written" in err and "summary.json" in err
    assert "123" not in capsys.readouterr().out
    (result / "summary.json").unlink()
    assert _simulate(tiny, result, "--resume") == 2
    assert "summary.json (missing)" in _refusal(capsys)
    assert _simulate(tiny, result, "--resume", "--overwrite") == 0 and is_complete(result)
    manifest = read_manifest(result)
    manifest["provenance"]["fltheory_version"] = "0.0.1"
    (result / "manifest.json").write_text(json.dumps(manifest))
    capsys.readouterr()
    assert _simulate(tiny, result, "--resume") == 2
    assert "fltheory_version differs: 0.0.1 in the folder" in _refusal(capsys)


def _forge(folder: Path, name: str, text: str) -> None:
    """Replace ``name`` and make the manifest agree (a consistent forgery)."""
    (folder / name).write_text(text)
    manifest = read_manifest(folder)
    for entry in manifest["files"]:
        if entry["name"] == name:
            entry.update(size=(folder / name).stat().st_size, sha256=sha256_of(folder / name))
    (folder / "manifest.json").write_text(json.dumps(manifest))


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("summary.json", "not JSON {"),
        ("summary.json", '{"summary": [1, 2]}'),
        ("summary.json", '{"summary": {"algorithms": {"fedavg": 3}}}'),
        ("timing.json", "[]"),
        ("timing.json", '{"seconds": {"fedavg": "soon"}}'),
    ],
)
def test_garbage_with_a_right_checksum_is_a_one_line_refusal(result, tiny, capsys, name, text):
    _forge(result, name, text)
    assert _simulate(tiny, result, "--resume") == 2
    err = _refusal(capsys)
    assert f"{name} is not what fltheory writes there" in err


def test_a_manifest_of_the_wrong_shape_is_a_one_line_refusal(result, tiny, capsys):
    manifest = read_manifest(result)
    manifest["files"] = "summary.json"
    (result / "manifest.json").write_text(json.dumps(manifest))
    for flags in (["--resume"], ["--overwrite"], []):
        assert _simulate(tiny, result, *flags) == 2
        assert "manifest.json is damaged (files is not a list)" in _refusal(capsys)


def test_reproduce_resume_keeps_checks_or_refuses(tmp_path, capsys):
    out = tmp_path / "fig4a"
    argv = ["reproduce", "cafed:fig4a", "--seeds", "3", "--out", str(out), "--json"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert main([*argv, "--resume"]) == 0  # kept: its verdict, nothing run
    kept = json.loads(capsys.readouterr().out)
    assert kept["checks"] == first["checks"] and kept["files"]
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert main([*argv[:-1], "--seeds", "4", "--resume"]) == 2
    assert "its seeds differs: 3 in the folder, 4 now" in _refusal(capsys)
    _forge(out, "verdict.json", "[]")
    assert main([*argv, "--resume"]) == 2
    assert "verdict.json is not what fltheory writes there" in _refusal(capsys)


def test_an_interrupted_reproduce_is_continued_with_resume(tmp_path, capsys):
    """The refusal after an interrupted ``reproduce`` offers --resume, which reproduce takes."""
    out = tmp_path / "fig4a"
    argv = ["reproduce", "cafed:fig4a", "--seeds", "3", "--out", str(out), "--json"]
    from fltheory.experiments.runner import reproduction_identity
    from fltheory.provenance import provenance

    identity = reproduction_identity("cafed:fig4a", setup="paper", mode="quick", seeds=3)
    with _folder(out, owned=("verdict.json",)) as folder:  # what a killed run leaves
        folder.begin(provenance(**identity))
    assert main(argv) == 2
    assert "give --resume to continue it or --overwrite" in _refusal(capsys)
    assert main([*argv, "--resume"]) == 0 and is_complete(out)


# --- class 3: only what fltheory wrote ----------------------------------------------------------


def _hidden(folder: Path) -> None:
    (folder / ".git").mkdir()
    (folder / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (folder / ".notes").write_text("mine\n")


def _hidden_kept(folder: Path) -> bool:
    return (folder / ".git" / "HEAD").is_file() and (folder / ".notes").is_file()


def test_overwrite_keeps_hidden_entries(result, tiny, tmp_path, capsys):
    _hidden(result)
    assert _simulate(tiny, result, "--overwrite") == 0
    assert _hidden_kept(result) and is_complete(result)
    out = tmp_path / "chk"
    argv = ["check", "fedpbc:prop1-printed", "--budget", "5", "--out", str(out), "--json"]
    assert main(argv) == 0
    _hidden(out)
    assert main([*argv, "--overwrite"]) == 0
    assert _hidden_kept(out) and is_complete(out)


def test_check_refusals_offer_only_flags_it_takes(tmp_path, capsys):
    out = tmp_path / "chk"
    with _folder(out, owned=("check.json", "check.csv")) as folder:  # a killed check
        folder.begin({})
    argv = ["check", "fedpbc:prop1-printed", "--budget", "5", "--out", str(out)]
    assert main(argv) == 2
    err = _refusal(capsys)
    assert "give --overwrite to start again" in err and "--resume" not in err
    assert main([*argv, "--overwrite"]) == 0 and is_complete(out)


def test_simulate_refuses_its_config_as_or_in_out(tmp_path, tiny, result, capsys):
    assert _simulate(tiny, tiny) == 2
    assert "is an input of this command" in _refusal(capsys)
    inside = result / "tiny.toml"
    inside.write_text(TINY)
    assert _simulate(inside, result, "--overwrite") == 2
    assert "holds an input of this command" in _refusal(capsys)
    assert inside.read_text() == TINY


def test_report_refuses_foreign_files_and_an_existing_report(tmp_path, capsys):
    """Refused before any work: a folder of foreign files, an existing report without
    --overwrite, the report file itself as --out."""
    from fltheory.report.render import OWNED

    report = tmp_path / "rep"
    with _folder(report, owned=OWNED) as folder:  # a report (its files' content aside)
        for name in ("report.html", "report.md", "report.json", "figures/a.png"):
            folder.write(name, "x")
        folder.commit(["report.html", "report.md", "report.json", "figures/a.png"], {})
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "thesis.tex").write_text("x")
    config = tmp_path / "r.toml"
    config.write_text("[population]\nn = 8\n")
    for out, fragment in (
        (foreign, "not an fltheory result (thesis.tex)"),
        (report, "already holds a complete result; give --overwrite to replace it"),
        (config, "is an input of this command"),
    ):
        assert main(["report", "--config", str(config), "--out", str(out), "--quick"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and fragment in err[0], err
    assert sorted(p.name for p in foreign.iterdir()) == ["thesis.tex"]
    assert is_complete(report)


def _store(tmp_path: Path, capsys) -> Path:
    (tmp_path / "base.toml").write_text(TINY)
    sweep = tmp_path / "s.toml"
    sweep.write_text('base = "base.toml"\nseeds = 2\n[axes]\n"run.lr" = [0.1, 0.2]\n')
    store = tmp_path / "results" / "runs.db"  # a missing parent: created
    assert main(["sweep", str(sweep), "--store", str(store)]) == 0
    capsys.readouterr()
    return store


def test_export_never_replaces_the_store_a_folder_or_a_fifo(tmp_path, capsys):
    store = _store(tmp_path, capsys)
    before = store.read_bytes()
    (tmp_path / "link.csv").symlink_to(store)
    other = tmp_path / "other.db"
    other.write_bytes(before)
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "dir").mkdir()
    for out, fragment in (
        (store, "is the results store being exported"),
        (tmp_path / "link.csv", "is the results store being exported"),
        (other, "is a SQLite database"),
        (tmp_path / "pipe", "not a regular file"),
        (tmp_path / "dir", "is a directory"),
    ):
        assert main(["sweep", "export", str(store), "--format", "csv", "--out", str(out)]) == 2
        assert fragment in _refusal(capsys)
    assert store.read_bytes() == before and other.read_bytes() == before
    assert (tmp_path / "pipe").is_fifo() and (tmp_path / "link.csv").is_symlink()
    csv_out = tmp_path / "exports" / "runs.csv"  # a missing parent: created
    for _ in range(2):  # a regular file it wrote is replaced
        assert main(["sweep", "export", str(store), "--format", "csv", "--out", str(csv_out)]) == 0
    assert csv_out.read_text().count("\n") == 5
    assert sorted(p.name for p in csv_out.parent.iterdir()) == ["runs.csv"]


# --- class 8: the README's forms on a fresh clone -----------------------------------------------


def test_out_under_a_missing_results_folder(tmp_path, tiny, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert _simulate(tiny, Path("results/fedpbc")) == 0
    assert is_complete(tmp_path / "results" / "fedpbc")
    assert main(["check", "fedpbc:prop1-printed", "--budget", "5", "--out", "results2/c"]) == 0
    assert is_complete(tmp_path / "results2" / "c")
    capsys.readouterr()
    (tmp_path / "blocker").write_text("x")
    assert _simulate(tiny, Path("blocker/fedpbc")) == 2
    assert "blocker is not a directory" in _refusal(capsys)
