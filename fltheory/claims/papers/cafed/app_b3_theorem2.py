"""CA-Fed (ToN, 002 App. B3) — Theorem 2, eq. (13) with eqs. (176)–(179) as the HAL appendix
prints it, the same where 2C_PH ≥ 1, and its proof's un-normalised form (185).

Instances and both sides: :mod:`._theorem2` (exact expectations; the library's
:func:`fltheory.bounds.theorem2.theorem2_parts` and an independent mpmath evaluation). The
finding behind the refutations: φ of eq. 179 is NEGATIVE when 2C_PH < 1 (the terms with
t ≤ 1/(2C_PH) have ln(2C_PHt) < 0 and J_t = 0), and just above ln(1/λ) = 2C_PH/e φ/ln(1/λ)
outweighs every other term, so ε̄_opt < 0 ≤ E[F_B(w̄_T) − F_B*]; the claims about that regime
search it (``regime="negative-phi"``).

>>> from fltheory.claims import CLAIMS
>>> claim = CLAIMS.get("cafed:thm2-eq13-printed-appendix")
>>> claim.margin(t2.NEGATIVE_BOUND) < 0 and claim.exact(t2.NEGATIVE_BOUND)[0] < 0
True
"""

from fltheory.claims.claim import register_claim
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed import _theorem2 as t2
from fltheory.claims.papers.cafed._verify import verify_thm2

_NEG_NOTE = (
    "REFUTED by a negative right-hand side: when 2C_PH < 1 the series of eq. 179 is negative "
    "(J_t = 0 and ln(2C_PHt) < 0 for t ≤ 1/(2C_PH)), and with ln(1/λ) a little above 2C_PH/e "
    "φ/ln(1/λ) ≈ η₁e·ln(2C_PH)ζ(2a)/(2C_P) outweighs the other terms (the smaller 2C_PH, the "
    "larger |ln(2C_PH)|). Nothing in Theorem 2 excludes 2C_PH < 1 (H is a sup of F_k − F_k* "
    "over W: small functions, small H). Steps (141)-(142) and (154)-(155) use J_t ≤ "
    "ln(2C_PHt)/ln(1/λ), false there (J_t = 0 > a negative ratio). Hand-checked example "
    "(NEGATIVE_BOUND): N = 1, π = 0.9, λ₂ = 2e^(−0.001) − 1 (ln(1/λ) = 10⁻³), σ = 0, q = √10, "
    "E = 16, η_t = 1/t at the eq. 12 cap (L = 1/(2(1 + 32√10)) = 0.0048927), F = ½Lw², "
    "w₀ = r = 0.45209 (L·r² = 10⁻³), W = B(0, 1.001r): D = G = 0.0022142, H = 5.0100e-4, "
    "Γ = 0, C_P = 2.5612, 2C_PH = 2.5664e-3. Then (½qᵀΣq + υ)/πᵀq = 1.8637, ψ = 0.0041289 "
    "but φ/ln(1/λ) = −4.3225 (the series of eq. 179 is −8.713), so ε̄_opt = −2.4547 < 0 for "
    "every T while E[F_B(w̄₁) − F_B*] = F_B(w₀) − F_B* = 5.0e-4 (exact margin −1.0002; the "
    "library clips the numerator to 0 with a warning). "
)

_APPENDIX_QUOTE = (
    "For T ≥ T_P, the expected optimization error E[F_B(w̄_{T,0}) − F_B*] can be bounded as "
    "follows: E[F_B(w̄_{T,0}) − F_B*] ≤ [(½qᵀΣq + υ)/πᵀq + ψ + φ/ln(1/λ(P))]/(Σ_{t=1}^T η_t) "
    "(13), Σ := diag(2(E+1)π_kσ_k²Σ_tη_t²) (176), υ := (2/E)diam(W)² + (MQ/4)Σ_t(η_t² + 1/t²) "
    "(177), ψ := 4L(1+EQ)ΓΣ_tη_t² + 2E²G²Σ_tη_t² + HΣ_{t<T_P}η_t (178), φ := 2EDGQ"
    "Σ_{t≥1} ln(2C_PHt)·η²_{t−J_t} (179), J_t := min{max{⌈ln(2C_PHt)/ln(1/λ(P))⌉, T_P}, t} "
    "(132, 'the positive integer J_t') — 002 App. B3, l.1152–1171"
)

register_claim(
    "cafed:thm2-eq13-printed-appendix",
    "App. B3",
    "Theorem 2, eq. (13) with eqs. (176)-(179)",
    (1152, 1171),
    "E[F_B(w̄_T) − F_B*] ≤ [(½qᵀΣq + υ)/πᵀq + ψ + φ/ln(1/λ(P))]/Σ_{t≤T}η_t (the library's reading)",
    **t2.t2_fields(
        "printed-appendix",
        _NEG_NOTE + "Code path: bounds.theorem2.theorem2_parts (unclipped numerator). Searched on "
        "the mechanism's simplest instances (_cafed_chainrun.negative_phi_params: one client, "
        "d = 1, F = ½Lw², no noise, L·r² ∈ [10⁻⁵, 10⁻¹], ln(1/λ) = 10^lc·2C_PH/e, lc ∈ (0, ½]); "
        "the failure occurs as well with N ≤ 3, d = 2, noise (the search of the whole family "
        "found such instances), but the small family lets the moderate search reach λ₂ ≈ 0.99.",
        regime="negative-phi",
    ),
    expected="refuted",
    reading=Reading(
        quote=_APPENDIX_QUOTE,
        hypotheses=t2.T2_HYPOTHESES,
        interpretation="As printed in the HAL appendix, for the constants of Lemma 1 — which "
        "only asserts that some D, G, H exist, so the statement must hold for each admissible "
        "choice, the least one included. " + t2.ETA0 + " The theorem states no lower bound on "
        "2C_PH; when 2C_PH < 1 (small losses: H scales with F_k), ln(2C_PHt) < 0 and J_t = 0 "
        "for t < 1/(2C_PH) (not the 'positive integer' Definition 1 calls it), φ < 0, and "
        "with ln(1/λ) a little above 2C_PH/e the bound is negative. Step (142) uses J_t ≤ "
        "ln(2C_PHt)/ln(1/λ), false there.",
        alternatives="With 2C_PH ≥ 1 (H enlarged, which Lemma 1 permits): "
        "cafed:thm2-eq13-appendix-2cph-ge-1 (holds); with the ToN copy's φ and the "
        "division: cafed:thm2-eq13-000-divided (holds); the proof's J_t in place of "
        "ln(2C_PHt)/ln(1/λ): cafed:thm2-eq13-proved (holds).",
    ),
    finding=Finding(
        "error",
        "when 2C_PH < 1, φ of eq. (179) is negative and the bound (13) can be negative (e.g. "
        "λ₂ ≈ 0.99, H ≈ 0.002); it holds once 2C_PH ≥ 1, a hypothesis Definition 1's "
        "'positive integer J_t' presumes but the theorem does not state",
        severity="result",
    ),
    explain=t2.t2_explain("appendix"),
    verify=verify_thm2,
)
register_claim(
    "cafed:thm2-eq13-appendix-2cph-ge-1",
    "App. B3",
    "Theorem 2, eq. (13), with 2C_PH ≥ 1 (J_t ≥ 1)",
    (1152, 1171),
    "For 2C_PH ≥ 1: E[F_B(w̄_T) − F_B*] ≤ [(½qᵀΣq + υ)/πᵀq + ψ + φ/ln(1/λ(P))]/Σ_{t≤T}η_t",
    **t2.t2_fields(
        "printed-appendix",
        "The HAL appendix's form with the hypothesis its Definition 1 presumes (J_t a positive "
        "integer, i.e. ln(2C_PHt) ≥ 0 for every t ≥ 1; since Lemma 1 only asserts that some H "
        "exists, it can always be met by enlarging H). Same code path as "
        "cafed:thm2-eq13-printed-appendix; instances with 2C_PH < 1 are rejected by the space. "
        "Held with a wide slack (the bound exceeds the exact error by ≥ 50× on the instances "
        "seen), although step (142) is unproved (J_t ≥ ln(2C_PHt)/ln(1/λ)) and Lemma 11 gives "
        "8L where ψ has 4L.",
        regime="2cph-ge-1",
    ),
    expected="holds",
    reading=Reading(
        quote=_APPENDIX_QUOTE,
        hypotheses=(*t2.T2_HYPOTHESES, Hypothesis("2C_PH ≥ 1 (J_t ≥ 1)", "rejected otherwise")),
        interpretation="The printed bound where φ ≥ 0, the regime the authors evidently had "
        "in mind. " + t2.ETA0,
    ),
)
register_claim(
    "cafed:thm2-proof-eq185",
    "App. B3",
    "Theorem 2's proof, eq. (185)",
    (1200, 1215),
    "(πᵀq)Σ_{t≤T}η_tE[F_B(w_t) − F_B*] ≤ 2C₁/ln(1/λ) + C₂ + C₃ (= πᵀq × the numerator of eq. 13)",
    **t2.t2_fields(
        "eq185",
        _NEG_NOTE + "Same mechanism as eq. 13: 2C₁/ln(1/λ) < 0 outweighs C₂ + C₃. Searched on the "
        "same small family as cafed:thm2-eq13-printed-appendix.",
        regime="negative-phi",
    ),
    expected="refuted",
    reading=Reading(
        quote="(Σ_kπ_kq_k)Σ_{t=1}^T η_tE[F_B(w_{t,0}) − F_B*] ≤ 2C₁/ln(1/λ(P)) + C₂ + C₃ (185), "
        "C₁ := EDGQ(Σπ_kq_k)(Σ_t ln(2C_PHt)η²_{t−J_t}) (181) — 002 App. B3, l.1200–1206",
        hypotheses=t2.T2_HYPOTHESES,
        interpretation="The proof's step (185), the un-normalised form of (13), for the "
        "constants of Lemma 1 (the least ones included). " + t2.ETA0,
        alternatives="The theorem it leads to: cafed:thm2-eq13-printed-appendix.",
    ),
    finding=Finding(
        "error",
        "when 2C_PH < 1, C₁ of (181) is negative and (185)'s right side can be negative while "
        "its left side is not: the sum Σ ln(2C_PHt)η²_{t−J_t} has negative terms",
        severity="step",
        survives="no, not as stated: (13) fails the same way (cafed:thm2-eq13-printed-appendix); "
        "with 2C_PH ≥ 1 it held (cafed:thm2-eq13-appendix-2cph-ge-1)",
    ),
    explain=t2.t2_explain("eq185"),
    verify=verify_thm2,
)
