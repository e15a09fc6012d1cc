"""Hypothesis strategies for random strongly convex quadratic problems and Theorem 2 inputs.

Array contents come from :func:`fltheory.rng.generator` keyed by a hypothesis-drawn seed, so
examples are reproducible and shrink over (seed, sizes) rather than over raw floats.
"""

import math

import numpy as np
from hypothesis import strategies as st

from fltheory.markov.constants import ChainConstants
from fltheory.problems.quadratic import QuadraticProblem
from fltheory.problems.steps import StepSizes
from fltheory.rng import generator


def random_spd(rng: np.random.Generator, n: int, d: int, min_eig: float, max_eig: float):
    """(n, d, d) symmetric matrices with eigenvalues drawn in [min_eig, max_eig]."""
    q, _ = np.linalg.qr(rng.normal(size=(n, d, d)))
    eig = rng.uniform(min_eig, max_eig, size=(n, d))
    return np.einsum("kij,kj,klj->kil", q, eig, q)


@st.composite
def quadratic_problems(
    draw: st.DrawFn,
    *,
    min_clients: int = 2,
    max_clients: int = 6,
    max_dim: int = 4,
    max_kappa: float = 50.0,
    allow_zero_weights: bool = False,
) -> QuadraticProblem:
    """A :class:`QuadraticProblem` with κ ≤ max_kappa, π ∈ [0.05, 1], α on the simplex.

    With ``allow_zero_weights`` some q_k may be 0 (at least one stays positive).

    >>> from hypothesis import given, settings
    >>> from fltheory.bounds import bias_bound_chi2
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(quadratic_problems())
    ... def test(problem):
    ...     assert bias_bound_chi2(problem).holds  # Theorem 1 (eq. 11) against the exact ε_bias
    >>> test()
    """
    n = draw(st.integers(min_clients, max_clients))
    d = draw(st.integers(1, max_dim))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = generator(seed, "testing/quadratic")
    mu = rng.uniform(0.1, 1.0)
    L = mu * rng.uniform(1.0, max_kappa)
    H = random_spd(rng, n, d, mu, L)
    scale = draw(st.sampled_from([0.1, 1.0, 5.0]))
    u = scale * rng.normal(size=(n, d))
    c = rng.normal(size=n)
    alpha = rng.dirichlet(np.ones(n))
    pi = rng.uniform(0.05, 1.0, size=n)
    q = rng.uniform(0.05, 1.0, size=n)
    if allow_zero_weights and draw(st.booleans()):
        zero = rng.random(n) < 0.4
        zero[rng.integers(n)] = False
        q[zero] = 0.0
    q = q / q.sum()
    return QuadraticProblem(u, H, c, alpha, pi, q)


@st.composite
def power_law_steps(
    draw: st.DrawFn, *, min_power: float = 0.55, max_power: float = 1.0
) -> StepSizes:
    """η_t = η₁/t^a with η₁ ∈ [1e-4, 0.5] (log-uniform) and a ∈ [min_power, max_power].

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(power_law_steps())
    ... def test(steps):
    ...     assert steps.nonincreasing() and 0.55 <= steps.power <= 1.0
    >>> test()
    """
    log_eta = draw(st.floats(math.log(1e-4), math.log(0.5)))
    a = draw(st.floats(min_power, max_power))
    return StepSizes.power_law(math.exp(log_eta), a)


@st.composite
def chain_constants(draw: st.DrawFn, *, max_log_states: float = 50.0) -> ChainConstants:
    """A hand-built :class:`ChainConstants` (λ̄₂ ∈ [0, 0.95], ln C_P ≥ ½ ln M, small T_P).

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    ... @given(chain_constants())
    ... def test(consts):
    ...     assert consts.lam == (consts.slem + 1.0) / 2.0  # eq. 229
    >>> test()
    """
    log_m = draw(st.floats(math.log(2.0), max_log_states))
    slem = draw(st.floats(0.0, 0.95))
    extra = draw(st.floats(0.0, 20.0))
    T_P = draw(st.integers(0, 30))
    return ChainConstants(
        log_n_states=log_m,
        slem=slem,
        lam=(slem + 1.0) / 2.0,
        log_C_P=0.5 * log_m + extra,
        T_P=T_P,
        T_P_safe=T_P,
        method="structured",
    )
