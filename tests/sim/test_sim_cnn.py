"""The CNN and LeNet-5 on flat parameter vectors against plain nn.Module autograd, and the
vectorised engine against the reference loop with the CNN on scikit-learn digits."""

import numpy as np
import pytest
import torch
from torch.nn.utils import vector_to_parameters

from fltheory.sim import algorithms as algs
from fltheory.sim.availability import BernoulliLinks
from fltheory.sim.cnn import LeNet5, SmallCNN
from fltheory.sim.compare import Setup
from fltheory.sim.datasets import digits
from fltheory.sim.partitions import dirichlet_shares, federate, subsample
from fltheory.sim.problems import DataProblem
from fltheory.sim.settings import AlgorithmSpec, Schedule, SimSettings


@pytest.mark.parametrize(
    "model",
    [SmallCNN((1, 8, 8), 10, channels=(3, 4), kernel=3, ridge=1e-2), LeNet5((3, 16, 16), 4)],
    ids=["cnn", "lenet5"],
)
def test_batched_gradients_equal_module_autograd(model):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    m, b = 3, 4
    theta = torch.as_tensor(np.stack([model.initial_params(s) for s in range(m)]))
    x = torch.rand(m, b, model.n_features, generator=gen, dtype=torch.float64)
    y = torch.randint(0, model.n_classes, (m, b), generator=gen)
    losses, grads = model.loss_grad(theta, x, y)
    for i in range(m):
        module = model.module
        vector_to_parameters(theta[i].clone(), module.parameters())
        module.zero_grad()
        logits = module(x[i].view(b, *model.shape))
        loss = torch.nn.functional.cross_entropy(logits, y[i])
        loss = loss + 0.5 * model.ridge * sum((p * p).sum() for p in module.parameters())
        loss.backward()
        expected = torch.cat([p.grad.reshape(-1) for p in module.parameters()])
        assert losses[i].item() == pytest.approx(loss.item(), rel=1e-12)
        torch.testing.assert_close(grads[i], expected, rtol=1e-10, atol=1e-12)
        # global evaluation uses the same forward pass
        z = model.logits(theta[i : i + 1], x[i])[0]
        torch.testing.assert_close(z, logits.detach(), rtol=1e-12, atol=1e-12)


def test_initial_parameters_follow_fan_in():
    model = SmallCNN((1, 8, 8), 10, channels=(3, 4), kernel=3)
    theta = model.initial_params(0)
    conv1 = 3 * 1 * 3 * 3  # first weight block, fan_in = 1·3·3 = 9
    assert np.abs(theta[:conv1]).max() <= 1 / 3 and np.abs(theta[:conv1]).max() > 0.25
    np.testing.assert_array_equal(theta, model.initial_params(0))
    assert not np.array_equal(theta, model.initial_params(1))


def _digits_problem():
    images = subsample(digits(), 240, 80, seed=0)
    shares = dirichlet_shares(4, 10, 0.5, np.bincount(images.y_train, minlength=10), seed=0)
    data = federate(images, shares, seed=0)
    model = SmallCNN(images.shape, 10, channels=(2, 3), kernel=3, ridge=1e-3)
    return DataProblem(model, data, data.train_counts.astype(float), dtype=torch.float64)


def test_cnn_engine_equals_reference_loop():
    problem = _digits_problem()
    settings = SimSettings(rounds=3, local_steps=2, batch_size=5)
    setup = Setup(problem, BernoulliLinks(np.array([0.9, 0.5, 0.7, 0.3])), settings, 1, 2)
    for alg in (algs.FedAvg(), algs.FedAR(), algs.FedPBC()):
        spec = AlgorithmSpec(alg.name, alg, Schedule(0.5))
        fast, slow = setup.run(spec), setup.run(spec, implementation="reference")
        np.testing.assert_allclose(fast.final_w, slow.final_w, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(fast.objective, slow.objective, rtol=1e-10)
        np.testing.assert_allclose(fast.accuracy, slow.accuracy, rtol=1e-10)
        np.testing.assert_allclose(fast.client_accuracy, slow.client_accuracy, atol=1e-12)
        assert not np.allclose(fast.final_w, setup.w0)
