"""Helpers for the plug-in tests: the example package, a throwaway outside module, the CLI in a
fresh interpreter (plug-ins loaded there never reach this process's registries), and a guard
that restores :mod:`fltheory.plugins`' state after an in-process test."""

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

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


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example package installed with pip into a folder of its own (its dist-info with the
    entry points included), built from a copy so that the checkout gets no build files."""
    base = tmp_path_factory.mktemp("installed")
    source = base / "src"
    shutil.copytree(
        PACKAGE, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info")
    )
    target = base / "site"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--no-input", "--disable-pip-version-check", "--target", str(target), str(source)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    if proc.returncode != 0 and "No module named pip" in proc.stderr:
        pytest.skip("pip is not installed in this environment")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (target / "fltheory_gamma_rule-0.1.0.dist-info" / "entry_points.txt").is_file()
    return target


@pytest.fixture
def clean_plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Run a test against empty plug-in records, and restore the records and ``sys.modules``
    afterwards (what the test imported is forgotten)."""
    state = {
        name: getattr(plugins, name)
        for name in (
            "_LOADED",
            "_REGISTERED",
            "_REQUESTED",
            "_GROUPS_DONE",
            "_ENV_DONE",
            "_UNLOADED",
        )
    }
    for name, value in state.items():
        monkeypatch.setattr(plugins, name, type(value)())
    monkeypatch.delenv(plugins.ENV, raising=False)
    modules = set(sys.modules)
    path = list(sys.path)
    yield
    for name in set(sys.modules) - modules:
        del sys.modules[name]
    sys.path[:] = path
