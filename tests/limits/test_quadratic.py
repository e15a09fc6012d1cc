"""General quadratics F_k = ½(x − u_k)ᵀH_k(x − u_k): local operators and expected limits."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fltheory.errors import AssumptionViolation, InputError
from fltheory.limits.aggregation import FEDAVG, Aggregation, bernoulli_limit
from fltheory.limits.local import local_gain, local_operators
from fltheory.limits.markov import markov_limit
from fltheory.limits.quadratic import (
    bernoulli_quadratic_limit,
    markov_quadratic_limit,
    quadratic_optimum,
)
from fltheory.rng import generator
from fltheory.testing.limits import (
    availability_sets,
    bernoulli_sampler,
    probability_vectors,
    set_probabilities,
)


def _random_hessians(n: int, d: int, seed: int, scale: float = 1.0) -> np.ndarray:
    rng = generator(seed, "quadratic-hessians")
    A = rng.normal(size=(n, d, d))
    return scale * (np.einsum("kij,klj->kil", A, A) / d + 0.1 * np.eye(d))


@given(st.integers(1, 6), st.integers(1, 4), st.floats(0.01, 0.3))
def test_local_operator_equals_explicit_gradient_steps(steps, d, lr):
    H = _random_hessians(2, d, seed=steps + 10 * d)
    u = generator(d, "quadratic-u").normal(size=(2, d))
    x = np.ones(d)
    B = local_operators(H, lr, steps)
    for k in range(2):
        y = x.copy()
        for _ in range(steps):
            y = y - lr * H[k] @ (y - u[k])
        assert np.allclose(y - x, B[k] @ (u[k] - x), rtol=1e-12, atol=1e-12)


def test_isotropic_hessians_reduce_to_isotropic_limits():
    p = np.array([0.2, 0.7, 0.95])
    u = np.array([[1.0, 2.0], [0.0, -1.0], [3.0, 0.5]])
    H = np.repeat(np.eye(2)[None], 3, axis=0)
    agg = Aggregation(q=np.array([1.0, 2.0, 0.5]), normalised=False, server_lr=0.5)
    for a in (FEDAVG, agg):
        quad = bernoulli_quadratic_limit(p, H, u, a, lr=0.3, local_steps=3)
        iso = bernoulli_limit(p, u, a, lr=0.3, local_steps=3)
        assert np.allclose(quad.limit, iso.limit, rtol=1e-12, atol=1e-12)
    P = np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5], [0.4, 0.0, 0.6]])
    active = np.array([[1, 0, 0], [0, 1, 1], [1, 1, 1]])
    quad = markov_quadratic_limit(P, active, H, u, agg, lr=0.3, local_steps=3)
    iso = markov_limit(P, active, u, agg, lr=0.3, local_steps=3)
    assert np.allclose(quad.limit, iso.limit, rtol=1e-11, atol=1e-11)


@given(probability_vectors(1, 4, lower=0.05, upper=0.95), st.booleans())
def test_iid_markov_chain_over_all_sets_equals_bernoulli(p, normalised):
    n = p.size
    H = _random_hessians(n, 2, seed=n)
    u = generator(n, "quadratic-iid-u").normal(size=(n, 2))
    agg = Aggregation(q=np.linspace(0.5, 1.5, n), normalised=normalised, server_lr=0.7)
    probs = set_probabilities(p)
    P = np.repeat(probs[None, :], probs.size, axis=0)  # i.i.d. states = independent links
    bern = bernoulli_quadratic_limit(p, H, u, agg, lr=0.2, local_steps=2)
    mark = markov_quadratic_limit(P, availability_sets(n), H, u, agg, lr=0.2, local_steps=2)
    assert np.allclose(bern.limit, mark.limit, rtol=1e-9, atol=1e-9)


def test_full_participation_one_step_is_unbiased_more_steps_are_not():
    n, d = 4, 3
    H = _random_hessians(n, d, seed=3)
    u = generator(3, "quadratic-wang-u").normal(size=(n, d))
    x_star = quadratic_optimum(H, u)
    # Independent check of x*: the gradient of the average objective vanishes there.
    assert np.allclose(np.einsum("kij,kj->i", H, x_star - u), 0.0, atol=1e-12)
    one = bernoulli_quadratic_limit(np.ones(n), H, u, lr=0.1, local_steps=1)
    assert np.allclose(one.limit, x_star, atol=1e-12)  # full-batch GD on F
    many = bernoulli_quadratic_limit(np.ones(n), H, u, lr=0.1, local_steps=[1, 5, 10, 20])
    assert np.linalg.norm(many.limit - x_star) > 1e-3  # objective inconsistency, ref. [11]


def test_monte_carlo_general_quadratic_within_five_standard_errors():
    n, d = 3, 2
    p = np.array([0.25, 0.6, 0.9])
    H = _random_hessians(n, d, seed=7, scale=2.0)
    u = np.array([[2.0, -1.0], [-1.0, 1.0], [0.5, 3.0]])
    lr, steps = 0.15, 4
    result = bernoulli_quadratic_limit(p, H, u, lr=lr, local_steps=steps)
    B = local_operators(H, lr, steps)
    runs, rounds, burn = 300, 1500, 300
    sampler = bernoulli_sampler(p, runs, seed=21)
    x = np.zeros((runs, d))
    total = np.zeros((runs, d))
    for t in range(rounds):
        coef = FEDAVG.coefficients(sampler(t))
        x = x + np.einsum("rk,kij,rkj->ri", coef, B, u[None] - x[:, None, :])
        if t >= burn:
            total += x
    means = total / (rounds - burn)
    se = means.std(axis=0, ddof=1) / np.sqrt(runs)
    assert np.all(np.abs(means.mean(axis=0) - result.limit) <= 5 * se)


def test_errors():
    H = np.repeat(np.eye(2)[None], 2, axis=0)
    u = np.zeros((2, 2))
    with pytest.raises(InputError):
        local_operators(np.array([[[1.0, 2.0], [0.0, 1.0]]]), 0.1)
    with pytest.raises(InputError):
        local_operators(H, 2.5)
    with pytest.raises(InputError):
        local_gain(0.1, 0)
    with pytest.raises(InputError):
        bernoulli_quadratic_limit([0.5, 0.5], H[:1], u, lr=0.1)
    singular = np.zeros((2, 2, 2))
    with pytest.raises(AssumptionViolation):
        quadratic_optimum(singular, u)
