"""Claims of the FedPBC paper (Xiang, Ioannidis, Yeh, Joe-Wong, Su, "Towards Bias Correction of
FedAvg over Nonuniform and Time-Varying Communications"; seed ``004_7f83552c6af82f79.txt``,
line numbers ``l.N`` refer to it), §III and §VI: Algorithm 1 and Proposition 1 (FedAvg's limit
under static non-uniform links, F_i = ½‖x − u_i‖², exact gradients), the counterexample of
Fig. 2, Remark 1 and the Synthetic(1,1) constant. Lemmas 1–5 are in :mod:`.fedpbc_lemmas`,
Theorem 1 in :mod:`.fedpbc_theorem1`, the shared oracles in :mod:`._fedpbc_common`.

Setting: m clients, independent links with P(i ∈ A^t) = p_i^t ≥ c > 0, F = (1/m)ΣF_i. Oracles
are independent of the code under test: enumeration of the 2^m link patterns (floats, and
:class:`~fractions.Fraction` for the exact margins), closed forms of the quadratic dynamics,
``mpmath`` where an eigenvalue or an exponential enters.

>>> from fltheory.claims import CLAIMS
>>> claim = CLAIMS.get("fedpbc:prop1-remark-uniform")
>>> abs(claim.margin({"m": 3, "p": 0.3, "u": np.array([0.0, 1.0, 2.0])})) < 1e-12
True
"""

import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin
from fltheory.claims.explain import Explanation, Quantity, Step, dec, decs, signed
from fltheory.claims.finding import Finding, Hypothesis, Reading
from fltheory.claims.papers.fedpbc._common import (
    _fr,
    _frs,
    _masks,
    _mp_to_fraction,
    _nonempty_conditional,
    _register,
    _set_probs,
    _set_probs_exact,
    _u_spread,
    _w_exact,
    _w_stack,
)
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError

PAPER = "fedpbc"

# ---------------------------------------------------------------------------------------------
# Algorithm 1 and Proposition 1
# ---------------------------------------------------------------------------------------------


def _trace(seed: int, p: np.ndarray, rounds: int) -> np.ndarray:
    from fltheory.rng import generator

    return generator(int(seed), "claims/fedpbc-links").random((rounds, p.size)) < p


def _alg1_literal(u: list, p_trace: np.ndarray, eta: Any, s: int, zero: Any) -> list:
    """Algorithm 1 as printed (l.54–84): EVERY client runs s exact gradient steps, active ones
    from x^t, inactive ones from their own x_i^t (which keeps their local progress); the server
    averages the active clients' x_i^{t++}. Returns the server trajectory."""
    m = len(u)
    x = zero
    local = [zero] * m
    out = []
    for active in p_trace:
        nxt = []
        for i in range(m):
            y = x if active[i] else local[i]
            for _ in range(s):
                y = y - eta * (y - u[i])
            nxt.append(y)
        local = nxt
        idx = [i for i in range(m) if active[i]]
        if idx:
            x = sum((nxt[i] for i in idx), zero) / len(idx)
        out.append(x)
    return out


def _alg1_active_only_code(u: np.ndarray, trace: np.ndarray, gamma: float) -> np.ndarray:
    """The code path: :func:`fltheory.testing.limits.simulate_isotropic` with FedAvg's
    aggregation (only the active clients' updates, closed-form gain γ = 1 − (1 − η)^s)."""
    from fltheory.limits.aggregation import FEDAVG

    traj = []
    x = np.zeros((1, 1))
    for active in trace:
        effect = FEDAVG.coefficients(active[None, :].astype(np.int8)) * gamma
        x = x + effect @ u[:, None] - effect.sum(axis=1, keepdims=True) * x
        traj.append(float(x[0, 0]))
    return np.array(traj)


def _gain(inst: Instance) -> float:
    """γ = 1 − (1 − η)^s: the local gain of s exact gradient steps on ½(x − u_i)²."""
    return 1.0 - (1.0 - inst["eta"]) ** inst["s"]


def _alg1_margin(inst: Instance) -> float:
    p, u = np.asarray(inst["p"]), np.asarray(inst["u"])
    trace = _trace(inst["seed"], p, inst["rounds"])
    lit = np.array(_alg1_literal(list(u), trace, inst["eta"], inst["s"], 0.0))
    gamma = _gain(inst)
    code = _alg1_active_only_code(u, trace, gamma)
    return -float(np.max(np.abs(lit - code))) / (1.0 + float(np.max(np.abs(u))))


def _alg1_exact(inst: Instance) -> ExactMargin:
    p, u = np.asarray(inst["p"]), _frs(inst["u"])
    trace = _trace(inst["seed"], p, inst["rounds"])
    eta, s = _fr(inst["eta"]), inst["s"]
    lit = _alg1_literal(u, trace, eta, s, Fraction(0))
    # only the active clients compute (each from x^t): the usual FedAvg
    x, act = Fraction(0), []
    for active in trace:
        idx = [i for i in range(len(u)) if active[i]]
        if idx:
            ys = []
            for i in idx:
                y = x
                for _ in range(s):
                    y = y - eta * (y - u[i])
                ys.append(y)
            x = sum(ys, Fraction(0)) / len(idx)
        act.append(x)
    gap = max((abs(a - b) for a, b in zip(lit, act, strict=True)), default=Fraction(0))
    return -gap, "exact rationals (both algorithms)"


_register(
    "alg1-equivalence", "§III", "Algorithm 1 and its equivalence remark", (46, 88),
    "FedAvg as printed in Algorithm 1 (every client computes; inactive ones from their own "
    "state) gives the same server models x^t as FedAvg where only the active clients compute.",
    space=Space([
        Integer("m", 1, 6),
        Real("p", 0.0, 1.0, size="m", closed=(True, True), special=(0.0, 1.0, 0.5)),
        Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0, -1.0)),
        Real("eta", 0.0, 1.0, special=(0.5,)),
        Integer("s", 1, 5),
        Integer("rounds", 1, 30),
        Integer("seed", 0, 10**6),
    ]),
    margin=_alg1_margin, exact=_alg1_exact, tolerance=1e-12, expected="holds",
    notes="Code path: the active-only recursion x ← x + γΣ_{A}(u_i − x)/|A| of "
    "fltheory.testing.limits/limits.aggregation (FEDAVG coefficients, closed-form gain "
    "γ = 1 − (1 − η)^s); oracle: Algorithm 1 literally, s explicit gradient steps for every "
    "client. Algorithm 1 does not say what an inactive client's x_i^{t+1} is; we keep its local "
    "progress — irrelevant for the server, which is the point of the remark. Margin: "
    "−max_t |x^t_lit − x^t_code|/(1 + max|u|).",
)  # fmt: skip


def _prop1_variance(p: np.ndarray, u: np.ndarray, gamma: float) -> float:
    """Stationary Var(x) of FedAvg on F_i = ½(x − u_i)², d = 1: with μ = lim E[x],
    Var = γ/(2 − γ)·E[(ū_A − μ)² | A ≠ ∅] (x_{t+1} − μ = (1 − γ)(x_t − μ) + γ(ū_A − μ))."""
    masks = _masks(p.size)
    cond = _nonempty_conditional(p, masks)
    size = masks.sum(axis=1)
    keep = size > 0
    means = (masks[keep] @ u) / size[keep]
    pr = cond[keep]
    mu = float(pr @ means)
    return gamma / (2.0 - gamma) * float(pr @ (means - mu) ** 2)


def _prop1_printed_margin(inst: Instance) -> float:
    p, u = np.asarray(inst["p"]), np.asarray(inst["u"])
    gamma = _gain(inst)
    spread = _u_spread(u)
    if spread == 0.0:
        return 0.0
    return -_prop1_variance(p, u, gamma) / spread**2


def _prop1_printed_exact(inst: Instance) -> ExactMargin:
    p, u = _frs(inst["p"]), _frs(inst["u"])
    eta, s = _fr(inst["eta"]), inst["s"]
    gamma = 1 - (1 - eta) ** s
    sets = [(mem, pr) for mem, pr in _set_probs_exact(p) if mem]
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


PROP1_SPACE = Space([
    Integer("m", 1, 6),
    Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
    Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0, -1.0)),
    Real("eta", 0.0, 1.0, special=(0.5,)),
    Integer("s", 1, 30),
])  # fmt: skip


def _prop1_printed_explain(inst: Instance) -> Explanation:
    """The instance in the paper's terms: F_i(x) = ½(x − u_i)², the link probabilities p_i, the
    step η and s local steps; the stationary variance of x^T against 0."""
    p, u = decs(inst["p"]), decs(inst["u"])
    eta, s = dec(inst["eta"]), int(inst["s"])
    gamma = 1 - (1 - eta) ** s
    sets = [(mem, pr) for mem, pr in _set_probs_exact(list(p)) if mem]
    p_any = sum((pr for _, pr in sets), Fraction(0))
    means = [sum((u[i] for i in mem), Fraction(0)) / len(mem) for mem, _ in sets]
    mu = sum((pr * a for (_, pr), a in zip(sets, means, strict=True)), Fraction(0)) / p_any
    spread = sum((pr * (a - mu) ** 2 for (_, pr), a in zip(sets, means, strict=True)),
                 Fraction(0)) / p_any  # fmt: skip
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


_register(
    "prop1-printed", "§III", "Proposition 1 (as printed: lim x^T)", (96, 102),
    "Under FedAvg with exact local gradients, x⁰ = 0, η ∈ (0, 1), static p_i, the iterate x^T "
    "converges (to Σ_i w_i u_i with the printed subset-sum weights).",
    space=PROP1_SPACE, margin=_prop1_printed_margin, exact=_prop1_printed_exact,
    tolerance=1e-12, budget=1000, expected="refuted",
    explain=_prop1_printed_explain,
    reading=Reading(
        quote="Proposition 1. Choose x⁰ = 0 and η_t = η ∈ (0, 1) for all t. For a global "
        "objective as per Eq. (2), if p_i^t = p_i for all t, under FedAvg with exact local "
        "gradients lim_{T→∞} x^T = Σ_i p_i u_i [1 + Σ_{j≥2} (−1)^{j+1} (1/j) Σ_{S∈B_j} "
        "Π_{z∈S} p_z] / (1 − Π_i (1 − p_i)).",
        hypotheses=(
            Hypothesis("F_i(x) = ½‖x − u_i‖² (eq. 2)", "u_i ∈ [−1, 1], d = 1 (the dynamics "
                       "are coordinate-wise)"),
            Hypothesis("x⁰ = 0, η_t = η ∈ (0, 1), exact local gradients", "η ∈ (0, 1), s ∈ "
                       "[1, 30] exact gradient steps"),
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
)  # fmt: skip


def _prop1_oracle_limit(p: np.ndarray, u: np.ndarray) -> float:
    """lim E[x] = Σ_{A≠∅} P(A) ū_A / P(A ≠ ∅): the fixed point of
    E[x'] = P(∅)E[x] + Σ_{A≠∅} P(A)((1 − γ)E[x] + γū_A) (γ cancels)."""
    if p.size <= 12:
        masks = _masks(p.size)
        cond = _nonempty_conditional(p, masks)
        size = masks.sum(axis=1)
        keep = size > 0
        return float(cond[keep] @ ((masks[keep] @ u) / size[keep]))
    if np.any((p > 0) & (p < 1e-300)):
        raise NumericalError("subnormal link probabilities: the deflation oracle loses them")
    from fltheory.limits.bernoulli import prob_any_active
    from fltheory.limits.poisson_binomial import harmonic_inclusion_deflation

    return float(harmonic_inclusion_deflation(p) @ u) / prob_any_active(p)


def _prop1_code_limit(p: np.ndarray, u: np.ndarray) -> float:
    from fltheory.limits.bernoulli import fedavg_weights

    return float(fedavg_weights(p).weights @ u)


def _prop1_expectation_margin(inst: Instance) -> float:
    p, u = np.asarray(inst["p"]), np.asarray(inst["u"])
    scale = max(float(np.max(np.abs(u))), 1e-300)
    return -abs(_prop1_code_limit(p, u) - _prop1_oracle_limit(p, u)) / scale


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
                pmf = [(1 - v) * (pmf[k] if k < len(pmf) else 0) + v * (pmf[k - 1] if k else 0)
                       for k in range(len(pmf) + 1)]  # fmt: skip
            h = ps[i] * sum(pmf[k] / (k + 1) for k in range(len(pmf)))
            total += h * mpmath.mpf(u[i].numerator) / u[i].denominator
        none = mpmath.fprod(1 - v for v in ps)
        return total / (1 - none)


def _prop1_expectation_exact(inst: Instance) -> ExactMargin:
    import mpmath

    from fltheory.limits.subset_sum import fedavg_weights_exact

    p, u = _frs(inst["p"]), _frs(inst["u"])
    code = _fr(_prop1_code_limit(np.asarray(inst["p"]), np.asarray(inst["u"])))
    scale = max(abs(v) for v in u) or Fraction(1)
    tol = Fraction(1, 10**9)
    if len(p) <= 10:
        formula = sum((w * v for w, v in zip(fedavg_weights_exact(p), u, strict=True)),
                      Fraction(0))  # fmt: skip
        sets = [(mem, pr) for mem, pr in _set_probs_exact(p) if mem]
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
        return _mp_to_fraction(mpmath.mpf(tol.numerator) / tol.denominator - err), (
            "mpmath 40 digits (pmf of K_i by convolution) vs the code's float output"
        )


_register(
    "prop1-expectation", "§III", "Proposition 1 (reading: lim E[x^T])", (96, 102),
    "lim_T E[x^T] = Σ_i u_i p_i[1 + Σ_{j≥2}(−1)^{j+1}(1/j)Σ_{S∈B_j}Π_{z∈S}p_z]/(1 − Π(1 − p_i)).",
    space=Space([
        Integer("m", 1, 60),
        Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
        Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0, -1.0)),
    ]),
    margin=_prop1_expectation_margin, exact=_prop1_expectation_exact, tolerance=1e-9,
    expected="holds",
    reading=Reading(
        quote="Proposition 1. Choose x⁰ = 0 and η_t = η ∈ (0, 1) for all t. For a global "
        "objective as per Eq. (2), if p_i^t = p_i for all t, under FedAvg with exact local "
        "gradients lim_{T→∞} x^T = Σ_i p_i u_i [1 + Σ_{j≥2}(−1)^{j+1}(1/j)Σ_{S∈B_j}Π_{z∈S}p_z]"
        "/(1 − Π_i(1 − p_i)).",
        hypotheses=(
            Hypothesis("F_i = ½‖x − u_i‖², x⁰ = 0, η ∈ (0, 1), exact gradients", "d = 1 "
                       "(coordinate-wise dynamics), u_i ∈ (−1, 1); η and s cancel in the limit"),
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
)  # fmt: skip


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
    masks = _masks(p.size)
    cond = _nonempty_conditional(p, masks)
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


_register(
    "prop1-time-average", "§III", "Proposition 1 (reading: time average along a run)", (96, 102),
    "The time average of x^t along one FedAvg run converges to Proposition 1's point.",
    space=Space([
        Integer("m", 1, 4),
        Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
        Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0, -1.0)),
        Real("eta", 0.0, 1.0, special=(0.5,)),
        Integer("s", 1, 5),
        Integer("seed", 0, 10**6),
    ]),
    margin=_prop1_time_average_margin, tolerance=0.0, budget=300, expected="holds",
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
)  # fmt: skip


def _prop1_uniform_margin(inst: Instance) -> float:
    from fltheory.limits.bernoulli import fedavg_weights

    m, u = inst["m"], np.asarray(inst["u"])
    w = fedavg_weights(np.full(m, inst["p"])).weights
    scale = max(float(np.max(np.abs(u))), 1e-300)
    return -abs(float(w @ u) - float(u.mean())) / scale


def _prop1_uniform_exact(inst: Instance) -> ExactMargin:
    from fltheory.limits.bernoulli import fedavg_weights

    m, u = inst["m"], _frs(inst["u"])
    w = fedavg_weights(np.full(m, inst["p"])).weights
    code = sum((_fr(a) * b for a, b in zip(w, u, strict=True)), Fraction(0))
    scale = max(abs(v) for v in u) or Fraction(1)
    return Fraction(1, 10**12) - abs(code - sum(u, Fraction(0)) / m) / scale, (
        "exact rationals on the code's weights; the true limit is mean(u) by symmetry of the "
        "printed formula"
    )


_register(
    "prop1-remark-uniform", "§III", "remark after Proposition 1 (uniform p)", (104, 104),
    "If p_i = p for all i, then lim E[x^t] = x* = (1/m)Σ_i u_i.",
    space=Space([
        Integer("m", 1, 200),
        Real("p", 0.0, 1.0, closed=(False, True), special=(1.0, 0.5)),
        Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0, -1.0)),
    ]),
    margin=_prop1_uniform_margin, exact=_prop1_uniform_exact, tolerance=1e-12,
    expected="holds",
    notes="Code path fltheory.limits.bernoulli.fedavg_weights; margin "
    "−|Σw_iu_i − mean(u)|/max|u|. The printed formula is symmetric in the clients, so w_i = 1/m "
    "exactly; the exact margin evaluates the code's weights against that in rationals.",
)  # fmt: skip


def _unbiased_witness(d: list[Any]) -> list[Any] | None:
    """A non-zero u with Σu_i = 0 and Σd_iu_i = 0 (so u is not constant and Σ(w_i − 1/m)u_i = 0):
    the cross product of (1, 1, 1) and (d_a, d_b, d_c) on three coordinates; None for m = 2."""
    m = len(d)
    for a, b, c in itertools.combinations(range(m), 3):
        v = (d[b] - d[c], d[c] - d[a], d[a] - d[b])
        if any(x != 0 for x in v):
            u = [0 * d[0]] * m
            u[a], u[b], u[c] = v
            return u
    if m >= 3:  # d_a = d_b = d_c for every triple: d constant, so d = 0 (Σd = 0)
        u = [0 * d[0]] * m
        u[0], u[1] = 1 + 0 * d[0], -1 + 0 * d[0]
        return u
    return None


def _prop1_nonuniform_margin(inst: Instance) -> float:
    from fltheory.limits.bernoulli import fedavg_weights

    p = np.asarray(inst["p"])
    w = fedavg_weights(p).weights
    d = (w - 1.0 / p.size).tolist()
    u = _unbiased_witness(d)
    if u is None:  # m = 2: only u₁ = u₂ is unbiased; the worst non-constant ratio is |w₁ − w₂|
        return abs(w[0] - w[1]) - 1e-12
    ua = np.asarray(u, dtype=float)
    dist = abs(_prop1_code_limit(p, ua) - float(ua.mean()))
    return dist / _u_spread(ua) - 1e-12


def _prop1_nonuniform_exact(inst: Instance) -> ExactMargin:
    from fltheory.limits.subset_sum import fedavg_weights_exact

    p = _frs(inst["p"])
    w = fedavg_weights_exact(p)
    d = [v - Fraction(1, len(p)) for v in w]
    u = _unbiased_witness(d)
    if u is None:
        return abs(w[0] - w[1]) or Fraction(-1), "exact rationals (m = 2: |w₁ − w₂|)"
    lim = sum((a * b for a, b in zip(w, u, strict=True)), Fraction(0))
    dist = abs(lim - sum(u, Fraction(0)) / len(u))
    shown = ", ".join(f"{float(v):.6g}" for v in u)
    return (dist if dist else Fraction(-1)), (
        f"exact rationals (printed formula); unbiased heterogeneous data u ≈ ({shown}); "
        "−1 encodes lim = x* exactly"
    )


def _loss(i: int, ui: Fraction) -> Quantity:
    """F_i(x) = ½(x − u_i)² with its number in (½x² when u_i = 0)."""
    body = "x²" if ui == 0 else f"(x {signed(-ui)})²"
    return Quantity(f"F_{i + 1}", f"loss of client {i + 1}", ui, f"F_{i + 1}(x) = ½{body}")


def _prop1_nonuniform_explain(inst: Instance) -> Explanation:
    """p in the paper's terms, Proposition 1's weights w_i in exact rationals, the data u built
    orthogonal to 1 and to w − 1/m, and the limit Σw_iu_i against x* = mean(u)."""
    from fltheory.limits.subset_sum import fedavg_weights_exact

    p = decs(inst["p"])
    m = len(p)
    w = fedavg_weights_exact(list(p))
    u = _unbiased_witness([v - Fraction(1, m) for v in w])
    note = "u ⊥ 1 and u ⊥ (w − 1/m): a data set on the hyperplane where the biased limit "
    note += "happens to equal x*"
    if u is None:  # m = 2: only u₁ = u₂ gives lim = x*; show a generic u
        u, note = [Fraction(0), Fraction(1)], "m = 2: every non-constant u gives lim ≠ x*"
    top = max(abs(v) for v in u)
    u = [v / top for v in u] if top else u
    lim = sum((a * b for a, b in zip(w, u, strict=True)), Fraction(0))
    xstar = sum(u, Fraction(0)) / m
    return Explanation(
        quantities=(
            Quantity("p", "link probabilities (static, not all equal)", tuple(p)),
            *(_loss(i, ui) for i, ui in enumerate(u)),
        ),
        steps=(
            Step("w", "Proposition 1's weights (subset-sum formula, exact)", tuple(w)),
            Step("lim E[x^t]", "Σ_i w_i u_i", lim),
        ),
        lhs=Step("|lim E[x^t] − x*|", "|Σ_i w_i u_i − (1/m)Σ_i u_i|", abs(lim - xstar)),
        relation=">",
        rhs=Step("0", "'lim x^t ≠ x*'", 0),
        holds=lim != xstar,
        note=note,
    )


_register(
    "prop1-remark-nonuniform", "§III", "remark after Proposition 1 (non-uniform p), literal",
    (104, 104),
    "Literal reading: if p_i ≠ p_i′ for some i, i′, then lim E[x^t] ≠ x* for EVERY "
    "heterogeneous data set u (u not all equal).",
    space=Space([
        Integer("m", 2, 6),
        Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5, 0.2)),
    ], where=lambda i: bool(np.ptp(np.asarray(i["p"])) > 0)),
    margin=_prop1_nonuniform_margin, exact=_prop1_nonuniform_exact, tolerance=0.0,
    expected="refuted", explain=_prop1_nonuniform_explain,
    reading=Reading(
        quote="It can be checked that if there exist i, i′ ∈ [m] such that p_i ≠ p_i′, then "
        "lim_{t→∞} x^t ≠ (1/m)Σ_i u_i ≜ x*; when p_i = p for all i ∈ [m], then lim x^t = x*. "
        "In fact, the output of FedAvg may be far away from x* depending on p_i's and u_i's.",
        hypotheses=(
            Hypothesis("Proposition 1's setting: F_i = ½‖x − u_i‖², x⁰ = 0, static p_i",
                       "the limit is Proposition 1's Σw_iu_i (fedpbc:prop1-expectation)"),
            Hypothesis("p_i ≠ p_i′ for some pair", "ptp(p) > 0, p_i ∈ (0, 1], m ≤ 6"),
        ),
        interpretation="Literal, not the authors' meaning: a universal quantifier over the "
        "data u. The remark is a generic statement about Proposition 1's formula ('it can be "
        "checked'): its weights w_i are not all 1/m when the p_i differ, so the limit is biased "
        "for generic data — the next sentence ('far away from x* depending on p_i's and u_i's') "
        "ties the bias to the data. For m ≥ 3 the data u orthogonal to 1 and to w − 1/m (a "
        "hyperplane of u's, measure zero) make the biased limit coincide with x*; constant u "
        "are excluded by every reading.",
        alternatives="Intended: Proposition 1's weights are not uniform — w_i > w_i′ whenever "
        "p_i > p_i′, so lim E[x^t] ≠ x* for every u off that hyperplane "
        "(fedpbc:prop1-remark-nonuniform-weights, holds).",
    ),
    finding=Finding(
        "literal",
        "a 'for every u' quantifier on a generic remark: the weights are never uniform for "
        "non-uniform p (fedpbc:prop1-remark-nonuniform-weights holds); only u on a measure-zero "
        "hyperplane give lim = x*",
        intended="fedpbc:prop1-remark-nonuniform-weights",
    ),
    notes="The instance is p; the margin evaluates the statement for all u at once: the limit "
    "Σw_iu_i equals x* = mean(u) on the hyperplane Σ(w_i − 1/m)u_i = 0, which for m ≥ 3 "
    "contains non-constant u (u ⊥ 1 and u ⊥ w, built as a cross product), so the margin "
    "evaluates |lim − x*|/max|u − ū| − 1e-12 at that witness u (exact: rationals, −1 when lim = "
    "x* exactly, the witness printed in the method). For m = 2 the statement holds (only u₁ = "
    "u₂ is unbiased). Refuted for every non-uniform p with m ≥ 3; symmetric example: p = "
    "(1/2, 1/5, 1/5), u = (0, −1, 1) (w₂ = w₃, lim = 0 = x*).",
)  # fmt: skip


def _weight_gaps(p: list[Any], w: list[Any]) -> list[Any]:
    """(w_i − w_j)/(p_i − p_j) for every pair with p_i > p_j."""
    m = len(p)
    return [(w[i] - w[j]) / (p[i] - p[j]) for i in range(m) for j in range(m) if p[i] > p[j]]


def _prop1_weights_margin(inst: Instance) -> float:
    from fltheory.limits.bernoulli import fedavg_weights

    p = np.asarray(inst["p"], dtype=float)
    w = fedavg_weights(p).weights
    return float(min(_weight_gaps(p.tolist(), w.tolist())))


def _prop1_weights_exact(inst: Instance) -> ExactMargin:
    from fltheory.limits.subset_sum import fedavg_weights_exact

    p = _frs(inst["p"])
    return min(_weight_gaps(p, fedavg_weights_exact(p))), (
        "exact rationals (Proposition 1's subset-sum formula)"
    )


_register(
    "prop1-remark-nonuniform-weights", "§III",
    "remark after Proposition 1 (non-uniform p), reading: the weights are biased", (104, 104),
    "If p_i > p_i′ then Proposition 1's weights satisfy w_i > w_i′; hence for non-uniform p "
    "the weights are not all 1/m and lim E[x^t] = Σw_iu_i ≠ x* for every u off the hyperplane "
    "Σ_i(w_i − 1/m)u_i = 0 (almost every data set).",
    space=Space([
        Integer("m", 2, 10),
        Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5, 0.2)),
    ], where=lambda i: bool(np.ptp(np.asarray(i["p"])) > 0)),
    margin=_prop1_weights_margin, exact=_prop1_weights_exact, tolerance=1e-9,
    expected="holds",
    reading=Reading(
        quote="It can be checked that if there exist i, i′ ∈ [m] such that p_i ≠ p_i′, then "
        "lim_{t→∞} x^t ≠ x*.",
        hypotheses=(
            Hypothesis("static p_i^t = p_i ∈ (0, 1]", "p_i ∈ (0, 1], not all equal, m ≤ 10"),
        ),
        interpretation="What 'it can be checked' on Proposition 1's formula: its weights are "
        "strictly increasing in the link probability, so non-uniform p give non-uniform "
        "weights and a biased limit for generic data. Margin: the smallest (w_i − w_j)/(p_i − "
        "p_j) over pairs with p_i > p_j (> 0 iff the claim holds).",
        alternatives="For every u: fedpbc:prop1-remark-nonuniform (literal, refuted on a "
        "measure-zero set of u).",
    ),
    notes="Code path fltheory.limits.bernoulli.fedavg_weights; exact: Proposition 1's "
    "subset-sum formula in rationals. Why it holds: with R = |A ∖ {i, j}|, w_i − w_j = "
    "(p_i − p_j)E[1/(1 + R)]/P(A ≠ ∅) > 0, so the margin is that positive expectation.",
)  # fmt: skip


def _far_margin(inst: Instance) -> float:
    from fltheory.limits.bernoulli import fedavg_weights

    u, eps = np.asarray(inst["u"]), inst["eps"]
    if eps < 1e-9:
        raise NumericalError("ε below 1e-9 is not resolved in float64")
    xstar = float(u.mean())
    R = float(np.max(np.abs(u - xstar)))
    if R == 0.0:
        return 0.0
    i_far = int(np.argmax(np.abs(u - xstar)))
    best = -math.inf
    for k in range(1, 16):
        delta = 10.0**-k
        p = np.full(u.size, delta)
        p[i_far] = 1.0 - delta
        dist = abs(float(fedavg_weights(p).weights @ u) - xstar)
        best = max(best, (dist - (1.0 - eps) * R) / R)
        if best >= 0:
            break
    return best


_register(
    "prop1-far", "§III and Remark 4(2)", "FedAvg may converge arbitrarily far from x*", (104, 260),
    "For any data u and ε > 0 there are link probabilities p with ‖lim E[x] − x*‖ ≥ "
    "(1 − ε)·max_i‖u_i − x*‖ (so, scaling u, arbitrarily far).",
    space=Space([
        Integer("m", 2, 100),
        Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0, -1.0)),
        Real("eps", 0.0, 1.0, special=(0.5,)),
    ]),
    margin=_far_margin, tolerance=1e-12, budget=1000, expected="holds",
    notes="An existential statement: the margin searches the witness sequence p_δ (1 − δ at "
    "the client farthest from x*, δ elsewhere; δ = 10^−1…10^−15) and returns the best "
    "(dist − (1 − ε)R)/R. The converse bound ‖lim − x*‖ ≤ max_i‖u_i − x*‖ holds because the "
    "limit is a convex combination of the u_i, so 'arbitrarily far' needs the scale of u. "
    "ε < 1e-9 is declined (not resolved in float64). No exact margin (the witness is a limit).",
)  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Section VI: the counterexample (Fig. 2), Remark 1, Synthetic(1,1)
# ---------------------------------------------------------------------------------------------


def _two_groups(inst: Instance) -> tuple[np.ndarray, np.ndarray]:
    """The Section VI family: half the clients at p₀, half at p₁, u_i with mean i/(10m) plus a
    seeded N(0, 0.01) perturbation (l.273, rescaled to d = 1)."""
    from fltheory.rng import generator

    m = 2 * inst["half"]
    p = np.repeat([inst["p0"], inst["p1"]], inst["half"])
    noise = generator(int(inst["seed"]), "claims/fedpbc-fig2").normal(size=m)
    u = np.arange(1, m + 1) / (10.0 * m) + 0.1 * noise
    return p, u


def _pbc_limit_exact(p: list[Fraction], u: list[Fraction], gamma: Fraction
                     ) -> tuple[list[Fraction], Fraction]:  # fmt: skip
    """E[X̄] = γU M(I − (1 − γ)M)⁻¹ (d = 1) and the stationary E[x_PS], exactly."""
    import sympy

    m = len(p)
    M = [[Fraction(0)] * m for _ in range(m)]
    sets = _set_probs_exact(p)
    for members, pr in sets:
        W = _w_exact(m, members) if members else [
            [Fraction(int(i == j)) for j in range(m)] for i in range(m)
        ]  # fmt: skip
        for i in range(m):
            for j in range(m):
                M[i][j] += pr * W[i][j]
    A = sympy.Matrix(
        m, m, lambda i, j: sympy.Rational((1 if i == j else 0) - (1 - gamma) * M[i][j])
    )
    rhs = sympy.Matrix(
        m,
        1,
        lambda i, _j: sympy.Rational(sum((gamma * M[i][k] * u[k] for k in range(m)), Fraction(0))),
    )
    sol = A.LUsolve(rhs)
    means = [Fraction(int(sympy.numer(v)), int(sympy.denom(v))) for v in sol]
    p_any = sum((pr for mem, pr in sets if mem), Fraction(0))
    server = sum(
        (pr * sum(((1 - gamma) * means[i] + gamma * u[i] for i in mem), Fraction(0)) / len(mem)
         for mem, pr in sets if mem),
        Fraction(0),
    ) / p_any  # fmt: skip
    return means, server


def _fig2_xbar_margin(inst: Instance) -> float:
    from fltheory.limits.fedpbc import fedpbc_limit

    p, u = np.asarray(inst["p"]), np.asarray(inst["u"])
    res = fedpbc_limit(p, u[:, None], lr=inst["eta"], local_steps=inst["s"])
    return -abs(float(res.average[0]) - float(u.mean())) / (1.0 + float(np.max(np.abs(u))))


def _fig2_xbar_exact(inst: Instance) -> ExactMargin:
    from fltheory.limits.fedpbc import fedpbc_limit

    p, u = _frs(inst["p"]), _frs(inst["u"])
    res = fedpbc_limit(np.asarray(inst["p"]), np.asarray(inst["u"])[:, None], lr=inst["eta"],
                       local_steps=inst["s"])  # fmt: skip
    xstar = sum(u, Fraction(0)) / len(u)
    truth, method = xstar, "exact rationals; E[x̄] = x* by the mean-preserving identity"
    if len(p) <= 6:
        gamma = 1 - (1 - _fr(inst["eta"])) ** inst["s"]
        means, _ = _pbc_limit_exact(p, u, gamma)
        truth = sum(means, Fraction(0)) / len(u)
        method = "exact rationals (E[X̄] by an exact linear solve) vs the code's float output"
    scale = 1 + max(abs(v) for v in u)
    err = max(abs(_fr(float(res.average[0])) - xstar), abs(truth - xstar)) / scale
    return Fraction(1, 10**10) - err, method


FIG2_SPACE = Space([
    Integer("m", 1, 30),
    Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5, 0.1, 0.9)),
    Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0)),
    Real("eta", 0.0, 1.0, special=(3e-4, 0.5)),
    Integer("s", 1, 30),
])  # fmt: skip
FIG2_PS_SPACE = Space([Integer("m", 1, 6), *FIG2_SPACE.params[1:]])

_register(
    "fig2-unbiased-xbar", "§VI", "Fig. 2a: FedPBC is unbiased (x_PS := x̄)", (273, 278),
    "On the counterexample F_i = ½‖x − u_i‖², FedPBC's x̄^t = (1/m)Σx_i^t converges to x* for "
    "every choice of link probabilities.",
    space=FIG2_SPACE, margin=_fig2_xbar_margin, exact=_fig2_xbar_exact, tolerance=1e-10,
    expected="holds",
    reading=Reading(
        quote="we plot the distance to the optimum ‖x_PS − x*‖₂ … where x_PS^t ≜ x̄^t in "
        "Algorithm 2. As illustrated in Fig. 2a, FedPBC is unbiased and converges to the "
        "global optimum x* in all the combinations of p₀ and p₁.",
        hypotheses=(
            Hypothesis("the counterexample F_i = ½‖x − u_i‖² with static p_i (two groups in "
                       "the figure)", "any static p_i ∈ (0, 1], m ≤ 30, d = 1, exact gradients "
                       "(η ∈ (0, 1), s ≤ 30): wider than the figure's two groups"),
        ),
        interpretation="'Unbiased' as lim E[x̄^t] = x* (the figure plots one run's distance "
        "after 4000 rounds; with exact gradients x̄ − x* contracts on every path).",
        alternatives="x_PS read as the aggregated server model: fedpbc:fig2-unbiased-ps "
        "(literal).",
    ),
    notes="l.278 defines x_PS := x̄^t, so the figure claims this. Code path "
    "fltheory.limits.fedpbc.fedpbc_limit(...).average; margin −|E[x̄] − x*|/(1 + max|u|); exact: "
    "E[X̄] = γUM(I − (1 − γ)M)⁻¹ solved in rationals with M by enumeration. Stronger: W is "
    "doubly stochastic, so x̄^{t+1} − x* = (1 − γ)(x̄^t − x*) on every path.",
)  # fmt: skip


def _fig2_ps_margin(inst: Instance) -> float:
    from fltheory.limits.fedpbc import fedpbc_limit

    p, u = np.asarray(inst["p"]), np.asarray(inst["u"])
    res = fedpbc_limit(p, u[:, None], lr=inst["eta"], local_steps=inst["s"])
    return -abs(float(res.server[0]) - float(u.mean())) / (1.0 + float(np.max(np.abs(u))))


def _fig2_ps_exact(inst: Instance) -> ExactMargin:
    p, u = _frs(inst["p"]), _frs(inst["u"])
    gamma = 1 - (1 - _fr(inst["eta"])) ** inst["s"]
    _, server = _pbc_limit_exact(p, u, gamma)
    scale = 1 + max(abs(v) for v in u)
    return Fraction(1, 10**10) - abs(server - sum(u, Fraction(0)) / len(u)) / scale, (
        "exact rationals (stationary E[x_PS])"
    )


def _fig2_ps_explain(inst: Instance) -> Explanation:
    """The counterexample in the paper's terms and the stationary means of x̄ and of the
    aggregated server model, exactly (linear solve in rationals)."""
    p, u = decs(inst["p"]), decs(inst["u"])
    eta, s = dec(inst["eta"]), int(inst["s"])
    gamma = 1 - (1 - eta) ** s
    means, server = _pbc_limit_exact(list(p), list(u), gamma)
    m = len(u)
    xstar = sum(u, Fraction(0)) / m
    return Explanation(
        quantities=(
            *(_loss(i, ui) for i, ui in enumerate(u)),
            Quantity("p", "link probabilities (static)", tuple(p)),
            Quantity("η", "local step size", eta),
            Quantity("s", "local steps per round", s),
        ),
        steps=(
            Step("γ", "1 − (1 − η)^s (gain of s exact local steps)", gamma),
            Step("x*", "(1/m)Σ_i u_i", xstar),
            Step("lim E[x_i^t]", "stationary means of the clients' models", tuple(means)),
            Step(
                "lim E[x̄^t]",
                "(1/m)Σ_i lim E[x_i^t] (what Fig. 2 plots, l.278)",
                sum(means, Fraction(0)) / m,
            ),
        ),
        lhs=Step("lim E[x^{t+1}]", "stationary mean of the aggregated server model", server),
        relation="=",
        rhs=Step("x*", "(1/m)Σ_i u_i", xstar),
        holds=server == xstar,
        note="x̄^t is unbiased; the aggregated model x^{t+1} (not what the paper plots) is not.",
    )


_register(
    "fig2-unbiased-ps", "§VI", "Fig. 2a read on the server model x^{t+1}", (273, 278),
    "FedPBC's server model x^{t+1} (the average of the active clients' models) converges in "
    "mean to x* for every choice of link probabilities.",
    space=FIG2_PS_SPACE, margin=_fig2_ps_margin, exact=_fig2_ps_exact, tolerance=1e-10,
    expected="refuted", explain=_fig2_ps_explain,
    reading=Reading(
        quote="For ease of presentation, we plot the distance to the optimum ‖x_PS − x*‖₂ after "
        "the first 50 communication rounds in Fig. 2, where x_PS^t ≜ x̄^t in Algorithm 2. As "
        "illustrated in Fig. 2a, FedPBC is unbiased and converges to the global optimum x* in "
        "all the combinations of p₀ and p₁.",
        hypotheses=(
            Hypothesis("the counterexample F_i = ½‖x − u_i‖², static p_i, exact gradients",
                       "d = 1, u_i ∈ (−1, 1), p_i ∈ (0, 1], m ≤ 6, η ∈ (0, 1), s ≤ 30"),
        ),
        interpretation="Literal, not the authors' meaning: 'x_PS' read as the model the PS "
        "holds after aggregation, x^{t+1} of Algorithm 2 line 14. The same sentence defines "
        "x_PS^t ≜ x̄^t = (1/m)Σ_i x_i^t (l.278), and Theorem 1 is about x̄^t: the figure plots "
        "x̄^t.",
        alternatives="x_PS := x̄^t as defined at l.278: fedpbc:fig2-unbiased-xbar (holds).",
    ),
    finding=Finding(
        "literal",
        "l.278 defines x_PS^t ≜ x̄^t (the clients' mean, fedpbc:fig2-unbiased-xbar holds); the "
        "aggregated server model read here is not what Fig. 2a plots",
        intended="fedpbc:fig2-unbiased-xbar",
    ),
    notes="Not the paper's claim (it plots x̄, l.278), but a natural reading of 'x_PS'. The "
    "stationary mean of the server model is Σ_i w_i((1 − γ)E[x_i] + γu_i) with Proposition 1's "
    "weights w_i: biased by O(γ) when the p_i differ. Code path fedpbc_limit(...).server; "
    "exact: rationals.",
)  # fmt: skip


def _remark1_limit(p: np.ndarray, u: np.ndarray, gamma: float) -> np.ndarray:
    """Stationary E[x_i] when only the active clients compute (Remark 1): x_i' = (1 − γ)x_i +
    γu_i on A, x_i' = x_i off A, then X ← X W. E[X'] = E[X]K + UR with K = E[S_A W_A],
    R = E[(I − S_A)W_A], S_A = diag(1 − γ on A, 1 off A)."""
    m = p.size
    masks = _masks(m)
    probs = _set_probs(p, masks)
    shrink = np.where(masks, 1.0 - gamma, 1.0)  # the diagonal of S_A, one row per pattern
    W = _w_stack(m)
    K = np.einsum("a,ai,aij->ij", probs, shrink, W)
    R = np.einsum("a,ai,aij->ij", probs, 1.0 - shrink, W)
    # row vector x: x = xK + uR  ⇒  x (I − K) = uR
    A = (np.eye(m) - K).T
    if not np.isfinite(A).all() or np.linalg.cond(A) > 1e10:
        raise NumericalError("I − K is too ill-conditioned (links or steps too small)")
    return np.linalg.solve(A, u @ R)


def _remark1_margin(inst: Instance) -> float:
    p, u = _two_groups(inst)
    gamma = _gain(inst)
    lim = _remark1_limit(p, u, gamma)
    value = abs(float(lim.mean()) - float(u.mean())) / _u_spread(u) - 1e-9
    if not math.isfinite(value):
        raise NumericalError("non-finite fixed point")
    return value


_register(
    "remark1-local-compute", "Remark 1 and §VI", "bias with local computation on A^t only",
    (175, 278),
    "On the Section VI counterexample with p₀ ≠ p₁, if only the active clients compute the "
    "bias persists: lim E[x̄^t] ≠ x*.",
    space=Space([
        Integer("half", 1, 4),
        Real("p0", 0.0, 1.0, closed=(False, True), special=(0.1, 0.9, 1.0)),
        Real("p1", 0.0, 1.0, closed=(False, True), special=(0.1, 0.9, 1.0)),
        Real("eta", 0.0, 1.0, special=(3e-4, 0.5)),
        Integer("s", 1, 30),
        Integer("seed", 0, 10**6),
    ], where=lambda i: abs(i["p0"] - i["p1"]) > 1e-3),
    margin=_remark1_margin, tolerance=0.0, expected="holds",
    notes="Two groups of m/2 clients (p₀, p₁), u_i with increasing mean i/(10m) plus N(0, 0.01) "
    "noise (the l.273 family in d = 1, m ≤ 8 for the 2^m enumeration). The expected dynamics "
    "are linear: E[X'] = E[X]K + UR; the stationary E[X] solves an m×m system; its fixed point "
    "satisfies Σ_i p_i(E x_i − u_i) ≈ 0, i.e. an availability-weighted mean. Margin "
    "|lim E[x̄] − x*|/max|u − ū| − 1e-9 ('≠' claim). As a universal statement over all data it "
    "would fail for symmetric u, as fedpbc:prop1-remark-nonuniform does; the paper's claim is "
    "about this example. No exact margin (only a sign with slack is needed).",
)  # fmt: skip


def _synthetic_margin(inst: Instance) -> float:
    x = inst["x"]
    return min(0.05 + x - 0.03, 1.0 - (0.9 + x), 0.9 + x - 0.03)


def _synthetic_exact(inst: Instance) -> ExactMargin:
    x = Fraction(repr(float(inst["x"])))  # the decimal the float prints as (−0.02 → −1/50)
    low, high = Fraction(5, 100) + x, Fraction(9, 10) + x
    return min(low - Fraction(3, 100), 1 - high), "exact rationals (decimal reading of x)"


_register(
    "synthetic-c", "§VI", "Synthetic(1,1), time-varying rates", (289, 290),
    "With p_i^t = p_i^0 + X_i^t, p^0 ∈ {0.05, 0.9}, X ~ U(−0.02, 0.02): every p_i^t is a "
    "probability and c = min_{t,i}p_i^t = 0.03.",
    space=Space([Real("x", -0.02, 0.02, closed=(True, True), special=(-0.02, 0.02))]),
    margin=_synthetic_margin, exact=_synthetic_exact, tolerance=1e-15, expected="holds",
    notes="Margin min(0.05 + x − 0.03, 1 − (0.9 + x)); 0 at x = −0.02 (c is the infimum 0.03, "
    "attained only at the closed end of the uniform law).",
)  # fmt: skip

_register(
    "fig3", "§VI", "Fig. 3: FedPBC beats FedAvg on Synthetic(1,1)", (292, 294),
    "FedPBC consistently outperforms FedAvg, and converges to the same point under "
    "time-invariant and time-varying links.",
    reason="an empirical statement about training curves (non-convex, setup partly "
    "unspecified); see the experiments note (fedpbc:fig3 in fltheory reproduce). Its quadratic "
    "analogue is fedpbc:fig2-unbiased-xbar.",
)  # fmt: skip
