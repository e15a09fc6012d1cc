"""MIFA, Memory-augmented Impatient Federated Averaging (Gu et al., NeurIPS 2021).

The server keeps every client's latest update G_i (initialised to 0), replaces those of the
active clients each round, and steps with their mean over ALL N clients:
Δ = (1/N) Σ_i G_i, w ← w + η̄Δ. ``wait_all=True`` is the variant that does not move until every
client has been seen at least once (the updates are still stored meanwhile). With every client
always active, Δ is the FedAvg mean of fresh updates.
"""

from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np
import torch
from pydantic import Field

from fltheory.config import Strict
from fltheory.sim.algorithms.base import RoundInput
from fltheory.sim.algorithms.memory import (
    LocalFn,
    Memory,
    MemoryAlgorithm,
    rows_with_any,
    store_updates,
    updates_of_active,
    weighted_table_sum,
)
from fltheory.sim.registries import ALGORITHMS, AlgorithmContext
from fltheory.sim.twins import LocalStep, RoundView, State, Twin


def mifa_coefficients(seen: np.ndarray, wait_all: bool) -> np.ndarray:
    """1/N for every client whose stored update is used (all zero while waiting)."""
    n = seen.shape[-1]
    ready = seen.all(axis=-1, keepdims=True) if wait_all else np.ones_like(seen[:, :1])
    return np.where(seen & ready, 1.0 / n, 0.0)


@dataclass(frozen=True, eq=False)
class MIFA(MemoryAlgorithm):
    """The mean of every client's latest update over all N clients (Gu et al.); with
    ``wait_all`` no move until every client has been seen.

    >>> import torch
    >>> inp = RoundInput(0, np.array([[True, False]]), np.full(2, 0.5), np.full((1, 2), 0.5))
    >>> w = torch.zeros(1, 1)  # R = 1 repetition, P = 1 parameter
    >>> local = lambda rr, kk, theta0: theta0 + 1.0  # each local run moves its model by +1
    >>> alg = MIFA(wait_all=True)
    >>> delta, moved, coef, memory = alg.step(inp, w, alg.init_memory(1, 2, w), local)
    >>> delta.tolist(), moved.tolist()  # client 1 never seen yet
    ([[0.0]], [False])
    """

    wait_all: bool = False
    name: ClassVar[str] = "mifa"

    def init_memory(self, reps: int, n: int, w0: torch.Tensor) -> Memory:
        return {
            "table": w0.new_zeros((reps, n, w0.shape[1])),
            "seen": np.zeros((reps, n), dtype=bool),
        }

    def step(
        self, inp: RoundInput, w: torch.Tensor, memory: Memory, local: LocalFn
    ) -> tuple[torch.Tensor, np.ndarray, np.ndarray, Memory]:
        rr, kk, upd = updates_of_active(inp, w, local)
        table = store_updates(memory["table"], rr, kk, upd)
        seen = memory["seen"] | inp.mask
        coef = mifa_coefficients(seen, self.wait_all)
        delta = weighted_table_sum(table, coef)
        return delta, rows_with_any(coef), coef, {"table": table, "seen": seen}

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "wait_all": self.wait_all}


class MIFAParams(Strict):
    """Parameters of :class:`MIFA`."""

    wait_all: bool = Field(False, description="do not move until every client has been seen")


class MIFATwin(Twin):
    """MIFA client by client: the latest update G_i of every client, averaged over all N."""

    def start(self, alg: Any, alpha: list[float], pi0: list[float], w: torch.Tensor) -> State:
        """G_i = 0, nobody seen."""
        n = len(alpha)
        return {"G": [torch.zeros_like(w) for _ in range(n)], "seen": [False] * n}

    def step(
        self, alg: MIFA, st: State, view: RoundView, w: torch.Tensor, local: LocalStep
    ) -> tuple[torch.Tensor | None, dict[int, float]]:
        """Replace the active clients' G_i, then Δ = (1/N) Σ_i G_i (or wait for everyone)."""
        for k in view.active:
            st["G"][k] = local(k, w) - w
            st["seen"][k] = True
        if not any(st["seen"]) or (alg.wait_all and not all(st["seen"])):
            return None, {}
        mean = cast(torch.Tensor, sum(st["G"])) / view.n
        return mean, {k: 1.0 / view.n for k in range(view.n) if st["seen"][k]}


@ALGORITHMS.register("mifa", params=MIFAParams, reference=MIFATwin())
def build_mifa(params: MIFAParams, ctx: AlgorithmContext) -> MIFA:
    """MIFA: the mean of every client's latest update (Gu et al., NeurIPS 2021).

    >>> build_mifa(MIFAParams(wait_all=True), AlgorithmContext(2, 1, 0, None))
    MIFA(wait_all=True)
    """
    return MIFA(wait_all=params.wait_all)
