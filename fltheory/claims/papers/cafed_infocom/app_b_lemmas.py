"""App. B — Lemmas 2 and 3 in the INFOCOM 2023 version of CA-Fed (seed ``001_4d8faa0e7730b5d7.txt``,
``l.N`` its lines): aliases of the journal version's claims.

Statements whose formulas are lost in this extraction are registered as aliases
(:func:`._common.register_alias`): non-executable claims whose reason names what the INFOCOM text
would need and the ``cafed:`` claim of the journal version that checks the same statement.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed-infocom:lemma2").executable
False
"""

from fltheory.claims.papers.cafed_infocom._common import register_alias

register_alias(
    "lemma2",
    "App. B",
    "Lemma 2 (heterogeneous availability)",
    (150, 153),
    "the statement of Lemma 2 and its bound (only its two proof ideas survive in words)",
    "cafed:lemma11-eq116-printed/-proved (the journal's Lemma 11)",
)

register_alias(
    "lemma3",
    "App. B",
    "Lemma 3 (optimisation error after J steps)",
    (154, 154),
    "the statement of Lemma 3 (an empty 'Lemma 3 (Optimization error after [J_t] steps).')",
    "cafed:lemma14-eq142-step and cafed:lemma15-eq147 (the journal's Lemmas 14–15)",
)
