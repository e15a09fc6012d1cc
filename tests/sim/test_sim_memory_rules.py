"""Pure rules of the part-2 algorithms against hand-made traces, exact values and identities."""

from fractions import Fraction as Fr

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from fltheory.errors import InputError
from fltheory.sim import algorithms as algs
from fltheory.sim.algorithms.fedar import (
    contributing,
    cutoff,
    cutoff_at,
    fedar_coefficients,
    fedar_psi,
    inactive_counter,
)
from fltheory.sim.algorithms.fedvarp import fedvarp_direction
from fltheory.sim.algorithms.mifa import mifa_coefficients
from fltheory.sim.algorithms.sampled import sample_at_most, sampling_keys
from fltheory.sim.availability import BernoulliLinks
from fltheory.sim.client_metrics import accuracy_distribution, summarise_distribution
from fltheory.sim.compare import Setup
from fltheory.sim.data import synthetic_leaf
from fltheory.sim.models import SoftmaxRegression
from fltheory.sim.problems import DataProblem
from fltheory.sim.settings import AlgorithmSpec, Schedule, SimSettings

# Hand-made trace of 3 clients over 4 rounds and the counters eq. (5) gives, worked by hand.
TRACE = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 0], [1, 0, 0]], dtype=bool)
TAU = [[0, 1, 1], [1, 0, 2], [2, 1, 3], [0, 2, 4]]
SEEN = [[1, 0, 0], [1, 1, 0], [1, 1, 0], [1, 1, 0]]


def test_fedar_counters_weights_and_count_on_a_hand_trace():
    tau = np.zeros((1, 3), dtype=np.int64)
    seen = np.zeros((1, 3), dtype=bool)
    for t, mask in enumerate(TRACE):
        tau = inactive_counter(tau, mask[None])
        seen = seen | mask[None]
        assert tau.tolist() == [TAU[t]]
        assert seen.astype(int).tolist() == [SEEN[t]]
    # Round 4, p = 1/2: ψ = (1, √3, min(√5, 2) = 2); client 2 was never seen, so N_t = 2.
    psi = fedar_psi(tau, 0.5, np.inf)
    np.testing.assert_allclose(psi, [[1.0, 3**0.5, 2.0]], rtol=1e-15)
    assert contributing(psi, seen).tolist() == [2]
    np.testing.assert_allclose(fedar_coefficients(psi, seen), [[0.5, 3**0.5 / 2, 0]], rtol=1e-15)
    # Cut-off g = 1.5 drops client 1 (τ = 2 > g): N_t = 1.
    psi_cut = fedar_psi(tau, 0.5, 1.5)
    np.testing.assert_allclose(psi_cut, [[1.0, 0.0, 0.0]])
    assert contributing(psi_cut, seen).tolist() == [1]
    # p = 1: min(τ + 1, 2) caps at 2; p = 0.1 (the paper's default): 5^0.1 exactly.
    np.testing.assert_array_equal(fedar_psi(tau, 1.0, np.inf), [[1.0, 2.0, 2.0]])
    assert fedar_psi(np.array([4]), 0.1, np.inf)[0] == pytest.approx(5**0.1, rel=1e-15)
    assert cutoff(9, 2.0) == pytest.approx(6.0) and cutoff(1, 2.0, t0=4.0) == pytest.approx(4.0)
    assert cutoff(5, None) == np.inf


def test_fedar_linear_cutoff_is_t0_plus_t_over_b():
    # Theorem 1's convex form: g(t) = t0 + t/b, with t/b exact in binary for b = 4.
    alg = algs.FedAR(cutoff_form="linear", cutoff_b=4.0, cutoff_t0=2.0)
    assert [cutoff_at(alg, t) for t in (1, 4, 10)] == [2.25, 3.0, 4.5]
    ceil = algs.FedAR(cutoff_form="linear", cutoff_b=4.0, cutoff_t0=2.0, cutoff_ceil=True)
    assert [cutoff_at(ceil, t) for t in (1, 4, 10)] == [3.0, 3.0, 5.0]
    assert cutoff_at(algs.FedAR(cutoff_form="linear"), 7) == np.inf  # b None: no cut-off


@pytest.mark.parametrize(
    "kwargs",
    [
        {"cutoff_form": "linear", "cutoff_b": 2.0},  # Theorem 1 needs b > 2
        {"cutoff_form": "linear", "cutoff_scale": 1.0},  # c belongs to the sqrt form
        {"cutoff_form": "sqrt", "cutoff_b": 3.0},  # b belongs to the linear form
        {"cutoff_form": "cubic"},
    ],
)
def test_fedar_refuses_inconsistent_cutoffs(kwargs):
    with pytest.raises(InputError):
        algs.FedAR(**kwargs)


def test_fedar_nobody_seen_gives_no_step():
    psi = fedar_psi(np.array([[3, 1]]), 0.1, np.inf)
    assert contributing(psi, np.zeros((1, 2), bool)).tolist() == [0]
    assert not fedar_coefficients(psi, np.zeros((1, 2), bool)).any()


def test_mifa_coefficients():
    seen = np.array([[True, False, True, False], [True, True, True, True]])
    np.testing.assert_array_equal(mifa_coefficients(seen, False), [[0.25, 0, 0.25, 0], [0.25] * 4])
    np.testing.assert_array_equal(mifa_coefficients(seen, True), [[0, 0, 0, 0], [0.25] * 4])


def test_fedvarp_direction_by_hand():
    # y = (1, 2, 4), fresh Δ_0 = 10, Δ_2 = 20; Δ = ((10 − 1) + (20 − 4))/2 + 7/3, exactly.
    table = torch.tensor([[[1.0], [2.0], [4.0]]], dtype=torch.float64)
    mask = np.array([[True, False, True]])
    fresh_mean = torch.tensor([[15.0]], dtype=torch.float64)
    expected = Fr(9 + 16, 2) + Fr(7, 3)
    got = fedvarp_direction(fresh_mean, table, mask)
    assert got.item() == pytest.approx(float(expected), rel=1e-15)


@given(
    st.integers(1, 4),
    st.integers(1, 9),
    st.integers(1, 6),
    st.integers(0, 50),
    st.integers(0, 2**31),
)
def test_sample_at_most_picks_min_s_active_clients(reps, n, s, t, seed):
    mask = np.random.default_rng(seed).random((reps, n)) < 0.6
    chosen = sample_at_most(mask, sampling_keys(seed, reps, t, n), s)
    assert not (chosen & ~mask).any()
    np.testing.assert_array_equal(chosen.sum(1), np.minimum(mask.sum(1), s))


def test_sampling_is_uniform_among_the_active():
    # 6 active of 8, S = 2: each active client is chosen with probability 1/3. Over 3000
    # rounds the count is Binomial(3000, 1/3): sd ≈ 25.8, band 5 sd.
    mask = np.array([[1, 1, 0, 1, 1, 0, 1, 1]], dtype=bool)
    counts = sum(sample_at_most(mask, sampling_keys(7, 1, t, 8), 2)[0] for t in range(3000))
    assert (counts[~mask[0]] == 0).all()
    assert np.abs(counts[mask[0]] - 1000).max() < 5 * 25.8


def test_accuracy_distribution_by_hand():
    acc = np.array([[0.1 * k for k in range(1, 11)] + [np.nan]])
    stats = accuracy_distribution(acc)
    vals = [Fr(k, 10) for k in range(1, 11)]
    mean = sum(vals) / 10
    var = sum((v - mean) ** 2 for v in vals) / 10
    assert stats["mean"][0] == pytest.approx(float(mean), rel=1e-14)
    assert stats["variance"][0] == pytest.approx(float(var), rel=1e-14)
    assert stats["worst"][0] == pytest.approx(0.1) and stats["best"][0] == pytest.approx(1.0)
    # 20 clients: the worst / best 2 are averaged.
    two = accuracy_distribution(np.arange(20.0)[None], 0.1)
    assert two["worst"][0] == 0.5 and two["best"][0] == 18.5
    summary = summarise_distribution(np.vstack([np.arange(20.0), np.arange(20.0) + 2]))
    assert summary["mean"] == pytest.approx(10.5) and summary["mean_std_over_seeds"] == 1.0


def test_stale_update_algorithms_reduce_to_fedavg_under_full_participation():
    """Everyone always active: MIFA's table mean, FedVARP's corrected step and FedAR's ψ = 1
    all equal FedAvg's mean of fresh updates, and FedPBC's clients all get the broadcast."""
    data = synthetic_leaf(0.5, 0.5, 5, seed=1, n_features=3, n_classes=3, max_samples=30)
    problem = DataProblem(SoftmaxRegression(3, 3), data, np.ones(5), dtype=torch.float64)
    settings = SimSettings(rounds=8, local_steps=2, batch_size=4)
    setup = Setup(problem, BernoulliLinks(np.ones(5)), settings, seed=0, reps=2)
    base = setup.run(AlgorithmSpec("fedavg", algs.FedAvg(), Schedule(0.5)))
    others = [algs.MIFA(), algs.MIFA(wait_all=True), algs.FedVARP(), algs.FedAR(), algs.FedPBC()]
    others += [algs.FedAvgSampled(s=5)]
    for alg in others:
        run = setup.run(AlgorithmSpec(alg.name, alg, Schedule(0.5)))
        np.testing.assert_allclose(run.final_w, base.final_w, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(run.objective, base.objective, rtol=1e-12)


@given(st.integers(1, 12), st.integers(1, 6), st.integers(0, 2**31), st.floats(0.0, 1.0))
def test_fedar_counter_is_rounds_since_last_participation(rounds, n, seed, p):
    """Eq. (5) iterated equals a direct count: τ = rounds since the last active round (or the
    number of rounds so far for a client never seen); the weights then follow eq. (6)–(7)."""
    trace = np.random.default_rng(seed).random((rounds, n)) < 0.4
    tau = np.zeros((1, n), dtype=np.int64)
    for mask in trace:
        tau = inactive_counter(tau, mask[None])
    for k in range(n):
        active_rounds = np.flatnonzero(trace[:, k])
        direct = rounds if active_rounds.size == 0 else rounds - 1 - active_rounds[-1]
        assert tau[0, k] == direct
    seen = trace.any(axis=0)[None]
    psi = fedar_psi(tau, p, np.inf)
    coef = fedar_coefficients(psi, seen)
    if seen.any():
        expected = sum(min((tau[0, k] + 1.0) ** p, 2.0) for k in range(n) if seen[0, k])
        assert coef.sum() == pytest.approx(expected / seen.sum(), rel=1e-12)
    else:
        assert not coef.any()
