"""Hypothesis strategies for dense chains: valid ones, defective ones, and invalid ones.

* :func:`irreducible_chains`: float chains satisfying Assumption 1 by construction (positive
  diagonal ⇒ aperiodic; a random Hamiltonian cycle ⇒ irreducible), with optional zeros.
* :func:`rational_chains`: strictly positive rational chains with small denominators.
* :func:`defective_chains`: rational chains with a *known* Jordan structure, built as
  P = βI + (1 − β)(1ρᵀ + α V K Yᵀ), where K is a Jordan matrix (blocks μ_b I + N_b),
  [1, V] is an exact basis with ρᵀV = 0 and [ρᵀ; Yᵀ] is its inverse, α shrinks K until P > 0
  and β makes the chain lazy. P is similar to diag(1, β + (1 − β)αK), so its blocks are
  (β + (1 − β)αμ_b, n_b) exactly.
* :func:`reducible_chains` / :func:`periodic_chains`: negative cases with the expected number
  of communicating classes / period.

Randomness beyond hypothesis' own draws comes from :func:`fltheory.rng.generator`, seeded by
a drawn integer.
"""

from dataclasses import dataclass

import numpy as np
import sympy
from hypothesis import strategies as st

from fltheory.rng import generator

_SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@st.composite
def irreducible_chains(
    draw: st.DrawFn, min_states: int = 2, max_states: int = 8, zeros: bool = True
) -> np.ndarray:
    """A float M×M chain with M in [min_states, max_states] satisfying Assumption 1.

    >>> from hypothesis import given, settings
    >>> from fltheory.markov import MarkovChain
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(irreducible_chains(max_states=5))
    ... def test(P):
    ...     assert MarkovChain(P).slem < 1.0  # Assumption 1 holds: the constructor accepts P
    >>> test()
    """
    M = draw(st.integers(min_states, max_states))
    rng = generator(draw(_SEEDS), "testing.chains.irreducible")
    density = draw(st.sampled_from([0.0, 0.3, 0.7, 1.0])) if zeros else 1.0
    W = rng.uniform(0.05, 1.0, (M, M)) * (rng.random((M, M)) < density)
    np.fill_diagonal(W, rng.uniform(0.05, 1.0, M))
    cycle = rng.permutation(M)
    W[cycle, np.roll(cycle, -1)] += rng.uniform(0.05, 1.0, M)
    return W / W.sum(axis=1, keepdims=True)


@st.composite
def rational_chains(draw: st.DrawFn, min_states: int = 2, max_states: int = 5) -> sympy.Matrix:
    """A strictly positive rational chain: row i is w_i/Σw_i with integer weights 1..9.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(rational_chains())
    ... def test(P):
    ...     assert all(sum(P.row(i)) == 1 for i in range(P.rows))  # exactly
    >>> test()
    """
    M = draw(st.integers(min_states, max_states))
    rows = draw(
        st.lists(st.lists(st.integers(1, 9), min_size=M, max_size=M), min_size=M, max_size=M)
    )
    return sympy.Matrix([[sympy.Rational(w, sum(r)) for w in r] for r in rows])


@dataclass(frozen=True)
class DefectiveChain:
    """A rational chain and its exact non-unit Jordan blocks (eigenvalue, size)."""

    P: sympy.Matrix
    blocks: tuple[tuple[sympy.Rational, int], ...]


def defective_chain(
    rho_weights: list[int],
    jordan: list[tuple[sympy.Rational, int]],
    lazy: sympy.Rational | int = 0,
    superdiag: sympy.Rational | int = 1,
    shifts: list[sympy.Rational] | None = None,
) -> DefectiveChain:
    """The construction of the module docstring for given ρ weights and Jordan blocks.

    ``jordan`` lists (μ_b, n_b); ``superdiag`` is the coupling inside each block. ``shifts``
    (one per state of K, optional) are added to K's diagonal and must make it duplicate-free:
    with a tiny shift a Jordan block becomes a near-defective cluster of simple eigenvalues
    (the returned ``blocks`` then list them, each of size 1).
    """
    rho = [sympy.Rational(w, sum(rho_weights)) for w in rho_weights]
    lazy, superdiag = sympy.Rational(lazy), sympy.Rational(superdiag)
    M = len(rho)
    m = M - 1
    if sum(n for _, n in jordan) != m:
        raise ValueError("the Jordan block sizes must add up to len(rho_weights) - 1")
    K = sympy.zeros(m, m)
    start = 0
    for mu, n in jordan:
        for k in range(n):
            K[start + k, start + k] = mu
            if k + 1 < n:
                K[start + k, start + k + 1] = superdiag
        start += n
    if shifts is not None:
        for k, s in enumerate(shifts):
            K[k, k] += s
        if len(set(K.diagonal())) != m:
            raise ValueError("shifts must make the diagonal of K duplicate-free")
    V = sympy.zeros(M, m)
    for k in range(1, M):
        V[k, k - 1] = 1
        V[0, k - 1] = -rho[k] / rho[0]
    U = sympy.Matrix.hstack(sympy.ones(M, 1), V)
    Y = U.inv()[1:, :]
    core = V * K * Y
    one_rho = sympy.ones(M, 1) * sympy.Matrix([rho])
    ratios = [rho[j] / -core[i, j] for i in range(M) for j in range(M) if core[i, j] < 0]
    alpha = min([sympy.Integer(1), *(r / 2 for r in ratios)])
    P = lazy * sympy.eye(M) + (1 - lazy) * (one_rho + alpha * core)
    if shifts is None:
        blocks = tuple((lazy + (1 - lazy) * alpha * mu, n) for mu, n in jordan)
    else:
        blocks = tuple((lazy + (1 - lazy) * alpha * K[k, k], 1) for k in range(m))
    return DefectiveChain(P, blocks)


@st.composite
def defective_chains(draw: st.DrawFn, max_states: int = 6) -> DefectiveChain:
    """A chain with at least one Jordan block of size 2 or 3 at a known rational eigenvalue.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(defective_chains(max_states=4))
    ... def test(chain):
    ...     assert max(size for _, size in chain.blocks) >= 2
    ...     assert all(sum(chain.P.row(i)) == 1 for i in range(chain.P.rows))
    >>> test()
    """
    sizes = [draw(st.integers(2, 3))]
    while sum(sizes) < max_states - 1 and draw(st.booleans()):
        sizes.append(draw(st.integers(1, min(3, max_states - 1 - sum(sizes)))))
    eigen = [sympy.Rational(draw(st.integers(-8, 9)), 10) for _ in sizes]
    rho_weights = draw(
        st.lists(st.integers(1, 5), min_size=sum(sizes) + 1, max_size=sum(sizes) + 1)
    )
    lazy = sympy.Rational(draw(st.integers(0, 3)), 4)
    return defective_chain(rho_weights, list(zip(eigen, sizes, strict=True)), lazy)


@st.composite
def reducible_chains(draw: st.DrawFn) -> tuple[np.ndarray, int]:
    """(P, number of communicating classes) for a chain with ≥ 2 classes.

    Closed classes are dense blocks; each transient state keeps a self-loop and leaks into
    one closed class, so it is a class of its own.

    >>> from hypothesis import given, settings
    >>> import pytest
    >>> from fltheory.errors import AssumptionViolation
    >>> from fltheory.markov import MarkovChain
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(reducible_chains())
    ... def test(chain):
    ...     P, n_classes = chain
    ...     assert n_classes >= 2
    ...     with pytest.raises(AssumptionViolation, match="reducible"):
    ...         MarkovChain(P)
    >>> test()
    """
    n_closed = draw(st.integers(1, 3))
    n_transient = draw(st.integers(0 if n_closed > 1 else 1, 2))
    sizes = [draw(st.integers(1, 2)) for _ in range(n_closed)]
    M = sum(sizes) + n_transient
    rng = generator(draw(_SEEDS), "testing.chains.reducible")
    W = np.zeros((M, M))
    start = 0
    for s in sizes:
        W[start : start + s, start : start + s] = rng.uniform(0.1, 1.0, (s, s))
        start += s
    for t in range(start, M):
        W[t, t] = rng.uniform(0.1, 1.0)
        W[t, rng.integers(0, start)] = rng.uniform(0.1, 1.0)
    order = rng.permutation(M)
    W = W[np.ix_(order, order)]
    return W / W.sum(axis=1, keepdims=True), n_closed + n_transient


@st.composite
def periodic_chains(draw: st.DrawFn) -> tuple[np.ndarray, int]:
    """(P, period d ≥ 2): states split in d groups, moves only from group g to g + 1 mod d.

    >>> from hypothesis import given, settings
    >>> import pytest
    >>> from fltheory.errors import AssumptionViolation
    >>> from fltheory.markov import MarkovChain
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(periodic_chains())
    ... def test(chain):
    ...     P, period = chain
    ...     with pytest.raises(AssumptionViolation, match=f'period {period}'):
    ...         MarkovChain(P)
    >>> test()
    """
    d = draw(st.integers(2, 4))
    sizes = [draw(st.integers(1, 2)) for _ in range(d)]
    rng = generator(draw(_SEEDS), "testing.chains.periodic")
    groups = np.split(rng.permutation(sum(sizes)), np.cumsum(sizes)[:-1])
    M = sum(sizes)
    W = np.zeros((M, M))
    for g in range(d):
        src, dst = groups[g], groups[(g + 1) % d]
        W[np.ix_(src, dst)] = rng.uniform(0.1, 1.0, (src.size, dst.size))
    return W / W.sum(axis=1, keepdims=True), d
