"""FedAvg's limit under independent Bernoulli links: Proposition 1 of the FedPBC paper, fast.

Setting (FedPBC paper, Section III, Algorithm 1 and eq. 2): F_i(x) = ½‖x − u_i‖², exact local
gradients, s local steps of size η, link i active with fixed probability p_i independently across
clients and rounds, and x unchanged when nobody is active. With s steps from x, client i ends at
u_i + (1 − η)^s (x − u_i), i.e. its update is Δ_i = γ(u_i − x) with γ = 1 − (1 − η)^s. So

    x_{t+1} = x_t + γ Σ_{i∈A_t} (u_i − x_t)/|A_t|      (A_t ≠ ∅),     x_{t+1} = x_t   (A_t = ∅).

A_t is independent of x_t, hence the mean obeys the affine recursion

    E[x_{t+1}] = (1 − γ P(A ≠ ∅)) E[x_t] + γ Σ_i h_i u_i,    h_i = E[1{i∈A}/|A|],

with Σ_i h_i = P(A ≠ ∅). For 0 < γ P(A ≠ ∅) < 2 it contracts and

    lim E[x_t] = Σ_i w_i u_i,   w_i = h_i / P(A ≠ ∅) = E[1{i∈A}/|A| | A ≠ ∅],

independently of η and s. This is the limit of the *expectation* (and, by ergodicity of the
Markov chain x_t, of the time average along one run). The iterate itself does not converge
almost surely when the u_i differ: it keeps jumping with the random set A_t. Proposition 1 states
"lim x^T"; we implement the reading that is true.

Expanding h_i = p_i E[1/(1 + K_i)], K_i = |A ∖ {i}|, with 1/(1 + k) = ∫₀¹ t^k dt gives the
paper's subset-sum form (see :mod:`fltheory.limits.subset_sum`) and the integral
h_i = p_i ∫₀¹ Π_{z≠i}(1 − p_z + p_z t) dt evaluated here with a certified Gauss rule
(:mod:`fltheory.limits.quadrature`), O(m·n) with n ≤ a few dozen nodes.
"""

from dataclasses import dataclass

import numpy as np

from fltheory import checks
from fltheory.errors import AssumptionViolation, NumericalError
from fltheory.limits.quadrature import harmonic_rule

#: Entries per block when forming the m × n matrix of log-factors (bounds memory).
_BLOCK_ENTRIES = 4_000_000


@dataclass(frozen=True)
class HarmonicInclusion:
    """h_i = E[1{i∈A}/|A|] (zero-set convention 1{i∈A}/|A| = 0 when A = ∅) and its accuracy."""

    values: np.ndarray
    error_bound: float  # certified relative bound on each h_i, rounding aside (0 = exact rule)
    n_nodes: int


def link_probabilities(p: object) -> np.ndarray:
    """``p`` as a finite 1-D float array with entries in [0, 1] (InputError otherwise).

    >>> link_probabilities([0.5, 1]).tolist()
    [0.5, 1.0]
    """
    return checks.probabilities(p, "p")


def prob_any_active(p: object) -> float:
    """P(A ≠ ∅) = 1 − Π(1 − p_i), as −expm1(Σ log1p(−p_i)) (accurate for tiny p)."""
    arr = link_probabilities(p)
    with np.errstate(divide="ignore"):  # p_i = 1 gives log 0 = −inf and P(A ≠ ∅) = 1
        return float(-np.expm1(np.log1p(-arr).sum()))


def harmonic_inclusion(p: object, *, rtol: float = 1e-15, exact: bool = False) -> HarmonicInclusion:
    """h_i = E[1{i∈A}/|A|] = p_i ∫₀¹ Π_{z≠i}(1 − p_z + p_z t) dt for every client.

    ``exact`` forces the ⌈m/2⌉-node rule (exact for the degree m − 1 polynomial, O(m²));
    otherwise the certified truncated rule is used (relative error ≤ rtol).
    """
    arr = link_probabilities(p)
    rule = harmonic_rule(arr, 1, rtol=rtol, exact=exact)
    values = np.empty(arr.size)
    rows = max(1, _BLOCK_ENTRIES // rule.nodes.size)
    for start in range(0, arr.size, rows):
        block = arr[start : start + rows]
        exponent = rule.log_full[None, :] - rule.log_factors(block)
        values[start : start + rows] = block * (np.exp(exponent) @ rule.weights)
    return HarmonicInclusion(values, rule.error_bound, rule.nodes.size)


@dataclass(frozen=True)
class FedAvgWeights:
    """Proposition 1 weights w_i = E[1{i∈A}/|A| | A ≠ ∅] (they sum to one).

    >>> w = fedavg_weights([0.5, 1.0])
    >>> w.weights.round(12).tolist(), w.prob_any_active
    ([0.25, 0.75], 1.0)
    """

    weights: np.ndarray
    prob_any_active: float
    error_bound: float  # certified relative bound on each w_i, rounding aside
    n_nodes: int


def fedavg_weights(p: object, *, rtol: float = 1e-15, exact: bool = False) -> FedAvgWeights:
    """The weights of Proposition 1; raises AssumptionViolation when no link is ever active.

    The identity Σ_i h_i = P(A ≠ ∅) is checked: a violation beyond the certified bound plus
    rounding raises NumericalError instead of returning a wrong number.

    >>> fedavg_weights([0.2, 0.2, 0.9]).weights.round(6).tolist()  # the rarely seen weigh less
    [0.108974, 0.108974, 0.782051]
    """
    arr = link_probabilities(p)
    p_any = prob_any_active(arr)
    if p_any <= 0.0:
        raise AssumptionViolation("every p_i is 0: no client is ever active, x never moves")
    h = harmonic_inclusion(arr, rtol=rtol, exact=exact)
    weights = h.values / p_any
    slack = abs(weights.sum() - 1.0)
    if slack > h.error_bound + 1e-12:
        raise NumericalError(f"Proposition 1 weights sum to 1 + {slack:.2e}: quadrature failed")
    return FedAvgWeights(weights, p_any, h.error_bound, h.n_nodes)
