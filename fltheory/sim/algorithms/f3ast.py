"""F3AST (Ribero, Vikalo, de Veciana [19]; CA-Fed ToN Section V-A(c), benchmark 4).

Each round the server keeps a participation-rate estimate r_k, chooses among the available
clients the K with the largest α_k²/r_k², aggregates them with weights α_k/r_k, and then updates
r ← (1 − β)r + β·1{selected}. r₀ = α as in the original F3AST code (``r0="alpha"``), or
r₀ = π (``r0="pi"``, as in CA-Fed's experiments). CA-Fed used K = 45 (the mean number of clients
CA-Fed kept) and β = O(1/T) (Appendix G1-B(c)). Ties in α²/r² go to the lower client index.
The weights use r before the round's update.
"""

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field

from fltheory.config import Strict
from fltheory.errors import InputError
from fltheory.sim.algorithms.base import Algorithm, RoundInput, State
from fltheory.sim.registries import ALGORITHMS, AlgorithmContext
from fltheory.sim.twins import RoundView, WeightTwin


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
    """``k`` clients per round, smoothing ``beta``, initial rates ``r0`` ("alpha" or "pi"):
    the k active clients with the largest (α_k/r_k)² get α_k/r_k (Ribero et al.).

    >>> alpha, pi = np.full(3, 1 / 3), np.array([[0.5, 0.25, 1.0]])
    >>> inp = RoundInput(t=0, mask=np.array([[True, True, False]]), alpha=alpha, pi=pi)
    >>> alg = F3AST(k=1, beta=0.5, r0="pi")
    >>> q, state = alg.weights(inp, alg.init_state(1, alpha, pi))
    >>> q.round(3).tolist(), state["r"].tolist()  # r ← (1 − β)r + β·1{selected}
    ([[0.0, 1.333, 0.0]], [[0.25, 0.625, 0.5]])
    """

    k: int
    beta: float
    r0: str = "alpha"
    name: ClassVar[str] = "f3ast"

    @property
    def needs_pi(self) -> bool:  # type: ignore[override]
        return self.r0 == "pi"

    def init_state(self, reps: int, alpha: np.ndarray, pi0: np.ndarray) -> State:
        r = np.broadcast_to(alpha if self.r0 == "alpha" else pi0, (reps, alpha.size))
        return {"r": np.array(r, dtype=float)}

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        q, r = f3ast_weights(inp.mask, inp.alpha, state["r"], self.k, self.beta)
        return q, {"r": r}

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "k": self.k, "beta": self.beta, "r0": self.r0}


class F3ASTParams(Strict):
    """Parameters of :class:`F3AST`."""

    k: int | None = Field(None, ge=1, description="clients selected per round (default: 0.45·N)")
    beta: float | None = Field(
        None, gt=0.0, le=1.0, description="smoothing β of the rate estimates (default: 1/T)"
    )
    r0: Literal["alpha", "pi"] = Field(
        "alpha", description="initial rates r₀: α (F3AST's code) or π (CA-Fed's experiments)"
    )


def reference_f3ast_start(alg: F3AST, alpha: list[float], pi0: list[float]) -> dict[str, Any]:
    """The twin's initial rates r₀ (α or the π known at round 0)."""
    return {"r": [float(v) for v in (alpha if alg.r0 == "alpha" else pi0)]}


def reference_f3ast(alg: F3AST, view: RoundView, st: dict[str, Any]) -> dict[int, float]:
    """The twin: the K active clients with the largest (α_k/r_k)² get α_k/r_k; then
    r_k ← (1 − β)r_k + β·1{k selected} for every client (also in rounds nobody is active)."""
    r = st["r"]
    ranked = sorted(view.active, key=lambda k: -((view.alpha[k] / r[k]) * (view.alpha[k] / r[k])))
    q = {k: view.alpha[k] / r[k] for k in ranked[: alg.k]}
    st["r"] = [(1.0 - alg.beta) * r[k] + alg.beta * (1.0 if k in q else 0.0) for k in range(len(r))]
    return q


@ALGORITHMS.register(
    "f3ast", params=F3ASTParams, reference=WeightTwin(reference_f3ast, reference_f3ast_start)
)
def build_f3ast(params: F3ASTParams, ctx: AlgorithmContext) -> F3AST:
    """F3AST: the K active clients with the largest α²/r², weighted α/r (Ribero et al.).

    >>> build_f3ast(F3ASTParams(), AlgorithmContext(10, 200, 0, None))
    F3AST(k=4, beta=0.005, r0='alpha')
    """
    k = round(0.45 * ctx.n_clients) if params.k is None else params.k
    beta = 1.0 / ctx.rounds if params.beta is None else params.beta
    if not 1 <= k <= ctx.n_clients:
        raise InputError(f"F3AST needs 1 <= k <= {ctx.n_clients}, got k={k}")
    return F3AST(k=k, beta=beta, r0=params.r0)
