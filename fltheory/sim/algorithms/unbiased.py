"""Unbiased aggregation: q_k = α_k/π_k for every active client (CA-Fed ToN Section V-A(c),
benchmark 1; Guideline C). Then p_k ∝ π_k q_k = α_k in eq. (4), so F_B = F."""

from typing import Any, ClassVar

import numpy as np

from fltheory.sim.algorithms.base import Algorithm, RoundInput, State
from fltheory.sim.registries import ALGORITHMS, AlgorithmContext, NoParams
from fltheory.sim.twins import RoundView, WeightTwin


def unbiased_weights(mask: np.ndarray, alpha: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """q_k = α_k/π_k for k ∈ A_t, else 0."""
    return np.where(mask, alpha / pi, 0.0)


class Unbiased(Algorithm):
    """q_k = α_k/π_k for the active clients (CA-Fed ToN Guideline C): E[q_k 1{k ∈ A}] = α_k.

    >>> alpha, pi = np.full(3, 1 / 3), np.array([[0.5, 0.25, 1.0]])
    >>> inp = RoundInput(t=0, mask=np.array([[True, True, False]]), alpha=alpha, pi=pi)
    >>> Unbiased().weights(inp, {})[0].round(3).tolist()
    [[0.667, 1.333, 0.0]]
    """

    name: ClassVar[str] = "unbiased"

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        return unbiased_weights(inp.mask, inp.alpha, inp.pi), state


def reference_unbiased(alg: Unbiased, view: RoundView, st: dict[str, Any]) -> dict[int, float]:
    """The twin: α_k/π_k for each active client."""
    return {k: view.alpha[k] / view.pi[k] for k in view.active}


@ALGORITHMS.register("unbiased", params=NoParams, reference=WeightTwin(reference_unbiased))
def build_unbiased(params: NoParams, ctx: AlgorithmContext) -> Unbiased:
    """Unbiased: q_k = α_k/π_k for the active clients (CA-Fed ToN Guideline C).

    >>> build_unbiased(NoParams(), AlgorithmContext(2, 1, 0, None)).name
    'unbiased'
    """
    return Unbiased()
