"""Jordan data of P for Lemma 16 (CA-Fed ToN Appendix B2, eqs. 156–157), in two paths.

Lemma 16 uses P = U J U⁻¹ with J in Jordan form. What its constants need from (U, J) is, per
Jordan block B: the eigenvalue μ_B, the size n_B and the product ‖U_B‖_F·‖(U⁻¹)_B‖_F, where U_B
are the block's columns of U and (U⁻¹)_B its rows of U⁻¹ (see :mod:`fltheory.markov.lemma16`).

* **dense** (:func:`numeric_jordan`): deflate the eigenvalue 1 (see :mod:`.spectrum`), take
  A = QᵀPQ = WΛW⁻¹, then U = [1, QW] and U⁻¹ = [ρᵀ; W⁻¹Qᵀ(I − 1ρᵀ)]. All blocks have size 1.
  Floating point cannot see Jordan blocks, so near-defective spectra are *detected* and
  refused (or handed to the exact path): see :func:`numeric_jordan` for the tests and
  thresholds.
* **exact** (:func:`exact_jordan`): the Jordan *structure* is decided in exact rational
  arithmetic, the basis is then computed in 50-digit arithmetic. sympy's ``jordan_form`` is
  not used for general input: on a 5×5 random rational stochastic matrix (irreducible quartic
  after removing the eigenvalue 1) it did not finish in 300 s.
"""

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np
import scipy.linalg
import scipy.sparse as sps
import sympy
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree
from sympy import QQ
from sympy.polys.matrices import DomainMatrix

from fltheory.errors import InputError, NumericalError
from fltheory.markov.spectrum import COALESCE_TOL, Deflation, deflate
from fltheory.markov.stationary import gth_stationary
from fltheory.markov.validate import (
    EXACT_MAX_STATES,
    as_transition_matrix,
    check_assumption1,
    to_rational_matrix,
)

#: Largest eigenvalue condition number accepted on the dense path. A simple eigenvalue with
#: condition number κ moves by up to κ·ε_mach·‖P‖ under backward rounding errors, so at
#: κ = 1e8 eigenvalues are good to about 1e-8 relative and eigenvector-based products to
#: about the same; beyond it a matrix indistinguishable from P (perturbation ~ 1/κ) has a
#: multiple eigenvalue, i.e. the Jordan structure is numerically undetermined.
KAPPA_MAX = 1e8
#: Distinct eigenvalues must be at least this far apart in the same measure
#: |λ_i − λ_j| / (‖P‖_F·(κ_i + κ_j)), or the dense path refuses them. Rounding errors of order
#: ε_mach·‖P‖ mix the eigenvectors of a pair at relative distance δ by about ε_mach/δ, and C_P
#: (a sum of eigenvector norms) moves with them: on product chains with many tiny eigenvalue
#: products (N ≤ 7, against exact projectors) the error of ln C_P stayed below 5·10⁻¹⁸/δ, so
#: at this threshold below ~5·10⁻⁸ and mostly far below (ca_fed_population(6), δ = 1.6·10⁻¹⁰:
#: 7·10⁻¹¹). Pairs between COALESCE_TOL and this are neither one eigenvalue nor resolved.
RESOLVE_TOL = 1e-10
#: Clusters are only formed among eigenvalues within this distance (relative to ‖P‖_F).
CLUSTER_RADIUS = 1e-4
#: A cluster of k eigenvalues near μ is semisimple when an orthonormal basis X of its
#: invariant subspace has ‖(A − μI)X‖₂ below this (relative to ‖P‖_F): computed repeated
#: semisimple eigenvalues give ~1e-15, a Jordan block the size of its coupling.
RANK_TOL = 1e-10
#: Relative shift off a cluster's mean used by the inverse iteration (keeps the LU regular).
SHIFT = 1e-10
#: Inverse-iteration steps refining a cluster's invariant subspace (see :func:`_eigenspace`).
INVERSE_STEPS = 3
#: Working precision (decimal digits) of the exact path's basis computation.
EXACT_DPS = 50


@dataclass(frozen=True)
class JordanData:
    """Jordan blocks of P and the per-block factors of C_P (eq. 156).

    Attributes:
        blocks: (eigenvalue, size) per Jordan block; ``blocks[0]`` is the eigenvalue-1 block.
        log_block_products: ln(‖U_B‖_F·‖(U⁻¹)_B‖_F) per block, aligned with ``blocks``.
        method: "exact" or "dense".
        diagnostics: condition data (dense) or precision/residual data (exact).
        U, U_inv: the basis and its inverse, only when requested (``keep_basis=True``).
    """

    blocks: tuple[tuple[complex, int], ...]
    log_block_products: tuple[float, ...]
    method: str
    diagnostics: dict[str, Any] = field(default_factory=dict)
    U: np.ndarray | None = None
    U_inv: np.ndarray | None = None

    @property
    def slem(self) -> float:
        """λ̄₂: the largest modulus among the non-unit blocks (0 for a one-state chain)."""
        return max((abs(mu) for mu, _ in self.blocks[1:]), default=0.0)

    @property
    def nonunit_blocks(self) -> tuple[tuple[complex, int], ...]:
        """The blocks other than the eigenvalue-1 block."""
        return self.blocks[1:]


class _NearDefective(Exception):
    """Internal: the dense eigenbasis cannot be trusted; carries the reason."""


# ------------------------------------------------------------------------------ dense path


def _fmt(z: complex) -> str:
    return f"{z.real:.6g}" if z.imag == 0 else f"{z:.6g}"


def _close_pairs(
    evals: np.ndarray, kappa: np.ndarray, scale: float, tol: float = COALESCE_TOL
) -> np.ndarray:
    """Index pairs (i, j) with |λ_i − λ_j| ≤ tol·scale·(κ_i + κ_j) (see the constants)."""
    kmax = float(np.max(kappa))
    radius = CLUSTER_RADIUS * scale
    if math.isfinite(kmax):
        radius = min(radius, 2.0 * tol * scale * kmax)
    pts = np.column_stack([evals.real, evals.imag])
    pairs = cKDTree(pts).query_pairs(r=radius, output_type="ndarray")
    if pairs.size == 0:
        return pairs.reshape(0, 2)
    i, j = pairs[:, 0], pairs[:, 1]
    dist = np.abs(evals[i] - evals[j])
    with np.errstate(invalid="ignore"):
        keep = dist <= tol * scale * (kappa[i] + kappa[j])
    return pairs[keep]


def _eigenspace(A: np.ndarray, mu: complex, start: np.ndarray, scale: float) -> np.ndarray | None:
    """Orthonormal basis X (m×k) with AX = μX, or None when the cluster is not semisimple.

    ``start`` holds the k computed eigenvectors of the cluster: they span its invariant
    subspace up to rounding over the gap to the other eigenvalues. Block inverse iteration with a
    shift just off μ refines that span (each step shrinks the other eigenvalues' components by
    shift/gap), and the span is an eigenspace iff ‖(A − μI)X‖₂ is negligible
    (≤ RANK_TOL·scale). By Courant–Fischer ‖(A − μI)X‖₂ ≥ σ_{m−k+1}(A − μI) for any
    orthonormal m×k X, so this never accepts a cluster that the rank test on A − μI would
    reject; it costs one LU factorisation instead of an SVD. Starting from the eigenvectors
    (not a random block) matters for clusters of tiny eigenvalues (products of weak λ₂'s) whose
    neighbours are only ~10 shifts away: three steps from a random start would leave
    components of ~10⁻⁴ of them in X, and C_P off by as much.
    """
    m = A.shape[0]
    X, _ = np.linalg.qr(start)
    with warnings.catch_warnings():
        # A semisimple cluster leaves pivots ~ SHIFT·scale; an exactly zero pivot means A − μI
        # is (near-)nilpotent on the cluster (pivots ~ SHIFTⁿ), i.e. a Jordan block: refuse.
        warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)
        with np.errstate(all="ignore"):
            lu = scipy.linalg.lu_factor(A - (mu + SHIFT * scale) * np.eye(m), check_finite=False)
            for _ in range(INVERSE_STEPS):
                X = scipy.linalg.lu_solve(lu, X, check_finite=False)
                if not np.all(np.isfinite(X)):
                    return None
                X, _ = np.linalg.qr(X)
    residual = np.linalg.norm(A @ X - mu * X, 2)
    return X if residual <= RANK_TOL * scale else None


def _condition(W: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """(W⁻¹, κ) for unit-norm columns W; κ_i = ‖row i of W⁻¹‖ (inf when W is singular)."""
    try:
        W_inv = np.linalg.inv(W)
    except np.linalg.LinAlgError:
        return None, np.full(W.shape[1], np.inf)
    kappa = np.linalg.norm(W_inv, axis=1)
    if not np.all(np.isfinite(kappa)):
        return None, np.full(W.shape[1], np.inf)
    return W_inv, kappa


def _diagonalise(
    A: np.ndarray, scale: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """A = W diag(λ) W⁻¹ with unit columns, with semisimple clusters re-based orthonormally.

    ``scale`` is ‖P‖_F, the scale at which A is known. The returned info holds "groups": the
    index sets of those clusters. Raises _NearDefective when the eigenbasis is ill-determined,
    including when, with the condition numbers of the re-based basis, two computed eigenvalues
    are neither one eigenvalue nor resolved (the κ of eig's arbitrary vectors for a repeated
    eigenvalue can be huge and link a cluster to a distinct neighbour in the first pass).
    """
    m = A.shape[0]
    if m == 0 or not A.any():
        eye = np.eye(m, dtype=complex)
        info = {"max_condition": 1.0, "clusters": [], "groups": [np.arange(m)] if m > 1 else []}
        return np.zeros(m, dtype=complex), eye, eye.copy(), info
    computed, W = np.linalg.eig(A)
    evals = computed.astype(complex)
    W = W.astype(complex)
    W /= np.linalg.norm(W, axis=0)
    _, kappa = _condition(W)
    pairs = _close_pairs(evals, kappa, scale)
    clusters: list[dict[str, Any]] = []
    groups: list[np.ndarray] = []
    if pairs.size:
        graph = sps.coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(m, m))
        _, labels = connected_components(graph, directed=False)
        for label in np.unique(labels[np.unique(pairs)]):
            idx = np.flatnonzero(labels == label)
            k = idx.size
            mu = complex(np.mean(evals[idx]))
            basis = _eigenspace(A, mu, W[:, idx], scale)
            if basis is None:
                raise _NearDefective(
                    f"{k} eigenvalues cluster at {_fmt(mu)} without {k} independent "
                    "eigenvectors (a Jordan block, or distinct eigenvalues closer than double "
                    "precision resolves)"
                )
            spread = float(np.max(np.abs(evals[idx] - mu)))
            W[:, idx] = basis
            evals[idx] = mu
            clusters.append({"eigenvalue": mu, "multiplicity": k, "spread": spread})
            groups.append(idx)
    W_inv, kappa = _condition(W)
    kmax = float(np.max(kappa))
    if W_inv is None or kmax > KAPPA_MAX:
        raise _NearDefective(
            f"eigenvalue condition number {kmax:.3g} exceeds {KAPPA_MAX:.0e} (near-defective)"
        )
    # Re-check every pair on the computed eigenvalues with the condition numbers of the re-based
    # basis: the eigenvectors that eig returns for a (nearly) repeated eigenvalue are arbitrary
    # and their κ can be huge, which may have linked a cluster to a distinct neighbour; the
    # cluster's orthonormal basis gives the κ that the coalescence rule is meant to use. A pair
    # that is neither one eigenvalue nor resolved (between COALESCE_TOL and RESOLVE_TOL) is
    # refused, whether or not the first pass merged it.
    near = _close_pairs(computed.astype(complex), kappa, scale, RESOLVE_TOL)
    i, j = near[:, 0], near[:, 1]
    gap = np.abs(computed[i] - computed[j])
    unresolved = gap > COALESCE_TOL * scale * (kappa[i] + kappa[j])
    if unresolved.any():
        i, j = near[np.argmax(unresolved)]
        raise _NearDefective(
            f"eigenvalues {_fmt(computed[i])} and {_fmt(computed[j])} are distinct but too close "
            "for double precision to resolve their eigenvectors"
        )
    return evals, W, W_inv, {"max_condition": kmax, "clusters": clusters, "groups": groups}


def _dense_jordan(d: Deflation, *, keep_basis: bool) -> JordanData:
    rho = d.rho
    M = rho.size
    evals, W, W_inv, diag = _diagonalise(d.A, d.scale)
    for idx in diag.pop("groups"):
        # The cluster's rows of U⁻¹ are Y = (W⁻¹)_c Qᵀ(I − 1ρᵀ); with Y = LΣVᴴ, rotating the
        # orthonormal columns by L makes Σᵢ‖uᵢ‖‖wᵢ‖ = Σσᵢ = ‖Π‖_*, its minimum over all bases.
        Z = d.apply_Q(W_inv[idx].T).T
        left, _, _ = np.linalg.svd(Z - np.outer(Z.sum(axis=1), rho), full_matrices=False)
        W[:, idx] = W[:, idx] @ left
        W_inv[idx] = left.conj().T @ W_inv[idx]
    rho_norm = float(np.linalg.norm(rho))
    # Row i of U⁻¹ is zᵢ − (zᵢ·1)ρᵀ with zᵢ = (W⁻¹)ᵢQᵀ; Qᵀρ = 0 gives ‖row‖² = ‖zᵢ‖² + |zᵢ·1|²‖ρ‖².
    z_dot_ones = W_inv @ d.Qt_ones()
    row_norms = np.sqrt(np.linalg.norm(W_inv, axis=1) ** 2 + np.abs(z_dot_ones) ** 2 * rho_norm**2)
    logs = [math.log(math.sqrt(M) * rho_norm), *np.log(row_norms).tolist()]
    blocks = [(1.0 + 0.0j, 1), *((complex(mu), 1) for mu in evals)]
    U = U_inv = None
    if keep_basis:
        U = np.column_stack([np.ones(M, dtype=complex), d.apply_Q(W)])
        Z = d.apply_Q(W_inv.T).T  # W⁻¹Qᵀ, (M−1)×M
        U_inv = np.vstack([rho.astype(complex), Z - np.outer(Z.sum(axis=1), rho)])
    diag["cond_W_frobenius"] = float(np.linalg.norm(W) * np.linalg.norm(W_inv))
    return JordanData(tuple(blocks), tuple(logs), "dense", diag, U, U_inv)


def numeric_jordan(
    P: Any,
    rho: np.ndarray | None = None,
    *,
    keep_basis: bool = False,
    fallback: bool = True,
    rational: Any = None,
) -> JordanData:
    """Jordan data on the dense path, refusing near-defective spectra.

    Eigenvalues whose distance to coalescence |λ_i − λ_j|/(κ_i + κ_j) is below
    ``COALESCE_TOL``·‖P‖_F (κ: eigenvalue condition numbers; ‖P‖_F is the scale at which
    A = QᵀPQ is known) form clusters. A cluster of k eigenvalues at mean μ is accepted as one
    semisimple eigenvalue when its invariant subspace is an eigenspace,
    ‖(A − μI)X‖₂ ≤ ``RANK_TOL``·‖P‖_F (see :func:`_eigenspace`); its eigenvectors are then
    replaced by that orthonormal basis X (so P = 1ρᵀ up to rounding, or Kronecker products with
    repeated products, are fine), rotated so that the cluster's share of C_P is its minimum
    ‖Π_μ‖_* (see :mod:`.lemma16`).
    Otherwise, if any condition number exceeds ``KAPPA_MAX`` = 1e8, or if two distinct
    eigenvalues are closer than ``RESOLVE_TOL``·‖P‖_F·(κ_i + κ_j) (their eigenvectors, and so
    C_P, are then not determined in double precision), the spectrum is near-defective: with
    ``fallback`` and M ≤ 12 the exact path answers, on ``rational`` (the exact matrix, when the
    caller has it) or on P read through :func:`to_rational_matrix`; otherwise
    :class:`NumericalError`.

    >>> jd = numeric_jordan([[0.5, 0.5], [0.3, 0.7]])
    >>> jd.method, [round(mu.real, 12) for mu, _ in jd.blocks]
    ('dense', [1.0, 0.2])
    """
    P = as_transition_matrix(P)
    rho = gth_stationary(P) if rho is None else np.asarray(rho, dtype=np.float64)
    try:
        return _dense_jordan(deflate(P, rho), keep_basis=keep_basis)
    except _NearDefective as why:
        reason = str(why)
    M = P.shape[0]
    if fallback and M <= EXACT_MAX_STATES:
        try:
            R = to_rational_matrix(P if rational is None else rational)
        except InputError:
            R = None
        if R is not None:
            jd = exact_jordan(R, keep_basis=keep_basis)
            jd.diagnostics["fallback_reason"] = reason
            return jd
    hint = (
        "rerun with --exact giving the matrix as exact rationals (e.g. '1/3')"
        if M <= EXACT_MAX_STATES
        else f"the exact path needs at most {EXACT_MAX_STATES} states"
    )
    raise NumericalError(f"the Jordan structure of P is numerically undetermined: {reason}; {hint}")


# ------------------------------------------------------------------------------ exact path


def _block_sizes(D: DomainMatrix, g: sympy.Poly, m: int) -> list[int]:
    """Jordan block sizes at each root of the irreducible factor g (multiplicity m), exactly.

    dim ker g(P)^k = deg(g)·Σ_blocks min(n_b, k) for every root of g (Galois conjugates share
    their Jordan structure), so the ranks of g(P)^k over Q give the sizes.
    """
    M = D.shape[0]
    eye = DomainMatrix.eye(M, QQ)
    G = DomainMatrix.zeros((M, M), QQ)
    for c in g.all_coeffs():  # Horner
        G = G * D + eye * QQ.from_sympy(c)
    deg = g.degree()
    ranks = [M]
    power = eye
    while len(ranks) <= m and (len(ranks) < 2 or ranks[-1] != ranks[-2]):
        power = power * G
        ranks.append(power.rank())
    at_least = [(ranks[k - 1] - ranks[k]) // deg for k in range(1, len(ranks))]
    sizes: list[int] = []
    for k, count in enumerate(at_least, start=1):
        more = at_least[k] if k < len(at_least) else 0
        sizes += [k] * (count - more)
    return sorted(sizes, reverse=True)


def _roots(g: sympy.Poly, dps: int) -> list[Any]:
    """The roots of an irreducible rational polynomial at ``dps`` digits (exact if linear)."""
    if g.degree() == 1:
        a, b = g.all_coeffs()
        r = sympy.Rational(-b, a)
        return [mpmath.mpf(r.p) / r.q]
    out = []
    try:
        roots = g.nroots(n=dps + 10, maxsteps=500)
    except mpmath.libmp.NoConvergence:
        # e.g. a lazy chain 10⁻¹² from the identity: its eigenvalues cluster within ~10⁻¹² of 1
        raise NumericalError(
            f"the exact path could not resolve the roots of a degree-{g.degree()} factor of "
            "the characteristic polynomial (eigenvalues too tightly clustered)"
        ) from None
    for r in roots:
        re, im = (mpmath.mpf(str(part)) for part in r.as_real_imag())
        out.append(re if im == 0 else mpmath.mpc(re, im))
    return out


def _null_basis(X: mpmath.matrix, dim: int, scale: Any) -> mpmath.matrix:
    """Orthonormal basis (columns) of the dim-dimensional null space of X, checked."""
    n = X.cols
    if dim == 0:
        return mpmath.matrix(n, 0)
    _, S, V = mpmath.svd(X, full_matrices=True, compute_uv=True)
    sv = [S[i] for i in range(len(S))] + [mpmath.mpf(0)] * (n - len(S))
    tiny = scale * mpmath.mpf(10) ** (-(mpmath.mp.dps // 2))
    if max(sv[n - dim :]) > tiny or (dim < n and sv[n - dim - 1] <= tiny):
        raise NumericalError(
            "the exact path could not separate a null space at the working precision"
        )
    return V.H[:, n - dim :]


def _complement(K: mpmath.matrix, avoid: list[mpmath.matrix], count: int) -> list[Any]:
    """``count`` orthonormal vectors of span(K) orthogonal to span(avoid)."""
    R = K.copy()
    if avoid:
        B = avoid[0]
        for extra in avoid[1:]:
            B = _hstack(B, extra)
        Qb = _orthonormal(B)
        R = K - Qb * (Qb.H * K)
    U, _, _ = mpmath.svd(R, full_matrices=False, compute_uv=True)
    return [U[:, i] for i in range(count)]


def _hstack(X: mpmath.matrix, Y: mpmath.matrix) -> mpmath.matrix:
    out = mpmath.matrix(X.rows, X.cols + Y.cols)
    for i in range(X.rows):
        for j in range(X.cols):
            out[i, j] = X[i, j]
        for j in range(Y.cols):
            out[i, X.cols + j] = Y[i, j]
    return out


def _orthonormal(B: mpmath.matrix) -> mpmath.matrix:
    """Orthonormal basis of the column span of B (full column rank expected)."""
    U, S, _ = mpmath.svd(B, full_matrices=False, compute_uv=True)
    rank = sum(1 for i in range(len(S)) if S[i] > S[0] * mpmath.mpf(10) ** (-mpmath.mp.dps // 2))
    return U[:, :rank]


def _jordan_chains(A: mpmath.matrix, alpha: Any, sizes: list[int]) -> list[list[Any]]:
    """Jordan chains [N^{n−1}x, …, Nx, x] (N = A − αI) for blocks of the given sizes at α."""
    M = A.rows
    N = A - alpha * mpmath.eye(M)
    scale = max(mpmath.mnorm(A, "F"), mpmath.mpf(1))
    if sizes == [1]:  # simple eigenvalue: two steps of inverse iteration
        x = mpmath.matrix([mpmath.mpf(1) + mpmath.mpf(k) / 7 for k in range(M)])
        for _ in range(2):
            try:
                x = mpmath.lu_solve(N, x)
            except (ZeroDivisionError, TypeError):  # exactly singular (mpmath 1.3 may TypeError)
                return [[_null_basis(N, 1, scale)[:, 0]]]
            x = x / mpmath.norm(x)
        return [[x]]
    smax = sizes[0]
    kernels = [mpmath.matrix(M, 0)]
    power = mpmath.eye(M)
    for k in range(1, smax + 1):
        power = power * N
        kernels.append(_null_basis(power, sum(min(s, k) for s in sizes), scale))
    chains: list[list[Any]] = []
    for k in range(smax, 0, -1):
        count = sizes.count(k)
        if count == 0:
            continue
        avoid = [kernels[k - 1]] if kernels[k - 1].cols else []
        for chain in chains:  # images of longer chains at level k
            avoid.append(chain[k - 1])
        for top in _complement(kernels[k], avoid, count):
            chain = [top]
            for _ in range(k - 1):
                chain.append(N * chain[-1])
            chains.append(chain[::-1])
    return chains


def _optimal_semisimple_basis(U: mpmath.matrix, U_inv: mpmath.matrix, cols: range) -> None:
    """Rotate orthonormal eigenvector columns ``cols`` of U in place (with the rows of U⁻¹) so
    that Σ‖uᵢ‖‖wᵢ‖ over them is ‖Π‖_*, its minimum (see :mod:`.lemma16`)."""
    rows = U_inv[cols.start : cols.stop, :]
    left, _, _ = mpmath.svd(rows, full_matrices=False, compute_uv=True)
    U[:, cols.start : cols.stop] = U[:, cols.start : cols.stop] * left
    U_inv[cols.start : cols.stop, :] = left.H * rows


def exact_jordan(P: Any, *, keep_basis: bool = False, dps: int = EXACT_DPS) -> JordanData:
    """Jordan data with the structure decided exactly over Q and the basis at ``dps`` digits.

    1. charpoly(P) is factored over Q into irreducible factors g^m;
    2. the block sizes at each root of g come from the exact ranks of g(P)^k (see
       :func:`_block_sizes`): this is where the Jordan structure is decided, with no tolerance;
    3. the roots of g are computed to ``dps`` digits (exactly when g is linear) and Jordan
       chains of known sizes are built from null spaces of known dimension, so no rank
       decision is made in floating point; U⁻¹ is inverted at ``dps`` digits and the residual
       ‖U⁻¹PU − J‖ is checked. A repeated semisimple eigenvalue gets the eigenbasis that
       minimises its share of C_P, as on the dense path.
    """
    R = to_rational_matrix(P)
    check_assumption1(R)
    M = R.rows
    D = DomainMatrix.from_Matrix(R).convert_to(QQ)
    x = sympy.Symbol("x")
    charpoly = sympy.Poly(D.charpoly(), x, domain=QQ)
    with mpmath.workdps(dps):
        A = mpmath.matrix([[mpmath.mpf(v.p) / v.q for v in row] for row in R.tolist()])
        found: list[tuple[Any, list[list[Any]]]] = []  # (eigenvalue, its Jordan chains)
        for g, m in charpoly.factor_list()[1]:
            sizes = _block_sizes(D, g, m)
            found += [(alpha, _jordan_chains(A, alpha, sizes)) for alpha in _roots(g, dps)]
        found.sort(key=lambda item: item[0] != 1)  # the eigenvalue-1 block goes first
        U = mpmath.matrix(M, M)
        blocks: list[tuple[Any, int]] = []
        semisimple: list[range] = []
        j = 0
        for alpha, chains in found:
            if len(chains) > 1 and all(len(c) == 1 for c in chains):
                semisimple.append(range(j, j + len(chains)))
            for chain in chains:
                blocks.append((alpha, len(chain)))
                for col in chain:
                    for i in range(M):
                        U[i, j] = col[i]
                    j += 1
        U_inv = mpmath.inverse(U)
        for cols in semisimple:
            _optimal_semisimple_basis(U, U_inv, cols)
        J = mpmath.matrix(M, M)
        start = 0
        for alpha, n in blocks:
            for k in range(n):
                J[start + k, start + k] = alpha
                if k + 1 < n:
                    J[start + k, start + k + 1] = 1
            start += n
        residual = mpmath.mnorm(U_inv * A * U - J, "F") / mpmath.mnorm(J, "F")
        if residual > mpmath.mpf(10) ** (-(dps // 2)):
            raise NumericalError(f"exact Jordan basis residual {float(residual):.3g} too large")
        logs = []
        start = 0
        for _, n in blocks:
            cols = U[:, start : start + n]
            rows = U_inv[start : start + n, :]
            logs.append(float(mpmath.log(mpmath.mnorm(cols, "F") * mpmath.mnorm(rows, "F"))))
            start += n
        out_blocks = tuple((complex(alpha), n) for alpha, n in blocks)
        diag = {"precision_digits": dps, "residual": float(residual)}
        if keep_basis:
            U_np = np.array(U.tolist(), dtype=complex)
            Ui_np = np.array(U_inv.tolist(), dtype=complex)
            return JordanData(out_blocks, tuple(logs), "exact", diag, U_np, Ui_np)
    return JordanData(out_blocks, tuple(logs), "exact", diag)
