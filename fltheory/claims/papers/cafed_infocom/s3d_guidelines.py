"""§III-D — the KKT form (27) and Guidelines A and B in the INFOCOM 2023 version of CA-Fed (seed
``001_4d8faa0e7730b5d7.txt``, ``l.N`` its lines): aliases of the journal version's claims.

Statements whose formulas are lost in this extraction are registered as aliases
(:func:`._common.register_alias`): non-executable claims whose reason names what the INFOCOM text
would need and the ``cafed:`` claim of the journal version that checks the same statement.

>>> from fltheory.claims import CLAIMS
>>> "cafed:guideline-a" in CLAIMS.get("cafed-infocom:guideline-a").reason
True
"""

from fltheory.claims.papers.cafed_infocom._common import register_alias

register_alias(
    "kkt-eq27",
    "§III-D, App. D",
    "KKT form: smaller π_k may get q_k* = 0",
    (68, 174),
    "the KKT conditions (27) and the form q_k* = a(ι*π_k − θ*) they give (l.68 and l.174 keep "
    "only 'the clients with smaller [π_k] may have [q_k* = 0]')",
    "cafed:eq224-kkt-appendix/-main/-degenerate and cafed:appe2-monotone",
)

register_alias(
    "guideline-a",
    "§III-D",
    "Guideline A",
    (69, 70),
    "the optimum (27) that motivates it ('exclude, i.e. set [q_k = 0], the clients with lowest "
    "availability [π_k]')",
    "cafed:guideline-a",
)

register_alias(
    "guideline-b",
    "§III-D",
    "Guideline B (two-state independent clients)",
    (71, 74),
    "the reduced chain P′ = ⊗_{q_k>0}P_k and λ(P′) = max_{q_k>0} λ(P_k) (lost at l.73)",
    "cafed:guideline-b-lambda (holds) and cafed:guideline-b-bound (literal)",
)
