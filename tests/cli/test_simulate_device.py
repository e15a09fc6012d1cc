"""``simulate --device``: a device that does not exist is refused in one line that names the
flag — not the config file, and with no blank line from a progress bar before it (stderr is
not a terminal here, so no bar is drawn at all)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fltheory.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
SIM = """device = "cpu"
[run]
rounds = 2
[problem]
kind = "fedpbc_quadratic"
n_clients = 3
dim = 2
[availability]
kind = "bernoulli"
p = 0.5
[[algorithms]]
name = "fedavg"
"""


def _simulate(tmp_path: Path, *args: str, config: str = SIM) -> subprocess.CompletedProcess:
    path = tmp_path / "c.toml"
    path.write_text(config)
    return subprocess.run(
        [sys.executable, "-m", "fltheory", "simulate", "--config", str(path), *args],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("extra", [[], ["--json"]])
@pytest.mark.parametrize("device", ["tpu", "", "CPU"])
def test_an_unknown_device_flag_is_one_line_naming_the_flag(tmp_path, capsys, device, extra):
    path = tmp_path / "c.toml"
    path.write_text(SIM)
    assert main(["simulate", "--config", str(path), "--device", device, *extra]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"fltheory: error: --device must be auto, cpu or cuda, got {device!r}\n"


def test_the_process_writes_one_line_only(tmp_path):
    """The same through a real process and a real stderr pipe."""
    done = _simulate(tmp_path, "--device", "tpu")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "fltheory: error: --device must be auto, cpu or cuda, got 'tpu'\n"


def test_a_device_in_the_config_is_blamed_on_the_config(tmp_path):
    done = _simulate(tmp_path, config=SIM.replace('device = "cpu"', 'device = "tpu"'))
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()  # one line: no blank line before it
    assert "c.toml" in line and "device" in line


def test_a_successful_run_on_a_pipe_writes_nothing_to_stderr(tmp_path):
    done = _simulate(tmp_path)
    assert done.returncode == 0 and done.stderr == ""
