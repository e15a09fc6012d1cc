"""The local-method contract: how a round's local work (eq. 2) of the clients is run.

A *local method* is what a client does between receiving the global model and sending its
update: plain minibatch SGD (:mod:`~fltheory.sim.local.sgd`), torch SGD with local epochs,
momentum and weight decay (:mod:`~fltheory.sim.local.torch_sgd`), or a plug-in's own (a
proximal term, another optimiser, …). The engine (:mod:`fltheory.sim.engine`) and the reference
loop (:mod:`fltheory.sim.reference`) never name one: each round they ask the method of the run
(:func:`fltheory.sim.local.select.local_method`) for a local function and hand it to the
algorithm. One method is one module that subclasses :class:`LocalMethod` and registers a
builder in :data:`fltheory.sim.registries.LOCAL_METHODS`.

:class:`LocalMethod`'s members:

* **required** — :meth:`LocalMethod.engine_round`: the batched local function of one round
  (:class:`EngineLocal`); :meth:`LocalMethod.reference_round`: the same work one client at a
  time for one repetition (:class:`ReferenceLocalFn`), written independently (autograd on the
  per-client loss definition), so that the engine-vs-reference tests check the batched code;
* **optional** — :attr:`LocalMethod.needs_buffer` (default False): the method keeps one (R, N, P)
  per-client tensor across rounds (momentum buffers), zero before round 0, carried in
  :attr:`fltheory.sim.engine.EngineState.local_buf` and saved in checkpoints;
  :attr:`LocalMethod.accepts_correction` (default False): its local functions add a gradient
  correction (SCAFFOLD's c − c_i) to every local gradient; algorithms with
  ``corrects_gradients`` refuse a method without it.

>>> from fltheory.sim.registries import LOCAL_METHODS
>>> {"sgd", "torch_sgd"} <= set(LOCAL_METHODS.names())
True
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar, Protocol, runtime_checkable

import numpy as np
import torch

from fltheory.sim.batches import RoundBatches
from fltheory.sim.contract import SimProblem
from fltheory.sim.local_opt import EpochRound, LocalOptimiser, RepEpochs

#: A round's minibatch indices for the engine: a with-replacement plan's (R, E, N, B) round
#: (lazy, or an array), a local-epochs round, or None (full local sets, exact gradients).
EngineBatches = RoundBatches | np.ndarray | EpochRound | None
#: One repetition's round for the reference loop: ``batches[j, k]`` the indices of step j of
#: client k ((E, N, B) array or local epochs), or None (full local sets).
ReferenceBatches = np.ndarray | RepEpochs | None


@runtime_checkable
class EngineLocal(Protocol):
    """The engine's local function of one round (what algorithms call ``local``).

    ``local(rr, kk, theta0, correction=None)``: the models (M, P) after the round's local work
    of clients ``kk`` (M,) of repetitions ``rr`` (M,) started from ``theta0`` (M, P);
    ``correction`` (M, P), when given, is added to every local gradient. ``work(rr, kk)``: Σ_j η
    over each pair's local steps (M,) (K·η_l of SCAFFOLD's option II).
    """

    def __call__(
        self,
        rr: np.ndarray,
        kk: np.ndarray,
        theta0: torch.Tensor,
        correction: torch.Tensor | None = None,
    ) -> torch.Tensor: ...

    def work(self, rr: np.ndarray, kk: np.ndarray) -> np.ndarray: ...


@runtime_checkable
class ReferenceLocalFn(Protocol):
    """The reference loop's local function of one repetition and round.

    ``local(k, x, correction=None)``: client k's model after its local work from ``x`` (P,);
    ``work(k)``: Σ_j η over its local steps.
    """

    def __call__(
        self, k: int, x: torch.Tensor, correction: torch.Tensor | None = None
    ) -> torch.Tensor: ...

    def work(self, k: int) -> float: ...


@dataclass(frozen=True, eq=False)
class EngineRound:
    """What the engine gives a method each round: the ``problem``, the round's ``batches``,
    the local learning rate ``lr`` (η_t of eq. 2), ``local_steps`` E, and the (R, N, P)
    ``buffers`` (None unless the method :attr:`~LocalMethod.needs_buffer`; updated in place)."""

    problem: SimProblem
    batches: EngineBatches
    lr: float
    local_steps: int
    buffers: torch.Tensor | None = None


@dataclass(frozen=True, eq=False)
class ReferenceRound:
    """What the reference loop gives a method for one repetition and round: as
    :class:`EngineRound`, with that repetition's ``batches`` and its per-client ``buffers``
    (N tensors (P,), zero before round 0, updated in place)."""

    problem: SimProblem
    batches: ReferenceBatches
    lr: float
    local_steps: int
    buffers: list[torch.Tensor]


@dataclass(frozen=True)
class LocalContext:
    """What a local method's builder may depend on besides its parameters: the run's
    ``local_steps`` E and the ``[run]`` keys of the local optimiser (``local_epochs``,
    ``local_momentum``, ``local_weight_decay``).

    >>> LocalContext(local_steps=5, optimiser=LocalOptimiser()).optimiser.active
    False
    """

    local_steps: int
    optimiser: LocalOptimiser


class LocalMethod(ABC):
    """A client's local work (module docstring: which members are required)."""

    #: optional: the local functions take a gradient correction (SCAFFOLD).
    accepts_correction: ClassVar[bool] = False

    @property
    def needs_buffer(self) -> bool:
        """Optional: whether the method keeps one (R, N, P) per-client tensor across rounds
        (module docstring); False unless overridden."""
        return False

    @abstractmethod
    def engine_round(self, job: EngineRound) -> EngineLocal:
        """Required: the batched local function of one round."""

    @abstractmethod
    def reference_round(self, job: ReferenceRound) -> ReferenceLocalFn:
        """Required: one repetition's local function of one round, client by client."""
