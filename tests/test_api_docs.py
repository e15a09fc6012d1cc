"""The API reference builds from the docstrings with pdoc, warnings as errors (issue 15):
``python docs/build_api.py --out DIR`` exactly as docs/development.md documents it."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pdoc", reason="pdoc is in the dev extra: pip install -e '.[dev]'")

ROOT = Path(__file__).resolve().parents[1]


def test_api_reference_builds_without_warnings(tmp_path: Path) -> None:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    proc = subprocess.run(
        [sys.executable, "docs/build_api.py", "--out", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    markov = (tmp_path / "fltheory" / "markov.html").read_text()
    assert "AvailabilityChain" in markov and "ProductChain" in markov
    assert (tmp_path / "fltheory" / "testing" / "strategies.html").stat().st_size > 0


def test_a_warning_fails_the_build(tmp_path: Path, monkeypatch) -> None:
    package = tmp_path / "src" / "brokenpkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('"""A package."""\n\n__all__ = ["missing"]\n')
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    spec = importlib.util.spec_from_file_location("build_api", ROOT / "docs" / "build_api.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    problems = module.build(tmp_path / "out", ("brokenpkg",))
    assert any("missing" in p for p in problems)
