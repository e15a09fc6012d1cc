"""Problem (14): cvxpy (perspective/DPP form) vs brute force, the c_bias → 0 and c_bias → ∞
limits, and parameter sweeps.

Tolerances: objective within 1e-8 relative and q within 1e-5·Q of a brute-force SLSQP
multi-start (bounded away from 0 by 1e-9 since χ² blows up there).
"""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings

from fltheory.errors import InputError
from fltheory.optimize import problem14, problem212
from fltheory.optimize.problem14 import Problem14
from fltheory.rng import generator
from fltheory.testing.weights import (
    WeightInstance,
    simplex_reference_minimum,
    weight_instances,
)


def f14(q, inst, c_opt, c_bias, gamma, const, denom):
    """c_opt·((½qᵀSq + v)/πᵀq + const)/denom + c_bias·Γ·Σ(α − p)²/p, written independently."""
    eps_opt = ((0.5 * np.sum(inst.s * q**2) + inst.v) / np.sum(inst.pi * q) + const) / denom
    if c_bias * gamma == 0:
        return c_opt * eps_opt
    p = inst.pi * q / np.sum(inst.pi * q)
    return c_opt * eps_opt + c_bias * gamma * np.sum((inst.alpha - p) ** 2 / p)


@settings(max_examples=20)
@given(weight_instances(min_clients=2, max_clients=5))
def test_matches_brute_force(inst):
    args = dict(c_opt=1.3, c_bias=0.7, gamma=0.5, const=0.2, denom=2.0)
    res = problem14.solve(inst.pi, inst.alpha, inst.s, inst.v, inst.Q, **args)
    f = lambda q: f14(q, inst, **args)  # noqa: E731
    ref = simplex_reference_minimum(f, inst.n, inst.Q, seed=3, starts=4, lower=1e-9 * inst.Q)
    assert res.objective <= f(ref) * (1 + 1e-8)
    assert abs(res.objective - f(ref)) <= 1e-8 * abs(f(ref))
    assert abs(res.objective - f(res.q)) <= 1e-13 * abs(res.objective)  # recomputed in numpy
    assert np.max(np.abs(res.q - ref)) <= 1e-5 * inst.Q
    assert res.excluded == ()  # χ² is infinite at q_k = 0 < α_k
    assert res.extras["eps_opt"] * 1.3 + res.extras["eps_bias"] * 0.7 == pytest.approx(
        res.objective, rel=1e-12
    )


@settings(max_examples=10)
@given(weight_instances(min_clients=2, max_clients=6))
def test_zero_bias_weight_is_problem_212(inst):
    res = problem14.solve(inst.pi, inst.alpha, inst.s, inst.v, inst.Q, c_bias=0.0, const=0.5)
    f = lambda q: f14(q, inst, 1.0, 0.0, 1.0, 0.5, 1.0)  # noqa: E731
    ref = simplex_reference_minimum(f, inst.n, inst.Q, seed=5, starts=4)
    assert abs(res.objective - f(ref)) <= 1e-8 * f(ref)
    assert np.max(np.abs(res.q - ref)) <= 1e-6 * inst.Q


@given(weight_instances(min_clients=2, max_clients=6))
def test_small_bias_weight_approaches_problem_212(inst):
    # Continuity in c_bias: c·ε̄_opt(q*_212) ≤ obj14(c_bias) ≤ obj14 at ANY fixed interior q.
    closed = problem212.solve_closed_form(inst.pi, inst.s, inst.v, inst.Q)
    res = problem14.solve(inst.pi, inst.alpha, inst.s, inst.v, inst.Q, c_bias=1e-6)
    assert res.objective >= closed.objective * (1 - 1e-9)
    mixed = 0.999 * closed.q + 0.001 * inst.Q / inst.n
    assert res.objective <= f14(mixed, inst, 1.0, 1e-6, 1.0, 0.0, 1.0) * (1 + 1e-9)


def test_large_bias_weight_tends_to_the_unbiased_weights():
    # Guideline C: as c_bias/c_opt → ∞, q* → Q·(α/π)/Σ(α/π); the gap shrinks like 1/ratio.
    pi = np.array([0.1, 0.35, 0.6, 0.9])
    alpha = np.array([0.4, 0.3, 0.2, 0.1])
    s, v, Q = np.array([2.0, 0.5, 1.0, 3.0]), 4.0, 1.0
    unbiased = (alpha / pi) / np.sum(alpha / pi) * Q
    prob = Problem14(pi, alpha, s, v, Q)
    gaps = [np.max(np.abs(prob.solve(1.0, r).q - unbiased)) for r in (1e1, 1e2, 1e3, 1e4, 1e5)]
    assert all(b < a for a, b in itertools.pairwise(gaps))
    ratios = np.array(gaps[1:]) / np.array(gaps[:-1])
    assert np.all((ratios > 0.05) & (ratios < 0.2))  # ~ one decade per decade of c_bias
    assert gaps[-1] < 1e-4 * Q


def test_problem_is_dcp_and_dpp_and_sweeps_match_fresh_solves():
    pi = np.array([0.15, 0.5, 0.95])
    alpha = np.array([0.5, 0.3, 0.2])
    s, v, Q = np.array([1.0, 1.0, 1.0]), 10.0, 2.0
    prob = Problem14(pi, alpha, s, v, Q)
    assert prob.cvxpy_problem.is_dcp() and prob.cvxpy_problem.is_dpp()
    for c_bias in (0.01, 1.0, 100.0):
        swept = prob.solve(1.0, c_bias)
        fresh = problem14.solve(pi, alpha, s, v, Q, c_bias=c_bias)
        np.testing.assert_allclose(swept.q, fresh.q, atol=1e-9)


def test_more_bias_weight_means_less_bias():
    # The bias term is nonincreasing and the opt term nondecreasing along the trade-off.
    pi = np.array([0.1, 0.4, 0.8])
    alpha = np.array([1 / 3, 1 / 3, 1 / 3])
    prob = Problem14(pi, alpha, np.ones(3), 20.0, 1.0)
    results = [prob.solve(1.0, c) for c in (0.01, 0.1, 1.0, 10.0)]
    bias = [r.extras["eps_bias"] for r in results]
    opt = [r.extras["eps_opt"] for r in results]
    assert all(b <= a + 1e-12 for a, b in itertools.pairwise(bias))
    assert all(b >= a - 1e-12 for a, b in itertools.pairwise(opt))


def test_zero_target_weight_clients_can_be_excluded():
    # α₁ = 0 and low availability: nothing forces weight onto client 1.
    res = problem14.solve([0.05, 0.9], [0.0, 1.0], [1.0, 1.0], 5.0, 1.0)
    assert res.excluded == (0,)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(alpha=[0.5, 0.6]),
        dict(alpha=[-0.5, 1.5]),
        dict(alpha=[1.0]),
        dict(c_opt=0.0, c_bias=0.0),
        dict(c_bias=-1.0),
        dict(gamma=-1.0),
        dict(denom=0.0),
    ],
)
def test_invalid_inputs_raise_input_error(kwargs):
    base = dict(pi=[0.3, 0.7], alpha=[0.5, 0.5], s=[1.0, 1.0], v=1.0, Q=1.0)
    base.update(kwargs)
    with pytest.raises(InputError):
        problem14.solve(**base)


def test_extreme_scale_falls_back_and_still_beats_every_probe():
    # v ≫ everything (as when v carries the 2^N states of a product chain): the interior-point
    # solve is hopeless in double precision; the Newton fallback must still return a q no
    # worse than any probe point, including the exact problem-212 minimiser blended in.
    pi = np.array([0.2, 0.5, 0.9, 0.9, 0.4])
    alpha = np.full(5, 0.2)
    s, v, Q = np.full(5, 1e-3), 1e25, 1.0
    res = problem14.solve(pi, alpha, s, v, Q)
    inst = WeightInstance(pi=pi, alpha=alpha, s=s, v=v, Q=Q)
    rng = generator(0, "problem14-probes")
    probes = [Q * rng.dirichlet(np.ones(5)) for _ in range(50)]
    probes.append(np.array([1e-12, 1e-12, 0.5, 0.5, 1e-12]) / (1 + 3e-12))
    for q in probes:
        assert res.objective <= f14(q, inst, 1.0, 1.0, 1.0, 0.0, 1.0) * (1 + 1e-12)
    assert res.kkt_residual < 1e-5
    assert set(res.excluded) == {0, 1, 4}  # weights below 1e-7·Q: the least available


def test_single_client_has_no_bias():
    res = problem14.solve([0.4], [1.0], [2.0], 3.0, 2.5)
    np.testing.assert_allclose(res.q, [2.5], rtol=1e-12)
    assert res.extras["eps_bias"] == 0.0
