"""More available (CA-Fed ToN Section V-A(c), benchmark 2): only the "more available" clients
(π = ½ + g) ever take part, always excluding the others.

Reading: the paper does not state their weights; we use the Unbiased weights α_k/π_k on the
retained set M (zero elsewhere), so the biased importance p of eq. (4) is α restricted to M and
renormalised.
"""

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from pydantic import Field

from fltheory.config import Strict
from fltheory.errors import InputError
from fltheory.sim.algorithms.base import Algorithm, RoundInput, State
from fltheory.sim.algorithms.unbiased import unbiased_weights
from fltheory.sim.registries import ALGORITHMS, AlgorithmContext
from fltheory.sim.twins import RoundView, WeightTwin


def more_available_weights(
    mask: np.ndarray, alpha: np.ndarray, pi: np.ndarray, members: np.ndarray
) -> np.ndarray:
    """q_k = α_k/π_k for k ∈ A_t ∩ M, else 0."""
    return unbiased_weights(mask & members, alpha, pi)


@dataclass(frozen=True, eq=False)
class MoreAvailable(Algorithm):
    """α_k/π_k over the active clients among ``members`` ((N,) bool, the "more available").

    >>> alpha, pi = np.full(3, 1 / 3), np.array([[0.5, 0.25, 1.0]])
    >>> inp = RoundInput(t=0, mask=np.array([[True, True, False]]), alpha=alpha, pi=pi)
    >>> MoreAvailable(members=np.array([True, False, True])).weights(inp, {})[0].round(3).tolist()
    [[0.667, 0.0, 0.0]]
    """

    members: np.ndarray
    name: ClassVar[str] = "more_available"

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        return more_available_weights(inp.mask, inp.alpha, inp.pi, self.members), state

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "n_members": int(self.members.sum())}


class MoreAvailableParams(Strict):
    """Parameters of :class:`MoreAvailable`."""

    threshold: float = Field(
        0.5, ge=0.0, le=1.0, description="clients whose availability π exceeds it take part"
    )


def reference_more_available(
    alg: MoreAvailable, view: RoundView, st: dict[str, Any]
) -> dict[int, float]:
    """The twin: α_k/π_k for each active member of M."""
    return {k: view.alpha[k] / view.pi[k] for k in view.active if alg.members[k]}


@ALGORITHMS.register(
    "more_available", params=MoreAvailableParams, reference=WeightTwin(reference_more_available)
)
def build_more_available(params: MoreAvailableParams, ctx: AlgorithmContext) -> MoreAvailable:
    """More available: α_k/π_k over the active clients with π_k above a threshold.

    >>> alg = build_more_available(MoreAvailableParams(), AlgorithmContext(2, 1, 0, [0.9, 0.2]))
    >>> alg.members.tolist()
    [True, False]
    """
    members = np.asarray(ctx.pi) > params.threshold
    if not members.any():
        raise InputError(f"no client has availability above {params.threshold}")
    return MoreAvailable(members=members)
