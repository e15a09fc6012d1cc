"""FedPBC vs FedAvg on the FedPBC paper's counterexample (Section VI, Fig. 2), reduced in size.

F_i(x) = ½‖x − u_i‖², x* = mean(u_i), s exact local steps with step η, so one local phase is
x_i ← u_i + c(x_i − u_i) with c = (1 − η)^s. Independent predictions:
* FedPBC: every client computes and the server averages the active ones, which preserves
  Σ_i x_i; so x̄ = mean_i x_i follows x̄ ← x* + c_t(x̄ − x*) exactly: ‖x̄_t − x*‖ = Π c_s‖x*‖;
  the server model carries an O(η) bias, so the run uses a decaying step (η_t ∝ 1/t).
* FedAvg: E[x_t] tends to Proposition 1's point (:func:`fltheory.limits.aggregation.
  bernoulli_limit`), at distance ‖lim − x*‖ > 0 when p₀ ≠ p₁, and to x* when p₀ = p₁.
"""

import numpy as np
import torch

from fltheory.limits.aggregation import bernoulli_limit
from fltheory.sim import algorithms as algs
from fltheory.sim.availability import BernoulliLinks
from fltheory.sim.compare import Setup
from fltheory.sim.problems import QuadraticSim
from fltheory.sim.settings import AlgorithmSpec, Schedule, SimSettings

M, D, LR, STEPS, ROUNDS, REPS = 10, 3, 0.05, 5, 200, 200
#: η_t = η·t0/(t0 + t): with a constant step FedPBC's server model keeps an O(η) bias.
SCHEDULE = Schedule(LR, "inverse", 10.0)


def _setup(p0: float, p1: float):
    u = (np.arange(1, M + 1) / M)[:, None] * np.array([1.0, -2.0, 0.5])
    problem = QuadraticSim(u, np.ones(M), dtype=torch.float64)
    p = np.repeat([p0, p1], M // 2)
    settings = SimSettings(rounds=ROUNDS, local_steps=STEPS, eval_every=10)
    return Setup(problem, BernoulliLinks(p), settings, seed=0, reps=REPS), u, p


def _run(setup, alg):
    return setup.run(AlgorithmSpec(alg.name, alg, SCHEDULE))


def _mean_band(final_w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Monte Carlo mean of x_T over repetitions and a 5-standard-error band per coordinate."""
    return final_w.mean(0), 5 * final_w.std(0, ddof=1) / np.sqrt(final_w.shape[0]) + 1e-12


def test_fedpbc_is_unbiased_where_fedavg_levels_off_at_proposition_1():
    setup, u, p = _setup(0.2, 0.9)
    x_star = u.mean(0)
    fedavg, pbc = _run(setup, algs.FedAvg()), _run(setup, algs.FedPBC())
    # FedPBC's client mean: ‖x̄_t − x*‖ = Π_{s≤t} c_s ‖x*‖ exactly, c_s = (1 − η_s)^s.
    c = np.array([(1 - SCHEDULE.at(t)) ** STEPS for t in range(ROUNDS)])
    expected = np.cumprod(c)[setup.settings.eval_rounds()] * np.linalg.norm(x_star)
    got = pbc.extra["distance_client_mean"]
    np.testing.assert_allclose(got, np.broadcast_to(expected, got.shape), rtol=1e-9, atol=1e-13)
    # FedAvg: E[x_T] = Proposition 1's limit (the weights do not depend on the common local
    # gain, and the transient Π(1 − γ_t) ≈ (t0/(t0 + T))^(ηs) is below 1e-3 here).
    limit = bernoulli_limit(p, u, lr=LR, local_steps=STEPS)
    mean, band = _mean_band(fedavg.final_w)
    assert (np.abs(mean - limit.limit) < band + 1e-3).all()
    bias = np.linalg.norm(limit.limit - x_star)
    assert bias > 0.3
    # FedAvg's distance levels off at the bias; FedPBC's server model keeps approaching x*.
    late = fedavg.distance[:, -5:].mean(0)
    np.testing.assert_allclose(late, bias, rtol=0.05)
    checkpoints = pbc.distance.mean(0)[4::5]
    assert (np.diff(checkpoints) < 0).all()
    assert checkpoints[-1] < 0.1 * bias
    assert np.linalg.norm(pbc.final_w.mean(0) - x_star) < 0.1 * bias
    # Remark 1: when only the active clients compute, the bias stays.
    lazy = _run(setup, algs.FedPBC(compute="active"))
    assert np.linalg.norm(lazy.final_w.mean(0) - x_star) > 0.5 * bias


def test_equal_link_probabilities_give_the_same_point():
    setup, u, p = _setup(0.3, 0.3)
    x_star = u.mean(0)
    np.testing.assert_allclose(bernoulli_limit(p, u, lr=LR, local_steps=STEPS).limit, x_star)
    for alg in (algs.FedAvg(), algs.FedPBC()):
        mean, band = _mean_band(_run(setup, alg).final_w)
        assert (np.abs(mean - x_star) < band + 1e-3).all(), alg.name
