"""Every script in figures/, validation/ and paper_checks/ runs the way docs/scripts.md documents
it (issue 15): ``python DIR/SCRIPT.py`` from the repository root, with no PYTHONPATH and no
installed package needed — the page's block of scripts is parsed, each documented command is
run as written, with only size arguments appended (fewer repetitions, ``--out`` a temporary
folder) so that the suite stays short. The validation scripts run the same way, with their
results checked, in tests/test_scripts.py; here the point is the invocation itself.
"""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DIRS = ("figures", "validation", "paper_checks")
PAGE = (ROOT / "docs" / "scripts.md").read_text()
DOCUMENTED = [
    line.split("#", 1)[0].strip()
    for line in PAGE.splitlines()
    if re.match(rf"^python ({'|'.join(DIRS)})/\w+\.py", line)
]
#: Size arguments per script (the documented command is run with these appended); a script not
#: listed runs as it is.
SMALL = {
    "figures/theory_vs_simulation.py": "--reps 2",
    "figures/estimator_convergence.py": "--reps 2",
    "figures/optimal_weights_tradeoff.py": "--points 3",
    "figures/fedavg_bias_vs_heterogeneity.py": "--quick",
    "figures/ca_fed_fig1a.py": "--seeds 1 --rounds 5",
    "figures/ca_fed_fig1a_grid.py": "--seeds 1 --rounds 5",
    "figures/cafed_fig1a_diagnosis.py": "--seeds 2 --rounds 3",
    "figures/cafed_infocom_fig1_diagnosis.py": "--seeds 2",
    "figures/cafed_infocom_fig3_diagnosis.py": "--seeds 2 --rows paper",
    "figures/cafed_fig4b_diagnosis.py": "--seeds 2 --t-primes 10",
    "figures/cafed_fig5_diagnosis.py": "--seeds 2 --rounds 10 --clients 50",
    "figures/cafed_fig1b_diagnosis.py": "--seeds 2 --rounds 20 --clients 4 --max-train 300",
    "figures/cafed_fig1d_diagnosis.py": "--seeds 2",
    "figures/cafed_fig2_diagnosis.py": "--seeds 2 --rounds 40 --every 10",
    "figures/cafed_table2_diagnosis.py": "--mode quick --scales 1",
    "paper_checks/reproduce_all.py": "--ids cafed:fig4a --setups paper",
    "paper_checks/run_all.py": "--paper fedar --no-readme",
    "paper_checks/check_findings.py": "fedar:thm1-limit",
    "paper_checks/check_stability.py": "fedar:thm1-limit --seeds 0 1",
}
#: Scripts that take more than a few seconds even at the small size.
SLOW = {
    "figures/theory_vs_simulation.py",
    "figures/optimal_weights_tradeoff.py",
    "figures/fedavg_bias_vs_heterogeneity.py",
    "figures/ca_fed_fig1a.py",
    "figures/ca_fed_fig1a_grid.py",
    "figures/cafed_fig1a_diagnosis.py",
    "figures/cafed_infocom_fig1_diagnosis.py",
    "figures/cafed_infocom_fig3_diagnosis.py",
    "figures/cafed_fig4b_diagnosis.py",
    "figures/cafed_fig5_diagnosis.py",
    "figures/cafed_fig1b_diagnosis.py",
    "figures/cafed_fig1d_diagnosis.py",
    "figures/cafed_fig2_diagnosis.py",
    "figures/cafed_table2_diagnosis.py",
    "paper_checks/run_all.py",
    "paper_checks/reproduce_all.py",
    "paper_checks/check_findings.py",
    "paper_checks/check_stability.py",
}


def _script(command: str) -> str:
    return shlex.split(command)[1]


def test_each_script_is_documented_exactly_once() -> None:
    scripts = sorted(p.relative_to(ROOT).as_posix() for d in DIRS for p in (ROOT / d).glob("*.py"))
    documented = sorted(_script(c) for c in DOCUMENTED)
    assert documented == scripts


def test_validation_scripts_run_as_documented_in_test_scripts() -> None:
    source = (ROOT / "tests" / "test_scripts.py").read_text()
    assert 'k != "PYTHONPATH"' in source and "cwd=ROOT" in source


def _params() -> list:
    return [
        pytest.param(c, id=_script(c), marks=[pytest.mark.slow] if _script(c) in SLOW else [])
        for c in DOCUMENTED
        if not _script(c).startswith("validation/")  # tests/test_scripts.py runs those
    ]


@pytest.mark.parametrize("command", _params())
def test_script_runs_as_documented(command: str, tmp_path: Path) -> None:
    script = _script(command)
    args = shlex.split(command)[2:]
    if script.startswith("paper_checks/"):
        args += [*shlex.split(SMALL[script]), "--out", str(tmp_path / "check.json")]
    else:
        args += [*shlex.split(SMALL.get(script, "")), "--out", str(tmp_path)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    proc = subprocess.run(
        [sys.executable, script, *args],  # `python DIR/SCRIPT.py` from the root
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    produced = list(tmp_path.iterdir())
    assert produced, "the script wrote nothing"
