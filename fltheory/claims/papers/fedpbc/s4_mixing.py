"""§IV — the mixing matrix and ergodicity of the FedPBC paper (seed ``004_7f83552c6af82f79.txt``,
``l.N`` its lines): W^(t) (l.155–159), ρ of eq. (3) (l.161–163), Lemma 1 (l.165) and Lemma 2
(l.169–173).

>>> from fltheory.claims import CLAIMS
>>> claim = CLAIMS.get("fedpbc:lemma1")
>>> claim.margin({"m": 2, "p": np.array([0.5, 0.5])}) > 0  # ρ well below Lemma 1's bound
True
"""

import functools
import math
from fractions import Fraction

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.exact import fr, frs, mp_to_fraction
from fltheory.claims.finding import Hypothesis, Reading
from fltheory.claims.papers.fedpbc._common import (
    link_masks,
    rel,
    rho_gap,
    rho_gap_mp,
    set_probs,
    set_probs_exact,
    w_def,
    w_exact,
    w_stack,
)
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.errors import NumericalError


def _active_of(inst: Instance) -> np.ndarray:
    m = inst["m"]
    return np.array([(int(inst["mask"]) >> i) & 1 for i in range(m)], dtype=bool)


def _mixing_w_margin(inst: Instance) -> float:
    from fltheory.testing.limits import mixing_matrix

    active = _active_of(inst)
    m = active.size
    code = mixing_matrix(active)
    err = float(np.max(np.abs(code - w_def(active))))
    members = tuple(i for i in range(m) if active[i])
    W = (
        w_exact(m, members)
        if members
        else [[Fraction(int(i == j)) for j in range(m)] for i in range(m)]
    )
    ok = all(W[i][j] == W[j][i] for i in range(m) for j in range(m))
    ok &= all(sum(row, Fraction(0)) == 1 for row in W)
    ok &= all(sum((W[i][j] for i in range(m)), Fraction(0)) == 1 for j in range(m))
    W2 = [
        [sum((W[i][k] * W[k][j] for k in range(m)), Fraction(0)) for j in range(m)]
        for i in range(m)
    ]
    ok &= W2 == W
    if len(members) <= 1:
        ok &= all(W[i][j] == (1 if i == j else 0) for i in range(m) for j in range(m))
    return -err if ok else -1.0


register_claim(
    "fedpbc:mixing-w",
    "§IV",
    "mixing matrix W^(t)",
    (155, 159),
    "W^(t) (1/|A| on A×A, 1 on the diagonal off A, 0 elsewhere) is symmetric, doubly "
    "stochastic and idempotent, and W = I when |A| ≤ 1.",
    space=Space([Integer("m", 1, 12), Integer("mask", 0, 2**12 - 1)]),
    margin=_mixing_w_margin,
    tolerance=1e-15,
    budget=1000,
    expected="holds",
    notes="The properties are checked in exact rationals on the definition (l.157); the code "
    "path fltheory.testing.limits.mixing_matrix is compared with the definition (max entry "
    "error). Idempotence gives M^(t) = E[(W^(t))²] = E[W^(t)]. Margin −1 if a property fails. "
    "Budget 1000 (exact m = 12 checks cost ≈ 5 ms).",
)


@functools.lru_cache(maxsize=16)
def _w_squared_stack(m: int) -> np.ndarray:
    W = w_stack(m)
    return np.einsum("aij,ajk->aik", W, W)


def _rho_oracle(p: np.ndarray) -> float:
    """λ₂(E[W²]) with W² multiplied out per pattern (float enumeration)."""
    m = p.size
    if m == 1:
        return 0.0
    M = np.einsum("a,aij->ij", set_probs(p, link_masks(m)), _w_squared_stack(m))
    return float(np.linalg.eigvalsh(M)[-2])


def _eq3_margin(inst: Instance) -> float:
    from fltheory.limits.fedpbc import mixing_rho

    p = np.asarray(inst["p"])
    return -abs(mixing_rho(p) - _rho_oracle(p))


def _eq3_exact(inst: Instance) -> ExactMargin:
    import mpmath

    from fltheory.limits.fedpbc import mixing_rho

    p = frs(inst["p"])
    gap = rho_gap_mp(p)
    with mpmath.workdps(50):
        err = abs(mpmath.mpf(mixing_rho(np.asarray(inst["p"]))) - (1 - gap))
        return mp_to_fraction(mpmath.mpf("1e-10") - err), "mpmath, 50 digits"


register_claim(
    "fedpbc:eq3-rho",
    "§IV",
    "eq. (3): ρ(t) = λ₂(E[(W^(t))²])",
    (161, 163),
    "ρ = λ₂(M), M = E[(W^(t))²]; the code's ρ (fltheory.limits.fedpbc.mixing_rho) is this "
    "second eigenvalue.",
    space=Space(
        [
            Integer("m", 1, 8),
            Real("p", 0.0, 1.0, size="m", closed=(True, True), special=(0.0, 1.0, 0.5)),
        ]
    ),
    margin=_eq3_margin,
    exact=_eq3_exact,
    tolerance=1e-10,
    expected="holds",
    notes="A definition; checked: the code's ρ equals λ₂ of E[W²] built by enumeration with "
    "W² multiplied out (not using idempotence). Absolute tolerance 1e-10. m = 1: λ₂ is "
    "undefined; the code returns 0 (a convention). Zero link probabilities (outside the "
    "paper's c > 0) are included: ρ = 1 then.",
)


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
        gap = rho_gap(p, resolved=True)
    else:
        from fltheory.limits.fedpbc import mixing_rho

        gap = 1.0 - mixing_rho(p)
        if guaranteed < 1e-10:
            raise NumericalError("1 − ρ from the code's float ρ cannot resolve a gap < 1e-10")
    return gap / guaranteed - 1.0


def _lemma1_exact(inst: Instance) -> ExactMargin:
    import mpmath

    p = frs(inst["p"])
    if len(p) > 8:
        return fr(_lemma1_margin(inst)), "float64 only (no exact method beyond m = 8)"
    with mpmath.workdps(50):
        gap = rho_gap_mp(p)
        c = mpmath.mpf(min(p).numerator) / min(p).denominator
        bound_gap = c**4 * (1 - (1 - c) ** len(p)) ** 2 / 8
        return mp_to_fraction(gap / bound_gap - 1), "mpmath, 50 digits (exact E[I − W²])"


register_claim(
    "fedpbc:lemma1",
    "§IV",
    "Lemma 1 (ergodicity)",
    (165, 165),
    "If p_i ≥ c ∈ (0, 1) for all i, then ρ ≤ 1 − c⁴[1 − (1 − c)^m]²/8.",
    space=Space(
        [
            Integer("m", 2, 60),
            Real("p", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
        ]
    ),
    margin=_lemma1_margin,
    exact=_lemma1_exact,
    tolerance=1e-9,
    budget=2000,
    expected="holds",
    reading=Reading(
        quote="Lemma 1 (Ergodicity). Recall that p_i^t ≥ c for some constant c ∈ (0, 1). For "
        "each t ≥ 1, it holds that ρ ≤ 1 − c⁴[1 − (1 − c)^m]²/8.",
        hypotheses=(
            Hypothesis(
                "independent links with p_i^t ≥ c ∈ (0, 1)",
                "p_i ∈ (0, 1], c = min_i "
                "p_i (a time-varying p^t reduces to its worst round), m ∈ [2, 60]",
            ),
        ),
        interpretation="As printed, with ρ = λ₂(E[W²]) of eq. (3).",
    ),
    notes="Margin (1 − ρ)/(1 − bound) − 1, with 1 − ρ = ν₂(E[I − W²]) by enumeration for "
    "m ≤ 10 (accurate for tiny c), and 1 − mixing_rho(p) (the code path) for m > 10, declined "
    "when 1 − bound < 1e-10. c = min p_i (time-varying p^t reduce to the worst round). Very "
    "loose: the ratio (1 − ρ)/(1 − bound) stays ≥ 8.",
)


def _lemma2_lhs(ps: list[np.ndarray], B: np.ndarray, t: int) -> float:
    """E‖B(W^(1)⋯W^(t) − J)‖²_F for independent rounds (round r uses ps[r mod len]):
    W₁⋯W_t − J = (W₁ − J)⋯(W_t − J), so with S_r = E[(W − J)S_{r+1}(W − J)], S = I,
    LHS = tr(B S Bᵀ), the expectation taken from the last round inwards."""
    m = B.shape[1]
    D = w_stack(m) - 1.0 / m
    masks = link_masks(m)
    S = np.eye(m)
    for r in reversed(range(t)):
        probs = set_probs(ps[r % len(ps)], masks)
        S = np.einsum("a,aij,jk,alk->il", probs, D, S, D)
    return float(np.trace(B @ S @ B.T))


def _lemma2_margin(inst: Instance) -> float:
    ps = [np.asarray(inst["p_odd"]), np.asarray(inst["p_even"])]
    B = np.vstack([inst["b1"], inst["b2"]])
    t = inst["t"]
    rho = max(1.0 - rho_gap(ps[0]), 1.0 - rho_gap(ps[1]))
    rhs = rho**t * float(np.sum(B**2))
    lhs = _lemma2_lhs(ps, B, t)
    if rhs == 0.0 and lhs <= 1e-300:
        return 0.0
    return rel(rhs, lhs)


def _lemma2_exact(inst: Instance) -> ExactMargin:
    import mpmath

    ps = [frs(inst["p_odd"]), frs(inst["p_even"])]
    B = [frs(inst["b1"]), frs(inst["b2"])]
    t, m = inst["t"], len(ps[0])
    J = Fraction(1, m)
    sets = [
        [(w_exact(m, mem) if mem else w_exact(m, ()), pr) for mem, pr in set_probs_exact(p)]
        for p in ps
    ]
    S = [[Fraction(int(i == j)) for j in range(m)] for i in range(m)]
    for r in reversed(range(t)):
        new = [[Fraction(0)] * m for _ in range(m)]
        for W, pr in sets[r % 2]:
            D = [[W[i][j] - J for j in range(m)] for i in range(m)]
            DS = [
                [sum((D[i][k] * S[k][j] for k in range(m)), Fraction(0)) for j in range(m)]
                for i in range(m)
            ]
            for i in range(m):
                for j in range(m):
                    new[i][j] += pr * sum((DS[i][k] * D[k][j] for k in range(m)), Fraction(0))
        S = new
    lhs = sum(
        (B[a][i] * S[i][j] * B[a][j] for a in range(2) for i in range(m) for j in range(m)),
        Fraction(0),
    )
    with mpmath.workdps(50):
        rho = max(1 - rho_gap_mp(ps[0]), 1 - rho_gap_mp(ps[1]))
        norm = sum((v * v for row in B for v in row), Fraction(0))
        rhs = rho**t * mpmath.mpf(norm.numerator) / norm.denominator
        lhs_mp = mpmath.mpf(lhs.numerator) / lhs.denominator
        return mp_to_fraction(rhs - lhs_mp), "exact rationals (LHS), mpmath 50 digits (ρ^t)"


register_claim(
    "fedpbc:lemma2",
    "§IV",
    "Lemma 2",
    (169, 173),
    "For any B ∈ ℝ^{d×m}: E‖B(Π_{r=1}^t W^(r) − J)‖²_F ≤ ρ^t‖B‖²_F (independent links, "
    "p^t possibly time-varying, ρ = max_t ρ(t)).",
    space=Space(
        [
            Integer("m", 1, 6),
            Real("p_odd", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
            Real("p_even", 0.0, 1.0, size="m", closed=(False, True), special=(1.0, 0.5)),
            Real("b1", -1.0, 1.0, size="m", special=(0.0, 1.0)),
            Real("b2", -1.0, 1.0, size="m", special=(0.0, 1.0)),
            Integer("t", 1, 12),
        ]
    ),
    margin=_lemma2_margin,
    exact=_lemma2_exact,
    tolerance=1e-12,
    budget=2000,
    expected="holds",
    reading=Reading(
        quote="Lemma 2. For any matrix B ∈ ℝ^{d×m}, it holds that E[‖B(Π_{r=1}^t W^(r) − "
        "J)‖²_F] ≤ ρ^t‖B‖²_F.",
        hypotheses=(
            Hypothesis(
                "links independent across rounds, possibly time-varying p^t, ρ = max_t ρ(t)",
                "two alternating link-probability vectors, m ≤ 6, t ≤ 12, d = 2",
            ),
        ),
        interpretation="As printed.",
    ),
    notes="Time variation: odd rounds use p_odd, even rounds p_even. LHS exact by the "
    "second-moment recursion over the 2^m link patterns (W₁⋯W_t − J = Π(W_r − J)), d = 2; "
    "ρ = max of the two rounds' ρ, 1 − ρ from E[I − W²]. Relative margin. Proof: for t = 1 "
    "tr(B(M − J)Bᵀ) ≤ λ_max(M − J)‖B‖² = ρ‖B‖², then induction by independence.",
)
