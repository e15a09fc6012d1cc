"""Every claim id that a claim's statement, notes or reason mentions names a registered claim
(or a statement registered in several forms), so aliases cannot dangle."""

import re

import pytest

from fltheory.claims import CLAIMS
from fltheory.claims.claim import resolve
from fltheory.errors import InputError

REF = re.compile(r"\b((?:cafed-infocom|cafed|fedpbc|fedar):[a-z0-9][a-z0-9.\-]*[a-z0-9])", re.I)


def test_cross_references_resolve():
    dangling = []
    for claim in CLAIMS:
        text = " ".join(str(x) for x in (claim.reason or "", claim.notes or "", claim.statement))
        for ref in set(REF.findall(text)):
            try:
                resolve(ref)
            except InputError:
                dangling.append((claim.id, ref))
    assert not dangling


def test_the_reference_pattern_finds_a_dangling_id():
    with pytest.raises(InputError):
        resolve(REF.findall("see cafed:lemma99-eq1")[0])


def test_issue_ids_resolve():
    """The ids the issue names resolve, as a claim or as the family of its forms."""
    names = (
        "cafed:lemma1 cafed:thm1-eq11 cafed:thm2-eq13 cafed:thm3-eq15 cafed:lemma16-eq5 "
        "cafed:prop3 cafed:prop4 cafed:prop5 cafed:prop6 cafed:appD-prop1 cafed:appD-prop2 "
        "cafed:appE1-convex cafed:eq224-kkt cafed:appE2-monotone cafed:guideline-a "
        "cafed:guideline-b cafed:guideline-c cafed:eq236-238 cafed:hitting-time fedpbc:prop1 "
        "fedpbc:lemma1 fedpbc:lemma2 fedpbc:lemma3 fedpbc:remark2 fedpbc:thm1 fedar:eq6 "
        "fedar:thm1 fedar:thm2"
    ).split()
    for name in names:
        assert resolve(name), name
