"""The README's table of findings is the one generated from docs/check_results.json, and that
file is the output of a run over the registry as it is now: every registered claim appears in
it with the verdict its search is expected to reach (regenerate with paper_checks/run_all.py)."""

import json
from pathlib import Path

from fltheory.claims import CLAIMS
from fltheory.claims.errata import END, START, errata_table

ROOT = Path(__file__).resolve().parents[2]
RESULTS = json.loads((ROOT / "docs" / "check_results.json").read_text())


def test_readme_table_is_generated():
    readme = (ROOT / "README.md").read_text()
    block = readme.split(START, 1)[1].split(END, 1)[0]
    assert block.strip() == errata_table(RESULTS).strip(), (
        "README errata table is stale: run python paper_checks/run_all.py"
    )


def test_results_cover_the_registry():
    recorded = {c["id"] for c in RESULTS["claims"]}
    registered = {c.id for c in CLAIMS}
    assert recorded == registered, (
        f"missing {sorted(registered - recorded)}, stale {sorted(recorded - registered)}: "
        "run python paper_checks/run_all.py"
    )


def test_recorded_verdicts_are_the_expected_ones():
    expected = {c.id: c.expected for c in CLAIMS if c.expected is not None}
    wrong = {
        c["id"]: (c["verdict"], expected[c["id"]])
        for c in RESULTS["claims"]
        if c["id"] in expected and c["verdict"] != expected[c["id"]]
    }
    assert not wrong
    assert not [c["id"] for c in RESULTS["claims"] if c["verdict"] == "error"]


def test_every_refutation_is_a_row():
    readme = (ROOT / "README.md").read_text()
    for claim in RESULTS["claims"]:
        if claim["verdict"] == "refuted":
            assert f"`{claim['id']}`" in readme
