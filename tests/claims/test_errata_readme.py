"""The README's findings and docs/errata/ are the ones generated from docs/check_results.json,
and that file is the output of a run over the registry as it is now: every registered claim
appears in it with the verdict its search is expected to reach, and every refutation carries its
classified finding (regenerate with paper_checks/run_all.py)."""

import json
from pathlib import Path

import pytest

from fltheory.claims import CLAIMS
from fltheory.claims.errata import END, START, errata_files, errata_table
from fltheory.claims.finding import ERRATA_CLASSES

ROOT = Path(__file__).resolve().parents[2]
RESULTS = json.loads((ROOT / "docs" / "check_results.json").read_text())
REFUTED = [c for c in RESULTS["claims"] if c["verdict"] == "refuted"]
STALE = "stale: run python paper_checks/run_all.py"


def _readme_block() -> str:
    readme = (ROOT / "README.md").read_text()
    return readme.split(START, 1)[1].split(END, 1)[0]


def test_readme_table_is_generated():
    assert _readme_block().strip() == errata_table(RESULTS).strip(), f"README errata {STALE}"


def test_docs_errata_are_generated():
    expected = errata_files(RESULTS)
    on_disk = {
        p.relative_to(ROOT / "docs" / "errata").as_posix(): p.read_text()
        for p in (ROOT / "docs" / "errata").glob("*/*")
    }
    assert sorted(on_disk) == sorted(expected), f"docs/errata {STALE}"
    for name, content in expected.items():
        assert on_disk[name] == content, f"docs/errata/{name} {STALE}"


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
    assert not [c["id"] for c in RESULTS["claims"] if c["verdict"] in ("error", "inconclusive")]


@pytest.mark.parametrize("record", REFUTED, ids=lambda r: r["id"])
def test_every_refutation_is_classified_and_listed(record):
    finding = record.get("finding")
    assert finding and finding["class"], f"{record['id']}: refuted without a finding"
    assert f"`{record['id']}`" in _readme_block()


@pytest.mark.parametrize(
    "record",
    [r for r in REFUTED if (r.get("finding") or {}).get("class") in ERRATA_CLASSES],
    ids=lambda r: r["id"],
)
def test_an_erratum_has_a_moderate_witness_in_the_papers_quantities(record):
    moderate = record.get("moderate_witness")
    assert moderate and moderate.get("paper"), f"{record['id']}: no moderate witness explained"
    assert moderate["paper"]["holds"] is False
    assert moderate["paper"]["verify_args"]
    # moderate: nothing within 1e-6 of an open end of the space (a reader checks it by hand)
    assert moderate["extremeness"] >= 1e-6, f"{record['id']}: the witness sits at an extreme"


def test_no_literal_reading_is_in_the_errata_sections():
    block = _readme_block()
    errata_part = block.split("**Not findings about the papers**", 1)[0]
    for record in REFUTED:
        if (record.get("finding") or {}).get("class") == "literal":
            assert f"`{record['id']}`" not in errata_part, record["id"]
