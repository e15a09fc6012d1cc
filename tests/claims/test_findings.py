"""Every refutation is a finding a careful reviewer would sign: each claim expected to be refuted
records its reading and a classified finding; each error, typo and version explains its
instance in the paper's quantities and has a standalone ``verify`` for the errata scripts; the
intended form named by a typo (or a literal variant) is registered and holds."""

import pytest

from fltheory.claims import CLAIMS
from fltheory.claims.errata_script import standalone_source
from fltheory.claims.finding import ERRATA_CLASSES

REFUTED = [c for c in CLAIMS if c.executable and c.expected == "refuted"]
ERRATA = [c for c in REFUTED if c.finding is not None and c.finding.cls in ERRATA_CLASSES]


@pytest.mark.parametrize("claim", REFUTED, ids=lambda c: c.id)
def test_a_refuted_claim_has_a_reading_and_a_finding(claim):
    assert claim.reading is not None, f"{claim.id}: refuted without a reading"
    assert claim.reading.interpretation, f"{claim.id}: the reading does not argue its choice"
    assert claim.finding is not None, f"{claim.id}: refuted without a finding"


@pytest.mark.parametrize("claim", ERRATA, ids=lambda c: c.id)
def test_an_erratum_explains_itself_and_verifies_standalone(claim):
    assert claim.explain is not None, f"{claim.id}: no explanation in the paper's quantities"
    assert claim.verify is not None, f"{claim.id}: no standalone verify"
    standalone_source(claim.verify)  # raises NotStandalone


@pytest.mark.parametrize(
    "claim", [c for c in REFUTED if c.finding is not None and c.finding.intended],
    ids=lambda c: c.id,
)  # fmt: skip
def test_the_intended_form_is_registered_and_holds(claim):
    intended = CLAIMS.get(claim.finding.intended)
    assert intended.expected == "holds", f"{claim.id}: its intended form {intended.id} fails"


def test_no_claim_other_than_a_refuted_one_has_a_finding():
    assert not [c.id for c in CLAIMS if c.finding is not None and c.expected != "refuted"]
