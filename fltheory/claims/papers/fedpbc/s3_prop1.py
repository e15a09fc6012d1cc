"""§III — Proposition 1 of the FedPBC paper (seed ``004_7f83552c6af82f79.txt``, ``l.N`` its lines),
l.96–104: FedAvg's limit under static non-uniform links (F_i = ½‖x − u_i‖², exact gradients) read
three ways — the iterate itself (``fedpbc:prop1-printed``), lim E[x^T]
(``fedpbc:prop1-expectation``) and the time average (``fedpbc:prop1-time-average``) — and the remark
for uniform p (``fedpbc:prop1-remark-uniform``).

Setting: m clients, independent links with P(i ∈ A^t) = p_i, F = (1/m)ΣF_i. Oracles are independent
of the code under test: enumeration of the 2^m link patterns (floats, and
:class:`~fractions.Fraction` for the exact margins), ``mpmath`` beyond m = 10.

>>> from fltheory.claims import CLAIMS
>>> claim = CLAIMS.get("fedpbc:prop1-remark-uniform")
>>> abs(claim.margin({"m": 3, "p": 0.3, "u": np.array([0.0, 1.0, 2.0])})) < 1e-12
True
"""

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.exact import fr, frs, mp_to_fraction
from fltheory.claims.explain import Explanation, Quantity, Step, dec, decs, signed
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.fedpbc._common import (
    link_masks,
    local_gain,
    nonempty_conditional,
    prop1_code_limit,
    set_probs_exact,
    u_spread,
)
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError


def _prop1_variance(p: np.ndarray, u: np.ndarray, gamma: float) -> float:
    """Stationary Var(x) of FedAvg on F_i = ½(x − u_i)², d = 1: with μ = lim E[x],
    Var = γ/(2 − γ)·E[(ū_A − μ)² | A ≠ ∅] (x_{t+1} − μ = (1 − γ)(x_t − μ) + γ(ū_A − μ))."""
    masks = link_masks(p.size)
    cond = nonempty_conditional(p, masks)
    size = masks.sum(axis=1)
    keep = size > 0
    means = (masks[keep] @ u) / size[keep]
    pr = cond[keep]
    mu = float(pr @ means)
    return gamma / (2.0 - gamma) * float(pr @ (means - mu) ** 2)


def _prop1_printed_margin(inst: Instance) -> float:
    p, u = np.asarray(inst["p"]), np.asarray(inst["u"])
    gamma = local_gain(inst)
    spread = u_spread(u)
    if spread == 0.0:
        return 0.0
    return -_prop1_variance(p, u, gamma) / spread**2


def _prop1_printed_exact(inst: Instance) -> ExactMargin:
    p, u = frs(inst["p"]), frs(inst["u"])
    eta, s = fr(inst["eta"]), inst["s"]
    gamma = 1 - (1 - eta) ** s
    sets = [(mem, pr) for mem, pr in set_probs_exact(p) if mem]
    p_any = sum((pr for _, pr in sets), Fraction(0))
    means = [sum((u[i] for i in mem), Fraction(0)) / len(mem) for mem, _ in sets]
    mu = sum((pr * a for (_, pr), a in zip(sets, means, strict=True)), Fraction(0)) / p_any
    var = (
        gamma
        / (2 - gamma)
        * sum((pr * (a - mu) ** 2 for (_, pr), a in zip(sets, means, strict=True)), Fraction(0))
        / p_any
    )
    ubar = sum(u, Fraction(0)) / len(u)
    spread = max(abs(v - ubar) for v in u)
    return (-var / spread**2 if spread else Fraction(0)), "exact rationals (2^m link patterns)"


PROP1_SPACE = Space(
    [
        Integer("m", 1, 6),
        Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
        Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0, -1.0)),
        Real("eta", 0.0, 1.0, special=(0.5,)),
        Integer("s", 1, 30),
    ]
)


def _prop1_printed_explain(inst: Instance) -> Explanation:
    """The instance in the paper's terms: F_i(x) = ½(x − u_i)², the link probabilities p_i, the
    step η and s local steps; the stationary variance of x^T against 0."""
    p, u = decs(inst["p"]), decs(inst["u"])
    eta, s = dec(inst["eta"]), int(inst["s"])
    gamma = 1 - (1 - eta) ** s
    sets = [(mem, pr) for mem, pr in set_probs_exact(list(p)) if mem]
    p_any = sum((pr for _, pr in sets), Fraction(0))
    means = [sum((u[i] for i in mem), Fraction(0)) / len(mem) for mem, _ in sets]
    mu = sum((pr * a for (_, pr), a in zip(sets, means, strict=True)), Fraction(0)) / p_any
    spread = (
        sum((pr * (a - mu) ** 2 for (_, pr), a in zip(sets, means, strict=True)), Fraction(0))
        / p_any
    )
    var = gamma / (2 - gamma) * spread
    losses = tuple(
        Quantity(f"F_{i + 1}", f"loss of client {i + 1}", ui, f"F_{i + 1}(x) = ½(x {signed(-ui)})²")
        for i, ui in enumerate(u)
    )
    return Explanation(
        quantities=(
            *losses,
            Quantity("p", "link probability of each client (static)", tuple(p)),
            Quantity("η", "local step size", eta),
            Quantity("s", "local steps per round", s),
            Quantity("x⁰", "initial model", 0),
        ),
        steps=(
            Step("γ", "1 − (1 − η)^s (gain of s exact local steps)", gamma),
            Step("lim E[x^T]", "Σ_{A≠∅} P(A) ū_A / P(A ≠ ∅) (the printed formula)", mu),
            Step("E[(ū_A − μ)² | A ≠ ∅]", "spread of the active clients' mean", spread),
        ),
        lhs=Step("lim Var(x^T)", "γ/(2 − γ)·E[(ū_A − μ)² | A ≠ ∅]", var),
        relation="=",
        rhs=Step("0", "what convergence of x^T needs", 0),
        holds=var == 0,
        note="x^T keeps fluctuating around lim E[x^T]; the printed limit is lim E[x^T].",
    )


register_claim(
    "fedpbc:prop1-printed",
    "§III",
    "Proposition 1 (as printed: lim x^T)",
    (96, 102),
    "Under FedAvg with exact local gradients, x⁰ = 0, η ∈ (0, 1), static p_i, the iterate x^T "
    "converges (to Σ_i w_i u_i with the printed subset-sum weights).",
    space=PROP1_SPACE,
    margin=_prop1_printed_margin,
    exact=_prop1_printed_exact,
    tolerance=1e-12,
    budget=1000,
    expected="refuted",
    explain=_prop1_printed_explain,
    reading=Reading(
        quote="Proposition 1. Choose x⁰ = 0 and η_t = η ∈ (0, 1) for all t. For a global "
        "objective as per Eq. (2), if p_i^t = p_i for all t, under FedAvg with exact local "
        "gradients lim_{T→∞} x^T = Σ_i p_i u_i [1 + Σ_{j≥2} (−1)^{j+1} (1/j) Σ_{S∈B_j} "
        "Π_{z∈S} p_z] / (1 − Π_i (1 − p_i)).",
        hypotheses=(
            Hypothesis(
                "F_i(x) = ½‖x − u_i‖² (eq. 2)",
                "u_i ∈ [−1, 1], d = 1 (the dynamics are coordinate-wise)",
            ),
            Hypothesis(
                "x⁰ = 0, η_t = η ∈ (0, 1), exact local gradients",
                "η ∈ (0, 1), s ∈ [1, 30] exact gradient steps",
            ),
            Hypothesis("static links p_i^t = p_i", "p_i ∈ (0, 1], independent across clients"),
        ),
        interpretation="Literal: the random iterate x^T itself converges. Not the authors' "
        "meaning: x^T is random (the links are), the printed right-hand side is the fixed "
        "point of E[x^T], and the appendix's proof computes E[x^T]; 'lim x^T' is shorthand for "
        "lim E[x^T].",
        alternatives="lim E[x^T]: fedpbc:prop1-expectation (holds); the time average of x^t: "
        "fedpbc:prop1-time-average (holds).",
    ),
    finding=Finding(
        "literal",
        "x^T is random and never settles, but the printed formula is exactly lim E[x^T] "
        "(fedpbc:prop1-expectation holds): shorthand, not an error",
        intended="fedpbc:prop1-expectation",
    ),
    notes="x^T converges only if its stationary law is a point mass. x_{t+1} − μ = "
    "(1 − γ)(x_t − μ) + γ(ū_A − μ) on A ≠ ∅ (γ = 1 − (1 − η)^s, μ = lim E[x]), so the "
    "stationary variance is γ/(2 − γ)·E[(ū_A − μ)² | A ≠ ∅] (exact, enumeration of the 2^m "
    "sets). Margin −Var/max_i(u_i − ū)². It is 0 only if all p_i = 1 or every active set has "
    "the same mean. Proposition 1 is a statement about lim E[x^T] "
    "(fedpbc:prop1-expectation) and the time average (fedpbc:prop1-time-average); "
    "fltheory.limits.bernoulli already implements that reading.",
)


def _prop1_oracle_limit(p: np.ndarray, u: np.ndarray) -> float:
    """lim E[x] = Σ_{A≠∅} P(A) ū_A / P(A ≠ ∅): the fixed point of
    E[x'] = P(∅)E[x] + Σ_{A≠∅} P(A)((1 − γ)E[x] + γū_A) (γ cancels)."""
    if p.size <= 12:
        masks = link_masks(p.size)
        cond = nonempty_conditional(p, masks)
        size = masks.sum(axis=1)
        keep = size > 0
        return float(cond[keep] @ ((masks[keep] @ u) / size[keep]))
    if np.any((p > 0) & (p < 1e-300)):
        raise NumericalError("subnormal link probabilities: the deflation oracle loses them")
    from fltheory.limits.bernoulli import prob_any_active
    from fltheory.limits.poisson_binomial import harmonic_inclusion_deflation

    return float(harmonic_inclusion_deflation(p) @ u) / prob_any_active(p)


def _prop1_expectation_margin(inst: Instance) -> float:
    p, u = np.asarray(inst["p"]), np.asarray(inst["u"])
    scale = max(float(np.max(np.abs(u))), 1e-300)
    return -abs(prop1_code_limit(p, u) - _prop1_oracle_limit(p, u)) / scale


def _prop1_limit_mp(p: list[Fraction], u: list[Fraction], dps: int = 40) -> Any:
    """lim E[x] at ``dps`` digits: h_i = p_i E[1/(1 + K_i)] with the pmf of K_i = |A ∖ {i}| by
    convolution (all terms non-negative), divided by P(A ≠ ∅)."""
    import mpmath

    with mpmath.workdps(dps):
        ps = [mpmath.mpf(v.numerator) / v.denominator for v in p]
        total = mpmath.mpf(0)
        for i in range(len(ps)):
            pmf = [mpmath.mpf(1)]
            for j, v in enumerate(ps):
                if j == i:
                    continue
                pmf = [
                    (1 - v) * (pmf[k] if k < len(pmf) else 0) + v * (pmf[k - 1] if k else 0)
                    for k in range(len(pmf) + 1)
                ]
            h = ps[i] * sum(pmf[k] / (k + 1) for k in range(len(pmf)))
            total += h * mpmath.mpf(u[i].numerator) / u[i].denominator
        none = mpmath.fprod(1 - v for v in ps)
        return total / (1 - none)


def _prop1_expectation_exact(inst: Instance) -> ExactMargin:
    import mpmath

    from fltheory.limits.subset_sum import fedavg_weights_exact

    p, u = frs(inst["p"]), frs(inst["u"])
    code = fr(prop1_code_limit(np.asarray(inst["p"]), np.asarray(inst["u"])))
    scale = max(abs(v) for v in u) or Fraction(1)
    tol = Fraction(1, 10**9)
    if len(p) <= 10:
        formula = sum((w * v for w, v in zip(fedavg_weights_exact(p), u, strict=True)), Fraction(0))
        sets = [(mem, pr) for mem, pr in set_probs_exact(p) if mem]
        p_any = sum((pr for _, pr in sets), Fraction(0))
        lim = (
            sum(
                (pr * sum((u[i] for i in mem), Fraction(0)) / len(mem) for mem, pr in sets),
                Fraction(0),
            )
            / p_any
        )
        err = max(abs(formula - lim), abs(code - lim)) / scale
        return tol - err, (
            "exact rationals: printed subset-sum formula, fixed point of E[x_t] by enumeration, "
            "and the code's float output"
        )
    with mpmath.workdps(40):
        lim = _prop1_limit_mp(p, u)
        err = abs(mpmath.mpf(code.numerator) / code.denominator - lim) / (
            mpmath.mpf(scale.numerator) / scale.denominator
        )
        return mp_to_fraction(mpmath.mpf(tol.numerator) / tol.denominator - err), (
            "mpmath 40 digits (pmf of K_i by convolution) vs the code's float output"
        )


register_claim(
    "fedpbc:prop1-expectation",
    "§III",
    "Proposition 1 (reading: lim E[x^T])",
    (96, 102),
    "lim_T E[x^T] = Σ_i u_i p_i[1 + Σ_{j≥2}(−1)^{j+1}(1/j)Σ_{S∈B_j}Π_{z∈S}p_z]/(1 − Π(1 − p_i)).",
    space=Space(
        [
            Integer("m", 1, 60),
            Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
            Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0, -1.0)),
        ]
    ),
    margin=_prop1_expectation_margin,
    exact=_prop1_expectation_exact,
    tolerance=1e-9,
    expected="holds",
    reading=Reading(
        quote="Proposition 1. Choose x⁰ = 0 and η_t = η ∈ (0, 1) for all t. For a global "
        "objective as per Eq. (2), if p_i^t = p_i for all t, under FedAvg with exact local "
        "gradients lim_{T→∞} x^T = Σ_i p_i u_i [1 + Σ_{j≥2}(−1)^{j+1}(1/j)Σ_{S∈B_j}Π_{z∈S}p_z]"
        "/(1 − Π_i(1 − p_i)).",
        hypotheses=(
            Hypothesis(
                "F_i = ½‖x − u_i‖², x⁰ = 0, η ∈ (0, 1), exact gradients",
                "d = 1 (coordinate-wise dynamics), u_i ∈ (−1, 1); η and s cancel in the limit",
            ),
            Hypothesis("static independent links p_i", "p_i ∈ (0, 1], m ≤ 60"),
        ),
        interpretation="lim x^T read as lim E[x^T] (x^T is random; the formula is the fixed "
        "point of the mean recursion, which the appendix's proof computes).",
        alternatives="Literal lim x^T: fedpbc:prop1-printed (literal); time average: "
        "fedpbc:prop1-time-average.",
    ),
    notes="Code path: fltheory.limits.bernoulli.fedavg_weights (certified Gauss rule). Oracle: "
    "the fixed point of the mean recursion by enumerating the 2^m link patterns (m ≤ 12), "
    "else the Poisson-binomial deflation of fltheory.limits.poisson_binomial (an independent "
    "O(m²) algorithm). γ = 1 − (1 − η)^s cancels in the fixed point, so η and s are not "
    "parameters. Margin −|limit_code − limit_oracle|/max|u|, tolerance 1e-9. The exact margin "
    "re-evaluates it with the code's output as data: for m ≤ 10 against the printed formula "
    "(exact rationals) and the exact fixed point, for m > 10 against a 40-digit evaluation.",
)


def _prop1_time_average_margin(inst: Instance) -> float:
    from fltheory.rng import generator

    p, u = np.asarray(inst["p"]), np.asarray(inst["u"])
    eta, s = inst["eta"], inst["s"]
    gamma = 1.0 - (1.0 - eta) ** s
    runs, rounds, burn = 256, 400, 100
    with np.errstate(divide="ignore"):
        p_any = float(-np.expm1(np.sum(np.log1p(-p))))
    if p_any * runs * (rounds - burn) < 1000:
        raise NumericalError("too few link activations for a Monte Carlo estimate")
    rng = generator(int(inst["seed"]), "claims/fedpbc-prop1-time-average")
    x = np.zeros(runs)
    acc = np.zeros(runs)
    for t in range(rounds):
        if t >= burn:
            acc += x
        active = rng.random((runs, p.size)) < p
        count = active.sum(axis=1)
        mean_u = (active @ u) / np.maximum(count, 1)
        x = np.where(count > 0, (1 - gamma) * x + gamma * mean_u, x)
    avg = acc / (rounds - burn)
    lim = _prop1_oracle_limit(p, u)
    # link patterns too rare to be drawn in runs × rounds rounds (a tiny p_i, or a p_i close
    # to 1 whose absence is rare) move the limit by at most their conditional mass × 2max|u|
    masks = link_masks(p.size)
    cond = nonempty_conditional(p, masks)
    rare = cond * p_any * runs * rounds < 30
    unseen = float(np.sum(cond[rare])) * 2.0 * float(np.max(np.abs(u)))
    # E[x_t] = lim·(1 − r^t), r = 1 − γP(A ≠ ∅), 1 − r^t = −expm1(t·log1p(−γP(A ≠ ∅))): the
    # exact mean of the time average
    ts = np.arange(burn, rounds)
    log_r = math.log1p(-gamma * p_any) if gamma * p_any < 1.0 else -math.inf
    expected = lim * float(np.mean(-np.expm1(ts * log_r)))
    # the transient lim·r^t of that mean comes from runs with few link activations before t;
    # once r^100·runs < 30 those runs are too rare to be drawn (with γ ≈ 1 and m = 1, x jumps
    # to u at the first activation): allow for the whole transient then
    if runs * math.exp(burn * log_r) < 30:
        unseen += abs(lim) * float(np.mean(np.exp(ts * log_r)))
    # likewise rounds with no link up (A = ∅) too rare to be drawn: allow for their effect
    # on the transient (the same mean with P(A ≠ ∅) = 1)
    if (1.0 - p_any) * runs * rounds < 30:
        log_r1 = math.log1p(-gamma) if gamma < 1.0 else -math.inf
        unseen += abs(expected - lim * float(np.mean(-np.expm1(ts * log_r1))))
    se = float(avg.std(ddof=1)) / math.sqrt(runs)
    scale = 1.0 + float(np.max(np.abs(u)))
    return (6.0 * se + unseen + 1e-12 * scale - abs(float(avg.mean()) - expected)) / scale


register_claim(
    "fedpbc:prop1-time-average",
    "§III",
    "Proposition 1 (reading: time average along a run)",
    (96, 102),
    "The time average of x^t along one FedAvg run converges to Proposition 1's point.",
    space=Space(
        [
            Integer("m", 1, 4),
            Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
            Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0, -1.0)),
            Real("eta", 0.0, 1.0, special=(0.5,)),
            Integer("s", 1, 5),
            Integer("seed", 0, 10**6),
        ]
    ),
    margin=_prop1_time_average_margin,
    tolerance=0.0,
    budget=300,
    expected="holds",
    notes="Monte Carlo (seeded by the instance): 256 runs of 400 rounds, average over rounds "
    "100–399, compared with the exact mean of that time average, lim·(1 − Σ r^t/300) with "
    "r = 1 − γP(A ≠ ∅) (the transient from x⁰ = 0). Margin (6·SE − |mean − expected|)/(1 + "
    "max|u|), plus an allowance for what is too rare to be drawn (expected count < 30): "
    "link patterns, and the transient lim·r^t, r = 1 − γP(A ≠ ∅), once r^100 × 256 < 30 (it "
    "comes from runs with few activations; without it m = 1, p = 0.12, u = −0.28, η = 0.99, "
    "s = 3 was a false refutation at −1.7e-8, and m = 1, p = 0.2337, u = 0.8169, η = 0.8169, "
    "s = 1 one at −3.8e-12), and rounds with A = ∅ when rarer than that: "
    "a 6-standard-error band (the chain x_t is a contracting iterated function "
    "system, hence ergodic, and the a.s. limit of its time average is its stationary mean). No "
    "exact margin (Monte Carlo); the budget is 300 evaluations (≈ 10 ms each).",
)


def _prop1_uniform_margin(inst: Instance) -> float:
    from fltheory.limits.bernoulli import fedavg_weights

    m, u = inst["m"], np.asarray(inst["u"])
    w = fedavg_weights(np.full(m, inst["p"])).weights
    scale = max(float(np.max(np.abs(u))), 1e-300)
    return -abs(float(w @ u) - float(u.mean())) / scale


def _prop1_uniform_exact(inst: Instance) -> ExactMargin:
    from fltheory.limits.bernoulli import fedavg_weights

    m, u = inst["m"], frs(inst["u"])
    w = fedavg_weights(np.full(m, inst["p"])).weights
    code = sum((fr(a) * b for a, b in zip(w, u, strict=True)), Fraction(0))
    scale = max(abs(v) for v in u) or Fraction(1)
    return Fraction(1, 10**12) - abs(code - sum(u, Fraction(0)) / m) / scale, (
        "exact rationals on the code's weights; the true limit is mean(u) by symmetry of the "
        "printed formula"
    )


register_claim(
    "fedpbc:prop1-remark-uniform",
    "§III",
    "remark after Proposition 1 (uniform p)",
    (104, 104),
    "If p_i = p for all i, then lim E[x^t] = x* = (1/m)Σ_i u_i.",
    space=Space(
        [
            Integer("m", 1, 200),
            Real("p", 0.0, 1.0, closed=(False, True), special=(1.0, 0.5)),
            Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0, -1.0)),
        ]
    ),
    margin=_prop1_uniform_margin,
    exact=_prop1_uniform_exact,
    tolerance=1e-12,
    expected="holds",
    notes="Code path fltheory.limits.bernoulli.fedavg_weights; margin "
    "−|Σw_iu_i − mean(u)|/max|u|. The printed formula is symmetric in the clients, so w_i = 1/m "
    "exactly; the exact margin evaluates the code's weights against that in rationals.",
)
