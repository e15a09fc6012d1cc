"""§IV-B — the estimators (15)–(18) in the INFOCOM 2023 version of CA-Fed (seed
``001_4d8faa0e7730b5d7.txt``, ``l.N`` its lines): an alias of the journal version's claims.

Statements whose formulas are lost in this extraction are registered as aliases
(:func:`._common.register_alias`): non-executable claims whose reason names what the INFOCOM text
would need and the ``cafed:`` claim of the journal version that checks the same statement.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed-infocom:estimators").executable
False
"""

from fltheory.claims.papers.cafed_infocom._common import register_alias

register_alias(
    "estimators",
    "§IV-B",
    "estimators (15)–(18)",
    (84, 93),
    "the filter (15) and the estimators (16)–(18) (empty placeholders); the Beta-prior π̂ and "
    "the eigenvalue λ̂ are described in words only",
    "cafed:eq16-20-estimators-proxy, -filter, -pi-hat and -lambda-hat",
)
