"""The two worked examples of examples/ run as the README documents them (``python
examples/NAME.py`` from the root, no PYTHONPATH), and their checks can fail (issue 15)."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ("bounds_for_my_chain.py", "property_test_a_lemma.py")


def _run(name: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return subprocess.run(
        [sys.executable, f"examples/{name}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_examples_are_documented() -> None:
    readme = (ROOT / "README.md").read_text()
    for name in EXAMPLES:
        assert f"python examples/{name}" in readme


def test_bounds_for_my_chain() -> None:
    proc = _run("bounds_for_my_chain.py")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "C_P = " in proc.stdout and "theorem1 (eq. 11)" in proc.stdout and "q* = " in proc.stdout


def test_property_test_a_lemma() -> None:
    proc = _run("property_test_a_lemma.py")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "held on every drawn chain" in proc.stdout


def test_the_property_can_fail() -> None:
    """The example's check catches an envelope one notch too small (C_P/2 on a sticky chain)."""
    spec = importlib.util.spec_from_file_location("example", ROOT / "examples" / EXAMPLES[1])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # Two-state chain with λ₂ = 0.8: E(t) = max(a, b)·0.8ᵗ/(a + b) exactly (a, b the switch
    # probabilities), so the least valid constant at λ = 0.8 is max(a, b)/(a + b).
    a, b = 0.15, 0.05
    P = np.array([[1 - a, a], [b, 1 - b]])
    rho = np.array([b, a]) / (a + b)
    exact = max(a, b) / (a + b)
    assert module.envelope_violations(P, rho, C_P=exact, lam=0.8, T_P=0) == []
    assert module.envelope_violations(P, rho, C_P=exact / 2, lam=0.8, T_P=0) != []
