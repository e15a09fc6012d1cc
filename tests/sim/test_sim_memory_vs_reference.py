"""The vectorised engine equals the reference loops for the part-2 algorithms (float64).

FedPBC (both variants), FedAR (with and without cut-off), MIFA (both variants), FedVARP,
FedAvg-IS and FedAvg (S) on data problems with minibatches and on quadratics with exact local
steps, on the same trace and minibatch draws; the loop twins are written per client from the
papers (each algorithm's module; run by :mod:`fltheory.sim.reference`).
"""

import numpy as np
import pytest
import torch

from fltheory.sim import algorithms as algs
from fltheory.sim.availability import BernoulliLinks
from fltheory.sim.compare import Setup
from fltheory.sim.data import synthetic_leaf
from fltheory.sim.models import SoftmaxRegression
from fltheory.sim.problems import DataProblem, QuadraticSim
from fltheory.sim.settings import AlgorithmSpec, Schedule, ServerOptions, SimSettings
from fltheory.testing.sim import assert_engine_matches_reference

N = 6
P_LINK = np.array([0.15, 0.3, 0.5, 0.6, 0.8, 0.95])

ALGORITHMS = [
    algs.FedPBC(),
    algs.FedPBC(compute="active"),
    algs.FedAR(),
    algs.FedAR(p=0.5, cutoff_scale=0.8),
    algs.FedAR(p=0.3, cutoff_form="linear", cutoff_b=2.5, cutoff_t0=0.5),
    algs.FedAR(p=0.3, cutoff_form="linear", cutoff_b=3.0, cutoff_t0=0.5, cutoff_ceil=True),
    algs.MIFA(),
    algs.MIFA(wait_all=True),
    algs.FedVARP(),
    algs.FedAvgIS(),
    algs.FedAvgIS(normalise=True),
    algs.FedAvgSampled(s=2, seed=3),
]


def test_memory_algorithms_on_a_data_problem_with_minibatches():
    data = synthetic_leaf(0.5, 0.5, N, seed=3, n_features=4, n_classes=3, max_samples=30)
    problem = DataProblem(
        SoftmaxRegression(4, 3), data, data.train_counts.astype(float), dtype=torch.float64
    )
    settings = SimSettings(rounds=9, local_steps=2, batch_size=3, eval_every=2)
    setup = Setup(problem, BernoulliLinks(P_LINK), settings, seed=4, reps=2)
    for alg in ALGORITHMS:
        run = assert_engine_matches_reference(
            setup, AlgorithmSpec(alg.name, alg, Schedule(0.3), ServerOptions(1.2))
        )
        if alg.name == "fedpbc":
            assert "accuracy_client_mean" in run.extra


@pytest.mark.parametrize("server", [ServerOptions(), ServerOptions(0.8, momentum=0.5)])
def test_memory_algorithms_on_quadratics(server):
    rng = np.random.default_rng(1)
    problem = QuadraticSim(rng.normal(size=(N, 3)), np.ones(N), dtype=torch.float64)
    settings = SimSettings(rounds=25, local_steps=3)
    setup = Setup(problem, BernoulliLinks(P_LINK), settings, seed=2, reps=3)
    for alg in ALGORITHMS:
        sched = Schedule(0.2, "inverse", 5.0)
        assert_engine_matches_reference(setup, AlgorithmSpec(alg.name, alg, sched, server))
