"""FedAvg under unreliable links.

* ``mean`` rule — FedPBC paper, Algorithm 1 (McMahan et al.): x^{t+1} = (1/|A^t|) Σ_{i∈A^t}
  x_i^{t++}, i.e. eq. (3) with q_k = 1/|A_t| for active k and η̄ = 1.
* ``fixed`` rule — CA-Fed eq. (3) with a fixed weight vector q (default α): q_k for k ∈ A_t.
When nobody is active the model stays where it is (Algorithm 1, line 21).
"""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from fltheory.sim.algorithms.base import Algorithm, RoundInput, State


def mean_active_weights(mask: np.ndarray) -> np.ndarray:
    """q_k = 1/|A_t| for k ∈ A_t, else 0 (rows with A_t = ∅ are all zero)."""
    count = mask.sum(axis=-1, keepdims=True)
    return np.where(mask, 1.0 / np.maximum(count, 1), 0.0)


def fixed_weights(mask: np.ndarray, q: np.ndarray) -> np.ndarray:
    """q_k for k ∈ A_t, else 0 (eq. 3 with constant weights)."""
    return np.where(mask, q, 0.0)


@dataclass(frozen=True, eq=False)
class FedAvg(Algorithm):
    """FedAvg with rule ``mean`` (FedPBC Alg. 1) or ``fixed`` weights q (None: q = α)."""

    rule: str = "mean"
    q: np.ndarray | None = None
    name: ClassVar[str] = "fedavg"
    needs_pi: ClassVar[bool] = False

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        if self.rule == "mean":
            return mean_active_weights(inp.mask), state
        q = inp.alpha if self.q is None else self.q
        return fixed_weights(inp.mask, q), state

    def describe(self):
        return {"name": self.name, "rule": self.rule}
