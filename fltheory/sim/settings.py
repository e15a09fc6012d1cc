"""Hyper-parameters shared by the vectorised engine and the reference loop."""

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from fltheory.errors import InputError
from fltheory.sim.algorithms.base import Algorithm
from fltheory.sim.local_opt import INITS, LocalOptimiser

#: η_t/η as a function of t0/(t0 + t) for each schedule.
DECAYS: dict[str, Callable[[float], float]] = {
    "constant": lambda ratio: 1.0,
    "inverse": lambda ratio: ratio,
    "inverse_sqrt": math.sqrt,
}


@dataclass(frozen=True)
class Schedule:
    """Local learning rate η_t of eq. (2) at round t (0-based): constant, η·t0/(t0 + t)
    ("inverse") or η·sqrt(t0/(t0 + t)) ("inverse_sqrt")."""

    lr: float
    kind: str = "constant"
    t0: float = 1.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.lr) and self.lr > 0):
            raise InputError(f"learning rate must be a positive number, got {self.lr}")
        if self.kind not in DECAYS:
            raise InputError(f"unknown lr schedule '{self.kind}' (choose from {tuple(DECAYS)})")
        if not (math.isfinite(self.t0) and self.t0 > 0):
            raise InputError(f"lr decay t0 must be positive, got {self.t0}")

    def at(self, t: int) -> float:
        """η_t.

        >>> Schedule(0.5, "inverse", 2.0).at(2)
        0.25
        """
        return self.lr * DECAYS[self.kind](self.t0 / (self.t0 + t))


@dataclass(frozen=True)
class ServerOptions:
    """Server step of eq. (3): w ← Proj_W(w + η̄·v), v = μ·v + (Δ − λ_wd·w).

    With momentum μ = 0 and weight decay λ_wd = 0 (the defaults) this is exactly eq. (3).
    ``diameter``: W is the ball of that diameter centred at 0 (None: W = R^d, no projection).
    """

    lr: float = 1.0
    momentum: float = 0.0
    weight_decay: float = 0.0
    diameter: float | None = None

    def __post_init__(self) -> None:
        if not (math.isfinite(self.lr) and self.lr > 0):
            raise InputError(f"server learning rate must be positive, got {self.lr}")
        if not 0.0 <= self.momentum < 1.0:
            raise InputError(f"server momentum must lie in [0, 1), got {self.momentum}")
        if not (math.isfinite(self.weight_decay) and self.weight_decay >= 0):
            raise InputError(f"server weight decay must be >= 0, got {self.weight_decay}")
        if self.diameter is not None and not (self.diameter > 0 and math.isfinite(self.diameter)):
            raise InputError(f"diameter of W must be a positive number, got {self.diameter}")


ESTIMATORS = ("oracle", "bayesian", "warmed")


@dataclass(frozen=True, eq=False)
class AlgorithmSpec:
    """One algorithm of a comparison with its learning rates and availability knowledge."""

    label: str
    algorithm: Algorithm
    schedule: Schedule
    server: ServerOptions = field(default_factory=ServerOptions)
    estimator: str = "oracle"

    def __post_init__(self) -> None:
        if self.estimator not in ESTIMATORS:
            raise InputError(f"unknown estimator '{self.estimator}' (choose from {ESTIMATORS})")


@dataclass(frozen=True)
class SimSettings:
    """Rounds T, local steps E, minibatch size B (0: exact/full local gradients), and the
    authors' local mechanics (:mod:`fltheory.sim.local_opt`): ``local_epochs`` (> 0: shuffled
    epochs instead of E steps), local SGD ``local_momentum`` / ``local_weight_decay`` with
    persistent per-client buffers, and ``init`` ("default": the model's own w₀, zeros for the
    linear models; "torch_default": ``nn.Linear``'s U(±1/√fan_in)). ``record_objective``
    False skips the training objective F(w) at the evaluations (a pass over every training
    sample each time; the run's ``objective`` is then None). ``local_method`` names a
    :data:`~fltheory.sim.registries.LOCAL_METHODS` entry with its ``local_params`` (None: chosen
    by :func:`fltheory.sim.local.select.local_method` from the keys above, as always).

    >>> SimSettings(rounds=5, local_epochs=2, batch_size=32).optimiser
    LocalOptimiser(epochs=2, momentum=0.0, weight_decay=0.0)
    """

    rounds: int
    local_steps: int = 1
    batch_size: int = 0
    eval_every: int = 1
    local_epochs: int = 0
    local_momentum: float = 0.0
    local_weight_decay: float = 0.0
    init: str = "default"
    local_method: str | None = None
    local_params: Mapping[str, object] | None = None
    record_objective: bool = True

    def __post_init__(self) -> None:
        if self.rounds < 1 or self.local_steps < 1 or self.eval_every < 1:
            raise InputError("rounds, local_steps and eval_every must be >= 1")
        if self.batch_size < 0:
            raise InputError(f"batch_size must be >= 0 (0: full batch), got {self.batch_size}")
        if self.local_epochs and self.batch_size < 1:
            raise InputError("local_epochs needs minibatches: give batch_size >= 1")
        if self.init not in INITS:
            raise InputError(f"unknown init '{self.init}' (choose from {INITS})")
        _ = self.optimiser  # validates the local optimiser's values

    @property
    def optimiser(self) -> LocalOptimiser:
        """The local optimiser (:mod:`fltheory.sim.local_opt`)."""
        return LocalOptimiser(self.local_epochs, self.local_momentum, self.local_weight_decay)

    def eval_rounds(self) -> np.ndarray:
        """0-based rounds after which the model is evaluated (always the last one)."""
        t = np.arange(self.rounds)
        return np.asarray(t[((t + 1) % self.eval_every == 0) | (t == self.rounds - 1)])
