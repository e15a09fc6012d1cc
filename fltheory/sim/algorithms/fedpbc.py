"""FedPBC, Federated Postponed Broadcast (FedPBC paper, Algorithm 2 and Remark 1).

Every client i keeps its own model x_i (all start at x^0, line 2) and runs s local steps from it
EVERY round, active or not (lines 4–12). If A^t ≠ ∅ the server sets x^{t+1} to the mean of the
active clients' models x_i^{t++} (line 14), else keeps x^t (line 16), and only then broadcasts
x^{t+1} to the clients in A^t (lines 18–21); inactive clients keep x_i^{t++}.

In engine terms Δ = mean_{A^t}(x_i^{t++}) − x^t, so x^{t+1} = x^t + η̄Δ is line 14 for η̄ = 1
(the server options generalise it exactly as for every algorithm).

``compute="active"`` is the variant of Remark 1 (only active clients compute, from their own
last-received model), which the paper's Section VI reports to stay biased.

Two models are evaluated: the server model x^{t+1} (the reported metrics, as for every
algorithm) and the mean of the client models x̄^{t+1} = (1/m)Σ_i x_i^{t+1} (the ``client_mean``
extra metrics; Fig. 2 of the paper plots ‖x̄ − x*‖ under the name x_PS).
"""

from dataclasses import dataclass
from typing import Any, ClassVar, Literal, cast

import numpy as np
import torch
from pydantic import Field

from fltheory.config import Strict
from fltheory.errors import InputError
from fltheory.sim.algorithms.base import RoundInput
from fltheory.sim.algorithms.fedavg import mean_active_weights
from fltheory.sim.algorithms.memory import LocalFn, Memory, MemoryAlgorithm, rows_with_any
from fltheory.sim.registries import ALGORITHMS, AlgorithmContext
from fltheory.sim.twins import LocalStep, RoundView, State, Twin

COMPUTE = ("all", "active")


def computing_clients(mask: np.ndarray, compute: str) -> np.ndarray:
    """(R, N) bool: who runs local steps this round (everyone, or A^t for Remark 1)."""
    return np.ones_like(mask, dtype=bool) if compute == "all" else mask.astype(bool)


@dataclass(frozen=True, eq=False)
class FedPBC(MemoryAlgorithm):
    """FedPBC; ``compute`` is "all" (Algorithm 2) or "active" (Remark 1's variant).

    >>> import torch
    >>> inp = RoundInput(0, np.array([[True, False]]), np.full(2, 0.5), np.full((1, 2), 0.5))
    >>> w = torch.zeros(1, 1)  # R = 1 repetition, P = 1 parameter
    >>> local = lambda rr, kk, theta0: theta0 + 1.0  # each local run moves its model by +1
    >>> alg = FedPBC(compute="active")  # only client 0 runs its local steps
    >>> delta, moved, coef, memory = alg.step(inp, w, alg.init_memory(1, 2, w), local)
    >>> delta.tolist(), memory["x"][0, :, 0].tolist()
    ([[1.0]], [1.0, 0.0])
    """

    compute: str = "all"
    name: ClassVar[str] = "fedpbc"

    def __post_init__(self) -> None:
        if self.compute not in COMPUTE:
            raise InputError(f"FedPBC compute must be one of {COMPUTE}, got '{self.compute}'")

    def init_memory(self, reps: int, n: int, w0: torch.Tensor) -> Memory:
        return {"x": w0[:, None, :].expand(reps, n, w0.shape[1]).clone()}

    def step(
        self, inp: RoundInput, w: torch.Tensor, memory: Memory, local: LocalFn
    ) -> tuple[torch.Tensor, np.ndarray, np.ndarray, Memory]:
        x = memory["x"]
        rr, kk = np.nonzero(computing_clients(inp.mask, self.compute))
        if rr.size:
            r_t = torch.as_tensor(rr, device=x.device)
            k_t = torch.as_tensor(kk, device=x.device)
            x = x.clone()
            x[r_t, k_t] = local(rr, kk, x[r_t, k_t])
        q = mean_active_weights(inp.mask)
        c = torch.as_tensor(q, device=x.device, dtype=x.dtype)
        delta = torch.einsum("rk,rkp->rp", c, x) - w
        return delta, rows_with_any(inp.mask), q, {"x": x}

    def after_server(self, inp: RoundInput, w: torch.Tensor, memory: Memory) -> Memory:
        m = torch.as_tensor(inp.mask, device=w.device)[:, :, None]
        return {"x": torch.where(m, w[:, None, :], memory["x"])}

    def eval_models(self, memory: Memory) -> dict[str, torch.Tensor]:
        return {"client_mean": memory["x"].mean(dim=1)}

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "compute": self.compute}


class FedPBCParams(Strict):
    """Parameters of :class:`FedPBC`."""

    compute: Literal["all", "active"] = Field(
        "all", description="who runs local steps: every client (Alg. 2) or the active (Remark 1)"
    )


class FedPBCTwin(Twin):
    """Algorithm 2 client by client: a list of client models x_i."""

    def start(self, alg: Any, alpha: list[float], pi0: list[float], w: torch.Tensor) -> State:
        """Every client starts at x⁰ (line 2)."""
        return {"x": [w.clone() for _ in alpha]}

    def step(
        self, alg: FedPBC, st: State, view: RoundView, w: torch.Tensor, local: LocalStep
    ) -> tuple[torch.Tensor | None, dict[int, float]]:
        """Lines 4–14: local steps (all clients, or only the active ones for Remark 1), then
        the mean of the active clients' models."""
        for k in range(view.n):
            if alg.compute == "all" or k in view.active:
                st["x"][k] = local(k, st["x"][k])
        if not view.active:
            return None, {}
        mean = sum(st["x"][k] for k in view.active) / len(view.active)
        return mean - w, {k: 1.0 / len(view.active) for k in view.active}

    def after_server(self, alg: Any, st: State, view: RoundView, w: torch.Tensor) -> None:
        """Lines 18–21: the active clients receive x^{t+1}."""
        for k in view.active:
            st["x"][k] = w.clone()

    def extra_models(self, alg: Any, st: State) -> dict[str, torch.Tensor]:
        """The mean of the client models x̄ (Fig. 2's x_PS)."""
        return {"client_mean": cast(torch.Tensor, sum(st["x"])) / len(st["x"])}


@ALGORITHMS.register("fedpbc", params=FedPBCParams, reference=FedPBCTwin())
def build_fedpbc(params: FedPBCParams, ctx: AlgorithmContext) -> FedPBC:
    """FedPBC: postponed broadcast, every client computes every round (FedPBC Alg. 2).

    >>> build_fedpbc(FedPBCParams(compute="active"), AlgorithmContext(2, 1, 0, None))
    FedPBC(compute='active')
    """
    return FedPBC(compute=params.compute)
