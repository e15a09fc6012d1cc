"""F3AST as the CA-Fed authors' code runs it (arodio/CA-Fed ``clients_sampler.py``, class
``F3AST``; spec A.6, C.11) — not the original F3AST (:mod:`fltheory.sim.algorithms.f3ast`).

Each round the code takes a *fresh* copy of the (oracle) availability π from its estimator, so
its "participation rate" has no memory: r_k = (1 − β)π_k + β·1{k ∈ A_t}, with β = 1/T forced
(``get_clients_sampler`` passes ``smoothness_param=1/time_horizon``). The K active clients with
the largest α_k²/r_k² are selected (Python's stable ``sorted(..., reverse=True)``: ties go to
the lower client index) and weighted α_k/r_k, unnormalised.
"""

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from pydantic import Field

from fltheory.config import Strict
from fltheory.errors import InputError
from fltheory.sim.algorithms.base import Algorithm, RoundInput, State
from fltheory.sim.algorithms.f3ast import f3ast_select
from fltheory.sim.registries import ALGORITHMS, AlgorithmContext
from fltheory.sim.twins import RoundView, WeightTwin


@dataclass(frozen=True, eq=False)
class F3ASTCode(Algorithm):
    """The authors' F3AST variant: ``k`` clients per round, β = ``beta``, no memory.

    >>> alpha, pi = np.full(3, 1 / 3), np.array([[0.5, 0.25, 1.0]])
    >>> inp = RoundInput(t=0, mask=np.array([[True, True, False]]), alpha=alpha, pi=pi)
    >>> alg = F3ASTCode(k=1, beta=0.5)
    >>> # r = (π + 1{active})/2 = (0.75, 0.625, 0.5): client 1 has the largest α/r
    >>> alg.weights(inp, alg.init_state(1, alpha, pi))[0].round(3).tolist()
    [[0.0, 0.533, 0.0]]
    """

    k: int
    beta: float
    name: ClassVar[str] = "f3ast_code"

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        r = (1.0 - self.beta) * inp.pi + self.beta * inp.mask
        selected = f3ast_select(inp.mask, inp.alpha, r, self.k)
        return np.where(selected, inp.alpha / r, 0.0), state

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "k": self.k, "beta": self.beta}


class F3ASTCodeParams(Strict):
    """Parameters of :class:`F3ASTCode`."""

    k: int | None = Field(None, ge=1, description="clients selected per round (default: 0.45·N)")
    beta: float | None = Field(
        None, gt=0.0, le=1.0, description="weight β of the round's activity in r (default: 1/T)"
    )


def reference_f3ast_code(alg: F3ASTCode, view: RoundView, st: dict[str, Any]) -> dict[int, float]:
    """The twin, as the authors' loop: r = fresh π, r_k ← (1 − β)r_k + β·1{k active}; the
    active clients sorted by α²/r² (stable, descending), the first K weighted α/r."""
    r = {k: (1.0 - alg.beta) * view.pi[k] for k in range(view.n)}
    for k in view.active:
        r[k] += alg.beta
    ranked = sorted(view.active, key=lambda k: view.alpha[k] ** 2 / r[k] ** 2, reverse=True)
    return {k: view.alpha[k] / r[k] for k in ranked[: alg.k]}


def _start(alg: F3ASTCode, alpha: list[float], pi0: list[float]) -> dict[str, Any]:
    """No state: every round starts again from π."""
    return {}


@ALGORITHMS.register(
    "f3ast_code", params=F3ASTCodeParams, reference=WeightTwin(reference_f3ast_code, _start)
)
def build_f3ast_code(params: F3ASTCodeParams, ctx: AlgorithmContext) -> F3ASTCode:
    """The CA-Fed authors' F3AST variant (oracle π each round, no participation memory).

    >>> build_f3ast_code(F3ASTCodeParams(), AlgorithmContext(10, 200, 0, None))
    F3ASTCode(k=4, beta=0.005)
    """
    k = round(0.45 * ctx.n_clients) if params.k is None else params.k
    beta = 1.0 / ctx.rounds if params.beta is None else params.beta
    if not 1 <= k <= ctx.n_clients:
        raise InputError(f"F3AST needs 1 <= k <= {ctx.n_clients}, got k={k}")
    return F3ASTCode(k=k, beta=beta)
