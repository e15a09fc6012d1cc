"""§III-A — the mixing bound (5), Lemma 1 and the heterogeneity Γ of eq. (9) in the INFOCOM 2023
version of CA-Fed (seed ``001_4d8faa0e7730b5d7.txt``, ``l.N`` its lines): aliases of the journal
version's claims.

Statements whose formulas are lost in this extraction are registered as aliases
(:func:`._common.register_alias`): non-executable claims whose reason names what the INFOCOM text
would need and the ``cafed:`` claim of the journal version that checks the same statement.

>>> from fltheory.claims import CLAIMS
>>> "cafed:lemma1" in CLAIMS.get("cafed-infocom:lemma1").reason
True
"""

from fltheory.claims.papers.cafed_infocom._common import register_alias

register_alias(
    "eq5",
    "§III-A",
    "mixing bound (5) and footnote 3",
    (34, 36),
    "eq. (5), max_{i,j}|[P^t]_{ij} − ρ_j| ≤ C_Pλ(P)^t for t ≥ T_P, and the definition of λ(P) "
    "(lost at l.35)",
    "cafed:lemma16-eq5 and cafed:footnote3-lambda-choice-a/-b",
)

register_alias(
    "lemma1",
    "§III-A, App. B",
    "Lemma 1 (D, G, H)",
    (47, 49),
    "the statements (6)–(8) (l.48 is an empty 'Lemma 1.')",
    "cafed:lemma1",
)

register_alias(
    "eq9-gamma",
    "§III-A",
    "heterogeneity Γ, eq. (9)",
    (49, 51),
    "eq. (9), Γ := max_k{F_k(w*) − F_k*} with this version's F_k* (the minimum on W, l.15)",
    "cafed:eq9-gamma; the INFOCOM reading of F_k* is checked by cafed-infocom:assumption2-on-w",
)
