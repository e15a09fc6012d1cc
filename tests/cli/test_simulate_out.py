"""``fltheory simulate --out``: refused up front when unusable; killed with SIGKILL at random
rounds (several times) and resumed, the result is byte for byte an uninterrupted run's; Ctrl-C
exits 130 and leaves a resumable directory, never a complete one.

The runs to kill are forked from the test process (torch already loaded, so each start is
instant): the child runs the CLI's ``run(argv)`` exactly as ``python -m fltheory`` does, signal
handlers included. ``test_python_m_fltheory_killed_and_resumed`` does the same through real
``python -m fltheory`` processes (slow: each start imports torch).
"""

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fltheory.atomic import STATUS_COMPLETE, STATUS_RUNNING, is_complete, read_manifest
from fltheory.cli.app import main, run
from fltheory.sim.outfiles import CHECKPOINT_FOLDER, RESULT_FILES

ROOT = Path(__file__).resolve().parents[2]
# Long enough (some 0.1-1 s per algorithm) to be killed in the middle.
CONFIG = """
name = "crash"
seed = 7
seeds = 3
device = "cpu"
dtype = "float64"
[run]
rounds = 120
local_steps = 10
eval_every = 7
lr = 0.01
[problem]
kind = "fedpbc_quadratic"
n_clients = 40
dim = 30
[availability]
kind = "bernoulli"
p_groups = [0.2, 0.9]
[[algorithms]]
name = "fedpbc"
[[algorithms]]
name = "mifa"
[[algorithms]]
name = "f3ast"
k = 5
momentum = 0.3
"""
COMPARED = [name for name in RESULT_FILES if name != "timing.json"]
SMALL = CONFIG.replace("rounds = 120", "rounds = 5")


@pytest.fixture(scope="module")
def config(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("config") / "c.toml"
    path.write_text(CONFIG)
    return str(path)


@pytest.fixture(scope="module")
def reference(tmp_path_factory, config) -> Path:
    """An uninterrupted run without checkpoints."""
    out = tmp_path_factory.mktemp("reference") / "out"
    argv = ["simulate", "--config", config, "--out", str(out), "--checkpoint-every", "0"]
    assert run([*argv, "--json"]) == 0
    return out


@pytest.fixture
def small(tmp_path) -> str:
    path = tmp_path / "small.toml"
    path.write_text(SMALL)
    return str(path)


def _refused(argv: list[str], capsys) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("fltheory: error: ")
    return err


# --- refusals -----------------------------------------------------------------------------------


def test_refusals_before_any_work(tmp_path, small, capsys):
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    cases = {
        str(a_file): "exists and is not a directory",
        str(a_file / "out"): "a_file is not a directory",
        str(foreign): "not an fltheory result (notes.txt)",
    }
    for out, fragment in cases.items():
        assert fragment in _refused(["simulate", "--config", small, "--out", out], capsys)
    assert (foreign / "notes.txt").read_text() == "mine" and a_file.read_text() == "x"
    for flags in (["--resume"], ["--overwrite"], ["--checkpoint-every", "3"]):
        assert "need --out" in _refused(["simulate", "--config", small, *flags], capsys)
    out = str(tmp_path / "out")
    argv = ["simulate", "--config", small, "--out", out]
    assert ">= 0" in _refused([*argv, "--checkpoint-every", "-1"], capsys)
    assert not Path(out).exists()  # nothing created for a refused command


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_unwritable_out_is_refused(tmp_path, small, capsys):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    err = _refused(["simulate", "--config", small, "--out", str(locked / "out")], capsys)
    assert "not writable" in err


def test_a_complete_result_is_kept_replaced_or_refused(tmp_path, small, capsys):
    out = tmp_path / "out"
    argv = ["simulate", "--config", small, "--out", str(out), "--json"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert is_complete(out) and read_manifest(out)["status"] == STATUS_COMPLETE
    assert sorted(p.name for p in out.iterdir()) == sorted([*RESULT_FILES, "manifest.json"])
    assert "already holds a complete result" in _refused(argv, capsys)
    assert main([*argv, "--resume"]) == 0  # kept: the stored summary, nothing run
    kept = json.loads(capsys.readouterr().out)
    assert kept["algorithms"].keys() == first["algorithms"].keys()
    assert kept["algorithms"]["mifa"]["objective"] == first["algorithms"]["mifa"]["objective"]
    (out / "stray.txt").write_text("x")
    assert "foreign files (stray.txt)" in _refused([*argv, "--overwrite"], capsys)
    (out / "stray.txt").unlink()
    assert main([*argv, "--overwrite"]) == 0 and is_complete(out)


def test_a_bad_out_is_refused_before_torch_is_imported(tmp_path, small):
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    probe = (
        "import sys\nfrom fltheory.cli.app import main\n"
        f"status = main(['simulate', '--config', {small!r}, '--out', {str(a_file)!r}])\n"
        "print(status, 'torch' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.stdout.split() == ["2", "False"]


# --- kill -9 and Ctrl-C -------------------------------------------------------------------------


def _fork(argv: list[str], stderr: Path) -> int:
    """Run the CLI on ``argv`` in a forked child (stdout discarded, stderr to a file)."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        status = 99
        try:  # the real streams, not pytest's capture
            sys.stdout = open(os.devnull, "w")
            sys.stderr = open(stderr, "w")
            status = run(argv)
            sys.stderr.flush()
        finally:
            os._exit(status)
    return pid


def _checkpoint_id(out: Path) -> tuple[str, int] | None:
    """The latest checkpoint file and its inode (new at every atomic rename), or None."""
    folder = out / CHECKPOINT_FOLDER
    files = (
        sorted(folder.glob("*.npz"), key=lambda p: p.stat().st_mtime_ns) if folder.is_dir() else []
    )
    return (files[-1].name, files[-1].stat().st_ino) if files else None


def _wait_for_new_checkpoint(pid: int, out: Path, before, timeout: float = 60.0) -> bool:
    """Wait until the child saves a checkpoint newer than ``before``; False if it exited."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.waitpid(pid, os.WNOHANG)[0]:
            return False
        current = _checkpoint_id(out)
        if current is not None and current != before:
            return True
        time.sleep(0.002)
    raise AssertionError("no checkpoint appeared")


def _reference(tmp_path: Path, config: str) -> Path:
    out = tmp_path / "reference"
    assert (
        main(
            ["simulate", "--config", config, "--out", str(out), "--checkpoint-every", "0", "--json"]
        )
        == 0
    )
    return out


def test_killed_at_random_rounds_and_resumed_gives_the_same_bytes(tmp_path, config, reference):
    out = tmp_path / "out"
    argv = ["simulate", "--config", config, "--out", str(out), "--json", "--checkpoint-every", "4"]
    rng = random.Random(10)
    kills, before = 0, None
    for attempt in range(4):
        pid = _fork(argv if attempt == 0 else [*argv, "--resume"], tmp_path / "err.txt")
        if not _wait_for_new_checkpoint(pid, out, before):
            break  # finished before the kill (a slow machine): fewer kills
        time.sleep(rng.uniform(0.0, 0.05))  # a random round after that checkpoint
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        if not os.WIFSIGNALED(status):
            break
        kills += 1
        before = _checkpoint_id(out)
        manifest = read_manifest(out)
        assert manifest is not None and manifest["status"] == STATUS_RUNNING
        assert not is_complete(out)
    assert kills >= 2, kills
    assert main([*argv, "--resume"]) == 0
    assert is_complete(out) and not (out / CHECKPOINT_FOLDER).exists()
    for name in COMPARED:
        assert (out / name).read_bytes() == (reference / name).read_bytes(), name


def test_ctrl_c_exits_130_and_leaves_a_resumable_directory(tmp_path, config, reference, capsys):
    out = tmp_path / "out"
    argv = ["simulate", "--config", config, "--out", str(out), "--json", "--checkpoint-every", "4"]
    err = tmp_path / "err.txt"
    pid = _fork(argv, err)
    assert _wait_for_new_checkpoint(pid, out, None)
    os.kill(pid, signal.SIGINT)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 130
    lines = err.read_text().splitlines()
    assert lines == ["fltheory: interrupted: stopped by Ctrl-C (SIGINT); no result was reported"]
    assert read_manifest(out)["status"] == STATUS_RUNNING and not is_complete(out)
    assert "unfinished run" in _refused(argv, capsys)
    assert main([*argv, "--resume"]) == 0 and is_complete(out)
    for name in COMPARED:
        assert (out / name).read_bytes() == (reference / name).read_bytes(), name


@pytest.mark.slow
def test_python_m_fltheory_killed_and_resumed(tmp_path, config, reference):
    """The same as above through ``python -m fltheory`` processes, killed twice."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    out = tmp_path / "out"
    command = [sys.executable, "-m", "fltheory", "simulate", "--config", config, "--json"]
    argv = [*command, "--out", str(out), "--checkpoint-every", "4"]
    before = None
    for attempt in range(2):
        extra = ["--resume"] if attempt else []
        child = subprocess.Popen([*argv, *extra], env=env, stdout=subprocess.DEVNULL)
        assert _wait_for_new_checkpoint(child.pid, out, before, timeout=300)
        child.kill()
        child.wait()
        before = _checkpoint_id(out)
        assert not is_complete(out)
    subprocess.run([*argv, "--resume"], env=env, check=True, stdout=subprocess.DEVNULL)
    reference = tmp_path / "reference"
    subprocess.run(
        [*command, "--out", str(reference)], env=env, check=True, stdout=subprocess.DEVNULL
    )
    for name in COMPARED:
        assert (out / name).read_bytes() == (reference / name).read_bytes(), name
