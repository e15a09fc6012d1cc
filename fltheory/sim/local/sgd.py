"""Plain local SGD (CA-Fed ToN eq. 2): E steps x ← x − η∇F_k(x; B_j) on the round's
with-replacement minibatches (or exact gradients on the full local sets).

The engine's function runs every (repetition, client) pair at once through the problem's
``local_sgd`` (or ``local_sgd_round`` on the batch plan's round where the problem has one:
compiled CPU kernels, :class:`~fltheory.sim.contract.RoundPlanner`); the reference function
takes autograd gradients of the client's loss definition, one explicit step at a time.

>>> import torch
>>> from fltheory.sim.problems import QuadraticSim
>>> from fltheory.sim.local.base import ReferenceRound
>>> problem = QuadraticSim([[0.0], [2.0]], [0.5, 0.5], dtype=torch.float64)
>>> local = PlainSGD().reference_round(ReferenceRound(problem, None, 0.5, 1, []))
>>> local(1, torch.zeros(1, dtype=torch.float64)), local.work(1)  # one step towards 2
(tensor([1.], dtype=torch.float64), 0.5)
"""

from dataclasses import dataclass

import numpy as np
import torch

from fltheory.errors import InputError
from fltheory.sim.batches import RoundBatches
from fltheory.sim.contract import RoundPlanner, SimProblem
from fltheory.sim.local.base import (
    EngineLocal,
    EngineRound,
    LocalContext,
    LocalMethod,
    ReferenceLocalFn,
    ReferenceRound,
)
from fltheory.sim.local_opt import EpochRound, RepEpochs
from fltheory.sim.registries import LOCAL_METHODS, NoParams


@dataclass(frozen=True, eq=False)
class _EngineSGD:
    """E local SGD steps (eq. 2) of any pairs on the round's minibatches."""

    problem: SimProblem
    batches: RoundBatches | np.ndarray | None
    lr: float
    steps: int

    def work(self, rr: np.ndarray, kk: np.ndarray) -> np.ndarray:
        return np.full(kk.shape, self.steps * self.lr)

    def __call__(
        self,
        rr: np.ndarray,
        kk: np.ndarray,
        theta0: torch.Tensor,
        correction: torch.Tensor | None = None,
    ) -> torch.Tensor:
        assert correction is None, "plain SGD takes no gradient correction"
        device, idx_t, problem = theta0.device, self.batches, self.problem
        if idx_t is not None and isinstance(problem, RoundPlanner):
            return problem.local_sgd_round(theta0, rr, kk, idx_t, self.lr, self.steps)
        idx = None
        if idx_t is not None:
            idx = torch.as_tensor(idx_t[rr, :, kk], device=device).transpose(0, 1)
        kk_t = torch.as_tensor(kk, device=device)
        return problem.local_sgd(theta0, kk_t, idx, self.lr, self.steps)


@dataclass(frozen=True, eq=False)
class _ReferenceSGD:
    """E explicit steps with autograd gradients of client k's loss definition."""

    problem: SimProblem
    batches: np.ndarray | None
    lr: float
    steps: int

    def work(self, k: int) -> float:
        return self.steps * self.lr

    def __call__(
        self, k: int, x: torch.Tensor, correction: torch.Tensor | None = None
    ) -> torch.Tensor:
        assert correction is None, "plain SGD takes no gradient correction"
        x = x.clone()
        for j in range(self.steps):
            x = x.detach().requires_grad_(True)
            idx = None if self.batches is None else self.batches[j, k]
            (g,) = torch.autograd.grad(self.problem.client_loss(k, x, idx), x)
            x = x.detach() - self.lr * g
        return x.detach()


class PlainSGD(LocalMethod):
    """E minibatch SGD steps with replacement (or exact gradients), no optimiser state."""

    def engine_round(self, job: EngineRound) -> EngineLocal:
        if isinstance(job.batches, EpochRound):
            raise InputError("local method 'sgd' runs E steps: local epochs need 'torch_sgd'")
        return _EngineSGD(job.problem, job.batches, job.lr, job.local_steps)

    def reference_round(self, job: ReferenceRound) -> ReferenceLocalFn:
        if isinstance(job.batches, RepEpochs):
            raise InputError("local method 'sgd' runs E steps: local epochs need 'torch_sgd'")
        return _ReferenceSGD(job.problem, job.batches, job.lr, job.local_steps)

    def __repr__(self) -> str:
        return "PlainSGD()"


@LOCAL_METHODS.register("sgd", params=NoParams)
def build_sgd(params: NoParams, ctx: LocalContext) -> PlainSGD:
    """Plain local SGD: E steps of eq. (2), no momentum, no weight decay, no correction.

    >>> from fltheory.sim.local_opt import LocalOptimiser
    >>> build_sgd(NoParams(), LocalContext(1, LocalOptimiser()))
    PlainSGD()
    """
    if ctx.optimiser.active:
        raise InputError(
            "local method 'sgd' has no local epochs, momentum or weight decay: use 'torch_sgd'"
        )
    return PlainSGD()
