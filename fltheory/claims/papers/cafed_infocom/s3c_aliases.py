"""§III-C — the total-error problem, the divergence of bound (10) and Theorem 3 in the INFOCOM 2023
version of CA-Fed (seed ``001_4d8faa0e7730b5d7.txt``, ``l.N`` its lines): aliases of the journal
version's claims.

Statements whose formulas are lost in this extraction are registered as aliases
(:func:`._common.register_alias`): non-executable claims whose reason names what the INFOCOM text
would need and the ``cafed:`` claim of the journal version that checks the same statement.

>>> from fltheory.claims import CLAIMS
>>> "cafed:thm3-eq15" in CLAIMS.get("cafed-infocom:thm3-eq13").reason
True
"""

from fltheory.claims.papers.cafed_infocom._common import register_alias

register_alias(
    "problem-convex",
    "§III-C",
    "the total-error problem is convex",
    (60, 61),
    "the objective's bounds (10) and (12) (the problem's constraints q ≥ 0, ‖q‖₁ = Q survive, "
    "its objective is only named)",
    "cafed:problem14-convex-in-q and cafed:problem14-convex-reparametrised; App. D's ε_opt "
    "problem, legible here, is cafed-infocom:appd-convex",
)

register_alias(
    "eq10-divergence",
    "§III-C",
    "bound (10) diverges when some q_k = 0",
    (61, 61),
    "bound (10)–(11) (the χ² term that diverges)",
    "cafed:eq11-divergence",
)

register_alias(
    "thm3-eq13",
    "§III-C",
    "Theorem 3 (alternative decomposition)",
    (62, 65),
    "eq. (13) and the definition of Γ′ (the statement 'Under the same assumptions of Theorem "
    "1, let [Γ′]. The following result holds: (13)' survives without its formulas)",
    "cafed:thm3-eq15",
)
