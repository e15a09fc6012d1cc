"""CA-Fed (ToN, 002 App. B3) — Lemma 15, eq. (147) with C₁ of eq. (148): as printed, and where
2C_PH ≥ 1.

Executable on the exact trajectories of Theorem 2's instances (:mod:`._theorem2`): the left
side from the moment recursion, maximised over t₀; C₁/ln(1/λ) from the library's
:func:`fltheory.bounds.theorem2.theorem2_parts` and an independent series.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:lemma15-eq147").margin(t2.NEGATIVE_BOUND)
-1.0
"""

from fltheory.claims.claim import register_claim
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed import _theorem2 as t2
from fltheory.claims.papers.cafed._verify import verify_thm2

_LEMMA15_QUOTE = (
    "Lemma 15. … For any t₀ ≤ T, we have: (Σ_kπ_kq_k)Σ_{t=t₀}^T η_tE[F_B(w_{t,0}) − "
    "F_B(w_{t−J_t,0})] ≤ C₁/ln(1/λ(P)) (147), C₁ := EDGQ(Σ_kπ_kq_k)(Σ_{t≥1} ln(2C_PHt)"
    "η²_{t−J_t}) (148) — 002 App. B3, l.1036–1043"
)
_LEMMA15_NOTES = (
    "Executable on the exact trajectories of Theorem 2's instances: E[F_B(w_{t,0})] for every "
    "round from the moment recursion, the left side maximised over t₀ ∈ [1, T], w_{0,0} (met "
    "when J_t = t) read as the initial model w_{1,0}. C₁/ln(1/λ) = (πᵀq)φ/(2 ln(1/λ)) from "
    "bounds.theorem2.theorem2_parts (float margin) and the independent series (exact margin). "
    "The proof's step (155) uses J_t ≤ ln(2C_PHt)/ln(1/λ) (the step of Lemma 14 refuted as "
    "cafed:lemma14-eq142-step)."
)
register_claim(
    "cafed:lemma15-eq147",
    "App. B3",
    "Lemma 15, eq. (147)",
    (1036, 1049),
    "(Σ_kπ_kq_k)Σ_{t=t₀}^Tη_tE[F_B(w_{t,0}) − F_B(w_{t−J_t,0})] ≤ C₁/ln(1/λ(P)) for every "
    "t₀ ≤ T, C₁ = EDGQ(Σπ_kq_k)Σ_t ln(2C_PHt)η²_{t−J_t} (eq. 148)",
    **t2.t2_fields(
        "lemma15",
        f"{_LEMMA15_NOTES} REFUTED in the regime of cafed:thm2-eq13-printed-appendix: when "
        "2C_PH < 1 C₁ < 0, while the left side is 0 at t₀ = T whenever J_T = 0. Searched on "
        "the same small family.",
        regime="negative-phi",
    ),
    expected="refuted",
    reading=Reading(
        quote=_LEMMA15_QUOTE,
        hypotheses=t2.T2_HYPOTHESES,
        interpretation="As printed, for every t₀ ≤ T and the constants of Lemma 1 (the least "
        "ones included). " + t2.ETA0,
        alternatives="With 2C_PH ≥ 1: cafed:lemma15-eq147-2cph-ge-1 (holds).",
    ),
    finding=Finding(
        "error",
        "when 2C_PH < 1, C₁ of (148) is negative, while the left side of (147) is 0 for t₀ = T "
        "(J_T = 0 when ln(2C_PHT) ≤ 0): the bound is negative",
        severity="step",
        survives="no, not as stated: Theorem 2's (13) fails the same way "
        "(cafed:thm2-eq13-printed-appendix); with 2C_PH ≥ 1 the lemma held "
        "(cafed:lemma15-eq147-2cph-ge-1)",
    ),
    explain=t2.t2_explain("lemma15"),
    verify=verify_thm2,
)
register_claim(
    "cafed:lemma15-eq147-2cph-ge-1",
    "App. B3",
    "Lemma 15, eq. (147), with 2C_PH ≥ 1",
    (1036, 1049),
    "For 2C_PH ≥ 1: (Σ_kπ_kq_k)Σ_{t=t₀}^Tη_tE[F_B(w_{t,0}) − F_B(w_{t−J_t,0})] ≤ "
    "C₁/ln(1/λ(P)) for every t₀ ≤ T",
    **t2.t2_fields(
        "lemma15",
        f"{_LEMMA15_NOTES} Held (the right side sums over every t ≥ 1, the left over t₀ … T).",
        regime="2cph-ge-1",
    ),
    expected="holds",
    reading=Reading(
        quote=_LEMMA15_QUOTE,
        hypotheses=(*t2.T2_HYPOTHESES, Hypothesis("2C_PH ≥ 1 (J_t ≥ 1)", "rejected otherwise")),
        interpretation="The lemma where C₁ ≥ 0, as Definition 1's positive J_t presumes. "
        + t2.ETA0,
    ),
)
