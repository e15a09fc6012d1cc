"""Independent oracles and instance builders for the availability-chain claims of CA-Fed.

Used by :mod:`fltheory.claims.papers.cafed._chains` and the chain section modules (``s3a_chains``,
``app_b2_*``, ``app_f*``); nothing here registers a claim. Everything is written afresh (no call
into :mod:`fltheory.markov` except where a docstring says so), so that a claim's margin compares
the library with a second computation:

* exact rationals: stationary laws by Gaussian elimination in :class:`~fractions.Fraction`,
  characteristic polynomials over Q (sympy's dense polynomial tools), squarefree factors and
  their roots refined by Newton's method in mpmath;
* E(t) = max_ij |[Pᵗ]_ij − ρ_j| on a grid of t by binary powering of B = P − 1ρᵀ (so
  Bᵗ = Pᵗ − 1ρᵀ exactly for t ≥ 1), in floats or in mpmath;
* chains with a chosen real Jordan form (blocks at real or complex eigenvalues, any size),
  de Bruijn (shift-register) chains, and spectral projectors of all of them, for the
  basis-independent lower bound of C_P (eq. 156).

>>> P = debruijn_chain(2, Fraction(1, 2))
>>> [str(x) for x in exact_stationary(P)]
['1/4', '1/4', '1/4', '1/4']
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.errors import NumericalError

Matrix = list[list[Fraction]]

#: Denominator bound used when a float parameter is read as a rational.
DEN_BITS = 40


def rat(x: float, bits: int = DEN_BITS) -> Fraction:
    """``x`` as a rational with denominator at most 2^bits (values below 2^-2bits become 0).

    >>> rat(0.5), rat(1e-300)
    (Fraction(1, 2), Fraction(0, 1))
    """
    return Fraction(float(x)).limit_denominator(1 << bits)


def to_float(P: Matrix) -> np.ndarray:
    """A rational matrix as floats."""
    return np.array([[float(v) for v in row] for row in P])


def matmul(A: Matrix, B: Matrix) -> Matrix:
    """Exact product of rational matrices."""
    cols = list(zip(*B, strict=True))
    return [
        [sum((a * b for a, b in zip(row, col, strict=True)), Fraction(0)) for col in cols]
        for row in A
    ]


def kron(A: Matrix, B: Matrix) -> Matrix:
    """Exact Kronecker product (numpy's order)."""
    return [[a * b for a in ra for b in rb] for ra in A for rb in B]


def exact_stationary(P: Matrix) -> list[Fraction]:
    """ρ with ρᵀP = ρᵀ, Σρ = 1, by Gauss–Jordan elimination in Fractions.

    Raises NumericalError when the solution is not unique (reducible chain).

    >>> [str(x) for x in exact_stationary([[Fraction(1, 2), Fraction(1, 2)],
    ...                                    [Fraction(1, 4), Fraction(3, 4)]])]
    ['1/3', '2/3']
    """
    M = len(P)
    # unknowns ρ_0..ρ_{M-1}; equations Σ_i ρ_i (P_ij − δ_ij) = 0 for j < M−1, and Σ ρ_i = 1
    A = [[P[i][j] - (1 if i == j else 0) for i in range(M)] + [Fraction(0)] for j in range(M - 1)]
    A.append([Fraction(1)] * M + [Fraction(1)])
    for col in range(M):
        pivot = next((r for r in range(col, M) if A[r][col] != 0), None)
        if pivot is None:
            raise NumericalError("the stationary law is not unique (reducible chain)")
        A[col], A[pivot] = A[pivot], A[col]
        inv = 1 / A[col][col]
        A[col] = [v * inv for v in A[col]]
        for r in range(M):
            if r != col and A[r][col] != 0:
                f = A[r][col]
                A[r] = [a - f * b for a, b in zip(A[r], A[col], strict=True)]
    return [A[i][M] for i in range(M)]


# ------------------------------------------------------------------------ spectra over Q


def _qq_matrix(P: Matrix) -> Any:
    from sympy import QQ
    from sympy.polys.matrices import DomainMatrix

    M = len(P)
    return DomainMatrix([[QQ(v.numerator, v.denominator) for v in row] for row in P], (M, M), QQ)


def nonunit_factors(P: Matrix) -> list[tuple[list[Fraction], int]]:
    """charpoly(P)/(x − 1) as squarefree factors (coefficients, highest first; multiplicity).

    Exact over Q; raises NumericalError when 1 is not a root (rows not summing to 1).
    """
    from sympy import QQ
    from sympy.polys.sqfreetools import dup_sqf_list

    cp = _qq_matrix(P).charpoly()
    q = [cp[0]]
    for c in cp[1:-1]:
        q.append(c + q[-1])
    if cp[-1] + q[-1] != 0:
        raise NumericalError("1 is not an eigenvalue: the rows do not sum to 1 exactly")
    if len(q) == 1:  # M = 1
        return []
    _, factors = dup_sqf_list(q, QQ)
    out = []
    for f, m in factors:
        out.append(([Fraction(int(c.numerator), int(c.denominator)) for c in f], int(m)))
    return out


def _newton_roots(coeffs: list[Fraction], dps: int) -> list[Any] | None:
    """Roots at ``dps`` digits by Newton's method from numpy's roots; None when Newton does not
    settle on ``deg`` distinct limits."""
    import mpmath

    deg = len(coeffs) - 1
    c = [mpmath.mpf(v.numerator) / v.denominator for v in coeffs]
    if deg == 1:
        return [-c[1] / c[0]]
    start = np.roots([float(v) for v in coeffs])
    dc = [ci * (deg - i) for i, ci in enumerate(c[:-1])]
    tol = mpmath.mpf(10) ** (-dps)
    out = []
    for z0 in start:
        z = mpmath.mpc(complex(z0))
        for _ in range(80):
            step = mpmath.polyval(c, z) / mpmath.polyval(dc, z)
            z -= step
            if abs(step) <= tol * max(1, abs(z)):
                break
        else:
            return None
        out.append(z)
    seen = sorted(out, key=lambda w: (float(w.real), float(w.imag)))
    gap = min((abs(a - b) for a, b in itertools.pairwise(seen)), default=1)
    return out if gap > mpmath.mpf(10) ** (-dps // 2) else None


def _companion_roots(coeffs: list[Fraction]) -> list[Any]:
    """Roots as the eigenvalues of the companion matrix (mpmath's QR; robust, slower)."""
    import mpmath

    n = len(coeffs) - 1
    c = [mpmath.mpf(v.numerator) / v.denominator for v in coeffs]
    C = mpmath.matrix(n, n)
    for i in range(1, n):
        C[i, i - 1] = 1
    for i in range(n):
        C[i, n - 1] = -c[n - i] / c[0]
    try:
        return list(mpmath.eig(C, left=False, right=False))
    except Exception as exc:  # mpmath's own convergence failures
        raise NumericalError(f"roots of a degree-{n} factor not found: {exc}") from None


def _accurate(coeffs: list[Fraction], roots: list[Any], dps: int) -> bool:
    """Every root has a Newton correction below 10^(−dps) relative, evaluated with the
    coefficients at 3·dps digits (so cancellation in p(z) near clustered roots is seen)."""
    import mpmath

    deg = len(coeffs) - 1
    with mpmath.workdps(3 * dps):
        c = [mpmath.mpf(v.numerator) / v.denominator for v in coeffs]
        dc = [ci * (deg - i) for i, ci in enumerate(c[:-1])]
        for z in roots:
            d = mpmath.polyval(dc, z)
            if d == 0 or abs(mpmath.polyval(c, z) / d) > mpmath.mpf(10) ** (-dps) * max(1, abs(z)):
                return False
    return True


def _refined_roots(coeffs: list[Fraction], dps: int) -> list[Any]:
    """Roots of a squarefree rational polynomial, correct to ``dps`` digits: Newton from
    numpy's roots (or the companion matrix's eigenvalues), at a working precision raised until
    the roots pass :func:`_accurate` (clustered roots, e.g. of lazy chains, need many digits)."""
    import mpmath

    if len(coeffs) <= 1:
        return []
    work = dps + 10
    while work <= 640:
        with mpmath.workdps(work):
            roots = _newton_roots(coeffs, work)
            if roots is None:
                roots = _companion_roots(coeffs)
            if _accurate(coeffs, roots, dps):
                return [mpmath.mpc(z) for z in roots]
        work *= 2
    raise NumericalError("polynomial roots not resolved at 640 digits")


def nonunit_eigenvalues(P: Matrix, dps: int = 30) -> list[tuple[Any, int, int]]:
    """(eigenvalue at ``dps`` digits, algebraic multiplicity, factor index) of every distinct
    eigenvalue of P other than one copy of 1."""
    out = []
    for idx, (coeffs, m) in enumerate(nonunit_factors(P)):
        for z in _refined_roots(coeffs, dps):
            out.append((z, m, idx))
    return out


def jordan_square_sum(P: Matrix) -> int:
    """Σ nᵢ² over the non-unit Jordan blocks of P, decided exactly: at the roots of each
    squarefree factor g (degree d, multiplicity m) of charpoly(P)/(x − 1), the number of blocks
    of size ≥ j is (rank g(P)^(j−1) − rank g(P)^j)/d (Galois conjugates share their blocks)."""
    from sympy import QQ
    from sympy.polys.matrices import DomainMatrix

    D = _qq_matrix(P)
    M = len(P)
    eye = DomainMatrix.eye(M, QQ)
    total = 0
    for coeffs, m in nonunit_factors(P):
        d = len(coeffs) - 1
        if m == 1:
            total += d
            continue
        G = DomainMatrix.zeros((M, M), QQ)
        for c in coeffs:
            G = G * D + eye * QQ(c.numerator, c.denominator)
        ranks = [M]
        power = eye
        while ranks[-1] > M - d * m:
            power = power * G
            ranks.append(power.rank())
        at_least = [(ranks[j - 1] - ranks[j]) // d for j in range(1, len(ranks))]
        sizes = []
        for j, count in enumerate(at_least, start=1):
            more = at_least[j] if j < len(at_least) else 0
            sizes += [j] * (count - more)
        total += d * sum(n * n for n in sizes)
    return total


# ------------------------------------------------------------------------ envelopes


def envelope_float(P: np.ndarray, rho: np.ndarray, ts: list[int]) -> np.ndarray:
    """E(t) = max_ij |[Pᵗ]_ij − ρ_j| at the (non-decreasing) times ``ts``, by binary powering
    of B = P − 1ρᵀ (Bᵗ = Pᵗ − 1ρᵀ for t ≥ 1; E(0) from I − 1ρᵀ)."""
    M = P.shape[0]
    B = P - np.ones((M, 1)) * rho[None, :]
    powers = [B]
    out = np.empty(len(ts))
    for k, t in enumerate(ts):
        if t == 0:
            out[k] = float(np.max(np.abs(np.eye(M) - rho[None, :])))
            continue
        while (1 << len(powers)) <= t:
            powers.append(powers[-1] @ powers[-1])
        acc = None
        for bit in range(len(powers)):
            if t >> bit & 1:
                acc = powers[bit] if acc is None else acc @ powers[bit]
        assert acc is not None
        out[k] = float(np.max(np.abs(acc)))
    return out


def envelope_mp(P: Matrix, rho: list[Fraction], ts: list[int], dps: int = 60) -> list[Any]:
    """E(t) at the times ``ts`` in mpmath at ``dps`` digits (same binary powering)."""
    import mpmath

    M = len(P)
    with mpmath.workdps(dps):
        B = mpmath.matrix(M, M)
        for i in range(M):
            for j in range(M):
                v = P[i][j] - rho[j]
                B[i, j] = mpmath.mpf(v.numerator) / v.denominator
        powers = [B]
        out = []
        for t in ts:
            if t == 0:
                out.append(
                    max(abs(int(i == j) - float(rho[j])) for i in range(M) for j in range(M))
                )
                continue
            while (1 << len(powers)) <= t:
                powers.append(powers[-1] * powers[-1])
            acc = None
            for bit in range(len(powers)):
                if t >> bit & 1:
                    acc = powers[bit] if acc is None else acc * powers[bit]
            assert acc is not None
            out.append(max(abs(acc[i, j]) for i in range(M) for j in range(M)))
        return out


def time_grid(
    t0: int,
    log_C: float,
    log_lam: float,
    extra: Sequence[float] = (),
    floor: float = 1e-10,
    dense: int = 64,
    ratio: float = 1.08,
    cap: int = 10**15,
) -> list[int]:
    """Times from t0: every t in [t0, t0 + dense), then a geometric grid and the points of
    ``extra`` (predicted peaks), up to the last t with C_P λᵗ ≥ ``floor``."""
    if log_lam < 0:
        t_end = int(min(cap, max(t0, math.floor((log_C - math.log(floor)) / -log_lam))))
    else:
        t_end = t0 + dense
    ts = set(range(t0, min(t_end, t0 + dense) + 1))
    t = float(max(t0 + dense, 1))
    while t <= t_end:
        ts.add(int(t))
        t *= ratio
    for x in extra:
        for y in (math.floor(x), math.ceil(x)):
            if t0 <= y <= t_end:
                ts.add(int(y))
    ts.add(t_end)
    return sorted(ts)


# ------------------------------------------------------------------------ chain families


def cyclic(M: int) -> Matrix:
    return [[Fraction(int(j == (i + 1) % M)) for j in range(M)] for i in range(M)]


def dense_chain(rows: list[np.ndarray], lazy: Fraction, cyc: Fraction) -> tuple[Matrix, Matrix]:
    """(P, R′) with P = lazy·I + (1 − lazy)·R′ and R′ = (1 − cyc)·R + cyc·C: R the rows read as
    rationals (denominators ≤ 2^24, so entries below ~1e-8 vanish) and C the cyclic shift
    i → i + 1 mod M. The eigenvalues of P are lazy + (1 − lazy)·(those of R′), with the same
    Jordan structure (the oracles work on R′, whose spectrum laziness does not cluster)."""
    M = len(rows)
    R = []
    for r in rows:
        w = [rat(x, 24) for x in r[:M]]
        s = sum(w, Fraction(0))
        if s == 0:
            w, s = [Fraction(1)] * M, Fraction(M)
        R.append([x / s for x in w])
    C = cyclic(M)
    core = [[(1 - cyc) * R[i][j] + cyc * C[i][j] for j in range(M)] for i in range(M)]
    P = [[lazy * int(i == j) + (1 - lazy) * core[i][j] for j in range(M)] for i in range(M)]
    return P, core


def reversible_chain(rows: list[np.ndarray], lazy: Fraction) -> tuple[Matrix, Matrix]:
    """(P, R′): R′ = D⁻¹W with W = R + Rᵀ symmetric (R the rows read as rationals, as in
    :func:`dense_chain`), reversible with respect to ρ ∝ W1; P = lazy·I + (1 − lazy)·R′."""
    M = len(rows)
    R = [[rat(x, 24) for x in r[:M]] for r in rows]
    W = [[R[i][j] + R[j][i] for j in range(M)] for i in range(M)]
    core = []
    for i in range(M):
        s = sum(W[i], Fraction(0))
        core.append([x / s for x in W[i]] if s else [Fraction(int(i == j)) for j in range(M)])
    P = [[lazy * int(i == j) + (1 - lazy) * core[i][j] for j in range(M)] for i in range(M)]
    return P, core


def debruijn_chain(k: int, p: Fraction, lazy: Fraction = Fraction(0)) -> Matrix:
    """The window of the last k coin flips (heads with probability p), 2^k states, lazy.

    State s = (b_1 … b_k) in binary, most recent flip least significant; one step appends a
    flip and forgets b_1, so Pᵏ = 1ρᵀ: every non-unit eigenvalue is 0 (one Jordan block of
    size k at 0 … and smaller ones), and the chain is not reversible for k ≥ 2.
    """
    M = 1 << k
    P = [[Fraction(0)] * M for _ in range(M)]
    for s in range(M):
        for bit, w in ((0, 1 - p), (1, p)):
            t = ((s << 1) | bit) & (M - 1)
            P[s][t] += (1 - lazy) * w
        P[s][s] += lazy
    return P


def _mat_inv(A: Matrix) -> Matrix:
    M = len(A)
    aug = [row[:] + [Fraction(int(i == j)) for j in range(M)] for i, row in enumerate(A)]
    for col in range(M):
        pivot = next(r for r in range(col, M) if aug[r][col] != 0)
        aug[col], aug[pivot] = aug[pivot], aug[col]
        inv = 1 / aug[col][col]
        aug[col] = [v * inv for v in aug[col]]
        for r in range(M):
            if r != col and aug[r][col] != 0:
                f = aug[r][col]
                aug[r] = [a - f * b for a, b in zip(aug[r], aug[col], strict=True)]
    return [row[M:] for row in aug]


class JordanChain:
    """P = β I + (1 − β)(1ρᵀ + α V K Yᵀ) with K in real Jordan form (exact rationals).

    [1, V] is a basis with ρᵀV = 0 (V = [−ρ_{1:}/ρ_0; I]) and [ρᵀ; Yᵀ] its inverse, so P is
    similar to diag(1, β + (1 − β)αK): the non-unit Jordan blocks are those of K, at
    β + (1 − β)α·μ (α > 0 keeps the structure). K's blocks are (a, b, n): b = 0 a real Jordan
    block J_n(a) with superdiagonal ``coupling``; b ≠ 0 the real form of the pair
    J_n(a ± ib) (2×2 rotation blocks [[a, −b], [b, a]] with ``coupling``·I₂ above them).
    α = ``shrink`` × the largest value keeping P ≥ 0.

    ``blocks``: the complex Jordan blocks (eigenvalue as (Re, Im) Fractions, size);
    ``projector(key)``: the spectral projector of one distinct eigenvalue (floats).
    """

    def __init__(
        self,
        rho: list[Fraction],
        blocks: list[tuple[Fraction, Fraction, int]],
        coupling: Fraction,
        shrink: Fraction,
        lazy: Fraction,
    ) -> None:
        M = len(rho)
        m = sum(n * (2 if b != 0 else 1) for _, b, n in blocks)
        if m != M - 1:
            raise ValueError("block sizes must add up to M − 1")
        K = [[Fraction(0)] * m for _ in range(m)]
        start = 0
        self._coords: list[tuple[Fraction, Fraction, int, int, int]] = []
        for a, b, n in blocks:
            if b == 0:
                for k in range(n):
                    K[start + k][start + k] = a
                    if k + 1 < n:
                        K[start + k][start + k + 1] = coupling
                self._coords.append((a, Fraction(0), n, start, 1))
                start += n
            else:
                for k in range(n):
                    i = start + 2 * k
                    K[i][i], K[i][i + 1], K[i + 1][i], K[i + 1][i + 1] = a, -b, b, a
                    if k + 1 < n:
                        K[i][i + 2] = K[i + 1][i + 3] = coupling
                self._coords.append((a, abs(b), n, start, 2))
                start += 2 * n
        V = [[Fraction(0)] * m for _ in range(M)]
        for k in range(1, M):
            V[k][k - 1] = Fraction(1)
            V[0][k - 1] = -rho[k] / rho[0]
        U = [[Fraction(1)] + V[i] for i in range(M)]
        Uinv = _mat_inv(U)
        Yt = Uinv[1:]
        core = matmul(matmul(V, K), Yt)
        ratios = [rho[j] / -core[i][j] for i in range(M) for j in range(M) if core[i][j] < 0]
        alpha = min(ratios) * shrink if ratios else shrink
        self.alpha, self.lazy, self.rho = alpha, lazy, rho
        self.P: Matrix = [
            [lazy * int(i == j) + (1 - lazy) * (rho[j] + alpha * core[i][j]) for j in range(M)]
            for i in range(M)
        ]
        self._V, self._Yt = V, Yt
        self.blocks: list[tuple[tuple[Fraction, Fraction], int]] = []
        for a, b, n, _, width in self._coords:
            ev = lazy + (1 - lazy) * alpha * a
            ev_im = (1 - lazy) * alpha * b
            self.blocks.append(((ev, ev_im), n))
            if width == 2:
                self.blocks.append(((ev, -ev_im), n))

    def projectors(self) -> dict[tuple[Fraction, Fraction], np.ndarray]:
        """The spectral projector of every distinct non-unit eigenvalue (complex floats)."""
        V = to_float(self._V).astype(complex)
        Yt = to_float(self._Yt).astype(complex)
        m = V.shape[1]
        out: dict[tuple[Fraction, Fraction], np.ndarray] = {}
        # the eigenprojector of the rotation block [[a, −b], [b, a]] at a + ib
        half = 0.5 * np.array([[1.0, 1.0j], [-1.0j, 1.0]])
        for a, b, n, start, width in self._coords:
            ev = self.lazy + (1 - self.lazy) * self.alpha * a
            ev_im = (1 - self.lazy) * self.alpha * b
            if width == 1:
                E = np.zeros((m, m), dtype=complex)
                E[start : start + n, start : start + n] = np.eye(n)
                parts = [((ev, Fraction(0)), E)]
            else:
                plus = np.kron(np.eye(n), half)
                E1 = np.zeros((m, m), dtype=complex)
                E1[start : start + 2 * n, start : start + 2 * n] = plus
                E2 = np.zeros((m, m), dtype=complex)
                E2[start : start + 2 * n, start : start + 2 * n] = np.conj(plus)
                parts = [((ev, ev_im), E1), ((ev, -ev_im), E2)]
            for key, E in parts:
                proj = V @ E @ Yt
                out[key] = out[key] + proj if key in out else proj
        return out


def nuclear(A: np.ndarray) -> float:
    """‖A‖_*, the sum of the singular values."""
    return float(np.linalg.svd(A, compute_uv=False).sum())


def spectral_projector(P: np.ndarray, mu: complex, m: int) -> np.ndarray:
    """The spectral projector of P at the eigenvalue μ of algebraic multiplicity m:
    R(LᴴR)⁻¹Lᴴ with R, L orthonormal bases of ker (P − μI)^m and ker ((P − μI)ᴴ)^m (the m
    smallest singular directions; the multiplicity is known exactly)."""
    M = P.shape[0]
    X = np.linalg.matrix_power(P.astype(complex) - mu * np.eye(M), m)
    _, _, vh = np.linalg.svd(X)
    R = vh[M - m :].conj().T
    _, _, vh2 = np.linalg.svd(X.conj().T)
    L = vh2[M - m :].conj().T
    return R @ np.linalg.solve(L.conj().T @ R, L.conj().T)
