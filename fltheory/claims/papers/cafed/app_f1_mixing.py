"""CA-Fed (ToN) App. F1: the mixing-time bounds (t_rel − 1) ln(1/(2ε)) ≤ t_mix(ε) ≤
ln(1/(ε ρ_min))·t_rel, for reversible chains and as applied to any Assumption-1 chain; t_mix
decided exactly from the rational chain.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:appf1-mixing-upper-general").expected
'refuted'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.explain import Explanation, Quantity, Step, dec, show
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed._chains import (
    ASSUMPTION1,
    CHAIN_FAMILIES_NOTE,
    Chain,
    build_chain,
    chain_space,
    mp,
    simplifier,
)
from fltheory.claims.space import Instance, Parameter, Real, Space
from fltheory.errors import NumericalError


def _tv_distance(ch: Chain, t: int) -> float:
    """d(t) = max_a ‖[Pᵗ]_a· − ρ‖_TV (floats, Pᵗ − 1ρᵀ by binary powering)."""
    if t <= 0:
        return float(0.5 * np.max(np.abs(np.eye(ch.M) - ch.rho_f[None, :]).sum(axis=1)))
    B = ch.Pf - ch.rho_f[None, :]
    acc = None
    while t:
        if t & 1:
            acc = B if acc is None else acc @ B
        t >>= 1
        if t:
            B = B @ B
    assert acc is not None
    return float(0.5 * np.max(np.abs(acc).sum(axis=1)))


def _tv_distance_mp(ch: Chain, t: int, dps: int = 80) -> Any:
    import mpmath

    with mpmath.workdps(dps):
        M = ch.M
        if t <= 0:
            return (
                max(sum(abs(int(a == j) - mp(ch.rho[j])) for j in range(M)) for a in range(M)) / 2
            )
        B = mpmath.matrix(M, M)
        for i in range(M):
            for j in range(M):
                B[i, j] = mp(ch.P[i][j] - ch.rho[j])
        acc = None
        while t:
            if t & 1:
                acc = B if acc is None else acc * B
            t >>= 1
            if t:
                B = B * B
        assert acc is not None
        return max(sum(abs(acc[a, j]) for j in range(M)) for a in range(M)) / 2


MIX_LOWER_FAMILIES = ("dense", "jordan", "debruijn", "product")
MIX_REVERSIBLE_FAMILIES = ("reversible", "product")


def _mix_space(families: tuple[str, ...], k_max: int = 5) -> Space:
    extra: list[Parameter] = [Real("eps", 0.0, 0.5, special=(0.25, 0.45))]
    return chain_space(families, extra, k_max=k_max)


def _t_mix(d: Any, eps: Any, cap: int = 1 << 50) -> int:
    """min{t : d(t) ≤ ε} by doubling and bisection (d is non-increasing)."""
    if d(0) <= eps:
        return 0
    hi = 1
    while d(hi) > eps:
        hi *= 2
        if hi > cap:
            raise NumericalError("t_mix beyond 2^50 steps")
    lo = hi // 2  # d(lo) > ε ≥ d(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if d(mid) > eps else (lo, mid)
    return hi


def _mix_lower(inst: Instance) -> float:
    ch = build_chain(inst, MIX_LOWER_FAMILIES)
    eps = float(inst["eps"])
    L = ch.code.mixing_time_bounds(eps).lower
    t_mix = _t_mix(lambda t: _tv_distance(ch, t), eps)
    return (t_mix - L) / max(t_mix, 1.0)


def _mix_lower_exact(inst: Instance) -> ExactMargin:
    import mpmath

    ch = build_chain(inst, MIX_LOWER_FAMILIES)
    eps = Fraction(float(inst["eps"]))
    with mpmath.workdps(80):
        L = (1 / (1 - ch.slem) - 1) * mpmath.log(1 / (2 * mp(eps)))
        t_mix = _t_mix(lambda t: _tv_distance_mp(ch, t), mp(eps))
        return Fraction(float((t_mix - L) / max(t_mix, 1))), (
            "exact λ̄₂, d(t) at 80 digits (mpmath)"
        )


def _mix_upper(inst: Instance, families: tuple[str, ...]) -> float:
    ch = build_chain(inst, families)
    eps = float(inst["eps"])
    U = ch.code.mixing_time_bounds(eps).upper
    t_mix = _t_mix(lambda t: _tv_distance(ch, t), eps)
    return (U - t_mix) / max(U, 1.0)


def _mix_upper_exact(inst: Instance, families: tuple[str, ...]) -> ExactMargin:
    import mpmath

    ch = build_chain(inst, families)
    eps = Fraction(float(inst["eps"]))
    with mpmath.workdps(80):
        U = mpmath.log(1 / (mp(eps) * mp(min(ch.rho)))) / (1 - ch.slem)
        t_mix = _t_mix(lambda t: _tv_distance_mp(ch, t), mp(eps))
        return Fraction(float((U - t_mix) / max(U, 1))), (
            "exact ρ_min and λ̄₂, d(t) at 80 digits (mpmath)"
        )


register_claim(
    "cafed:appf1-mixing-lower",
    "App. F1",
    "(t_rel − 1) ln(1/(2ε)) ≤ t_mix(ε)",
    (1486, 1486),
    "(t_rel − 1)·ln(1/(2ε)) ≤ t_mix(ε) for every Assumption-1 chain and ε ∈ (0, ½), "
    "t_rel = 1/(1 − λ̄₂), t_mix(ε) = min{t : d(t) ≤ ε}",
    space=_mix_space(MIX_LOWER_FAMILIES),
    margin=_mix_lower,
    simplify=simplifier(MIX_LOWER_FAMILIES),
    exact=_mix_lower_exact,
    tolerance=1e-6,
    budget=200,
    expected="holds",
    reading=Reading(
        quote="Upper and lower bounds exist for the mixing time based on the relaxation time "
        "and the stationary distribution: (t_rel − 1)log(1/(2ε)) ≤ t_mix(ε) ≤ "
        "log(1/(ερ_min))t_rel, where ρ_min := min_a ρ_a [31, pp. 154–156].",
        hypotheses=(ASSUMPTION1, Hypothesis("ε > 0", "ε ∈ (0, ½)")),
        interpretation="The lower bound for every Assumption-1 chain (the cited proof, "
        "Levin–Peres Thm 12.5, uses an eigenfunction only, not reversibility). "
        + CHAIN_FAMILIES_NOTE,
    ),
    notes="Code path: chain.mixing_time_bounds(ε).lower. Margin (t_mix − L)/max(t_mix, 1), "
    "t_mix found by doubling and bisection on d(t), computed here from Pᵗ − 1ρᵀ (exact ρ); "
    "tolerance 1e-6 (relative): near-periodic products (λ₂ → −1) make the bound tight while "
    "t_mix ~ 1e10 carries float error. "
    "Levin–Peres Thm 12.5 needs no reversibility.",
)

register_claim(
    "cafed:appf1-mixing-upper-reversible",
    "App. F1",
    "t_mix(ε) ≤ ln(1/(ε ρ_min))·t_rel, reversible chains",
    (1486, 1486),
    "t_mix(ε) ≤ ln(1/(ε ρ_min))·t_rel for reversible chains (Levin–Peres Thm 12.4)",
    space=_mix_space(MIX_REVERSIBLE_FAMILIES),
    margin=lambda i: _mix_upper(i, MIX_REVERSIBLE_FAMILIES),
    simplify=simplifier(MIX_REVERSIBLE_FAMILIES),
    exact=lambda i: _mix_upper_exact(i, MIX_REVERSIBLE_FAMILIES),
    tolerance=1e-9,
    budget=250,
    expected="holds",
    reading=Reading(
        quote="Upper and lower bounds exist for the mixing time based on the relaxation time "
        "and the stationary distribution: (t_rel − 1)log(1/(2ε)) ≤ t_mix(ε) ≤ "
        "log(1/(ερ_min))t_rel, where ρ_min := min_a ρ_a [31, pp. 154–156].",
        hypotheses=(
            ASSUMPTION1,
            Hypothesis(
                "P reversible (the hypothesis of the cited [31, Thm 12.4])",
                "P = lazy·I + (1 − lazy)D⁻¹(R + Rᵀ) and products of two-state chains",
            ),
            Hypothesis("ε > 0", "ε ∈ (0, ½)"),
        ),
        interpretation="The upper bound as the cited theorem states it, for reversible "
        "chains (M ≤ 6 or up to 3 two-state clients). " + CHAIN_FAMILIES_NOTE,
    ),
    notes="Reversible chains: P = lazy·I + (1 − lazy)·D⁻¹(R + Rᵀ) (rational) and products of "
    "two-state clients. Margin (U − t_mix)/max(U, 1), U the library's upper bound.",
)

MIX_UPPER_GENERAL_FAMILIES = ("debruijn",)


def _mix_general_simplify(inst: Instance) -> list[Instance]:
    """The chain simplifier, plus round values of the paper's quantities: a fair coin, no
    laziness, three flips (de Bruijn), ε = 0.45 or ¼ (its special values)."""
    out = simplifier(MIX_UPPER_GENERAL_FAMILIES)(inst)
    plain = {"p": 0.5, "lazyd": 0.0, "k": 3}
    keys = [k for k, v in plain.items() if k in inst and inst[k] != v]
    out += [{**inst, k: plain[k]} for k in keys]
    out += [{**inst, "eps": e} for e in (0.45, 0.25) if inst["eps"] != e]
    fair = {"k": 3, "p": 0.5, "lazyd": 0.0, "eps": 0.45}  # all at once: 3 fair flips, ε = 0.45
    if MIX_UPPER_GENERAL_FAMILIES[int(inst["family"])] == "debruijn":
        if any(inst[k] != v for k, v in fair.items()):
            out.insert(0, {**inst, **fair})
    return out


def _mix_upper_explain(inst: Instance) -> Explanation:
    """The chain's P, ρ, λ̄₂, t_rel, ρ_min and ε; d(t) up to t_mix(ε); both sides."""
    import mpmath

    ch = build_chain(inst, MIX_UPPER_GENERAL_FAMILIES)
    eps = dec(inst["eps"])
    with mpmath.workdps(60):
        slem = ch.slem
        t_rel = 1 / (1 - slem)
        bound = mpmath.log(1 / (mp(eps) * mp(min(ch.rho)))) * t_rel
        d = [_tv_distance_mp(ch, 0)]
        while d[-1] > mp(eps) and len(d) <= 200:
            d.append(_tv_distance_mp(ch, len(d)))
        t_mix = len(d) - 1
    steps = [Step(f"d({t})", "max_a ‖[Pᵗ]_a· − ρ‖_TV", v) for t, v in enumerate(d)]
    family = ch.family
    what = (
        f"the window of the last {int(inst['k'])} coin flips (de Bruijn chain, heads "
        f"{show(dec(inst['p']))}, laziness {show(dec(inst['lazyd']))})"
        if family == "debruijn"
        else "transition matrix"
    )
    return Explanation(
        quantities=(
            Quantity("P", what, tuple(tuple(r) for r in ch.P)),
            Quantity("ρ", "stationary distribution", tuple(ch.rho)),
            Quantity("ε", "the threshold of t_mix(ε)", eps),
        ),
        steps=(
            Step("λ̄₂", "the second largest eigenvalue modulus (exact charpoly)", slem),
            Step("t_rel", "1/(1 − λ̄₂)", t_rel),
            Step("ρ_min", "min_a ρ_a", min(ch.rho)),
            *steps,
        ),
        lhs=Step("t_mix(ε)", "min{t : d(t) ≤ ε}", t_mix),
        relation="≤",
        rhs=Step("ln(1/(ερ_min))·t_rel", "", bound),
        holds=bool(t_mix <= bound),
        verify_args={"P": [list(r) for r in ch.P], "eps": eps},
        note="Levin–Peres's Theorem 12.4 (the cited [31, pp. 154–156]) proves this bound for "
        "reversible chains; this P is not reversible (ρ_iP_ij ≠ ρ_jP_ji).",
    )


def _verify_appf1_mixing_upper(P, eps):  # type: ignore[no-untyped-def]
    """Both sides of t_mix(ε) ≤ ln(1/(ερ_min))·t_rel (App. F1) for the chain P (rows of
    Fractions): ρ by exact elimination, λ̄₂ from the exact characteristic polynomial (its
    squarefree part, roots at 60 digits), d(t) = max_a ½Σ_j |[Pᵗ]_aj − ρ_j| exactly."""
    import mpmath

    mpmath.mp.dps = 60
    M = len(P)
    zero = eps * 0  # a Fraction (the arguments are Fractions)
    # stationary law: ρᵀ(P − I) = 0, Σρ = 1
    A = [[P[i][j] - (1 if i == j else 0) for i in range(M)] + [zero] for j in range(M - 1)]
    A.append([zero + 1] * M + [zero + 1])
    for c in range(M):
        r = next(r for r in range(c, M) if A[r][c] != 0)
        A[c], A[r] = A[r], A[c]
        A[c] = [v / A[c][c] for v in A[c]]
        for r in range(M):
            if r != c and A[r][c] != 0:
                A[r] = [x - A[r][c] * y for x, y in zip(A[r], A[c], strict=False)]
    rho = [A[i][M] for i in range(M)]
    # characteristic polynomial (Faddeev–LeVerrier), highest degree first
    coeffs = [zero + 1]
    B = [[zero] * M for _ in range(M)]
    for k in range(1, M + 1):
        B = [
            [
                sum((P[i][m] * B[m][j] for m in range(M)), zero) + (coeffs[-1] if i == j else 0)
                for j in range(M)
            ]
            for i in range(M)
        ]
        PB = [
            [sum((P[i][m] * B[m][j] for m in range(M)), zero) for j in range(M)] for i in range(M)
        ]
        coeffs.append(-sum(PB[i][i] for i in range(M)) / k)
    # divide by (x − 1) (synthetic division; the remainder is 0 for a stochastic matrix)
    q = [coeffs[0]]
    for c in coeffs[1:-1]:
        q.append(c + q[-1])
    assert coeffs[-1] + q[-1] == 0

    def rem(a, b):  # polynomial remainder over Q
        a = a[:]
        while len(a) >= len(b) and any(a):
            f = a[0] / b[0]
            a = [x - f * y for x, y in zip(a, b + [0] * (len(a) - len(b)), strict=False)][1:]
        while a and a[0] == 0:
            a = a[1:]
        return a

    def deriv(a):
        n = len(a) - 1
        return [c * (n - i) for i, c in enumerate(a[:-1])]

    g, h = q, deriv(q)  # gcd(q, q′) by Euclid, then the squarefree part q / gcd
    while h:
        g, h = h, rem(g, h)
    sq = q
    if len(g) > 1:  # exact division q / g
        out, a = [], q[:]
        while len(a) >= len(g):
            f = a[0] / g[0]
            out.append(f)
            a = [x - f * y for x, y in zip(a, g + [0] * (len(a) - len(g)), strict=False)][1:]
        sq = out
    while len(sq) > 1 and sq[-1] == 0:  # roots at 0
        sq = sq[:-1]
    roots = (
        mpmath.polyroots(
            [mpmath.mpf(c.numerator) / c.denominator for c in sq], maxsteps=400, extraprec=400
        )
        if len(sq) > 1
        else []
    )
    slem = max([abs(z) for z in roots], default=mpmath.mpf(0))
    t_rel = 1 / (1 - slem)
    bound = mpmath.log(1 / (mpmath.mpf(eps.numerator) / eps.denominator * min(rho))) * t_rel
    # t_mix(ε) = min{t : d(t) ≤ ε}, exactly
    Pt = [[zero + int(i == j) for j in range(M)] for i in range(M)]
    t = 0
    while max(sum(abs(Pt[a][j] - rho[j]) for j in range(M)) for a in range(M)) / 2 > eps:
        Pt = [
            [sum((Pt[i][m] * P[m][j] for m in range(M)), zero) for j in range(M)] for i in range(M)
        ]
        t += 1
        assert t <= 10**4, "t_mix beyond 10⁴ steps"
    return {"lhs": t, "rhs": bound, "holds": t <= bound}


register_claim(
    "cafed:appf1-mixing-upper-general",
    "App. F1",
    "t_mix(ε) ≤ ln(1/(ε ρ_min))·t_rel, as applied to any Assumption-1 chain",
    (1486, 1486),
    "t_mix(ε) ≤ ln(1/(ε ρ_min))·t_rel for every irreducible aperiodic chain (the appendix "
    "states the bounds for the chain of Assumption 1, reversible or not)",
    space=_mix_space(MIX_UPPER_GENERAL_FAMILIES, k_max=3),
    margin=lambda i: _mix_upper(i, MIX_UPPER_GENERAL_FAMILIES),
    simplify=_mix_general_simplify,
    exact=lambda i: _mix_upper_exact(i, MIX_UPPER_GENERAL_FAMILIES),
    tolerance=1e-9,
    budget=200,
    expected="refuted",
    reading=Reading(
        quote="We recall some existing results [15], [31] for the Markov chain (A_t)_{t≥0} "
        "used in our analysis (Assumption 1). … Upper and lower bounds exist for the mixing "
        "time based on the relaxation time and the stationary distribution: (t_rel − 1)"
        "log(1/(2ε)) ≤ t_mix(ε) ≤ log(1/(ερ_min))t_rel, where ρ_min := min_a ρ_a [31, pp. "
        "154–156].",
        hypotheses=(
            ASSUMPTION1,
            Hypothesis("ε > 0 (the paper gives no range)", "ε ∈ (0, ½)"),
        ),
        interpretation="The bounds are stated for 'the Markov chain used in our analysis "
        "(Assumption 1)', which need not be reversible; the claim tests the upper bound "
        "there. It is Levin–Peres's Theorem 12.4 (the cited pages), proved for reversible "
        "chains: App. F1 drops that hypothesis. The claim does not test the cited theorem "
        "(its reversible form holds: cafed:appf1-mixing-upper-reversible) but its "
        "restatement for Assumption-1 chains. A global search over 3-state chains "
        "(differential "
        "evolution on P and ε) finds no counterexample; the smallest found has 4 states, "
        "P = [[0, ⅓, ⅓, ⅓], [0, 0, ⅔, ⅓], [1, 0, 0, 0], [⅔, ⅓, 0, 0]] (ρ = (3/8, 3/16, ¼, "
        "3/16), eigenvalue −⅓ in a Jordan block of size 3): d(3) = 3/8, d(4) = 47/216, so "
        "t_mix(ε) = 4 > (3/2)ln(16/(3ε)) for ε ∈ (0.3706, 0.375). The moderate witness is "
        "the 8-state fair de Bruijn chain (entries ½, d(t) = 7/8, 3/4, 1/2, 0: t_mix = 3 > "
        "ln(8/ε) for ε ∈ (0.398, ½)), simpler to check by hand. The bound is background in "
        "App. F1; no result of the paper uses it.",
        alternatives="Reversible chains: cafed:appf1-mixing-upper-reversible (holds); the "
        "lower bound: cafed:appf1-mixing-lower (holds for every Assumption-1 chain).",
    ),
    finding=Finding(
        "typo",
        "App. F1 states Levin–Peres's bound t_mix(ε) ≤ log(1/(ερ_min))t_rel for the chain of "
        "Assumption 1, dropping its hypothesis that the chain is reversible [31, Thm 12.4]; "
        "non-reversible chains violate it",
        intended="cafed:appf1-mixing-upper-reversible",
    ),
    explain=_mix_upper_explain,
    verify=_verify_appf1_mixing_upper,
    notes="Levin–Peres Thm 12.4 assumes reversibility; the library flags non-reversible chains "
    "(MixingTimeBounds.reversible = False). Counterexamples: (1) the de Bruijn chain of the "
    "last 3 fair coin flips (8 states, entries ½ and 0, Pᵗ = 1ρᵀ for t ≥ 3): λ̄₂ = 0, t_rel = "
    "1, "
    "ρ_min = 1/8, so the bound is ln(8/ε); d(2) = ½ > ε, hence t_mix(ε) = 3 > ln(8/ε) for "
    "ε ∈ (8/e³ ≈ 0.398, ½) — exact rationals; (2) the inventory's 7-state chain "
    "(weights [[8,816,44,0,3,103,25],…]) has t_mix(¼) = 6 > 5.749: d(5) = 0.254680 > ¼ in "
    "exact rationals (tested); (3) the smallest found, 4 states (see the reading). Space: "
    "de Bruijn chains of k ≤ 3 coin flips (heads p, laziness), where the search finds the "
    "8-state counterexample under every seed — a counterexample space, narrower than the "
    "paper's on purpose so that the witnesses read as plain numbers (dense chains violate "
    "the bound too rarely for a random search, the Jordan family's entries are unreadable, "
    "and k = 4, 5 give 16- and 32-state witnesses).",
)
