"""AdaFed with full participation (Tan et al. [20]; CA-Fed ToN Section V-A(c), benchmark 3):
q_k = (α_k/π_k) / Σ_{j∈A_t} α_j/π_j for active k, as the authors ran it (|S_t| = |A_t|,
Appendix G1-B(c))."""

from typing import ClassVar

import numpy as np

from fltheory.sim.algorithms.base import Algorithm, RoundInput, State
from fltheory.sim.algorithms.unbiased import unbiased_weights


def adafed_weights(mask: np.ndarray, alpha: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """α_k/π_k normalised over A_t (all zeros when A_t = ∅)."""
    raw = unbiased_weights(mask, alpha, pi)
    total = raw.sum(axis=-1, keepdims=True)
    return np.divide(raw, total, out=np.zeros_like(raw), where=total > 0)


class AdaFed(Algorithm):
    name: ClassVar[str] = "adafed"

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        return adafed_weights(inp.mask, inp.alpha, inp.pi), state
