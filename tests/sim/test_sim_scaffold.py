"""SCAFFOLD (Karimireddy et al. 2020, option II, S = A_t) against closed forms: with one local
step and every client active it is gradient descent on the uniform mean objective; the first
round's control variates are the mean local gradients along the exact path; c stays the mean of
the c_i. (Its engine-vs-reference agreement is in test_sim_local_opt and the registry walk.)"""

import numpy as np
import torch

from fltheory.sim.algorithms.scaffold import Scaffold
from fltheory.sim.availability import BernoulliLinks
from fltheory.sim.compare import Setup
from fltheory.sim.problems import QuadraticSim
from fltheory.sim.settings import AlgorithmSpec, Schedule, ServerOptions, SimSettings

N = 5
RNG = np.random.default_rng(7)
U = RNG.normal(size=(N, 3))
H = RNG.uniform(0.5, 2.0, size=(N, 3))


def _run(settings, p, server_lr, lr, seed=0, reps=2):
    problem = QuadraticSim(U, np.ones(N), H, dtype=torch.float64)
    setup = Setup(problem, BernoulliLinks(np.full(N, p)), settings, seed=seed, reps=reps)
    states = []
    spec = AlgorithmSpec("scaffold", Scaffold(), Schedule(lr), ServerOptions(server_lr))
    run = setup.run(
        spec, checkpoint=lambda st: states.append({k: v.clone() for k, v in st.memory.items()})
    )
    return setup, run, states


def test_one_step_full_participation_is_gradient_descent_on_the_mean():
    eta, server = 0.3, 1.5
    _, run, _ = _run(SimSettings(rounds=20, local_steps=1), p=1.0, server_lr=server, lr=eta)
    w = np.zeros(3)
    for _ in range(20):
        w = w - eta * server * (H * (w - U)).mean(0)
    np.testing.assert_allclose(run.final_w, np.stack([w, w]), rtol=1e-12, atol=1e-12)


def test_first_round_controls_are_the_mean_gradient_along_the_local_path():
    eta, k_steps = 0.2, 4
    setup, _, states = _run(SimSettings(rounds=1, local_steps=k_steps), 0.6, 1.0, eta, seed=3)
    # y_j − u = (1 − ηh)^j (x − u) with x = 0: mean_j h(1 − ηh)^j (x − u) over j < K
    factor = (1 - (1 - eta * H) ** k_steps) / (k_steps * eta)
    expected = factor * (0 - U)
    active = setup.trace[:, 0]
    ci = states[0]["ci"].numpy()
    assert active.any() and not active.all()
    np.testing.assert_allclose(ci[active], np.broadcast_to(expected, ci.shape)[active], atol=1e-12)
    assert not ci[~active].any()


def test_the_server_control_is_the_mean_of_the_client_controls():
    _, _, states = _run(SimSettings(rounds=15, local_steps=3), 0.5, 1.0, 0.2, seed=1, reps=3)
    for st in states:
        np.testing.assert_allclose(st["c"].numpy(), st["ci"].mean(1).numpy(), atol=1e-12)
    assert max(float(st["c"].abs().max()) for st in states) > 0.1  # not trivially zero
