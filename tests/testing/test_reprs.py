"""Objects a strategy draws print as source that rebuilds them, so a failing property test shows
its counterexample in a form that can be pasted back (issue 26)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fltheory.markov import ClusteredChain, MarkovChain, ProductChain
from fltheory.problems import QuadraticProblem
from fltheory.testing import (
    clustered_chains,
    irreducible_chains,
    product_chains,
    quadratic_problems,
)

NAMESPACE = {
    "ProductChain": ProductChain,
    "ClusteredChain": ClusteredChain,
    "MarkovChain": MarkovChain,
    "QuadraticProblem": QuadraticProblem,
}
FEW = settings(max_examples=15, derandomize=True, database=None, deadline=None)


def assert_same_fields(a, b, names):
    for name in names:
        x, y = getattr(a, name), getattr(b, name)
        x, y = (x() if callable(x) else x), (y() if callable(y) else y)
        assert np.array_equal(np.asarray(x), np.asarray(y)), name


@FEW
@given(product_chains(max_clients=5))
def test_product_chain_repr_rebuilds_it(chain):
    assert_same_fields(
        eval(repr(chain), NAMESPACE), chain, ("client_availability", "lambda2", "client_ids")
    )


@FEW
@given(clustered_chains())
def test_clustered_chain_repr_rebuilds_it(chain):
    rebuilt = eval(repr(chain), NAMESPACE)
    assert_same_fields(rebuilt, chain, ("client_availability", "client_ids"))
    assert_same_fields(
        rebuilt.cluster_chain, chain.cluster_chain, ("client_availability", "lambda2")
    )


@FEW
@given(irreducible_chains(max_states=5), st.data())
def test_markov_chain_repr_rebuilds_it(P, data):
    n = data.draw(st.integers(1, 3))
    states = [sorted(data.draw(st.sets(st.integers(0, n - 1)))) for _ in range(P.shape[0])]
    chain = MarkovChain(P, states, n_clients=n)
    assert_same_fields(eval(repr(chain), NAMESPACE), chain, ("P", "state_clients"))


def test_rational_chain_repr_keeps_the_exact_entries():
    chain = MarkovChain.from_rational([["1/3", "2/3"], ["1/2", "1/2"]], [[0], [0, 1]])
    rebuilt = eval(repr(chain), NAMESPACE)
    assert repr(rebuilt) == repr(chain)
    assert rebuilt.constants(exact=True).slem == chain.constants(exact=True).slem


@FEW
@given(quadratic_problems(max_clients=4, max_dim=2))
def test_quadratic_problem_repr_rebuilds_it(problem):
    assert_same_fields(eval(repr(problem), NAMESPACE), problem, ("u", "H", "c", "alpha", "pi", "q"))


def test_a_failing_property_test_shows_its_counterexample():
    @FEW
    @given(product_chains(max_clients=3))
    def wrong(chain):
        assert chain.n_clients > 5  # false for every drawn chain

    with pytest.raises(AssertionError) as failure:
        wrong()
    shown = "\n".join(getattr(failure.value, "__notes__", []))
    assert "ProductChain(pi=[" in shown and "lambda2=[" in shown
    line = shown[shown.index("ProductChain(") :].split("\n")[0]
    pasted = line[: line.rindex(")") + 1]  # "ProductChain(...)," and maybe a comment after it
    assert eval(pasted, NAMESPACE).n_clients <= 3  # the counterexample rebuilds
