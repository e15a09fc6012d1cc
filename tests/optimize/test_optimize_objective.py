"""Gradients, the structured Hessian, the KKT residual and the Newton polish, each against an
independent computation (finite differences, dense algebra, a known optimum)."""

import numpy as np
import pytest
from hypothesis import given

from fltheory.errors import NumericalError
from fltheory.optimize.kkt import simplex_kkt
from fltheory.optimize.objective import (
    chi_square_grad,
    opt_fraction_grad,
    structured_hessian,
)
from fltheory.optimize.polish import newton_polish
from fltheory.optimize.result import finalize
from fltheory.testing.weights import weight_instances


def f_opt(q, inst):
    return (0.5 * np.sum(inst.s * q**2) + inst.v) / np.sum(inst.pi * q)


def f_chi(q, inst):
    p = inst.pi * q / np.sum(inst.pi * q)
    return np.sum((inst.alpha - p) ** 2 / p)


def fd_grad(f, q, h=1e-6):
    eye = np.eye(q.size)
    return np.array(
        [(f(q + h * q[k] * e) - f(q - h * q[k] * e)) / (2 * h * q[k]) for k, e in enumerate(eye)]
    )


def interior_point(inst):
    return inst.Q * (0.3 + inst.pi) / np.sum(0.3 + inst.pi)


@given(weight_instances(min_clients=1, max_clients=6))
def test_gradients_match_finite_differences(inst):
    q = interior_point(inst)
    g_opt, scale_opt = opt_fraction_grad(q, inst.pi, inst.s, inst.v)
    np.testing.assert_allclose(
        g_opt, fd_grad(lambda x: f_opt(x, inst), q), rtol=1e-5, atol=1e-7 * scale_opt
    )
    g_chi, scale_chi = chi_square_grad(q, inst.pi, inst.alpha)
    np.testing.assert_allclose(
        g_chi, fd_grad(lambda x: f_chi(x, inst), q), rtol=1e-5, atol=1e-7 * scale_chi
    )


@given(weight_instances(min_clients=1, max_clients=6))
def test_structured_hessian_matches_finite_differences_of_the_gradient(inst):
    q = interior_point(inst)
    w_opt, w_bias = 0.7, 1.9

    def grad(x):
        return (
            w_opt * opt_fraction_grad(x, inst.pi, inst.s, inst.v)[0]
            + w_bias * chi_square_grad(x, inst.pi, inst.alpha)[0]
        )

    h = 1e-6
    dense_fd = np.column_stack(
        [
            (grad(q + h * q[k] * e) - grad(q - h * q[k] * e)) / (2 * h * q[k])
            for k, e in enumerate(np.eye(q.size))
        ]
    )
    diag, U, C = structured_hessian(q, inst.pi, inst.s, inst.v, w_opt, inst.alpha, w_bias)
    dense = np.diag(diag) + U @ C @ U.T
    np.testing.assert_allclose(dense, dense_fd, rtol=1e-4, atol=1e-6 * np.max(np.abs(dense)))


def test_kkt_residual_separates_optimal_from_suboptimal():
    # f(q) = ½Σ q_k² on the simplex Σq = 1 has the optimum q = 1/N (μ = −1/N).
    n = 4
    opt = np.full(n, 0.25)
    rep = simplex_kkt(opt, opt.copy(), 1.0)
    assert rep.residual < 1e-15 and rep.mu == pytest.approx(-0.25)
    off = np.array([0.4, 0.2, 0.2, 0.2])
    assert simplex_kkt(off, off.copy(), 1.0).residual > 0.1
    # A vertex is optimal for a linear f whose smallest gradient entry is there.
    vertex = np.array([0.0, 1.0, 0.0, 0.0])
    g = np.array([3.0, 1.0, 2.0, 5.0])
    rep = simplex_kkt(vertex, g, 1.0)
    assert rep.residual == 0.0
    np.testing.assert_allclose(rep.omega, [2.0, 0.0, 1.0, 4.0])
    assert simplex_kkt(np.array([1.0, 0.0, 0.0, 0.0]), g, 1.0).residual > 0.1


def test_newton_polish_reaches_a_known_interior_optimum():
    # f(q) = Σ c_k/q_k on Σq = 1 has q_k* ∝ √c_k (Lagrange), far from the start.
    c = np.array([1.0, 4.0, 9.0])
    target = np.sqrt(c) / np.sum(np.sqrt(c))

    def hess(q):
        return 2 * c / q**3, np.zeros((3, 2)), np.eye(2)

    q = newton_polish(
        np.array([0.98, 0.01, 0.01]),
        np.ones(3, bool),
        lambda q: float(np.sum(c / q)),
        lambda q: (-c / q**2, 1.0),
        hess,
    )
    np.testing.assert_allclose(q, target, rtol=1e-12)


def test_finalize_refuses_nan_negative_and_suboptimal_answers():
    pi = np.array([0.5, 0.5])
    kwargs = dict(
        problem="test",
        pi=pi,
        Q=1.0,
        objective=lambda q: 0.5 * float(q @ q),
        gradient=lambda q: (q.copy(), 1.0),
        solver="x",
        solve_time=0.0,
    )
    with pytest.raises(NumericalError):
        finalize(np.array([np.nan, 1.0]), **kwargs)
    with pytest.raises(NumericalError):
        finalize(np.array([-0.5, 1.5]), **kwargs)
    with pytest.raises(NumericalError):
        finalize(np.array([0.9, 0.1]), **kwargs)
    res = finalize(np.array([0.5, 0.5 + 1e-9]), **kwargs)
    assert res.q.sum() == pytest.approx(1.0, abs=1e-15) and res.excluded == ()
