"""Fixtures of the plug-in tests: the example package installed with pip, and a guard that
restores :mod:`fltheory.plugins`' state after an in-process test (helpers: plugin_support.py)."""

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from plugin_support import PACKAGE

from fltheory import plugins


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
