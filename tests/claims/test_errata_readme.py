"""The README's findings in brief, docs/findings.md and docs/errata/ are the ones generated from
docs/check_results.json,
and that file is the output of a run over the registry as it is now: every registered claim
appears in it with the verdict its search is expected to reach, and every refutation carries its
classified finding (regenerate with paper_checks/run_all.py)."""

import json
from pathlib import Path

import pytest

from fltheory.claims import CLAIMS
from fltheory.claims.errata import (
    END,
    FINDINGS_PAGE,
    START,
    errata_files,
    findings_page,
    findings_summary,
    main,
)
from fltheory.claims.finding import ERRATA_CLASSES

ROOT = Path(__file__).resolve().parents[2]
RESULTS = json.loads((ROOT / "docs" / "check_results.json").read_text())
REFUTED = [c for c in RESULTS["claims"] if c["verdict"] == "refuted"]
STALE = "stale: run python paper_checks/run_all.py"


def _readme_block() -> str:
    readme = (ROOT / "README.md").read_text()
    return readme.split(START, 1)[1].split(END, 1)[0]


def _page() -> str:
    return (ROOT / FINDINGS_PAGE).read_text()


def test_readme_summary_is_generated():
    assert _readme_block().strip() == findings_summary(RESULTS).strip(), f"README errata {STALE}"


def test_findings_page_is_generated():
    assert _page() == findings_page(RESULTS), f"{FINDINGS_PAGE} {STALE}"


def test_the_readme_summary_counts_and_links():
    block = _readme_block()
    errors = [r for r in REFUTED if (r["finding"]["class"], r["finding"].get("severity")) == (
        "error", "result")]  # fmt: skip
    assert errors and all(f"- `{r['id']}` — " in block for r in errors)
    meaning = "a result's conclusion fails under the paper's own hypotheses"
    assert f"| error (result) | {meaning} | {len(errors)} |" in block
    assert f"[{FINDINGS_PAGE}]({FINDINGS_PAGE})" in block


def test_every_refuted_claims_notes_are_on_the_findings_page():
    page = _page()
    for record in REFUTED:
        assert record["notes"], record["id"]
        assert f"- `{record['id']}` — {' '.join(record['notes'].split())}" in page, record["id"]


def test_the_generator_writes_the_readme_the_page_and_the_errata(tmp_path):
    """``python -m fltheory.claims.errata`` (as paper_checks/run_all.py does) writes all three."""
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\n{START}\nold\n{END}\n\nrest\n")
    page, errata = tmp_path / "findings.md", tmp_path / "errata"
    argv = [str(ROOT / "docs" / "check_results.json"), str(readme), str(errata), str(page)]
    assert main(argv) == 0
    assert readme.read_text() == f"# x\n\n{START}\n{findings_summary(RESULTS)}\n{END}\n\nrest\n"
    assert page.read_text() == findings_page(RESULTS)
    assert (errata / "fedar" / "report.md").is_file()


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
    assert f"| `{record['id']}` |" in _page() or f"- `{record['id']}` — " in _page()


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
    errata_part = _page().split("**Not findings about the papers**", 1)[0]
    for record in REFUTED:
        if (record.get("finding") or {}).get("class") == "literal":
            assert f"`{record['id']}`" not in errata_part, record["id"]
