"""§VI-C — 'CA-Fed is intrinsically fair' in the INFOCOM 2023 version of CA-Fed (seed
``001_4d8faa0e7730b5d7.txt``, ``l.N`` its lines) (l.131–132), a definitional statement.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed-infocom:fairness").executable
False
"""

from fltheory.claims.claim import register_claim

register_claim(
    "cafed-infocom:fairness",
    "§VI-C",
    "CA-Fed is intrinsically fair",
    (131, 132),
    "If the global objective reflects fairness, CA-Fed is intrinsically fair: the performance "
    "objective of the learned model is as close as possible to its minimum.",
    reason="definitional/normative: 'fair' is defined as minimising the chosen objective, and "
    "'as close as possible' is not a property of the algorithm that an instance can refute.",
)
