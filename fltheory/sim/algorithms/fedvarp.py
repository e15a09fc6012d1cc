"""FedVARP, variance-reduced partial participation (Jhunjhunwala et al., UAI 2022, Alg. 1).

The server keeps y_i, the latest update of client i (y_i = 0 initially), and forms
Δ = (1/|A_t|) Σ_{i∈A_t} (Δ_i − y_i) + (1/N) Σ_{j=1}^N y_j (with the OLD y), then y_i ← Δ_i for
i ∈ A_t, and w ← w + η̄Δ. Rounds with A_t = ∅ keep the model.

Recorded coefficients: 1/|A_t| for the fresh update of an active client, 1/N for the stored
update of an inactive one.
"""

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import torch

from fltheory.sim.algorithms.base import RoundInput
from fltheory.sim.algorithms.fedavg import mean_active_weights
from fltheory.sim.algorithms.memory import (
    LocalFn,
    Memory,
    MemoryAlgorithm,
    rows_with_any,
    store_updates,
    updates_of_active,
    weighted_table_sum,
)
from fltheory.sim.registries import ALGORITHMS, AlgorithmContext, NoParams
from fltheory.sim.twins import LocalStep, RoundView, State, Twin


def fedvarp_direction(
    fresh_mean: torch.Tensor, table: torch.Tensor, mask: np.ndarray
) -> torch.Tensor:
    """Δ = mean_A(Δ_i) − mean_A(y_i) + mean_all(y) from the mean of the fresh updates (R, P),
    the OLD table y (R, N, P) and the active set (R, N)."""
    correction = weighted_table_sum(table, mean_active_weights(mask))
    return fresh_mean - correction + table.mean(dim=1)


@dataclass(frozen=True, eq=False)
class FedVARP(MemoryAlgorithm):
    """Δ = mean_A(Δ_i) − mean_A(y_i) + mean_all(y): fresh updates corrected by the stored
    ones y_i (Jhunjhunwala et al.).

    >>> import torch
    >>> inp = RoundInput(0, np.array([[True, False]]), np.full(2, 0.5), np.full((1, 2), 0.5))
    >>> w = torch.zeros(1, 1)  # R = 1 repetition, P = 1 parameter
    >>> local = lambda rr, kk, theta0: theta0 + 1.0  # each local run moves its model by +1
    >>> alg = FedVARP()
    >>> delta, moved, coef, memory = alg.step(inp, w, alg.init_memory(1, 2, w), local)
    >>> delta.tolist(), memory["table"][0, :, 0].tolist()  # y = 0 before round 0
    ([[1.0]], [1.0, 0.0])
    """

    name: ClassVar[str] = "fedvarp"

    def init_memory(self, reps: int, n: int, w0: torch.Tensor) -> Memory:
        return {
            "table": w0.new_zeros((reps, n, w0.shape[1])),
            "seen": np.zeros((reps, n), dtype=bool),
        }

    def step(
        self, inp: RoundInput, w: torch.Tensor, memory: Memory, local: LocalFn
    ) -> tuple[torch.Tensor, np.ndarray, np.ndarray, Memory]:
        rr, kk, upd = updates_of_active(inp, w, local)
        q = mean_active_weights(inp.mask)
        fresh = w.new_zeros(w.shape)
        if rr.size:
            qk = torch.as_tensor(q[rr, kk], device=w.device, dtype=w.dtype)
            fresh.index_add_(0, torch.as_tensor(rr, device=w.device), upd * qk[:, None])
        delta = fedvarp_direction(fresh, memory["table"], inp.mask)
        table = store_updates(memory["table"], rr, kk, upd)
        stored = memory["seen"] & ~inp.mask
        coef = np.where(inp.mask, q, np.where(stored, 1.0 / inp.mask.shape[1], 0.0))
        seen = memory["seen"] | inp.mask
        return delta, rows_with_any(inp.mask), coef, {"table": table, "seen": seen}


class FedVARPTwin(Twin):
    """Algorithm 1 of FedVARP client by client: the table y_i of latest updates."""

    def start(self, alg: Any, alpha: list[float], pi0: list[float], w: torch.Tensor) -> State:
        """y_i = 0, nobody seen."""
        n = len(alpha)
        return {"G": [torch.zeros_like(w) for _ in range(n)], "seen": [False] * n}

    def step(
        self, alg: FedVARP, st: State, view: RoundView, w: torch.Tensor, local: LocalStep
    ) -> tuple[torch.Tensor | None, dict[int, float]]:
        """Δ = mean over A_t of (Δ_i − y_i) + mean over all of y (old y), then y_i ← Δ_i."""
        active = view.active
        if not active:
            return None, {}
        fresh = {k: local(k, w) - w for k in active}
        delta = sum(fresh[k] - st["G"][k] for k in active) / len(active) + sum(st["G"]) / view.n
        coef = {k: 1.0 / view.n for k in range(view.n) if st["seen"][k] and k not in active}
        for k in active:
            st["G"][k] = fresh[k]
            st["seen"][k] = True
            coef[k] = 1.0 / len(active)
        return delta, coef


@ALGORITHMS.register("fedvarp", params=NoParams, reference=FedVARPTwin())
def build_fedvarp(params: NoParams, ctx: AlgorithmContext) -> FedVARP:
    """FedVARP: variance reduction with the stored updates (Jhunjhunwala et al., UAI 2022).

    >>> build_fedvarp(NoParams(), AlgorithmContext(2, 1, 0, None))
    FedVARP()
    """
    return FedVARP()
