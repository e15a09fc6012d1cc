"""§IV-C — the computation and communication cost in the INFOCOM 2023 version of CA-Fed (seed
``001_4d8faa0e7730b5d7.txt``, ``l.N`` its lines): an alias of the journal version's claim.

Statements whose formulas are lost in this extraction are registered as aliases
(:func:`._common.register_alias`): non-executable claims whose reason names what the INFOCOM text
would need and the ``cafed:`` claim of the journal version that checks the same statement.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed-infocom:cost").executable
False
"""

from fltheory.claims.papers.cafed_infocom._common import register_alias

register_alias(
    "cost",
    "§IV-C",
    "computation and communication cost",
    (94, 97),
    "a cost model with numbers (the text is qualitative: 'roughly [3×] more calculations')",
    "cafed:apph1-cost (not executable there either)",
)
