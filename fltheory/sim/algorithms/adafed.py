"""AdaFed with full participation (Tan et al. [20]; CA-Fed ToN Section V-A(c), benchmark 3):
q_k = (α_k/π_k) / Σ_{j∈A_t} α_j/π_j for active k, as the authors ran it (|S_t| = |A_t|,
Appendix G1-B(c))."""

from typing import Any, ClassVar

import numpy as np

from fltheory.sim.algorithms.base import Algorithm, RoundInput, State
from fltheory.sim.algorithms.unbiased import unbiased_weights
from fltheory.sim.registries import ALGORITHMS, AlgorithmContext, NoParams
from fltheory.sim.twins import RoundView, WeightTwin


def adafed_weights(mask: np.ndarray, alpha: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """α_k/π_k normalised over A_t (all zeros when A_t = ∅)."""
    raw = unbiased_weights(mask, alpha, pi)
    total = raw.sum(axis=-1, keepdims=True)
    out: np.ndarray = np.divide(raw, total, out=np.zeros_like(raw), where=total > 0)
    return out


class AdaFed(Algorithm):
    """α_k/π_k normalised over the active clients (Tan et al.).

    >>> alpha, pi = np.full(3, 1 / 3), np.array([[0.5, 0.25, 1.0]])
    >>> inp = RoundInput(t=0, mask=np.array([[True, True, False]]), alpha=alpha, pi=pi)
    >>> AdaFed().weights(inp, {})[0].round(3).tolist()
    [[0.333, 0.667, 0.0]]
    """

    name: ClassVar[str] = "adafed"

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        return adafed_weights(inp.mask, inp.alpha, inp.pi), state


def reference_adafed(alg: AdaFed, view: RoundView, st: dict[str, Any]) -> dict[int, float]:
    """The twin: α_k/π_k divided by its sum over the active clients."""
    total = sum(view.alpha[k] / view.pi[k] for k in view.active)
    return {k: (view.alpha[k] / view.pi[k]) / total for k in view.active}


@ALGORITHMS.register("adafed", params=NoParams, reference=WeightTwin(reference_adafed))
def build_adafed(params: NoParams, ctx: AlgorithmContext) -> AdaFed:
    """AdaFed: α_k/π_k normalised over the active clients (Tan et al.).

    >>> build_adafed(NoParams(), AlgorithmContext(2, 1, 0, None)).name
    'adafed'
    """
    return AdaFed()
