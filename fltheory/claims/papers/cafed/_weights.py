"""CA-Fed (ToN) weight claims, shared arithmetic (registers nothing): χ²(α‖p(q)) of eq. (11)
with p of eq. (4), problem (212) of App. E (eqs. 207–214) and its optimum, the convexity
oracles of App. D / E1, and the KKT material of eq. (224) used by App. E2, E3 and §III-D.

Paper ``cafed``: 002_2f28135276b05638.txt (HAL copy with appendices); ``-main`` readings come
from the journal main text 000_da5b2ff170c4cf9d.txt. Notation as in :mod:`fltheory.optimize`:
problem (212) is min J(q) = (½qᵀdiag(s)q + v)/πᵀq over q ≥ 0, ‖q‖₁ = Q (s = diag A of eq. 209,
v = B of eq. 210; the constant C of eq. 211 is dropped).

Oracles, independent of the code under test:

* exact rationals (:class:`fractions.Fraction`) for every convexity gap, divergence and
  identity, with the instance's floats converted exactly (vectors on a simplex or slice are
  renormalised exactly, so the exact point lies on it);
* for the optimum of (212): the code's closed form (``problem212.closed_form_q``) is accepted
  only with an independent certificate, its Frank–Wolfe gap ∇J(q)ᵀq − Q·min_k ∂_kJ(q) ≥
  J(q) − J* (J is convex on the slice, claim ``cafed:appe1-convex``), relative to the largest
  gradient term, below :data:`CERT_TOL`; otherwise :class:`DefectError` is raised (verdict
  "error"). Exact re-verification uses a brute force over every support X (2^N − 1 faces,
  50-digit mpmath): on a face the stationarity conditions give q_k = (ι(π_k − π̄) + Q/S₀)/s_k
  with ι the positive root of ½Vι² + Qπ̄ι − (Q²/(2S₀) + v) = 0 and J = ι there; the optimum is
  the candidate with all q_k > 0 on X and the least ι. It does not assume that the support is
  a set of most available clients.

Standalone verifications of the errata: :mod:`._weights_verify`.

>>> q = opt212(np.array([1.0, 0.5]), np.array([1.0, 1.0]), 1.0, 1.0)
>>> bool(abs(q.sum() - 1.0) < 1e-12 and q[0] >= q[1])
True
"""

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.explain import Quantity, Step, dec
from fltheory.claims.finding import Hypothesis
from fltheory.claims.space import Instance, Integer, Real, Space
from fltheory.divergence import biased_importance, chi_square
from fltheory.errors import NumericalError

#: Relative Frank–Wolfe gap above which the code's (212) optimum is a defect.
CERT_TOL = 1e-10
#: Decimal digits of the mpmath re-verifications.
MP_DIGITS = 50

TINY = np.finfo(float).tiny


class DefectError(AssertionError):
    """The code under test disagrees with an independent oracle (a defect, not a verdict)."""


# --- helpers ----------------------------------------------------------------------------------


def as_floats(value: Any) -> np.ndarray:
    return np.atleast_1d(np.asarray(value, dtype=float))


def pis(inst: Instance, key: str = "pi") -> np.ndarray:
    """Availabilities of an instance; subnormal entries (hypothesis draws 5e-324) are declined:
    α/π and π⊙q leave double precision there."""
    pi = as_floats(inst[key])
    if np.any((pi > 0.0) & (pi < TINY)):
        raise NumericalError("subnormal availabilities are beyond double precision")
    return pi


def unit_sum(value: Any) -> np.ndarray:
    """A vector renormalised to sum 1 (simplex parameters, after JSON or shrinking)."""
    arr = as_floats(value)
    return arr / arr.sum()


def dec_list(value: Any) -> list[Any]:
    """The entries as the exact decimals a reader sees (:func:`~fltheory.claims.explain.dec`):
    exact margins, explanations and the errata scripts evaluate the same rational instance."""
    return [dec(x) for x in as_floats(value)]


def fr_unit(value: Any) -> list[Any]:
    """Exact renormalisation: the exact point lies on the simplex. Entries are read to 15
    significant digits first, so that a float renormalisation's residue (0.30000000000000004)
    does not reach the reader."""
    vec = [dec(float(f"{x:.15g}")) for x in as_floats(value)]
    total = sum(vec)
    return [x / total for x in vec]


def rel(a: float, b: float) -> float:
    """(a − b)/max(|a|, |b|, tiny): the relative gap used by most margins."""
    return (a - b) / max(abs(a), abs(b), TINY)


def frel(a: Fraction, b: Fraction) -> Any:
    scale = max(abs(a), abs(b))
    return (a - b) / scale if scale else Fraction(0)


def require_finite(*values: float) -> None:
    if not all(math.isfinite(v) for v in values):
        raise NumericalError("a term overflows double precision at this instance")


# χ² and the objectives: floats through the code under test, Fractions by hand.


def chi2(alpha: np.ndarray, pi: np.ndarray, q: np.ndarray) -> float:
    """χ²(α‖p(q)) through the library (eq. 11 with eq. 4); declined where some π_kq_k is
    subnormal (p_k and α_k²/p_k then carry relative errors far above 1e-16)."""
    normal_products(pi, q)
    return chi_square(alpha, biased_importance(q, pi))


def normal_products(pi: np.ndarray, q: np.ndarray) -> None:
    prod = pi * q
    if np.any((prod > 0.0) & (prod < TINY)):
        raise NumericalError("some π_k·q_k is subnormal: beyond double precision")


def chi2_fr(alpha: Sequence[Fraction], pi: Sequence[Fraction], q: Sequence[Fraction]) -> Any:
    d = sum(a * b for a, b in zip(pi, q, strict=True))
    total = Fraction(0)
    for a, w in zip(alpha, (a * b / d for a, b in zip(pi, q, strict=True)), strict=True):
        if w == 0:
            if a != 0:
                raise NumericalError("χ² is infinite at this point")
            continue
        total += (a - w) ** 2 / w
    return total


def opt_fraction_code(q: np.ndarray, pi: np.ndarray, s: np.ndarray, v: float) -> float:
    from fltheory.optimize.objective import opt_fraction

    return opt_fraction(q, pi, s, v)


def opt_fr(
    q: Sequence[Fraction], pi: Sequence[Fraction], s: Sequence[Fraction], v: Fraction
) -> Any:
    num = Fraction(1, 2) * sum(a * b * b for a, b in zip(s, q, strict=True)) + v
    return num / sum(a * b for a, b in zip(pi, q, strict=True))


def mix(zeta: Any, x: Sequence[Any], y: Sequence[Any]) -> list[Any]:
    return [zeta * a + (1 - zeta) * b for a, b in zip(x, y, strict=True)]


def decimal_moves(
    keys: Sequence[str], simplex: Sequence[str] = ()
) -> Callable[[Instance], list[Instance]]:
    """Shrinking moves: one vector at a time (then all) rounded to 1–3 decimals with entries
    floored at 10^-decimals, simplex vectors renormalised, and ζ = ½ (towards a hand-checkable
    counterexample; the generic moves keep entries such as 2e-114)."""

    def moves(inst: Instance) -> list[Instance]:
        out: list[Instance] = [{**inst, "zeta": 0.5}] if "zeta" in inst else []
        for digits in (1, 2, 3):
            both = dict(inst)
            for key in keys:
                vec = np.maximum(np.round(as_floats(inst[key]), digits), 10.0**-digits)
                if key in simplex:
                    vec = vec / vec.sum()
                out.append({**inst, key: vec})
                both[key] = vec
            out.append(both)
        return out

    return moves


# --- instance spaces --------------------------------------------------------------------------


def pi_param(size: str = "n") -> Real:
    """Availabilities in (0, 1], to within 1e-12 of both ends."""
    return Real("pi", 0.0, 1.0, size=size, closed=(False, True), special=(1.0, 0.5, 0.1))


LOG_V = Real("log_v", -6.0, 6.0, closed=(True, True), special=(0.0,))
LOG_Q = Real("log_Q", -3.0, 3.0, closed=(True, True), special=(0.0,))
ZETA = Real("zeta", 0.0, 1.0, closed=(True, True), special=(0.5,))


def _s_params(kind: str) -> list[Any]:
    """diag(A) = s of eq. 209: 'log' (independent, 1e-6…1e6), 'zeros' (the same, some exact 0),
    'equal' (one common value), 'paper' (equal σ_k: s ∝ π, eq. 209)."""
    if kind in ("log", "zeros"):
        out: list[Any] = [Real("log_s", -6.0, 6.0, size="n", closed=(True, True), special=(0.0,))]
        if kind == "zeros":
            out.append(Real("zero", 0.0, 1.0, size="n", closed=(True, True), special=(0.0,)))
        return out
    return [Real("log_c", -6.0, 6.0, closed=(True, True), special=(0.0,))]


def s_of(inst: Instance) -> np.ndarray:
    pi = pis(inst)
    if "log_s" in inst:
        s = 10.0 ** as_floats(inst["log_s"])
        if "zero" in inst:
            s = np.where(as_floats(inst["zero"]) == 0.0, 0.0, s)
        return s
    c = 10.0 ** float(inst["log_c"])
    return c * pi if inst.get("paper_a") else np.full(pi.size, c)


def problem_floats(inst: Instance) -> tuple[np.ndarray, np.ndarray, float, float]:
    """(π, s, v, Q) of problem (212) at an instance."""
    return pis(inst), s_of(inst), 10.0 ** float(inst["log_v"]), 10.0 ** float(inst["log_Q"])


def problem_exact(inst: Instance) -> tuple[list[Any], list[Any], Fraction, Fraction]:
    """(π, diag A, B, Q) of problem (212) as the exact decimals a reader sees."""
    pi = dec_list(inst["pi"])
    if "log_s" in inst:
        zero = as_floats(inst["zero"]) if "zero" in inst else np.ones(len(pi))
        s = [
            Fraction(0) if z == 0.0 else dec(10.0**x)
            for x, z in zip(as_floats(inst["log_s"]), zero, strict=True)
        ]
    else:
        c = dec(10.0 ** float(inst["log_c"]))
        s = [c * p for p in pi] if inst.get("paper_a") else [c] * len(pi)
    return pi, s, dec(10.0 ** float(inst["log_v"])), dec(10.0 ** float(inst["log_Q"]))


def opt212_explained(
    pi: list[Any], s: list[Any], v: Fraction, Q: Fraction
) -> tuple[list[Any], Any, Any, tuple[Step, ...]]:
    """(q*, ι*, θ*, steps): the optimum of (212) by the 50-digit brute force over the supports,
    and the multipliers of eq. (224) recovered from it."""
    import mpmath as mp

    with mp.workdps(MP_DIGITS):
        _, q = brute212_mp(pi, s, v, Q)
        quad = mp.fsum(to_mpf(a) * b * b for a, b in zip(s, q, strict=True)) / 2
        iota = (quad + to_mpf(v)) / mp.fsum(to_mpf(a) * b for a, b in zip(pi, q, strict=True))
        theta = (to_mpf(v) - quad) / to_mpf(Q)
    support = tuple(k + 1 for k in range(len(q)) if q[k] > 0)
    return (
        q,
        iota,
        theta,
        (
            Step("q*", "the optimum of (212) (50-digit enumeration of the supports)", tuple(q)),
            Step("support", "clients with q_k* > 0", support),
            Step("ι*", "(½q*ᵀAq* + B)/πᵀq* (= J* − C)", iota),
            Step("θ*", "(B − ½q*ᵀAq*)/Q (from ∂L/∂s = 0)", theta),
        ),
    )


def quantities212(pi: list[Any], s: list[Any], v: Fraction, Q: Fraction) -> tuple[Quantity, ...]:
    return (
        Quantity("π", "availability of each client", tuple(pi)),
        Quantity("A_kk", "A = Σ = diag(2(E+1)π_kσ_k²Σ_tη_t²) (eq. 209)", tuple(s)),
        Quantity("B", "B = υ (eq. 210)", v),
        Quantity("Q", "‖q‖₁", Q),
        Quantity("J", "objective of (212)", "", "J(q) = (½qᵀAq + B)/πᵀq + C, q ≥ 0, ‖q‖₁ = Q"),
    )


def space212(
    kind: str,
    *extra: Any,
    n_max: int = 10,
    paper_a: bool = False,
    n_min: int = 1,
    where: Callable[[Instance], bool] | None = None,
) -> Space:
    params = [Integer("n", n_min, n_max), pi_param(), *_s_params(kind), LOG_V, LOG_Q, *extra]
    if paper_a:
        params.append(Integer("paper_a", 1, 1))
    return Space(params, where=where)


# --- problem (212): the code's optimum, certified, and an exact brute force --------------------


def _fw_gap(q: np.ndarray, pi: np.ndarray, s: np.ndarray, v: float, Q: float) -> float:
    """Frank–Wolfe gap of J at q over the slice, relative to the largest gradient term."""
    d = float(pi @ q)
    num = 0.5 * float(s @ (q * q)) + v
    first, second = s * q / d, (num / d**2) * pi
    grad = first - second
    scale = max(float(first.max()), float(second.max()), TINY)
    return (float(grad @ q) - Q * float(grad.min())) / (Q * scale)


def opt212(pi: np.ndarray, s: np.ndarray, v: float, Q: float) -> np.ndarray:
    """q* of problem (212) from the code's closed form, certified by its Frank–Wolfe gap."""
    from fltheory.optimize.problem212 import closed_form_q

    with np.errstate(all="ignore"):
        q, _ = closed_form_q(pi, s, v, Q)
        q = q * (Q / q.sum())
        gap = _fw_gap(q, pi, s, v, Q)
    if not (np.all(np.isfinite(q)) and float(pi @ q) > TINY and math.isfinite(gap)):
        # what solve_closed_form declines too (NumericalError from finalize)
        raise NumericalError("problem (212) at this instance is beyond double precision")
    if not gap <= CERT_TOL:
        raise DefectError(
            f"problem212.closed_form_q is not optimal: relative Frank–Wolfe gap {gap:.3g}"
        )
    return q


def to_mpf(x: Any) -> Any:
    """A float, int or Fraction as an mpmath number (Fractions exactly, at the working
    precision)."""
    import mpmath as mp

    if isinstance(x, Fraction):
        return mp.mpf(x.numerator) / x.denominator
    return mp.mpf(float(x))


def brute212_mp(pi: Any, s: Any, v: Any, Q: Any) -> tuple[Any, list[Any]]:
    """(J* − C, q*) of problem (212) for s > 0 by enumerating every support, in mpmath (floats
    or Fractions in)."""
    import mpmath as mp

    with mp.workdps(MP_DIGITS):
        P = [to_mpf(x) for x in np.atleast_1d(np.asarray(pi, dtype=object))]
        S = [to_mpf(x) for x in np.atleast_1d(np.asarray(s, dtype=object))]
        V, QQ = to_mpf(v), to_mpf(Q)
        n = len(P)
        best: tuple[Any, list[Any]] | None = None
        for r in range(1, n + 1):
            for face in itertools.combinations(range(n), r):
                s0 = mp.fsum(1 / S[k] for k in face)
                pbar = mp.fsum(P[k] / S[k] for k in face) / s0
                spread = mp.fsum(
                    (P[i] - P[j]) ** 2 / (S[i] * S[j]) for i, j in itertools.combinations(face, 2)
                )
                var = spread / s0
                c = QQ**2 / (2 * s0) + V
                iota = 2 * c / (QQ * pbar + mp.sqrt((QQ * pbar) ** 2 + 2 * var * c))
                q = [mp.mpf(0)] * n
                for k in face:
                    q[k] = (iota * (P[k] - pbar) + QQ / s0) / S[k]
                if all(q[k] > 0 for k in face) and (best is None or iota < best[0]):
                    best = (iota, q)
        assert best is not None
        return best


def multipliers212(
    q: np.ndarray, pi: np.ndarray, s: np.ndarray, v: float, Q: float
) -> tuple[float, float]:
    """(ι*, θ*) of eq. 224 at q: ι = (½qᵀAq + B)/πᵀq (from ∂L/∂s = 0 and Σ_k y_k·(223)) and
    θ = (B − ½qᵀAq)/Q (from ∂L/∂s = 0)."""
    quad = 0.5 * float(s @ (q * q))
    return (quad + v) / float(pi @ q), (v - quad) / Q


# --- convexity of χ² and J on the slice (App. D, App. E1, problem 14) -----------------------------
PROP1_HYPOTHESES = (
    Hypothesis("p = π⊙q/πᵀq with availabilities π_k ∈ (0, 1] (eqs. 4, 191)", "π ∈ (0, 1]^N"),
    Hypothesis("α, the target importance, is a probability vector", "α on the simplex, α_k > 0"),
)


def _slice_gap(
    f: Callable[[np.ndarray], float], inst: Instance, Q: float = 1.0, floor: float = 0.0
) -> float:
    """Relative midpoint gap of f between Q·w1 and Q·w2 (both on ‖q‖₁ = Q); ``floor`` is the
    least size of f's terms (χ² = Σα²/p − 1 sums terms ≥ 1 to a value that can be ~0)."""
    zeta = float(inst["zeta"])
    q1, q2 = Q * unit_sum(inst["w1"]), Q * unit_sum(inst["w2"])
    mid = zeta * q1 + (1.0 - zeta) * q2
    chord = zeta * f(q1) + (1.0 - zeta) * f(q2)
    value = f(mid)
    require_finite(chord, value)
    return (chord - value) / max(abs(chord), abs(value), floor, TINY)


Hessian = tuple[np.ndarray, np.ndarray, np.ndarray]


def _tangent_curvature(hess: Hessian) -> tuple[float, np.ndarray | None]:
    """(λ_min/scale, its direction d) of the Hessian diag + UCUᵀ restricted to the slice's
    tangent space {d : 1ᵀd = 0}; scale = max|diag| + max(|U||C||U|ᵀ), the size of the terms
    (not max|λ|: the restricted Hessian can vanish, e.g. J = v/πᵀq with π ∝ 1). Its sign is
    that of the least curvature along the slice: a convex function on the (open) slice has
    λ_min ≥ 0 everywhere."""
    diag, U, C = hess
    n = diag.size
    if n < 2:
        return 1.0, None  # the slice is a point
    H = np.diag(diag) + U @ C @ U.T
    if not np.all(np.isfinite(H)):
        raise NumericalError("the Hessian overflows double precision at this point")
    basis = np.linalg.qr(np.column_stack([np.ones(n), np.eye(n)[:, :-1]]))[0][:, 1:]
    lam, vec = np.linalg.eigh(basis.T @ (0.5 * (H + H.T)) @ basis)
    scale = float(np.abs(diag).max()) + float((np.abs(U) @ np.abs(C) @ np.abs(U).T).max())
    return float(lam[0] / max(scale, TINY)), basis @ vec[:, 0]


def _short(x: Fraction) -> Fraction:
    """The largest decimal with one significant digit that is ≤ x (x > 0): 0.0374 → 0.03."""
    exponent = math.floor(math.log10(float(x)))
    unit = Fraction(10) ** exponent
    while unit > x:
        unit /= 10
    while unit * 10 <= x:
        unit *= 10
    return (x // unit) * unit


ConvexityPoints = tuple[list[Any], list[Any], Fraction]


def _convexity_candidates(
    inst: Instance, Q: Fraction, hess: Callable[[np.ndarray], Hessian]
) -> Iterator[ConvexityPoints]:
    """Explicit (q, q′, ζ) on the slice ‖q‖₁ = Q, exactly: the instance's own (Q·w1, Q·w2, ζ)
    (w renormalised exactly), then, where the float curvature at Q·w1 is negative, segments
    c ± t·d around c = Q·w1 (ζ = ½, midpoint c) along its direction d — first d rounded to
    two decimals of max|d| (Σd = 0 exactly) and t to one significant digit (checkable by
    hand), then d and t as the float search found them; t ∈ {½, ⅛, 1/32, 1/128}·t_max keeps
    both ends > 0."""
    c = [Q * x for x in fr_unit(inst["w1"])]
    yield c, [Q * x for x in fr_unit(inst["w2"])], dec(inst["zeta"])
    curvature, d = _tangent_curvature(hess(float(Q) * unit_sum(inst["w1"])))
    if d is None or curvature >= 0:
        return
    top = float(np.abs(d).max())
    rounded: list[Any] = [Fraction(round(100 * float(x) / top), 100) for x in d]
    j = max(range(len(rounded)), key=lambda k: abs(rounded[k]))
    rounded[j] -= sum(rounded)
    raw: list[Any] = [Fraction(float(x)) for x in d]
    raw = [x - sum(raw) / len(raw) for x in raw]
    for df, short in ((rounded, True), (raw, False)):
        if not any(df):
            continue
        t_max = min(a / abs(b) for a, b in zip(c, df, strict=True) if b)
        for factor in (Fraction(1, 2), Fraction(1, 8), Fraction(1, 32), Fraction(1, 128)):
            t = _short(t_max * factor) if short else t_max * factor
            plus = [a + t * b for a, b in zip(c, df, strict=True)]
            minus = [a - t * b for a, b in zip(c, df, strict=True)]
            yield plus, minus, Fraction(1, 2)


def _convexity_sides(
    f: Callable[[list[Any]], Fraction], points: ConvexityPoints
) -> tuple[Any, Any]:
    """(f(ζq + (1 − ζ)q′), ζf(q) + (1 − ζ)f(q′)) exactly: convexity needs the first ≤ the second."""
    q, q2, zeta = points
    return f(mix(zeta, q, q2)), zeta * f(q) + (1 - zeta) * f(q2)


def convexity_witness(
    f: Callable[[list[Any]], Fraction],
    hess: Callable[[np.ndarray], Hessian],
    inst: Instance,
    Q: Fraction,
) -> tuple[ConvexityPoints, Any, Any]:
    """The first candidate (:func:`_convexity_candidates`) where the chord lies below f, with
    both sides; the instance's own points (and sides) when none does."""
    first: tuple[ConvexityPoints, Any, Any] | None = None
    for points in _convexity_candidates(inst, Q, hess):
        value, chord = _convexity_sides(f, points)
        if first is None:
            first = (points, value, chord)
        if value > chord:
            return points, value, chord
    assert first is not None
    return first


def convexity_margin(
    f: Callable[[np.ndarray], float],
    hess: Callable[[np.ndarray], Hessian],
    inst: Instance,
    Q: float = 1.0,
    floor: float = 0.0,
) -> float:
    """min(relative midpoint gap on (w1, w2, ζ), least tangent curvature at Q·w1)."""
    curvature, _ = _tangent_curvature(hess(Q * unit_sum(inst["w1"])))
    return min(_slice_gap(f, inst, Q, floor), curvature)


def convexity_exact(
    f: Callable[[list[Any]], Fraction],
    hess: Callable[[np.ndarray], Hessian],
    inst: Instance,
    Q: float = 1.0,
    floor: float = 0.0,
) -> tuple[Any, str]:
    value: Any = Fraction(1)
    for points in _convexity_candidates(inst, dec(Q), hess):
        mid, chord = _convexity_sides(f, points)
        scale = max(abs(chord), abs(mid), dec(floor))
        value = min(value, (chord - mid) / scale if scale else Fraction(0))
    return value, (
        "exact rationals: the midpoint gap on (w1, w2, ζ) and, where the float curvature is "
        "negative, the gaps on segments Q·w1 ± t·d along its direction (d rounded, and as found)"
    )


def hessian(pi: np.ndarray, *args: Any) -> Callable[[np.ndarray], Hessian]:
    """q ↦ the library's structured Hessian (objective.structured_hessian(q, π, *args)),
    declined where (πᵀq)³ underflows (its terms divide by it)."""
    from fltheory.optimize.objective import structured_hessian

    def hess(q: np.ndarray) -> Hessian:
        if not float(pi @ q) ** 3 > 0.0:
            raise NumericalError("(πᵀq)³ underflows double precision")
        return structured_hessian(q, pi, *args)

    return hess


CONVEXITY_NOTES = (
    "Margin: the min of (a) the relative midpoint gap [ζf(q) + (1−ζ)f(q′) − f(ζq + (1−ζ)q′)]/"
    "max(|·|, floor) for q = Q·w1, q′ = Q·w2 on the slice (floor: 1 for χ², Γ for problem 14's "
    "objective, the least size of χ² + 1 = Σα²/p whose terms cancel to χ² ≈ 0 near p = α) and (b) "
    "the least eigenvalue, over the size "
    "of the Hessian's terms, of the Hessian restricted to the tangent space 1ᵀd = 0 at q (a C² "
    "function "
    "is convex on the open slice iff (b) ≥ 0 everywhere; random midpoints hit the non-convex "
    "region of χ² in ~0.3 % of draws, the curvature test in ~25 %). Float side: the "
    "library (fltheory.divergence, fltheory.optimize.objective.opt_fraction and its "
    "structured_hessian); exact side: Fractions, with points renormalised exactly to the "
    "slice, for the midpoint gap and, where (b) < 0, for the gap ½f(q + td) + ½f(q − td) − "
    "f(q) along the float eigenvector d projected exactly onto 1ᵀd = 0 (an explicit segment). "
)


def _p_of(pi: Sequence[Any], q: Sequence[Any]) -> list[Any]:
    """p = π⊙q/πᵀq (eq. 4)."""
    d = sum(a * b for a, b in zip(pi, q, strict=True))
    return [a * b / d for a, b in zip(pi, q, strict=True)]


def convexity_steps(
    f: Callable[[list[Any]], Any], pi: Sequence[Any], points: ConvexityPoints, name: str
) -> tuple[Step, ...]:
    q, q2, zeta = points
    mid = mix(zeta, q, q2)
    return (
        Step("p(q)", "π⊙q/πᵀq (eq. 4)", tuple(_p_of(pi, q))),
        Step(f"{name}(q)", "", f(q)),
        Step("p(q′)", "π⊙q′/πᵀq′", tuple(_p_of(pi, q2))),
        Step(f"{name}(q′)", "", f(q2)),
        Step("q_ζ = ζq + (1 − ζ)q′", "", tuple(mid)),
        Step("p(q_ζ)", "π⊙q_ζ/πᵀq_ζ", tuple(_p_of(pi, mid))),
    )


# --- shrinking moves and eq. (224)'s KKT material (App. E2, E3, §III-D) ---------------------------
def log_moves(keys: Sequence[str]) -> Callable[[Instance], list[Instance]]:
    """Shrinking moves: log10 parameters rounded to integers (all at once, then one at a time)
    or set to 0, so that the paper's quantities 10^x are powers of ten."""

    def moves(inst: Instance) -> list[Instance]:
        present = [k for k in keys if k in inst]
        rounded = {
            k: np.round(inst[k]) if np.ndim(inst[k]) else float(round(inst[k])) for k in present
        }
        out = [{**inst, **rounded}]
        out += [{**inst, k: v} for k, v in rounded.items()]
        out += [{**inst, k: np.zeros_like(v) if np.ndim(v) else 0.0} for k, v in rounded.items()]
        return out

    return moves


def combined_moves(
    *generators: Callable[[Instance], list[Instance]],
) -> Callable[[Instance], list[Instance]]:
    def moves(inst: Instance) -> list[Instance]:
        return [m for g in generators for m in g(inst)]

    return moves


#: Shrinking moves of the problem-(212) claims: powers of ten, then short decimals for π.
MOVES212 = combined_moves(log_moves(("log_s", "log_c", "log_v", "log_Q")), decimal_moves(("pi",)))


#: The hypotheses of problem (212) (App. E) as the "log" spaces enforce them.
H212 = (
    Hypothesis(
        "A = Σ = diag(2(E+1)π_kσ_k²Σ_tη_t²) (eq. 209), σ_k free; App. E1 "
        "calls K(q) = ½qᵀAq + B strictly convex (A ≻ 0)",
        "A_kk ∈ [1e-6, 1e6] independent per client",
    ),
    Hypothesis("B = υ > 0 (eq. 210); only B relative to A matters (J scales)", "B ∈ [1e-6, 1e6]"),
    Hypothesis("π_k ∈ (0, 1], ‖q‖₁ = Q > 0", "π ∈ (0, 1]^N, Q ∈ [1e-3, 1e3], N ∈ [1, 10]"),
)


EQ224_NOTES = (
    "q* is the code's closed form (fltheory.optimize.problem212.closed_form_q), accepted only "
    "with a Frank–Wolfe certificate (relative gap ≤ 1e-10; DefectError otherwise). ι* and θ* "
    "are recovered from q* alone: ∂L/∂s = 0 gives θ* = (B − ½q*ᵀAq*)/Q and Σ_k y_k·(223) "
    "then gives ι* = (½q*ᵀAq* + B)/πᵀq* > 0."
)
