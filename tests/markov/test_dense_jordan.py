"""Jordan data: the U/U⁻¹ algebra, near-defective detection, and exact vs dense paths."""

import math
from functools import reduce

import numpy as np
import pytest
import scipy.linalg
import sympy
from hypothesis import assume, given, settings

from fltheory.errors import InputError, NumericalError
from fltheory.markov.chain import MarkovChain
from fltheory.markov.jordan import exact_jordan, numeric_jordan
from fltheory.markov.lemma16 import log_C_P
from fltheory.markov.population import ca_fed_population
from fltheory.testing.chains import (
    defective_chain,
    defective_chains,
    irreducible_chains,
    rational_chains,
)

R = sympy.Rational


def _float(P) -> np.ndarray:
    return np.array(sympy.Matrix(P).tolist(), dtype=float)


def _jordan_matrix(blocks) -> np.ndarray:
    M = sum(n for _, n in blocks)
    J = np.zeros((M, M), dtype=complex)
    k = 0
    for mu, n in blocks:
        J[k : k + n, k : k + n] = mu * np.eye(n) + np.eye(n, k=1)
        k += n
    return J


def _explicit_log_products(jd) -> list[float]:
    out, k = [], 0
    for _, n in jd.blocks:
        cols, rows = jd.U[:, k : k + n], jd.U_inv[k : k + n, :]
        out.append(math.log(np.linalg.norm(cols) * np.linalg.norm(rows)))
        k += n
    return out


def _sorted_blocks(blocks) -> list[tuple[float, float, int]]:
    return sorted((complex(mu).real, complex(mu).imag, n) for mu, n in blocks)


@given(irreducible_chains())
def test_dense_basis_algebra(P):
    jd = numeric_jordan(P, keep_basis=True)
    assert jd.method == "dense" and jd.blocks[0] == (1.0, 1)
    M = P.shape[0]
    U, Ui = jd.U, jd.U_inv
    scale = max(1.0, np.linalg.norm(U) * np.linalg.norm(Ui))
    np.testing.assert_allclose(U @ Ui, np.eye(M), atol=1e-13 * scale)
    np.testing.assert_allclose(Ui @ P @ U, _jordan_matrix(jd.blocks), atol=1e-12 * scale)
    np.testing.assert_allclose(jd.log_block_products, _explicit_log_products(jd), atol=1e-10)


@settings(max_examples=15)
@given(defective_chains(max_states=5))
def test_exact_basis_algebra_with_jordan_blocks(dc):
    jd = exact_jordan(dc.P, keep_basis=True)
    P = _float(dc.P)
    np.testing.assert_allclose(jd.U @ jd.U_inv, np.eye(P.shape[0]), atol=1e-12)
    np.testing.assert_allclose(jd.U_inv @ P @ jd.U, _jordan_matrix(jd.blocks), atol=1e-12)
    np.testing.assert_allclose(jd.log_block_products, _explicit_log_products(jd), atol=1e-10)


@settings(max_examples=25)
@given(defective_chains())
def test_exact_path_recovers_the_constructed_structure_and_dense_path_refuses(dc):
    jd = exact_jordan(dc.P)
    assert jd.method == "exact"
    got, want = _sorted_blocks(jd.nonunit_blocks), _sorted_blocks(dc.blocks)
    assert [n for *_, n in got] == [n for *_, n in want]
    np.testing.assert_allclose([g[:2] for g in got], [w[:2] for w in want], atol=1e-15)
    with pytest.raises(NumericalError, match="numerically undetermined"):
        numeric_jordan(_float(dc.P), fallback=False)


@pytest.mark.parametrize(
    ("rho", "blocks"),
    [
        ([2, 1, 1], [(R(1, 2), 2)]),
        ([1, 2, 3, 1], [(R(3, 10), 3)]),
        ([3, 1, 2, 2], [(R(-1, 5), 2), (R(2, 5), 1)]),
    ],
)
def test_exact_structure_agrees_with_sympy_jordan_form(rho, blocks):
    dc = defective_chain(rho, blocks, lazy=R(1, 4))
    _, J = dc.P.jordan_form()  # all eigenvalues rational here, so sympy is fast
    theirs, k = [], 0
    while k < J.rows:
        n = 1
        while k + n < J.rows and J[k + n - 1, k + n] == 1:
            n += 1
        theirs.append((J[k, k], n))
        k += n
    ours = exact_jordan(dc.P).blocks
    assert _sorted_blocks(ours) == _sorted_blocks(theirs)


def test_near_defective_pair_with_condition_1e10_is_flagged():
    # K = [[μ, 1], [0, μ + δ]]: distinct eigenvalues, eigenvector condition ~ 1/δ.
    dc = defective_chain([2, 1, 1], [(R(1, 2), 2)], lazy=R(1, 4), shifts=[0, R(1, 10**10)])
    jd = exact_jordan(dc.P)
    assert [n for _, n in jd.blocks] == [1, 1, 1]
    assert max(jd.log_block_products) > math.log(1e9)  # the exact path sees κ ≳ 1e9
    with pytest.raises(NumericalError, match="numerically undetermined"):
        numeric_jordan(_float(dc.P), fallback=False)


def test_dense_path_falls_back_to_exact_on_a_decimal_defective_chain():
    P = [[0.3, 0.3, 0.4], [0.3, 0.5, 0.2], [0.1, 0.3, 0.6]]  # Jordan block of size 2 at 1/5
    jd = numeric_jordan(P)
    assert jd.method == "exact" and "Jordan block" in jd.diagnostics["fallback_reason"]
    assert _sorted_blocks(jd.nonunit_blocks) == [(0.2, 0.0, 2)]


def test_dense_path_explains_when_no_exact_fallback_is_possible():
    dc = defective_chain([1, 1, 1], [(R(1, 2), 2)])  # entries with denominator 3
    with pytest.raises(NumericalError, match="--exact"):
        numeric_jordan(_float(dc.P))
    big = defective_chain([1] * 13, [(R(1, 2), 3)] + [(R(k, 20), 1) for k in range(9)])
    with pytest.raises(NumericalError, match="at most 12"):
        numeric_jordan(_float(big.P))


@pytest.mark.parametrize("beta", [0.5, 0.0])
def test_repeated_semisimple_eigenvalue_is_not_flagged(beta):
    rho = np.array([0.1, 0.2, 0.3, 0.15, 0.25])
    P = beta * np.eye(5) + (1 - beta) * np.outer(np.ones(5), rho)
    jd = numeric_jordan(P, keep_basis=True, fallback=False)
    assert jd.method == "dense"
    assert [n for _, n in jd.blocks] == [1] * 5
    np.testing.assert_allclose([mu for mu, _ in jd.nonunit_blocks], beta, atol=1e-14)
    np.testing.assert_allclose(jd.U_inv @ P @ jd.U, _jordan_matrix(jd.blocks), atol=1e-13)
    assert jd.diagnostics["max_condition"] < 10


def test_kronecker_square_with_repeated_products_is_not_flagged():
    P1 = np.array([[0.5, 0.3, 0.2], [0.1, 0.6, 0.3], [0.4, 0.1, 0.5]])
    P = np.kron(P1, P1)  # eigenvalues λᵢλⱼ = λⱼλᵢ repeat
    jd = numeric_jordan(P, keep_basis=True, fallback=False)
    assert jd.method == "dense"
    assert sum(c["multiplicity"] for c in jd.diagnostics["clusters"]) >= 4
    np.testing.assert_allclose(jd.U_inv @ P @ jd.U, _jordan_matrix(jd.blocks), atol=1e-12)


@settings(max_examples=25)
@given(rational_chains(max_states=5))
def test_exact_and_dense_constants_agree_on_well_conditioned_chains(Rm):
    exact = exact_jordan(Rm)
    assume(all(n == 1 for _, n in exact.blocks))  # the dense path refuses Jordan blocks
    dense = numeric_jordan(_float(Rm), fallback=False)
    assert dense.slem == pytest.approx(exact.slem, rel=1e-8, abs=1e-15)
    assert log_C_P(dense) == pytest.approx(log_C_P(exact), abs=1e-8)


@given(irreducible_chains())
def test_dense_C_P_is_the_sum_of_eigenvalue_condition_numbers(P):
    """For distinct eigenvalues, C_P = √(M−1)·Σᵢ ‖uᵢ‖‖wᵢ‖/|wᵢuᵢ| (independent left/right eig)."""
    w, left, right = scipy.linalg.eig(P, left=True, right=True)
    assume(np.min(np.abs(w[:, None] - w[None, :]) + np.eye(w.size)) > 1e-6)
    overlap = np.abs(np.sum(left.conj() * right, axis=0))
    kappa = np.linalg.norm(left, axis=0) * np.linalg.norm(right, axis=0) / overlap
    M = P.shape[0]
    expected = 0.5 * math.log(M - 1) + math.log(kappa.sum())
    assert log_C_P(numeric_jordan(P)) == pytest.approx(expected, abs=1e-8)


def test_repeated_semisimple_eigenvalue_gets_the_optimal_basis_on_both_paths():
    # P = βI + (1 − β)1ρᵀ: eigenvalue β on ker ρᵀ with spectral projector Π = I − 1ρᵀ. The least
    # Σᵢ‖uᵢ‖‖wᵢ‖ over its eigenbases is the nuclear norm ‖Π‖_* (triangle inequality on
    # Π = Σᵢ uᵢwᵢ, attained by the SVD of Π).
    rho = [R(1, 10), R(2, 10), R(3, 10), R(4, 10)]
    beta = R(1, 2)
    Pr = beta * sympy.eye(4) + (1 - beta) * sympy.ones(4, 1) * sympy.Matrix([rho])
    r = np.array(rho, dtype=float)
    Pi = np.eye(4) - np.outer(np.ones(4), r)
    nuclear = np.linalg.svd(Pi, compute_uv=False).sum()
    expected = 0.5 * math.log(3) + math.log(2 * np.linalg.norm(r) + nuclear)
    assert log_C_P(exact_jordan(Pr)) == pytest.approx(expected, abs=1e-12)
    assert log_C_P(numeric_jordan(_float(Pr), fallback=False)) == pytest.approx(expected, abs=1e-12)


def test_kronecker_chain_basis_is_no_better_than_ours():
    # For P = P₁⊗P₂⊗P₃ with equal factors, U = ⊗Uₖ is one valid eigenbasis (repeated
    # eigenvalues): its Σ‖uᵢ‖‖wᵢ‖ can only be ≥ the optimum; for distinct factors (all
    # eigenvalue products distinct) the eigenbasis is unique up to scaling and they agree.
    def two_state(a, b):
        return np.array([[1 - a, a], [b, 1 - b]])

    for factors, same in [
        ([two_state(0.2, 0.3)] * 3, True),
        ([two_state(0.2, 0.3), two_state(0.1, 0.5), two_state(0.45, 0.15)], False),
    ]:
        P = reduce(np.kron, factors)
        bases = [np.linalg.eig(F)[1] for F in factors]
        U = reduce(np.kron, bases)
        Ui = np.linalg.inv(U)
        kron_sum = float(np.sum(np.linalg.norm(U, axis=0) * np.linalg.norm(Ui, axis=1)))
        kron_log = 0.5 * math.log(7) + math.log(kron_sum)
        ours = log_C_P(numeric_jordan(P, fallback=False))
        if same:
            assert ours <= kron_log + 1e-12
        else:
            assert ours == pytest.approx(kron_log, abs=1e-10)


def test_exact_and_dense_agree_on_complex_eigenvalues():
    half = R(1, 2)
    P = sympy.Matrix([[half, half, 0], [0, half, half], [half, 0, half]])  # (I + C)/2
    exact, dense = exact_jordan(P), numeric_jordan(_float(P), fallback=False)
    assert exact.slem == pytest.approx(0.5, rel=1e-15)  # |1/2 + ω/2| = 1/2
    assert any(abs(mu.imag) > 0.4 for mu, _ in exact.nonunit_blocks)
    assert log_C_P(dense) == pytest.approx(log_C_P(exact), abs=1e-12)
    # normal matrix: every eigenvalue condition number is 1, so C_P = √2·(√3·‖ρ‖ + 2)
    assert log_C_P(exact) == pytest.approx(math.log(math.sqrt(2) * (1 + 2)), abs=1e-12)


def test_exact_path_sees_semisimple_repeated_eigenvalue():
    P = R(1, 2) * sympy.eye(4) + R(1, 2) * sympy.ones(4, 1) * sympy.Matrix([[R(1, 4)] * 4])
    jd = exact_jordan(P)
    assert _sorted_blocks(jd.nonunit_blocks) == [(0.5, 0.0, 1)] * 3


def test_exact_path_input_limits():
    with pytest.raises(InputError, match="at most 12"):
        exact_jordan(np.full((13, 13), 1 / 13))
    with pytest.raises(InputError, match="sums to"):
        exact_jordan([[1 / 3, 2 / 3], [2 / 3, 1 / 3]])


# Companion matrices are non-derogatory: one Jordan block per distinct eigenvalue. The last
# row (c₀, …, c_{M−1}) is the char. polynomial (x − 1)(x − μ)^{M−1}: μ = −1/2 for M = 3 gives
# (1/4, 3/4, 0), μ = −1/3 for M = 4 gives (1/27, 8/27, 2/3, 0). Both graphs hold cycles of
# coprime lengths, so Assumption 1 holds; the lazy chain (I + C)/2 moves μ to (1 + μ)/2.
_COMPANION_3 = [[0, 1, 0], [0, 0, 1], [R(1, 4), R(3, 4), 0]]
_COMPANION_4 = [[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [R(1, 27), R(8, 27), R(2, 3), 0]]


def _lazy(C) -> sympy.Matrix:
    C = sympy.Matrix(C)
    return (sympy.eye(C.rows) + C) / 2


@pytest.mark.parametrize(
    ("C", "block"), [(_COMPANION_3, (0.25, 0.0, 2)), (_COMPANION_4, (1 / 3, 0.0, 3))]
)
def test_lazy_companion_chains(C, block):
    P = _lazy(C)
    assert _sorted_blocks(exact_jordan(P).nonunit_blocks) == [pytest.approx(block, abs=1e-15)]
    with pytest.raises(NumericalError, match="numerically undetermined"):
        numeric_jordan(_float(P), fallback=False)
    if P.rows == 3:  # entries 1/8, 3/8, 1/2: decimals, so the dense path falls back by itself
        assert numeric_jordan(_float(P)).method == "exact"
    else:  # 1/54 has no short decimal form: the dense path must refuse and point to --exact
        with pytest.raises(NumericalError, match="--exact"):
            numeric_jordan(_float(P))


@pytest.mark.parametrize(
    "n",
    [6, 7, 8, pytest.param(9, marks=pytest.mark.slow), pytest.param(10, marks=pytest.mark.slow)],
)
def test_dense_path_matches_the_structured_C_P_or_refuses(n):
    """Regression: many distinct tiny eigenvalues (products of weak λ₂ ~ 1e-2) must not be
    merged into one cluster, nor their barely resolved eigenvectors trusted; the dense path
    either matches ProductChain's ln C_P (an independent Kronecker computation) or refuses."""
    chain = ca_fed_population(n=n, split="random", seed=n).chain()
    dense = MarkovChain(chain.dense_matrix(), state_clients=None)
    try:
        log_C_P = dense.constants(exact=False).log_C_P
    except NumericalError as err:
        assert "too close for double precision" in str(err)
        assert n >= 8
        return
    assert log_C_P == pytest.approx(chain.log_C_P, rel=1e-9)


def test_root_solver_failure_is_a_numerical_error():
    """Regression: four roots within 10⁻⁶ of each other (and of 1) made sympy's nroots raise
    mpmath's NoConvergence, which escaped as an internal error; it is now a NumericalError
    (the exact path declines the chain)."""
    from fltheory.markov.jordan import _roots

    x = sympy.symbols("x")
    e = sympy.Rational(1, 10**6)
    g = sympy.Poly(sympy.prod([x - 1 + k * e for k in range(1, 5)]) + e**5, x)
    with pytest.raises(NumericalError, match="tightly clustered"):
        _roots(g, 30)
