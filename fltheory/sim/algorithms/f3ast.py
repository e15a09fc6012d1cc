"""F3AST (Ribero, Vikalo, de Veciana [19]; CA-Fed ToN Section V-A(c), benchmark 4).

Each round the server keeps a participation-rate estimate r_k, chooses among the available
clients the K with the largest α_k²/r_k², aggregates them with weights α_k/r_k, and then updates
r ← (1 − β)r + β·1{selected}. r₀ = α as in the original F3AST code (``r0="alpha"``), or
r₀ = π (``r0="pi"``, as in CA-Fed's experiments). CA-Fed used K = 45 (the mean number of clients
CA-Fed kept) and β = O(1/T) (Appendix G1-B(c)). Ties in α²/r² go to the lower client index.
The weights use r before the round's update.
"""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from fltheory.sim.algorithms.base import Algorithm, RoundInput, State


def f3ast_select(mask: np.ndarray, alpha: np.ndarray, r: np.ndarray, k: int) -> np.ndarray:
    """(R, N) bool: the (at most) k active clients with the largest α²/r², stable in index."""
    key = np.where(mask, (alpha / r) ** 2, -np.inf)
    order = np.argsort(-key, axis=-1, kind="stable")
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(mask.shape[-1])[None, :], axis=-1)
    return mask & (rank < k)


def f3ast_weights(
    mask: np.ndarray, alpha: np.ndarray, r: np.ndarray, k: int, beta: float
) -> tuple[np.ndarray, np.ndarray]:
    """(q, r_next): q_k = α_k/r_k on the selected clients; r_next = (1 − β)r + β·1{selected}."""
    selected = f3ast_select(mask, alpha, r, k)
    q = np.where(selected, alpha / r, 0.0)
    return q, (1.0 - beta) * r + beta * selected


@dataclass(frozen=True, eq=False)
class F3AST(Algorithm):
    """``k`` clients per round, smoothing ``beta``, initial rates ``r0`` ("alpha" or "pi")."""

    k: int
    beta: float
    r0: str = "alpha"
    name: ClassVar[str] = "f3ast"

    @property
    def needs_pi(self) -> bool:  # type: ignore[override]
        return self.r0 == "pi"

    def init_state(self, reps, alpha, pi0):
        r = np.broadcast_to(alpha if self.r0 == "alpha" else pi0, (reps, alpha.size))
        return {"r": np.array(r, dtype=float)}

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        q, r = f3ast_weights(inp.mask, inp.alpha, state["r"], self.k, self.beta)
        return q, {"r": r}

    def describe(self):
        return {"name": self.name, "k": self.k, "beta": self.beta, "r0": self.r0}
