"""Theory modules vs the PyTorch simulator, small and fast (the full runs: validation/*_vs_*).

Each check compares an fltheory formula with the simulator running the real algorithm — two
independent implementations — within a Monte Carlo band of ±BAND standard errors across
independent seeds, and also requires the *alternative* answer (the one the theory says is wrong)
to lie outside the band, so a simulator that converged elsewhere would fail the test.
"""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from fltheory.limits.aggregation import bernoulli_limit
from fltheory.rng import generator
from fltheory.sim.algorithms import FedAvg
from fltheory.sim.availability import BernoulliLinks
from fltheory.sim.compare import Setup
from fltheory.sim.problems import QuadraticSim
from fltheory.sim.settings import AlgorithmSpec, Schedule, SimSettings
from validation.bounds_vs_simulator import LONG_RUN_RTOL, BoundsCase, long_run_check, theorem2_check
from validation.limits_vs_simulator import (
    BAND,
    MarkovCase,
    check_bernoulli,
    check_fedpbc,
    check_markov,
    seed_mean,
    time_averages,
)


@pytest.fixture(autouse=True)
def _one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def test_proposition1_fedavg_limit_matches_simulation() -> None:
    agreement = check_bernoulli(rounds=600, burn_in=50, reps=60)
    assert agreement.z <= BAND, agreement.to_dict()
    # FedAvg is biased (p₀ ≠ p₁): x* = mean(u) is far outside the band.
    assert agreement.z_alternative > 10 * BAND


@settings(max_examples=8)
@given(
    m=st.integers(2, 7),
    seed=st.integers(0, 10**6),
    lr=st.sampled_from([0.1, 0.3, 0.6]),
    steps=st.integers(1, 3),
)
def test_proposition1_on_random_instances(m: int, seed: int, lr: float, steps: int) -> None:
    """Random p ∈ [0.05, 0.95]^m, u ∈ [−1, 1]^m (d = 1): Prop. 1 within the band."""
    rng = generator(seed, "tests/theory-vs-sim/prop1")
    p, u = rng.uniform(0.05, 0.95, m), rng.uniform(-1.0, 1.0, (m, 1))
    limit = bernoulli_limit(p, u, lr=lr, local_steps=steps)
    theory = limit.limit
    # Burn-in until the mean recursion's transient (rate^t, |x₀ − lim| ≤ 1) is below 1e-9.
    burn_in = int(np.ceil(np.log(1e-9) / np.log(limit.rate)))
    rounds = burn_in + 300
    setup = Setup(QuadraticSim(u, np.full(m, 1.0 / m)), BernoulliLinks(p),
                  SimSettings(rounds, steps, eval_every=rounds), seed, 40)  # fmt: skip
    spec = AlgorithmSpec("fedavg", FedAvg(), Schedule(lr))
    averages, _ = time_averages(setup, spec, burn_in)
    mean, se = seed_mean(averages)
    assert np.all(np.abs(mean - theory) <= BAND * se + 1e-12), (mean, theory, se)


def test_markov_correlation_shift_is_reproduced() -> None:
    agreement = check_markov(MarkovCase(rounds=2000, reps=60))
    assert agreement.z <= BAND, agreement.to_dict()
    # The λ₂ = 0 point (w_B*) is rejected: the correlation-induced shift is real.
    assert agreement.z_alternative > BAND
    shift = np.linalg.norm(agreement.theory - agreement.alternative)
    assert shift > 0.1


def test_fedpbc_server_mean_and_client_mean() -> None:
    agreement, client_mean_distance = check_fedpbc(rounds=400, burn_in=50, reps=60)
    assert agreement.z <= BAND, agreement.to_dict()
    # FedPBC's client-model mean reaches x* surely (rate |1 − γ| = 0.729 per round).
    assert client_mean_distance < 1e-8


def test_theorem2_theorem1_and_bias_bounds_hold_on_simulation() -> None:
    result = theorem2_check(BoundsCase(T=300, reps=40))
    assert result["conditions"] == []  # every hypothesis of Theorem 2 holds
    assert result["measured_mean"] > 0.0
    assert result["thm2_ok"] and result["ratio_bound_over_measured"] > 1.0
    assert result["thm1_ok"] and result["thm1_min_margin"] >= 0.0
    assert result["eps_bias"] > 0.0  # q ∝ π is biased
    assert result["bias_ok"]


def test_long_run_point_is_w_B_star_not_w_star() -> None:
    result = long_run_check(BoundsCase(reps=40, long_rounds=1500))
    assert result["dist_point_wB"] <= LONG_RUN_RTOL * result["dist_wstar_wB"]
    assert result["dist_point_wstar"] >= 0.5 * result["dist_wstar_wB"]
