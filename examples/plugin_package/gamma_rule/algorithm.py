"""The γ-weighted aggregation rule as a simulator algorithm: ``name = "gamma_weights"``.

Registered with fltheory's own API (``ALGORITHMS.register`` and an ``Algorithm`` subclass). The
reference twin is optional for a plug-in; given here, fltheory's registry test runs the engine
against it (``FLTHEORY_PLUGINS=gamma_rule pytest tests/sim/test_sim_registry.py``).
"""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from pydantic import Field

from fltheory.config import Strict
from fltheory.sim.algorithms import Algorithm, RoundInput
from fltheory.sim.algorithms.base import State
from fltheory.sim.registries import ALGORITHMS, AlgorithmContext
from fltheory.sim.twins import RoundView, WeightTwin


@dataclass(frozen=True, eq=False)
class GammaWeights(Algorithm):
    """q_k = α_k/π_k^γ for the active clients, 0 for the others.

    >>> inp = RoundInput(t=0, mask=np.array([[True, True, False]]), alpha=np.full(3, 1 / 3),
    ...                  pi=np.array([[1.0, 0.25, 0.5]]))
    >>> GammaWeights(gamma=0.5).weights(inp, {})[0].round(4).tolist()
    [[0.3333, 0.6667, 0.0]]
    """

    gamma: float = 1.0
    name: ClassVar[str] = "gamma_weights"

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        return np.where(inp.mask, inp.alpha / inp.pi**self.gamma, 0.0), state

    def describe(self) -> dict[str, object]:
        return {"name": self.name, "gamma": self.gamma}


class GammaParams(Strict):
    """Parameters of :class:`GammaWeights`."""

    gamma: float = Field(
        1.0, ge=0.0, le=4.0, description="exponent γ of q_k = α_k/π_k^γ (0: q = α, 1: unbiased)"
    )


def reference_gamma(alg: GammaWeights, view: RoundView, st: dict) -> dict[int, float]:
    """The twin, written per client: α_k/π_k^γ for each active client k."""
    return {k: view.alpha[k] / view.pi[k] ** alg.gamma for k in view.active}


@ALGORITHMS.register("gamma_weights", params=GammaParams, reference=WeightTwin(reference_gamma))
def build_gamma(params: GammaParams, ctx: AlgorithmContext) -> GammaWeights:
    """γ-weights: q_k = α_k/π_k^γ for the active clients (example plug-in).

    >>> build_gamma(GammaParams(gamma=0.5), AlgorithmContext(2, 1, 0, None)).gamma
    0.5
    """
    return GammaWeights(gamma=params.gamma)
