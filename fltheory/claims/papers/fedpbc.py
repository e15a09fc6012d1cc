"""Claims of the FedPBC paper (Xiang, Ioannidis, Yeh, Joe-Wong, Su, "Towards Bias Correction of
FedAvg over Nonuniform and Time-Varying Communications"; seed ``004_7f83552c6af82f79.txt``,
line numbers ``l.N`` refer to it).

Setting: m clients, independent links with P(i ∈ A^t) = p_i^t ≥ c > 0, F = (1/m)ΣF_i. Proposition 1
is about FedAvg (Algorithm 1) on F_i = ½‖x − u_i‖² with exact gradients; Lemmas 1–5 and Theorem 1
about FedPBC (Algorithm 2) and its mixing matrix W^(t) (l.157). "c" is used twice in the paper
(the link lower bound, and the constant of Remark 2(d)); here the second is ``c_step``.

Oracles are independent of the code under test: enumeration of the 2^m link patterns (floats,
and :class:`~fractions.Fraction` for the exact margins), closed forms of the quadratic
dynamics, ``mpmath`` where an eigenvalue or an exponential enters. ρ = λ₂(E[W²]) is computed as
1 − ν₂(E[I − W²]) from a matrix whose entries are sums of non-negative terms, so that 1 − ρ keeps
its relative accuracy when the link probabilities are tiny (1 − ρ ≈ 1e-30 is then resolved).

>>> from fltheory.claims import CLAIMS
>>> claim = CLAIMS.get("fedpbc:prop1-remark-uniform")
>>> abs(claim.margin({"m": 3, "p": 0.3, "u": np.array([0.0, 1.0, 2.0])})) < 1e-12
True
"""

import functools
import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import Claim, ExactMargin, Source, register
from fltheory.claims.space import Instance, Integer, Parameter, Real, Space
from fltheory.errors import NumericalError

PAPER = "fedpbc"

# ---------------------------------------------------------------------------------------------
# Shared oracles
# ---------------------------------------------------------------------------------------------


def _masks(m: int) -> np.ndarray:
    """All 2^m link patterns as a (2^m, m) boolean matrix (bit i of the row index ↔ client i)."""
    return ((np.arange(2**m)[:, None] >> np.arange(m)) & 1).astype(bool)


def _set_probs(p: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """P(A = S) for every row S (products of non-negative factors)."""
    return np.prod(np.where(masks, p, 1.0 - p), axis=1)


def _nonempty_conditional(p: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """P(A = S | A ≠ ∅) for every row S (0 for the empty set), from log-probabilities shifted
    by their maximum: no underflow for subnormal link probabilities."""
    with np.errstate(divide="ignore"):
        logs = np.where(masks, np.log(p), np.log1p(-p)).sum(axis=1)
    logs = np.where(masks.any(axis=1), logs, -np.inf)
    top = np.max(logs)
    if not np.isfinite(top):
        raise NumericalError("no link is ever active")
    w = np.exp(logs - top)
    return w / w.sum()


def _fr(x: Any) -> Fraction:
    return Fraction(float(x)) if not isinstance(x, Fraction) else x


def _frs(xs: Any) -> list[Fraction]:
    return [_fr(v) for v in np.atleast_1d(np.asarray(xs, dtype=float))]


def _set_probs_exact(p: list[Fraction]) -> list[tuple[tuple[int, ...], Fraction]]:
    """(members of S, P(A = S)) for all 2^m sets, exactly."""
    out = []
    for bits in itertools.product((0, 1), repeat=len(p)):
        prob = Fraction(1)
        for b, v in zip(bits, p, strict=True):
            prob *= v if b else 1 - v
        out.append((tuple(i for i, b in enumerate(bits) if b), prob))
    return out


def _w_def(active: np.ndarray) -> np.ndarray:
    """W^(t) of l.157: 1/|A| on A×A, 1 on the diagonal outside A, 0 elsewhere."""
    m = active.size
    W = np.zeros((m, m))
    k = int(active.sum())
    for i in range(m):
        for j in range(m):
            if active[i] and active[j]:
                W[i, j] = 1.0 / k
            elif i == j:
                W[i, j] = 1.0
    return W


def _w_exact(m: int, members: tuple[int, ...]) -> list[list[Fraction]]:
    k = len(members)
    return [
        [
            Fraction(1, k)
            if (i in members and j in members)
            else (Fraction(1) if i == j else Fraction(0))
            for j in range(m)
        ]
        for i in range(m)
    ]


def _laplacian(p: np.ndarray) -> np.ndarray:
    """E[I − W²] = E[I − W] by enumeration: (1 − 1/|A|) on the diagonal of A, −1/|A| on A×A
    off the diagonal. Every entry is a sum of terms of one sign (no cancellation)."""
    m = p.size
    masks = _masks(m)
    probs = _set_probs(p, masks)
    size = masks.sum(axis=1)
    inv = np.where(size > 0, 1.0 / np.maximum(size, 1), 0.0)
    S = masks.astype(float)
    L = -(S * (probs * inv)[:, None]).T @ S
    np.fill_diagonal(L, S.T @ (probs * np.where(size > 0, 1.0 - inv, 0.0)))
    return L


def _rho_gap(p: np.ndarray, *, resolved: bool = False) -> float:
    """1 − ρ = ν₂(E[I − W²]) (ρ(1 client) := 0, gap 1). eigvalsh errs by ≈ eps·‖E[I − W²]‖;
    with ``resolved`` a gap below 1e-12·‖E[I − W²]‖ is declined (NumericalError)."""
    if p.size == 1:
        return 1.0
    L = _laplacian(p)
    nu = np.linalg.eigvalsh(L)
    if resolved and nu[1] < 1e-12 * max(abs(nu[-1]), 1e-300):
        raise NumericalError("1 − ρ is below the resolution of the float eigenvalues")
    return float(max(nu[1], 0.0))


def _laplacian_exact(p: list[Fraction]) -> list[list[Fraction]]:
    """E[I − W²] in exact rationals, W² multiplied out (not using idempotence)."""
    m = len(p)
    L = [[Fraction(0)] * m for _ in range(m)]
    for members, prob in _set_probs_exact(p):
        if not members:
            continue
        W = _w_exact(m, members)
        for i in range(m):
            for j in range(m):
                w2 = sum((W[i][k] * W[k][j] for k in range(m)), Fraction(0))
                L[i][j] += prob * ((1 if i == j else 0) - w2)
    return L


def _rho_gap_mp(p: list[Fraction], dps: int = 50) -> Any:
    """1 − ρ at ``dps`` digits from the exact E[I − W²] (mpmath.eigsy)."""
    import mpmath

    m = len(p)
    if m == 1:
        return mpmath.mpf(1)
    with mpmath.workdps(dps):
        L = _laplacian_exact(p)
        A = mpmath.matrix([[mpmath.mpf(v.numerator) / v.denominator for v in row] for row in L])
        E, _ = mpmath.eigsy(A)
        nu = sorted(E[i] for i in range(m))
        return max(nu[1], mpmath.mpf(0))


def _rel(a: float, b: float, tiny: float = 1e-300) -> float:
    """(a − b)/max(|a|, |b|, tiny): a relative gap, positive iff a > b."""
    return (a - b) / max(abs(a), abs(b), tiny)


def _mp_to_fraction(value: Any) -> Fraction:
    """An mpmath number as the exact Fraction of its binary value (sign included).

    >>> import mpmath
    >>> _mp_to_fraction(mpmath.mpf(-0.375)), _mp_to_fraction(mpmath.mpf(0))
    (Fraction(-3, 8), Fraction(0, 1))
    """
    import mpmath

    sign, man, exp, _ = mpmath.mpf(value)._mpf_
    if not man:
        if exp:  # ±inf or nan
            raise NumericalError(f"non-finite high-precision margin {value}")
        return Fraction(0)
    out = Fraction(int(man)) * (Fraction(2) ** int(exp))
    return -out if sign else out


def _u_spread(u: np.ndarray) -> float:
    return float(np.max(np.abs(u - u.mean()))) if u.size else 0.0


def _register(label: str, section: str, name: str, lines: tuple[int, int], statement: str,
              **kw: Any) -> Claim:  # fmt: skip
    return register(Claim(f"{PAPER}:{label}", Source(PAPER, section, name, lines), statement, **kw))


# ---------------------------------------------------------------------------------------------
# κ of eq. (4) and Remark 2
# ---------------------------------------------------------------------------------------------


def kappa(s: int, x: float) -> float:
    """κ of eq. (4) as a function of x = ηL, by its series Σ_{j≥2} C(s,j) x^(j−2)/C(s,2)
    (positive terms: no cancellation at small x); κ := 0 for s = 1 (Remark 2's convention).

    >>> kappa(2, 0.7), kappa(1, 0.3)
    (1.0, 0.0)
    """
    if s == 1:
        return 0.0
    c2 = math.comb(s, 2)
    total, power = 0.0, 1.0
    for j in range(2, s + 1):
        total += math.comb(s, j) * power
        power *= x
        if not math.isfinite(total):
            return math.inf
    return total / c2


def kappa_printed(s: int, x: Fraction) -> Fraction:
    """Eq. (4) literally, ((1 + x)^s − 1 − sx)/(C(s,2)x²), in exact rationals (s ≥ 2, x > 0)."""
    return ((1 + x) ** s - 1 - s * x) / (math.comb(s, 2) * x * x)


def _frak_c(kap: float, L: float) -> float:
    """𝔆 = κ²L² + 2L(1 + κ²L²/4) (Lemma 4)."""
    return kap * kap * L * L + 2.0 * L * (1.0 + kap * kap * L * L / 4.0)


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


def _alg1_margin(inst: Instance) -> float:
    p, u = np.asarray(inst["p"]), np.asarray(inst["u"])
    trace = _trace(inst["seed"], p, inst["rounds"])
    lit = np.array(_alg1_literal(list(u), trace, inst["eta"], inst["s"], 0.0))
    gamma = 1.0 - (1.0 - inst["eta"]) ** inst["s"]
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
    gamma = 1.0 - (1.0 - inst["eta"]) ** inst["s"]
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

_register(
    "prop1-printed", "§III", "Proposition 1 (as printed: lim x^T)", (96, 102),
    "Under FedAvg with exact local gradients, x⁰ = 0, η ∈ (0, 1), static p_i, the iterate x^T "
    "converges (to Σ_i w_i u_i with the printed subset-sum weights).",
    space=PROP1_SPACE, margin=_prop1_printed_margin, exact=_prop1_printed_exact,
    tolerance=1e-12, budget=1000, expected="refuted",
    notes="x^T converges only if its stationary law is a point mass. x_{t+1} − μ = "
    "(1 − γ)(x_t − μ) + γ(ū_A − μ) on A ≠ ∅ (γ = 1 − (1 − η)^s, μ = lim E[x]), so the "
    "stationary variance is γ/(2 − γ)·E[(ū_A − μ)² | A ≠ ∅] (exact, enumeration of the 2^m "
    "sets). Margin −Var/max_i(u_i − ū)². It is 0 only if all p_i = 1 or every active set has "
    "the same mean. Refuted: e.g. m = 2, p = (1/2, 1/2), u = (0, 1) has Var = γ/(2 − γ)·1/12 > 0 "
    "(the falsifier's shrunk instance is in the verdict). Proposition 1 is a statement about "
    "lim E[x^T] (fedpbc:prop1-expectation) and the time average (fedpbc:prop1-time-average); "
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
    # E[x_t] = lim(1 − r^t), r = 1 − γP(A ≠ ∅): the exact mean of the time average.
    # E[x_t] = lim·(1 − r^t), r = 1 − γP(A ≠ ∅), 1 − r^t = −expm1(t·log1p(−γP(A ≠ ∅)))
    log_r = math.log1p(-gamma * p_any) if gamma * p_any < 1.0 else -math.inf
    expected = lim * float(np.mean(-np.expm1(np.arange(burn, rounds) * log_r)))
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
    "max|u|), plus an allowance for link patterns too rare to be drawn (expected count "
    "< 30): "
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


_register(
    "prop1-remark-nonuniform", "§III", "remark after Proposition 1 (non-uniform p)", (104, 104),
    "If p_i ≠ p_i′ for some i, i′, then lim x^t ≠ x* (read: lim E[x^t] ≠ x*) — for every "
    "heterogeneous data set u (u not all equal).",
    space=Space([
        Integer("m", 2, 6),
        Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5, 0.2)),
    ], where=lambda i: bool(np.ptp(np.asarray(i["p"])) > 0)),
    margin=_prop1_nonuniform_margin, exact=_prop1_nonuniform_exact, tolerance=0.0,
    expected="refuted",
    notes="The instance is p; the margin evaluates the statement for all u at once: the limit "
    "Σw_iu_i equals x* = mean(u) on the hyperplane Σ(w_i − 1/m)u_i = 0, which for m ≥ 3 "
    "contains non-constant u (u ⊥ 1 and u ⊥ w, built as a cross product), so the margin "
    "evaluates |lim − x*|/max|u − ū| − 1e-12 at that witness u (exact: rationals, −1 when lim = "
    "x* exactly, the witness printed in the method). For m = 2 the statement holds (only u₁ = "
    "u₂ is unbiased). Refuted for every non-uniform p with m ≥ 3; symmetric example: p = "
    "(1/2, 1/5, 1/5), u = (0, −1, 1) (w₂ = w₃, lim = 0 = x*). Trivially false also when all "
    "u_i are equal. The paper check (paper_checks/fedpbc_prop1_limit.py claim 2) uses the "
    "paper's generic u only.",
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
# Section IV: the mixing matrix, ρ, Lemmas 1 and 2
# ---------------------------------------------------------------------------------------------


def _active_of(inst: Instance) -> np.ndarray:
    m = inst["m"]
    return np.array([(int(inst["mask"]) >> i) & 1 for i in range(m)], dtype=bool)


def _mixing_w_margin(inst: Instance) -> float:
    from fltheory.testing.limits import mixing_matrix

    active = _active_of(inst)
    m = active.size
    code = mixing_matrix(active)
    err = float(np.max(np.abs(code - _w_def(active))))
    members = tuple(i for i in range(m) if active[i])
    W = (
        _w_exact(m, members)
        if members
        else [[Fraction(int(i == j)) for j in range(m)] for i in range(m)]
    )
    ok = all(W[i][j] == W[j][i] for i in range(m) for j in range(m))
    ok &= all(sum(row, Fraction(0)) == 1 for row in W)
    ok &= all(sum((W[i][j] for i in range(m)), Fraction(0)) == 1 for j in range(m))
    W2 = [[sum((W[i][k] * W[k][j] for k in range(m)), Fraction(0)) for j in range(m)]
          for i in range(m)]  # fmt: skip
    ok &= W2 == W
    if len(members) <= 1:
        ok &= all(W[i][j] == (1 if i == j else 0) for i in range(m) for j in range(m))
    return -err if ok else -1.0


_register(
    "mixing-w", "§IV", "mixing matrix W^(t)", (155, 159),
    "W^(t) (1/|A| on A×A, 1 on the diagonal off A, 0 elsewhere) is symmetric, doubly "
    "stochastic and idempotent, and W = I when |A| ≤ 1.",
    space=Space([Integer("m", 1, 12), Integer("mask", 0, 2**12 - 1)]),
    margin=_mixing_w_margin, tolerance=1e-15, budget=1000, expected="holds",
    notes="The properties are checked in exact rationals on the definition (l.157); the code "
    "path fltheory.testing.limits.mixing_matrix is compared with the definition (max entry "
    "error). Idempotence gives M^(t) = E[(W^(t))²] = E[W^(t)]. Margin −1 if a property fails. "
    "Budget 1000 (exact m = 12 checks cost ≈ 5 ms).",
)  # fmt: skip


@functools.lru_cache(maxsize=16)
def _w_squared_stack(m: int) -> np.ndarray:
    W = _w_stack(m)
    return np.einsum("aij,ajk->aik", W, W)


def _rho_oracle(p: np.ndarray) -> float:
    """λ₂(E[W²]) with W² multiplied out per pattern (float enumeration)."""
    m = p.size
    if m == 1:
        return 0.0
    M = np.einsum("a,aij->ij", _set_probs(p, _masks(m)), _w_squared_stack(m))
    return float(np.linalg.eigvalsh(M)[-2])


def _eq3_margin(inst: Instance) -> float:
    from fltheory.limits.fedpbc import mixing_rho

    p = np.asarray(inst["p"])
    return -abs(mixing_rho(p) - _rho_oracle(p))


def _eq3_exact(inst: Instance) -> ExactMargin:
    import mpmath

    from fltheory.limits.fedpbc import mixing_rho

    p = _frs(inst["p"])
    gap = _rho_gap_mp(p)
    with mpmath.workdps(50):
        err = abs(mpmath.mpf(mixing_rho(np.asarray(inst["p"]))) - (1 - gap))
        return _mp_to_fraction(mpmath.mpf("1e-10") - err), "mpmath, 50 digits"


_register(
    "eq3-rho", "§IV", "eq. (3): ρ(t) = λ₂(E[(W^(t))²])", (161, 163),
    "ρ = λ₂(M), M = E[(W^(t))²]; the code's ρ (fltheory.limits.fedpbc.mixing_rho) is this "
    "second eigenvalue.",
    space=Space([
        Integer("m", 1, 8),
        Real("p", 0.0, 1.0, size="m", closed=(True, True), special=(0.0, 1.0, 0.5)),
    ]),
    margin=_eq3_margin, exact=_eq3_exact, tolerance=1e-10, expected="holds",
    notes="A definition; checked: the code's ρ equals λ₂ of E[W²] built by enumeration with "
    "W² multiplied out (not using idempotence). Absolute tolerance 1e-10. m = 1: λ₂ is "
    "undefined; the code returns 0 (a convention). Zero link probabilities (outside the "
    "paper's c > 0) are included: ρ = 1 then.",
)  # fmt: skip


def _lemma1_bound_gap(p: np.ndarray) -> float:
    """1 − bound = c⁴[1 − (1 − c)^m]²/8, computed without cancellation."""
    c = float(p.min())
    reach = 1.0 if c == 1.0 else -math.expm1(p.size * math.log1p(-c))
    return c**4 * reach**2 / 8.0


def _lemma1_margin(inst: Instance) -> float:
    p = np.asarray(inst["p"])
    guaranteed = _lemma1_bound_gap(p)
    if guaranteed == 0.0:
        raise NumericalError("c⁴ underflows")
    if p.size <= 10:
        gap = _rho_gap(p, resolved=True)
    else:
        from fltheory.limits.fedpbc import mixing_rho

        gap = 1.0 - mixing_rho(p)
        if guaranteed < 1e-10:
            raise NumericalError("1 − ρ from the code's float ρ cannot resolve a gap < 1e-10")
    return gap / guaranteed - 1.0


def _lemma1_exact(inst: Instance) -> ExactMargin:
    import mpmath

    p = _frs(inst["p"])
    if len(p) > 8:
        return _fr(_lemma1_margin(inst)), "float64 only (no exact method beyond m = 8)"
    with mpmath.workdps(50):
        gap = _rho_gap_mp(p)
        c = mpmath.mpf(min(p).numerator) / min(p).denominator
        bound_gap = c**4 * (1 - (1 - c) ** len(p)) ** 2 / 8
        return _mp_to_fraction(gap / bound_gap - 1), "mpmath, 50 digits (exact E[I − W²])"


_register(
    "lemma1", "§IV", "Lemma 1 (ergodicity)", (165, 165),
    "If p_i ≥ c ∈ (0, 1) for all i, then ρ ≤ 1 − c⁴[1 − (1 − c)^m]²/8.",
    space=Space([
        Integer("m", 2, 60),
        Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
    ]),
    margin=_lemma1_margin, exact=_lemma1_exact, tolerance=1e-9, budget=2000,
    expected="holds",
    notes="Margin (1 − ρ)/(1 − bound) − 1, with 1 − ρ = ν₂(E[I − W²]) by enumeration for "
    "m ≤ 10 (accurate for tiny c), and 1 − mixing_rho(p) (the code path) for m > 10, declined "
    "when 1 − bound < 1e-10. c = min p_i (time-varying p^t reduce to the worst round). Very "
    "loose: the ratio (1 − ρ)/(1 − bound) stays ≥ 8.",
)  # fmt: skip


@functools.lru_cache(maxsize=16)
def _w_stack(m: int) -> np.ndarray:
    out = np.stack([_w_def(mask) for mask in _masks(m)])
    out.setflags(write=False)
    return out


def _lemma2_lhs(ps: list[np.ndarray], B: np.ndarray, t: int) -> float:
    """E‖B(W^(1)⋯W^(t) − J)‖²_F for independent rounds (round r uses ps[r mod len]):
    W₁⋯W_t − J = (W₁ − J)⋯(W_t − J), so with S_r = E[(W − J)S_{r+1}(W − J)], S = I,
    LHS = tr(B S Bᵀ), the expectation taken from the last round inwards."""
    m = B.shape[1]
    D = _w_stack(m) - 1.0 / m
    masks = _masks(m)
    S = np.eye(m)
    for r in reversed(range(t)):
        probs = _set_probs(ps[r % len(ps)], masks)
        S = np.einsum("a,aij,jk,alk->il", probs, D, S, D)
    return float(np.trace(B @ S @ B.T))


def _lemma2_margin(inst: Instance) -> float:
    ps = [np.asarray(inst["p_odd"]), np.asarray(inst["p_even"])]
    B = np.vstack([inst["b1"], inst["b2"]])
    t = inst["t"]
    rho = max(1.0 - _rho_gap(ps[0]), 1.0 - _rho_gap(ps[1]))
    rhs = rho**t * float(np.sum(B**2))
    lhs = _lemma2_lhs(ps, B, t)
    if rhs == 0.0 and lhs <= 1e-300:
        return 0.0
    return _rel(rhs, lhs)


def _lemma2_exact(inst: Instance) -> ExactMargin:
    import mpmath

    ps = [_frs(inst["p_odd"]), _frs(inst["p_even"])]
    B = [_frs(inst["b1"]), _frs(inst["b2"])]
    t, m = inst["t"], len(ps[0])
    J = Fraction(1, m)
    sets = [
        [(_w_exact(m, mem) if mem else _w_exact(m, ()), pr) for mem, pr in _set_probs_exact(p)]
        for p in ps
    ]
    S = [[Fraction(int(i == j)) for j in range(m)] for i in range(m)]
    for r in reversed(range(t)):
        new = [[Fraction(0)] * m for _ in range(m)]
        for W, pr in sets[r % 2]:
            D = [[W[i][j] - J for j in range(m)] for i in range(m)]
            DS = [[sum((D[i][k] * S[k][j] for k in range(m)), Fraction(0)) for j in range(m)]
                  for i in range(m)]  # fmt: skip
            for i in range(m):
                for j in range(m):
                    new[i][j] += pr * sum((DS[i][k] * D[k][j] for k in range(m)), Fraction(0))
        S = new
    lhs = sum(
        (B[a][i] * S[i][j] * B[a][j] for a in range(2) for i in range(m) for j in range(m)),
        Fraction(0),
    )
    with mpmath.workdps(50):
        rho = max(1 - _rho_gap_mp(ps[0]), 1 - _rho_gap_mp(ps[1]))
        norm = sum((v * v for row in B for v in row), Fraction(0))
        rhs = rho**t * mpmath.mpf(norm.numerator) / norm.denominator
        lhs_mp = mpmath.mpf(lhs.numerator) / lhs.denominator
        return _mp_to_fraction(rhs - lhs_mp), "exact rationals (LHS), mpmath 50 digits (ρ^t)"


_register(
    "lemma2", "§IV", "Lemma 2", (169, 173),
    "For any B ∈ ℝ^{d×m}: E‖B(Π_{r=1}^t W^(r) − J)‖²_F ≤ ρ^t‖B‖²_F (independent links, "
    "p^t possibly time-varying, ρ = max_t ρ(t)).",
    space=Space([
        Integer("m", 1, 6),
        Real("p_odd", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
        Real("p_even", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
        Real("b1", -1.0, 1.0, size="m", special=(0.0, 1.0)),
        Real("b2", -1.0, 1.0, size="m", special=(0.0, 1.0)),
        Integer("t", 1, 12),
    ]),
    margin=_lemma2_margin, exact=_lemma2_exact, tolerance=1e-12, budget=2000,
    expected="holds",
    notes="Time variation: odd rounds use p_odd, even rounds p_even. LHS exact by the "
    "second-moment recursion over the 2^m link patterns (W₁⋯W_t − J = Π(W_r − J)), d = 2; "
    "ρ = max of the two rounds' ρ, 1 − ρ from E[I − W²]. Relative margin. Proof: for t = 1 "
    "tr(B(M − J)Bᵀ) ≤ λ_max(M − J)‖B‖² = ρ‖B‖², then induction by independence.",
)  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Section V: Lemma 3, Remark 2, Lemma 4, Remark 3, Lemma 5
# ---------------------------------------------------------------------------------------------


def _rotation(t: Any, one: Any) -> tuple[Any, Any]:
    """(cos, sin) of a rational rotation: ((1 − t²)/(1 + t²), 2t/(1 + t²))."""
    return (one - t * t) / (one + t * t), 2 * t / (one + t * t)


def _hessian(lam: list, t: Any, one: Any) -> list[list[Any]]:
    if len(lam) == 1:
        return [[lam[0]]]
    c, s = _rotation(t, one)
    a, b = lam
    return [[c * c * a + s * s * b, c * s * (a - b)], [c * s * (a - b), s * s * a + c * c * b]]


def _lemma3_sides(lam: list, t: Any, g0: list, x: Any, s: int, one: Any,
                  coef: Any) -> tuple[Any, Any, Any]:  # fmt: skip
    """(LHS², RHS/‖g₀‖, ‖g₀‖²) with ηH = x·H/L: g_k = (I − ηH)^k g₀, LHS = ‖Σ_{k<s}(g_k − g₀)‖,
    RHS = ((1 + x)^s − 1 − sx)/x·‖g₀‖ (= κηC(s,2)L‖g₀‖). The differences d_k = g_k − g₀ are
    carried directly (d_{k+1} = d_k − ηH(g₀ + d_k)): no cancellation at small x."""
    H = _hessian(lam, t, one)
    d = len(g0)
    diff = [0 * one] * d
    total = [0 * one] * d
    for _ in range(1, s):
        g = [g0[i] + diff[i] for i in range(d)]
        diff = [diff[i] - x * sum((H[i][j] * g[j] for j in range(d)), 0 * one) for i in range(d)]
        total = [total[i] + diff[i] for i in range(d)]
    lhs2 = sum((v * v for v in total), 0 * one)
    norm2 = sum((v * v for v in g0), 0 * one)
    return lhs2, coef, norm2


def _lemma3_margin(inst: Instance) -> float:
    d = inst["d"]
    lam = [float(v) for v in np.asarray(inst["lam"])[:d]]
    g0 = [float(v) for v in np.asarray(inst["g0"])[:d]]
    x, s = 10.0 ** inst["log_x"], inst["s"]
    coef = x * math.comb(s, 2) * kappa(s, x)  # ((1 + x)^s − 1 − sx)/x by its series
    lhs2, coef, norm2 = _lemma3_sides(lam, inst["rot"], g0, x, s, 1.0, coef)
    lhs, rhs = math.sqrt(lhs2), coef * math.sqrt(norm2)
    if rhs == 0.0 and lhs == 0.0:
        return 0.0
    return _rel(rhs, lhs)


def _lemma3_exact(inst: Instance) -> ExactMargin:
    d = inst["d"]
    lam = _frs(np.asarray(inst["lam"])[:d])
    g0 = _frs(np.asarray(inst["g0"])[:d])
    x, s = _fr(10.0 ** inst["log_x"]), inst["s"]
    coef = ((1 + x) ** s - 1 - s * x) / x
    lhs2, coef, norm2 = _lemma3_sides(lam, _fr(inst["rot"]), g0, x, s, Fraction(1), coef)
    # RHS ≥ LHS ⇔ coef²‖g₀‖² ≥ LHS² (both sides non-negative)
    rhs2 = coef * coef * norm2
    scale = max(rhs2, lhs2) or Fraction(1)
    return (rhs2 - lhs2) / scale, "exact rationals (rational rotation, squared sides)"


_register(
    "lemma3", "§V-B", "Lemma 3 (Lemma 1 of [18])", (211, 215),
    "For s ≥ 1 and all x: ‖Σ_{k<s}[∇ℓ_i(x^{(t,k)}) − ∇ℓ_i(x^t)]‖ ≤ κηC(s,2)L_i‖∇ℓ_i(x^t)‖, "
    "x^{(t,k)} the local GD iterates on ℓ_i(·; ξ) with one sample ξ.",
    space=Space([
        Integer("d", 1, 2),
        Real("lam", -1.0, 1.0, size=2, closed=(True, True), special=(-1.0, 1.0, 0.0)),
        Real("rot", -1.0, 1.0, closed=(True, True), special=(0.0,)),
        Real("g0", -1.0, 1.0, size=2, special=(0.0, 1.0)),
        Real("log_x", -8.0, 1.3, closed=(True, True), special=(0.0,)),
        Integer("s", 1, 40),
    ]),
    margin=_lemma3_margin, exact=_lemma3_exact, tolerance=1e-12, expected="holds",
    notes="Quadratic ℓ_i with Hessian H (eigenvalues lam·L_i in [−L_i, L_i], non-convex "
    "allowed; rational rotation in d = 2), so ∇ℓ at the k-th iterate is (I − ηH)^k g₀ and only "
    "x = ηL_i and H/L_i matter (x up to 20). With κ := κ_i, the strongest form (κ = max_i κ_i "
    "is larger). Relative margin; equality at H = −L_iI (tight), hence the exact margin in "
    "rationals on the squared sides.",
)  # fmt: skip


def _remark2a_margin(inst: Instance) -> float:
    s = inst["s"]
    x1 = 10.0 ** inst["log_x"]
    x2 = x1 * (1.0 + inst["step"])
    k1, k2 = kappa(s, x1), kappa(s, x2)
    if s == 1:
        return 0.0
    return _rel(k2, k1)


def _remark2a_exact(inst: Instance) -> ExactMargin:
    s = inst["s"]
    if s == 1:
        return Fraction(0), "κ := 0 for s = 1"
    x1 = _fr(10.0 ** inst["log_x"])
    x2 = x1 * (1 + _fr(inst["step"]))
    k1, k2 = kappa_printed(s, x1), kappa_printed(s, x2)
    return (k2 - k1) / max(k1, k2), "exact rationals (eq. 4 as printed)"


_register(
    "remark2-a", "§V-B", "Remark 2 / l.217: κ is non-decreasing in η", (217, 221),
    "For any s, κ = ((1 + ηL)^s − 1 − sηL)/(C(s,2)(ηL)²) is non-decreasing in η > 0.",
    space=Space([
        Integer("s", 1, 40),
        Real("log_x", -8.0, 1.0, closed=(True, True)),
        Real("step", 0.0, 10.0, special=(1.0,)),
    ]),
    margin=_remark2a_margin, exact=_remark2a_exact, tolerance=1e-12, expected="holds",
    notes="x = ηL; margin (κ(x₂) − κ(x₁))/κ(x₂) for x₂ = x₁(1 + step). The float κ uses the "
    "positive series Σ_{j≥2}C(s,j)x^{j−2}/C(s,2) (eq. 4 literally cancels catastrophically at "
    "small x, which would fake non-monotonicity); the exact margin evaluates eq. (4) as "
    "printed in rationals.",
)  # fmt: skip

_register(
    "remark2-b", "§V-B", "Remark 2: s = 1 ⇒ κ = 0", (221, 221),
    "When s = 1, κ = 0.",
    reason="a convention, not a statement: eq. (4) at s = 1 is 0/0 ((1 + x) − 1 − x over "
    "C(1,2)x² = 0); this module's kappa() returns 0 for s = 1, as Remark 2 and Lemma 3 "
    "(whose left side is 0 for s = 1) need.",
)  # fmt: skip


def _remark2c_margin(inst: Instance) -> float:
    k = kappa(inst["s"], 10.0 ** inst["log_x"])
    return (k - 1.0) / k


def _remark2c_exact(inst: Instance) -> ExactMargin:
    k = kappa_printed(inst["s"], _fr(10.0 ** inst["log_x"]))
    return (k - 1) / k, "exact rationals (eq. 4 as printed)"


_register(
    "remark2-c", "§V-B", "Remark 2: s ≥ 2 ⇒ κ ≥ 1", (221, 221),
    "For s ≥ 2, κ ≥ 1.",
    space=Space([Integer("s", 2, 60), Real("log_x", -8.0, 1.0, closed=(True, True))]),
    margin=_remark2c_margin, exact=_remark2c_exact, tolerance=1e-12, expected="holds",
    notes="Margin (κ − 1)/κ; equality at s = 2 (κ = 1 for every η). κ's series has positive "
    "coefficients and constant term 1.",
)  # fmt: skip


def _remark2d_margin(inst: Instance) -> float:
    s, c = inst["s"], 10.0 ** inst["log_c"]
    x = inst["theta"] * c / s  # ηL ≤ c/s
    bound = math.expm1(c) - c
    bound = bound / (c * c / 2.0) if c > 1e-4 else 1.0 + c / 3.0 + c * c / 12.0 + c**3 / 60.0
    return _rel(bound, kappa(s, x))


def _remark2d_exact(inst: Instance) -> ExactMargin:
    import mpmath

    s, c = inst["s"], _fr(10.0 ** inst["log_c"])
    k = kappa_printed(s, _fr(inst["theta"]) * c / s)
    with mpmath.workdps(60):
        cm = mpmath.mpf(c.numerator) / c.denominator
        bound = (mpmath.exp(cm) - 1 - cm) / (cm * cm / 2)
        km = mpmath.mpf(k.numerator) / k.denominator
        return _mp_to_fraction((bound - km) / bound), "exact κ, mpmath 60 digits (e^c)"


_register(
    "remark2-d", "§V-B", "Remark 2: η ≤ c/(sL) ⇒ κ ≤ (e^c − 1 − c)/(c²/2)", (221, 221),
    "If η ≤ c/(sL) then κ ≤ (e^c − 1 − c)/(c²/2).",
    space=Space([
        Integer("s", 2, 200),
        Real("log_c", -6.0, 1.5, closed=(True, True), special=(0.0,)),
        Real("theta", 0.0, 1.0, closed=(False, True), special=(1.0,)),
    ]),
    margin=_remark2d_margin, exact=_remark2d_exact, tolerance=1e-12, expected="holds",
    notes="η = θc/(sL), θ ∈ (0, 1]. Termwise C(s,j)(c/s)^{j−2}/C(s,2) ≤ 2c^{j−2}/j!, so the "
    "bound holds, tight as s → ∞ at θ = 1. Relative margin; the exact margin evaluates eq. (4) in "
    "rationals and e^c at 60 digits.",
)  # fmt: skip

_register(
    "remark2-e", "§V-B", "Remark 2: the convention √2/(κsL) = ∞ for s = 1", (221, 221),
    "With √2/(κsL) := ∞ for s = 1, min{1/(2s), √2/(κsL), (1 − √ρ)/(6√(2ρ)Ls²)} = "
    "min{1/(2s), (1 − √ρ)/(6√(2ρ)Ls²)}.",
    reason="a convention for s = 1 (where it is a tautology); for s ≥ 2 the middle term can be "
    "the smallest (κL > 2√2 and small ρ), which the remark does not claim otherwise.",
)  # fmt: skip


def _lemma4_sides(h: list, b: list, x: list, eta: Any, s: int, sigma2: Any, delta: Any,
                  one: Any, kap: Any) -> tuple[Any, Any] | None:  # fmt: skip
    """(RHS, LHS) of Lemma 4 for ℓ_i(x; ξ) = ½h_ix² − b_ix + ξx, d = 1, E[ξ] = 0, E[ξ²] = σ²,
    the same ξ for all s local steps; β² = C̄ + δ, ζ² the smallest value for that β."""
    m = len(h)
    zero = 0 * one
    hb = sum(h, zero) / m
    bb = sum(b, zero) / m
    if hb == 0:
        return None
    c = [(hi - hb) / hb for hi in h]
    e = [ci * bb - (bi - bb) for ci, bi in zip(c, b, strict=True)]
    Cb = sum((ci * ci for ci in c), zero) / m
    f = sum((ci * ei for ci, ei in zip(c, e, strict=True)), zero) / m
    eb = sum((ei * ei for ei in e), zero) / m
    beta2 = Cb + delta
    if f == 0:
        zeta2 = eb
    elif delta == 0:
        return None  # no finite ζ for this β: the lemma is void
    else:
        zeta2 = eb + f * f / delta
    L = max(abs(hi) for hi in h)
    if isinstance(one, float):
        # A^s − 1 and S = Σ_{k<s}A^k = (1 − A^s)/(ηh) without cancellation at small ηh
        D = [math.expm1(s * math.log1p(-eta * hi)) if abs(eta * hi) < 0.5
             else (1.0 - eta * hi) ** s - 1.0 for hi in h]  # fmt: skip
        S = [-Di / (eta * hi) if eta * hi != 0 else float(s) for Di, hi in zip(D, h, strict=True)]
    else:
        A = [one - eta * hi for hi in h]
        D = [a**s - 1 for a in A]
        S = [sum((a**k for k in range(s)), zero) for a in A]
    xbar = sum(x, zero) / m
    # x̄^{t+1} − x̄^t = mean_i[(A_i^s − 1)x_i + ηS_ib_i] − (η/m)Σ_iS_iξ_i
    step = sum((Di * xi + eta * Si * bi for Di, xi, Si, bi in zip(D, x, S, b, strict=True)),
               zero) / m  # fmt: skip
    var = eta * eta / (m * m) * sigma2 * sum((Si * Si for Si in S), zero)
    # F(x̄ + step) − F(x̄) = step·(h̄(2x̄ + step)/2 − b̄), plus h̄/2 times the noise variance
    lhs = step * (hb * (2 * xbar + step) / 2 - bb) + hb * var / 2
    C = kap * kap * L * L + 2 * L * (one + kap * kap * L * L / 4)
    grad = hb * xbar - bb
    cons = sum(((xi - xbar) ** 2 for xi in x), zero) / m
    rhs = (
        sigma2 * eta**2 * s**2 * (kap * kap * L * L + 2 * L * (one / m + kap * kap * L * L / 4))
        + 3 * zeta2 * eta**2 * s**2 * C
        - (s * eta / 4 - 3 * eta**2 * s**2 * (beta2 + 1) * C) * grad * grad
        + (eta * s * L * L + 3 * eta**2 * s**2 * L * L * C) * cons
    )
    return rhs, lhs


def _lemma4_inputs(inst: Instance) -> tuple[list, list, list, float, int, float, float]:
    s = inst["s"]
    scale = 10.0 ** inst["log_h"]
    h = [scale * v for v in np.asarray(inst["h"]).tolist()]
    eta = inst["theta"] / (2 * s)
    b = np.asarray(inst["b"]).tolist()
    x = np.asarray(inst["x"]).tolist()
    return h, b, x, eta, s, inst["sigma2"], inst["delta"]


def _lemma4_where(inst: Instance) -> bool:
    h = np.asarray(inst["h"])
    return bool(h.mean() != 0.0)


def _lemma4_margin(inst: Instance) -> float:
    h, b, x, eta, s, sigma2, delta = _lemma4_inputs(inst)
    L = max(abs(v) for v in h)
    out = _lemma4_sides(h, b, x, eta, s, sigma2, delta, 1.0, kappa(s, eta * L))
    if out is None:
        return 1.0
    rhs, lhs = out
    if not (math.isfinite(rhs) and math.isfinite(lhs)):
        raise NumericalError("overflow in Lemma 4's sides")
    return _rel(rhs, lhs)


def _lemma4_exact(inst: Instance) -> ExactMargin:
    h, b, x, eta, s, sigma2, delta = _lemma4_inputs(inst)
    hf, bf, xf = _frs(h), _frs(b), _frs(x)
    etaf = _fr(eta)
    L = max(abs(v) for v in hf)
    kap = Fraction(0) if s == 1 else (
        Fraction(1) if L == 0 else kappa_printed(s, etaf * L)
    )  # fmt: skip
    out = _lemma4_sides(hf, bf, xf, etaf, s, _fr(sigma2), _fr(delta), Fraction(1), kap)
    if out is None:
        return Fraction(1), "void (no finite ζ)"
    rhs, lhs = out
    return (rhs - lhs) / (max(abs(rhs), abs(lhs)) or 1), "exact rationals"


_register(
    "lemma4", "§V-B", "Lemma 4 (descent lemma)", (227, 231),
    "Under Assumptions 1, 2, 4 and η ≤ 1/(2s): E[F(x̄^{t+1}) − F(x̄^t) | F^t] ≤ "
    "σ²η²s²[κ²L² + 2L(1/m + κ²L²/4)] + 3ζ²η²s²𝔆 − {sη/4 − 3η²s²(β² + 1)𝔆}‖∇F(x̄^t)‖² + "
    "{ηsL² + 3η²s²L²𝔆}(1/m)Σ‖x_i^t − x̄^t‖².",
    space=Space([
        Integer("m", 1, 6),
        Real("h", -1.0, 1.0, size="m", closed=(True, True), special=(1.0, -1.0, 0.5)),
        Real("log_h", -3.0, 3.0, closed=(True, True), special=(0.0,)),
        Real("b", -10.0, 10.0, size="m", special=(0.0, 1.0)),
        Real("x", -10.0, 10.0, size="m", special=(0.0, 1.0)),
        Real("theta", 0.0, 1.0, closed=(False, True), special=(1.0,)),
        Integer("s", 1, 12),
        Real("sigma2", 0.0, 10.0, closed=(True, True), special=(0.0,)),
        Real("delta", 0.0, 100.0, closed=(True, True), special=(0.0, 1e-6)),
    ], where=_lemma4_where),
    margin=_lemma4_margin, exact=_lemma4_exact, tolerance=1e-10, expected="holds",
    notes="d = 1 quadratics ℓ_i(x; ξ) = ½h_ix² − b_ix + ξx with heterogeneous, possibly "
    "negative curvatures h_i (L = max|h_i|), any client models x_i^t, η = θ/(2s). x̄^{t+1} does "
    "not depend on A^t (W is doubly stochastic), so the LHS is a closed form in the local "
    "steps (x̄^{t+1} affine in ξ). Assumption 4: ∇F_i − ∇F = c_i∇F + e_i with c_i = "
    "(h_i − h̄)/h̄; for β² = mean c_i² + δ the smallest ζ² is mean e_i² + (mean c_ie_i)²/δ "
    "(identical h_i: β = 0, ζ² = mean e_i²). h̄ = 0 with heterogeneous h admits no (β, ζ) and "
    "is excluded. Relative margin; exact in rationals.",
)  # fmt: skip


def _remark3_run(inst: Instance, one: Any, conv: Callable[[Any], Any]) -> tuple[Any, Any, Any]:
    """(Σ_i‖x̄^t − x_i^t‖², η²‖Σ_q G^(q)(Π_{l=q}^{t−1}W^(l) − J)‖²_F, a size scale) on one run
    of Algorithm 2, d = 1, ℓ_i(x; ξ) = ½h_i(x − u_i)² + ξx (the same ξ for the s local steps).
    The size scale Σ_i x_i² + η²tΣ_q‖G^(q)‖² bounds the rounding of both sides."""
    from fltheory.rng import generator

    m, s, t = inst["m"], inst["s"], inst["t"]
    p = np.asarray(inst["p"])
    rng = generator(int(inst["seed"]), "claims/fedpbc-remark3")
    links = rng.random((t, m)) < p
    noise = rng.normal(size=(t, m))
    h = [conv(v) for v in np.asarray(inst["h"])]
    u = [conv(v) for v in np.asarray(inst["u"])]
    eta = conv(inst["eta"])
    x0 = [conv(inst["x0"])] * m if inst["common"] else [conv(v) for v in np.asarray(inst["u"])]
    X = list(x0)
    Gs, Ws = [], []
    for r in range(t):
        G, nxt = [], []
        for i in range(m):
            y, g_sum = X[i], 0 * one
            xi = conv(noise[r, i])
            for _ in range(s):
                g = h[i] * (y - u[i]) + xi
                g_sum += g
                y = y - eta * g
            G.append(g_sum)
            nxt.append(y)
        members = tuple(i for i in range(m) if links[r, i])
        W = _w_generic(m, members, one)
        X = [sum((nxt[k] * W[k][j] for k in range(m)), 0 * one) for j in range(m)]
        Gs.append(G)
        Ws.append(W)
    xbar = sum(X, 0 * one) / m
    lhs = sum(((xbar - v) ** 2 for v in X), 0 * one)
    total = [0 * one] * m
    for q in range(t):
        P = [[one if i == j else 0 * one for j in range(m)] for i in range(m)]
        for W in Ws[q:]:
            P = [[sum((P[i][k] * W[k][j] for k in range(m)), 0 * one) for j in range(m)]
                 for i in range(m)]  # fmt: skip
        for j in range(m):
            total[j] += sum((Gs[q][i] * (P[i][j] - one / m) for i in range(m)), 0 * one)
    rhs = eta * eta * sum((v * v for v in total), 0 * one)
    size = sum((v * v for v in X), 0 * one) + eta * eta * t * sum(
        (g * g for G in Gs for g in G), 0 * one
    )
    return lhs, rhs, size


def _w_generic(m: int, members: tuple[int, ...], one: Any) -> list[list[Any]]:
    k = len(members)
    return [
        [
            one / k if (i in members and j in members) else (one if i == j else 0 * one)
            for j in range(m)
        ]
        for i in range(m)
    ]


def _remark3_margin(inst: Instance) -> float:
    lhs, rhs, size = _remark3_run(inst, 1.0, float)
    return -abs(lhs - rhs) / max(lhs, rhs, 1e-12 * size, 1e-300)


def _remark3_exact(inst: Instance) -> ExactMargin:
    lhs, rhs, _ = _remark3_run(inst, Fraction(1), _fr)
    if lhs == rhs:
        return Fraction(0), "exact rationals"
    return -abs(lhs - rhs) / max(lhs, rhs) + Fraction(1, 10**9), "exact rationals"


_register(
    "remark3-identity", "§V-B", "Remark 3, consensus error in matrix form", (233, 241),
    "With all clients initialised at the same point, Σ_i‖x̄^t − x_i^t‖² = ‖X^(t)(I − J)‖² = "
    "η²‖Σ_{q<t}G^(q)(Π_{l=q}^{t−1}W^(l) − J)‖²_F.",
    space=Space([
        Integer("m", 1, 5),
        Real("p", 0.0, 1.0, size="m", closed=(True, True), special=(0.0, 1.0)),
        Real("h", -2.0, 2.0, size="m", special=(1.0, 0.0)),
        Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0)),
        Real("x0", -1.0, 1.0, special=(0.0,)),
        Real("eta", 0.0, 1.0, special=(0.5,)),
        Integer("s", 1, 4),
        Integer("t", 1, 8),
        Integer("seed", 0, 10**6),
        Integer("common", 1, 1),
    ]),
    margin=_remark3_margin, exact=_remark3_exact, tolerance=1e-9, expected="holds",
    notes="One seeded run of Algorithm 2 (d = 1), both sides computed along it; the product "
    "Π_{l=q}^{t−1}W^(l) is taken in increasing l (X^(t) = (X^(t−1) − ηG^(t−1))W^(t−1)). The "
    "identity needs the common initialisation (l.241): with common = 0 (x_i^0 = u_i, not in "
    "the space) it fails — a negative control in the tests. Relative margin, exact in "
    "rationals.",
)  # fmt: skip


def _one_minus_sqrt(gap: float) -> float:
    """1 − √ρ from the gap 1 − ρ, without cancellation."""
    return gap / (1.0 + math.sqrt(max(1.0 - gap, 0.0)))


def _lemma5_eta_max(s: int, L: float, rho: float, gap: float | None = None) -> float:
    """Largest η with η ≤ min{1/(2s), √2/(κ(η)sL), (1 − √ρ)/(6√(2ρ)Ls²)} (κ increases in η,
    so the admissible set is an interval)."""

    def cap(eta: float) -> float:
        terms = [1.0 / (2 * s)]
        if s > 1:
            terms.append(math.sqrt(2.0) / (kappa(s, eta * L) * s * L))
        if rho > 0:
            oms = _one_minus_sqrt(1.0 - rho if gap is None else gap)
            terms.append(oms / (6 * math.sqrt(2 * rho) * L * s * s))
        return min(terms)

    return _bisect_cap(cap)


def _bisect_cap(cap: Callable[[float], float]) -> float:
    lo, hi = 0.0, cap(0.0)
    if hi <= 0:
        return 0.0
    if hi <= cap(hi):
        return hi
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid <= cap(mid):
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * hi:
            break
    return lo


def _lemma5_moments(p: np.ndarray, u: np.ndarray, x0: float, a: float, noise2: float,
                    T: int) -> tuple[list[float], list[float]]:  # fmt: skip
    """Exact E‖X^(t)(I − J)‖² and E(x̄^t − ū)² for t < T (d = 1, isotropic clients).

    With y = a x + (1 − a)(u − ξ/h) and x' = W y (W independent of y), the deviation
    z = (I − J)x obeys z' = W(I − J)y = W(a z + (1 − a)(ũ − ξ̃)), ũ = (I − J)u,
    Cov ξ̃ = noise2·(I − J): its moments are tracked directly (no cancellation against the
    common component), and x̄' = a x̄ + (1 − a)(ū − ξ̄/h) on every path."""
    m = p.size
    masks = _masks(m)
    probs = _set_probs(p, masks)
    D = _w_stack(m) - 1.0 / m  # W(I − J) = W − J: exactly 0 when every link is up
    M = np.einsum("a,aij->ij", probs, D)
    P = np.eye(m) - 1.0 / m
    ut = P @ u
    mean = np.zeros(m)
    second = np.zeros((m, m))
    ubar = float(u.mean())
    dev2 = (x0 - ubar) ** 2  # E(x̄^t − ū)²
    cons, grad = [], []
    for _ in range(T):
        cons.append(float(np.trace(second)))
        grad.append(dev2)
        ey = a * mean + (1 - a) * ut
        eyy = (a * a * second + a * (1 - a) * (np.outer(mean, ut) + np.outer(ut, mean))
               + (1 - a) ** 2 * (np.outer(ut, ut) + noise2 * P))  # fmt: skip
        mean = M @ ey
        second = np.einsum("a,aij,jk,alk->il", probs, D, eyy, D)
        dev2 = a * a * dev2 + (1 - a) ** 2 * noise2 / m
    return cons, grad


def _gap_or_decline(p: np.ndarray) -> float:
    gap = _rho_gap(p)
    if gap < 1e-150:  # (1 − √ρ)² would underflow
        raise NumericalError("1 − ρ below 1e-150 (a link probability is nearly 0)")
    return gap


def _lemma5_sides(inst: Instance) -> tuple[float, float]:
    p, u = np.asarray(inst["p"]), np.asarray(inst["u"])
    m, s, T = p.size, inst["s"], inst["T"]
    h = 10.0 ** inst["log_h"]
    gap = _gap_or_decline(p)
    rho = 1.0 - gap
    eta = inst["theta"] * _lemma5_eta_max(s, h, rho, gap)
    a = (1.0 - eta * h) ** s  # may be ≤ 0 or < −1: Lemma 5 restricts η, not ηh
    sigma2 = inst["sigma2"]
    cons, grad = _lemma5_moments(p, u, inst["x0"], a, sigma2 / (h * h), T)
    lhs = sum(cons) / (m * T)
    zeta2 = h * h * float(np.mean((u - u.mean()) ** 2))
    avg_grad = h * h * sum(grad) / T
    oms = _one_minus_sqrt(gap)
    rhs = (6 * eta**2 * s**2 * (2 * rho / oms**2 + rho / gap) * sigma2
           + 72 * eta**2 * s**4 * rho / oms**2 * zeta2
           + 72 * eta**2 * s**4 * rho / oms**2 * avg_grad)  # fmt: skip
    if not (math.isfinite(lhs) and math.isfinite(rhs)):
        raise NumericalError("moments overflow")
    return rhs, lhs


def _lemma5_margin(inst: Instance) -> float:
    rhs, lhs = _lemma5_sides(inst)
    return (rhs - lhs) / max(rhs, lhs, 1e-300)


_register(
    "lemma5", "§V-B", "Lemma 5 (consensus error)", (243, 245),
    "For η ≤ min{1/(2s), √2/(κsL), (1 − √ρ)/(6√(2ρ)Ls²)}: (1/(mT))Σ_{t<T}E‖X^(t)(I − J)‖² ≤ "
    "6η²s²[2ρ/(1 − √ρ)² + ρ/(1 − ρ)]σ² + 72η²s⁴ρζ²/(1 − √ρ)² + 72(β² + 1)η²s⁴ρ/(1 − √ρ)²·"
    "(1/T)Σ_tE‖∇F(x̄^t)‖².",
    space=Space([
        Integer("m", 1, 5),
        Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
        Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0)),
        Real("x0", -2.0, 2.0, special=(0.0,)),
        Real("log_h", -2.0, 2.0, closed=(True, True), special=(0.0,)),
        Real("sigma2", 0.0, 10.0, closed=(True, True), special=(0.0,)),
        Real("theta", 0.0, 1.0, closed=(False, True), special=(1.0, 0.5)),
        Integer("s", 1, 5),
        Integer("T", 1, 30),
    ]),
    margin=_lemma5_margin, tolerance=1e-10, budget=1500, expected="holds",
    notes="Isotropic d = 1 quadratics ℓ_i = (h/2)(x − u_i)² + ξx (L = h, β = 0, ζ² = "
    "h²·mean(u_i − ū)², E ξ² = σ²), common start x⁰, fixed p (ρ from E[I − W²]); η = θ·η_max "
    "with η_max the largest admissible step (bisection: κ depends on η). LHS and the RHS's "
    "E‖∇F(x̄^t)‖² are exact by the first/second-moment recursion of X over the 2^m link "
    "patterns, tracked for the deviation X(I − J) itself (exactly 0 at t = 0 and when every "
    "link is up). Relative margin. No exact margin (ρ is an eigenvalue; the float margin keeps a "
    "slack of orders of magnitude: the bound is very loose).",
)  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Theorem 1, its step sizes, Remark 4
# ---------------------------------------------------------------------------------------------


def _thm1_caps(eta: float, s: int, L: float, rho: float, beta2: float,
               gap: float | None = None) -> list[float]:  # fmt: skip
    k = kappa(s, eta * L)
    C = _frak_c(k, L)
    oms = _one_minus_sqrt(1.0 - rho if gap is None else gap)
    q = s * s * L * L * rho / oms**2
    caps = [1.0 / (24 * (beta2 + 1) * C * (1 + 18 * q) + 144 * (beta2 + 1) * q), 1.0 / (2 * s)]
    if s > 1:
        caps.append(math.sqrt(2.0) / (k * s * L))
    if rho > 0:
        caps.append(1.0 / (rho * s**3))
        caps.append(oms / (6 * math.sqrt(2.0) * rho * L * s * s))
    return caps


def _thm1_eta_max(s: int, L: float, rho: float, beta2: float, gap: float | None = None
                  ) -> float:  # fmt: skip
    return _bisect_cap(lambda eta: min(_thm1_caps(eta, s, L, rho, beta2, gap)))


def _thm1_quantities(inst: Instance) -> dict[str, float]:
    p, u = np.asarray(inst["p"]), np.asarray(inst["u"])
    m, s = p.size, inst["s"]
    h = 10.0 ** inst["log_h"]
    gap = _gap_or_decline(p)
    rho = 1.0 - gap
    eta_max = _thm1_eta_max(s, h, rho, 0.0, gap)
    c0 = 10.0 ** inst["log_c0"] if "log_c0" in inst else 1.0
    T_min = c0 * c0 * m / (s * eta_max * eta_max)
    T = math.ceil(max(T_min, 1.0) * 10.0 ** inst["log_t"])
    eta = c0 * math.sqrt(m / (s * T))
    D2 = (inst["x0"] - float(u.mean())) ** 2
    zeta2 = h * h * float(np.mean((u - u.mean()) ** 2))
    return {"m": m, "s": s, "h": h, "rho": rho, "gap": gap, "eta": eta, "T": T, "D2": D2,
            "zeta2": zeta2, "sigma2": inst["sigma2"], "c0": c0}  # fmt: skip


def _thm1_lhs(q: dict[str, float]) -> float:
    """(1/T)Σ_{k<T}E‖∇F(x̄^k)‖² exactly: x̄^{t+1} = a x̄^t + (1 − a)(ū − ξ̄^t/h) on every path."""
    h, eta, s, T, m = q["h"], q["eta"], q["s"], q["T"], q["m"]
    a = math.exp(s * math.log1p(-eta * h))
    one_minus_a = -math.expm1(s * math.log1p(-eta * h))
    a2T = math.exp(2 * T * s * math.log1p(-eta * h))
    G = (1 - a2T) / (one_minus_a * (1 + a))  # Σ_{t<T} a^{2t}
    noise = one_minus_a / (1 + a) * q["sigma2"] / (m * h * h) * (T - G)
    return h * h / T * (q["D2"] * G + noise)


def _thm1_rhs(q: dict[str, float]) -> float:
    m, s, T, L, rho = q["m"], int(q["s"]), q["T"], q["h"], q["rho"]
    k = kappa(s, q["eta"] * L)
    C = _frak_c(k, L)
    oms = _one_minus_sqrt(q["gap"])
    F0 = L / 2 * q["D2"]
    sig, zeta2 = q["sigma2"], q["zeta2"]
    first = 8 * F0 / math.sqrt(m * s * T)
    return (first
            + 16 * L * math.sqrt(s / (m * T)) * sig
            + 8 * math.sqrt(m * s / T) * k * k * L * L * (1 + L / 2) * sig
            + 24 * math.sqrt(m * s / T) * (C + 24 * L * L / oms**2) * zeta2
            + m * s / T * 1728 * C * L * L / oms**2 * zeta2
            + m * s / T * 144 * rho * L * L / oms**2 * (1 + 3 * C) * sig)  # fmt: skip


def _thm1_explicit_margin(inst: Instance) -> float:
    q = _thm1_quantities(inst)
    return _rel(_thm1_rhs(q), _thm1_lhs(q))


THM1_PARAMS: list[Parameter] = [
    Integer("m", 1, 8),
    Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
    Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0)),
    Real("x0", -10.0, 10.0, special=(0.0,)),
    Real("log_h", -2.0, 2.0, closed=(True, True), special=(0.0,)),
    Real("sigma2", 0.0, 10.0, closed=(True, True), special=(0.0,)),
    Integer("s", 1, 30),
    Real("log_t", 0.0, 6.0, closed=(True, True), special=(0.0,)),
]

_register(
    "thm1-o", "§V-B", "Theorem 1 (as printed, with O(·))", (249, 255),
    "With η = c₀√(m/(sT)) and T large enough, (1/T)Σ_kE‖∇F(x̄^k)‖² ≤ O(8(F(x̄⁰) − F*)/√(msT)) + "
    "O(noise) + O(client drift) + O(intermittent participation).",
    reason="the constants are hidden in O(·) (and depend on c₀ and on the admissible T): no "
    "finite instance can refute it. Executable readings: fedpbc:thm1-explicit, "
    "fedpbc:thm1-explicit-c0-1, fedpbc:thm1-rate.",
)  # fmt: skip

_register(
    "thm1-explicit", "§V-B", "Theorem 1 (reading O(x) = x, any c₀)", (249, 255),
    "With η = c₀√(m/(sT)) satisfying the step-size condition (T ≥ T_min(c₀)), "
    "(1/T)Σ_{k<T}E‖∇F(x̄^k)‖² ≤ 8(F(x̄⁰) − F*)/√(msT) + 16L√(s/(mT))σ² + "
    "8√(ms/T)κ²L²(1 + L/2)σ² + 24√(ms/T)[𝔆 + 24L²/(1 − √ρ)²]ζ² + (ms/T)1728𝔆L²ζ²/(1 − √ρ)² + "
    "(ms/T)144ρL²(1 + 3𝔆)σ²/(1 − √ρ)².",
    space=Space([*THM1_PARAMS, Real("log_c0", -3.0, 2.0, closed=(True, True), special=(0.0,))]),
    margin=_thm1_explicit_margin, tolerance=1e-10, expected="refuted",
    notes="Isotropic d = 1 quadratics F_i = (h/2)(x − u_i)² + noise (L = h, β = 0, ζ² = "
    "h²·mean(u_i − ū)², σ² the gradient noise), FedPBC with exact W mixing: x̄ obeys "
    "x̄^{t+1} = a x̄^t + (1 − a)(ū − ξ̄^t/h) on every path, a = (1 − ηh)^s, so the LHS is a "
    "closed form (T up to 1e6·T_min). T = ⌈T_min·10^log_t⌉ with T_min = c₀²m/(sη_max²). "
    "Refuted for small c₀: with ζ = σ = 0 the LHS ≈ h‖x̄⁰ − ū‖²/(2c₀√(msT)) against the "
    "first term 4h‖x̄⁰ − ū‖²/√(msT), so it fails for c₀ < 1/8 — the O(·) hides a 1/c₀ (the "
    "standard proof gives 8(F(x̄⁰) − F*)/(ηsT) = 8(F(x̄⁰) − F*)/(c₀√(msT))). See "
    "fedpbc:thm1-explicit-c0-1 for c₀ = 1. No exact margin: the float closed forms are "
    "evaluated with log1p/expm1 and the violations are of order one.",
)  # fmt: skip

_register(
    "thm1-explicit-c0-1", "§V-B", "Theorem 1 (reading O(x) = x, c₀ = 1)", (249, 255),
    "As fedpbc:thm1-explicit with c₀ = 1 (the printed constants are those of c₀ = 1).",
    space=Space(THM1_PARAMS),
    margin=_thm1_explicit_margin, tolerance=1e-10, expected="holds",
    notes="Same family and margin as fedpbc:thm1-explicit with c₀ = 1.",
)  # fmt: skip


def _thm1_rate_margin(inst: Instance) -> float:
    q = _thm1_quantities(inst)
    # the asymptotic regime needs ηhsT = c₀h√(msT) ≫ 1 (the initial error has decayed)
    base_T = max(q["T"], 1e8 / (q["c0"] ** 2 * q["h"] ** 2 * q["m"] * q["s"]))
    vals = []
    for k in (1, 2):
        qq = dict(q)
        qq["T"] = base_T * 10.0**k
        qq["eta"] = q["c0"] * math.sqrt(q["m"] / (q["s"] * qq["T"]))
        vals.append(_thm1_lhs(qq))
    if vals[0] == 0.0:
        return 0.5
    slope = math.log10(vals[1] / vals[0]) if vals[1] > 0 else -math.inf
    return -0.49 - slope


_register(
    "thm1-rate", "§V-B", "Theorem 1 (rate T^(−1/2))", (249, 267),
    "With η = c₀√(m/(sT)), (1/T)Σ_{k<T}E‖∇F(x̄^k)‖² → 0 at rate T^(−1/2).",
    space=Space([*THM1_PARAMS, Real("log_c0", -3.0, 2.0, closed=(True, True), special=(0.0,))]),
    margin=_thm1_rate_margin, tolerance=0.0, expected="holds",
    notes="Exact LHS on the quadratic family of fedpbc:thm1-explicit; margin −0.49 − slope "
    "with slope the log-log slope of the LHS between 10T′ and 100T′, T′ = max(T, "
    "10⁸/(c₀²h²ms)) so that c₀h√(msT) ≫ 1 (→ −1/2 exactly: LHS ≈ "
    "‖∇F(x̄⁰)‖²/(2hc₀√(msT)) + hc₀σ²√s/(2√(mT))); the quadratic case of the rate (6).",
)  # fmt: skip


def _stepsize_margin(inst: Instance) -> float:
    s = inst["s"]
    L = 10.0 ** inst["log_L"]
    rho = 10.0 ** inst["log_rho"]
    beta2 = (10.0 ** inst["log_beta"]) ** 2
    t1 = _thm1_eta_max(s, L, rho, beta2)
    # Lemma 5's caps at Theorem 1's largest step: all ≥ η_T1 iff η_T1 is admissible for Lemma 5
    caps = [1.0 / (2 * s)]
    if s > 1:
        caps.append(math.sqrt(2.0) / (kappa(s, t1 * L) * s * L))
    last = _one_minus_sqrt(1.0 - rho) / (6 * math.sqrt(2 * rho) * L * s * s)
    margin = (min(*caps, last) - t1) / t1
    if margin == 0.0:  # a shared cap binds both: holds; report the slack of Lemma 5's own cap
        margin = 1e-6 * (last - t1) / t1
    return margin


def _stepsize_exact(inst: Instance) -> ExactMargin:
    import mpmath

    s = inst["s"]
    with mpmath.workdps(24):
        L = mpmath.mpf(10) ** mpmath.mpf(inst["log_L"])
        rho = mpmath.mpf(10) ** mpmath.mpf(inst["log_rho"])
        beta2 = (mpmath.mpf(10) ** mpmath.mpf(inst["log_beta"])) ** 2
        r = mpmath.sqrt(rho)

        def kap(eta: Any) -> Any:
            if s == 1:
                return mpmath.mpf(0)
            x, total = eta * L, mpmath.mpf(0)
            for j in range(s, 1, -1):  # Horner: Σ_{j≥2} C(s,j) x^(j−2)
                total = total * x + math.comb(s, j)
            return total / math.comb(s, 2)

        def l5(eta: Any) -> Any:
            t = [mpmath.mpf(1) / (2 * s), (1 - r) / (6 * mpmath.sqrt(2 * rho) * L * s * s)]
            if s > 1:
                t.append(mpmath.sqrt(2) / (kap(eta) * s * L))
            return min(t)

        def t1(eta: Any) -> Any:
            k = kap(eta)
            C = k * k * L * L + 2 * L * (1 + k * k * L * L / 4)
            qq = s * s * L * L * rho / (1 - r) ** 2
            t = [1 / (24 * (beta2 + 1) * C * (1 + 18 * qq) + 144 * (beta2 + 1) * qq),
                 mpmath.mpf(1) / (2 * s), 1 / (rho * s**3),
                 (1 - r) / (6 * mpmath.sqrt(2) * rho * L * s * s)]  # fmt: skip
            if s > 1:
                t.append(mpmath.sqrt(2) / (k * s * L))
            return min(t)

        def fixed(cap: Callable[[Any], Any]) -> Any:
            lo, hi = mpmath.mpf(0), cap(mpmath.mpf(0))
            if hi <= cap(hi):
                return hi
            for _ in range(75):
                mid = (lo + hi) / 2
                if mid <= cap(mid):
                    lo = mid
                else:
                    hi = mid
            return lo

        a, b = fixed(l5), fixed(t1)
        return _mp_to_fraction((a - b) / a), "mpmath, 24 digits (bisection to 2^-75)"


_register(
    "thm1-stepsize", "§V-B", "Theorem 1's step-size condition vs Lemma 5's", (243, 251),
    "Every η admissible in Theorem 1 satisfies Lemma 5's condition (Theorem 1 uses Lemma 5): "
    "η_max(Thm 1) ≤ η_max(Lemma 5).",
    space=Space([
        Integer("s", 1, 100),
        Real("log_L", -4.0, 4.0, closed=(True, True), special=(0.0,)),
        Real("log_rho", -12.0, 0.0, closed=(True, False), special=(-2.0,)),
        Real("log_beta", -6.0, 1.0, closed=(True, True), special=(-1.0,)),
    ]),
    margin=_stepsize_margin, exact=_stepsize_exact, tolerance=1e-12, expected="refuted",
    notes="Both admissible sets are intervals [0, η_max] (every cap is non-increasing in η "
    "through κ); Theorem 1's η_max by bisection, then the margin is min over Lemma 5's caps "
    "of (cap(η_T1) − η_T1)/η_T1 (≥ 0 iff η_T1 is admissible for Lemma 5; a tie on a shared cap "
    "reports 1e-6 × the slack of Lemma 5's own last cap, to guide the search). The exact "
    "margin compares both η_max at 50 digits. Theorem 1's last cap "
    "(1 − √ρ)/(6√2ρLs²) is larger than Lemma 5's (1 − √ρ)/(6√(2ρ)Ls²) by 1/√ρ, so whenever "
    "Lemma 5's cap binds and Theorem 1's first and 1/(ρs³) caps do not, Theorem 1 admits steps "
    "Lemma 5 does not (small ρ, large s). Inventory instance: s = 27, L = 0.263694, ρ = "
    "0.0038018, β = 0.038707: η_T1 = 0.0096216 > η_L5 = 0.0093298. Probably a typo (√2·ρ for "
    "√(2ρ)).",
)  # fmt: skip


def _remark4_bound_margin(inst: Instance) -> float:
    m = inst["m"]
    c1 = inst["c"]
    c2 = c1 + inst["dc"] * (1.0 - c1)

    def gap(c: float) -> float:
        reach = 1.0 if c == 1.0 else -math.expm1(m * math.log1p(-c))
        return c**4 * reach**2 / 8.0

    return _rel(gap(c2), gap(c1))


def _remark4_bound_exact(inst: Instance) -> ExactMargin:
    m = inst["m"]
    c1 = _fr(inst["c"])
    c2 = c1 + _fr(inst["dc"]) * (1 - c1)

    def gap(c: Fraction) -> Fraction:
        return c**4 * (1 - (1 - c) ** m) ** 2 / 8

    g1, g2 = gap(c1), gap(c2)
    return (g2 - g1) / max(g1, g2), "exact rationals"


_register(
    "remark4-c-bound", "§V-B", "Remark 4(3): a greater c gives a smaller bound on ρ", (261, 261),
    "Lemma 1's bound 1 − c⁴[1 − (1 − c)^m]²/8 is non-increasing in c ∈ (0, 1].",
    space=Space([
        Integer("m", 1, 500),
        Real("c", 0.0, 1.0, closed=(False, True)),
        Real("dc", 0.0, 1.0, closed=(False, True)),
    ]),
    margin=_remark4_bound_margin, exact=_remark4_bound_exact, tolerance=1e-12,
    expected="holds",
    notes="c₂ = c₁ + dc(1 − c₁) > c₁; margin is the relative increase of the guaranteed gap "
    "c⁴[1 − (1 − c)^m]²/8 (both factors increase in c). As a statement about the worst case "
    "max_{p ≥ c}ρ(p) it is trivial (the feasible set shrinks); fedpbc:remark4-c-rho checks ρ "
    "itself.",
)  # fmt: skip


def _remark4_rho_margin(inst: Instance) -> float:
    p = np.asarray(inst["p"])
    q = p.copy()
    i = int(inst["i"]) % p.size
    q[i] = p[i] + inst["dp"] * (1.0 - p[i])
    g_p, g_q = _rho_gap(p), _rho_gap(q)
    # ρ(q) ≤ ρ(p) ⇔ 1 − ρ(q) ≥ 1 − ρ(p); eigvalsh errs by ≈ eps·‖E[I − W²]‖ ≤ 2 eps
    noise = 64 * np.finfo(float).eps
    return (g_q - g_p + noise) / max(g_q, g_p, noise)


def _remark4_rho_exact(inst: Instance) -> ExactMargin:
    import mpmath

    p = _frs(inst["p"])
    q = list(p)
    i = int(inst["i"]) % len(p)
    q[i] = p[i] + _fr(inst["dp"]) * (1 - p[i])
    with mpmath.workdps(50):
        a, b = _rho_gap_mp(q), _rho_gap_mp(p)
        return _mp_to_fraction((a - b) / max(a, b, mpmath.mpf("1e-300"))), "mpmath, 50 digits"


_register(
    "remark4-c-rho", "§V-B", "Remark 4(3), read on ρ itself", (261, 261),
    "Raising a link probability does not increase ρ (ρ(p) is non-increasing in each p_i).",
    space=Space([
        Integer("m", 2, 7),
        Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
        Integer("i", 0, 6),
        Real("dp", 0.0, 1.0, closed=(False, True), special=(1.0,)),
    ]),
    margin=_remark4_rho_margin, exact=_remark4_rho_exact, tolerance=1e-12, expected="holds",
    notes="Our reading of 'a greater c leads to a smaller ρ' for a fixed population: p_i ↦ "
    "p_i + dp(1 − p_i); margin the relative increase of 1 − ρ (enumeration, E[I − W²]).",
)  # fmt: skip


def _remark4_c1_margin(inst: Instance) -> float:
    from fltheory.limits.fedpbc import mixing_expectation

    m = inst["m"]
    M = mixing_expectation(np.ones(m))
    return -float(np.max(np.abs(M - 1.0 / m)))


def _remark4_c1_exact(inst: Instance) -> ExactMargin:
    m = inst["m"]
    if m > 8:
        return Fraction(0), "W = J on the only pattern A = [m] (all p_i = 1)"
    L = _laplacian_exact([Fraction(1)] * m)
    ok = all(L[i][j] == (1 if i == j else 0) - Fraction(1, m) for i in range(m) for j in range(m))
    return (Fraction(0) if ok else Fraction(-1)), "exact rationals"


_register(
    "remark4-c1-fedavg", "§V-B", "Remark 4(3): c = 1 gives FedAvg with full participation",
    (261, 261),
    "With c = 1 (every link always active) W^(t) = J, so FedPBC is FedAvg with full "
    "participation (ρ = 0).",
    space=Space([Integer("m", 1, 300)]),
    margin=_remark4_c1_margin, exact=_remark4_c1_exact, tolerance=1e-12, expected="holds",
    notes="Code path fltheory.limits.fedpbc.mixing_expectation at p = 1: M = J (margin −max "
    "entry error).",
)  # fmt: skip

_register(
    "remark4-rate6", "§V-B", "Remark 4(3): rate (6) for c = 1", (261, 265),
    "With c = 1 the rate becomes O(1/√(msT) + √(ms/T) + ms/T) (6).",
    reason="an O-statement with hidden constants; its explicit c = 1 case is the ρ = 0 "
    "boundary (p ≡ 1) of fedpbc:thm1-explicit / thm1-explicit-c0-1.",
)  # fmt: skip

_register(
    "remark4-speedup", "§V-B", "Remark 4(4): no linear speed-up", (267, 267),
    "For T ≥ c₁m³s³ the first two terms of (6) dominate; linear speed-up is unlikely.",
    reason="an asymptotic opinion about which O-terms dominate, with an unspecified constant "
    "c₁; nothing to evaluate.",
)  # fmt: skip

_register(
    "remark4-structure", "§V-B", "Remark 4(1)-(2): structure of the bound", (259, 260),
    "The terms group into noise, client drift and intermittent participation; x̄^t of FedPBC "
    "converges to a stationary point while FedAvg's may be far from x*.",
    reason="(1) describes the grouping of terms; (2) restates Theorem 1 and Proposition 1, "
    "checked as fedpbc:thm1-rate, fedpbc:fig2-unbiased-xbar and fedpbc:prop1-far.",
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


def _fig2_gamma(inst: Instance) -> float:
    return 1.0 - (1.0 - inst["eta"]) ** inst["s"]


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


_register(
    "fig2-unbiased-ps", "§VI", "Fig. 2a read on the server model x^{t+1}", (273, 278),
    "FedPBC's server model x^{t+1} (the average of the active clients' models) converges in "
    "mean to x* for every choice of link probabilities.",
    space=FIG2_PS_SPACE, margin=_fig2_ps_margin, exact=_fig2_ps_exact, tolerance=1e-10,
    expected="refuted",
    notes="Not the paper's claim (it plots x̄, l.278), but the natural reading of 'x_PS'. The "
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
    K = np.zeros((m, m))
    R = np.zeros((m, m))
    for mask, pr in zip(masks, probs, strict=True):
        W = _w_def(mask)
        S = np.diag(np.where(mask, 1.0 - gamma, 1.0))
        K += pr * S @ W
        R += pr * (np.eye(m) - S) @ W
    # row vector x: x = xK + uR  ⇒  x (I − K) = uR
    A = (np.eye(m) - K).T
    if not np.isfinite(A).all() or np.linalg.cond(A) > 1e10:
        raise NumericalError("I − K is too ill-conditioned (links or steps too small)")
    return np.linalg.solve(A, u @ R)


def _remark1_margin(inst: Instance) -> float:
    p, u = _two_groups(inst)
    gamma = 1.0 - (1.0 - inst["eta"]) ** inst["s"]
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
