"""The basis-independent C_P of eq. (156) for product chains, on both paths.

Oracle: the spectral projectors Π_μ built explicitly from the two-state factors
E_{k,0} = 1ρₖᵀ, E_{k,1} = (πₖ, πₖ − 1)ᵀ(1, −1) (eqs. 230–236), grouped by EXACT eigenvalue
products (Fractions), and their nuclear norms from numpy's SVD. C_P = √(M − 1)·Σ_μ ‖Π_μ‖_*.
Both library paths — the structured closed forms/group norms (:mod:`fltheory.markov.projectors`)
and the dense Jordan path on ``.dense()`` — must reproduce it; so must each other (path
independence), or the dense path must refuse with NumericalError.
"""

import itertools
import math
from fractions import Fraction
from functools import reduce

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from fltheory.errors import NumericalError
from fltheory.markov import MarkovChain, ProductChain, ca_fed_population
from fltheory.markov.projectors import (
    SEARCH_MAX_CLIENTS,
    closed_form_log_sum,
    coincidence_groups,
    deflated_condition_numbers,
    group_nuclear_norm,
    projector_norm_sum,
    searched_log_sum,
)
from fltheory.markov.spectrum import deflate
from fltheory.rng import generator
from fltheory.testing.product import repeated_product_chains


def _factors(p: float) -> tuple[np.ndarray, np.ndarray]:
    return np.outer([1.0, 1.0], [1.0 - p, p]), np.outer([p, p - 1.0], [1.0, -1.0])


def exact_projector_sum(pi, lambda2, key=lambda mu: mu) -> float:
    """Σ_μ ‖Π_μ‖_* with Π_μ = Σ_{S: Π_{k∈S} λₖ = μ} ⊗ₖ E_{k,[k∈S]}, μ compared exactly (or
    by ``key(μ)``, to merge eigenvalues on purpose)."""
    lam = [Fraction(x) for x in lambda2]
    factors = [_factors(float(p)) for p in pi]
    projectors: dict[Fraction, np.ndarray] = {}
    for bits in itertools.product((0, 1), repeat=len(lam)):
        mu = key(math.prod((lam[k] for k, b in enumerate(bits) if b), start=Fraction(1)))
        term = reduce(np.kron, [factors[k][b] for k, b in enumerate(bits)])
        projectors[mu] = projectors.get(mu, 0.0) + term
    return float(sum(np.linalg.svd(Pi, compute_uv=False).sum() for Pi in projectors.values()))


def kronecker_sum(pi) -> float:
    """Σ over all S of ‖u_S‖‖w_S‖ = Πₖ 2√2·sqrt(πₖ² + (1 − πₖ)²): the Kronecker basis."""
    pi = np.asarray(pi, dtype=float)
    return float(np.prod(2.0 * math.sqrt(2.0) * np.sqrt(pi**2 + (1.0 - pi) ** 2)))


def log_C_P(total: float, n: int) -> float:
    return 0.5 * math.log(2**n - 1) + math.log(total)


CASES = [
    # (π, λ₂ as exact strings, Σ‖Π_μ‖_* to 5 decimals or None)
    ([0.5, 0.3, 0.8], ["0", "0", "0"], 8.51205),  # three Bernoulli clients: C_P = 22.52
    ([0.5, 0.3, 0.8, 0.6], ["0", "0", "1/2", "1/2"], 17.43173),
    ([0.7, 0.2, 0.6], ["1/2", "1/2", "1/4"], 10.24540),  # 0.5·0.5 = 0.25
    ([0.7, 0.2, 0.6], ["1/2", "1/2", "1/2"], None),  # equal λ₂, mixed π
    ([0.3] * 5, ["1/2"] * 5, None),  # identical clients
    ([0.9, 0.1, 0.5], ["0", "9/10", "0"], None),
    ([0.999, 0.001, 0.5, 0.3], ["-1/1000", "0", "0", "-1/1000"], None),  # π at the boundary
]


@pytest.mark.parametrize(("pi", "lam", "value"), CASES)
def test_both_paths_equal_the_exact_projector_norms(pi, lam, value) -> None:
    lambda2 = [float(Fraction(x)) for x in lam]
    expected = exact_projector_sum(pi, lam)
    if value is not None:
        assert expected == pytest.approx(value, abs=5e-6)
    chain = ProductChain(pi, lambda2)
    n = len(pi)
    assert chain.log_C_P == pytest.approx(log_C_P(expected, n), rel=1e-12)
    dense = chain.dense().constants(exact=False)
    assert dense.log_C_P == pytest.approx(log_C_P(expected, n), rel=1e-9)
    assert dense.C_P_minimal and chain.C_P_minimal
    assert chain.log_C_P <= log_C_P(kronecker_sum(pi), n) + 1e-12


def test_the_reported_numbers() -> None:
    assert ProductChain([0.5, 0.3, 0.8], [0, 0, 0]).C_P == pytest.approx(22.5208, abs=1e-4)
    assert ProductChain([0.5, 0.3, 0.8], [0, 0, 0]).dense().constants().C_P == pytest.approx(
        22.5208, abs=1e-4
    )
    # Only equal λ₂ coincide (Kronecker basis optimal) ...
    equal = exact_projector_sum([0.7, 0.2, 0.6], ["1/2"] * 3)
    assert equal == pytest.approx(kronecker_sum([0.7, 0.2, 0.6]), rel=1e-13)
    # ... while 0.5·0.5 = 0.25 merges different values, below the Kronecker basis.
    assert kronecker_sum([0.7, 0.2, 0.6]) == pytest.approx(10.24720, abs=5e-6)


def test_ca_fed_population_6_paths_agree() -> None:
    """Only equal λ₂ (0.9) coincide: the structured value is the minimum, the dense path (once
    2240.739: a random start of the cluster's inverse iteration) now matches it."""
    pop = ca_fed_population(6)
    chain = pop.chain()
    expected = log_C_P(exact_projector_sum(pop.pi, pop.lambda2), 6)
    assert chain.log_C_P == pytest.approx(expected, rel=1e-12)
    assert chain.C_P == pytest.approx(2240.690087, rel=1e-9)
    assert chain.dense().constants(exact=False).log_C_P == pytest.approx(expected, rel=1e-9)


@given(repeated_product_chains(max_clients=5))
def test_structured_equals_exact_projectors(chain: ProductChain) -> None:
    """Whenever distinct exact products are not within rounding of each other (so the
    coalescence rule groups exactly the equal ones), the structured C_P is the oracle's."""
    lam = [Fraction(float(x)) for x in chain.lambda2]
    products = {
        math.prod((lam[k] for k, b in enumerate(bits) if b), start=Fraction(1))
        for bits in itertools.product((0, 1), repeat=chain.n_clients)
    }
    values = sorted(float(x) for x in products)
    assume(all(b - a > 1e-9 for a, b in itertools.pairwise(values)))
    expected = log_C_P(exact_projector_sum(chain.client_availability, lam), chain.n_clients)
    assert chain.log_C_P == pytest.approx(expected, rel=1e-11)


def assert_C_P_same_both_ways(chain: ProductChain) -> None:
    """Structured vs ``.dense()``: the same C_P, or an honest NumericalError."""
    try:
        dense = chain.dense().constants(exact=False)
    except NumericalError as err:
        assert "numerically undetermined" in str(err)
        return
    assert dense.log_C_P == pytest.approx(chain.log_C_P, rel=1e-9)
    assert dense.slem == pytest.approx(chain.slem, abs=1e-12)


@settings(max_examples=40)
@given(repeated_product_chains(max_clients=7))
def test_C_P_does_not_depend_on_how_the_chain_is_entered(chain: ProductChain) -> None:
    assert_C_P_same_both_ways(chain)


@pytest.mark.slow
@settings(max_examples=60)
@given(repeated_product_chains(max_clients=9))
def test_C_P_does_not_depend_on_how_the_chain_is_entered_up_to_512_states(
    chain: ProductChain,
) -> None:
    assert_C_P_same_both_ways(chain)


def test_dense_path_refuses_a_cluster_linked_by_arbitrary_eigenvectors() -> None:
    """λ₂ = 10⁻⁴ five times: products 10⁻¹², 10⁻¹⁶, 10⁻²⁰ sit within 10⁻¹² of each other.

    eig's vectors for the (nearly) repeated tiny ones have a huge κ that once linked all 16
    into one cluster (ln C_P 0.14 too small); with the re-based κ the pair (10⁻¹², 10⁻¹⁶) is
    neither one eigenvalue nor resolved, and the dense path refuses instead of giving a
    different number. The structured path merges only 10⁻¹⁶ and 10⁻²⁰ (within rounding).
    """
    chain = ProductChain([0.5, 0.5, 0.5, 0.001, 0.999], [1e-4] * 5)
    with pytest.raises(NumericalError, match="too close for double precision"):
        chain.dense().constants(exact=False)
    tiny = Fraction(1, 10**14)
    merged = exact_projector_sum(
        chain.client_availability, ["1/10000"] * 5, key=lambda mu: mu if mu > tiny else 0
    )
    assert chain.log_C_P == pytest.approx(log_C_P(merged, 5), rel=1e-12)
    separate = exact_projector_sum(chain.client_availability, ["1/10000"] * 5)
    assert chain.log_C_P < log_C_P(separate, 5)


@pytest.mark.parametrize("n", [1, 3, 6, 10])
def test_rank_one_products_have_slem_exactly_zero(n: int) -> None:
    rng = generator(n, "tests/projectors/rank-one")
    pi = np.r_[rng.uniform(1e-3, 1 - 1e-3, n - 1), 1e-3][:n]
    P = ProductChain(pi, np.zeros(n)).dense_matrix()
    assert not np.all(P == P[0])  # the rows differ by rounding
    assert MarkovChain(P).slem == 0.0


@pytest.mark.parametrize(
    ("pi", "lam"),
    [
        (np.r_[np.full(7, 0.3), np.full(6, 0.8)], np.r_[np.zeros(4), np.full(9, 0.5)]),
        (np.linspace(0.2, 0.8, 13), np.r_[np.zeros(6), np.full(7, -0.2)]),
        (np.linspace(0.05, 0.95, 13), np.zeros(13)),
    ],
)
def test_closed_form_above_the_search_limit_equals_the_search(pi, lam) -> None:
    """N = 13 (not searched): zeros and one nonzero value, so the closed form is the minimum."""
    assert pi.size > SEARCH_MAX_CLIENTS
    result = projector_norm_sum(pi, lam)
    assert result.minimal
    assert result.log_value == pytest.approx(searched_log_sum(pi, lam), rel=1e-12)


def test_minimal_flag() -> None:
    assert not projector_norm_sum(
        np.full(13, 0.5), np.r_[np.full(6, 0.5), 0.25 * np.ones(7)]
    ).minimal
    assert not projector_norm_sum(
        np.full(13, 0.5), np.r_[np.full(6, 0.5), -0.5 * np.ones(7)]
    ).minimal
    assert projector_norm_sum(np.full(6, 0.5), np.r_[np.full(5, 0.5), 0.25]).minimal  # searched
    chain = ProductChain(np.full(13, 0.5), np.r_[np.full(6, 0.5), 0.25 * np.ones(7)])
    assert chain.constants().C_P_minimal is False


def test_log_space_for_a_million_clients() -> None:
    n = 1_000_000
    rng = generator(1, "tests/projectors/million")
    pi = rng.uniform(0.01, 0.99, n)
    lam = np.where(np.arange(n) % 2 == 0, 0.0, 0.7)
    with mpmath.workdps(40):
        r = [mpmath.sqrt(mpmath.mpf(p) ** 2 + (1 - mpmath.mpf(p)) ** 2) for p in pi[::1000]]
    # An independent direct evaluation on a subsample (exact powers of two, no logaddexp).
    sub_pi, sub_lam = pi[::1000], lam[::1000]
    z = int((sub_lam == 0).sum())
    with mpmath.workdps(40):
        rho_z = mpmath.fprod(x for x, zero in zip(r, sub_lam == 0, strict=True) if zero)
        s_rest = mpmath.fprod(
            2 * mpmath.sqrt(2) * x for x, zero in zip(r, sub_lam == 0, strict=True) if not zero
        )
        m = mpmath.mpf(2) ** z
        total = ((m - 2) + mpmath.sqrt(m) * rho_z) * mpmath.mpf(2) ** (sub_pi.size - z)
        total += mpmath.sqrt(m) * rho_z * s_rest
        expected = float(mpmath.log(total))
    assert closed_form_log_sum(sub_pi, sub_lam) == pytest.approx(expected, rel=1e-13)
    big = ProductChain(pi, lam)
    assert math.isfinite(big.log_C_P) and big.C_P is None and big.C_P_minimal


@given(st.data())
def test_group_nuclear_norm_against_an_explicit_svd(data) -> None:
    n = data.draw(st.integers(1, 4))
    pi = np.array(data.draw(st.lists(st.floats(1e-3, 1 - 1e-3), min_size=n, max_size=n)))
    members = np.array(sorted(data.draw(st.sets(st.integers(0, 2**n - 1), min_size=1))))
    factors = [_factors(p) for p in pi]
    Pi = sum(
        reduce(np.kron, [factors[k][(s >> (n - 1 - k)) & 1] for k in range(n)]) for s in members
    )
    expected = np.linalg.svd(Pi, compute_uv=False).sum()
    assert group_nuclear_norm(pi, members) == pytest.approx(expected, rel=1e-12, abs=1e-12)


@given(
    st.lists(st.sampled_from([0.0, 1e-15, 3e-15, 0.5, 0.5 + 1e-16, 0.25, -0.2]), min_size=1),
    st.data(),
)
def test_coincidence_groups_are_the_pairwise_rule_closed_under_links(values, data) -> None:
    mu = np.array(values)
    kappa = np.array(data.draw(st.lists(st.floats(1.0, 5.0), min_size=mu.size, max_size=mu.size)))
    groups = coincidence_groups(mu, kappa, 1.0)
    label = np.empty(mu.size, dtype=int)
    for g, members in enumerate(groups):
        label[members] = g
    linked = np.abs(mu[:, None] - mu[None, :]) <= 1e-14 * (kappa[:, None] + kappa[None, :])
    # Linked pairs share a group, and every group is connected by links (brute force closure).
    assert (label[:, None] == label[None, :])[linked].all()
    reach = linked.copy()
    for _ in range(mu.size):
        reach = reach | (reach.astype(int) @ reach.astype(int) > 0)
    assert ((label[:, None] == label[None, :]) == reach).all()


def test_deflated_condition_numbers_match_the_dense_eigensolve() -> None:
    pi, lam = np.array([0.3, 0.75, 0.1]), np.array([0.6, -0.3, 0.2])  # distinct products
    chain = ProductChain(pi, lam)
    d = deflate(chain.dense_matrix())
    w, W = np.linalg.eig(d.A)
    W = W / np.linalg.norm(W, axis=0)
    kappa_dense = np.linalg.norm(np.linalg.inv(W), axis=1)
    products = reduce(np.kron, [np.array([1.0, x]) for x in lam])[1:]
    ours = deflated_condition_numbers(pi)[1:]
    order_d, order_s = np.argsort(w.real), np.argsort(products)
    np.testing.assert_allclose(w.real[order_d], products[order_s], atol=1e-14)
    np.testing.assert_allclose(kappa_dense[order_d], ours[order_s], rtol=1e-10)
