"""The example plug-in package (examples/plugin_package: the γ-rule q_k = α_k/π_k^γ and two
lemmas) used as a researcher would: ``simulate``, ``sweep`` with two worker processes and
``check``, with the package loaded by ``--plugin``, by ``FLTHEORY_PLUGINS`` and by its entry
points once installed with pip; each result names the plug-in in its provenance, with the
SHA-256 of its sources (computed here with hashlib) and, installed, its distribution."""

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from plugin_support import PACKAGE, ROOT, cli, write_configs

SOURCES = sorted((PACKAGE / "gamma_rule").glob("*.py"))
HOWS = ("option", "environment", "entry point")


def _load(how: str, installed: Path | None) -> tuple[list[str], dict, tuple[Path, ...]]:
    """(extra arguments, environment, PYTHONPATH entries) that load the package ``how``."""
    if how == "option":
        return ["--plugin", "gamma_rule"], {}, (PACKAGE,)
    if how == "environment":
        return [], {"FLTHEORY_PLUGINS": "gamma_rule"}, (PACKAGE,)
    assert installed is not None
    return [], {}, (installed,)


@pytest.fixture(params=HOWS)
def how(request) -> str:
    return request.param


@pytest.fixture
def site(how, request) -> Path | None:
    return request.getfixturevalue("installed") if how == "entry point" else None


def _check_record(records: list[dict], how: str, site: Path | None) -> None:
    (record,) = [r for r in records if r["module"].startswith("gamma_rule")]
    assert "algorithm 'gamma_weights'" in record["registered"]
    assert "claim 'gammarule:lemma1'" in record["registered"]
    digests = {Path(f["path"]).name: f["sha256"] for f in record["files"]}
    root = PACKAGE if site is None else site
    expected = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in SOURCES}
    if how == "entry point":
        assert record["via"].startswith("entry point fltheory.")
        assert (record["distribution"], record["version"]) == ("fltheory-gamma-rule", "0.1.0")
        expected = {
            p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted((root / "gamma_rule").glob("*.py"))
        }
    else:
        if how in ("option", "environment"):
            assert record["via"] == {"option": "--plugin", "environment": "FLTHEORY_PLUGINS"}[how]
        assert record["distribution"] is None
    assert digests == expected


def test_simulate(tmp_path, how, site):
    config, _ = write_configs(tmp_path)
    args, env, paths = _load(how, site)
    proc = cli(["simulate", "--config", str(config), "--out", "out", "--json", *args], tmp_path,
               paths=paths, env=env)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["algorithms"]["gamma_weights"]["gamma"] == 0.5
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    _check_record(manifest["provenance"]["plugins"], how, site)
    saved = json.loads((tmp_path / "out" / "summary.json").read_text())
    _check_record(saved["provenance"]["plugins"], how, site)


def test_check(tmp_path, how, site):
    args, env, paths = _load(how, site)
    if how == "entry point":  # not requested by name: select the work's claims
        args = ["--paper", "gammarule"]
    proc = cli(["check", "--budget", "80", "--json", "--out", "out", *args], tmp_path,
               paths=paths, env=env)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    verdicts = {v["id"]: v for v in json.loads(proc.stdout)["claims"]}
    assert set(verdicts) == {"gammarule:lemma1", "gammarule:lemma2-linear"}
    assert verdicts["gammarule:lemma1"]["verdict"] == "holds"
    refuted = verdicts["gammarule:lemma2-linear"]
    assert refuted["verdict"] == "refuted" and refuted["exact_verified"] == "mpmath, 50 digits"
    assert (
        refuted["exact_margin"] < 0 and refuted["source"] == "gammarule §2, Lemma 2 (linear form)"
    )
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    _check_record(manifest["provenance"]["plugins"], how, site)


def assert_sweep_runs(tmp_path: Path, how: str, site: Path | None) -> None:
    _, sweep = write_configs(tmp_path)
    args, env, paths = _load(how, site)
    proc = cli(["sweep", str(sweep), "--store", "r.db", "--workers", "2", "--json", *args],
               tmp_path, paths=paths, env=env)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["runs_done"] == 2
    with sqlite3.connect(tmp_path / "r.db") as db:
        metrics = [json.loads(m) for (m,) in db.execute("SELECT metrics FROM runs")]
        (record,) = [json.loads(r) for (r,) in db.execute("SELECT record FROM provenance")]
    assert all("gamma_weights/objective/final" in m for m in metrics)
    finals = sorted(m["gamma_weights/objective/final"] for m in metrics)
    assert finals[0] < finals[1]  # γ = 0 and γ = 1 are different runs
    _check_record(record["plugins"], how, site)


def test_sweep_with_two_workers(tmp_path):
    """--plugin reaches the worker processes (they start without it)."""
    assert_sweep_runs(tmp_path, "option", None)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["environment", "entry point"])
def test_sweep_with_two_workers_other_ways(tmp_path, how, request):
    assert_sweep_runs(
        tmp_path, how, request.getfixturevalue("installed") if how == "entry point" else None
    )


def test_without_the_plugin_the_algorithm_is_unknown(tmp_path):
    """The same config fails with the usual one-line message when nothing loads the package."""
    config, _ = write_configs(tmp_path)
    proc = cli(["simulate", "--config", str(config), "--json"], tmp_path, paths=(PACKAGE,))
    assert proc.returncode == 2
    assert "unknown algorithm 'gamma_weights'" in proc.stderr and len(proc.stderr.splitlines()) == 1


PYTHON_API = """
import json, sys
from pathlib import Path
import fltheory
from fltheory.sweep.run import run_sweep
from fltheory.sweep.spec import load_sweep
from fltheory.sweep.store import Store

fltheory.load_plugins(["gamma_rule"])
report = fltheory.simulate("sim.toml", out="out")
sweep = run_sweep(load_sweep("s.toml"), "r.db", workers=2)
with Store("r.db") as store:
    stored = store.provenance()[0]["plugins"]
manifest = json.loads(Path("out/manifest.json").read_text())
print(json.dumps([sweep.runs_done, manifest["provenance"]["plugins"], stored]))
"""


def test_the_python_api_loads_plugins_for_simulate_and_sweep_workers(tmp_path):
    write_configs(tmp_path)
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FLTHEORY_PLUGINS")}
    environ.update(OMP_NUM_THREADS="1", PYTHONPATH=os.pathsep.join(map(str, (ROOT, PACKAGE))))
    proc = subprocess.run(
        [sys.executable, "-c", PYTHON_API], cwd=tmp_path, env=environ, capture_output=True,
        text=True, timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    done, simulated, swept = json.loads(proc.stdout.splitlines()[-1])
    assert done == 2
    for records in (simulated, swept):
        assert records[0]["via"] == "load_plugins"
        _check_record(records, "python", None)


@pytest.mark.ray
@pytest.mark.slow
def test_sweep_on_ray_loads_the_plugin(tmp_path):
    pytest.importorskip("ray")
    _, sweep = write_configs(tmp_path)
    proc = cli(["sweep", str(sweep), "--store", "r.db", "--executor", "ray", "--workers", "2",
                "--json", "--plugin", "gamma_rule"], tmp_path, paths=(PACKAGE,))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["runs_done"] == 2


def test_the_example_package_doctests_pass(tmp_path):
    """Its ``>>>`` examples (weights, the rule, its builder, the lemmas' margins) run."""
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FLTHEORY_PLUGINS")}
    environ.update(OMP_NUM_THREADS="1", PYTHONPATH=os.pathsep.join(map(str, (ROOT, PACKAGE))))
    code = (
        "import doctest, importlib, sys\n"
        "failed = 0\n"
        "for name in sys.argv[1:]:\n"
        "    failed += doctest.testmod(importlib.import_module(name)).failed\n"
        "print('failed', failed)\n"
    )
    names = [f"gamma_rule.{p.stem}" for p in SOURCES if p.stem != "__init__"]
    proc = subprocess.run(
        [sys.executable, "-c", code, *names], cwd=tmp_path, env=environ, capture_output=True,
        text=True, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.splitlines()[-1] == "failed 0", proc.stdout[-3000:]
