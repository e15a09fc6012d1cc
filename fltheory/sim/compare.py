"""A comparison: one availability trace and one batch plan, every algorithm run on them."""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from fltheory.errors import InputError
from fltheory.rng import generator
from fltheory.sim.availability import AvailabilityProcess
from fltheory.sim.batches import BatchPlan
from fltheory.sim.contract import DataBacked, OwnStart, SimProblem
from fltheory.sim.engine import Checkpoint, EngineState, Observer, run_vectorised
from fltheory.sim.knowledge import (
    Knowledge,
    bayesian_knowledge,
    oracle_knowledge,
    warmed_knowledge,
)
from fltheory.sim.local_opt import EpochPlan, torch_default_init
from fltheory.sim.models import RandomStart
from fltheory.sim.reference import run_reference
from fltheory.sim.results import RunResult
from fltheory.sim.settings import AlgorithmSpec, SimSettings


@dataclass(eq=False)
class Setup:
    """Everything one comparison shares: the trace is drawn once, from ``seed``."""

    problem: SimProblem
    process: AvailabilityProcess
    settings: SimSettings
    seed: int
    reps: int
    prior: tuple[float, float] = (1.0, 1.0)
    #: t′: warm-up observations of each chain for the "warmed" estimator (Fig. 4).
    warmup: int = 0

    def __post_init__(self) -> None:
        if self.process.n_clients != self.problem.n_clients:
            raise InputError(
                f"availability has {self.process.n_clients} clients, "
                f"the problem {self.problem.n_clients}"
            )
        self.trace = self.process.sample(self.seed, self.reps, self.settings.rounds)
        counts = self.problem.train_counts
        s = self.settings
        self.plan: BatchPlan | EpochPlan | None = None
        if s.local_epochs:
            if counts is None:
                raise InputError("local_epochs needs a data problem (local samples to shuffle)")
            self.plan = EpochPlan(self.seed, counts, s.local_epochs, s.batch_size, self.reps)
        elif counts is not None and s.batch_size > 0:
            self.plan = BatchPlan(self.seed, counts, s.local_steps, s.batch_size, self.reps)
        model = self.problem.model if isinstance(self.problem, DataBacked) else None
        if s.init == "torch_default" and not isinstance(model, RandomStart):
            self.w0 = torch_default_init(model, self.problem.n_params, self.seed)
        elif isinstance(self.problem, OwnStart):  # CNNs' own start is already torch's default
            self.w0 = self.problem.initial_params()
        else:
            self.w0 = np.zeros(self.problem.n_params)
        self._knowledge: dict[str, Knowledge] = {}

    def knowledge(self, spec: AlgorithmSpec) -> Knowledge:
        if spec.estimator not in self._knowledge:
            if spec.estimator == "oracle":
                know = oracle_knowledge(self.process.pi, self.process.lambda2)
            elif spec.estimator == "warmed":
                know = warmed_knowledge(self.trace, self.warmup_trace(), self.prior)
            else:
                know = bayesian_knowledge(self.trace, self.prior)
            self._knowledge[spec.estimator] = know
        know = self._knowledge[spec.estimator]
        if spec.algorithm.needs_pi and not (know.pi_ > 0).all():
            k = int(np.argmin(know.pi_.reshape(-1, know.pi_.shape[-1]).min(0)))
            raise InputError(
                f"{spec.label} divides by the availability, but client {k} has pi = 0 "
                "(never active): use estimator = 'bayesian' or drop the client"
            )
        if spec.algorithm.needs_lambda2 and know.lambda2_ is None:
            raise InputError(
                f"{spec.label} needs each client's lambda2, which this availability process "
                "does not define: use estimator = 'bayesian'"
            )
        return know

    def warmup_trace(self) -> np.ndarray:
        """(R, t′, N) observations of each repetition's chains before training, from the
        stream seeded by ``generator(seed, "sim/knowledge/warmup")``."""
        if self.warmup < 1:
            raise InputError("estimator 'warmed' needs [run] warmup >= 1 observations")
        seed = int(generator(self.seed, "sim/knowledge/warmup").integers(2**62))
        return np.asarray(self.process.sample(seed, self.reps, self.warmup), dtype=bool)

    def run(
        self,
        spec: AlgorithmSpec,
        *,
        implementation: str = "vectorised",
        progress: Callable[[int], None] | None = None,
        observe: Observer | None = None,
        start: EngineState | None = None,
        checkpoint: Checkpoint | None = None,
    ) -> RunResult:
        """Run one algorithm on the shared trace with the vectorised engine or the loop
        (``progress``/``observe``/``start``/``checkpoint``: see the vectorised engine)."""
        args = (self.problem, self.trace, spec, self.settings, self.knowledge(spec), self.plan)
        if implementation == "vectorised":
            return run_vectorised(*args, self.w0, progress, observe, start, checkpoint)
        if implementation == "reference":
            return run_reference(*args, self.w0)
        raise InputError(f"unknown implementation '{implementation}'")
