"""The authors' local mechanics as a local method (CA-Fed spec C.1, C.2, C.16): torch SGD with
local epochs, momentum and weight decay (persistent per-client buffers), and gradient
corrections (SCAFFOLD).

The steps themselves are :class:`fltheory.sim.local_opt.LocalRunner` (batched: compiled CPU
kernel or torch) and :class:`fltheory.sim.local_opt.ReferenceLocal` (client by client, autograd);
this module puts them behind the :class:`~fltheory.sim.local.base.LocalMethod` contract. A run
uses it when any ``[run] local_*`` optimiser key is set or its algorithm corrects gradients.

>>> from fltheory.sim.local_opt import LocalOptimiser
>>> TorchSGD(LocalOptimiser(momentum=0.9)).needs_buffer, TorchSGD(LocalOptimiser()).needs_buffer
(True, False)
"""

from dataclasses import dataclass
from typing import ClassVar

from fltheory.sim.local.base import (
    EngineLocal,
    EngineRound,
    LocalContext,
    LocalMethod,
    ReferenceLocalFn,
    ReferenceRound,
)
from fltheory.sim.local_opt import LocalOptimiser, LocalRunner, ReferenceLocal
from fltheory.sim.registries import LOCAL_METHODS, NoParams


@dataclass(frozen=True)
class TorchSGD(LocalMethod):
    """torch SGD of :mod:`fltheory.sim.local_opt` with the run's ``optimiser``."""

    optimiser: LocalOptimiser
    accepts_correction: ClassVar[bool] = True

    @property
    def needs_buffer(self) -> bool:
        """Momentum buffers when μ > 0."""
        return bool(self.optimiser.momentum)

    def engine_round(self, job: EngineRound) -> EngineLocal:
        return LocalRunner(
            job.problem, job.batches, job.lr, job.local_steps, self.optimiser, job.buffers
        )

    def reference_round(self, job: ReferenceRound) -> ReferenceLocalFn:
        return ReferenceLocal(
            job.problem, job.batches, job.lr, job.local_steps, self.optimiser, job.buffers
        )


@LOCAL_METHODS.register("torch_sgd", params=NoParams)
def build_torch_sgd(params: NoParams, ctx: LocalContext) -> TorchSGD:
    """torch SGD: local epochs, momentum, weight decay ([run] local_*), SCAFFOLD's corrections.

    >>> build_torch_sgd(NoParams(), LocalContext(1, LocalOptimiser(epochs=2)))
    TorchSGD(optimiser=LocalOptimiser(epochs=2, momentum=0.0, weight_decay=0.0))
    """
    return TorchSGD(ctx.optimiser)
