"""A small quadratic federation on a fixed trace, run by fltheory's engine and by Flower."""

import numpy as np

from fltheory.rng import generator
from fltheory.sim.availability import TraceReplay
from fltheory.sim.compare import Setup
from fltheory.sim.problems import QuadraticSim
from fltheory.sim.settings import AlgorithmSpec, Schedule, ServerOptions, SimSettings

N, D, T, STEPS = 5, 3, 20, 2
SCHEDULE = Schedule(0.3, "inverse", 5.0)
SERVER = ServerOptions(lr=0.8)


def problem() -> QuadraticSim:
    rng = generator(3, "tests/flower/problem")
    u = rng.normal(size=(N, D)) * 3.0
    hess = rng.uniform(0.5, 2.0, size=(N, D))
    alpha = rng.uniform(0.5, 1.5, size=N)
    return QuadraticSim(u, alpha / alpha.sum(), hess)


def trace() -> np.ndarray:
    rng = generator(3, "tests/flower/trace")
    out = rng.random((T, N)) < np.array([0.9, 0.6, 0.5, 0.35, 0.2])
    out[:2] = [[1, 0, 1, 0, 1], [0, 1, 0, 1, 0]]  # every client seen, and leaving, early
    return out


def engine_final(alg, estimator: str, availability: np.ndarray | None = None) -> np.ndarray:
    """fltheory's vectorised engine on the same problem and trace (default :func:`trace`): w_T."""
    process = TraceReplay(trace() if availability is None else availability)
    setup = Setup(problem(), process, SimSettings(T, STEPS), seed=0, reps=1)
    spec = AlgorithmSpec(alg.name, alg, SCHEDULE, SERVER, estimator)
    return setup.run(spec).final_w[0]
