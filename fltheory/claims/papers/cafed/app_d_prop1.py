"""CA-Fed (ToN) App. D — Proposition 1: χ²(α‖p(q)) is not convex over ℝ^N_{>0} (refuted at
N = 1, holds for N ≥ 2), the proof's witness of eqs. (194)–(198) (refuted at uniform α, holds
for every non-uniform α), and the quasi-convexity of each summand g_k∘h_k (l.1262–1270).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:appd-prop1-n-ge-2").expected
'holds'
"""

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.explain import dec
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed._weights import (
    PROP1_HYPOTHESES,
    TINY,
    ZETA,
    as_floats,
    chi2,
    chi2_fr,
    dec_list,
    fr_unit,
    mix,
    pi_param,
    pis,
    require_finite,
    unit_sum,
)
from fltheory.claims.space import Instance, Integer, Real, Simplex, Space

#: Scales c of the homogeneity witness of Prop. 1 (q′ = c·q₁).
WITNESS_SCALES = (1e1, 1e3, 1e6)


PROP1_NOTES = (
    "Witness by homogeneity (χ²(cq) = χ²(q)): q₀ = α/π (χ² = 0), q₁ = p₁/π with p₁ = "
    "(α + e_j)/2, j = argmin α, and q′ = c·q₁ for c ∈ {1e1, 1e3, 1e6}; convexity needs "
    "χ²(½q₀ + ½q′) ≤ ½χ²(q₁), but the left side tends to χ²(q₁) > 0 as c grows. Margin: the "
    "best relative violation (χ²(mid) − rhs)/(χ²(mid) + rhs) > 0 when a witness is found, −1 "
    "when none exists. For N = 1, p ≡ 1 = α, so χ² ≡ 0 is convex and Prop. 1 is false: the "
    "falsifier's counterexample is N = 1 (exact margin −1). Exact: the same witness in "
    "Fractions. The proof's own witness is the claim cafed:appd-prop1-witness."
)


def _prop1_margin(inst: Instance) -> float:
    alpha, pi = unit_sum(inst["alpha"]), pis(inst)
    q0 = alpha / pi
    p1 = 0.5 * alpha
    p1[int(np.argmin(alpha))] += 0.5
    q1 = p1 / pi
    require_finite(*q0, *q1)  # πᵀq₀ = πᵀq₁ = 1: c·q₁ dominates q₀ in p once c ≫ 1
    f0 = chi2(alpha, pi, q0)
    best = -1.0
    for c in WITNESS_SCALES:
        lhs, rhs = (
            chi2(alpha, pi, 0.5 * q0 + 0.5 * c * q1),
            0.5 * f0 + 0.5 * chi2(alpha, pi, c * q1),
        )
        require_finite(lhs, rhs)
        if lhs > rhs:
            best = max(best, (lhs - rhs) / (lhs + rhs))
    return best


def _prop1_exact(inst: Instance) -> tuple[Any, str]:
    alpha, pi = fr_unit(inst["alpha"]), dec_list(inst["pi"])
    q0 = [a / p for a, p in zip(alpha, pi, strict=True)]
    j = min(range(len(alpha)), key=lambda k: alpha[k])
    p1 = [a / 2 + (Fraction(1, 2) if k == j else 0) for k, a in enumerate(alpha)]
    q1 = [a / p for a, p in zip(p1, pi, strict=True)]
    f0 = chi2_fr(alpha, pi, q0)
    best = Fraction(-1)
    for c in WITNESS_SCALES:
        cq1 = [Fraction(c) * x for x in q1]
        lhs = chi2_fr(alpha, pi, mix(Fraction(1, 2), q0, cq1))
        rhs = f0 / 2 + chi2_fr(alpha, pi, cq1) / 2
        if lhs > rhs:
            best = max(best, (lhs - rhs) / (lhs + rhs))
    return best, "exact rationals (the same witness)"


PROP1_SPACE = Space([Integer("n", 1, 40), pi_param(), Simplex("alpha", "n")])

PROP1_QUOTE = "Proposition 1. The function χ²_{α‖p}(q) is not convex over ℝ^N_{>0}."

register_claim(
    "cafed:appd-prop1",
    "App. D",
    "Proposition 1",
    (1272, 1300),
    "χ²(α‖p(q)), p = π⊙q/πᵀq, is not convex over ℝ^N_{>0} (any N ≥ 1, π ∈ (0, 1]^N, α in "
    "the simplex).",
    space=PROP1_SPACE,
    margin=_prop1_margin,
    exact=_prop1_exact,
    notes=PROP1_NOTES,
    expected="refuted",
    reading=Reading(
        quote=PROP1_QUOTE,
        hypotheses=(
            *PROP1_HYPOTHESES,
            Hypothesis("N clients", "N ∈ [1, 40]: this variant admits N = 1"),
        ),
        interpretation="Literal: for every N ≥ 1, π and α, N = 1 included. Not the "
        "authors' meaning: with one client p ≡ 1 = α for every q, so χ² ≡ 0 and there is "
        "nothing to aggregate or to weigh; the paper's model aggregates N clients (its "
        "experiments use N = 100), and the proof itself exhibits non-convexity for one "
        "configuration (π = 1, l.1280), i.e. reads the proposition as 'χ² is not convex "
        "in general' — its witness (197)–(198) compares N(1/N − α_k)² with half of it, "
        "which is 0 = 0 at N = 1.",
        alternatives="Every N ≥ 2, every π and α: cafed:appd-prop1-n-ge-2 (holds).",
    ),
    finding=Finding(
        "literal",
        "fails only for N = 1, where p ≡ α and χ² ≡ 0 (no aggregation); for every N ≥ 2, π "
        "and α, χ² is not convex (cafed:appd-prop1-n-ge-2 holds)",
        intended="cafed:appd-prop1-n-ge-2",
    ),
)

register_claim(
    "cafed:appd-prop1-n-ge-2",
    "App. D",
    "Proposition 1, N ≥ 2",
    (1272, 1300),
    "For N ≥ 2, χ²(α‖p(q)) is not convex over ℝ^N_{>0}.",
    space=Space([Integer("n", 2, 40), pi_param(), Simplex("alpha", "n")]),
    margin=_prop1_margin,
    exact=_prop1_exact,
    notes=PROP1_NOTES + " With N ≥ 2 a witness always exists: TRUE.",
    expected="holds",
    reading=Reading(
        quote=PROP1_QUOTE,
        hypotheses=(
            *PROP1_HYPOTHESES,
            Hypothesis(
                "N ≥ 2 clients (federated aggregation)",
                "N ∈ [2, 40] (the witness does not depend on N; 40 bounds the cost)",
            ),
        ),
        interpretation="For every N ≥ 2, π and α a witness of non-convexity exists — "
        "stronger than the proof's one configuration (π = 1, non-uniform α), so it covers "
        "every reading of 'is not convex'.",
    ),
)


def _prop1_paper_witness(inst: Instance) -> float:
    """The proof's witness (197)–(198) on the whole sum: π = 1, q = α, q′ = (Q/N)1, ζ = ½."""
    alpha = unit_sum(inst["alpha"])
    n, big = alpha.size, 10.0 ** float(inst["log_Q"])
    ones = np.ones(n)
    lhs = chi2(alpha, ones, 0.5 * alpha + 0.5 * (big / n) * ones)
    rhs = 0.5 * chi2(alpha, ones, alpha) + 0.5 * chi2(alpha, ones, (big / n) * ones)
    if lhs + rhs <= 0.0:
        return -1.0  # 0 > 0 is false: no strict violation
    return (lhs - rhs) / (lhs + rhs)


def _prop1_paper_witness_exact(inst: Instance) -> tuple[Any, str]:
    alpha = fr_unit(inst["alpha"])
    n, big = len(alpha), dec(10.0 ** float(inst["log_Q"]))
    ones = [Fraction(1)] * n
    qp = [big / n] * n
    lhs = chi2_fr(alpha, ones, mix(Fraction(1, 2), alpha, qp))
    rhs = chi2_fr(alpha, ones, alpha) / 2 + chi2_fr(alpha, ones, qp) / 2
    if lhs + rhs == 0:
        return Fraction(-1), "exact rationals"
    return (lhs - rhs) / (lhs + rhs), "exact rationals"


PROP1_WITNESS_QUOTE = (
    "Consider the case when π_k = 1 ∀k ∈ K. […] If we take q: ‖q‖₁ = 1, q_k = α_k, ζ = ½, "
    "q′ = (Q/N)1, and we let Q → +∞, then the LHS in (196) converges to (1/N − α_k)²/(1/N) "
    "(197). […] the RHS of (195) is 0 + ½(1/N − α_k)²/(1/N) (198). Finally, comparing (197) "
    "and (198), we conclude that, for Q large enough, the LHS in (195) is larger than the RHS."
)

register_claim(
    "cafed:appd-prop1-witness",
    "App. D",
    "proof of Proposition 1, eqs. (194)–(198)",
    (1274, 1300),
    "The proof's witness shows non-convexity: with π = 1, q = α (‖q‖₁ = 1), "
    "q′ = (Q/N)·1, ζ = ½ and Q large, χ²(ζq + (1−ζ)q′) > ζχ²(q) + (1−ζ)χ²(q′).",
    space=Space([Integer("n", 1, 40), Simplex("alpha", "n"), Real("log_Q", 3.0, 12.0)]),
    margin=_prop1_paper_witness,
    exact=_prop1_paper_witness_exact,
    notes="(197) is garbled in the extraction; read as the limit Q → ∞ of χ² at the midpoint "
    "(p → uniform), i.e. χ²(α‖u) = NΣ(α_k − 1/N)², against (198) = ½χ²(α‖u). Checked "
    "on the whole sum at finite Q ∈ [1e3, 1e12] (the text's 'Q large enough'). The "
    "strict inequality fails exactly when α is uniform (both sides 0): there q = α and "
    "q′ lie on one ray and χ² is 0 at both. The proof also argues per summand g_k∘h_k, "
    "and a non-convex summand does not make the sum non-convex; on the sum the witness "
    "works for every non-uniform α (cafed:appd-prop1-witness-nonuniform). "
    "Counterexample: α uniform (any N), exact margin −1.",
    expected="refuted",
    reading=Reading(
        quote=PROP1_WITNESS_QUOTE,
        hypotheses=(
            Hypothesis("π = 1 (the proof's own choice)", "π = 1"),
            Hypothesis("'Q large enough'", "Q ∈ [1e3, 1e12]"),
        ),
        interpretation="Literal: the witness works for EVERY α (uniform α included). Not "
        "the proof's claim: a proof of 'not convex' needs one witness, and the proof "
        "already fixes one configuration (π = 1); for it to exhibit a strict violation α "
        "must be non-uniform (some α_k ≠ 1/N) — every α but one. At uniform α the "
        "proposition still holds (cafed:appd-prop1-n-ge-2), by another witness (q and q′ "
        "off one ray).",
        alternatives="Every non-uniform α (N ≥ 2): cafed:appd-prop1-witness-nonuniform (holds).",
    ),
    finding=Finding(
        "literal",
        "the witness fails only at uniform α, where q = α and q′ lie on one ray; a proof of "
        "non-convexity needs one witness, and this one works for every non-uniform α "
        "(cafed:appd-prop1-witness-nonuniform holds)",
        intended="cafed:appd-prop1-witness-nonuniform",
    ),
)


def _witness_ratio(alpha: Sequence[Any], Q: Any) -> tuple[Any, Any]:
    """(χ²(mid), ½χ²(q′)) of the proof's witness in closed form: with π = 1, q = α, q′ = (Q/N)1,
    mid = ½q + ½q′ has p = (α + Q/N)/(1 + Q) and α − p = Q(α − 1/N)/(1 + Q), so χ²(mid) =
    (Q/(1+Q))²Σ(α_k − 1/N)²/p_k; χ²(q) = 0 and χ²(q′) = NΣ(α_k − 1/N)². Works for floats and
    Fractions alike (no cancellation between the two sides)."""
    n = len(alpha)
    d = [a - Fraction(1, n) if isinstance(a, Fraction) else a - 1.0 / n for a in alpha]
    p = [(a + Q / n) / (1 + Q) for a in alpha]
    lhs = (Q / (1 + Q)) ** 2 * sum(x * x / y for x, y in zip(d, p, strict=True))
    return lhs, n * sum(x * x for x in d) / 2


def _witness_nonuniform(inst: Instance) -> float:
    lhs, rhs = _witness_ratio(unit_sum(inst["alpha"]).tolist(), 10.0 ** float(inst["log_Q"]))
    return -1.0 if lhs + rhs <= 0.0 else (lhs - rhs) / (lhs + rhs)


def _witness_nonuniform_exact(inst: Instance) -> tuple[Any, str]:
    lhs, rhs = _witness_ratio(fr_unit(inst["alpha"]), dec(10.0 ** float(inst["log_Q"])))
    return (Fraction(-1) if lhs + rhs == 0 else (lhs - rhs) / (lhs + rhs)), "exact rationals"


register_claim(
    "cafed:appd-prop1-witness-nonuniform",
    "App. D",
    "proof of Proposition 1, eqs. (194)–(198), α non-uniform",
    (1274, 1300),
    "For every non-uniform α (N ≥ 2), the proof's witness (π = 1, q = α, q′ = (Q/N)·1, "
    "ζ = ½, Q large) violates convexity of χ² (the whole sum): χ²(½q + ½q′) > ½χ²(q) + "
    "½χ²(q′).",
    space=Space(
        [Integer("n", 2, 40), Simplex("alpha", "n"), Real("log_Q", 3.0, 12.0)],
        where=lambda i: bool(np.any(unit_sum(i["alpha"]) != 1.0 / int(i["n"]))),
    ),
    margin=_witness_nonuniform,
    exact=_witness_nonuniform_exact,
    tolerance=0.0,
    notes="Closed form of the witness on the whole sum (no cancellation between the sides): "
    "χ²(mid) = (Q/(1+Q))²Σ(α_k − 1/N)²/p_k with p_k = (α_k + Q/N)/(1 + Q) ≤ "
    "(1 + Q/N)/(1 + Q), against ½χ²(q′) = ½NΣ(α_k − 1/N)²; their ratio is ≥ "
    "2Q²/((1 + Q)(N + Q)) ≥ 1.9 for Q ≥ 1e3, N ≤ 40. Margin (χ²(mid) − rhs)/(χ²(mid) "
    "+ rhs) (tolerance 0: a strict inequality). TRUE; uniform α is excluded by the "
    "space (cafed:appd-prop1-witness is that case).",
    expected="holds",
    reading=Reading(
        quote=PROP1_WITNESS_QUOTE,
        hypotheses=(
            Hypothesis("π = 1 (the proof's choice), N ≥ 2 clients", "π = 1, N ∈ [2, 40]"),
            Hypothesis("'Q large enough'", "Q ∈ [1e3, 1e12]"),
            Hypothesis(
                "α non-uniform (some α_k ≠ 1/N): the witness's strict inequality",
                "α on the simplex, not uniform",
            ),
        ),
        interpretation="The proof exhibits one violation of convexity; read on the whole "
        "sum χ² (what Prop. 1 is about), for every α for which (197) > (198) is strict.",
    ),
)


def _qc_parts(inst: Instance) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    n = int(inst["n"])
    return (
        int(inst["k"]) % n,
        pis(inst),
        unit_sum(inst["alpha"]),
        10.0 ** as_floats(inst["log_q1"]),
        10.0 ** as_floats(inst["log_q2"]),
    )


def _gk_hk(k: int, alpha: Any, pi: Any, q: Any) -> Any:
    """(g_k∘h_k)(q) = (p_k − α_k)²/p_k, p_k = π_kq_k/πᵀq (eqs. 191–193)."""
    p = pi[k] * q[k] / sum(a * b for a, b in zip(pi, q, strict=True))
    return (p - alpha[k]) ** 2 / p


def _quasiconvex(inst: Instance) -> float:
    k, pi, alpha, q1, q2 = _qc_parts(inst)
    zeta = float(inst["zeta"])
    f1, f2 = _gk_hk(k, alpha, pi, q1), _gk_hk(k, alpha, pi, q2)
    fm = _gk_hk(k, alpha, pi, zeta * q1 + (1.0 - zeta) * q2)
    require_finite(f1, f2, fm)
    # floor α_k: the size of the terms p − 2α_k + α_k²/p that cancel where p ≈ α_k
    return (max(f1, f2) - fm) / max(f1, f2, fm, float(alpha[k]), TINY)


def _quasiconvex_exact(inst: Instance) -> tuple[Any, str]:
    n = int(inst["n"])
    k, pi, alpha = int(inst["k"]) % n, dec_list(inst["pi"]), fr_unit(inst["alpha"])
    q1, q2 = (
        dec_list(10.0 ** as_floats(inst["log_q1"])),
        dec_list(10.0 ** as_floats(inst["log_q2"])),
    )
    zeta = dec(inst["zeta"])
    f1, f2 = _gk_hk(k, alpha, pi, q1), _gk_hk(k, alpha, pi, q2)
    fm = _gk_hk(k, alpha, pi, mix(zeta, q1, q2))
    return (max(f1, f2) - fm) / max(f1, f2, fm, alpha[k]), "exact rationals"


register_claim(
    "cafed:appd-quasiconvex-summands",
    "App. D",
    "each g_k∘h_k is quasi-convex in q ∈ ℝ^N_{>0}",
    (1262, 1270),
    "Each summand (g_k∘h_k)(q) = (p_k − α_k)²/p_k of χ², p_k = π_kq_k/πᵀq, is quasi-convex "
    "on ℝ^N_{>0}: g_k∘h_k(ζq + (1−ζ)q′) ≤ max(g_k∘h_k(q), g_k∘h_k(q′)).",
    space=Space(
        [
            Integer("n", 1, 8),
            Integer("k", 0, 7),
            pi_param(),
            Simplex("alpha", "n"),
            Real("log_q1", -3.0, 3.0, size="n", closed=(True, True), special=(0.0,)),
            Real("log_q2", -3.0, 3.0, size="n", closed=(True, True), special=(0.0,)),
            ZETA,
        ]
    ),
    margin=_quasiconvex,
    exact=_quasiconvex_exact,
    notes="Client k = k mod N; q, q′ ∈ [1e-3, 1e3]^N (any two points of the open orthant: "
    "g_k∘h_k is homogeneous of degree 0). Margin [max(f(q), f(q′)) − f(ζq + (1−ζ)q′)] "
    "/max(f(q), f(q′), f(mid), α_k) (α_k: the size of the terms that cancel near "
    "p_k = α_k). TRUE: along a segment p_k is a ratio of affine functions of the "
    "position, hence monotone, and g_k is convex in p_k, so g_k∘h_k is quasi-convex "
    "along every segment ([40, p. 102], as App. D says). The sum χ² is not even convex "
    "on a slice (cafed:appd-prop2).",
    expected="holds",
    reading=Reading(
        quote="each g_k∘h_k is quasi-convex in q ∈ ℝ^N_{>0} because composition of a convex "
        "function (g_k) and a linear-fractional function (h_k) [40, p. 102]. However, note "
        "that the sum of quasi-convex functions is not necessarily quasi-convex.",
        hypotheses=(
            Hypothesis("h_k(q) = π_kq_k/πᵀq (191), π_k ∈ (0, 1]", "π ∈ (0, 1]^N"),
            Hypothesis("g_k(p) = (p − α_k)²/p on p > 0 (192)", "α on the simplex"),
        ),
        interpretation="Quasi-convexity on the whole open orthant, the domain App. D names.",
    ),
)
