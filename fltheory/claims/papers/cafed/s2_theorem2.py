"""CA-Fed (ToN, §II) — scheme (2)–(3) with a server rate η̄: Theorem 2 (eq. 13, appendix form)
read with the effective weights η̄q (reading R1), where 2C_PH ≥ 1.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:thm2-eq13-eta-bar").space.valid(t2.NEGATIVE_BOUND)
False
"""

from fltheory.claims.claim import register_claim
from fltheory.claims.finding import Hypothesis, Reading
from fltheory.claims.papers.cafed import _theorem2 as t2
from fltheory.claims.space import Real

register_claim(
    "cafed:thm2-eq13-eta-bar",
    "§II",
    "scheme (2)-(3) with server rate η̄ and Theorem 2 read with q ← η̄q (R1)",
    (60, 70),
    "For scheme (3) with server rate η̄ and 2C_PH ≥ 1: E[F_B(w̄_T) − F_B*] ≤ ε̄_opt(η̄q) "
    "(appendix form, Q = η̄Σq in eq. 12 and in the bound; p unchanged)",
    **t2.t2_fields(
        "eta-bar",
        "The appendix proves Theorem 2 for η̄ = 1 (App. B's eq. 2 aggregates without η̄); for a "
        "server rate η̄ the update is the η̄ = 1 update with q ← η̄q, which is the reading checked "
        "(η̄ ∈ [0.1, 10]). Searched where 2C_PH ≥ 1, so that the reading R1 is what is tested: "
        "below, the HAL φ is negative whatever η̄ (cafed:thm2-eq13-printed-appendix). Held.",
        extra=[Real("leb", -1.0, 1.0, special=(0.0,))],
        regime="2cph-ge-1",
    ),
    expected="holds",
    reading=Reading(
        quote="w_{t+1,0} = Proj_W(w_{t,0} + η̄·Δ_t) (3), η̄ > 0 the server learning rate (l.64); "
        "App. B (eq. 2 there) aggregates with η̄ = 1; Theorem 2's bound does not mention η̄",
        hypotheses=(*t2.T2_HYPOTHESES, Hypothesis("2C_PH ≥ 1", "rejected otherwise")),
        interpretation="Theorem 2 for a server rate η̄, read as the η̄ = 1 theorem with the "
        "effective weights η̄q (the scheme is literally that one). " + t2.ETA0,
    ),
)
