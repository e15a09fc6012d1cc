"""The FedAR paper's FedAvg baselines (Section 6.1): FedAvg-IS and FedAvg with at most S clients.

* FedAvg-IS: the active clients' updates weighted by importance α_k/π_k (1/(N p_k) for uniform
  α), q_k = α_k/π_k for k ∈ A_t — the same rule as :class:`~.unbiased.Unbiased`, kept under the
  FedAR paper's name; ``normalise=True`` divides by Σ_{A_t} α_k/π_k (self-normalised IS).
* FedAvg (S): when more than S clients are active, S of them are drawn uniformly without
  replacement, and the drawn ones are averaged (q_k = 1/|chosen|). The draw uses uniform keys
  per (repetition, round, client) from ``generator(seed, "sim/fedavg-s/rep{r}/block{b}")``,
  a pure function of (seed, r, t) drawn block by block up front (like the minibatches): the S
  active clients with the smallest keys are chosen.
"""

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np
from pydantic import Field

from fltheory.config import Strict
from fltheory.errors import InputError
from fltheory.rng import generator
from fltheory.sim.algorithms.adafed import adafed_weights
from fltheory.sim.algorithms.base import Algorithm, RoundInput, State
from fltheory.sim.algorithms.unbiased import unbiased_weights
from fltheory.sim.registries import ALGORITHMS, AlgorithmContext
from fltheory.sim.twins import RoundView, WeightTwin

#: Rounds of sampling keys drawn at once per repetition.
KEY_BLOCK = 64


@lru_cache(maxsize=64)
def _key_block(seed: int, rep: int, block: int, n: int) -> np.ndarray:
    keys = generator(seed, f"sim/fedavg-s/rep{rep}/block{block}").random((KEY_BLOCK, n))
    keys.setflags(write=False)
    return keys


def sampling_keys(seed: int, reps: int, t: int, n: int) -> np.ndarray:
    """(R, N) uniform keys of round t (0-based) for every repetition."""
    return np.stack([_key_block(seed, r, t // KEY_BLOCK, n)[t % KEY_BLOCK] for r in range(reps)])


def sample_at_most(mask: np.ndarray, keys: np.ndarray, s: int) -> np.ndarray:
    """The active clients whose key is among the s smallest of the active ones' (R, N) bool."""
    ranked = np.where(mask, keys, np.inf)
    rank = np.argsort(np.argsort(ranked, axis=-1, kind="stable"), axis=-1, kind="stable")
    return mask & (rank < s)


@dataclass(frozen=True, eq=False)
class FedAvgIS(Algorithm):
    """Importance weights α_k/π_k on the active clients, divided by their sum when
    ``normalise`` (FedAR paper, Section 6.1).

    >>> alpha, pi = np.full(3, 1 / 3), np.array([[0.5, 0.25, 1.0]])
    >>> inp = RoundInput(t=0, mask=np.array([[True, True, False]]), alpha=alpha, pi=pi)
    >>> FedAvgIS(normalise=True).weights(inp, {})[0].round(3).tolist()
    [[0.333, 0.667, 0.0]]
    """

    normalise: bool = False
    name: ClassVar[str] = "fedavg_is"

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        if self.normalise:
            return adafed_weights(inp.mask, inp.alpha, inp.pi), state
        return unbiased_weights(inp.mask, inp.alpha, inp.pi), state

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "normalise": self.normalise}


@dataclass(frozen=True, eq=False)
class FedAvgSampled(Algorithm):
    """FedAvg over at most ``s`` active clients drawn with keys from ``seed``.

    >>> inp = RoundInput(0, np.ones((1, 4), dtype=bool), np.full(4, 0.25), np.full((1, 4), 0.5))
    >>> q = FedAvgSampled(s=2, seed=0).weights(inp, {})[0]
    >>> sorted(q[0].tolist())  # two of the four active clients, averaged
    [0.0, 0.0, 0.5, 0.5]
    """

    s: int = 50
    seed: int = 0
    name: ClassVar[str] = "fedavg_sampled"
    needs_pi: ClassVar[bool] = False

    def __post_init__(self) -> None:
        if self.s < 1:
            raise InputError(f"FedAvg (S) needs S >= 1, got {self.s}")

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        reps, n = inp.mask.shape
        chosen = sample_at_most(inp.mask, sampling_keys(self.seed, reps, inp.t, n), self.s)
        count = chosen.sum(axis=-1, keepdims=True)
        return np.where(chosen, 1.0 / np.maximum(count, 1), 0.0), state

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "s": self.s}


class FedAvgISParams(Strict):
    """Parameters of :class:`FedAvgIS`."""

    normalise: bool = Field(False, description="divide by Σ_{A_t} α_k/π_k (self-normalised IS)")


def reference_fedavg_is(alg: FedAvgIS, view: RoundView, st: dict[str, Any]) -> dict[int, float]:
    """The twin: α_k/π_k for each active client, optionally divided by their sum."""
    raw = {k: view.alpha[k] / view.pi[k] for k in view.active}
    total = sum(raw.values()) if alg.normalise else 1.0
    return {k: v / total for k, v in raw.items()}


@ALGORITHMS.register("fedavg_is", params=FedAvgISParams, reference=WeightTwin(reference_fedavg_is))
def build_fedavg_is(params: FedAvgISParams, ctx: AlgorithmContext) -> FedAvgIS:
    """FedAvg-IS: importance weights α_k/π_k on the active clients (FedAR paper, Sec. 6.1).

    >>> build_fedavg_is(FedAvgISParams(normalise=True), AlgorithmContext(2, 1, 0, None)).normalise
    True
    """
    return FedAvgIS(normalise=params.normalise)


class FedAvgSampledParams(Strict):
    """Parameters of :class:`FedAvgSampled`."""

    s: int = Field(50, ge=1, description="at most S active clients are averaged per round")


def reference_fedavg_sampled(
    alg: FedAvgSampled, view: RoundView, st: dict[str, Any]
) -> dict[int, float]:
    """The twin: the S active clients with the smallest keys of the round, averaged."""
    keys = [float(x) for x in sampling_keys(alg.seed, view.reps, view.t, view.n)[view.r]]
    chosen = sorted(view.active, key=lambda k: (keys[k], k))[: alg.s]
    return {k: 1.0 / len(chosen) for k in chosen}


@ALGORITHMS.register(
    "fedavg_sampled", params=FedAvgSampledParams, reference=WeightTwin(reference_fedavg_sampled)
)
def build_fedavg_sampled(params: FedAvgSampledParams, ctx: AlgorithmContext) -> FedAvgSampled:
    """FedAvg (S): the mean over at most S active clients drawn uniformly (FedAR paper, 6.1).

    >>> build_fedavg_sampled(FedAvgSampledParams(s=3), AlgorithmContext(5, 1, 7, None))
    FedAvgSampled(s=3, seed=7)
    """
    return FedAvgSampled(s=params.s, seed=ctx.seed)
