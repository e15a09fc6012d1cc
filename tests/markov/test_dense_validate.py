"""Input validation and Assumption 1 on the transition graph (CA-Fed ToN Section II-A)."""

from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
import sympy
from hypothesis import given

from fltheory.errors import AssumptionViolation, InputError
from fltheory.markov.validate import as_transition_matrix, check_assumption1, to_rational_matrix
from fltheory.testing.chains import irreducible_chains, periodic_chains, reducible_chains


def _nx_graph(P: np.ndarray) -> nx.DiGraph:
    G = nx.DiGraph()
    G.add_nodes_from(range(P.shape[0]))
    G.add_edges_from(zip(*np.nonzero(P > 0), strict=True))
    return G


@pytest.mark.parametrize(
    ("P", "fragment"),
    [
        ([[0.5, 0.5, 0.0]], "square"),
        ([[0.5, 0.6], [0.5, 0.5]], "row 0"),
        ([[1.2, -0.2], [0.5, 0.5]], "(0, 0)"),
        ([[np.nan, 1.0], [0.5, 0.5]], "not finite"),
        ([["a", "b"], ["c", "d"]], "numbers"),
        (np.zeros((0, 0)), "empty"),
    ],
)
def test_bad_matrices_are_rejected_with_a_one_line_message(P, fragment):
    with pytest.raises(InputError) as err:
        as_transition_matrix(P)
    assert fragment in str(err.value)
    assert "\n" not in str(err.value)


def test_round_off_is_clipped_not_renormalised():
    P = as_transition_matrix([[1.0 + 1e-15, -1e-15], [0.3, 0.7]])
    assert P[0, 0] == 1.0 and P[0, 1] == 0.0
    assert P[1].tolist() == [0.3, 0.7]


@given(irreducible_chains())
def test_valid_chains_pass_and_agree_with_networkx(P):
    G = _nx_graph(P)
    assert nx.is_strongly_connected(G) and nx.is_aperiodic(G)
    check_assumption1(P)


@given(reducible_chains())
def test_reducible_chains_report_their_class_count(case):
    P, n_classes = case
    assert nx.number_strongly_connected_components(_nx_graph(P)) == n_classes
    with pytest.raises(AssumptionViolation, match=rf"reducible \({n_classes} communicating"):
        check_assumption1(P)


@given(periodic_chains())
def test_periodic_chains_report_their_period(case):
    P, d = case
    G = _nx_graph(P)
    assert nx.is_strongly_connected(G) and not nx.is_aperiodic(G)
    with pytest.raises(AssumptionViolation, match=rf"periodic \(period {d}\)"):
        check_assumption1(P)


def test_assumption1_on_rational_and_fraction_matrices():
    half = Fraction(1, 2)
    check_assumption1([[half, half], [Fraction(1), Fraction(0)]])
    swap = sympy.Matrix([[0, 1], [1, 0]])
    with pytest.raises(AssumptionViolation, match="period 2"):
        check_assumption1(swap)
    with pytest.raises(AssumptionViolation, match="reducible"):
        check_assumption1(sympy.eye(3))


def test_to_rational_matrix_reads_floats_through_repr_and_strings():
    R = to_rational_matrix([[0.1, 0.2, 0.7], ["1/3", "1/3", Fraction(1, 3)], [0, 1, 0]])
    assert R[0, 0] == sympy.Rational(1, 10)
    assert R[1, 2] == sympy.Rational(1, 3)
    assert all(sum(R.row(i)) == 1 for i in range(3))


@pytest.mark.parametrize(
    ("P", "fragment"),
    [
        ([[1 / 3, 1 / 3, 1 / 3]] * 3, "sums to"),
        ([["1/2", "x"], ["1/2", "1/2"]], "cannot read"),
        ([[Fraction(3, 2), Fraction(-1, 2)], [0, 1]], "outside [0, 1]"),
        (np.full((13, 13), 1 / 13), "at most 12"),
    ],
)
def test_to_rational_matrix_rejects_inexact_input(P, fragment):
    with pytest.raises(InputError) as err:
        to_rational_matrix(P)
    assert fragment in str(err.value)
