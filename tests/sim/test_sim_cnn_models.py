"""The authors' CIFAR-10 CNN and ResNet-18 (GroupNorm): output shapes, parameter counts against
closed-form formulas, batched gradients against central finite differences, the registry, and
(on a GPU only) the CUDA twin of the CPU computation."""

import numpy as np
import pytest
import torch

from fltheory.errors import InputError
from fltheory.sim.cnn import AuthorsCifarCNN, ResNet18
from fltheory.sim.registries import MODELS, ModelShape


def cifar_cnn_params(c: int, h: int, w: int, hidden: int, classes: int) -> int:
    """Two valid 5×5 convolutions (32, 64 channels) with 2×2 pools, then two linear layers."""
    h2, w2 = ((h - 4) // 2 - 4) // 2, ((w - 4) // 2 - 4) // 2
    conv = (25 * c * 32 + 32) + (25 * 32 * 64 + 64)
    return conv + (64 * h2 * w2 * hidden + hidden) + (hidden * classes + classes)


def resnet18_params(c: int, width: int, classes: int) -> int:
    """3×3 stem (no bias) + GN, four stages of two BasicBlocks, 1×1 projections, FC."""
    total = 9 * c * width + 2 * width
    c_in = width
    for stage in range(4):
        ch = width * 2**stage
        total += 9 * c_in * ch + 2 * ch + 9 * ch * ch + 2 * ch  # block 1
        if c_in != ch:
            total += c_in * ch + 2 * ch  # projection shortcut
        total += 2 * (9 * ch * ch + 2 * ch)  # block 2
        c_in = ch
    return total + c_in * classes + classes


def test_parameter_counts_match_the_formulas():
    assert AuthorsCifarCNN((3, 32, 32), 10).n_params == cifar_cnn_params(3, 32, 32, 2048, 10)
    assert cifar_cnn_params(3, 32, 32, 2048, 10) == 3_353_034  # 1600 → 2048 → 10
    assert AuthorsCifarCNN((1, 20, 24), 4, hidden=7).n_params == cifar_cnn_params(1, 20, 24, 7, 4)
    assert ResNet18((3, 32, 32), 10).n_params == resnet18_params(3, 64, 10) == 11_173_962
    assert ResNet18((1, 8, 8), 3, width=4, groups=2).n_params == resnet18_params(1, 4, 3)


def test_output_shapes_and_group_norm_start():
    gen = torch.Generator().manual_seed(0)
    for model in (AuthorsCifarCNN((3, 16, 16), 5, hidden=6), ResNet18((3, 8, 8), 5, width=2)):
        theta = torch.as_tensor(np.stack([model.initial_params(s) for s in range(3)]))
        x = torch.rand(7, model.n_features, generator=gen, dtype=torch.float64)
        assert model.logits(theta, x).shape == (3, 7, 5)
        assert model.predict(theta, x).shape == (3, 7)
    resnet = ResNet18((1, 8, 8), 3, width=2, groups=1)
    theta0 = resnet.initial_params(0)
    start = dict(zip(resnet._names, np.split(theta0, np.cumsum(resnet._sizes)[:-1]), strict=True))
    assert (start["1.weight"] == 1.0).all() and (start["1.bias"] == 0.0).all()
    assert np.abs(start["0.weight"]).max() <= 1 / 3  # conv stem: fan_in 9


@pytest.mark.parametrize(
    "model",
    [
        AuthorsCifarCNN((1, 16, 16), 3, hidden=4, ridge=1e-2),
        ResNet18((1, 8, 8), 3, width=2, groups=1, ridge=1e-2),
    ],
    ids=["cifar_cnn", "resnet18"],
)
def test_gradients_equal_central_finite_differences(model):
    gen = torch.Generator().manual_seed(1)
    m, b = 2, 3
    theta = torch.as_tensor(np.stack([model.initial_params(s) for s in range(m)]))
    x = torch.rand(m, b, model.n_features, generator=gen, dtype=torch.float64)
    y = torch.randint(0, model.n_classes, (m, b), generator=gen)
    losses, grads = model.loss_grad(theta, x, y)
    torch.testing.assert_close(losses, model.batch_losses(theta, x, y), rtol=1e-12, atol=0)
    coords = np.random.default_rng(0).choice(model.n_params, 10, replace=False)
    h = 1e-6
    for i in range(m):
        for j in coords:
            up, down = theta[i : i + 1].clone(), theta[i : i + 1].clone()
            up[0, j] += h
            down[0, j] -= h
            diff = model.batch_losses(up, x[i : i + 1], y[i : i + 1])
            diff = diff - model.batch_losses(down, x[i : i + 1], y[i : i + 1])
            assert grads[i, j].item() == pytest.approx(diff.item() / (2 * h), abs=1e-7, rel=1e-5)


def test_registered_models_and_bad_shapes():
    shape = ModelShape(3 * 32 * 32, 10, (3, 32, 32))
    cnn = MODELS.build("cifar_cnn", {"cnn_hidden": 8}, shape)
    assert cnn.n_params == cifar_cnn_params(3, 32, 32, 8, 10)
    resnet = MODELS.build("resnet18", {"resnet_width": 4, "resnet_groups": 4}, shape)
    assert resnet.n_params == resnet18_params(3, 4, 10)
    with pytest.raises(InputError, match="multiple of groups"):
        ResNet18((3, 32, 32), 10, width=6, groups=4)
    with pytest.raises(InputError, match="at least 16"):
        AuthorsCifarCNN((1, 8, 8), 10)
    with pytest.raises(InputError, match="image problem"):
        MODELS.build("resnet18", {}, ModelShape(64, 10))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA is not available")
@pytest.mark.parametrize("name", ["cifar_cnn", "resnet18"])
def test_cuda_twin_of_the_cpu_gradients(name):
    params = {"cnn_hidden": 16} if name == "cifar_cnn" else {"resnet_width": 4}
    model = MODELS.build(name, params, ModelShape(3 * 32 * 32, 10, (3, 32, 32)))
    gen = torch.Generator().manual_seed(2)
    theta = torch.as_tensor(np.stack([model.initial_params(s) for s in range(3)]))
    x = torch.rand(3, 5, model.n_features, generator=gen, dtype=torch.float64)
    y = torch.randint(0, 10, (3, 5), generator=gen)
    cpu = model.loss_grad(theta, x, y)
    gpu = model.loss_grad(theta.cuda(), x.cuda(), y.cuda())
    for a, b in zip(cpu, gpu, strict=True):
        torch.testing.assert_close(b.cpu(), a, rtol=1e-9, atol=1e-12)
