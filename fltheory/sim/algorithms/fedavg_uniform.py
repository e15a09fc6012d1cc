"""FedAvg with server-side uniform sampling: K of the N clients drawn per round, the active ones
among them averaged.

Each round t the server samples a set S_t of K clients uniformly without replacement, whatever
their availability (McMahan et al.'s FedAvg with client fraction C = K/N), and aggregates the
sampled clients that are active, with the target weights renormalised over them (the weights
of eq. 3 are)

    q_k = α_k / Σ_{j ∈ S_t ∩ A_t} α_j   for k ∈ S_t ∩ A_t,   q_k = 0 otherwise;

when S_t ∩ A_t = ∅ the model stays. P(k ∈ S_t) = K/N for every client, so under availability π
the participation rate of client k is π_k·K/N (for independent sampling and availability).

The draw: uniform keys per (repetition, round, client) from ``generator(seed,
"sim/fedavg-uniform/rep{r}/round{t}")``, a pure function of (seed, r, t); S_t holds the K
clients with the smallest keys (ties to the lower index), a uniform K-subset.
"""

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from pydantic import Field

from fltheory.config import Strict
from fltheory.errors import InputError
from fltheory.rng import generator
from fltheory.sim.algorithms.base import Algorithm, RoundInput, State
from fltheory.sim.registries import ALGORITHMS, AlgorithmContext
from fltheory.sim.twins import RoundView, WeightTwin


def uniform_keys(seed: int, reps: int, t: int, n: int) -> np.ndarray:
    """(R, N) uniform keys of round t (0-based), one stream per (repetition, round).

    >>> uniform_keys(0, 2, 5, 3).shape
    (2, 3)
    """
    return np.stack(
        [generator(seed, f"sim/fedavg-uniform/rep{r}/round{t}").random(n) for r in range(reps)]
    )


def uniform_sample(keys: np.ndarray, k: int) -> np.ndarray:
    """(R, N) bool: the k clients with the smallest keys in each row (ties: lower index).

    >>> uniform_sample(np.array([[0.5, 0.1, 0.9, 0.3]]), 2).tolist()
    [[False, True, False, True]]
    """
    rank = np.argsort(np.argsort(keys, axis=-1, kind="stable"), axis=-1, kind="stable")
    return rank < k


def sampled_active_weights(mask: np.ndarray, sampled: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """q_k = α_k / Σ_{S_t ∩ A_t} α_j on S_t ∩ A_t, else 0 (rows with S_t ∩ A_t = ∅: all 0).

    >>> sampled_active_weights(np.array([[1, 1, 0]], bool), np.array([[0, 1, 1]], bool),
    ...                        np.array([0.2, 0.3, 0.5])).tolist()
    [[0.0, 1.0, 0.0]]
    """
    raw = np.where(mask & sampled, alpha, 0.0)
    total = raw.sum(axis=-1, keepdims=True)
    out: np.ndarray = np.divide(raw, total, out=np.zeros_like(raw), where=total > 0)
    return out


@dataclass(frozen=True, eq=False)
class FedAvgUniform(Algorithm):
    """FedAvg over the active clients among ``k`` sampled uniformly per round (keys: ``seed``)."""

    k: int
    seed: int = 0
    name: ClassVar[str] = "fedavg_uniform"
    needs_pi: ClassVar[bool] = False

    def __post_init__(self) -> None:
        if self.k < 1:
            raise InputError(f"FedAvg with uniform sampling needs K >= 1, got {self.k}")

    def weights(self, inp: RoundInput, state: State) -> tuple[np.ndarray, State]:
        reps, n = inp.mask.shape
        sampled = uniform_sample(uniform_keys(self.seed, reps, inp.t, n), self.k)
        return sampled_active_weights(inp.mask, sampled, inp.alpha), state

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "k": self.k}


class FedAvgUniformParams(Strict):
    """Parameters of :class:`FedAvgUniform`."""

    k: int | None = Field(None, ge=1, description="clients sampled per round K (default: ⌈N/2⌉)")


def reference_fedavg_uniform(
    alg: FedAvgUniform, view: RoundView, st: dict[str, Any]
) -> dict[int, float]:
    """The twin: sort the clients by key, keep the first K, average the active ones with
    α renormalised over them."""
    keys = [float(x) for x in uniform_keys(alg.seed, view.reps, view.t, view.n)[view.r]]
    sampled = sorted(range(view.n), key=lambda k: (keys[k], k))[: alg.k]
    taking_part = [k for k in sampled if k in view.active]
    total = sum(view.alpha[k] for k in taking_part)
    return {k: view.alpha[k] / total for k in taking_part}


@ALGORITHMS.register(
    "fedavg_uniform", params=FedAvgUniformParams, reference=WeightTwin(reference_fedavg_uniform)
)
def build_fedavg_uniform(params: FedAvgUniformParams, ctx: AlgorithmContext) -> FedAvgUniform:
    """FedAvg with server-side uniform sampling of K clients, averaging the active ones.

    >>> build_fedavg_uniform(FedAvgUniformParams(), AlgorithmContext(5, 1, 3, None))
    FedAvgUniform(k=3, seed=3)
    """
    k = math.ceil(ctx.n_clients / 2) if params.k is None else params.k
    if k > ctx.n_clients:
        raise InputError(f"cannot sample k={k} of {ctx.n_clients} clients")
    return FedAvgUniform(k=k, seed=ctx.seed)
