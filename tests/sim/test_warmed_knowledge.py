"""Estimators warmed by t′ observations of each chain (spec C.12, CA-Fed ToN Fig. 4)."""

import numpy as np
import pytest

from fltheory.errors import InputError
from fltheory.markov.estimators import transition_counts
from fltheory.sim.availability import TwoStateChains
from fltheory.sim.compare import Setup
from fltheory.sim.knowledge import warmed_knowledge
from fltheory.sim.problems import QuadraticSim
from fltheory.sim.settings import SimSettings


def test_warmed_estimates_pool_warmup_and_training_counts():
    """At round t the estimate is the Beta(1, 1) posterior mean over the warm-up's and the
    first t + 1 training rounds' counts, the junction step excluded (counted by hand here)."""
    rng = np.random.default_rng(0)
    warm = rng.random((2, 40, 3)) < 0.6
    trace = rng.random((2, 7, 3)) < 0.3
    know = warmed_knowledge(trace, warm)
    for r in range(2):
        for t in (0, 3, 6):
            seen = trace[r, : t + 1]
            ones = warm[r].sum(0) + seen.sum(0)
            want_pi = (ones + 1) / (40 + t + 1 + 2)
            c = transition_counts(warm[r]) + transition_counts(seen)
            p01 = (c[:, 0, 1] + 1) / (c[:, 0].sum(1) + 2)
            p10 = (c[:, 1, 0] + 1) / (c[:, 1].sum(1) + 2)
            np.testing.assert_allclose(know.pi(t, 2)[r], want_pi)
            np.testing.assert_allclose(know.lambda2(t, 2)[r], 1 - p01 - p10)


def test_long_warmup_recovers_the_chain():
    pi, lam = np.array([0.9, 0.1, 0.5]), np.array([0.9, 0.0, -0.5])
    problem = QuadraticSim(np.zeros((3, 1)), np.ones(3))
    setup = Setup(problem, TwoStateChains(pi, lam), SimSettings(rounds=2), 0, 2, warmup=20000)
    know = warmed_knowledge(setup.trace, setup.warmup_trace())
    assert np.abs(know.pi(0, 2) - pi).max() < 0.03
    assert np.abs(know.lambda2(0, 2) - lam).max() < 0.05
    assert not np.array_equal(setup.warmup_trace()[:, :2], setup.trace)  # its own stream
    with pytest.raises(InputError, match="warmup >= 1"):
        Setup(problem, TwoStateChains(pi, lam), SimSettings(rounds=2), 0, 2).warmup_trace()
