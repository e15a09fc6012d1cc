"""The authors' local mechanics (fltheory.sim.local_opt): shuffled local epochs, local SGD
momentum and weight decay with persistent per-client buffers, torch's default initialisation.

Expected values come from independent computations: the per-client reference loop (autograd,
one client at a time), ``torch.optim.SGD`` itself, numpy recursions, and counting."""

import math

import numpy as np
import pytest
import torch

from fltheory.errors import InputError
from fltheory.sim import algorithms as algs
from fltheory.sim.algorithms.scaffold import Scaffold
from fltheory.sim.availability import BernoulliLinks
from fltheory.sim.compare import Setup
from fltheory.sim.config import build
from fltheory.sim.config.run import run_config
from fltheory.sim.data import synthetic_leaf
from fltheory.sim.local_opt import EpochPlan, LocalOptimiser, LocalRunner, torch_default_init
from fltheory.sim.models import LogisticRegression, SoftmaxRegression
from fltheory.sim.problems import DataProblem, QuadraticSim
from fltheory.sim.settings import AlgorithmSpec, Schedule, ServerOptions, SimSettings
from fltheory.testing.sim import assert_engine_matches_reference

N = 6
P_LINK = np.array([0.15, 0.3, 0.5, 0.6, 0.8, 0.95])


def _data_problem(max_samples=16, seed=3):
    data = synthetic_leaf(
        0.5, 0.5, N, seed=seed, n_features=4, n_classes=3, max_samples=max_samples
    )
    return DataProblem(
        SoftmaxRegression(4, 3, ridge=0.0),
        data,
        data.train_counts.astype(float),
        dtype=torch.float64,
    )


# --- epochs -------------------------------------------------------------------------------------


def test_each_epoch_visits_every_sample_once_in_ceil_n_over_b_batches():
    counts = np.array([1, 5, 7, 8, 13])
    plan = EpochPlan(seed=2, counts=counts, epochs=3, batch_size=4, reps=2)
    assert plan.steps.tolist() == [3 * math.ceil(n / 4) for n in counts]
    for r in range(2):
        for k, n in enumerate(counts):
            batches = plan.client_batches(r, 5, k)
            per = math.ceil(n / 4)
            assert len(batches) == 3 * per
            for e in range(3):
                epoch = batches[e * per : (e + 1) * per]
                assert sorted(np.concatenate(epoch).tolist()) == list(range(n))
                assert [b.size for b in epoch] == [4] * (per - 1) + [n - 4 * (per - 1)]


def test_epoch_orders_are_a_pure_function_of_seed_rep_and_round():
    counts = np.array([9, 3, 17])
    a = EpochPlan(seed=7, counts=counts, epochs=2, batch_size=4, reps=3)
    b = EpochPlan(seed=7, counts=counts, epochs=2, batch_size=4, reps=3)
    late = b.orders(4).copy()  # asked in another order: the same bytes
    assert a.orders(0).tobytes() == b.orders(0).tobytes()
    assert a.orders(4).tobytes() == late.tobytes()
    assert a.orders(0).tobytes() != a.orders(1).tobytes()
    assert not np.array_equal(a.orders(0)[0], a.orders(0)[1])  # repetitions differ
    other = EpochPlan(seed=8, counts=counts, epochs=2, batch_size=4, reps=3)
    assert other.orders(0).tobytes() != a.orders(0).tobytes()
    # the two epochs of a round are drawn independently
    assert not all(np.array_equal(x[:17], x[17:]) for x in a.orders(0)[:, 12 + 6 :])


def test_epoch_orders_are_uniform_permutations():
    """Over many rounds each of the 3! orders of a 3-sample client appears ≈ 1/6 of the time."""
    plan = EpochPlan(seed=0, counts=np.array([3]), epochs=1, batch_size=3, reps=1)
    seen: dict[tuple[int, ...], int] = {}
    rounds = 1800
    for t in range(rounds):
        key = tuple(plan.orders(t)[0].tolist())
        seen[key] = seen.get(key, 0) + 1
    assert len(seen) == 6
    expected = rounds / 6
    chi2 = sum((c - expected) ** 2 / expected for c in seen.values())
    assert chi2 < 20.5  # 99.9 % quantile of chi-square with 5 degrees of freedom


def test_the_engine_layout_holds_the_loops_batches():
    counts = np.array([2, 9, 5, 12])
    plan = EpochPlan(seed=1, counts=counts, epochs=2, batch_size=4, reps=2)
    rr, kk = np.array([0, 1, 1, 0]), np.array([3, 0, 2, 1])
    idx, valid = plan.round(3).batches(rr, kk, int(plan.steps[kk].max()))
    for m, (r, k) in enumerate(zip(rr, kk, strict=True)):
        batches = plan.client_batches(r, 3, k)
        assert valid[:, m].sum(-1).tolist() == [b.size for b in batches] + [0] * (
            idx.shape[0] - len(batches)
        )
        for s, batch in enumerate(batches):
            assert idx[s, m][valid[s, m]].tolist() == batch.tolist()


# --- the local optimiser against torch.optim.SGD -------------------------------------------------


@pytest.mark.parametrize("epochs", [0, 2])
def test_one_client_follows_torch_sgd_with_a_persistent_optimiser(epochs):
    """Two rounds of one client, with a round in which it idles between them: the runner's
    parameters equal torch.optim.SGD(momentum, weight_decay) kept alive across rounds."""
    problem = _data_problem()
    opt = LocalOptimiser(epochs=epochs, momentum=0.9, weight_decay=0.05)
    counts = problem.train_counts
    plan = EpochPlan(4, counts, epochs, 4, reps=1) if epochs else None
    k, lr, steps = 2, 0.3, 3
    rng = np.random.default_rng(0)
    w = torch.as_tensor(rng.normal(size=problem.n_params))
    buffers = torch.zeros(1, N, problem.n_params, dtype=torch.float64)
    param = torch.nn.Parameter(w.clone())
    sgd = torch.optim.SGD([param], lr=lr, momentum=0.9, weight_decay=0.05, foreach=False)
    rr, kk = np.array([0]), np.array([k])
    for t in (0, 2):  # the client idles in round 1
        fixed = np.random.default_rng(t).integers(0, counts[:, None], size=(1, steps, N, 4))
        batches = plan.round(t) if plan else fixed
        runner = LocalRunner(problem, batches, lr, steps, opt, buffers)
        w = w + 0.1 * t  # the server overwrites the weights between rounds; buffers persist
        with torch.no_grad():
            param.copy_(w)
        w = runner(rr, kk, w[None])[0]
        loop = plan.client_batches(0, t, k) if plan else [fixed[0, j, k] for j in range(steps)]
        for idx in loop:
            sgd.zero_grad()
            problem.client_loss(k, param, idx).backward()
            sgd.step()
        np.testing.assert_allclose(w.numpy(), param.detach().numpy(), rtol=1e-12, atol=1e-12)
    expected_buf = sgd.state[param]["momentum_buffer"]
    np.testing.assert_allclose(buffers[0, k].numpy(), expected_buf.numpy(), rtol=1e-12, atol=1e-12)
    assert not buffers[0, [0, 1, 3, 4, 5]].any()  # only the client that ran has a buffer


def test_quadratic_fedavg_with_local_momentum_follows_a_numpy_recursion():
    """Heavy-ball local steps on F_k = ½‖w − u_k‖², FedAvg over the active clients, buffers kept
    through idle rounds: the engine equals a numpy loop over the engine's own trace."""
    rng = np.random.default_rng(4)
    u = rng.normal(size=(N, 3))
    problem = QuadraticSim(u, np.ones(N), dtype=torch.float64)
    mu, wd, eta, steps = 0.8, 0.1, 0.2, 3
    settings = SimSettings(rounds=12, local_steps=steps, local_momentum=mu, local_weight_decay=wd)
    setup = Setup(problem, BernoulliLinks(P_LINK), settings, seed=5, reps=2)
    spec = AlgorithmSpec("fedavg", algs.FedAvg(), Schedule(eta), ServerOptions(1.0))
    snapshots = []
    run = setup.run(spec, checkpoint=lambda st: snapshots.append(st.local_buf.clone()))
    for r in range(2):
        w, buf = np.zeros(3), np.zeros((N, 3))
        for t in range(12):
            active = np.flatnonzero(setup.trace[r, t])
            models = []
            for k in active:
                x = w.copy()
                for _ in range(steps):
                    buf[k] = mu * buf[k] + (x - u[k]) + wd * x
                    x = x - eta * buf[k]
                models.append(x)
            if models:
                w = np.mean(models, axis=0)
            np.testing.assert_allclose(snapshots[t][r].numpy(), buf, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(run.final_w[r], w, rtol=1e-12, atol=1e-12)


# --- engine vs reference loop ------------------------------------------------------------------

ALGORITHMS = [
    algs.FedAvg(),
    algs.Unbiased(),
    algs.CAFed(kappa2=0.5),
    algs.FedPBC(),
    algs.MIFA(),
    algs.FedVARP(),
    Scaffold(),
]


AUTHORS = SimSettings(
    rounds=5,
    batch_size=4,
    eval_every=2,
    local_epochs=2,
    local_momentum=0.9,
    local_weight_decay=0.01,
)


@pytest.mark.parametrize(
    ("settings", "chosen"),
    [
        (AUTHORS, ALGORITHMS[::2]),
        pytest.param(AUTHORS, ALGORITHMS[1::2], marks=pytest.mark.slow),
        (SimSettings(rounds=5, batch_size=3, eval_every=3, local_epochs=1), ALGORITHMS[:1]),
        (SimSettings(rounds=5, local_steps=2, batch_size=3, local_momentum=0.5), ALGORITHMS[-3:]),
    ],
    ids=["epochs+momentum+wd", "epochs+momentum+wd-others", "epochs", "steps+momentum"],
)
def test_engine_matches_the_reference_loop_on_data(settings, chosen):
    setup = Setup(_data_problem(), BernoulliLinks(P_LINK), settings, seed=4, reps=2)
    for alg in chosen:
        spec = AlgorithmSpec(alg.name, alg, Schedule(0.3, "inverse", 4.0), ServerOptions(1.2))
        assert_engine_matches_reference(setup, spec)


def test_engine_matches_the_reference_loop_on_quadratics_with_momentum():
    rng = np.random.default_rng(1)
    problem = QuadraticSim(
        rng.normal(size=(N, 3)), np.ones(N), rng.uniform(0.5, 2, (N, 3)), dtype=torch.float64
    )
    settings = SimSettings(rounds=15, local_steps=3, local_momentum=0.7, local_weight_decay=0.02)
    setup = Setup(problem, BernoulliLinks(P_LINK), settings, seed=2, reps=3)
    for alg in ALGORITHMS[:2] + ALGORITHMS[3:]:
        spec = AlgorithmSpec(alg.name, alg, Schedule(0.2), ServerOptions(0.8, momentum=0.5))
        assert_engine_matches_reference(setup, spec)


def test_momentum_changes_the_run():
    """The comparison above can fail: momentum and epochs change the models."""
    problem = _data_problem()
    spec = AlgorithmSpec("fedavg", algs.FedAvg(), Schedule(0.3))
    runs = [
        Setup(problem, BernoulliLinks(P_LINK), s, seed=4, reps=1).run(spec).final_w
        for s in (
            SimSettings(rounds=4, local_steps=2, batch_size=3),
            SimSettings(rounds=4, local_steps=2, batch_size=3, local_momentum=0.9),
            SimSettings(rounds=4, batch_size=3, local_epochs=1),
        )
    ]
    assert not np.allclose(runs[0], runs[1]) and not np.allclose(runs[0], runs[2])


# --- initialisation and settings ---------------------------------------------------------------


def test_torch_default_init_matches_nn_linear_bounds_and_is_seeded():
    d, c = 20, 5
    w0 = torch_default_init(SoftmaxRegression(d, c), c * (d + 1), seed=3)
    linear = torch.nn.Linear(d, c)  # torch's own bound for weight and bias: 1/sqrt(fan_in)
    bound = 1 / math.sqrt(d)
    assert float(linear.weight.detach().abs().max()) <= bound
    assert float(linear.bias.detach().abs().max()) <= bound
    assert np.abs(w0).max() <= bound and np.abs(w0).max() > 0.9 * bound
    assert abs(w0.var() - bound**2 / 3) < 0.25 * bound**2 / 3  # U(-b, b): variance b²/3
    np.testing.assert_array_equal(w0, torch_default_init(SoftmaxRegression(d, c), 105, seed=3))
    assert not np.array_equal(w0, torch_default_init(SoftmaxRegression(d, c), 105, seed=4))
    assert torch_default_init(LogisticRegression(4), 5, seed=0).shape == (5,)


def test_setup_initialises_by_the_init_option():
    problem = _data_problem()
    plain = Setup(problem, BernoulliLinks(P_LINK), SimSettings(rounds=1), seed=6, reps=1)
    assert not plain.w0.any()  # the default stays zeros
    torch_init = Setup(
        problem, BernoulliLinks(P_LINK), SimSettings(rounds=1, init="torch_default"), 6, 1
    )
    np.testing.assert_array_equal(torch_init.w0, torch_default_init(problem.model, 15, 6))
    quad = QuadraticSim(np.ones((N, 2)), np.ones(N))
    with pytest.raises(InputError, match="linear model"):
        Setup(quad, BernoulliLinks(P_LINK), SimSettings(rounds=1, init="torch_default"), 0, 1)


def test_invalid_local_options_are_one_line_errors():
    with pytest.raises(InputError, match="momentum"):
        SimSettings(rounds=1, local_momentum=1.0)
    with pytest.raises(InputError, match="weight decay"):
        SimSettings(rounds=1, local_weight_decay=-1.0)
    with pytest.raises(InputError, match="batch_size"):
        SimSettings(rounds=1, local_epochs=2)
    with pytest.raises(InputError, match="init"):
        SimSettings(rounds=1, init="xavier")
    quad = QuadraticSim(np.ones((N, 2)), np.ones(N))
    with pytest.raises(InputError, match="data problem"):
        Setup(quad, BernoulliLinks(P_LINK), SimSettings(1, batch_size=2, local_epochs=1), 0, 1)


RAW = {
    "seed": 1,
    "device": "cpu",
    "dtype": "float64",
    "run": {
        "rounds": 3,
        "batch_size": 8,
        "local_epochs": 2,
        "local_momentum": 0.9,
        "local_weight_decay": 1e-2,
        "init": "torch_default",
        "momentum": 0.9,
        "weight_decay": 1e-2,
    },
    "problem": {
        "kind": "synthetic_leaf",
        "gamma": 0.5,
        "delta": 0.5,
        "n_clients": 5,
        "n_features": 4,
        "n_classes": 3,
        "max_samples": 40,
        "ridge": 0.0,
    },
    "availability": {"kind": "bernoulli", "p": 0.7},
    "algorithms": [{"name": "fedavg"}, {"name": "scaffold"}],
}


def test_the_run_table_takes_the_authors_keys():
    cfg = build(RAW)
    assert cfg.settings.optimiser == LocalOptimiser(2, 0.9, 1e-2)
    assert cfg.settings.init == "torch_default"
    _, runs = run_config(cfg)
    assert [r.label for r in runs] == ["fedavg", "scaffold"]
    assert all(np.isfinite(r.objective).all() for r in runs)
    for key, value in (("local_momentum", 1.0), ("init", "xavier"), ("local_epochs", -1)):
        with pytest.raises(InputError, match=key):
            build({**RAW, "run": {**RAW["run"], key: value}})


def test_the_catalogs_authors_run_table_builds():
    from fltheory.experiments.catalog.cafed_fig1 import fig1a_config
    from fltheory.experiments.catalog.common import authors_run

    raw = fig1a_config(5, ("ca_fed",), 5)
    raw = {**raw, "run": authors_run(raw["run"]), "device": "cpu"}
    raw["problem"] = {**raw["problem"], "ridge": 0.0}
    settings = build(raw).settings
    assert settings.optimiser == LocalOptimiser(2, 0.9, 1e-2) and settings.batch_size == 32
    assert settings.init == "torch_default"
    server = build(raw).specs[0].server
    assert (server.momentum, server.weight_decay) == (0.9, 1e-2)
