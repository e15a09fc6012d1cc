"""App. B3 — eqs. (23)–(25) in the INFOCOM 2023 version of CA-Fed (seed
``001_4d8faa0e7730b5d7.txt``, ``l.N`` its lines): aliases of the journal version's claims.

Statements whose formulas are lost in this extraction are registered as aliases
(:func:`._common.register_alias`): non-executable claims whose reason names what the INFOCOM text
would need and the ``cafed:`` claim of the journal version that checks the same statement.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed-infocom:eq23").executable
False
"""

from fltheory.claims.papers.cafed_infocom._common import register_alias

register_alias(
    "eq23",
    "App. B3",
    "eq. (23)",
    (160, 161),
    "eq. (23), which combines the definition of J_t with (5) (the journal's eq. 158)",
    "cafed:lemma16-eq158-printed/-corrected",
)

register_alias(
    "eq24-25",
    "App. B3",
    "eqs. (24)–(25)",
    (162, 166),
    "the lower bound (24) and its summed form (25) (the journal's (166)–(171) and (163))",
    "cafed:lemma18-eq163-step171 (step error) and cafed:lemma18-eq163",
)
