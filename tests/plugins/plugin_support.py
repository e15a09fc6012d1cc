"""Helpers for the plug-in tests (a module of its own name, so that ``from plugin_support import``
finds it whichever conftest pytest imported last): the example package, tiny configs, and the
CLI in a fresh interpreter (plug-ins loaded there never reach this process's registries)."""

import os
import subprocess
import sys
from pathlib import Path

from fltheory import plugins

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "examples" / "plugin_package"

#: A tiny simulation with the example's algorithm next to a built-in one.
SIM = """name = "plug"
device = "cpu"
dtype = "float64"
seeds = 1
[run]
rounds = 4
[problem]
kind = "quadratic"
u = [[0.0], [1.0], [3.0]]
[availability]
kind = "bernoulli"
p = [0.9, 0.5, 0.2]
[[algorithms]]
name = "{algorithm}"
gamma = 0.5
[[algorithms]]
name = "unbiased"
"""
#: Two points (γ = 0 and γ = 1) × one seed.
SWEEP = """base = "sim.toml"
seeds = 1
[axes]
"algorithms.0.gamma" = [0.0, 1.0]
"""


def write_configs(folder: Path, algorithm: str = "gamma_weights") -> tuple[Path, Path]:
    """sim.toml and s.toml in ``folder``."""
    (folder / "sim.toml").write_text(SIM.format(algorithm=algorithm))
    (folder / "s.toml").write_text(SWEEP)
    return folder / "sim.toml", folder / "s.toml"


def cli(
    args: list[str], cwd: Path, *, paths: tuple[Path, ...] = (), env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """``python -m fltheory ARGS`` in ``cwd`` with ``paths`` (and this checkout) on PYTHONPATH
    and no FLTHEORY_PLUGINS unless ``env`` sets it."""
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", plugins.ENV)}
    environ.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    environ["PYTHONPATH"] = os.pathsep.join(str(p) for p in (ROOT, *paths))
    environ.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "fltheory", *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
