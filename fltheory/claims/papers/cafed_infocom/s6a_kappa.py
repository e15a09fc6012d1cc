"""§VI-A — CA-Fed reduces to Unbiased as κ̄² → ∞ in the INFOCOM 2023 version of CA-Fed (seed
``001_4d8faa0e7730b5d7.txt``, ``l.N`` its lines): an alias of the journal version's claims.

Statements whose formulas are lost in this extraction are registered as aliases
(:func:`._common.register_alias`): non-executable claims whose reason names what the INFOCOM text
would need and the ``cafed:`` claim of the journal version that checks the same statement.

>>> from fltheory.claims import CLAIMS
>>> "cafed:kappa-infinity" in CLAIMS.get("cafed-infocom:kappa-infinity").reason
True
"""

from fltheory.claims.papers.cafed_infocom._common import register_alias

register_alias(
    "kappa-infinity",
    "§VI-A",
    "as κ̄² → ∞ CA-Fed reduces to Unbiased",
    (124, 126),
    "the weighted proxy with κ̄² (l.124: 'we can introduce a hyper-parameter [κ̄²] that weights "
    "… in (14)', whose formula is lost); the words of the limit survive",
    "cafed:kappa-infinity and cafed:kappa-infinity-gamma-positive",
)
