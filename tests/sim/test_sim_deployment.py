"""The round-by-round server (fltheory.sim.deployment) ends on the engine's model.

The engine (fltheory.sim.compare.Setup, vectorised) and run_federation (one client at a time,
models passed as numpy arrays, FedPBC's clients catching up on the rounds they missed) are run
on the same fixed trace; the final server models agree to 1e-10 in float64 for every algorithm
that can run in a deployment, with oracle and with estimated availability.
"""

import numpy as np
import pytest

from fltheory.errors import InputError
from fltheory.rng import generator
from fltheory.sim.algorithms import (
    F3AST,
    MIFA,
    AdaFed,
    CAFed,
    FedAR,
    FedAvg,
    FedPBC,
    FedVARP,
    MoreAvailable,
    Unbiased,
)
from fltheory.sim.availability import TraceReplay
from fltheory.sim.compare import Setup
from fltheory.sim.deployment import AvailabilityDriver, LocalTrainer, RoundServer, run_federation
from fltheory.sim.problems import QuadraticSim
from fltheory.sim.settings import AlgorithmSpec, Schedule, ServerOptions, SimSettings

N, D, T = 5, 3, 25


def _problem() -> QuadraticSim:
    rng = generator(7, "tests/deployment/problem")
    u = rng.normal(size=(N, D)) * 3.0
    hess = rng.uniform(0.5, 2.0, size=(N, D))
    alpha = rng.uniform(0.5, 1.5, size=N)
    return QuadraticSim(u, alpha / alpha.sum(), hess)


def _trace() -> np.ndarray:
    rng = generator(7, "tests/deployment/trace")
    p = np.array([0.9, 0.6, 0.5, 0.35, 0.2])
    trace = rng.random((T, N)) < p
    trace[:2] = [[1, 0, 1, 0, 1], [0, 1, 0, 1, 0]]  # every client seen and leaving once
    trace[2:4] = [[1, 0, 1, 0, 1], [0, 1, 0, 1, 0]]
    return trace


ALGORITHMS = {
    "fedavg": lambda pb: FedAvg(),
    "fedavg_fixed": lambda pb: FedAvg(rule="fixed"),
    "unbiased": lambda pb: Unbiased(),
    "adafed": lambda pb: AdaFed(),
    "more_available": lambda pb: MoreAvailable(members=np.array([True, True, True, False, False])),
    "f3ast": lambda pb: F3AST(k=2, beta=0.1),
    "ca_fed": lambda pb: CAFed(kappa2=0.25),
    "ca_fed_oracle_fstar": lambda pb: CAFed(kappa2=0.25, beta=0.5, fstar=pb.local_minima),
    "fedpbc": lambda pb: FedPBC(),
    "fedpbc_active": lambda pb: FedPBC(compute="active"),
    "fedar": lambda pb: FedAR(p=0.1, cutoff_scale=1.0),
    "mifa": lambda pb: MIFA(),
    "fedvarp": lambda pb: FedVARP(),
}


def _pair(name: str, estimator: str, server: ServerOptions) -> tuple[np.ndarray, np.ndarray]:
    problem, trace = _problem(), _trace()
    process = TraceReplay(trace)
    alg = ALGORITHMS[name](problem)
    schedule = Schedule(0.3, "inverse", 5.0)
    setup = Setup(problem, process, SimSettings(rounds=T, local_steps=2), seed=0, reps=1)
    spec = AlgorithmSpec(name, alg, schedule, server, estimator)
    engine = setup.run(spec).final_w[0]
    oracle = estimator == "oracle"
    rs = RoundServer(
        alg,
        problem.alpha,
        setup.w0,
        server=server,
        pi=process.pi if oracle else None,
        lambda2=process.lambda2 if oracle else None,
    )
    deployed = run_federation(rs, LocalTrainer(problem, schedule, 2), AvailabilityDriver(trace), T)
    return engine, deployed


@pytest.mark.parametrize("estimator", ["oracle", "bayesian"])
@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_the_deployment_ends_on_the_engine_model(name, estimator):
    engine, deployed = _pair(name, estimator, ServerOptions(lr=0.8))
    assert np.abs(engine).max() > 0.1  # the model moved away from w0 = 0
    np.testing.assert_allclose(deployed, engine, rtol=0, atol=1e-10)


def test_server_momentum_and_projection_are_the_engine_ones():
    opts = ServerOptions(lr=0.7, momentum=0.5, weight_decay=0.01, diameter=3.0)
    engine, deployed = _pair("unbiased", "oracle", opts)
    np.testing.assert_allclose(deployed, engine, rtol=0, atol=1e-10)
    assert np.linalg.norm(engine) <= 1.5 + 1e-12


def test_the_server_learning_rate_changes_the_model():
    a, _ = _pair("fedavg", "oracle", ServerOptions(lr=1.0))
    b, _ = _pair("fedavg", "oracle", ServerOptions(lr=0.5))
    assert np.abs(a - b).max() > 1e-3


def test_a_weighted_client_that_sent_nothing_is_an_error():
    server = RoundServer(FedAvg(), [0.5, 0.5], [0.0])
    with pytest.raises(InputError, match=r"clients \[1\] were weighted but sent no model"):
        server.finish(np.array([True, True]), {0: np.array([1.0])})


def test_gradient_correcting_rules_are_refused():
    from fltheory.sim.algorithms.scaffold import Scaffold

    with pytest.raises(InputError, match="corrects the clients' local gradients"):
        RoundServer(Scaffold(), [0.5, 0.5], [0.0])


def test_an_oracle_pi_of_zero_is_refused_for_rules_that_divide_by_it():
    with pytest.raises(InputError, match="divides by the availability"):
        RoundServer(Unbiased(), [0.5, 0.5], [0.0], pi=[0.5, 0.0])


def test_driver_from_process_replays_the_engine_trace():
    from fltheory.sim.availability import TwoStateChains

    process = TwoStateChains(np.array([0.4, 0.7, 0.5]), np.array([0.3, 0.6, 0.0]))
    trace = process.sample(11, 3, 40)
    driver = AvailabilityDriver.from_process(process, 40, seed=11, rep=2)
    assert (driver.trace == trace[2]).all()
    with pytest.raises(InputError, match=r"covers rounds 0\.\.39"):
        driver.active(40)
