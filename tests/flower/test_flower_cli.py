"""Flower 1.41 pins typer < 0.21: the fltheory CLI keeps working under that typer (its help,
a command, and the one-line usage error with exit status 2)."""

import subprocess
import sys

import pytest

pytest.importorskip("flwr", reason="needs the flower extra: pip install 'fltheory[flower]'")

pytestmark = pytest.mark.flower


def _cli(*args: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "fltheory", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def test_flower_pins_an_older_typer():
    import typer

    assert tuple(int(x) for x in typer.__version__.split(".")[:2]) < (0, 21)


def test_help_and_a_command_run():
    assert "simulate" in _cli("--help").stdout
    run = _cli("chain", "--client", "0.3:0.6", "--json")
    assert run.returncode == 0
    assert '"slem": 0.6' in run.stdout


def test_a_usage_error_is_one_line_with_status_2():
    run = _cli("chain", "--no-such-option")
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("fltheory: error: No such option '--no-such-option'")
