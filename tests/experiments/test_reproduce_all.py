"""paper_checks/reproduce_all.py and fltheory.experiments.record on fake records (no experiment
runs): the smoke table, storing a full run's compact record, the record built from records."""

import hashlib
import importlib.util
import json
from pathlib import Path

import pytest

from fltheory.errors import InputError
from fltheory.experiments import record
from fltheory.experiments.model import all_experiments

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location(
    "reproduce_all", ROOT / "paper_checks/reproduce_all.py"
)
assert spec is not None and spec.loader is not None
reproduce_all = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reproduce_all)

FAKE = {
    "id": "cafed:fig1a",
    "setup": "authors",
    "mode": "full",
    "data": "LEAF",
    "verdict": "contradicted",
    "seconds": 12.5,
    "cpu_seconds": 11.0,
    "paper": {"numbers": [{"name": "ca_fed − adafed", "value": 1.56, "unit": "pp"}]},
    "checks": [
        {
            "role": "primary",
            "measured": 1.0,
            "holds": True,
            "opposite": False,
            "claim": "x > y",
            "paper": "x better",
            "ci": [0.5, 1.5],
        },
        {
            "role": "primary",
            "measured": -2.777,
            "holds": False,
            "opposite": True,
            "claim": "ca_fed > adafed",
            "paper": "+1.56 pp",
            "ci": [-4.0, -1.5],
        },
        {"role": "diagnostic", "measured": {"a": 1}, "holds": None, "opposite": False},
    ],
}


def fake_run(folder: Path, verdict: dict, status: str = "complete") -> Path:
    """A result folder as ``fltheory reproduce --out`` leaves it: verdict.json and a manifest
    holding its SHA-256 (and a PNG the record does not keep)."""
    folder.mkdir(parents=True)
    text = json.dumps(verdict).encode()
    (folder / "verdict.json").write_bytes(text)
    (folder / "accuracy.png").write_bytes(b"\x89PNG")
    manifest = {
        "status": status,
        "files": [{"name": "verdict.json", "size": len(text),
                   "sha256": hashlib.sha256(text).hexdigest()}],
        "provenance": {"git_commit": "0123456789abcdef", "experiment": verdict["id"]},
    }  # fmt: skip
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


def test_summary_row_counts_primary_checks_and_takes_the_headline():
    row = record.summary_row(FAKE)
    assert row["checks"] == {"primary": 2, "holding": 1, "contrary": 1}
    assert row["cpu_seconds"] == 11.0
    # The failing check's claim, the paper's value and ours: the same quantity side by side.
    assert row["headline"] == {
        "claim": "ca_fed > adafed",
        "paper": "+1.56 pp",
        "measured": "-2.777 [-4, -1.5]",
    }


def test_smoke_table_says_smoke_and_escapes_pipes(tmp_path):
    quick = {**FAKE, "mode": "quick", "verdict": "smoke: direction disagrees"}
    rows = [record.summary_row(quick), {"id": "x|y", "setup": "paper", "verdict": "error: e",
                                        "seconds": 1.0}]  # fmt: skip
    reproduce_all.write_smoke(tmp_path / "s", rows)
    lines = (tmp_path / "s" / "smoke_results.md").read_text().splitlines()
    assert lines[0].startswith("# Smoke runs (quick mode")
    assert "smoke result (quick mode)" in lines[2]
    assert lines[4] == (
        "| cafed:fig1a | authors | smoke: direction disagrees | 1/2 | ca_fed > adafed | +1.56 pp "
        "| -2.777 [-4, -1.5] | 12.5 |"
    )
    assert lines[5] == "| x/y | paper | error: e | — | — | — | — | 1.0 |"
    assert "reproduced" not in "\n".join(lines) and "contradicted" not in "\n".join(lines)


def test_store_keeps_the_compact_record_and_collect_builds_the_record(tmp_path):
    runs = tmp_path / "runs"
    fake_run(runs / "a", FAKE)
    fake_run(runs / "b", {**FAKE, "setup": "paper", "verdict": "reproduced"})
    fake_run(runs / "quick", {**FAKE, "setup": "grid", "mode": "quick", "verdict": "smoke: x"})
    fake_run(runs / "unfinished", {**FAKE, "setup": "paper-table2"}, status="running")
    records, out = tmp_path / "records", tmp_path / "docs"
    assert reproduce_all.main(["--store", str(runs), "--records", str(records),
                               "--out", str(out)]) == 0  # fmt: skip
    # Only the complete full runs, and only their verdict and manifest, byte for byte.
    assert sorted(p.name for p in records.iterdir()) == ["cafed_fig1a__authors",
                                                         "cafed_fig1a__paper"]  # fmt: skip
    kept = records / "cafed_fig1a__authors"
    assert sorted(p.name for p in kept.iterdir()) == ["manifest.json", "verdict.json"]
    assert (kept / "verdict.json").read_bytes() == (runs / "a" / "verdict.json").read_bytes()
    rows = json.loads((out / "reproduce_results.json").read_text())["record"]
    fig1a = {r["setup"]: r for r in rows if r["id"] == "cafed:fig1a"}
    assert (
        fig1a["authors"]["verdict"] == "contradicted" and fig1a["paper"]["verdict"] == "reproduced"
    )
    assert fig1a["grid"]["verdict"] is None and fig1a["grid"]["status"] == "not run yet"
    # One row per registered (ID, setup); the contradicted one links its diagnosis scripts.
    assert len(rows) == sum(len(e.setups) for e in all_experiments())
    assert fig1a["authors"]["diagnoses"] and not fig1a["paper"]["diagnoses"]
    page = (out / "reproduce_results.md").read_text()
    line = next(x for x in page.splitlines() if x.startswith("| cafed:fig1a | authors |"))
    assert "**contradicted**" in line and "(0123456)" in line and "cafed_fig1a_diagnosis.py" in line
    assert "| cafed:fig1c | paper | — (needs the user's CIFAR-10 (--data-dir) and a GPU" in page
    # --collect alone regenerates the same page from the records.
    again = tmp_path / "again"
    assert reproduce_all.main(["--collect", str(records), "--out", str(again)]) == 0
    assert (again / "reproduce_results.md").read_text() == page


def test_a_record_edited_after_the_run_is_refused(tmp_path):
    folder = fake_run(tmp_path / "cafed_fig1a__authors", FAKE)
    text = (folder / "verdict.json").read_text().replace("contradicted", "reproduced")
    (folder / "verdict.json").write_text(text)
    with pytest.raises(InputError, match="SHA-256 differs"):
        record.load_records(tmp_path)


def test_records_are_full_runs_in_their_own_folder(tmp_path):
    with pytest.raises(InputError, match="a quick run"):
        record.read_run(fake_run(tmp_path / "q", {**FAKE, "mode": "quick"}))
    fake_run(tmp_path / "r" / "cafed_fig1b__paper", FAKE)
    with pytest.raises(InputError, match="holds cafed:fig1a --setup authors"):
        record.load_records(tmp_path / "r")
    fake_run(tmp_path / "s" / "cafed_fig9__paper", {**FAKE, "id": "cafed:fig9", "setup": "paper"})
    with pytest.raises(InputError, match="unregistered"):
        record.record_rows(record.load_records(tmp_path / "s"), all_experiments())


def test_a_holding_guard_is_not_the_headline():
    guard = {"role": "primary", "claim": "the algorithms train", "measured": {"a": 30.0},
             "ci": None, "holds": True, "paper": "trained"}  # fmt: skip
    rec = {**FAKE, "checks": [guard, {**FAKE["checks"][0]}]}
    assert record.headline(rec)["claim"] == "x > y"
    failing = {**rec, "checks": [{**guard, "holds": False}, FAKE["checks"][0]]}
    assert record.headline(failing)["claim"] == "the algorithms train"


@pytest.mark.slow
def test_full_runs_go_to_their_folders_and_into_the_record(tmp_path):
    # cafed:fig4a full (an estimator study, no training; ~10 CPU s): run, store, collect.
    runs, records, out = tmp_path / "runs", tmp_path / "records", tmp_path / "docs"
    argv = ["--full", "--runs", str(runs), "--ids", "cafed:fig4a", "--setups", "paper",
            "--records", str(records), "--out", str(out)]  # fmt: skip
    assert reproduce_all.main(argv) == 0
    folder = runs / "cafed_fig4a__paper"
    assert (folder / "error.png").is_file() and (folder / "summary.md").is_file()
    (kept,) = record.load_records(records)
    assert kept[0]["mode"] == "full" and kept[1]["provenance"]["experiment"] == "cafed:fig4a"
    rows = json.loads((out / "reproduce_results.json").read_text())["record"]
    row = next(r for r in rows if (r["id"], r["setup"]) == ("cafed:fig4a", "paper"))
    assert row["verdict"] == kept[0]["verdict"] and row["cpu_seconds"] > 0
    # A second pass keeps the complete result of the same run (resume semantics).
    stamp = (folder / "verdict.json").stat().st_mtime_ns
    assert reproduce_all.main(argv) == 0
    assert (folder / "verdict.json").stat().st_mtime_ns == stamp
