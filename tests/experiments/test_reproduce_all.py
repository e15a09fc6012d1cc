"""paper_checks/reproduce_all.py: the verdict table from fake records (no experiment runs)."""

import importlib.util
from pathlib import Path

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
    "mode": "quick",
    "data": "LEAF",
    "verdict": "contradicted",
    "seconds": 12.5,
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


def test_summary_row_counts_primary_checks_and_takes_the_headline():
    row = reproduce_all.summary_row(FAKE)
    assert row["checks"] == {"primary": 2, "holding": 1, "contrary": 1}
    # The failing check's claim, the paper's value and ours: the same quantity side by side.
    assert row["headline"] == {
        "claim": "ca_fed > adafed",
        "paper": "+1.56 pp",
        "measured": "-2.777 [-4, -1.5]",
    }


def test_markdown_table_has_one_line_per_run_and_escapes_pipes():
    rows = [reproduce_all.summary_row(FAKE), {"id": "x|y", "setup": "paper", "verdict": "error: e",
                                              "seconds": 1.0}]  # fmt: skip
    lines = reproduce_all.render_markdown(rows).splitlines()
    assert len(lines) == 4
    assert lines[2] == (
        "| cafed:fig1a | authors | quick | contradicted | 1/2 | ca_fed > adafed | +1.56 pp "
        "| -2.777 [-4, -1.5] | 12.5 |"
    )
    assert lines[3] == "| x/y | paper | — | error: e | — | — | — | — | 1.0 |"


def test_collect_builds_the_table_from_verdict_files_without_running(tmp_path):
    import json

    for i, setup in enumerate(("paper", "authors")):
        folder = tmp_path / "results" / f"run{i}"
        folder.mkdir(parents=True)
        (folder / "verdict.json").write_text(json.dumps({**FAKE, "setup": setup, "mode": "full"}))
    out = tmp_path / "new" / "table"  # created
    assert reproduce_all.main(["--collect", str(tmp_path / "results"), "--out", str(out)]) == 0
    rows = json.loads((out / "reproduce_results.json").read_text())["runs"]
    assert [(r["setup"], r["mode"]) for r in rows] == [("authors", "full"), ("paper", "full")]
    lines = (out / "reproduce_results.md").read_text().splitlines()
    assert len(lines) == 4 and lines[2].startswith(
        "| cafed:fig1a | authors | full | contradicted |"
    )


def test_a_holding_guard_is_not_the_headline():
    guard = {"role": "primary", "claim": "the algorithms train", "measured": {"a": 30.0},
             "ci": None, "holds": True, "paper": "trained"}  # fmt: skip
    record = {**FAKE, "checks": [guard, {**FAKE["checks"][0]}]}
    assert reproduce_all.headline(record)["claim"] == "x > y"
    failing = {**record, "checks": [{**guard, "holds": False}, FAKE["checks"][0]]}
    assert reproduce_all.headline(failing)["claim"] == "the algorithms train"
