"""The fixed tables of a simulation config: the top level, ``[run]``, and the options every
``[[algorithms]]`` entry shares (their defaults come from ``[run]``).

The ``[problem]``, ``[availability]`` and algorithm-specific keys are the parameters of the
plug-in they name (:mod:`fltheory.sim.registries`); :mod:`fltheory.sim.config.loader` validates
them against that plug-in's schema.
"""

from typing import Annotated, Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from fltheory.config import Strict
from fltheory.defaults import LOCAL_LR, LOCAL_STEPS, SERVER_LR
from fltheory.sim.algorithms.base import Algorithm
from fltheory.sim.settings import AlgorithmSpec, Schedule, ServerOptions, SimSettings


class AlgorithmDefaults(Strict):
    """Learning rates and server options of eqs. (2)–(3), and the server's availability knowledge.

    >>> AlgorithmDefaults(lr=0.1).server_lr
    1.0
    """

    lr: float = Field(LOCAL_LR, gt=0.0, description="local learning rate η of eq. (2)")
    server_lr: float = Field(SERVER_LR, gt=0.0, description="server learning rate η̄ of eq. (3)")
    lr_schedule: Literal["constant", "inverse", "inverse_sqrt"] = Field(
        "constant", description="η_t: η, η·t₀/(t₀ + t) or η·√(t₀/(t₀ + t))"
    )
    lr_t0: float = Field(1.0, gt=0.0, description="t₀ of the decaying schedules")
    momentum: float = Field(0.0, ge=0.0, lt=1.0, description="server momentum μ")
    weight_decay: float = Field(0.0, ge=0.0, description="server weight decay λ_wd")
    diameter: float | None = Field(
        None, ge=0.0, description="diameter of the ball W of eq. (3) (absent or 0: no projection)"
    )
    estimator: Literal["oracle", "bayesian", "warmed"] = Field(
        "oracle",
        description="π, λ₂ known exactly, estimated from the trace so far, or estimated with "
        "priors warmed by [run] warmup observations of each chain (CA-Fed Fig. 4)",
    )


class AlgorithmOptions(AlgorithmDefaults):
    """The options of one ``[[algorithms]]`` entry: the defaults of ``[run]``, overridden, and
    the label naming the algorithm in the outputs.

    >>> from fltheory.sim.algorithms import Unbiased
    >>> AlgorithmOptions(lr=0.5).spec("unbiased", Unbiased()).schedule
    Schedule(lr=0.5, kind='constant', t0=1.0)
    """

    label: str | None = Field(None, description="name in the outputs (default: the algorithm's)")

    def spec(self, name: str, algorithm: Algorithm) -> AlgorithmSpec:
        """The :class:`~fltheory.sim.settings.AlgorithmSpec` of ``algorithm`` with these options."""
        return AlgorithmSpec(
            label=name if self.label is None else self.label,
            algorithm=algorithm,
            schedule=Schedule(self.lr, self.lr_schedule, self.lr_t0),
            server=ServerOptions(
                lr=self.server_lr,
                momentum=self.momentum,
                weight_decay=self.weight_decay,
                diameter=self.diameter or None,
            ),
            estimator=self.estimator,
        )


Positive = Annotated[float, Field(gt=0.0)]


class RunTable(AlgorithmDefaults):
    """``[run]``: rounds, local work, evaluation, the Beta prior of the estimates, and the
    defaults of every algorithm's options.

    >>> RunTable(rounds=10, batch_size=32).settings().batch_size
    32
    >>> RunTable(rounds=10, batch_size=32, local_epochs=2, local_momentum=0.9).settings().optimiser
    LocalOptimiser(epochs=2, momentum=0.9, weight_decay=0.0)
    """

    rounds: int = Field(ge=1, description="rounds T")
    local_steps: int = Field(LOCAL_STEPS, ge=1, description="local SGD steps E per round (eq. 2)")
    batch_size: int = Field(0, ge=0, description="minibatch size B (0: full local batches)")
    local_epochs: int = Field(
        0,
        ge=0,
        description="local epochs per round (shuffled, ceil(n_k/B) steps each, last batch "
        "partial); > 0 replaces local_steps",
    )
    local_momentum: float = Field(
        0.0,
        ge=0.0,
        lt=1.0,
        description="local SGD momentum (per-client buffers kept across rounds)",
    )
    local_weight_decay: float = Field(
        0.0, ge=0.0, description="local SGD weight decay (torch SGD: added to the gradient)"
    )
    init: Literal["default", "torch_default"] = Field(
        "default",
        description="w0: the model's own (zeros for linear models) or nn.Linear's U(±1/√fan_in)",
    )
    eval_every: int = Field(1, ge=1, description="evaluate every this many rounds (and the last)")
    record_objective: bool = Field(
        True,
        description="record the training objective F(w) at each evaluation (false: skip its "
        "pass over every training sample; the outputs then have no objective)",
    )
    prior: list[Positive] = Field(
        [1.0, 1.0],
        min_length=2,
        max_length=2,
        description="Beta prior [a, b] (a, b > 0) of the estimates",
    )
    warmup: int = Field(
        0,
        ge=0,
        le=10**6,
        description="t′: observations of each chain before training that "
        "the 'warmed' estimator's priors hold",
    )

    def settings(self) -> SimSettings:
        """The engine's :class:`~fltheory.sim.settings.SimSettings`."""
        return SimSettings(
            self.rounds,
            self.local_steps,
            self.batch_size,
            self.eval_every,
            self.local_epochs,
            self.local_momentum,
            self.local_weight_decay,
            self.init,
            record_objective=self.record_objective,
        )

    def defaults(self) -> dict[str, Any]:
        """The algorithm options given here (the defaults of every ``[[algorithms]]`` entry)."""
        return {key: getattr(self, key) for key in AlgorithmDefaults.model_fields}


class SimFile(Strict):
    """The top level of a simulation config."""

    name: str = Field("simulation", description="name of the comparison in the outputs")
    seed: int = Field(0, ge=0, description="master seed of every random stream")
    seeds: int = Field(1, ge=1, description="repetitions R (independent traces and draws)")
    device: Literal["auto", "cpu", "cuda"] = Field(
        "auto", description="torch device (auto: cuda when available)"
    )
    dtype: Literal["float32", "float64"] = Field("float32", description="torch precision")
    threads: int = Field(1, ge=0, description="CPU threads for torch (0: torch's default)")
    memory_limit: int | str | None = Field(
        None,
        description='bytes the run may use, e.g. "4GiB" (default: what is available): a run '
        "whose estimate exceeds it is refused up front; chunks of (seed, client) local steps "
        "shrink to a 16th of it (below their fixed 256 MiB)",
    )
    run: RunTable = Field(description="the [run] table")
    problem: dict[str, Any] = Field(description="[problem]: kind = a problem kind, its fields")
    availability: dict[str, Any] = Field(
        description="[availability]: kind = an availability kind, its fields"
    )
    algorithms: list[dict[str, Any]] = Field(
        min_length=1, description="[[algorithms]]: name = an algorithm, its fields and options"
    )
    local: dict[str, Any] | None = Field(
        None,
        description="[local]: method = a local method, its fields (absent: 'sgd', or "
        "'torch_sgd' with a local_* key of [run] or a gradient-correcting algorithm)",
    )

    @model_serializer(mode="wrap")
    def _absent_defaults(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Dumps without ``local`` when the table is absent and without ``[run]
        record_objective`` at its default (true), so that the resolved config (and its hash) of
        every config without them is what it was before they existed."""
        out: dict[str, Any] = handler(self)
        if out.get("local") is None:
            out.pop("local", None)
        if out.get("run", {}).get("record_objective") is True:
            out["run"].pop("record_objective")
        return out
