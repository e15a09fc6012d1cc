"""FedAR, local update approximation and rectification (FedAR paper, Section 4, Algorithm 1).

* eq. (4): the server keeps each client's latest update G_i (G_i[0] = 0), replaced when i ∈ A(t);
* eq. (5): inactive-round counter τ(i, t) = 0 if i ∈ A(t), else τ(i, t − 1) + 1 (τ(i, 0) = 0);
* eq. (6): ψ_{i,t} = 0 if τ(i, t) > g(t), else min((τ(i, t) + 1)^p, 2);
* eq. (7): w_{t+1} = w_t − (η_t/N_t) Σ_i ψ_{i,t} G_i[t], N_t = number of contributing clients.

Readings of the garbled text. The paper's G_i is w_t − w_i^{t,K} (a descent direction, hence
the minus in eq. 7); here Δ_i = w_i^{t,K} − w_t = −G_i, so Δ = (1/N_t) Σ_i ψ_i Δ_i and
w ← w + η̄Δ with server learning rate η̄ (1 in the paper). Eq. (6) prints min([τ + 1]^p, 2) with
the exponent p of Section 6 (p = 0.1). Following Algorithm 1 (line 3, the set E of clients seen
so far) and the brief, clients never seen do not count in N_t (their G_i is 0 anyway); N_t counts
the seen clients with ψ > 0. The cut-off g(t) (t the 1-based round) comes in the two forms the
paper gives, each only up to garbled constants:

* ``"sqrt"`` (Theorem 2, non-convex, AR:448, printed ∝ max(√t, √t₀)): g(t) = c·max(√t, √t₀);
* ``"linear"`` (Theorem 1, convex, AR:400-401, printed "t₀ + §t" with b > 2, read as t/b):
  g(t) = t₀ + t/b, or t₀ + ⌈t/b⌉ with ``ceil`` (the claims inventory's reading);

or no cut-off (g = ∞) when the form's constant (c, resp. b) is None.
"""

import math
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import numpy as np
import torch
from pydantic import Field

from fltheory.config import Strict
from fltheory.errors import InputError
from fltheory.sim.algorithms.base import RoundInput
from fltheory.sim.algorithms.memory import (
    LocalFn,
    Memory,
    MemoryAlgorithm,
    rows_with_any,
    store_updates,
    updates_of_active,
    weighted_table_sum,
)
from fltheory.sim.registries import ALGORITHMS, AlgorithmContext
from fltheory.sim.twins import LocalStep, RoundView, State, Twin

#: The two forms of the cut-off g(t) (module doc).
CUTOFF_FORMS = ("sqrt", "linear")


def inactive_counter(tau: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Eq. (5): 0 for active clients, τ + 1 for the others."""
    return np.where(mask, 0, tau + 1)


def cutoff(t: int, scale: float | None, t0: float = 1.0) -> float:
    """g(t) = scale·max(√t, √t₀) for the 1-based round t (math.inf when scale is None).

    >>> cutoff(16, 2.0), cutoff(1, 1.0, t0=4.0), cutoff(5, None)
    (8.0, 2.0, inf)
    """
    return math.inf if scale is None else scale * math.sqrt(max(t, t0))


def linear_cutoff(t: int, b: float | None, t0: float = 1.0, ceil: bool = False) -> float:
    """g(t) = t₀ + t/b (or t₀ + ⌈t/b⌉) for the 1-based round t, Theorem 1's convex form
    (math.inf when b is None).

    >>> linear_cutoff(10, 4.0, t0=1.0), linear_cutoff(10, 4.0, t0=1.0, ceil=True)
    (3.5, 4.0)
    """
    if b is None:
        return math.inf
    return t0 + (math.ceil(t / b) if ceil else t / b)


def cutoff_at(alg: "FedAR", t: int) -> float:
    """The cut-off g(t) of ``alg`` at the 1-based round t, in its form (see the module doc)."""
    if alg.cutoff_form == "linear":
        return linear_cutoff(t, alg.cutoff_b, alg.cutoff_t0, alg.cutoff_ceil)
    return cutoff(t, alg.cutoff_scale, alg.cutoff_t0)


def fedar_psi(tau: np.ndarray, p: float, g: float) -> np.ndarray:
    """Eq. (6): ψ = min((τ + 1)^p, 2), or 0 where τ > g."""
    psi = np.minimum((tau + 1.0) ** p, 2.0)
    return np.where(tau > g, 0.0, psi)


def contributing(psi: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """N_t per row: clients seen at least once whose weight ψ is positive."""
    count: np.ndarray = ((psi > 0) & seen).sum(axis=-1)
    return count


def fedar_coefficients(psi: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """ψ_i/N_t for contributing clients, 0 elsewhere (rows with N_t = 0 are all zero)."""
    live = (psi > 0) & seen
    count = live.sum(axis=-1, keepdims=True)
    return np.where(live, psi / np.maximum(count, 1), 0.0)


@dataclass(frozen=True, eq=False)
class FedAR(MemoryAlgorithm):
    """FedAR with exponent ``p`` (eq. 6) and cut-off g(t): ``cutoff_scale``·max(√t, √t0)
    (form ``"sqrt"``) or ``cutoff_t0`` + t/``cutoff_b`` (form ``"linear"``).

    >>> import torch
    >>> inp = RoundInput(0, np.array([[True, False]]), np.full(2, 0.5), np.full((1, 2), 0.5))
    >>> w = torch.zeros(1, 1)  # R = 1 repetition, P = 1 parameter
    >>> local = lambda rr, kk, theta0: theta0 + 1.0  # each local run moves its model by +1
    >>> alg = FedAR()
    >>> delta, moved, coef, memory = alg.step(inp, w, alg.init_memory(1, 2, w), local)
    >>> delta.tolist(), coef.tolist(), memory["tau"].tolist()
    ([[1.0]], [[1.0, 0.0]], [[0, 1]])
    """

    p: float = 0.1
    cutoff_scale: float | None = None
    cutoff_t0: float = 1.0
    cutoff_form: str = "sqrt"
    cutoff_b: float | None = None
    cutoff_ceil: bool = False
    name: ClassVar[str] = "fedar"

    def __post_init__(self) -> None:
        if not 0.0 <= self.p <= 1.0:
            raise InputError(f"FedAR exponent p must lie in [0, 1], got {self.p}")
        if self.cutoff_scale is not None and not self.cutoff_scale > 0:
            raise InputError(f"FedAR cut-off scale must be positive, got {self.cutoff_scale}")
        if self.cutoff_form not in CUTOFF_FORMS:
            raise InputError(f"FedAR cut-off form must be one of {CUTOFF_FORMS}")
        if self.cutoff_b is not None and not self.cutoff_b > 2:
            raise InputError(f"FedAR cut-off b must exceed 2 (Theorem 1), got {self.cutoff_b}")
        other = self.cutoff_scale if self.cutoff_form == "linear" else self.cutoff_b
        if other is not None:
            unused = "cutoff_scale" if self.cutoff_form == "linear" else "cutoff_b"
            raise InputError(f"FedAR {unused} does not apply to the {self.cutoff_form!r} cut-off")

    def init_memory(self, reps: int, n: int, w0: torch.Tensor) -> Memory:
        return {
            "table": w0.new_zeros((reps, n, w0.shape[1])),
            "tau": np.zeros((reps, n), dtype=np.int64),
            "seen": np.zeros((reps, n), dtype=bool),
        }

    def step(
        self, inp: RoundInput, w: torch.Tensor, memory: Memory, local: LocalFn
    ) -> tuple[torch.Tensor, np.ndarray, np.ndarray, Memory]:
        rr, kk, upd = updates_of_active(inp, w, local)
        table = store_updates(memory["table"], rr, kk, upd)
        tau = inactive_counter(memory["tau"], inp.mask)
        seen = memory["seen"] | inp.mask
        psi = fedar_psi(tau, self.p, cutoff_at(self, inp.t + 1))
        coef = fedar_coefficients(psi, seen)
        delta = weighted_table_sum(table, coef)
        return delta, rows_with_any(coef), coef, {"table": table, "tau": tau, "seen": seen}

    def describe(self) -> dict[str, Any]:
        out = {"name": self.name, "p": self.p, "cutoff_form": self.cutoff_form}
        if self.cutoff_form == "linear":
            return {**out, "cutoff_b": self.cutoff_b, "cutoff_t0": self.cutoff_t0}
        return {**out, "cutoff_scale": self.cutoff_scale, "cutoff_t0": self.cutoff_t0}


class FedARParams(Strict):
    """Parameters of :class:`FedAR`."""

    p: float = Field(
        0.1, ge=0.0, le=1.0, description="exponent p of ψ = min((τ + 1)^p, 2), eq. (6)"
    )
    cutoff_scale: float | None = Field(
        None, gt=0.0, description="c of the cut-off g(t) = c·max(√t, √t₀) (default: no cut-off)"
    )
    cutoff_t0: float = Field(1.0, gt=0.0, description="t₀ of the cut-off g(t)")
    cutoff_form: Literal["sqrt", "linear"] = Field(
        "sqrt",
        description="g(t) = c·max(√t, √t₀) (Theorem 2, non-convex) or t₀ + t/b (Theorem 1, convex)",
    )
    cutoff_b: float | None = Field(
        None, gt=2.0, description="b of the linear cut-off g(t) = t₀ + t/b (default: no cut-off)"
    )
    cutoff_ceil: bool = Field(False, description="linear cut-off with ⌈t/b⌉ instead of t/b")


class FedARTwin(Twin):
    """Eqs. (4)–(7) client by client: stored updates G_i, counters τ_i, seen flags."""

    def start(self, alg: Any, alpha: list[float], pi0: list[float], w: torch.Tensor) -> State:
        """G_i = 0, τ_i = 0, nobody seen."""
        n = len(alpha)
        return {"G": [torch.zeros_like(w) for _ in range(n)], "seen": [False] * n, "tau": [0] * n}

    def step(
        self, alg: FedAR, st: State, view: RoundView, w: torch.Tensor, local: LocalStep
    ) -> tuple[torch.Tensor | None, dict[int, float]]:
        """Refresh G and τ (eqs. 4–5), weigh by ψ (eq. 6), average over the N_t contributors."""
        for k in range(view.n):
            if k in view.active:
                st["G"][k] = local(k, w) - w
                st["seen"][k] = True
                st["tau"][k] = 0
            else:
                st["tau"][k] += 1
        t = view.t + 1
        g = math.inf
        if alg.cutoff_form == "sqrt" and alg.cutoff_scale is not None:
            g = alg.cutoff_scale * math.sqrt(max(t, alg.cutoff_t0))
        elif alg.cutoff_form == "linear" and alg.cutoff_b is not None:
            g = alg.cutoff_t0 + (
                math.ceil(t / alg.cutoff_b) if alg.cutoff_ceil else t / alg.cutoff_b
            )
        psi = {}
        for k in range(view.n):
            if st["seen"][k] and st["tau"][k] <= g:
                psi[k] = min((st["tau"][k] + 1.0) ** alg.p, 2.0)
        if not psi:
            return None, {}
        n_t = len(psi)
        return sum(psi[k] * st["G"][k] for k in psi) / n_t, {k: psi[k] / n_t for k in psi}


@ALGORITHMS.register("fedar", params=FedARParams, reference=FedARTwin())
def build_fedar(params: FedARParams, ctx: AlgorithmContext) -> FedAR:
    """FedAR: stale updates rectified by ψ(τ) (FedAR paper, Algorithm 1).

    >>> alg = build_fedar(FedARParams(p=0.5, cutoff_form="linear", cutoff_b=4.0),
    ...                   AlgorithmContext(2, 1, 0, None))
    >>> alg.p, alg.cutoff_form, cutoff_at(alg, 10)
    (0.5, 'linear', 3.5)
    """
    return FedAR(
        p=params.p,
        cutoff_scale=params.cutoff_scale,
        cutoff_t0=params.cutoff_t0,
        cutoff_form=params.cutoff_form,
        cutoff_b=params.cutoff_b,
        cutoff_ceil=params.cutoff_ceil,
    )
