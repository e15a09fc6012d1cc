"""Hypothesis strategies for two-state, product and clustered availability chains."""

import numpy as np
from hypothesis import strategies as st

from fltheory.markov.clustered import ClusteredChain
from fltheory.markov.product import ProductChain
from fltheory.markov.two_state import lambda2_range

#: λ₂ is kept at most this close to 1, so dense eigen-solvers on the product stay accurate.
NEAR_ONE = 1e-6


def availabilities(min_pi: float = 1e-3) -> st.SearchStrategy[float]:
    """π in [min_pi, 1 − min_pi], with ½ and the ends drawn often.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(availabilities())
    ... def test(pi):
    ...     assert 1e-3 <= pi <= 1.0 - 1e-3
    >>> test()
    """
    return st.one_of(
        st.sampled_from([0.5, min_pi, 1.0 - min_pi, 0.1, 0.9]),
        st.floats(min_pi, 1.0 - min_pi, allow_nan=False),
    )


@st.composite
def two_state_params(draw: st.DrawFn, min_pi: float = 1e-3) -> tuple[float, float]:
    """An admissible (π, λ₂): edges λ₂ = 0, 1 − 10⁻⁶, the lower end (when it is > −1), and
    negative values, besides uniform draws in [max(lower, −1 + 10⁻⁶), 1 − 10⁻⁶].

    >>> from hypothesis import given, settings
    >>> from fltheory.markov import two_state_matrix
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(two_state_params())
    ... def test(params):
    ...     pi, lambda2 = params
    ...     P = two_state_matrix(pi, lambda2)  # eq. 236
    ...     assert abs(pi * P[1, 0] - (1 - pi) * P[0, 1]) < 1e-12  # π is stationary
    >>> test()
    """
    pi = draw(availabilities(min_pi))
    lower = max(float(lambda2_range(pi)[0]), -1.0 + NEAR_ONE)
    edges = [0.0, 1.0 - NEAR_ONE, lower, lower / 2.0]
    lambda2 = draw(st.one_of(st.sampled_from(edges), st.floats(lower, 1.0 - NEAR_ONE)))
    return pi, lambda2


@st.composite
def product_chains(draw: st.DrawFn, min_clients: int = 1, max_clients: int = 8) -> ProductChain:
    """A product chain with min_clients..max_clients independent two-state clients.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(product_chains(max_clients=4))
    ... def test(chain):
    ...     assert chain.slem == max(abs(chain.lambda2))  # eq. 234
    >>> test()
    """
    n = draw(st.integers(min_clients, max_clients))
    params = draw(st.lists(two_state_params(), min_size=n, max_size=n))
    pi, lambda2 = np.array(params).T
    return ProductChain(pi, lambda2)


@st.composite
def clustered_chains(
    draw: st.DrawFn, max_clusters: int = 5, max_clients: int = 10
) -> ClusteredChain:
    """A clustered chain: 1..max_clusters clusters, every one with at least one client.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(clustered_chains())
    ... def test(chain):
    ...     assert chain.n_states == 2**chain.n_clusters  # the product over clusters
    >>> test()
    """
    n_clusters = draw(st.integers(1, max_clusters))
    params = draw(st.lists(two_state_params(), min_size=n_clusters, max_size=n_clusters))
    pi, lambda2 = np.array(params).T
    n_extra = draw(st.integers(0, max(0, max_clients - n_clusters)))
    extra = draw(st.lists(st.integers(0, n_clusters - 1), min_size=n_extra, max_size=n_extra))
    order = draw(st.permutations(list(range(n_clusters)) + extra))
    return ClusteredChain(pi, lambda2, np.array(order, dtype=np.int64))


@st.composite
def repeated_product_chains(
    draw: st.DrawFn, min_clients: int = 1, max_clients: int = 8
) -> ProductChain:
    """A product chain whose spectrum repeats: λ₂ values drawn from a pool of 1–3 values shared
    by several clients (λ₂ = 0, the edges 1 − 10⁻⁶ and the lower end, products such as
    0.5·0.5 = 0.25, and free floats), π per client up to 10⁻³ from 0 and 1.

    A pool value below a client's admissible range is replaced by that client's lower end.
    """
    n = draw(st.integers(min_clients, max_clients))
    pi = np.array(draw(st.lists(availabilities(1e-3), min_size=n, max_size=n)))
    values = st.one_of(
        st.just(0.0),
        st.sampled_from([0.5, 0.25, -0.5, 0.9, 1.0 - NEAR_ONE]),
        st.floats(-1.0 + NEAR_ONE, 1.0 - NEAR_ONE),
    )
    pool = draw(st.lists(values, min_size=1, max_size=3))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n))
    lower = np.maximum(lambda2_range(pi)[0], -1.0 + NEAR_ONE)
    lambda2 = np.maximum(np.array([pool[i] for i in picks]), lower)
    return ProductChain(pi, lambda2)
