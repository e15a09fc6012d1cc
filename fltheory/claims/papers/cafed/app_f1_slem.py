"""CA-Fed (ToN) App. F1, eqs. (228)–(229) and §III-A: λ̄₂(P), the second largest eigenvalue
modulus, and λ(P) = (λ̄₂ + 1)/2 — the modulus reading (holds) and the printed order of the
eigenvalues (refuted for complex spectra: a literal reading).

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:eq229-slem-printed").expected
'refuted'
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.finding import Finding, Reading
from fltheory.claims.papers.cafed._chains import (
    ASSUMPTION1,
    CHAIN_FAMILIES_NOTE,
    MAX_JORDAN_STATES,
    build_chain,
    chain_space,
    simplifier,
)
from fltheory.claims.space import Instance, Real, Space

EQ229_FAMILIES = ("dense", "jordan", "debruijn")
SLEM_TOL = 1e-10


def _eq229_slem(inst: Instance, exact: bool = False) -> float:
    ch = build_chain(inst, EQ229_FAMILIES)
    c = ch.code.constants()
    s = float(ch.slem)
    return SLEM_TOL - max(abs(c.slem - s), abs(c.lam - (s + 1.0) / 2.0))


def _printed_gap(roots: list[Any]) -> Any:
    """max{|λ₂|, |λ_M|} − the largest modulus strictly between them, with the distinct
    non-unit eigenvalues in decreasing order of their real part (a conjugate pair, or any
    eigenvalues sharing a real part, count as one position: either may be called λ₂ or λ_M).
    ≥ 0 iff the printed max{|λ₂|, |λ_M|} is the largest modulus; = printed − λ̄₂ when not."""
    groups: list[tuple[Any, Any]] = []  # (real part, largest modulus), decreasing real part
    for z in sorted(roots, key=lambda w: -float(w.real)):
        if groups and abs(z.real - groups[-1][0]) <= 1e-25:
            groups[-1] = (groups[-1][0], max(groups[-1][1], abs(z)))
        else:
            groups.append((z.real, abs(z)))
    if len(groups) <= 2:
        return 1
    return max(groups[0][1], groups[-1][1]) - max(g[1] for g in groups[1:-1])


PRINTED_FAMILIES = ("jordan",)


def _printed_as_jordan(inst: Instance) -> Instance:
    """A 5-state chain with non-unit eigenvalues r₁, r₂ (real) and the pair ρe^{±iθ}, scaled
    alike by the construction (:class:`~._chain_oracles.JordanChain`, uniform ρ, no laziness):
    the spectra where the order of (228) by real part can miss the largest modulus."""
    return {
        "family": 0,
        "nb": 3,
        "n0": 1,
        "n1": 1,
        "n2": 1,
        "a0": float(inst["r1"]),
        "th0": 0.0,
        "a1": float(inst["rad"]),
        "th1": float(inst["ang"]),
        "a2": float(inst["r2"]),
        "th2": 0.0,
        "coup": 1.0,
        "rhow": np.full(MAX_JORDAN_STATES, 1.0 / MAX_JORDAN_STATES),
        "shrink": float(inst["shrink"]),
        "lazyj": 0.0,
    }


def _eq229_printed_space() -> Space:
    return Space(
        [
            Real("r1", -1.0, 1.0, special=(0.0, 0.5)),
            Real("r2", -1.0, 1.0, special=(0.0, -0.5)),
            Real("rad", 0.0, 1.0, closed=(False, True), special=(0.5, 1.0)),
            Real("ang", 0.0, math.pi, special=(math.pi / 2,)),
            Real("shrink", 0.0, 1.0, closed=(False, True), special=(1.0, 0.5)),
        ]
    )


def _eq229_printed(inst: Instance) -> float:
    ch = build_chain(_printed_as_jordan(inst), PRINTED_FAMILIES)
    return float(_printed_gap([z for z, _ in ch.eigen]))


def _eq229_printed_exact(inst: Instance) -> ExactMargin:
    ch = build_chain(_printed_as_jordan(inst), PRINTED_FAMILIES)
    return Fraction(float(_printed_gap([z for z, _ in ch.eigen]))), (
        "eigenvalues from the construction, 30+ digits"
    )


register_claim(
    "cafed:eq229-slem",
    "App. F1 eqs. (228)–(229); §III-A",
    "λ̄₂ and λ(P)",
    (1477, 1484),
    "λ̄₂(P) is the largest modulus of the eigenvalues of P other than 1 (§III-A: 'the second "
    "largest module') and λ(P) = (λ̄₂ + 1)/2; checked on ChainConstants (what the bounds use)",
    space=chain_space(EQ229_FAMILIES),
    margin=_eq229_slem,
    simplify=simplifier(EQ229_FAMILIES),
    exact=lambda i: (Fraction(_eq229_slem(i)), "charpoly over Q, roots at 30 digits (mpmath)"),
    tolerance=0.0,
    budget=100,
    expected="holds",
    reading=Reading(
        quote="Let λ̄₂(P) denote the the second largest module of the eigenvalues of P. … "
        "λ(P) := (λ̄₂(P) + 1)/2 (§III-A); λ̄₂(P) := max{|λ₂(P)|, |λ_M(P)|} and λ(P) := "
        "(λ̄₂(P) + 1)/2 (229)",
        hypotheses=(ASSUMPTION1,),
        interpretation="λ̄₂ is the largest modulus of the eigenvalues other than (one copy "
        "of) 1, as §III-A and line 1486 define it; checked on the library's constants. "
        + CHAIN_FAMILIES_NOTE,
    ),
    notes="Oracle: the exact characteristic polynomial of the rational chain divided by (x − "
    "1), "
    "its squarefree factors and their roots refined in mpmath; margin 1e-10 − |Δλ̄₂|, |Δλ|. "
    "Code path: MarkovChain.from_rational(P).constants() (dense path, exact fallback on "
    "near-defective spectra). Families: dense random (with a cyclic part and laziness), "
    "chains with a chosen real Jordan form (blocks of size ≤ 5, complex pairs), de Bruijn "
    "chains (nilpotent part, λ̄₂ = 0). Observation, not a defect of the statement: "
    "MarkovChain.slem (the plain dense eigenvalues, used by relaxation_time and "
    "mixing_time_bounds) is only accurate to about ε_mach^(1/n) on a Jordan block of size n: "
    "2.2e-6 instead of 0 on the de Bruijn chain k = 3, 0.310368 instead of 9/29 on a block of "
    "size 4. Budget 100 (the module's time allowance): Jordan chains take the library's exact "
    "path (0.05–1 s each).",
)

register_claim(
    "cafed:eq229-slem-printed",
    "App. F1 eqs. (228)–(229)",
    "λ̄₂ := max{|λ₂|, |λ_M|} with 1 = λ₁ > λ₂ ≥ … ≥ λ_M",
    (1477, 1484),
    "with the eigenvalues labelled in decreasing order (read: by real part, the only order "
    "defined for complex spectra), max{|λ₂|, |λ_M|} is the second largest eigenvalue modulus",
    space=_eq229_printed_space(),
    margin=_eq229_printed,
    exact=_eq229_printed_exact,
    tolerance=1e-12,
    budget=200,
    expected="refuted",
    reading=Reading(
        quote="For the transition matrix P, we label its eigenvalues in decreasing order: "
        "1 = λ₁(P) > λ₂(P) ≥ … ≥ λ_M(P). (228) We define: λ̄₂(P) := max{|λ₂(P)|, |λ_M(P)|} "
        "and λ(P) := (λ̄₂(P) + 1)/2. (229)",
        hypotheses=(ASSUMPTION1,),
        interpretation="Literal reading for complex spectra: the claim orders complex "
        "eigenvalues by their real part — an order the paper does not define, chosen by "
        "the toolkit — and finds max{|λ₂|, |λ_M|} below the largest non-unit modulus. Not "
        "the authors' meaning: (228) orders real numbers (the spectra of reversible "
        "chains, such as the products of two-state chains of App. F2–F3 the paper uses), "
        "and the paper defines λ̄₂ by the modulus everywhere else: 'the second largest "
        "module of the eigenvalues of P' (§III-A, line 100), 'the second largest absolute "
        "eigenvalue' (line 1486, right after (229)), 'the second largest eigenvalue in "
        "absolute value' (Prop. 6). That definition holds (cafed:eq229-slem).",
        alternatives="The modulus reading: cafed:eq229-slem (holds). For real spectra the "
        "printed max{|λ₂|, |λ_M|} is the largest non-unit modulus.",
    ),
    finding=Finding(
        "literal",
        "(228)'s 'decreasing order' is an order of real eigenvalues; for complex spectra the "
        "paper means the second largest modulus (§III-A, line 1486, Prop. 6), which holds",
        intended="cafed:eq229-slem",
    ),
    notes="Eq. (228) orders the eigenvalues as reals; for a non-reversible chain with complex "
    "eigenvalues the pair of largest modulus can sit in the middle of the real-part order, "
    "so the printed max{|λ₂|, |λ_M|} underestimates λ̄₂ (the text of §III-A and the code use "
    "the modulus: cafed:eq229-slem). Margin: max{|λ₂|, |λ_M|} minus the largest modulus "
    "strictly "
    "between them in that order (continuous; equals printed − λ̄₂ when negative). "
    "Counterexamples need ≥ 4 non-unit eigenvalues (M ≥ 5). Space: 5-state chains built "
    "with the non-unit eigenvalues r₁, r₂ (real) and ρe^{±iθ} (JordanChain, uniform "
    "stationary law, all scaled by the same α > 0) — the spectra where the question "
    "arises; random dense chains reach them too rarely for a seed-stable search.",
)
