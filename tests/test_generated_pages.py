"""docs/claims.md and docs/experiments.md are generated from the registries and the stored runs
and up to date; the listings name the module that defines each claim and experiment."""

import json
from dataclasses import replace
from pathlib import Path

from fltheory.claims import CLAIMS
from fltheory.claims.index import PAGE as CLAIMS_PAGE
from fltheory.claims.index import claims_markdown, module_path, section_prefix, stored_verdicts
from fltheory.cli.app import main
from fltheory.experiments.index import PAGE as EXPERIMENTS_PAGE
from fltheory.experiments.index import experiments_markdown, recorded_verdicts
from fltheory.experiments.model import all_experiments, module_of

ROOT = Path(__file__).resolve().parents[1]


def test_claims_page_is_up_to_date():
    assert CLAIMS_PAGE.read_text() == claims_markdown(), (
        "docs/claims.md is out of date: run python -m fltheory.claims.index"
    )


def test_experiments_page_is_up_to_date():
    assert EXPERIMENTS_PAGE.read_text() == experiments_markdown(), (
        "docs/experiments.md is out of date: run python -m fltheory.experiments.index"
    )


def test_every_claim_and_experiment_is_on_its_page():
    claims, experiments = CLAIMS_PAGE.read_text(), EXPERIMENTS_PAGE.read_text()
    assert all(f"| `{c.id}` |" in claims for c in CLAIMS)
    assert all(f"| `{e.id}` |" in experiments for e in all_experiments())


def test_the_pages_change_with_a_verdict():
    """The staleness check can fail: another stored verdict shows up in the generated pages."""
    flipped = {**stored_verdicts(), "cafed:lemma8-eq98": "holds"}
    assert claims_markdown(flipped) != CLAIMS_PAGE.read_text()
    record = {**recorded_verdicts(), ("cafed:fig1a", "paper"): "reproduced"}
    assert experiments_markdown(record) != EXPERIMENTS_PAGE.read_text()


def test_the_claims_page_changes_when_a_claim_is_added(request):
    claim = CLAIMS.get("fedar:eq4")
    extra = replace(claim, id="fedar:zz-added-for-this-test")
    CLAIMS.add(extra.id, extra, origin="fltheory.claims.papers.fedar.s4_rules")
    request.addfinalizer(lambda: CLAIMS.unregister(extra.id))
    page = claims_markdown()
    assert "| `fedar:zz-added-for-this-test` |" in page and page != CLAIMS_PAGE.read_text()


def test_the_verdicts_are_the_stored_ones():
    stored = json.loads((ROOT / "docs" / "check_results.json").read_text())["claims"]
    refuted = [c["id"] for c in stored if c["verdict"] == "refuted"]
    lines = CLAIMS_PAGE.read_text().splitlines()
    rows = {line.split(" | ")[0].strip("| `"): line for line in lines}
    assert refuted and all(" | refuted | " in rows[i] for i in refuted)


def test_every_defining_module_is_a_public_module_of_its_package():
    for c in CLAIMS:
        path = ROOT / module_path(CLAIMS.origin(c.id))
        assert path.parent.parent == ROOT / "fltheory/claims/papers" and path.is_file(), c.id
        assert path.parent.name == c.paper.replace("-", "_"), c.id  # the paper's package
        assert not path.name.startswith("_"), c.id  # a paper module, not a helper
    for e in all_experiments():
        path = ROOT / module_path(module_of(e.id))
        assert path.parent == ROOT / "fltheory/experiments/catalog" and e.id in path.read_text()


def test_the_listings_name_the_module(capsys):
    assert main(["check", "--list", "--json", "--paper", "fedar"]) == 0
    listed = json.loads(capsys.readouterr().out)["claims"]
    assert {c["module"] for c in listed} == {
        f"fltheory.claims.papers.fedar.{module}"
        for module in (
            "s2_table1",
            "s3_2_motivation",
            "s4_rules",
            "s5_1_theorem1",
            "s5_2_theorem2",
            "s6_2_experiments",
        )
    }
    assert main(["reproduce", "--list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["experiments"]
    by_id = {r["id"]: r["module"] for r in rows}
    assert by_id["cafed:fig2a"] == "fltheory.experiments.catalog.cafed_fig2"
    assert main(["check", "--list", "--paper", "fedar"]) == 0
    assert "papers/fedar/s5_1_theorem1.py" in capsys.readouterr().out


def test_every_claims_notes_are_on_the_claims_page():
    page = CLAIMS_PAGE.read_text()
    with_notes = [c for c in CLAIMS if c.notes.strip()]
    assert len(with_notes) > 100  # the papers' claims carry their notes
    missing = [c.id for c in with_notes if f"- `{c.id}` — {' '.join(c.notes.split())}" not in page]
    assert missing == [], "docs/claims.md lacks these notes: run python -m fltheory.claims.index"


def test_the_claims_page_changes_with_a_note(request):
    """The page shows the notes of the registry as it is: another note, another page."""
    claim, origin = CLAIMS.get("fedar:eq4"), CLAIMS.origin("fedar:eq4")

    def restore() -> None:
        CLAIMS.unregister(claim.id)
        CLAIMS.add(claim.id, claim, origin=origin)

    CLAIMS.unregister(claim.id)
    request.addfinalizer(restore)
    CLAIMS.add(claim.id, replace(claim, notes="A new reading."), origin=origin)
    page = claims_markdown()
    assert "- `fedar:eq4` — A new reading." in page and page != CLAIMS_PAGE.read_text()


def test_a_claims_module_is_named_after_the_section_that_prints_it():
    """fltheory/claims/papers/<paper>/<prefix>_<topic>.py with <prefix> = section_prefix(section):
    a statement's file follows from where the paper prints it."""
    misplaced = [
        (c.id, CLAIMS.origin(c.id))
        for c in CLAIMS
        if not CLAIMS.origin(c.id)
        .rsplit(".", 1)[1]
        .startswith(section_prefix(c.source.section) + "_")
    ]
    assert misplaced == []
