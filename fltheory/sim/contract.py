"""The engine ↔ problem contract: every member of a problem the simulator reads.

:class:`SimProblem` lists the members every problem has (the vectorised engine
:mod:`fltheory.sim.engine`, the reference loop :mod:`fltheory.sim.reference`, the comparison
:mod:`fltheory.sim.compare` and the local optimiser :mod:`fltheory.sim.local_opt` call them
unconditionally). The optional members come in small capability protocols, each checked with
``isinstance`` where it is used, so a problem without them takes the plain path:

* :class:`RoundPlanner` — ``local_sgd_round``: a whole round's local SGD from the batch plan's
  round (data problems: compiled CPU kernels, memory-bounded chunks); else ``local_sgd``;
* :class:`ChunkedUpdates` — ``update_rows()``: (repetition, client) rows per chunk of the
  weighted update; else all rows at once;
* :class:`ClientScores` — ``client_accuracies(w)``: the final per-client test accuracies
  (``RunResult.client_accuracy``); else none are recorded;
* :class:`OwnStart` — ``initial_params()``: the problem's own w₀; else zeros (or torch's
  default initialisation of the model);
* :class:`DataBacked` — ``data``, ``model`` and ``_gather``: a model trained on federated data
  (full-set loss signals :mod:`fltheory.sim.loss_signal`, exact local minima, local epochs);
* :class:`CompiledLocal` — ``linear_kernel()``: samples for the compiled local optimiser of
  :mod:`fltheory.sim.local_opt`; else its torch steps;
* :class:`KnownMinima` — ``local_minima``: each client's F_k* of its own (quadratics answer
  CA-Fed's "oracle" directly).

:class:`~fltheory.sim.problems.QuadraticSim` and :class:`~fltheory.sim.problems.DataProblem`
implement it (mypy checks them structurally where they are passed as a :class:`SimProblem`).

>>> import torch
>>> from fltheory.sim.problems import QuadraticSim
>>> problem = QuadraticSim([[0.0, 1.0], [2.0, 3.0]], [0.5, 0.5], dtype=torch.float64)
>>> isinstance(problem, SimProblem), isinstance(problem, RoundPlanner)
(True, False)
>>> isinstance(problem, KnownMinima), isinstance(problem, DataBacked)
(True, False)
"""

from typing import Any, Protocol, runtime_checkable

import numpy as np
import torch

from fltheory.sim.data import FederatedData
from fltheory.sim.models import Model


@runtime_checkable
class SimProblem(Protocol):
    """The members every problem has.

    ``theta`` (M, P) are M parameter vectors of clients ``clients`` (M,); ``idx`` their
    minibatch indices (None: the full local set); ``w`` (R, P) one model per repetition.
    """

    #: α (N,): the target weights of eq. (1), normalised.
    alpha: np.ndarray
    #: where the run's tensors live and their dtype.
    device: str
    dtype: torch.dtype

    @property
    def n_clients(self) -> int: ...

    @property
    def n_params(self) -> int: ...

    @property
    def train_counts(self) -> np.ndarray | None:
        """Training samples per client (None: no samples, exact gradients)."""

    def losses(self, theta: torch.Tensor, clients: torch.Tensor, idx: Any = None) -> torch.Tensor:
        """(M,) losses F_k(θ) on the minibatches (CA-Fed's minibatch loss signal)."""

    def loss_grad(
        self, theta: torch.Tensor, clients: torch.Tensor, idx: Any = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """((M,) losses, (M, P) gradients) on the minibatches."""

    def local_sgd(
        self, theta: torch.Tensor, clients: torch.Tensor, idx: Any, lr: float, steps: int
    ) -> torch.Tensor:
        """(M, P) parameters after ``steps`` local SGD steps of eq. (2)."""

    def objective(self, w: torch.Tensor) -> torch.Tensor:
        """(R,) F(w) = Σ_k α_k F_k(w)."""

    def accuracy(self, w: torch.Tensor) -> torch.Tensor | None:
        """(R,) α-weighted test accuracy, or None where the problem has no test data."""

    def distance(self, w: torch.Tensor) -> torch.Tensor | None:
        """(R,) ‖w − w*‖, or None where w* is unknown."""

    def client_loss(self, k: int, theta: torch.Tensor, idx: Any = None) -> torch.Tensor:
        """Client k's minibatch loss at one θ (P,), differentiable (the reference loop)."""

    def client_objective(self, k: int, theta: torch.Tensor) -> torch.Tensor:
        """F_k(θ) at one θ (P,)."""

    def client_accuracy(self, k: int, theta: torch.Tensor) -> torch.Tensor | None:
        """Client k's test accuracy at one θ (P,), or None without test data."""


@runtime_checkable
class RoundPlanner(Protocol):
    """Runs a round's local SGD from the batch plan's round itself."""

    def local_sgd_round(
        self,
        theta: torch.Tensor,
        rr: np.ndarray,
        clients: np.ndarray,
        idx_t: Any,
        lr: float,
        steps: int,
    ) -> torch.Tensor: ...


@runtime_checkable
class ChunkedUpdates(Protocol):
    """Bounds the (repetition, client) rows of one weighted update (a size set by the config)."""

    def update_rows(self) -> int: ...


@runtime_checkable
class ClientScores(Protocol):
    """Scores the final models on each client's test set."""

    def client_accuracies(self, w: torch.Tensor) -> torch.Tensor | None: ...


@runtime_checkable
class OwnStart(Protocol):
    """Chooses its own initial parameters w₀."""

    def initial_params(self) -> np.ndarray: ...


@runtime_checkable
class DataBacked(SimProblem, Protocol):
    """A problem whose model is trained on federated data."""

    data: FederatedData
    model: Model

    def _gather(self, clients: Any, idx: Any) -> tuple[torch.Tensor, torch.Tensor, Any]:
        """(x, y, weight) of the minibatches (local epochs' padded batches)."""
        ...


@runtime_checkable
class CompiledLocal(Protocol):
    """Offers its samples to the compiled local optimiser
    (:func:`~fltheory.sim.cpu_kernels.linear_local`): ``linear_kernel()`` gives the [x, 1, y]
    samples, each client's first row and the classes where the kernel applies, else None."""

    def linear_kernel(self) -> tuple[np.ndarray, np.ndarray, int] | None: ...


@runtime_checkable
class KnownMinima(Protocol):
    """Knows each client's minimum F_k* itself."""

    @property
    def local_minima(self) -> np.ndarray: ...
