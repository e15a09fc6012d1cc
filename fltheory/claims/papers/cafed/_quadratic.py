"""Quadratic federations for the CA-Fed bound claims (shared helpers; registers no claim).

Everything here is computed from the instance's parameters WITHOUT the code under test: small
generic linear algebra on Python lists that runs on floats (the fast margins; numpy builds the
float Hessians), on :class:`fractions.Fraction` (exact margins) or on ``mpmath.mpf``
(high-precision margins).

* :func:`qf` — a quadratic federation F_k(w) = ½(w − u_k)ᵀH_k(w − u_k) (F_k* = 0) with
  H_k = R_k diag(h_k) R_kᵀ, R_k the Cayley rotation of a skew matrix (rational in its
  parameters, so H_k and its eigenvalues h_k are exact rationals of the float parameters);
* :func:`product_matrix` / :func:`stationary` — independent two-state clients (eq. 236) and
  stationary laws by dense elimination.

>>> from fractions import Fraction
>>> inst = {"n": 2, "d": 1, "lh1": np.array([0.0, 0.0]), "u1": np.array([0.0, 2.0]),
...         "alpha": np.array([0.5, 0.5]), "pi": np.array([1.0, 1.0]), "q": np.array([0.75, 0.25])}
>>> f = qf(inst, exact=True)
>>> f.minimizer(f.alpha), f.minimizer(f.p)
([Fraction(1, 1)], [Fraction(1, 2)])
"""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from fltheory.claims.space import Instance, Integer, Real, Simplex

Vec = list[Any]
Mat = list[list[Any]]

#: Largest dimension and number of clients of the quadratic federations.
D_MAX, N_MAX = 3, 4
#: log10 range of the Hessian eigenvalues (κ up to 10⁸).
LOG_H = (-4.0, 4.0)


# --- generic linear algebra on lists (float, Fraction or mpf entries) -------------------------
def dot(a: Sequence[Any], b: Sequence[Any]) -> Any:
    total = a[0] * b[0]
    for x, y in zip(a[1:], b[1:], strict=True):
        total = total + x * y
    return total


def matvec(A: Mat, x: Vec) -> Vec:
    return [dot(row, x) for row in A]


def matmul(A: Mat, B: Mat) -> Mat:
    cols = list(zip(*B, strict=True))
    return [[dot(row, col) for col in cols] for row in A]


def transpose(A: Mat) -> Mat:
    return [list(r) for r in zip(*A, strict=True)]


def sub(x: Vec, y: Vec) -> Vec:
    return [a - b for a, b in zip(x, y, strict=True)]


def solve(A: Mat, b: Vec) -> Vec:
    """x with Ax = b by Gaussian elimination with partial pivoting (exact for Fractions)."""
    n = len(A)
    M = [[*row, bi] for row, bi in zip(A, b, strict=True)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        if M[p][c] == 0:
            raise ZeroDivisionError("singular system")
        M[c], M[p] = M[p], M[c]
        for r in range(n):
            if r != c and M[r][c] != 0:
                f = M[r][c] / M[c][c]
                M[r] = [x - f * y for x, y in zip(M[r], M[c], strict=True)]
    return [M[i][n] / M[i][i] for i in range(n)]


def inverse(A: Mat) -> Mat:
    n = len(A)
    one, zero = A[0][0] * 0 + 1, A[0][0] * 0
    cols = [solve(A, [one if i == j else zero for i in range(n)]) for j in range(n)]
    return transpose(cols)


def cayley(s: Sequence[Any], d: int) -> Mat:
    """R = (I − S)(I + S)⁻¹ for the skew matrix S with upper entries s (orthogonal, rational)."""
    zero, one = s[0] * 0, s[0] * 0 + 1
    if d == 1:
        return [[one]]
    S = [[zero] * d for _ in range(d)]
    pos = 0
    for i in range(d):
        for j in range(i + 1, d):
            S[i][j], S[j][i] = s[pos], -s[pos]
            pos += 1
    eye = [[one if i == j else zero for j in range(d)] for i in range(d)]
    minus = [[eye[i][j] - S[i][j] for j in range(d)] for i in range(d)]
    plus = [[eye[i][j] + S[i][j] for j in range(d)] for i in range(d)]
    return matmul(minus, inverse(plus))


def to_exact(x: Any) -> Any:
    """Floats (scalars, arrays, nested lists) as exact Fractions."""
    if isinstance(x, np.ndarray | list | tuple):
        return [to_exact(v) for v in x]
    return Fraction(float(x))


def to_mp(x: Any) -> Any:
    import mpmath

    if isinstance(x, np.ndarray | list | tuple):
        return [to_mp(v) for v in x]
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(float(x)) if not isinstance(x, mpmath.mpf) else x


# --- quadratic federations ---------------------------------------------------------------------
def qf_params(
    n: tuple[int, int] = (1, N_MAX),
    d: tuple[int, int] = (1, D_MAX),
    log_h: tuple[float, float] = LOG_H,
    u_range: float = 10.0,
) -> list[Any]:
    """Parameters of a quadratic federation: sizes, log-eigenvalues lh1..lh3 (in ``log_h``),
    Cayley parameters s1..s3, minimiser coordinates u1..u3 (in ±``u_range``), α, π and q
    (zeros allowed)."""
    params: list[Any] = [Integer("n", *n), Integer("d", *d)]
    params += [Real(f"lh{i}", *log_h, size="n", special=(0.0,)) for i in range(1, D_MAX + 1)]
    params += [Real(f"s{i}", -3.0, 3.0, size="n", special=(0.0,)) for i in range(1, D_MAX + 1)]
    params += [
        Real(f"u{i}", -u_range, u_range, size="n", special=(0.0,)) for i in range(1, D_MAX + 1)
    ]
    params += [
        Simplex("alpha", "n"),
        Real("pi", 0.0, 1.0, size="n", closed=(False, True), special=(1.0, 0.5)),
        Real("q", 0.0, 1.0, size="n", closed=(True, True), special=(0.0, 1.0)),
    ]
    return params


def simplify(inst: Instance) -> list[Instance]:
    """Shrinking candidates for quadratic-federation instances: d = 1, unit Hessians, no
    rotation, π = 1, q = 1, uniform α, integer minimisers — all at once, then one by one."""
    n = int(inst["n"])
    plain: dict[str, Any] = {"d": 1, "pi": np.ones(n), "q": np.ones(n), "alpha": np.full(n, 1 / n)}
    for i in range(1, D_MAX + 1):
        plain[f"lh{i}"] = np.zeros(n)
        plain[f"s{i}"] = np.zeros(n)
        plain[f"u{i}"] = np.round(np.asarray(inst[f"u{i}"], dtype=float)) if i == 1 else np.zeros(n)
    keys = [k for k, v in plain.items() if k in inst and not np.array_equal(inst[k], v)]
    together = {**inst, **{k: plain[k] for k in keys}}
    return [together] + [{**inst, k: plain[k]} for k in keys]


def positive_pq(inst: Instance) -> bool:
    """πᵀq > 0 (eq. 4 defines p)."""
    return float(np.dot(inst["pi"], inst["q"])) > 0.0


@dataclass
class QF:
    """A quadratic federation in one arithmetic (float, Fraction or mpf lists)."""

    n: int
    d: int
    h: list[Vec]  # eigenvalues of H_k
    H: list[Mat]
    u: list[Vec]
    alpha: Vec
    pi: Vec
    q: Vec

    @property
    def L(self) -> Any:
        return max(max(hk) for hk in self.h)

    @property
    def mu(self) -> Any:
        return min(min(hk) for hk in self.h)

    @cached_property
    def pi_q(self) -> Any:
        return dot(self.pi, self.q)

    @cached_property
    def p(self) -> Vec:
        return [pk * qk / self.pi_q for pk, qk in zip(self.pi, self.q, strict=True)]

    def hessian(self, weights: Vec) -> Mat:
        d = self.d
        return [[dot(weights, [Hk[i][j] for Hk in self.H]) for j in range(d)] for i in range(d)]

    def minimizer(self, weights: Vec) -> Vec:
        A = self.hessian(weights)
        b = [
            dot(weights, [matvec(Hk, uk)[i] for Hk, uk in zip(self.H, self.u, strict=True)])
            for i in range(self.d)
        ]
        return solve(A, b)

    def gap(self, k: int, w: Vec) -> Any:
        """F_k(w) − F_k* = ½(w − u_k)ᵀH_k(w − u_k)."""
        e = sub(w, self.u[k])
        return dot(e, matvec(self.H[k], e)) / 2

    def grad(self, k: int, w: Vec) -> Vec:
        return matvec(self.H[k], sub(w, self.u[k]))

    def weighted_gap(self, weights: Vec, w: Vec, center: Vec) -> Any:
        """Σ ω_k F_k(w) − Σ ω_k F_k(center) as ½eᵀ(Σω_kH_k)e, e = w − center (center the
        minimiser of Σω_kF_k: no cancellation)."""
        e = sub(w, center)
        return dot(e, matvec(self.hessian(weights), e)) / 2

    @cached_property
    def w_star(self) -> Vec:
        return self.minimizer(self.alpha)

    @cached_property
    def w_B(self) -> Vec:
        return self.minimizer(self.p)


def _float_hessians(inst: Instance, n: int, d: int) -> tuple[list[Vec], list[Mat]]:
    """Eigenvalues and Hessians in floats with numpy (the fast path of :func:`qf`)."""
    h = 10.0 ** np.array([[float(inst[f"lh{i + 1}"][k]) for i in range(d)] for k in range(n)])
    H: list[Mat] = []
    for k in range(n):
        R: np.ndarray = np.eye(d)
        if d > 1:
            S = np.zeros((d, d))
            S[np.triu_indices(d, 1)] = [
                float(inst[f"s{i + 1}"][k]) for i in range(d * (d - 1) // 2)
            ]
            S = S - S.T
            R = np.linalg.solve((np.eye(d) + S).T, (np.eye(d) - S).T).T  # (I − S)(I + S)⁻¹
        H.append(((R * h[k]) @ R.T).tolist())
    return h.tolist(), H


def qf(inst: Instance, *, exact: bool = False, q: Any = None) -> QF:
    """The federation of ``inst`` in floats, or exactly (Fractions) with ``exact``."""
    n, d = int(inst["n"]), int(inst["d"])
    conv: Callable[[Any], Any] = to_exact if exact else (lambda x: [float(v) for v in x])
    if exact:
        h_float = [[10.0 ** float(inst[f"lh{i + 1}"][k]) for i in range(d)] for k in range(n)]
        h = [conv(hk) for hk in h_float]
        H: list[Mat] = []
        for k in range(n):
            count = d * (d - 1) // 2  # Cayley parameters used (none for d = 1)
            s = conv([inst[f"s{i + 1}"][k] for i in range(count)] or [0.0])
            R = cayley(s, d)
            D = [[h[k][i] if i == j else h[k][i] * 0 for j in range(d)] for i in range(d)]
            H.append(matmul(matmul(R, D), transpose(R)))
    else:
        h, H = _float_hessians(inst, n, d)
    u = [conv([inst[f"u{i + 1}"][k] for i in range(d)]) for k in range(n)]
    alpha = conv(inst["alpha"])
    total = sum(alpha[1:], alpha[0])
    alpha = [a / total for a in alpha]
    pi = conv(inst["pi"])
    qv = conv(inst["q"] if q is None else q)
    return QF(n, d, h, H, u, alpha, pi, qv)


def code_problem(inst: Instance, q: Any = None, f: QF | None = None) -> Any:
    """The same federation as the library's :class:`QuadraticProblem` (the code under test);
    ``f`` is the float :func:`qf` of ``inst`` when already built."""
    from fltheory.problems.quadratic import QuadraticProblem

    f = qf(inst) if f is None else f
    return QuadraticProblem(
        np.array(f.u),
        np.array(f.H),
        0.0,
        np.array(f.alpha),
        np.array(f.pi),
        np.array(f.q) if q is None else q,
    )


def chi_square(alpha: Vec, p: Vec) -> Any:
    """χ²(α‖p); +inf where p_k = 0 < α_k."""
    total = alpha[0] * 0
    for a, b in zip(alpha, p, strict=True):
        if b == 0:
            if a > 0:
                return math.inf
            continue
        total = total + (a - b) ** 2 / b
    return total


def relative_gap(rhs: Any, lhs: Any, floor: float = 0.0) -> float:
    """(rhs − lhs)/max(|rhs|, |lhs|, floor) as a float (+1 when rhs = +inf)."""
    if rhs == math.inf:
        return 1.0
    scale = max(abs(rhs), abs(lhs), floor)
    if scale == 0:
        return 0.0
    return float((rhs - lhs) / scale)


# --- availability chains, exactly ---------------------------------------------------------------
def kron(A: Mat, B: Mat) -> Mat:
    """Kronecker product of list matrices (np.kron order)."""
    return [[a * b for a in ra for b in rb] for ra in A for rb in B]


def two_state(pi: Any, lam2: Any) -> Mat:
    """Eq. (236): [[1 − (1−λ₂)π, (1−λ₂)π], [(1−λ₂)(1−π), 1 − (1−λ₂)(1−π)]]."""
    p01, p10 = (1 - lam2) * pi, (1 - lam2) * (1 - pi)
    return [[1 - p01, p01], [p10, 1 - p10]]


def product_matrix(pi: Vec, lam2: Vec) -> Mat:
    """⊗ₖ P_k over the clients (client 0 the most significant bit of a state index)."""
    P = two_state(pi[0], lam2[0])
    for k in range(1, len(pi)):
        P = kron(P, two_state(pi[k], lam2[k]))
    return P


def stationary(P: Mat) -> Vec:
    """ρ with ρP = ρ, Σρ = 1 (dense elimination: exact for Fractions)."""
    M = len(P)
    A = [[(1 if i == j else 0) - P[j][i] for j in range(M)] for i in range(M)]
    A[-1] = [P[0][0] * 0 + 1] * M
    b = [P[0][0] * 0] * (M - 1) + [P[0][0] * 0 + 1]
    return solve(A, b)


def active_sets(n: int) -> list[list[int]]:
    """Clients of each product state (np.kron order: client 0 is the most significant bit)."""
    return [[k for k in range(n) if (a >> (n - 1 - k)) & 1] for a in range(2**n)]


def lambda2_low(pi: Any) -> Any:
    """Smallest admissible λ₂ of a two-state client (eq. 236): max(1 − 1/π, 1 − 1/(1 − π))."""
    pi = np.asarray(pi, dtype=float)
    with np.errstate(divide="ignore", over="ignore"):
        return np.maximum(1.0 - 1.0 / pi, 1.0 - 1.0 / (1.0 - pi))


# --- the instance in the paper's quantities (explanations) ---------------------------------------
@dataclass
class PaperFederation:
    """A quadratic federation as a reader sees it: exact decimals of the instance's numbers
    (:func:`fltheory.claims.explain.dec`), H_k = R_k diag(h_k) R_kᵀ with the Cayley rotation R_k
    of the decimal parameters (exactly orthogonal), α normalised exactly."""

    h: list[Vec]
    R: list[Mat]
    u: list[Vec]
    alpha: Vec
    pi: Vec
    q: Vec

    @property
    def n(self) -> int:
        return len(self.h)

    @property
    def d(self) -> int:
        return len(self.h[0])

    def hessian(self, k: int) -> Mat:
        R, h = self.R[k], self.h[k]
        return [
            [
                sum((R[i][m] * h[m] * R[j][m] for m in range(self.d)), Fraction(0))
                for j in range(self.d)
            ]
            for i in range(self.d)
        ]

    def qf(self) -> QF:
        """The same federation as a :class:`QF` in Fractions."""
        return QF(
            self.n,
            self.d,
            self.h,
            [self.hessian(k) for k in range(self.n)],
            self.u,
            self.alpha,
            self.pi,
            self.q,
        )

    def verify_args(self) -> dict[str, Any]:
        return {
            "h": self.h,
            "R": self.R,
            "u": self.u,
            "alpha": self.alpha,
            "pi": self.pi,
            "q": self.q,
        }


def paper_federation(inst: Instance, q: Any = None) -> PaperFederation:
    """The federation of ``inst`` (the parameters of :func:`qf_params`) in exact decimals."""
    from fltheory.claims.explain import dec, decs

    n, d = int(inst["n"]), int(inst["d"])
    h = [[dec(10.0 ** float(inst[f"lh{i + 1}"][k])) for i in range(d)] for k in range(n)]
    R = []
    for k in range(n):
        count = d * (d - 1) // 2
        s = [dec(inst[f"s{i + 1}"][k]) for i in range(count)] or [Fraction(0)]
        R.append(cayley(s, d))
    u = [[dec(inst[f"u{i + 1}"][k]) for i in range(d)] for k in range(n)]
    alpha = list(decs(inst["alpha"]))
    total = sum(alpha, Fraction(0))
    return PaperFederation(
        h,
        R,
        u,
        [a / total for a in alpha],
        list(decs(inst["pi"])),
        list(decs(inst["q"] if q is None else q)),
    )


def federation_quantities(pf: PaperFederation) -> tuple[Any, ...]:
    """The clients' losses F_k as formulas with their numbers, then α, π and q."""
    from fltheory.claims.explain import Quantity, show, signed

    out = []
    for k in range(pf.n):
        if pf.d == 1:
            shift = f"(w {signed(-pf.u[k][0])})²" if pf.u[k][0] else "w²"
            formula = f"F_{k + 1}(w) = ½·{show(pf.h[k][0])}·{shift}"
        else:
            H = pf.hessian(k)
            rows = "; ".join(", ".join(show(x) for x in row) for row in H)
            formula = (
                f"F_{k + 1}(w) = ½(w − u_{k + 1})ᵀH_{k + 1}(w − u_{k + 1}), u_{k + 1} = "
                f"{show(pf.u[k])}, H_{k + 1} = [{rows}] (eigenvalues "
                f"{show(pf.h[k])})"
            )
        out.append(Quantity(f"F_{k + 1}", f"loss of client {k + 1}", pf.u[k], formula))
    out += [
        Quantity("α", "target importance", tuple(pf.alpha)),
        Quantity("π", "asymptotic availability of each client", tuple(pf.pi)),
        Quantity("q", "aggregation weights", tuple(pf.q)),
    ]
    return tuple(out)
