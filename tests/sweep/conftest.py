"""Tiny sweeps for the tests: a quadratic problem, few rounds, two algorithms."""

from pathlib import Path

import pytest

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
[[algorithms]]
name = "unbiased"
"""

SWEEP = """base = "base.toml"
seeds = {seeds}
[axes]
"run.lr" = [0.05, 0.1]
"availability.p" = [0.3, 0.8]
"""


def write_sweep(folder: Path, *, seeds: int = 2, rounds: int = 20, sweep: str = SWEEP) -> Path:
    """base.toml and s.toml in ``folder``; the path of s.toml."""
    (folder / "base.toml").write_text(BASE.format(rounds=rounds))
    path = folder / "s.toml"
    path.write_text(sweep.format(seeds=seeds))
    return path


@pytest.fixture
def sweep_file(tmp_path: Path) -> Path:
    """A sweep of 2 × 2 points × 2 seeds = 8 runs of 20 rounds."""
    return write_sweep(tmp_path)
