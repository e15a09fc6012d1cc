"""Convolutional models on flat parameter vectors, batched over clients with torch.func.

A :class:`TorchModel` wraps an ``nn.Module`` used only as a function: θ (P,) is cut into the
module's parameter tensors and run through ``torch.func.functional_call``; the base
:class:`~fltheory.sim.models.Model` then vmaps ``grad`` over the M stacked parameter vectors of
a local-SGD batch, so every client of every repetition trains in one call.

* :class:`SmallCNN` — CA-Fed ToN Appendix G1(c): "two convolutional layers followed by one fully
  connected layer". The text gives no sizes; we take conv(c₁, k×k, same padding) → ReLU →
  2×2 max-pool → conv(c₂, k×k) → ReLU → 2×2 max-pool → linear, with c₁ = 32, c₂ = 64, k = 5.
* :class:`LeNet5` — FedAR Section 6.1's CIFAR-10 model: conv(6, 5×5) → ReLU → pool → conv(16,
  5×5) → ReLU → pool → 120 → 84 → classes (ReLU, no padding).
* :class:`AuthorsCifarCNN` — the CA-Fed authors' ``CIFAR10CNN`` (arodio/CA-Fed): conv(32, 5×5,
  valid) → ReLU → pool → conv(64, 5×5, valid) → ReLU → pool → FC 2048 → ReLU → FC classes
  (1600 → 2048 → 10 on CIFAR-10, 3,353,034 parameters).
* :class:`ResNet18` — FedAR Section 6.1's SVHN model, the CIFAR-style ResNet-18 (3×3 stem, no
  max-pool, BasicBlocks [2, 2, 2, 2] of w/2w/4w/8w channels, strides 1/2/2/2, global average
  pool, FC) with **GroupNorm** in place of BatchNorm (running statistics are buffers, which do
  not fit flat parameter vectors vmapped over clients): a registered deviation. w = 64 gives
  11,173,962 parameters.

Initial parameters (:meth:`TorchModel.initial_params`) are U(−1/√fan_in, 1/√fan_in) for every
weight and bias (PyTorch's default for these layers), from ``generator(seed, ...)``; GroupNorm
scales start at 1 and shifts at 0 (PyTorch's default for normalisation layers).
"""

import math
from collections.abc import Mapping

import numpy as np
import torch
from torch import nn
from torch.func import functional_call, vmap

from fltheory.errors import InputError
from fltheory.rng import generator
from fltheory.sim.models import Model, _check_ridge


class TorchModel(Model):
    """A module evaluated on flat parameter vectors; inputs are flattened (C·H·W) images."""

    def __init__(self, module: nn.Module, shape: tuple[int, int, int], ridge: float) -> None:
        self.module, self.shape, self.ridge = module, tuple(shape), _check_ridge(ridge)
        params = dict(module.named_parameters())
        self._names = list(params)
        self._shapes = [tuple(p.shape) for p in params.values()]
        self._sizes = [p.numel() for p in params.values()]
        self._fan_in = [self._fan(name, params) for name in self._names]
        norms = {n for n, m in module.named_modules() if isinstance(m, nn.GroupNorm)}
        #: parameters with a constant start: GroupNorm scale 1, shift 0.
        self._constant = {
            name: 1.0 if name.endswith("weight") else 0.0
            for name in self._names
            if name.rsplit(".", 1)[0] in norms
        }
        self.n_params = int(sum(self._sizes))
        self.n_features = int(np.prod(self.shape))

    @staticmethod
    def _fan(name: str, params: Mapping[str, torch.Tensor]) -> int:
        weight = params[name.rsplit(".", 1)[0] + ".weight"]
        return int(weight[0].numel())

    def _params(self, theta: torch.Tensor) -> dict[str, torch.Tensor]:
        pieces = torch.split(theta, self._sizes)
        return {n: p.view(s) for n, p, s in zip(self._names, pieces, self._shapes, strict=True)}

    def forward(self, theta: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """Logits (S, C) of one parameter vector for flattened images x (S, C·H·W)."""
        images = x.reshape(x.shape[0], *self.shape)
        out: torch.Tensor = functional_call(self.module, self._params(theta), (images,))
        return out

    def sample_losses(self, theta: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return nn.functional.cross_entropy(self.forward(theta, x), y, reduction="none")

    def logits(self, w: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return vmap(self.forward, in_dims=(0, None))(w, x)

    def predict(self, w: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return self.logits(w, x).argmax(-1)

    def global_losses(self, w: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        z = self.logits(w, x)
        return torch.logsumexp(z, -1) - z.gather(-1, y.expand(z.shape[0], -1)[..., None])[..., 0]

    def initial_params(self, seed: int) -> np.ndarray:
        """θ₀ with every entry U(−1/√fan_in, 1/√fan_in) (fan_in of its layer); GroupNorm
        scales 1 and shifts 0."""
        rng = generator(seed, "sim/models/init")
        parts = [
            np.full(size, self._constant[name])
            if name in self._constant
            else rng.uniform(-1.0, 1.0, size) / math.sqrt(fan)
            for name, size, fan in zip(self._names, self._sizes, self._fan_in, strict=True)
        ]
        return np.concatenate(parts)


def _flat_size(body: nn.Module, shape: tuple[int, int, int]) -> int:
    with torch.no_grad():
        return int(body(torch.zeros(1, *shape)).numel())


class SmallCNN(TorchModel):
    """Two conv layers (same padding, ReLU, 2×2 max-pool) and one linear layer."""

    def __init__(
        self,
        shape: tuple[int, int, int],
        n_classes: int,
        channels: tuple[int, int] = (32, 64),
        kernel: int = 5,
        ridge: float = 0.0,
    ) -> None:
        c, h, w = shape
        if min(h, w) < 4 or kernel < 1 or kernel % 2 == 0 or min(channels) < 1:
            raise InputError("the CNN needs images of at least 4×4 and an odd kernel size")
        body = nn.Sequential(
            nn.Conv2d(c, channels[0], kernel, padding=kernel // 2),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(channels[0], channels[1], kernel, padding=kernel // 2),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Flatten(),
        )
        module = nn.Sequential(body, nn.Linear(_flat_size(body, shape), n_classes))
        self.n_classes = n_classes
        super().__init__(module.to(torch.float64), shape, ridge)


class LeNet5(TorchModel):
    """LeNet-5 (ReLU, max-pool) for C×H×W images with H, W ≥ 16."""

    def __init__(self, shape: tuple[int, int, int], n_classes: int, ridge: float = 0.0) -> None:
        c, h, w = shape
        if min(h, w) < 16:
            raise InputError(f"LeNet-5 needs images of at least 16×16, got {h}×{w}")
        body = nn.Sequential(
            nn.Conv2d(c, 6, 5),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(6, 16, 5),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Flatten(),
        )
        module = nn.Sequential(
            body,
            nn.Linear(_flat_size(body, shape), 120),
            nn.ReLU(),
            nn.Linear(120, 84),
            nn.ReLU(),
            nn.Linear(84, n_classes),
        )
        self.n_classes = n_classes
        super().__init__(module.to(torch.float64), shape, ridge)


class AuthorsCifarCNN(TorchModel):
    """The CA-Fed authors' ``CIFAR10CNN``: two valid 5×5 convolutions (32, 64; ReLU, 2×2
    max-pool) and two linear layers (hidden 2048, ReLU)."""

    def __init__(
        self, shape: tuple[int, int, int], n_classes: int, hidden: int = 2048, ridge: float = 0.0
    ) -> None:
        c, h, w = shape
        if min(h, w) < 16 or hidden < 1:
            raise InputError(f"the authors' CIFAR CNN needs images of at least 16×16, got {h}×{w}")
        body = nn.Sequential(
            nn.Conv2d(c, 32, 5),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 5),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Flatten(),
        )
        module = nn.Sequential(
            body,
            nn.Linear(_flat_size(body, shape), hidden),
            nn.ReLU(),
            nn.Linear(hidden, n_classes),
        )
        self.n_classes = n_classes
        super().__init__(module.to(torch.float64), shape, ridge)


class _BasicBlock(nn.Module):
    """Two 3×3 convolutions with GroupNorm and a residual (1×1 projection when the shape
    changes)."""

    def __init__(self, c_in: int, c_out: int, stride: int, groups: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False)
        self.norm1 = nn.GroupNorm(groups, c_out)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False)
        self.norm2 = nn.GroupNorm(groups, c_out)
        self.shortcut = nn.Sequential()
        if stride != 1 or c_in != c_out:
            self.shortcut = nn.Sequential(
                nn.Conv2d(c_in, c_out, 1, stride, bias=False), nn.GroupNorm(groups, c_out)
            )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.relu(self.norm1(self.conv1(x)))
        return torch.relu(self.norm2(self.conv2(out)) + self.shortcut(x))


class ResNet18(TorchModel):
    """CIFAR-style ResNet-18 with GroupNorm (``groups`` groups per layer) and base width w."""

    def __init__(
        self,
        shape: tuple[int, int, int],
        n_classes: int,
        width: int = 64,
        groups: int = 2,
        ridge: float = 0.0,
    ) -> None:
        c, h, w = shape
        if min(h, w) < 8:
            raise InputError(f"ResNet-18 needs images of at least 8×8, got {h}×{w}")
        if width < 1 or groups < 1 or width % groups:
            raise InputError(f"ResNet-18's width {width} must be a multiple of groups {groups}")
        layers: list[nn.Module] = [
            nn.Conv2d(c, width, 3, 1, 1, bias=False),
            nn.GroupNorm(groups, width),
            nn.ReLU(),
        ]
        c_in = width
        for stage, stride in enumerate((1, 2, 2, 2)):
            c_out = width * 2**stage
            layers += [
                _BasicBlock(c_in, c_out, stride, groups),
                _BasicBlock(c_out, c_out, 1, groups),
            ]
            c_in = c_out
        layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c_in, n_classes)]
        self.n_classes = n_classes
        super().__init__(nn.Sequential(*layers).to(torch.float64), shape, ridge)
