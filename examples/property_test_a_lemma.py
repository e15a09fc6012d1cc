"""Worked example: a property-based test of a lemma with ``fltheory.testing.strategies``.

Lemma 16 of CA-Fed (eq. 5) says that an availability chain forgets where it started at a
geometric rate: for every round t ≥ T_P,

    E(t) = max_ij |[Pᵗ]_ij − ρ_j| ≤ C_P · λ(P)ᵗ,

with ρ the stationary law, λ(P) = (λ̄₂ + 1)/2 and C_P, T_P of eqs. 156-157. Below, hypothesis
draws chains from the library's strategies — dense irreducible chains (some entries zero, sticky
and fast chains, up to the boundary of Assumption 1) and products of two-state clients — and
checks the inequality with Pᵗ computed directly by matrix powers, independently of how fltheory
computes C_P. When hypothesis finds a chain that breaks it, it shrinks it to a small one and
prints it. Run from the repository root:

    python examples/property_test_a_lemma.py

or collect it with pytest (it defines ``test_*`` functions).
"""

import sys
from pathlib import Path

import numpy as np
from hypothesis import assume, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, no install

from fltheory.errors import NumericalError
from fltheory.markov import MarkovChain
from fltheory.testing.strategies import irreducible_chains, product_chains

#: Rounds checked after the burn-in T_P, and the relative slack allowed for rounding.
ROUNDS = 60
RTOL = 1e-9
SETTINGS = settings(max_examples=60, derandomize=True, database=None, deadline=None)


def envelope_violations(P: np.ndarray, rho: np.ndarray, C_P: float, lam: float, T_P: int) -> list:
    """The rounds t in [T_P, T_P + ROUNDS) where E(t) > C_P·λᵗ (beyond rounding).

    >>> P = np.array([[0.5, 0.5], [0.5, 0.5]])
    >>> envelope_violations(P, np.array([0.5, 0.5]), C_P=1.0, lam=0.5, T_P=0)
    []
    """
    bad = []
    power = np.linalg.matrix_power(P, T_P)
    for t in range(T_P, T_P + ROUNDS):
        gap = np.abs(power - rho[None, :]).max()
        if gap > C_P * lam**t * (1 + RTOL) + 1e-13:
            bad.append((t, gap, C_P * lam**t))
        power = power @ P
    return bad


@SETTINGS
@given(irreducible_chains(max_states=6))
def test_lemma16_on_dense_chains(P: np.ndarray) -> None:
    chain = MarkovChain(P)
    try:
        constants = chain.constants()  # λ(P), C_P (eq. 156), T_P (eq. 157)
    except NumericalError:  # a near-defective spectrum the library refuses, saying so
        assume(False)
    assume(constants.log_C_P is not None)
    C_P = float(np.exp(constants.log_C_P))
    rho = chain.stationary
    assert envelope_violations(P, rho, C_P, constants.lam, constants.T_P) == []


@SETTINGS
@given(product_chains(max_clients=4))
def test_lemma16_on_product_chains(chain) -> None:
    constants = chain.constants()  # closed forms of Props. 3-6, never the 2^N matrix
    assert constants.log_C_P is not None
    dense = chain.dense()  # the 2^N × 2^N matrix, built here only to check them
    C_P = float(np.exp(constants.log_C_P))
    assert envelope_violations(dense.P, dense.stationary, C_P, constants.lam, constants.T_P) == []


if __name__ == "__main__":
    test_lemma16_on_dense_chains()
    test_lemma16_on_product_chains()
    print("Lemma 16 (eq. 5) held on every drawn chain: dense irreducible and product chains.")
