"""Claims of the FedPBC paper (seed ``004_7f83552c6af82f79.txt``, ``l.N`` its lines), §IV–V:
the mixing matrix W^(t) (l.155–159), ρ of eq. (3), Lemmas 1–5, Remarks 2 and 3. "c" is used
twice in the paper (the link lower bound, and the constant of Remark 2(d)); here the second is
``c_step``.

>>> from fltheory.claims import CLAIMS
>>> claim = CLAIMS.get("fedpbc:lemma1")
>>> claim.margin({"m": 2, "p": np.array([0.5, 0.5])}) > 0  # ρ well below Lemma 1's bound
True
"""

import functools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin
from fltheory.claims.finding import Hypothesis, Reading
from fltheory.claims.papers.fedpbc._common import (
    _bisect_cap,
    _fr,
    _frs,
    _gap_or_decline,
    _masks,
    _mp_to_fraction,
    _one_minus_sqrt,
    _register,
    _rel,
    _rho_gap,
    _rho_gap_mp,
    _set_probs,
    _set_probs_exact,
    _w_def,
    _w_exact,
    _w_stack,
    kappa,
    kappa_printed,
)
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError

PAPER = "fedpbc"

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
    reading=Reading(
        quote="Lemma 1 (Ergodicity). Recall that p_i^t ≥ c for some constant c ∈ (0, 1). For "
        "each t ≥ 1, it holds that ρ ≤ 1 − c⁴[1 − (1 − c)^m]²/8.",
        hypotheses=(
            Hypothesis("independent links with p_i^t ≥ c ∈ (0, 1)", "p_i ∈ (0, 1], c = min_i "
                       "p_i (a time-varying p^t reduces to its worst round), m ∈ [2, 60]"),
        ),
        interpretation="As printed, with ρ = λ₂(E[W²]) of eq. (3).",
    ),
    notes="Margin (1 − ρ)/(1 − bound) − 1, with 1 − ρ = ν₂(E[I − W²]) by enumeration for "
    "m ≤ 10 (accurate for tiny c), and 1 − mixing_rho(p) (the code path) for m > 10, declined "
    "when 1 − bound < 1e-10. c = min p_i (time-varying p^t reduce to the worst round). Very "
    "loose: the ratio (1 − ρ)/(1 − bound) stays ≥ 8.",
)  # fmt: skip


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
    reading=Reading(
        quote="Lemma 2. For any matrix B ∈ ℝ^{d×m}, it holds that E[‖B(Π_{r=1}^t W^(r) − "
        "J)‖²_F] ≤ ρ^t‖B‖²_F.",
        hypotheses=(
            Hypothesis("links independent across rounds, possibly time-varying p^t, ρ = "
                       "max_t ρ(t)", "two alternating link-probability vectors, m ≤ 6, t ≤ 12, "
                       "d = 2"),
        ),
        interpretation="As printed.",
    ),
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
    reading=Reading(
        quote="Lemma 3 (Lemma 1 in [18]). For s ≥ 1, we have for all x ∈ ℝ^d: "
        "‖Σ_{k<s}[∇ℓ_i(x^{(t,k)}) − ∇ℓ_i(x^t)]‖₂ ≤ κηC(s,2)L_i‖∇ℓ_i(x^t)‖₂.",
        hypotheses=(
            Hypothesis("ℓ_i with L_i-Lipschitz gradient (Assumption 1), local GD on one "
                       "sample", "quadratic ℓ_i with Hessian eigenvalues in [−L_i, L_i] "
                       "(non-convex allowed), d ≤ 2, ηL_i ≤ 20, s ≤ 40"),
        ),
        interpretation="As printed, with κ := κ_i (the strongest form); quadratics are the "
        "extremal case of the smoothness bound.",
    ),
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
    reading=Reading(
        quote="Lemma 4 (Descent Lemma). Suppose Assumptions 1, 2, and 4 hold, under a choice "
        "of the learning rate η ≤ 1/(2s), … E[F(x̄^{t+1}) − F(x̄^t) | F^t] ≤ σ²η²s²[κ²L² + "
        "2L(1/m + κ²L²/4)] + 3ζ²η²s²𝔆 − {sη/4 − 3η²s²(β² + 1)𝔆}‖∇F(x̄^t)‖² + {ηsL² + "
        "3η²s²L²𝔆}(1/m)Σ_i‖x_i^t − x̄^t‖².",
        hypotheses=(
            Hypothesis("Assumptions 1, 2, 4; η ≤ 1/(2s)", "d = 1 quadratics with "
                       "heterogeneous, possibly negative curvatures, noise of variance σ² "
                       "fixed over the s local steps, the smallest ζ² for each β, η = θ/(2s)"),
        ),
        interpretation="As printed, for any client models x_i^t (one step, conditional on "
        "F^t).",
    ),
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
    reading=Reading(
        quote="Lemma 5 (Consensus Error). Suppose the conditions in Lemma 4 are met, under a "
        "choice of the learning rate η ≤ min{1/(2s), √2/(κsL), (1 − √ρ)/(6√(2ρ)Ls²)}: "
        "(1/(mT))Σ_t E‖X^(t)(I − J)‖²_F ≤ 6η²s²[2ρ/(1 − √ρ)² + ρ/(1 − ρ)]σ² + "
        "72η²s⁴ρζ²/(1 − √ρ)² + 72(β² + 1)η²s⁴ρ/(1 − √ρ)²·(1/T)Σ_tE‖∇F(x̄^t)‖².",
        hypotheses=(
            Hypothesis("Lemma 4's conditions and the step-size cap", "isotropic d = 1 "
                       "quadratics (one curvature h, β = 0), common start, η = θ·η_max"),
            Hypothesis("static links", "p_i ∈ (0, 1], m ≤ 5, T ≤ 30"),
        ),
        interpretation="As printed. Narrower than the paper (one curvature, short horizon): "
        "both sides are exact moments over the 2^m link patterns, tracked round by round; "
        "heterogeneous curvatures would couple the consensus error with x̄ and need the joint "
        "second moments, which the same recursion could carry at m² cost per pattern (not "
        "done: the bound is loose by orders of magnitude on every instance seen).",
    ),
    notes="Isotropic d = 1 quadratics ℓ_i = (h/2)(x − u_i)² + ξx (L = h, β = 0, ζ² = "
    "h²·mean(u_i − ū)², E ξ² = σ²), common start x⁰, fixed p (ρ from E[I − W²]); η = θ·η_max "
    "with η_max the largest admissible step (bisection: κ depends on η). LHS and the RHS's "
    "E‖∇F(x̄^t)‖² are exact by the first/second-moment recursion of X over the 2^m link "
    "patterns, tracked for the deviation X(I − J) itself (exactly 0 at t = 0 and when every "
    "link is up). Relative margin. No exact margin (ρ is an eigenvalue; the float margin keeps a "
    "slack of orders of magnitude: the bound is very loose).",
)  # fmt: skip
