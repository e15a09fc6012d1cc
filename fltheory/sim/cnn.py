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

Initial parameters (:meth:`TorchModel.initial_params`) are U(−1/√fan_in, 1/√fan_in) for every
weight and bias (PyTorch's default for these layers), from ``generator(seed, ...)``.
"""

import math

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
        self.n_params = int(sum(self._sizes))
        self.n_features = int(np.prod(self.shape))

    @staticmethod
    def _fan(name: str, params: dict) -> int:
        weight = params[name.rsplit(".", 1)[0] + ".weight"]
        return int(weight[0].numel())

    def _params(self, theta: torch.Tensor) -> dict[str, torch.Tensor]:
        pieces = torch.split(theta, self._sizes)
        return {n: p.view(s) for n, p, s in zip(self._names, pieces, self._shapes, strict=True)}

    def forward(self, theta: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """Logits (S, C) of one parameter vector for flattened images x (S, C·H·W)."""
        images = x.reshape(x.shape[0], *self.shape)
        return functional_call(self.module, self._params(theta), (images,))

    def sample_losses(self, theta, x, y):
        return nn.functional.cross_entropy(self.forward(theta, x), y, reduction="none")

    def logits(self, w, x):
        return vmap(self.forward, in_dims=(0, None))(w, x)

    def predict(self, w, x):
        return self.logits(w, x).argmax(-1)

    def global_losses(self, w, x, y):
        z = self.logits(w, x)
        return torch.logsumexp(z, -1) - z.gather(-1, y.expand(z.shape[0], -1)[..., None])[..., 0]

    def initial_params(self, seed: int) -> np.ndarray:
        """θ₀ with every entry U(−1/√fan_in, 1/√fan_in) (fan_in of its layer)."""
        rng = generator(seed, "sim/models/init")
        parts = [
            rng.uniform(-1.0, 1.0, size) / math.sqrt(fan)
            for size, fan in zip(self._sizes, self._fan_in, strict=True)
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
