"""SCAFFOLD (Karimireddy et al., ICML 2020, Algorithm 1 with option II), the participating set
S = A_t (every active client).

The server keeps a control variate c, each client i its own c_i (all start at 0). A client
i ∈ S runs its local work from y_i = x with the corrected gradients g_i(y_i) − c_i + c (lines
9–11), then sets c_i⁺ = c_i − c + (x − y_i)/(K_i·η_l) (line 12, option II; K_i·η_l: the sum of
its local step sizes, K_i its local steps this round — ragged under local epochs). The server
moves x by η̄ times the mean of Δy_i = y_i − x over S (line 16, η̄ = the server learning rate) and
sets c ← c + (1/N)·Σ_{i∈S}(c_i⁺ − c_i) (line 17). A round with S = ∅ changes nothing.

The corrections run through the run's local method (:mod:`fltheory.sim.local`; by default
``torch_sgd`` for algorithms with ``corrects_gradients``, and only methods with
``accepts_correction``), so they combine with local epochs, momentum and weight decay;
``work(rr, kk)`` of the local function gives K_i·η_l.
"""

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import torch

from fltheory.errors import InputError
from fltheory.sim.algorithms.base import RoundInput
from fltheory.sim.algorithms.fedavg import mean_active_weights
from fltheory.sim.algorithms.memory import LocalFn, Memory, MemoryAlgorithm, rows_with_any
from fltheory.sim.local.base import EngineLocal, ReferenceLocalFn
from fltheory.sim.registries import ALGORITHMS, AlgorithmContext, NoParams
from fltheory.sim.twins import LocalStep, RoundView, State, Twin


@dataclass(frozen=True, eq=False)
class Scaffold(MemoryAlgorithm):
    """SCAFFOLD with option II control variates over the active clients.

    >>> import torch
    >>> class Local:  # each local run moves its model by −(correction) − 1 in K = 2 steps of 0.5
    ...     def __call__(self, rr, kk, theta0, correction=None):
    ...         return theta0 - 1.0 - correction
    ...     def work(self, rr, kk):
    ...         return np.full(kk.shape, 1.0)
    >>> inp = RoundInput(0, np.array([[True, False]]), np.full(2, 0.5), np.full((1, 2), 0.5))
    >>> alg = Scaffold()
    >>> w = torch.zeros(1, 1)
    >>> delta, moved, coef, memory = alg.step(inp, w, alg.init_memory(1, 2, w), Local())
    >>> delta.tolist(), coef.tolist(), memory["ci"][0, :, 0].tolist(), memory["c"].tolist()
    ([[-1.0]], [[1.0, 0.0]], [1.0, 0.0], [[0.5]])
    """

    name: ClassVar[str] = "scaffold"
    #: the engine runs its local work with gradient corrections (fltheory.sim.local_opt)
    corrects_gradients: ClassVar[bool] = True

    def init_memory(self, reps: int, n: int, w0: torch.Tensor) -> Memory:
        return {"c": torch.zeros_like(w0), "ci": w0.new_zeros((reps, n, w0.shape[1]))}

    def step(
        self, inp: RoundInput, w: torch.Tensor, memory: Memory, local: LocalFn
    ) -> tuple[torch.Tensor, np.ndarray, np.ndarray, Memory]:
        c, ci = memory["c"], memory["ci"]
        q = mean_active_weights(inp.mask)
        rr, kk = np.nonzero(inp.mask)
        delta = torch.zeros_like(w)
        if rr.size == 0:
            return delta, rows_with_any(inp.mask), q, memory
        dev = w.device
        r_t, k_t = torch.as_tensor(rr, device=dev), torch.as_tensor(kk, device=dev)
        if not isinstance(local, EngineLocal):
            raise InputError("SCAFFOLD needs a local method that takes gradient corrections")
        x = w[r_t]
        old = ci[r_t, k_t]
        y = local(rr, kk, x, correction=c[r_t] - old)
        work = torch.as_tensor(local.work(rr, kk), device=dev, dtype=w.dtype)
        new = old - c[r_t] + (x - y) / work[:, None]
        qk = torch.as_tensor(q[rr, kk], device=dev, dtype=w.dtype)
        delta.index_add_(0, r_t, (y - x) * qk[:, None])
        c = c.clone().index_add_(0, r_t, (new - old) / inp.mask.shape[1])
        ci = ci.clone()
        ci[r_t, k_t] = new
        return delta, rows_with_any(inp.mask), q, {"c": c, "ci": ci}


class ScaffoldTwin(Twin):
    """Algorithm 1 of the paper client by client: c and a list of c_i."""

    def start(self, alg: Any, alpha: list[float], pi0: list[float], w: torch.Tensor) -> State:
        """c = c_i = 0."""
        return {"c": torch.zeros_like(w), "ci": [torch.zeros_like(w) for _ in alpha]}

    def step(
        self, alg: Scaffold, st: State, view: RoundView, w: torch.Tensor, local: LocalStep
    ) -> tuple[torch.Tensor | None, dict[int, float]]:
        """Lines 5–17 for S = A_t."""
        if not view.active:
            return None, {}
        if not isinstance(local, ReferenceLocalFn):
            raise InputError("SCAFFOLD needs a local method that takes gradient corrections")
        dy, dc = torch.zeros_like(w), torch.zeros_like(w)
        for k in view.active:
            y = local(k, w, correction=st["c"] - st["ci"][k])
            plus = st["ci"][k] - st["c"] + (w - y) / local.work(k)
            dy = dy + (y - w)
            dc = dc + (plus - st["ci"][k])
            st["ci"][k] = plus
        st["c"] = st["c"] + dc / view.n
        m = len(view.active)
        return dy / m, {k: 1.0 / m for k in view.active}


@ALGORITHMS.register("scaffold", params=NoParams, reference=ScaffoldTwin())
def build_scaffold(params: NoParams, ctx: AlgorithmContext) -> Scaffold:
    """SCAFFOLD: control variates c, c_i (option II), S = A_t, server step η̄ (Karimireddy 2020).

    >>> build_scaffold(NoParams(), AlgorithmContext(2, 1, 0, None))
    Scaffold()
    """
    return Scaffold()
