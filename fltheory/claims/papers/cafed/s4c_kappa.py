"""CA-Fed (ToN) §IV-C — Algorithm 1's get() as κ̄² → ∞ ("CA-Fed reduces to the unbiased
aggregation strategy", l.292–294: refuted at Γ̂′ = 0 with τ = 0, holds with Γ̂′ > 0) and the
number of excluded clients as κ̄² decreases (monotone per instance: refuted; more exclusions at
the small end than at the large end: holds), against a Fraction re-implementation of get().

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:kappa-infinity-gamma-positive").expected
'holds'
"""

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import register_claim
from fltheory.claims.explain import Explanation, Quantity, Step, dec, show
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.cafed._weights import (
    TINY,
    as_floats,
    combined_moves,
    dec_list,
    decimal_moves,
    fr_unit,
    pi_param,
    pis,
    unit_sum,
)
from fltheory.claims.space import Instance, Integer, Real, Simplex, Space
from fltheory.errors import NumericalError


def _kappa_inputs(inst: Instance) -> tuple[np.ndarray, ...]:
    raw = pis(inst, "alpha_raw")  # (subnormal entries declined)
    alpha = raw / raw.sum()
    shape = as_floats(inst["shape"])
    top = float(shape.max())
    if 0.0 < float(inst["gamma"]) < TINY:
        raise NumericalError("a subnormal Γ̂′ is beyond double precision")
    # Γ̂′ = max_k gap_k = gamma: all gaps equal to it when the shape vanishes
    gap = float(inst["gamma"]) * (shape / top if top > 0.0 else np.ones_like(shape))
    return alpha, pis(inst), as_floats(inst["lambda2"]), gap


#: Least positive α_k of the κ̄² → ∞ claims (see _kappa_levels).
KAPPA_ALPHA_MIN = 1e-8


def _kappa_levels(alpha: np.ndarray) -> list[float]:
    """κ̄² values past κ₀ = 1/(4 min_{α_k>0} α_k²): there a drop raises ε̂ by 4κ̄²α_k²Γ̂′ > Γ̂′,
    more than the opt term can gain, so with Γ̂′ > 0 get() keeps α/π."""
    smallest = float(alpha[alpha > 0].min())
    if smallest < KAPPA_ALPHA_MIN:
        # d_TV carries a rounding error ~Nε ≈ 1e-15 that get() multiplies by 4κ̄²Γ̂′: past
        # κ₀ = 1/(4α_min²) > 2.5e15 that noise decides the exclusions
        raise NumericalError("κ̄² beyond κ₀ amplifies d_TV's rounding error past Γ̂′")
    k0 = 1.0 / (4.0 * smallest**2)
    levels = [k0 * f for f in (2.0, 1e3, 1e6)]
    if not all(math.isfinite(x) and x < 1e290 for x in levels):
        raise NumericalError("κ̄² beyond κ₀ overflows double precision")
    return levels


def _kappa_margin(inst: Instance) -> float:
    from fltheory.sim.algorithms.cafed import cafed_weights

    alpha, pi, lam2, gap = _kappa_inputs(inst)
    target = alpha / pi
    worst = 0.0
    for kappa2 in _kappa_levels(alpha):
        q = cafed_weights(
            np.ones((1, pi.size), dtype=bool),
            alpha,
            pi[None],
            lam2[None],
            gap[None],
            kappa2,
            float(inst["tau"]),
        )[0]
        worst = min(worst, -float(np.max(np.abs(q - target)) / target.max()))
    return worst


def _get_fr(q, order, alpha, gap, gamma, pi, kappa2, tau):  # type: ignore[no-untyped-def]
    """Algorithm 1's get() (lines 13–21) in Fractions."""

    def eps(x: list[Any]) -> Any:
        total = sum(p * w for p, w in zip(pi, x, strict=True))
        p = [a * w / total for a, w in zip(pi, x, strict=True)]
        tv = sum(abs(a - b) for a, b in zip(alpha, p, strict=True)) / 2
        return sum(g * b for g, b in zip(gap, p, strict=True)) + 4 * kappa2 * tv * tv * gamma

    cur = eps(q)
    for k in order:
        if q[k] == 0 or sum(1 for x in q if x > 0) == 1:
            continue
        trial = list(q)
        trial[k] = Fraction(0)
        new = eps(trial)
        if cur - new >= tau:
            q, cur = trial, new
    return q


def _kappa_exact(inst: Instance) -> tuple[Any, str]:
    alpha, pi, lam2, gap = _kappa_inputs(inst)
    A, P, G = fr_unit(alpha), dec_list(pi), dec_list(gap)
    gamma, tau = max(G), dec(inst["tau"])
    target = [a / p for a, p in zip(A, P, strict=True)]
    by_corr = sorted(range(len(P)), key=lambda k: -abs(float(lam2[k])))
    by_avail = sorted(range(len(P)), key=lambda k: P[k])
    for kappa2 in _kappa_levels(alpha):
        q = _get_fr(list(target), by_corr, A, G, gamma, P, Fraction(kappa2), tau)
        q = _get_fr(q, by_avail, A, G, gamma, P, Fraction(kappa2), tau)
        dev = max(abs(a - b) for a, b in zip(q, target, strict=True)) / max(target)
        if dev:  # the first κ̄² level that excludes someone settles the sign
            return (
                -dev,
                f"exact rationals (a Fraction re-implementation of get(), κ̄² = {kappa2:.3g})",
            )
    return Fraction(0), "exact rationals (a Fraction re-implementation of get())"


def _kappa_space(gamma_low_open: bool) -> Space:
    return Space(
        [
            Integer("n", 1, 6),
            Real("alpha_raw", 0.0, 1.0, size="n", closed=(True, True), special=(0.0, 1.0)),
            pi_param(),
            Real("lambda2", -1.0, 1.0, size="n", special=(0.0, 0.9)),
            Real("gamma", 0.0, 10.0, closed=(not gamma_low_open, True), special=(0.0, 1.0)),
            Real("shape", 0.0, 1.0, size="n", closed=(True, True), special=(0.0, 1.0)),
            Real("tau", 0.0, 1.0, closed=(True, True), special=(0.0,)),
        ],
        where=lambda i: (
            float(np.sum(i["alpha_raw"])) > 0.0 and bool(np.all(np.abs(i["lambda2"]) < 1.0))
        ),
    )


KAPPA_NOTES = (
    "Code path: fltheory.sim.algorithms.cafed.cafed_weights (lines 5–7 of Algorithm 1: q = α/π̂, "
    "get() by |λ̂₂| decreasing, then by π̂ increasing), every client active, with gaps "
    "F̂ − F̂* = Γ̂′·shape/max(shape) ≥ 0 and threshold τ ≥ 0. 'CA-Fed reduces to Unbiased' "
    "is read as: for every κ̄² ≥ some κ₀, get() returns α/π̂. Margin: −max_k |q_k − α_k/π̂_k| "
    "/max(α/π̂) over κ̄² = κ₀·{2, 1e3, 1e6}, κ₀ = 1/(4 min α_k²) (α normalised from a vector "
    "with entries down to 1e-12; instances with a positive α_k < 1e-8 are declined: the float "
    "code's d_TV has a rounding error ~Nε that 4κ̄² ≥ 1/α_k² amplifies past Γ̂′ there, so the "
    "float get() then excludes clients by rounding noise, which the exact re-implementation does "
    "not). Exact: a "
    "Fraction re-implementation of get()."
)

KAPPA_QUOTE = (
    "In practice, κ̄² controls the number of excluded clients by CA-Fed. A small value of κ̄² "
    "penalizes the bias term in favor of the optimization error, resulting in a larger "
    "number of excluded clients. Conversely, the bias term dominates for large values "
    "of κ̄², and CA-Fed tends to include more clients. Asymptotically, for κ̄² → ∞, "
    "CA-Fed reduces to the unbiased aggregation strategy."
)
KAPPA_HYPOTHESES = (
    Hypothesis(
        "Algorithm 1, lines 5–7 and get() (lines 13–21): q = α/π̂, drops by "
        "|λ̂| decreasing then π̂ increasing, kept iff ε̂ − ε̂⁺ ≥ τ",
        "a Fraction re-implementation of get() and the library's cafed_weights",
    ),
    Hypothesis(
        "ε̂ of eq. (20) with F̂ − F̂* ≥ 0, Γ̂′ = max_k(F̂_k − F̂_k*) (eq. 19), τ ≥ 0",
        "gaps Γ̂′·shape/max(shape) ≥ 0, τ ∈ [0, 1]",
    ),
    Hypothesis(
        "π̂_k ∈ (0, 1], |λ̂_k| < 1, α a probability vector", "π̂ ∈ (0, 1]^N, λ̂ ∈ (−1, 1)^N, N ∈ [1, 6]"
    ),
)

register_claim(
    "cafed:kappa-infinity",
    "§IV-C",
    "'for κ̄² → ∞, CA-Fed reduces to the unbiased aggregation strategy'",
    (292, 294),
    "As κ̄² → ∞, CA-Fed's weights (Algorithm 1, eq. 20) become q = α/π̂: no client is "
    "excluded for κ̄² large enough (any Γ̂′ ≥ 0, τ ≥ 0).",
    space=_kappa_space(gamma_low_open=False),
    margin=_kappa_margin,
    exact=_kappa_exact,
    notes=KAPPA_NOTES + " FALSE when Γ̂′ = 0 and τ = 0: ε̂ ≡ 0 then, the test "
    "ε̂ − ε̂⁺ = 0 ≥ τ passes for every κ̄², and get() excludes every client but one. Γ̂′ = 0 "
    "is not rare: with the running-minimum F̂* of §IV-B (the default fstar='running_min' "
    "of fltheory's CA-Fed, documented there) it holds at the first round and at every "
    "round where each client's latest filtered loss is its own running minimum, e.g. "
    "while all losses decrease; the paper's experiments use τ = 0 (§V-A). "
    "Counterexample: N = 2 (any α > 0, π̂), Γ̂′ = 0, τ = 0.",
    simplify=decimal_moves(("alpha_raw", "pi", "lambda2", "shape")),
    expected="refuted",
    reading=Reading(
        quote=KAPPA_QUOTE,
        hypotheses=KAPPA_HYPOTHESES,
        interpretation="Literal: for every estimate, Γ̂′ = 0 with τ = 0 included, get() "
        "returns α/π̂ once κ̄² is large. Not the authors' meaning: the sentence's reason — "
        "'the bias term dominates for large values of κ̄²' — presupposes a non-zero bias "
        "term 4κ̄²d_TV²Γ̂′, i.e. Γ̂′ > 0. At Γ̂′ = 0 it is 0 for every κ̄²; ε̂ ≡ 0 and the "
        "exclusions come from get()'s tie rule ε̂ − ε̂⁺ ≥ τ with τ = 0, not from κ̄². (The "
        "authors' code estimates F̂* by the clients' true local minima, where Γ̂′ > 0 in "
        "practice.)",
        alternatives="Γ̂′ > 0: cafed:kappa-infinity-gamma-positive (holds, for every κ̄² ≥ "
        "1/(4 min α_k²)).",
    ),
    finding=Finding(
        "literal",
        "fails only at Γ̂′ = 0, where the bias term the remark relies on vanishes for every "
        "κ̄² and τ = 0 turns ties into exclusions; with Γ̂′ > 0 it holds "
        "(cafed:kappa-infinity-gamma-positive)",
        intended="cafed:kappa-infinity-gamma-positive",
    ),
)

register_claim(
    "cafed:kappa-infinity-gamma-positive",
    "§IV-C",
    "κ̄² → ∞ with Γ̂′ > 0",
    (292, 294),
    "If Γ̂′ > 0, CA-Fed's get() returns q = α/π̂ for every κ̄² ≥ κ₀ = 1/(4 min_k α_k²).",
    space=_kappa_space(gamma_low_open=True),
    margin=_kappa_margin,
    exact=_kappa_exact,
    notes=KAPPA_NOTES + " TRUE: dropping k from p = α costs 4κ̄²α_k²Γ̂′ > Γ̂′ in the bias "
    "term, more than the ⟨F̂ − F̂*, p⟩ term (within [0, Γ̂′]) can gain. Budget 1500: get() "
    "costs ~1.3 ms an evaluation.",
    budget=1500,
    expected="holds",
    reading=Reading(
        quote=KAPPA_QUOTE,
        hypotheses=(
            *(
                Hypothesis(
                    "Algorithm 1, lines 5–7 and get() (lines 13–21): q = α/π̂, drops by "
                    "|λ̂| decreasing then π̂ increasing, kept iff ε̂ − ε̂⁺ ≥ τ",
                    "a Fraction re-implementation of get() and the library's cafed_weights",
                ),
                Hypothesis(
                    "ε̂ of eq. (20) with F̂ − F̂* ≥ 0, Γ̂′ = max_k(F̂_k − F̂_k*) (eq. 19), τ ≥ 0",
                    "gaps Γ̂′·shape/max(shape) ≥ 0, τ ∈ [0, 1]",
                ),
                Hypothesis(
                    "π̂_k ∈ (0, 1], |λ̂_k| < 1, α a probability vector",
                    "π̂ ∈ (0, 1]^N, λ̂ ∈ (−1, 1)^N, N ∈ [1, 6]",
                ),
            )[:1],
            Hypothesis(
                "Γ̂′ > 0: a bias term that can dominate",
                "Γ̂′ ∈ (0, 10], gaps Γ̂′·shape/max(shape), τ ∈ [0, 1]",
            ),
            *(
                Hypothesis(
                    "Algorithm 1, lines 5–7 and get() (lines 13–21): q = α/π̂, drops by "
                    "|λ̂| decreasing then π̂ increasing, kept iff ε̂ − ε̂⁺ ≥ τ",
                    "a Fraction re-implementation of get() and the library's cafed_weights",
                ),
                Hypothesis(
                    "ε̂ of eq. (20) with F̂ − F̂* ≥ 0, Γ̂′ = max_k(F̂_k − F̂_k*) (eq. 19), τ ≥ 0",
                    "gaps Γ̂′·shape/max(shape) ≥ 0, τ ∈ [0, 1]",
                ),
                Hypothesis(
                    "π̂_k ∈ (0, 1], |λ̂_k| < 1, α a probability vector",
                    "π̂ ∈ (0, 1]^N, λ̂ ∈ (−1, 1)^N, N ∈ [1, 6]",
                ),
            )[2:],
        ),
        interpretation="'Reduces to the unbiased strategy' as κ̄² → ∞: for every estimate "
        "with Γ̂′ > 0 there is κ₀ past which get() returns α/π̂; κ₀ = 1/(4 min_k α_k²) works.",
    ),
)

#: κ̄² values per instance of the exclusion-count claims (a geometric grid from κ̄₁² to κ̄₂²).
COUNT_GRID = 61
#: Relative size of ε̂ − ε̂⁺ − τ below which the float get() declines the instance (a tie that
#: rounding would decide; the exact re-verification settles refutations).
TIE_TOL = 1e-9


def _count_inputs(inst: Instance, exact: bool) -> tuple[Any, ...]:
    """(α, π̂, gaps, Γ̂′, τ, order by |λ̂| decreasing, order by π̂ increasing), floats or exact
    decimals; gaps = Γ̂′·shape/max(shape) (all Γ̂′ when the shape vanishes)."""
    lam = as_floats(inst["lambda2"])
    gamma: Any
    tau: Any
    if exact:
        alpha, pi = fr_unit(inst["alpha"]), dec_list(inst["pi"])
        shape, gamma, tau = dec_list(inst["shape"]), dec(inst["gamma"]), dec(inst["tau"])
    else:
        alpha, pi = unit_sum(inst["alpha"]).tolist(), pis(inst).tolist()
        shape, gamma, tau = (
            as_floats(inst["shape"]).tolist(),
            float(inst["gamma"]),
            float(inst["tau"]),
        )
    top = max(shape)
    gaps = [gamma * x / top if top > 0 else gamma for x in shape]
    by_corr = sorted(range(len(pi)), key=lambda k: -abs(float(lam[k])))
    by_avail = sorted(range(len(pi)), key=lambda k: pi[k])
    return alpha, pi, gaps, gamma, tau, by_corr, by_avail


def _get_float(q, order, alpha, gap, gamma, pi, kappa2, tau):  # type: ignore[no-untyped-def]
    """Algorithm 1's get() in floats, declining a near-tie ε̂ − ε̂⁺ ≈ τ (NumericalError)."""

    def eps(x: list[float]) -> tuple[float, float]:
        total = sum(p * w for p, w in zip(pi, x, strict=True))
        p = [a * w / total for a, w in zip(pi, x, strict=True)]
        tv = sum(abs(a - b) for a, b in zip(alpha, p, strict=True)) / 2
        opt = sum(g * b for g, b in zip(gap, p, strict=True))
        bias = 4 * kappa2 * tv * tv * gamma
        return opt + bias, opt + 4 * kappa2 * gamma  # value, size of its terms

    cur, size = eps(q)
    for k in order:
        if q[k] == 0 or sum(1 for x in q if x > 0) == 1:
            continue
        trial = list(q)
        trial[k] = 0.0
        new, size2 = eps(trial)
        if abs(cur - new - tau) <= TIE_TOL * (size + size2 + tau):
            raise NumericalError("a near-tie ε̂ − ε̂⁺ ≈ τ in get(): rounding would decide it")
        if cur - new >= tau:
            q, cur, size = trial, new, size2
    return q


def _excluded(inst: Instance, kappa2: Any, exact: bool = True) -> list[int]:
    """The clients Algorithm 1 (lines 5–7) excludes at κ̄² (exact rationals, or floats that
    decline near-ties)."""
    alpha, pi, gaps, gamma, tau, by_corr, by_avail = _count_inputs(inst, exact)
    get = _get_fr if exact else _get_float
    q = [a / p for a, p in zip(alpha, pi, strict=True)]
    q = get(q, by_corr, alpha, gaps, gamma, pi, kappa2, tau)
    q = get(q, by_avail, alpha, gaps, gamma, pi, kappa2, tau)
    return [k + 1 for k in range(len(q)) if q[k] == 0]


#: The κ̄² grid of cafed:kappa-exclusion-monotone: 10^(−3 + j/10), j = 0 … 60.
KAPPA_GRID = [dec(10.0 ** (-3.0 + j / 10.0)) for j in range(COUNT_GRID)]


def _kappa_grid(inst: Instance) -> list[Any]:
    return KAPPA_GRID


def _counts_float(inst: Instance, kappas: Sequence[float]) -> np.ndarray:
    """#excluded by Algorithm 1 (lines 5–7) at every κ̄² of ``kappas`` at once (floats,
    vectorised over κ̄²; a near-tie ε̂ − ε̂⁺ ≈ τ declines the instance, as in _get_float)."""
    alpha, pi, gaps, gamma, tau, by_corr, by_avail = _count_inputs(inst, exact=False)
    a, p, g = np.asarray(alpha), np.asarray(pi), np.asarray(gaps)
    k2 = np.asarray(kappas, dtype=float)[:, None]
    q = np.tile(a / p, (k2.shape[0], 1))

    def eps(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        w = x * p
        w = w / w.sum(axis=1, keepdims=True)
        tv = 0.5 * np.abs(a - w).sum(axis=1, keepdims=True)
        opt = (w * g).sum(axis=1, keepdims=True)
        return opt + 4.0 * k2 * tv * tv * gamma, opt + 4.0 * k2 * gamma

    for order in (by_corr, by_avail):
        cur, size = eps(q)
        for k in order:
            live = (q[:, k : k + 1] > 0) & ((q > 0).sum(axis=1, keepdims=True) > 1)
            trial = q.copy()
            trial[:, k] = 0.0
            new, size2 = eps(np.where(live, trial, q))
            gain = cur - new - tau
            if np.any(live & (np.abs(gain) <= TIE_TOL * (size + size2 + tau))):
                raise NumericalError("a near-tie ε̂ − ε̂⁺ ≈ τ in get(): rounding would decide it")
            take = live & (gain >= 0)
            q = np.where(take, trial, q)
            cur, size = np.where(take, new, cur), np.where(take, size2, size)
    return (q == 0).sum(axis=1)


def _count_monotone(inst: Instance) -> float:
    counts = _counts_float(inst, [float(k) for k in _kappa_grid(inst)])
    return float(np.min(counts[:-1] - counts[1:])) / int(inst["n"])


def _count_monotone_exact(inst: Instance) -> tuple[Any, str]:
    """The exact counts at the float margin's worst consecutive pair (all pairs when the floats
    decline or see no decrease there)."""
    grid = _kappa_grid(inst)
    try:
        counts = _counts_float(inst, [float(k) for k in grid]).tolist()
        j = min(range(len(grid) - 1), key=lambda i: counts[i] - counts[i + 1])
        pairs = [(grid[j], grid[j + 1])]
    except NumericalError:
        pairs = []
    n = int(inst["n"])
    for a, b in pairs:
        value = Fraction(len(_excluded(inst, a)) - len(_excluded(inst, b)), n)
        if value < 0:
            return value, "exact rationals (a Fraction get()) at the worst pair of κ̄²"
    exact = [len(_excluded(inst, k)) for k in grid]
    return Fraction(min(a - b for a, b in itertools.pairwise(exact)), n), (
        "exact rationals (a Fraction get()) on the whole grid"
    )


def _worst_pair(inst: Instance) -> list[Any]:
    """The consecutive κ̄² of the grid where the exact count rises most (or drops least)."""
    counts = [len(_excluded(inst, k)) for k in KAPPA_GRID]
    j = min(range(len(counts) - 1), key=lambda i: counts[i] - counts[i + 1])
    return KAPPA_GRID[j : j + 2]


def _count_explain(inst: Instance, kappas: Sequence[Any]) -> Explanation:
    alpha, pi, gaps, gamma, tau, _by_corr, _by_avail = _count_inputs(inst, exact=True)
    excluded = [_excluded(inst, k) for k in kappas]
    worst = min(range(len(kappas) - 1), key=lambda j: len(excluded[j]) - len(excluded[j + 1]))
    lam = tuple(dec(x) for x in as_floats(inst["lambda2"]))
    return Explanation(
        quantities=(
            Quantity("α", "target importance", tuple(alpha)),
            Quantity("π̂", "estimated availabilities", tuple(pi)),
            Quantity(
                "λ̂₂", "estimated second eigenvalues (get()'s first order: |λ̂₂| decreasing)", lam
            ),
            Quantity("F̂ − F̂*", "estimated loss gaps", tuple(gaps)),
            Quantity("Γ̂′", "max_k(F̂_k − F̂_k*) (eq. 19)", gamma),
            Quantity("τ", "threshold of get()", tau),
        ),
        steps=tuple(
            Step(f"excluded at κ̄² = {show(k)}", "Algorithm 1, lines 5–7", tuple(e))
            for k, e in zip(kappas, excluded, strict=True)
        ),
        lhs=Step(f"#excluded at κ̄² = {show(kappas[worst])}", "", len(excluded[worst])),
        relation="≥",
        rhs=Step(f"#excluded at κ̄² = {show(kappas[worst + 1])}", "", len(excluded[worst + 1])),
        holds=all(len(a) >= len(b) for a, b in itertools.pairwise(excluded)),
    )


COUNT_SPACE: list[Any] = [
    Integer("n", 2, 8),
    Simplex("alpha", "n"),
    pi_param(),
    Real("lambda2", -1.0, 1.0, size="n", special=(0.0, 0.5)),
    Real("gamma", 0.0, 1.0, closed=(False, True), special=(1.0,)),
    Real("shape", 0.0, 1.0, size="n", closed=(True, True), special=(0.0, 1.0, 0.5)),
    Real("tau", 0.0, 1.0, closed=(True, True), special=(0.0,)),
]

COUNT_NOTES = (
    "Algorithm 1's lines 5–7 at fixed estimates, gaps Γ̂′·shape/max(shape), Γ̂′ > 0: floats in "
    "the search, declining near-ties ε̂ − ε̂⁺ ≈ τ (relative 1e-9: rounding would decide them, "
    "and τ = 0 makes exact ties common), re-verified with the Fraction get() of "
    "cafed:kappa-infinity."
)

register_claim(
    "cafed:kappa-exclusion-monotone",
    "§IV-C",
    "'a small value of κ̄² … resulting in a larger number of excluded clients'",
    (292, 294),
    "At fixed estimates, the number of clients Algorithm 1 (lines 5–7) excludes does not "
    "increase as κ̄² grows.",
    space=Space([*COUNT_SPACE[:-1], Real("tau", 0.0, 0.0, closed=(True, True))]),
    margin=_count_monotone,
    exact=_count_monotone_exact,
    tolerance=0.0,
    simplify=combined_moves(
        decimal_moves(("pi", "alpha", "lambda2", "shape"), ("alpha",)),
        lambda i: [
            {**i, "gamma": g}
            for g in (1.0, round(float(i["gamma"]), 1), round(float(i["gamma"]), 2))
        ],
    ),
    notes=COUNT_NOTES + " τ = 0 (the experiments' and the authors' code's value); κ̄² on "
    "the grid 10^(−3 + j/10), j = 0 … 60; margin min_j(#excl(κ̄_j²) − #excl(κ̄_{j+1}²))/N. "
    "FALSE per "
    "instance: get() is greedy — a drop accepted at a smaller κ̄² lowers ε̂'s reference and "
    "raises d_TV for the next candidates, so it can block drops that a larger κ̄² (which "
    "rejects that first drop) then accepts. Rare (~1 % of random instances with N ≥ 4 "
    "over a κ̄² sweep; none found with N = 3).",
    expected="refuted",
    explain=lambda inst: _count_explain(inst, _worst_pair(inst)),
    reading=Reading(
        quote=KAPPA_QUOTE,
        hypotheses=(
            *KAPPA_HYPOTHESES[:1],
            Hypothesis(
                "Γ̂′ > 0, τ ≥ 0",
                "Γ̂′ ∈ (0, 1], τ = 0 (the value of §V's experiments; ε̂ scales with Γ̂′)",
            ),
            Hypothesis("N ≥ 2 clients, π̂_k ∈ (0, 1], |λ̂_k| < 1", "N ∈ [2, 8]"),
            Hypothesis("κ̄² ≥ 0", "κ̄² ∈ [1e-3, 1e3] on a 61-point grid"),
        ),
        interpretation="Literal: per instance, every increase of κ̄² keeps or lowers the "
        "count of excluded clients. Not the authors' claim: §IV-C describes what κ̄² does "
        "'in practice' and says CA-Fed 'tends to include more clients' for large κ̄²: a "
        "tendency of a greedy procedure, not a per-instance monotonicity.",
        alternatives="The two ends of the tendency: κ̄² = 0 excludes at least as many "
        "clients as any κ̄² > 0 (cafed:kappa-exclusion-endpoints) and nobody is excluded "
        "for κ̄² ≥ 1/(4 min α_k²) (cafed:kappa-infinity-gamma-positive).",
    ),
    finding=Finding(
        "literal",
        "get() is greedy, so the count is not monotone in κ̄² on every instance; §IV-C "
        "states a tendency ('in practice', 'tends to include more clients'), and its two "
        "ends hold (cafed:kappa-exclusion-endpoints, cafed:kappa-infinity-gamma-positive)",
        intended="cafed:kappa-exclusion-endpoints",
    ),
)


def _count_endpoints(inst: Instance) -> float:
    zero = len(_excluded(inst, 0.0, exact=False))
    other = len(_excluded(inst, 10.0 ** float(inst["log_k"]), exact=False))
    return (zero - other) / int(inst["n"])


def _count_endpoints_exact(inst: Instance) -> tuple[Any, str]:
    zero = len(_excluded(inst, Fraction(0)))
    other = len(_excluded(inst, dec(10.0 ** float(inst["log_k"]))))
    return Fraction(zero - other, int(inst["n"])), "exact rationals (a Fraction get())"


register_claim(
    "cafed:kappa-exclusion-endpoints",
    "§IV-C",
    "'a small value of κ̄² … resulting in a larger number of excluded clients'",
    (292, 294),
    "At fixed estimates, Algorithm 1 (lines 5–7) excludes at least as many clients at κ̄² = 0 "
    "as at any κ̄² > 0.",
    space=Space([*COUNT_SPACE, Real("log_k", -3.0, 5.0, closed=(True, True), special=(0.0,))]),
    margin=_count_endpoints,
    exact=_count_endpoints_exact,
    tolerance=0.0,
    notes=COUNT_NOTES + " Margin (#excl(0) − #excl(κ̄²))/N. TRUE in the search: at κ̄² = 0, "
    "ε̂ = ⟨F̂ − F̂*, p⟩ and a drop passes iff the client's gap is at least the current "
    "weighted mean (+ τ); the bias term only adds a cost to each drop.",
    expected="holds",
    explain=lambda inst: _count_explain(inst, [Fraction(0), dec(10.0 ** float(inst["log_k"]))]),
    reading=Reading(
        quote=KAPPA_QUOTE,
        hypotheses=(
            *KAPPA_HYPOTHESES[:1],
            Hypothesis(
                "Γ̂′ > 0, τ ≥ 0",
                "Γ̂′ ∈ (0, 1], τ ∈ [0, 0.05] (ε̂ scales with Γ̂′: only τ/Γ̂′ matters)",
            ),
            Hypothesis("N ≥ 2 clients", "N ∈ [2, 8]"),
            Hypothesis("κ̄² ≥ 0", "κ̄² ∈ [1e-3, 1e5]"),
        ),
        interpretation="The tendency's small-κ̄² end: no κ̄² > 0 excludes more clients than "
        "κ̄² = 0, where the bias term is off.",
    ),
)
