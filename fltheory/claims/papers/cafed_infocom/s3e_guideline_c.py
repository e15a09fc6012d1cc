"""§III-E — Guideline C in the INFOCOM 2023 version of CA-Fed (seed ``001_4d8faa0e7730b5d7.txt``,
``l.N`` its lines): an alias of the journal version's claims.

Statements whose formulas are lost in this extraction are registered as aliases
(:func:`._common.register_alias`): non-executable claims whose reason names what the INFOCOM text
would need and the ``cafed:`` claim of the journal version that checks the same statement.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed-infocom:guideline-c").executable
False
"""

from fltheory.claims.papers.cafed_infocom._common import register_alias

register_alias(
    "guideline-c",
    "§III-E",
    "Guideline C",
    (76, 77),
    "the weights' formula q_k ∝ α_k/π_k and the bias term it minimises (lost at l.76)",
    "cafed:guideline-c-tv, cafed:guideline-c-eps-bar-prime and cafed:guideline-c-eps-bias",
)
