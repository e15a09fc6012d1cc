"""CA-Fed (ToN, 002 App. B) — Theorem 2 as its proof supports it: eq. (13) with the two slips of
Lemmas 11 and 14 corrected (8L, and J_t in place of ln(2C_PHt)/ln(1/λ)), what Lemmas 11, 14, 15,
17, 18 and (185)–(187) prove.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:thm2-eq13-proved").margin(t2.NEGATIVE_BOUND) > 0
True
"""

from fltheory.claims.claim import register_claim
from fltheory.claims.finding import Reading
from fltheory.claims.papers.cafed import _theorem2 as t2

register_claim(
    "cafed:thm2-eq13-proved",
    "App. B",
    "what Lemmas 11, 14, 15, 17, 18 and (185)-(187) prove",
    (1173, 1215),
    "E[F_B(w̄_T) − F_B*] ≤ [(½qᵀΣq + υ)/πᵀq + ψ₈ + φ_proved]/Σ_{t≤T}η_t with ψ₈ = "
    "(8L(1+EQ)Γ + 2E²G²)Ση_t² + HΣ_{t<T_P}η_t and φ_proved = 2EDGQΣ_{t≤T}J_tη²_{t−J_t}",
    **t2.t2_fields(
        "proved",
        "The proof's arithmetic with its two slips corrected: 8L (Lemma 11, dividing (122) by E/2) "
        "and J_t instead of ln(2C_PHt)/ln(1/λ) (steps 141/154; eq. 211 of App. E uses J_t too). "
        "It still rests on Lemma 8 (false: cafed:lemma8-eq98) and eq. 158 for capped t, so it is "
        "'what the algebra gives', checked here against the exact error.",
    ),
    expected="holds",
    reading=Reading(
        quote="(141) … ≤ EDGQ(Σπ_kq_k)Σ_{t=t₀}^T J_tη²_{t−J_t}; (122)/(116): the factor of "
        "L(1 + EQ)Γ after dividing by E/2; (185)–(187) — 002 App. B",
        hypotheses=t2.T2_HYPOTHESES,
        interpretation="The bound the proof's own steps give before its slips (steps "
        "(142)/(155) and Lemma 11's factor). " + t2.ETA0,
    ),
)
