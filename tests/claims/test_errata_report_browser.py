"""The per-paper errata reports (docs/errata/<paper>/report.html) as a reader sees them:
headless Chromium at desktop width, no console errors, one heading per finding about the paper,
the moderate witness shown with both sides, no literal reading among the findings. Skipped, with
the reason, where Chromium is missing (the ``chromium`` fixture of tests/conftest.py)."""

import json
from pathlib import Path

import pytest

from fltheory.claims.finding import ERRATA_CLASSES
from fltheory.papers import PAPERS

ROOT = Path(__file__).resolve().parents[2]
RESULTS = json.loads((ROOT / "docs" / "check_results.json").read_text())


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_errata_report_renders(paper, chromium, tmp_path):
    page = ROOT / "docs" / "errata" / paper / "report.html"
    chromium.get(page.resolve().as_uri())
    errata = [
        c["id"]
        for c in RESULTS["claims"]
        if c["id"].split(":", 1)[0] == paper
        and c["verdict"] == "refuted"
        and (c.get("finding") or {}).get("class") in ERRATA_CLASSES
    ]
    headings = [h.text for h in chromium.find_elements("tag name", "h3")]
    for claim_id in errata:
        assert any(h.startswith(claim_id + " ") for h in headings), f"{claim_id} not shown"
    h1 = chromium.find_element("tag name", "h1").text
    assert h1.startswith("Errata report")
    text = chromium.find_element("tag name", "body").text
    if errata:
        assert "is FALSE: the statement fails here" in text
    severe = [e for e in chromium.get_log("browser") if e.get("level") == "SEVERE"]
    assert not severe, f"console errors: {severe}"
    assert chromium.execute_script("return document.documentElement.clientWidth;") >= 1000
    shot = tmp_path / f"errata_{paper}.png"
    assert chromium.save_screenshot(str(shot)) and shot.stat().st_size > 5_000
