"""FedProx's local term (Li et al., MLSys 2020, eq. 2 of their paper): E SGD steps on
h_k(x; w) = F_k(x) + (μ/2)‖x − w‖², w the model the client received, i.e.
x ← x − η(∇F_k(x; B_j) + μ(x − w)) on the round's with-replacement minibatches (or full local
sets). μ = 0 is plain local SGD (:mod:`~fltheory.sim.local.sgd`).

Written as a measurement of the local-method contract (one module, nothing else edited); the
engine's function batches every pair with the problem's ``loss_grad``, the reference function
takes autograd gradients of the client's loss definition plus the proximal term.

>>> import torch
>>> from fltheory.sim.problems import QuadraticSim
>>> from fltheory.sim.local.base import ReferenceRound
>>> problem = QuadraticSim([[0.0], [2.0]], [0.5, 0.5], dtype=torch.float64)
>>> local = Proximal(mu=1.0).reference_round(ReferenceRound(problem, None, 0.5, 2, []))
>>> local(1, torch.zeros(1, dtype=torch.float64))  # the pull back to 0 slows the second step
tensor([1.], dtype=torch.float64)
"""

from dataclasses import dataclass

import numpy as np
import torch
from pydantic import Field

from fltheory.config import Strict
from fltheory.errors import InputError
from fltheory.sim.batches import RoundBatches
from fltheory.sim.contract import SimProblem
from fltheory.sim.local.base import (
    EngineLocal,
    EngineRound,
    LocalContext,
    LocalMethod,
    ReferenceLocalFn,
    ReferenceRound,
)
from fltheory.sim.local_opt import EpochRound, RepEpochs
from fltheory.sim.registries import LOCAL_METHODS


class ProximalParams(Strict):
    """Parameters of the proximal local method."""

    mu: float = Field(0.01, ge=0.0, description="proximal weight μ of h_k = F_k + (μ/2)‖x − w‖²")


@dataclass(frozen=True, eq=False)
class _EngineProx:
    problem: SimProblem
    batches: RoundBatches | np.ndarray | None
    lr: float
    steps: int
    mu: float

    def work(self, rr: np.ndarray, kk: np.ndarray) -> np.ndarray:
        return np.full(kk.shape, self.steps * self.lr)

    def __call__(
        self,
        rr: np.ndarray,
        kk: np.ndarray,
        theta0: torch.Tensor,
        correction: torch.Tensor | None = None,
    ) -> torch.Tensor:
        assert correction is None, "the proximal method takes no gradient correction"
        device = theta0.device
        kk_t = torch.as_tensor(kk, device=device)
        theta = theta0.clone()
        for j in range(self.steps):
            idx = None
            if self.batches is not None:
                idx = torch.as_tensor(self.batches[rr, j, kk], device=device)
            g = self.problem.loss_grad(theta, kk_t, idx)[1]
            theta = theta - self.lr * (g + self.mu * (theta - theta0))
        return theta


@dataclass(frozen=True, eq=False)
class _ReferenceProx:
    problem: SimProblem
    batches: np.ndarray | None
    lr: float
    steps: int
    mu: float

    def work(self, k: int) -> float:
        return self.steps * self.lr

    def __call__(
        self, k: int, x: torch.Tensor, correction: torch.Tensor | None = None
    ) -> torch.Tensor:
        assert correction is None, "the proximal method takes no gradient correction"
        w = x.detach().clone()
        for j in range(self.steps):
            x = x.detach().requires_grad_(True)
            idx = None if self.batches is None else self.batches[j, k]
            h = self.problem.client_loss(k, x, idx) + 0.5 * self.mu * torch.sum((x - w) ** 2)
            (g,) = torch.autograd.grad(h, x)
            x = x.detach() - self.lr * g
        return x.detach()


@dataclass(frozen=True)
class Proximal(LocalMethod):
    """E SGD steps on F_k plus FedProx's proximal term (μ/2)‖x − w‖²."""

    mu: float

    def engine_round(self, job: EngineRound) -> EngineLocal:
        if isinstance(job.batches, EpochRound):
            raise InputError("local method 'proximal' runs E steps, not local epochs")
        return _EngineProx(job.problem, job.batches, job.lr, job.local_steps, self.mu)

    def reference_round(self, job: ReferenceRound) -> ReferenceLocalFn:
        if isinstance(job.batches, RepEpochs):
            raise InputError("local method 'proximal' runs E steps, not local epochs")
        return _ReferenceProx(job.problem, job.batches, job.lr, job.local_steps, self.mu)


@LOCAL_METHODS.register("proximal", params=ProximalParams)
def build_proximal(params: ProximalParams, ctx: LocalContext) -> Proximal:
    """FedProx's proximal local term: E SGD steps on F_k + (μ/2)‖x − w‖² (Li et al. 2020).

    >>> from fltheory.sim.local_opt import LocalOptimiser
    >>> build_proximal(ProximalParams(mu=0.1), LocalContext(1, LocalOptimiser()))
    Proximal(mu=0.1)
    """
    if ctx.optimiser.active:
        raise InputError("local method 'proximal' has no local epochs, momentum or weight decay")
    return Proximal(params.mu)
