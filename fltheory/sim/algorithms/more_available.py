"""More available (CA-Fed ToN Section V-A(c), benchmark 2): only the "more available" clients
(π = ½ + g) ever take part, always excluding the others.

Reading: the paper does not state their weights; we use the Unbiased weights α_k/π_k on the
retained set M (zero elsewhere), so the biased importance p of eq. (4) is α restricted to M and
renormalised.
"""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from fltheory.sim.algorithms.base import Algorithm, RoundInput, State
from fltheory.sim.algorithms.unbiased import unbiased_weights


def more_available_weights(
    mask: np.ndarray, alpha: np.ndarray, pi: np.ndarray, members: np.ndarray
) -> np.ndarray:
    """q_k = α_k/π_k for k ∈ A_t ∩ M, else 0."""
    return unbiased_weights(mask & members, alpha, pi)


@dataclass(frozen=True, eq=False)
class MoreAvailable(Algorithm):
    """``members``: (N,) bool, the retained "more available" clients."""

    members: np.ndarray
    name: ClassVar[str] = "more_available"

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        return more_available_weights(inp.mask, inp.alpha, inp.pi, self.members), state

    def describe(self):
        return {"name": self.name, "n_members": int(self.members.sum())}
