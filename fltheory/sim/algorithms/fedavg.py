"""FedAvg under unreliable links.

* ``mean`` rule — FedPBC paper, Algorithm 1 (McMahan et al.): x^{t+1} = (1/|A^t|) Σ_{i∈A^t}
  x_i^{t++}, i.e. eq. (3) with q_k = 1/|A_t| for active k and η̄ = 1.
* ``fixed`` rule — CA-Fed eq. (3) with a fixed weight vector q (default α): q_k for k ∈ A_t.
When nobody is active the model stays where it is (Algorithm 1, line 21).
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


def mean_active_weights(mask: np.ndarray) -> np.ndarray:
    """q_k = 1/|A_t| for k ∈ A_t, else 0 (rows with A_t = ∅ are all zero)."""
    count = mask.sum(axis=-1, keepdims=True)
    return np.where(mask, 1.0 / np.maximum(count, 1), 0.0)


def fixed_weights(mask: np.ndarray, q: np.ndarray) -> np.ndarray:
    """q_k for k ∈ A_t, else 0 (eq. 3 with constant weights)."""
    return np.where(mask, q, 0.0)


@dataclass(frozen=True, eq=False)
class FedAvg(Algorithm):
    """FedAvg with rule ``mean`` (FedPBC Alg. 1) or ``fixed`` weights q (None: q = α).

    >>> alpha, pi = np.full(3, 1 / 3), np.array([[0.5, 0.25, 1.0]])
    >>> inp = RoundInput(t=0, mask=np.array([[True, True, False]]), alpha=alpha, pi=pi)
    >>> FedAvg().weights(inp, {})[0].tolist()  # 1/|A_t|
    [[0.5, 0.5, 0.0]]
    >>> FedAvg(rule="fixed").weights(inp, {})[0].round(3).tolist()  # q = α on A_t
    [[0.333, 0.333, 0.0]]
    """

    rule: str = "mean"
    q: np.ndarray | None = None
    name: ClassVar[str] = "fedavg"
    needs_pi: ClassVar[bool] = False

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        if self.rule == "mean":
            return mean_active_weights(inp.mask), state
        q = inp.alpha if self.q is None else self.q
        return fixed_weights(inp.mask, q), state

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "rule": self.rule}


class FedAvgParams(Strict):
    """Parameters of :class:`FedAvg`."""

    rule: Literal["mean", "fixed"] = Field(
        "mean", description="'mean': 1/|A_t| over the active clients; 'fixed': q_k (eq. 3)"
    )
    q: list[float] | None = Field(
        None, description="the fixed weights, one non-negative number per client (default: α)"
    )


def reference_fedavg(alg: FedAvg, view: RoundView, st: dict[str, Any]) -> dict[int, float]:
    """The twin: 1/|A_t| for each active client, or its fixed weight q_k (α_k by default)."""
    if alg.rule == "mean":
        return {k: 1.0 / len(view.active) for k in view.active}
    q = view.alpha if alg.q is None else alg.q
    return {k: float(q[k]) for k in view.active}


@ALGORITHMS.register("fedavg", params=FedAvgParams, reference=WeightTwin(reference_fedavg))
def build_fedavg(params: FedAvgParams, ctx: AlgorithmContext) -> FedAvg:
    """FedAvg: the mean over the active clients (FedPBC Alg. 1) or fixed weights (eq. 3).

    >>> build_fedavg(FedAvgParams(rule="fixed", q=[1, 0]), AlgorithmContext(2, 1, 0, None)).q
    array([1., 0.])
    """
    q = None if params.q is None else np.asarray(params.q, dtype=float)
    if q is not None and (q.shape != (ctx.n_clients,) or (q < 0).any()):
        raise InputError(f"q must be {ctx.n_clients} non-negative numbers")
    return FedAvg(rule=params.rule, q=q)
