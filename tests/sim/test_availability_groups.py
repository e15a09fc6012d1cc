"""Groups in the [availability] table (issue 26): a ``count`` of identical clients and an
optional ``name`` per entry, for two-state clients, links and clusters; the groups reach the
simulator's per-group outputs, and a count that disagrees with the problem is one line."""

import numpy as np
import pytest

from fltheory.errors import InputError
from fltheory.sim.availability_spec import availability_chain, build_table


@pytest.mark.parametrize(
    ("table", "pi", "lambda2"),
    [
        (
            {"kind": "two_state", "groups": [{"count": 2, "pi": 0.9, "lambda2": 0.5},
                                             {"count": 1, "pi": 0.2, "lambda2": 0.1}]},
            [0.9, 0.9, 0.2],
            [0.5, 0.5, 0.1],
        ),
        (
            {"kind": "bernoulli", "groups": [{"count": 1, "p": 0.3}, {"count": 2, "p": 0.6}]},
            [0.3, 0.6, 0.6],
            [0.0, 0.0, 0.0],
        ),
        (
            {"kind": "uniform_noise", "half_width": 0.1,
             "groups": [{"count": 2, "p": 0.5}, {"count": 1, "p": 0.8}]},
            [0.5, 0.5, 0.8],
            [0.0, 0.0, 0.0],
        ),
        (
            {"kind": "clustered", "groups": [{"count": 2, "pi": 0.7, "lambda2": 0.4},
                                             {"count": 1, "pi": 0.2, "lambda2": 0.6}]},
            [0.7, 0.7, 0.2],
            [0.4, 0.4, 0.6],
        ),
    ],
    ids=["two_state", "bernoulli", "uniform_noise", "clustered"],
)  # fmt: skip
def test_groups_expand_in_order(table, pi, lambda2):
    chain, built = availability_chain(table)
    assert built.n_clients == 3
    np.testing.assert_allclose(chain.client_availability, pi)
    np.testing.assert_allclose(chain.lambda2, lambda2)
    assert list(built.groups) == ["group 0", "group 1"]
    counts = [g["count"] for g in table["groups"]]
    assert [int(m.sum()) for m in built.groups.values()] == counts


def test_a_clustered_group_is_one_cluster():
    chain, _ = availability_chain(
        {"kind": "clustered", "groups": [{"count": 3, "pi": 0.5, "lambda2": 0.2, "name": "lab"}]}
    )
    assert chain.n_states == 2  # one shared chain for the three clients


@pytest.mark.parametrize(
    ("table", "words"),
    [
        (
            {"kind": "two_state", "groups": [{"count": 1, "pi": 0.5, "lambda2": 0.0, "name": "a"},
                                             {"count": 1, "pi": 0.4, "lambda2": 0.0, "name": "a"}]},
            "two groups are named 'a'",
        ),
        ({"kind": "two_state", "groups": [{"count": 0, "pi": 0.5, "lambda2": 0.0}]}, "count"),
        (
            {"kind": "two_state", "pi": 0.5, "lambda2": 0.0,
             "groups": [{"count": 1, "pi": 0.5, "lambda2": 0.0}]},
            "not both",
        ),
        ({"kind": "bernoulli", "p": 0.5, "groups": [{"count": 1, "p": 0.5}]}, "exactly one of"),
        (
            {"kind": "two_state", "groups": [{"count": 10**8, "pi": 0.5, "lambda2": 0.0}]},
            "at most 10,000,000",
        ),
        ({"kind": "two_state", "pi": 0.5, "lambda2": 0.0, "n_clients": 0}, "n_clients"),
        ({"kind": "day_cycle", "p": 0.5, "amplitude": 0.1, "period": 4, "n_clients": 2},
         "no stationary Markov chain"),
    ],
    ids=["same name", "count 0", "both forms", "p and groups", "huge", "n_clients 0", "cycle"],
)  # fmt: skip
def test_bad_groups_are_one_line(table, words):
    with pytest.raises(InputError) as refused:
        availability_chain(table)
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_a_count_that_disagrees_with_the_problem_is_refused():
    table = {"kind": "two_state", "groups": [{"count": 2, "pi": 0.9, "lambda2": 0.5}]}
    with pytest.raises(InputError, match="the groups count 2 clients, the problem has 3"):
        build_table(table, n_clients=3, context="the problem")
    with pytest.raises(InputError, match="has n_clients = 4, the problem 3 clients"):
        build_table({"kind": "ca_fed", "n_clients": 4}, n_clients=3, context="the problem")
