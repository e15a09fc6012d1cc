"""§V-B — Remark 4 (l.257–267) of the FedPBC paper (seed ``004_7f83552c6af82f79.txt``, ``l.N`` its
lines): a greater c gives a smaller bound on ρ (Lemma 1's bound and ρ itself), c = 1 is FedAvg with
full participation, and the non-executable rate (6), speed-up and structure statements.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("fedpbc:remark4-c1-fedavg").margin({"m": 3})
-0.0
"""

import math
from fractions import Fraction

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.exact import fr, frs, mp_to_fraction
from fltheory.claims.papers.fedpbc._common import (
    laplacian_exact,
    rel,
    rho_gap,
    rho_gap_mp,
)
from fltheory.claims.space import Instance, Integer, Real, Space


def _remark4_bound_margin(inst: Instance) -> float:
    m = inst["m"]
    c1 = inst["c"]
    c2 = c1 + inst["dc"] * (1.0 - c1)

    def gap(c: float) -> float:
        reach = 1.0 if c == 1.0 else -math.expm1(m * math.log1p(-c))
        return c**4 * reach**2 / 8.0

    return rel(gap(c2), gap(c1))


def _remark4_bound_exact(inst: Instance) -> ExactMargin:
    m = inst["m"]
    c1 = fr(inst["c"])
    c2 = c1 + fr(inst["dc"]) * (1 - c1)

    def gap(c: Fraction) -> Fraction:
        return c**4 * (1 - (1 - c) ** m) ** 2 / 8

    g1, g2 = gap(c1), gap(c2)
    return (g2 - g1) / max(g1, g2), "exact rationals"


register_claim(
    "fedpbc:remark4-c-bound",
    "§V-B",
    "Remark 4(3): a greater c gives a smaller bound on ρ",
    (261, 261),
    "Lemma 1's bound 1 − c⁴[1 − (1 − c)^m]²/8 is non-increasing in c ∈ (0, 1].",
    space=Space(
        [
            Integer("m", 1, 500),
            Real("c", 0.0, 1.0, closed=(False, True)),
            Real("dc", 0.0, 1.0, closed=(False, True)),
        ]
    ),
    margin=_remark4_bound_margin,
    exact=_remark4_bound_exact,
    tolerance=1e-12,
    expected="holds",
    notes="c₂ = c₁ + dc(1 − c₁) > c₁; margin is the relative increase of the guaranteed gap "
    "c⁴[1 − (1 − c)^m]²/8 (both factors increase in c). As a statement about the worst case "
    "max_{p ≥ c}ρ(p) it is trivial (the feasible set shrinks); fedpbc:remark4-c-rho checks ρ "
    "itself.",
)


def _remark4_rho_margin(inst: Instance) -> float:
    p = np.asarray(inst["p"])
    q = p.copy()
    i = int(inst["i"]) % p.size
    q[i] = p[i] + inst["dp"] * (1.0 - p[i])
    g_p, g_q = rho_gap(p), rho_gap(q)
    # ρ(q) ≤ ρ(p) ⇔ 1 − ρ(q) ≥ 1 − ρ(p); eigvalsh errs by ≈ eps·‖E[I − W²]‖ ≤ 2 eps
    noise = 64 * np.finfo(float).eps
    return (g_q - g_p + noise) / max(g_q, g_p, noise)


def _remark4_rho_exact(inst: Instance) -> ExactMargin:
    import mpmath

    p = frs(inst["p"])
    q = list(p)
    i = int(inst["i"]) % len(p)
    q[i] = p[i] + fr(inst["dp"]) * (1 - p[i])
    with mpmath.workdps(50):
        a, b = rho_gap_mp(q), rho_gap_mp(p)
        return mp_to_fraction((a - b) / max(a, b, mpmath.mpf("1e-300"))), "mpmath, 50 digits"


register_claim(
    "fedpbc:remark4-c-rho",
    "§V-B",
    "Remark 4(3), read on ρ itself",
    (261, 261),
    "Raising a link probability does not increase ρ (ρ(p) is non-increasing in each p_i).",
    space=Space(
        [
            Integer("m", 2, 7),
            Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
            Integer("i", 0, 6),
            Real("dp", 0.0, 1.0, closed=(False, True), special=(1.0,)),
        ]
    ),
    margin=_remark4_rho_margin,
    exact=_remark4_rho_exact,
    tolerance=1e-12,
    expected="holds",
    notes="Our reading of 'a greater c leads to a smaller ρ' for a fixed population: p_i ↦ "
    "p_i + dp(1 − p_i); margin the relative increase of 1 − ρ (enumeration, E[I − W²]).",
)


def _remark4_c1_margin(inst: Instance) -> float:
    from fltheory.limits.fedpbc import mixing_expectation

    m = inst["m"]
    M = mixing_expectation(np.ones(m))
    return -float(np.max(np.abs(M - 1.0 / m)))


def _remark4_c1_exact(inst: Instance) -> ExactMargin:
    m = inst["m"]
    if m > 8:
        return Fraction(0), "W = J on the only pattern A = [m] (all p_i = 1)"
    L = laplacian_exact([Fraction(1)] * m)
    ok = all(L[i][j] == (1 if i == j else 0) - Fraction(1, m) for i in range(m) for j in range(m))
    return (Fraction(0) if ok else Fraction(-1)), "exact rationals"


register_claim(
    "fedpbc:remark4-c1-fedavg",
    "§V-B",
    "Remark 4(3): c = 1 gives FedAvg with full participation",
    (261, 261),
    "With c = 1 (every link always active) W^(t) = J, so FedPBC is FedAvg with full "
    "participation (ρ = 0).",
    space=Space([Integer("m", 1, 300)]),
    margin=_remark4_c1_margin,
    exact=_remark4_c1_exact,
    tolerance=1e-12,
    expected="holds",
    notes="Code path fltheory.limits.fedpbc.mixing_expectation at p = 1: M = J (margin −max "
    "entry error).",
)

register_claim(
    "fedpbc:remark4-rate6",
    "§V-B",
    "Remark 4(3): rate (6) for c = 1",
    (261, 265),
    "With c = 1 the rate becomes O(1/√(msT) + √(ms/T) + ms/T) (6).",
    reason="an O-statement with hidden constants; its explicit c = 1 case is the ρ = 0 "
    "boundary (p ≡ 1) of fedpbc:thm1-explicit / thm1-explicit-c0-1.",
)

register_claim(
    "fedpbc:remark4-speedup",
    "§V-B",
    "Remark 4(4): no linear speed-up",
    (267, 267),
    "For T ≥ c₁m³s³ the first two terms of (6) dominate; linear speed-up is unlikely.",
    reason="an asymptotic opinion about which O-terms dominate, with an unspecified constant "
    "c₁; nothing to evaluate.",
)

register_claim(
    "fedpbc:remark4-structure",
    "§V-B",
    "Remark 4(1)-(2): structure of the bound",
    (259, 260),
    "The terms group into noise, client drift and intermittent participation; x̄^t of FedPBC "
    "converges to a stationary point while FedAvg's may be far from x*.",
    reason="(1) describes the grouping of terms; (2) restates Theorem 1 and Proposition 1, "
    "checked as fedpbc:thm1-rate, fedpbc:fig2-unbiased-xbar and fedpbc:prop1-far.",
)
