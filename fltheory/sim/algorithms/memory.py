"""Algorithms with per-client memory: local models, tables of stale updates, counters.

Their server step is not "weights × fresh updates of the participants", so they plug into the
engine (:mod:`fltheory.sim.engine`) through :meth:`MemoryAlgorithm.step`: given the round's
inputs, the (R, P) global models w, the algorithm's tensor memory and a ``local`` function that
runs E local SGD steps (eq. 2) for any (repetition, client) pairs from any starting points, it
returns the server direction Δ (R, P), the rows that move, the coefficients with which each
client's (fresh or stored) update enters Δ (R, N) for the records, and the new memory. The engine
then applies w ← Proj_W(w + η̄Δ) (eq. 3, with the same server options as every algorithm) and
calls :meth:`MemoryAlgorithm.after_server` (FedPBC's broadcast). Memory tensors are batched
(R, N, P) like everything else; the scalar rules (counters, weights) are pure numpy functions.
"""

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
import torch

from fltheory.sim.algorithms.base import Algorithm, RoundInput

#: (R, N, P) tensors and (R, N) numpy arrays by name.
Memory = dict[str, Any]


#: local(rr, kk, theta0) → models after the round's local work of clients kk (M,) of repetitions
#: rr (M,) started from theta0 (M, P). The engine passes the run's local method
#: (:class:`fltheory.sim.local.base.EngineLocal`, which also takes a gradient correction and
#: gives ``work(rr, kk)``: SCAFFOLD checks for it with ``isinstance``); three-argument functions
#: are fine for every other algorithm.
LocalFn = Callable[[np.ndarray, np.ndarray, torch.Tensor], torch.Tensor]


class MemoryAlgorithm(Algorithm):
    """Base for algorithms that keep per-client state between rounds.

    >>> import torch
    >>> inp = RoundInput(0, np.array([[True, False]]), np.full(2, 0.5), np.full((1, 2), 0.5))
    >>> w = torch.zeros(1, 1)  # R = 1 repetition, P = 1 parameter
    >>> local = lambda rr, kk, theta0: theta0 + 1.0  # each local run moves its model by +1
    >>> from fltheory.sim.algorithms import MIFA
    >>> alg = MIFA()
    >>> delta, moved, coef, memory = alg.step(inp, w, alg.init_memory(1, 2, w), local)
    >>> delta.tolist(), moved.tolist(), coef.tolist()  # client 0's update over all N = 2
    ([[0.5]], [True], [[0.5, 0.0]])
    """

    has_memory: ClassVar[bool] = True
    needs_pi: ClassVar[bool] = False

    def init_memory(self, reps: int, n: int, w0: torch.Tensor) -> Memory:
        """Memory before round 0; ``w0`` is the (R, P) initial global model.

        >>> import torch
        >>> from fltheory.sim.algorithms import MIFA
        >>> memory = MIFA().init_memory(2, 3, torch.zeros(2, 4))
        >>> tuple(memory["table"].shape), bool(memory["seen"].any())  # no update stored yet
        ((2, 3, 4), False)
        """
        raise NotImplementedError

    def step(
        self, inp: RoundInput, w: torch.Tensor, memory: Memory, local: LocalFn
    ) -> tuple[torch.Tensor, np.ndarray, np.ndarray, Memory]:
        """(Δ (R, P), moved (R,) bool, coefficients (R, N), new memory).

        >>> import torch
        >>> inp = RoundInput(0, np.array([[True, False]]), np.full(2, 0.5), np.full((1, 2), 0.5))
        >>> w = torch.zeros(1, 1)  # R = 1 repetition, P = 1 parameter
        >>> local = lambda rr, kk, theta0: theta0 + 1.0  # each local run moves its model by +1
        >>> from fltheory.sim.algorithms import FedPBC
        >>> alg = FedPBC()  # every client runs local steps; the server averages the active
        >>> delta, moved, coef, memory = alg.step(inp, w, alg.init_memory(1, 2, w), local)
        >>> delta.tolist(), coef.tolist(), memory["x"][0, :, 0].tolist()
        ([[1.0]], [[1.0, 0.0]], [1.0, 1.0])
        """
        raise NotImplementedError

    def after_server(self, inp: RoundInput, w: torch.Tensor, memory: Memory) -> Memory:
        """Memory after the server step produced the new global models ``w``.

        >>> import torch
        >>> from fltheory.sim.algorithms import FedPBC
        >>> inp = RoundInput(0, np.array([[True, False]]), np.full(2, 0.5), np.full((1, 2), 0.5))
        >>> memory = {"x": torch.tensor([[[1.0], [3.0]]])}
        >>> FedPBC().after_server(inp, torch.tensor([[2.0]]), memory)["x"][0, :, 0].tolist()
        [2.0, 3.0]
        """
        return memory

    def eval_models(self, memory: Memory) -> dict[str, torch.Tensor]:
        """Extra (R, P) models to evaluate besides the global model, by name.

        >>> import torch
        >>> from fltheory.sim.algorithms import FedPBC
        >>> FedPBC().eval_models({"x": torch.tensor([[[1.0], [3.0]]])})["client_mean"].tolist()
        [[2.0]]
        """
        return {}


def rows_with_any(table: np.ndarray) -> np.ndarray:
    """(R,) bool: the rows of an (R, N) table with an entry set (e.g. a participant).

    >>> rows_with_any(np.array([[0.0, 0.5], [0.0, 0.0]])).tolist()
    [True, False]
    """
    return np.asarray(table.any(axis=1))


def updates_of_active(
    inp: RoundInput, w: torch.Tensor, local: LocalFn
) -> tuple[np.ndarray, np.ndarray, torch.Tensor]:
    """(rr, kk, Δ_k = local model − w) for every active (repetition, client) pair."""
    rr, kk = np.nonzero(inp.mask)
    if rr.size == 0:
        return rr, kk, w.new_zeros((0, w.shape[1]))
    theta0 = w[torch.as_tensor(rr, device=w.device)]
    return rr, kk, local(rr, kk, theta0) - theta0


def store_updates(
    table: torch.Tensor, rr: np.ndarray, kk: np.ndarray, updates: torch.Tensor
) -> torch.Tensor:
    """Table (R, N, P) with rows (rr, kk) replaced by ``updates`` (eq. 4 of FedAR; MIFA)."""
    table = table.clone()
    if rr.size:
        dev = table.device
        table[torch.as_tensor(rr, device=dev), torch.as_tensor(kk, device=dev)] = updates
    return table


def weighted_table_sum(table: torch.Tensor, coef: np.ndarray) -> torch.Tensor:
    """Σ_k coef[r, k]·table[r, k] for each repetition r: (R, P)."""
    c = torch.as_tensor(coef, device=table.device, dtype=table.dtype)
    return torch.einsum("rk,rkp->rp", c, table)
