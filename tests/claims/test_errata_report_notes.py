"""The errata reports carry each finding's notes (why it fails, which reading was implemented):
the generator on a few stored findings, and a note's symbols shown as text in the HTML."""

import json
from pathlib import Path

from fltheory.claims.errata_report import paper_report_html, paper_report_markdown
from fltheory.claims.finding import ERRATA_CLASSES

ROOT = Path(__file__).resolve().parents[2]
RESULTS = json.loads((ROOT / "docs" / "check_results.json").read_text())
ERRATA = [
    c
    for c in RESULTS["claims"]
    if c["verdict"] == "refuted" and (c.get("finding") or {}).get("class") in ERRATA_CLASSES
]


def _few(paper: str) -> dict:
    mine = [c for c in ERRATA if c["id"].startswith(paper + ":")][:3]
    assert mine and all(c["notes"] for c in mine)
    return {"claims": mine, "summary": RESULTS["summary"]}


def test_the_markdown_report_shows_each_findings_notes():
    results = _few("cafed")
    text = paper_report_markdown(results, "cafed")
    for c in results["claims"]:
        notes = " ".join(c["notes"].split())
        assert f"**Notes.** {notes}" in text, c["id"]
        # under its own heading: after the claim's h3, before the next one
        section = text.split(f"### {c['id']} ", 1)[1].split("\n### ", 1)[0]
        assert notes in section, c["id"]


def test_the_html_report_shows_each_findings_notes_as_text():
    results = _few("fedpbc")
    page = paper_report_html(results, "fedpbc")
    for c in results["claims"]:
        assert "<p><strong>Notes.</strong> " in page
        assert " ".join(c["notes"].split()).split("(", 1)[0][:40] in page, c["id"]


def test_a_notes_symbols_are_not_markup():
    record = {
        "id": "fedar:demo",
        "source": "§1",
        "statement": "s",
        "verdict": "refuted",
        "finding": {"class": "error", "severity": "result", "why": "w"},
        "notes": "w* and F_B* <b>  differ;\n `x`",
    }
    results = {"claims": [record], "summary": {"seed": 0, "budget": "default"}}
    page = paper_report_html(results, "fedar")
    assert "<p><strong>Notes.</strong> w* and F_B* &lt;b&gt; differ; `x`</p>" in page
    assert "**Notes.** w* and F_B* <b> differ; `x`" in paper_report_markdown(results, "fedar")


def test_a_finding_without_notes_has_no_notes_paragraph():
    record = {
        "id": "fedar:demo",
        "source": "§1",
        "statement": "s",
        "verdict": "refuted",
        "finding": {"class": "error", "severity": "result", "why": "w"},
        "notes": "",
    }
    results = {"claims": [record], "summary": {}}
    assert "Notes." not in paper_report_markdown(results, "fedar")
