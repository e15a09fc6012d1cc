"""``fltheory sweep`` on the command line: the shipped example, usage errors, missing extras."""

import importlib.util
import json
import re
from pathlib import Path

import pytest

from fltheory.cli.app import run as cli
from fltheory.sweep.spec import load_sweep

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_example_is_a_valid_sweep():
    sweep = load_sweep(ROOT / "examples" / "sweep_fedpbc_pgroups.toml")
    assert sweep.size == 2 * 2 * 1 * 3
    assert sweep.base.name == "sim_fedpbc_counterexample.toml"


def _one_line_error(capsys, pattern: str) -> None:
    captured = capsys.readouterr()
    assert captured.out == ""
    assert re.fullmatch(f"fltheory: error: {pattern}\n", captured.err), captured.err


@pytest.mark.parametrize(
    ("args", "pattern"),
    [
        (["export", "r.db"], "usage: fltheory sweep export STORE .*"),
        (["export", "r.db", "--format", "csv", "--out", "x", "--workers", "2"], "--store, .*"),
        (["s.toml", "--store", "r.db", "--format", "csv"], "a second argument, --format .*"),
        (["s.toml", "--store", "r.db", "--workers", "0"], "--workers must be >= 1, got 0"),
        (["s.toml", "--store", "r.db", "--executor", "dask"], "unknown executor 'dask'.*"),
        (["export", "nowhere.db", "--format", "csv", "--out", "x"], ".*results store not found"),
    ],
)
def test_usage_errors_are_one_line(tmp_path, monkeypatch, capsys, args, pattern):
    monkeypatch.chdir(tmp_path)
    assert cli(["sweep", *args]) == 2
    _one_line_error(capsys, pattern)
    assert not (tmp_path / "nowhere.db").exists()  # export never creates a store


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None, reason="ray is installed")
def test_the_ray_executor_without_ray_names_the_extra(tmp_path, capsys):
    from conftest import write_sweep

    path = write_sweep(tmp_path)
    args = ["sweep", str(path), "--store", str(tmp_path / "r.db"), "--executor", "ray"]
    assert cli(args) == 2
    _one_line_error(capsys, re.escape("the Ray executor needs ray: pip install 'fltheory[ray]'"))


@pytest.mark.skipif(importlib.util.find_spec("pyarrow") is not None, reason="pyarrow present")
def test_parquet_without_pyarrow_names_the_extra(tmp_path, capsys):
    from fltheory.sweep.store import Store

    Store(tmp_path / "r.db").close()
    out = tmp_path / "r.parquet"
    assert (
        cli(["sweep", "export", str(tmp_path / "r.db"), "--format", "parquet", "--out", str(out)])
        == 2
    )
    _one_line_error(
        capsys, re.escape("--format parquet needs pyarrow: pip install 'fltheory[parquet]'")
    )
    assert not out.exists()


def test_export_json_reports_the_rows(tmp_path, capsys):
    from fltheory.sweep.store import Row, Store

    with Store(tmp_path / "r.db") as store:
        store.add(Row("k", 0, {"run.lr": 0.1}, {}, {"a/objective/final": 1.0}, 0.0))
    out = tmp_path / "r.csv"
    args = ["sweep", "export", str(tmp_path / "r.db"), "--format", "csv", "--out", str(out)]
    assert cli([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"rows": 1, "out": str(out), "format": "csv"}
    assert out.read_text().splitlines()[1] == "k,0.1,0,1.0"
