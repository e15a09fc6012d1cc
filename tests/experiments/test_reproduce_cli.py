"""``fltheory reproduce``: --list (table and JSON), one-line errors with exit 2, and quick
end-to-end runs writing the verdict, the summary, the panels and a complete manifest."""

import csv
import json

import pytest

from fltheory.atomic import is_complete, read_manifest
from fltheory.cli.app import main
from fltheory.experiments.data_sources import data_status
from fltheory.experiments.model import SMOKE_VERDICTS
from fltheory.sim.datasets import missing
from tests.experiments.test_registry import ISSUE_IDS


def _one_line_error(capsys) -> str:
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("fltheory: error:")
    return lines[0]


def test_list_json_shows_every_id_and_its_status(capsys):
    assert main(["reproduce", "--list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["experiments"]
    assert set(ISSUE_IDS) <= {r["id"] for r in rows}
    by_id = {r["id"]: r for r in rows}
    assert by_id["cafed:fig1a"]["setups"]["paper"] == "runnable"
    assert by_id["cafed:fig1a"]["setups"]["authors"] == "runnable"
    assert by_id["cafed:fig1a"]["requires"]["authors"] == []
    assert by_id["fedar:fig1"]["setups"]["authors"].startswith("needs: fedar_authors_code")
    assert by_id["cafed:fig1c"]["requires"]["paper"] == []
    assert by_id["cafed:fig1c"]["setups"]["paper"].startswith("needs data: cifar10")
    assert by_id["cafed:fig2b"]["lost_numbers"] == 1
    assert by_id["cafed-infocom:fig1"]["source"]["paper"].endswith("INFOCOM 2023")


def test_list_table(capsys):
    assert main(["reproduce", "--list"]) == 0
    out = capsys.readouterr().out
    for experiment_id in ("cafed:fig1a", "cafed:fig5a-c", "cafed:table2"):
        assert experiment_id in out
    assert "runnable" in out and "needs:" in out


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["reproduce", "cafed:fig9"], "unknown experiment 'cafed:fig9'"),
        (["reproduce"], "give an experiment ID"),
        (["reproduce", "cafed:fig1a", "--list"], "either --list or an experiment ID"),
        (["reproduce", "cafed:fig1a", "--setup", "code"], "no setup 'code'"),
        (["reproduce", "fedar:fig1", "--setup", "authors"], "cannot run yet: needs"),
        (["reproduce", "cafed:fig1c", "--full"], "--setup paper needs data: cifar10: no data_dir"),
        (["reproduce", "cafed:fig1c", "--setup", "authors"], "--setup authors needs data: cifar10"),
        (["reproduce", "cafed:fig1b", "--seeds", "1"], "--seeds must be >= 2"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, argv, fragment):
    assert main(argv) == 2
    assert fragment in _one_line_error(capsys)


def test_bad_out_dirs(capsys, tmp_path):
    (tmp_path / "file").write_text("x")
    assert main(["reproduce", "cafed:fig1a", "--out", str(tmp_path / "file" / "x")]) == 2
    assert "file is not a directory" in _one_line_error(capsys)
    assert main(["reproduce", "cafed:fig1a", "--out", str(tmp_path / "file")]) == 2
    assert "not a directory" in _one_line_error(capsys)
    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "notes.txt").write_text("mine")
    assert main(["reproduce", "cafed:fig1a", "--out", str(tmp_path / "foreign")]) == 2
    assert "not an fltheory result" in _one_line_error(capsys)


@pytest.mark.slow
@pytest.mark.skipif(
    missing("fashion_mnist") is not None, reason="Debian's dataset-fashion-mnist is not installed"
)
def test_quick_fig1b_end_to_end(capsys, tmp_path):
    out = tmp_path / "fig1b"
    argv = ["reproduce", "cafed:fig1b", "--quick", "--seeds", "3", "--out", str(out), "--json"]
    assert main(argv) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["id"] == "cafed:fig1b" and record["setup"] == "paper"
    assert record["mode"] == "quick" and record["seeds"] == 3
    # Quick mode is a smoke test: its outcome is never "reproduced" or "contradicted".
    assert record["verdict"] in SMOKE_VERDICTS
    assert {"id", "source", "setup", "mode", "verdict", "paper", "measured", "checks"} <= set(
        record
    )
    assert record["paper"]["numbers"][0]["value"] == 0.94
    assert record["data"].startswith("Fashion-MNIST standing in for MNIST")
    assert set(record["measured"]) == {"ca_fed", "adafed"}
    for check in record["checks"]:
        assert {"claim", "paper", "measured", "ci", "holds"} <= set(check)
    # The JSON printed is the JSON written; the panel CSV holds the measured curves.
    written = json.loads((out / "verdict.json").read_text())
    assert written["checks"] == record["checks"]
    assert is_complete(out)
    assert read_manifest(out)["provenance"]["experiment"] == "cafed:fig1b"
    rows = list(csv.reader(line for line in (out / "accuracy.csv").open() if line[0] != "#"))
    assert rows[0] == ["algorithm", "round", "accuracy_mean", "accuracy_sd", "seeds"]
    last = [r for r in rows[1:] if r[0] == "ca_fed"][-1]
    assert int(last[1]) == 60
    # acc_end is the mean of the last 5 % of evaluations: one evaluation here.
    assert float(last[2]) == pytest.approx(record["measured"]["ca_fed"]["acc_end_mean"], abs=1e-5)
    assert (out / "accuracy.png").read_bytes()[:4] == b"\x89PNG"
    summary = (out / "summary.md").read_text()
    assert summary.startswith("# cafed:fig1b: smoke: ") and "smoke test" in summary
    # A complete result is kept unless --overwrite is given.
    assert main(argv) == 2
    assert "already holds a complete result" in _one_line_error(capsys)


def _runnable_quick() -> list[tuple[str, str]]:
    from fltheory.experiments.model import all_experiments

    return [
        (e.id, name)
        for e in all_experiments()
        for name, spec in e.setups.items()
        if not e.missing(name, "quick") and data_status(spec.datasets) is None
    ]


def test_estimator_study_runs_end_to_end_in_the_default_suite(capsys, tmp_path):
    out = tmp_path / "fig4a"
    assert main(["reproduce", "cafed:fig4a", "--seeds", "3", "--out", str(out), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["verdict"] == "smoke: direction agrees"
    assert record["config"]["measure"].endswith("<lambda>")
    assert set(record["measured"]) == {"pi_error", "lambda_error"}
    assert is_complete(out) and (out / "error.png").is_file()


@pytest.mark.slow
@pytest.mark.parametrize(("experiment_id", "setup"), _runnable_quick())
def test_every_runnable_id_runs_quick(capsys, tmp_path, experiment_id, setup):
    out = tmp_path / "r"
    argv = ["reproduce", experiment_id, "--setup", setup, "--seeds", "2", "--out", str(out)]
    assert main([*argv, "--json"]) == 0, capsys.readouterr().err
    record = json.loads(capsys.readouterr().out)
    assert record["id"] == experiment_id and record["setup"] == setup
    assert record["checks"] and is_complete(out)
