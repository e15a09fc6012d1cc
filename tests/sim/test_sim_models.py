"""Closed-form batched losses/gradients vs the generic torch.func path (vmap of grad)."""

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from fltheory.sim.models import LogisticRegression, Model, SoftmaxRegression
from fltheory.sim.problems import QuadraticSim


def _batch(model, n_features, n_classes, m=5, b=7, seed=0):
    g = torch.Generator().manual_seed(seed)
    theta = torch.randn(m, model.n_params, generator=g, dtype=torch.float64)
    x = torch.randn(m, b, n_features, generator=g, dtype=torch.float64) * 2
    y = torch.randint(0, n_classes, (m, b), generator=g)
    weight = torch.rand(m, b, generator=g, dtype=torch.float64)
    return theta, x, y, weight / weight.sum(1, keepdim=True)


@pytest.mark.parametrize(
    ("model", "d", "c"),
    [(SoftmaxRegression(4, 3, 0.1), 4, 3), (LogisticRegression(5, 0.05), 5, 2)],
)
@pytest.mark.parametrize("weighted", [False, True])
def test_closed_form_gradients_match_torch_func(model, d, c, weighted):
    theta, x, y, weight = _batch(model, d, c)
    weight = weight if weighted else None
    loss, grad = model.loss_grad(theta, x, y, weight)
    ref_loss, ref_grad = Model.loss_grad(model, theta, x, y, weight)
    torch.testing.assert_close(loss, ref_loss, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(grad, ref_grad, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(model.batch_losses(theta, x, y, weight), ref_loss)
    torch.testing.assert_close(
        Model.batch_losses(model, theta, x, y, weight), ref_loss, rtol=1e-12, atol=1e-12
    )
    xs, ys = x[0], y[0]
    torch.testing.assert_close(
        model.global_losses(theta, xs, ys), Model.global_losses(model, theta, xs, ys)
    )


def test_softmax_loss_against_hand_value():
    # θ = 0: every class has score 0, so ℓ = log C for any sample; ridge adds (λ/2)‖θ‖² = 0.
    model = SoftmaxRegression(2, 4, ridge=0.3)
    theta = torch.zeros(1, model.n_params, dtype=torch.float64)
    x = torch.ones(1, 3, 2, dtype=torch.float64)
    loss, grad = model.loss_grad(theta, x, torch.tensor([[0, 1, 3]]))
    assert float(loss) == pytest.approx(np.log(4.0), rel=1e-15)
    # ∂/∂b_c = mean(softmax_c − 1{y = c}) = ¼ − (count of c)/3.
    torch.testing.assert_close(
        grad.view(4, 3)[:, -1],
        torch.tensor([0.25 - 1 / 3, 0.25 - 1 / 3, 0.25, 0.25 - 1 / 3], dtype=torch.float64),
    )


@given(st.integers(1, 6), st.floats(0.01, 0.4), st.sampled_from(["identity", "diag", "full"]))
def test_quadratic_closed_form_equals_explicit_local_steps(steps, lr, kind):
    rng = np.random.default_rng(steps)
    u = rng.normal(size=(4, 3))
    hess = {
        "identity": None,
        "diag": rng.uniform(0.2, 2.0, (4, 3)),
        "full": np.array([a @ a.T + 0.3 * np.eye(3) for a in rng.normal(size=(4, 3, 3)) / 2]),
    }[kind]
    problem = QuadraticSim(u, np.ones(4), hess, dtype=torch.float64)
    clients = torch.tensor([0, 3, 3, 1])
    theta = torch.as_tensor(rng.normal(size=(4, 3)))
    explicit = theta.clone()
    for _ in range(steps):
        explicit = explicit - lr * problem.loss_grad(explicit, clients)[1]
    torch.testing.assert_close(
        problem.local_sgd(theta, clients, None, lr, steps), explicit, rtol=1e-12, atol=1e-12
    )


def test_quadratic_optimum_is_a_stationary_point_of_the_objective():
    rng = np.random.default_rng(0)
    u = rng.normal(size=(5, 3))
    hess = np.array([a @ a.T + np.eye(3) for a in rng.normal(size=(5, 3, 3))])
    problem = QuadraticSim(u, rng.uniform(1, 2, 5), hess, dtype=torch.float64)
    w = torch.as_tensor(problem.w_star)[None].requires_grad_(True)
    (g,) = torch.autograd.grad(problem.objective(w).sum(), w)
    assert float(g.abs().max()) < 1e-12
    assert float(problem.distance(w.detach())[0]) == 0.0


def test_softmax_correct_matches_argmax_including_ties():
    model = SoftmaxRegression(3, 4, ridge=0.0)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(50, 3, generator=g, dtype=torch.float64)
    y = torch.randint(0, 4, (50,), generator=g)
    w = torch.randn(3, model.n_params, generator=g, dtype=torch.float64)
    w[0] = 0.0  # all scores tie: argmax picks class 0, so only label 0 counts as correct
    expected = model.logits(w, x).argmax(1) == y
    torch.testing.assert_close(model.correct(w, x, y), expected)
    assert model.correct(w, x, y)[0].tolist() == (y == 0).tolist()
