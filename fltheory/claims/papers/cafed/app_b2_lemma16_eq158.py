"""CA-Fed (ToN) App. B2 Lemma 16, eq. (158): |[P^{J_t}]_ij − ρ_j| ≤ C_Pλᵗ ≤ C_Pλ^{J_t} =
1/(2Ht) for t ≥ T_P — as printed (refuted) and corrected (≤ C_Pλ^{J_t}, and ≤ 1/(2Ht) when
J_t < t).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:lemma16-eq158-corrected").expected
'holds'
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.explain import Explanation, Quantity, Step, dec, show
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed import _chain_oracles as orc
from fltheory.claims.papers.cafed._chains import (
    ASSUMPTION1,
    CHAIN_FAMILIES_NOTE,
    Chain,
    build_chain,
    chain_space,
    jt_code,
    mp,
    mp_any,
    simplifier,
    two_state_exact,
)
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError

L158_FAMILIES = ("product", "dense", "jordan", "debruijn")


def _eq158_setup(inst: Instance) -> tuple[Chain, Any, int, int, float]:
    """(chain, constants, t, J_t, H)."""
    ch = build_chain(inst, L158_FAMILIES)
    c = ch.code.constants()
    if c.log_C_P is None:
        raise NumericalError("C_P unknown")
    H = 10.0 ** float(inst["lH"])
    t = c.T_P + int(inst["s"])
    if t < 1:
        t = 1
    log_K = math.log(2.0) + c.log_C_P + math.log(H)
    return ch, c, t, jt_code(t, log_K, c.lam, c.T_P), H


def _eq158_parts(inst: Instance, exact: bool) -> tuple[Any, Any, Any, Any, bool]:
    """(ln E(J_t), ln C_Pλᵗ, ln C_Pλ^{J_t}, ln 1/(2Ht), J_t < t) — mpmath when ``exact``."""
    import mpmath

    ch, c, t, J, H = _eq158_setup(inst)
    if exact:
        with mpmath.workdps(60):
            lam = (ch.slem + 1) / 2
            E = orc.envelope_mp(ch.P, ch.rho, [J], dps=60)[0]
            log_E = mpmath.log(E) if E > 0 else mpmath.mpf(-1e6)
            log_C = mpmath.mpf(c.log_C_P)
            return (
                log_E,
                log_C + t * mpmath.log(lam),
                log_C + J * mpmath.log(lam),
                -mpmath.log(2 * mpmath.mpf(H) * t),
                J < t,
            )
    E = float(orc.envelope_float(ch.Pf, ch.rho_f, [J])[0])
    log_E = math.log(E) if E > 0 else -1e6
    return (
        log_E,
        c.log_C_P + t * math.log(c.lam),
        c.log_C_P + J * math.log(c.lam),
        -math.log(2.0 * H * t),
        J < t,
    )


def _eq158_printed(inst: Instance, exact: bool = False) -> Any:
    log_E, log_Ct, log_CJ, log_h, _ = _eq158_parts(inst, exact)
    # E(J_t) ≤ C_Pλᵗ ≤ C_Pλ^{J_t} ≤ 1/(2Ht) ("=" read as ≤, the direction (168) uses)
    return min(log_Ct - log_E, log_CJ - log_Ct, log_h - log_CJ)


def _eq158_corrected(inst: Instance, exact: bool = False) -> Any:
    log_E, _, log_CJ, log_h, uncapped = _eq158_parts(inst, exact)
    return min(log_CJ - log_E, log_h - log_CJ) if uncapped else log_CJ - log_E


def _eq158_space() -> Space:
    return chain_space(
        L158_FAMILIES,
        [
            Real("lH", -3.0, 3.0, closed=(True, True), special=(0.0, 1.0)),
            Integer("s", 0, 2000),
        ],
    )


def _two_state_as_product(inst: Instance) -> Instance:
    """A two-state instance (π, λ₂, lH, s) as the ``product`` family of :data:`L158_FAMILIES`
    (one client)."""
    return {
        "family": L158_FAMILIES.index("product"),
        "N": 1,
        "pi": np.array([float(inst["pi"])]),
        "l2": np.array([float(inst["lam2"])]),
        "lH": float(inst["lH"]),
        "s": int(inst["s"]),
    }


def _eq158_two_state_space() -> Space:
    """Two-state chains (eq. 236) in the paper's coordinates, H = 10^lH and t = T_P + s."""
    return Space(
        [
            Real("pi", 0.0, 1.0, special=(0.5,)),
            Real(
                "lam2",
                lambda i: 1.0 - 1.0 / max(i["pi"], 1.0 - i["pi"]),
                1.0,
                closed=(True, False),
                special=(0.0, 0.5, 0.9),
            ),
            Real("lH", -3.0, 3.0, closed=(True, True), special=(0.0, 1.0)),
            Integer("s", 0, 2000),
        ]
    )


def _eq158_two_state_simplify(inst: Instance) -> list[Instance]:
    """π = ½, λ₂ and lH rounded (one digit, an integer), t = 1 — together, then one by one."""
    plain = {
        "pi": 0.5,
        "lam2": float(np.round(float(inst["lam2"]), 1)),
        "lH": float(round(float(inst["lH"]))),
        "s": 0,
    }
    keys = [k for k, v in plain.items() if inst[k] != v]
    out = [{**inst, **{k: plain[k] for k in keys}}] if keys else []
    return out + [{**inst, k: plain[k]} for k in keys]


def _eq158_links(pi: Fraction, lam2: Fraction, log10_H: Fraction, s: int) -> dict[str, Any]:
    """Eq. 158 for the two-state chain (eq. 236) at 50 digits: C_P of eq. 156 with the Jordan
    basis that minimises ‖U‖_F‖U⁻¹‖_F (= 2√(2(π² + (1 − π)²)), the library's), T_P = 0 (one
    block of size 1), λ = (1 + |λ₂|)/2, J_t of eq. 132 and E(J) = max_ij |[P^J]_ij − ρ_j| =
    |λ₂|^J·max(π, 1 − π) (Pᵗ − 1ρᵀ = λ₂ᵗ[[π, −π], [π − 1, 1 − π]])."""
    import mpmath

    with mpmath.workdps(50):
        C_P = 2 * mpmath.sqrt(2 * (mp(pi) ** 2 + mp(1 - pi) ** 2))
        lam = (1 + abs(lam2)) / 2
        H = mpmath.mpf(10) ** mp(log10_H)
        t = s  # T_P = 0
        t = max(t, 1)
        x = mpmath.log(2 * C_P * H * t) / -mpmath.log(mp(lam))
        n = int(mpmath.ceil(x))
        if abs(x - mpmath.nint(x)) < mpmath.mpf(10) ** -40:
            # a tie needs 2C_PHt rational: π = ½ (C_P = 2) and an integer lH; decide exactly
            if pi != Fraction(1, 2) or log10_H.denominator != 1:
                raise NumericalError("ln(2C_PHt)/ln(1/λ) is too close to an integer")
            n0 = int(mpmath.nint(x))
            n = n0 if 4 * Fraction(10) ** int(log10_H) * t <= (1 / lam) ** n0 else n0 + 1
        J = int(min(max(n, 0), t))
        E = abs(lam2) ** J * max(pi, 1 - pi)
        return {
            "C_P": C_P,
            "lam": lam,
            "H": H,
            "t": t,
            "ratio": x,
            "J": J,
            "E": E,
            "Ct": C_P * mp(lam) ** t,
            "CJ": C_P * mp(lam) ** J,
            "half": 1 / (2 * H * t),
        }


def _eq158_explain(inst: Instance) -> Explanation:
    pi, lam2, lH, s = dec(inst["pi"]), dec(inst["lam2"]), dec(inst["lH"]), int(inst["s"])
    r = _eq158_links(pi, lam2, lH, s)
    P = two_state_exact(pi, lam2)
    links = [
        ("max_ij |[P^J_t]_ij − ρ_j|", r["E"], "C_Pλᵗ", r["Ct"]),
        ("C_Pλᵗ", r["Ct"], "C_Pλ^J_t", r["CJ"]),
        ("C_Pλ^J_t", r["CJ"], "1/(2Ht)", r["half"]),
    ]
    failing = [lk for lk in links if not mp_any(lk[1]) <= mp_any(lk[3])]
    shown = failing[0] if failing else links[-1]
    H = 10**lH.numerator if lH.denominator == 1 and lH >= 0 else f"10^{show(lH)}"
    return Explanation(
        quantities=(
            Quantity(
                "P",
                "transition matrix (eq. 236), states (inactive, active)",
                tuple(tuple(row) for row in P),
            ),
            Quantity("ρ", "stationary distribution (1 − π, π) (eq. 237)", (1 - pi, pi)),
            Quantity("λ₂", "second eigenvalue (eq. 238)", lam2),
            Quantity("H", "the constant of Lemma 1, eq. (8)", H),
            Quantity("t", "round (t ≥ T_P = 0)", r["t"]),
        ),
        steps=(
            Step("λ(P)", "(1 + |λ₂|)/2 (eq. 229)", r["lam"]),
            Step("C_P", "eq. (156), least over Jordan bases: 2√(2(π² + (1 − π)²))", r["C_P"]),
            Step("T_P", "eq. (157): one block of size 1", 0),
            Step("ln(2C_PHt)/ln(1/λ)", "(eq. 132)", r["ratio"]),
            Step("J_t", "min{max{⌈ln(2C_PHt)/ln(1/λ)⌉, T_P}, t} (eq. 132)", r["J"]),
            Step("max_ij |[P^J_t]_ij − ρ_j|", "|λ₂|^J_t·max(π, 1 − π)", r["E"]),
            Step("C_Pλᵗ", "", r["Ct"]),
            Step("C_Pλ^J_t", "", r["CJ"]),
            Step(
                "1/(2Ht)", "what step (168) needs max_ij |[P^J_t]_ij − ρ_j| to be below", r["half"]
            ),
            Step(
                "max_ij |[P^J_t]_ij − ρ_j| ≤ 1/(2Ht)",
                "the bound (168) uses",
                bool(mp(r["E"]) <= r["half"]),
            ),
        ),
        lhs=Step(shown[0], "", shown[1]),
        relation="≤",
        rhs=Step(shown[2], "", shown[3]),
        holds=not failing,
        verify_args={"pi": pi, "lam2": lam2, "log10_H": lH, "t": r["t"]},
        note="Eq. (158): max_ij |[P^J_t]_ij − ρ_j| ≤ C_Pλᵗ ≤ C_Pλ^J_t = 1/(2Ht) (= read as ≤). "
        "Shown: the first link that fails."
        + (
            " J_t is capped at t here (J_t = t < ⌈ln(2C_PHt)/ln(1/λ)⌉)."
            if r["J"] == r["t"] and r["ratio"] > r["t"]
            else ""
        ),
    )


def _verify_lemma16_eq158(pi, lam2, log10_H, t):  # type: ignore[no-untyped-def]
    """Eq. (158) for the two-state chain of eq. (236) with parameters (π, λ₂), H = 10^log10_H, at
    round t: the three links max_ij |[P^J_t]_ij − ρ_j| ≤ C_Pλᵗ ≤ C_Pλ^J_t ≤ 1/(2Ht) ('=' read as
    '≤'), C_P of eq. (156) with the Jordan basis minimising ‖U‖_F‖U⁻¹‖_F, T_P = 0."""
    import mpmath

    mpmath.mp.dps = 50
    P = [[1 - (1 - lam2) * pi, (1 - lam2) * pi], [(1 - lam2) * (1 - pi), 1 - (1 - lam2) * (1 - pi)]]
    rho = [1 - pi, pi]
    assert all(0 <= v <= 1 for row in P for v in row) and all(sum(r) == 1 for r in P)

    # C_P: U = [1, u] with u = (π, π − 1) (P u = λ₂ u), U⁻¹ = [ρ; (1, −1)]; the least
    # ‖U D‖_F‖D⁻¹U⁻¹‖_F over the diagonal rescalings D is Σ_B ‖U_B‖‖(U⁻¹)_B‖ (Cauchy–Schwarz)
    def mp(q):  # type: ignore[no-untyped-def]
        return mpmath.mpf(q.numerator) / q.denominator

    # ‖1‖‖ρ‖ + ‖u‖‖(1, −1)‖ = 2·√2·√(π² + (1 − π)²)
    C_P = 2 * mpmath.sqrt(mp(2 * (pi**2 + (1 - pi) ** 2)))
    lam = (1 + abs(lam2)) / 2
    H = mpmath.mpf(10) ** mp(log10_H)
    x = mpmath.log(2 * C_P * H * t) / -mpmath.log(mp(lam))
    n = int(mpmath.ceil(x))
    if abs(x - mpmath.nint(x)) < mpmath.mpf(10) ** -40:  # a tie: 2C_PH = 4·10^log10_H exactly
        assert pi * 2 == 1 and log10_H.denominator == 1, "undecidable tie"
        n0 = int(mpmath.nint(x))
        n = n0 if 4 * (pi * 0 + 10) ** int(log10_H) * t <= (1 / lam) ** n0 else n0 + 1
    J = min(max(n, 0), t)
    Pj = [[pi * 0 + int(i == j) for j in range(2)] for i in range(2)]
    for _ in range(J):  # P^J exactly
        Pj = [[sum(Pj[i][k] * P[k][j] for k in range(2)) for j in range(2)] for i in range(2)]
    E = max(abs(Pj[i][j] - rho[j]) for i in range(2) for j in range(2))
    links = [
        (mp(E), C_P * mp(lam) ** t),
        (C_P * mp(lam) ** t, C_P * mp(lam) ** J),
        (C_P * mp(lam) ** J, 1 / (2 * H * t)),
    ]
    failing = [(a, b) for a, b in links if not a <= b]
    lhs, rhs = failing[0] if failing else links[-1]
    return {"lhs": lhs, "rhs": rhs, "holds": not failing, "J_t": J}


register_claim(
    "cafed:lemma16-eq158-printed",
    "App. B2 Lemma 16, eq. (158)",
    "|[P^{J_t}]_ij − ρ_j| ≤ C_Pλᵗ ≤ C_Pλ^{J_t} = 1/(2Ht)",
    (1066, 1071),
    "for every t ≥ T_P: max_ij |[P^{J_t}]_ij − ρ_j| ≤ C_Pλ(P)ᵗ ≤ C_Pλ(P)^{J_t} ≤ 1/(2Ht) "
    "(the printed '=' read as '≤', the direction step (168) uses), on two-state chains",
    space=_eq158_two_state_space(),
    margin=lambda i: float(_eq158_printed(_two_state_as_product(i))),
    simplify=_eq158_two_state_simplify,
    exact=lambda i: (
        Fraction(float(_eq158_printed(_two_state_as_product(i), True))),
        "E(J_t) at 60 digits (mpmath), exact λ(P)",
    ),
    tolerance=1e-9,
    budget=100,
    expected="refuted",
    notes="Two-state chains (eq. 236: π ∈ (0, 1), λ₂ ∈ [1 − 1/max(π, 1 − π), 1)), the "
    "simplest Assumption-1 chains; the failure needs no more (cafed:lemma16-eq158-corrected "
    "searches every chain family). t = T_P + s (T_P = 0 here), H = 10^lH; C_P, T_P from the "
    "library (ProductChain), J_t from series.delays; margin = min of the three log-gaps. "
    "Known counterexample (exact): π = ½, λ₂ = 9/10, P = [[19/20, 1/20], [1/20, 19/20]], "
    "λ = 19/20, T_P = 0, C_P = 2, H = 10, t = 1: J_1 = 1 and |P₀₀ − ½| = 9/20 > 1/(2Ht) = "
    "1/20. Both the first and the last relation fail whenever J_t is capped by t (J_t = t < "
    "⌈ln(2C_P H t)/ln(1/λ)⌉), so Lemma 18's step (168) is unproved for those rounds "
    "(cafed:lemma18-eq163-step171).",
    reading=Reading(
        quote="Furthermore, let Assumptions 2 and 3 hold, H be defined as in Lemma 1, "
        "Equation (8), and T_P ≤ J_t ≤ t be defined in (132). We obtain the additional "
        "inequality: |[P^{J_t}]_{i,j} − ρ_j| ≤ C_P·λ(P)ᵗ ≤ C_Pλ(P)^{J_t} = 1/(2Ht), "
        "∀i, j ∈ [M] and ∀t ≥ T_P. (158)",
        hypotheses=(
            Hypothesis(
                "Assumption 1: P irreducible and aperiodic",
                "two-state chains of eq. 236 with π ∈ (0, 1), λ₂ ∈ [1 − 1/max(π, 1 − π), 1)",
            ),
            Hypothesis("H of Lemma 1, eq. (8), any H > 0", "H = 10^lH ∈ [10⁻³, 10³]"),
            Hypothesis("t ≥ T_P, J_t of eq. (132)", "t = T_P + s, s ∈ [0, 2000]"),
        ),
        interpretation="The chain as printed, with '=' read as '≤' (the direction (168) "
        "uses; the equality holds only without the ceiling). What Lemma 18 needs is its "
        "conclusion max_ij |[P^{J_t}]_ij − ρ_j| ≤ 1/(2Ht) for every t ≥ T_P. The last link "
        "comes from the ceiling in (132) and fails exactly when J_t is capped at t "
        "(⌈ln(2C_PHt)/ln(1/λ)⌉ > t, the first rounds); there the conclusion fails too. "
        "The first link's λᵗ is a slip for λ^{J_t} (eq. 5 at J_t ≥ T_P).",
        alternatives="The corrected chain (E(J_t) ≤ C_Pλ^{J_t}, and ≤ 1/(2Ht) when "
        "J_t < t) holds: cafed:lemma16-eq158-corrected.",
    ),
    finding=Finding(
        "error",
        "on the first rounds J_t of eq. (132) is capped at t, and there C_Pλ^{J_t} > 1/(2Ht) "
        "(so |[P^{J_t}]_ij − ρ_j| ≤ 1/(2Ht), which step (168) uses, is unproved and can "
        "fail); the first link's λᵗ, a slip for λ^{J_t}, fails once J_t < t",
        severity="step",
        survives="Yes: the capped rounds form an initial stretch t ≤ t_c (t_c finite, as "
        "ln(2C_PHt)/ln(1/λ) grows like ln t); bounding them as Lemma 17 does (by "
        "H(Σ_{t≤t_c}η_t)(Σπ_kq_k)) and applying Lemmas 14 and 18 from t_c + 1 on restores "
        "Theorem 2 with a larger constant.",
    ),
    explain=_eq158_explain,
    verify=_verify_lemma16_eq158,
)

register_claim(
    "cafed:lemma16-eq158-corrected",
    "App. B2 Lemma 16, eq. (158)",
    "corrected: ≤ C_Pλ^{J_t}, and ≤ 1/(2Ht) if J_t < t",
    (1066, 1071),
    "for every t ≥ T_P: max_ij |[P^{J_t}]_ij − ρ_j| ≤ C_Pλ(P)^{J_t} (eq. 5 at J_t ≥ T_P), and "
    "C_Pλ(P)^{J_t} ≤ 1/(2Ht) whenever J_t < t (J_t not capped by t)",
    space=_eq158_space(),
    margin=lambda i: float(_eq158_corrected(i)),
    simplify=simplifier(L158_FAMILIES),
    exact=lambda i: (
        Fraction(float(_eq158_corrected(i, True))),
        "E(J_t) at 60 digits (mpmath), exact λ(P)",
    ),
    tolerance=1e-9,
    budget=100,
    expected="holds",
    reading=Reading(
        quote="|[P^{J_t}]_{i,j} − ρ_j| ≤ C_P·λ(P)ᵗ ≤ C_Pλ(P)^{J_t} = 1/(2Ht), ∀i, j ∈ [M] "
        "and ∀t ≥ T_P. (158)",
        hypotheses=(
            ASSUMPTION1,
            Hypothesis("H > 0, t ≥ T_P", "H = 10^lH ∈ [10⁻³, 10³], t = T_P + s, s ≤ 2000"),
        ),
        interpretation="What (5) and the ceiling of (132) do give: E(J_t) ≤ C_Pλ^{J_t}, and "
        "C_Pλ^{J_t} ≤ 1/(2Ht) on the rounds where J_t is not capped at t (the corrected form "
        "of cafed:lemma16-eq158-printed). " + CHAIN_FAMILIES_NOTE,
    ),
    notes="As cafed:lemma16-eq158-printed, keeping only what eq. 5 and the ceiling in eq. 132 "
    "give. Budget 100 (Jordan chains take the library's exact path).",
)
