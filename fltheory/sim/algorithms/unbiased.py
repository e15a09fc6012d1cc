"""Unbiased aggregation: q_k = α_k/π_k for every active client (CA-Fed ToN Section V-A(c),
benchmark 1; Guideline C). Then p_k ∝ π_k q_k = α_k in eq. (4), so F_B = F."""

from typing import ClassVar

import numpy as np

from fltheory.sim.algorithms.base import Algorithm, RoundInput, State


def unbiased_weights(mask: np.ndarray, alpha: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """q_k = α_k/π_k for k ∈ A_t, else 0."""
    return np.where(mask, alpha / pi, 0.0)


class Unbiased(Algorithm):
    name: ClassVar[str] = "unbiased"

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        return unbiased_weights(inp.mask, inp.alpha, inp.pi), state
