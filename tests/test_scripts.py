"""The validation/ scripts run and report what they claim: each runs with ``--quick --json
PATH``, exit status 0 and a saved JSON file. One figure script runs into a temporary directory as
a smoke test. (The papers' statements are claims: tests/claims/.)
"""

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VALIDATION = sorted((ROOT / "validation").glob("*.py"))
#: One BLAS thread per script: the suite runs two pytest workers on two cores. No PYTHONPATH:
#: each script runs as the README documents it, ``python validation/NAME.py`` from the root.
ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


def run(script: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(script), *args],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_scripts_are_found() -> None:
    assert len(VALIDATION) >= 5


@pytest.mark.parametrize("script", VALIDATION, ids=lambda p: p.stem)
def test_validation_script_agrees(script: Path, tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    proc = run(script, "--quick", "--json", str(out))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    saved = json.loads(out.read_text())
    assert saved["ok"] is True


def test_estimator_figure_smoke(tmp_path: Path) -> None:
    proc = run(ROOT / "figures" / "estimator_convergence.py", "--reps", "2", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (tmp_path / "estimator_convergence.png").stat().st_size > 10_000
    with open(tmp_path / "estimator_convergence.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [int(r["t"]) for r in rows] == [10, 32, 100, 316, 1000, 3162, 10000]
    # Fig. 4a's trend, independent of the plotting code: both errors shrink with t'.
    for key in ("err_pi_mean", "err_lam_mean"):
        assert float(rows[-1][key]) < float(rows[0][key]) / 5
