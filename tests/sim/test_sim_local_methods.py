"""Local methods behind one contract (fltheory.sim.local): a method registered from outside
fltheory (this test module, as a user's plug-in module would) runs in the engine and in the
reference loop through the registry, and the built-in ``proximal`` term meets its closed form.

Expected values are independent of the code under test: a plug-in that re-implements plain SGD
from the problem's gradients must give the built-in plain SGD's numbers; FedProx's local steps on
an identity-Hessian quadratic are the scalar recursion x ← x − η((x − u_k) + μ(x − w)).
"""

from dataclasses import dataclass

import numpy as np
import pytest
import torch

from fltheory.errors import InputError
from fltheory.markov.population import ca_fed_population
from fltheory.sim import algorithms as algs
from fltheory.sim.algorithms.scaffold import Scaffold
from fltheory.sim.availability import TwoStateChains
from fltheory.sim.compare import Setup
from fltheory.sim.data import synthetic_leaf
from fltheory.sim.local.base import EngineRound, LocalContext, LocalMethod, ReferenceRound
from fltheory.sim.local.proximal import Proximal
from fltheory.sim.models import SoftmaxRegression
from fltheory.sim.problems import DataProblem, QuadraticSim
from fltheory.sim.registries import LOCAL_METHODS, NoParams
from fltheory.sim.settings import AlgorithmSpec, Schedule, ServerOptions, SimSettings
from fltheory.testing.sim import assert_engine_matches_reference

N = 6
POP = ca_fed_population(N, seed=1)
OWN = "test_own_sgd"


@dataclass(frozen=True, eq=False)
class _OwnEngine:
    """E steps x ← x − η∇F_k(x; B_j), batched, from the problem's ``loss_grad`` only."""

    job: EngineRound

    def work(self, rr: np.ndarray, kk: np.ndarray) -> np.ndarray:
        return np.full(kk.shape, self.job.local_steps * self.job.lr)

    def __call__(self, rr, kk, theta0, correction=None):
        assert correction is None
        kk_t = torch.as_tensor(kk)
        theta = theta0.clone()
        for j in range(self.job.local_steps):
            idx = None if self.job.batches is None else torch.as_tensor(self.job.batches[rr, j, kk])
            theta = theta - self.job.lr * self.job.problem.loss_grad(theta, kk_t, idx)[1]
        return theta


@dataclass(frozen=True, eq=False)
class _OwnReference:
    """The same steps client by client, autograd on the loss definition."""

    job: ReferenceRound

    def work(self, k: int) -> float:
        return self.job.local_steps * self.job.lr

    def __call__(self, k, x, correction=None):
        assert correction is None
        for j in range(self.job.local_steps):
            x = x.detach().requires_grad_(True)
            idx = None if self.job.batches is None else self.job.batches[j, k]
            (g,) = torch.autograd.grad(self.job.problem.client_loss(k, x, idx), x)
            x = x.detach() - self.job.lr * g
        return x.detach()


class OwnSGD(LocalMethod):
    """A user's plain SGD, written against the contract only."""

    def engine_round(self, job: EngineRound) -> _OwnEngine:
        return _OwnEngine(job)

    def reference_round(self, job: ReferenceRound) -> _OwnReference:
        return _OwnReference(job)


@LOCAL_METHODS.register(OWN, params=NoParams)
def build_own(params: NoParams, ctx: LocalContext) -> OwnSGD:
    """A test plug-in: plain local SGD re-implemented outside fltheory."""
    return OwnSGD()


def _data_problem():
    data = synthetic_leaf(0.5, 0.5, N, seed=2, n_features=4, n_classes=3, max_samples=30)
    model = SoftmaxRegression(4, 3, ridge=1e-2)
    return DataProblem(model, data, data.train_counts.astype(float), dtype=torch.float64)


def _quadratic():
    rng = np.random.default_rng(7)
    return QuadraticSim(rng.normal(size=(N, 2)), rng.uniform(0.5, 1.5, N), dtype=torch.float64)


def _setup(problem, batch_size: int, **local) -> Setup:
    settings = SimSettings(rounds=6, local_steps=3, batch_size=batch_size, eval_every=2, **local)
    return Setup(problem, TwoStateChains(POP.pi, POP.lambda2), settings, seed=3, reps=2)


SPECS = [
    AlgorithmSpec("fedavg", algs.FedAvg(rule="mean"), Schedule(0.2), ServerOptions(1.0)),
    AlgorithmSpec("unbiased", algs.Unbiased(), Schedule(0.2), ServerOptions(0.5)),
    AlgorithmSpec("mifa", algs.MIFA(), Schedule(0.2), ServerOptions(1.0)),
]


def test_the_plugin_is_registered_with_its_origin():
    entry = LOCAL_METHODS.get(OWN)
    assert not entry.builtin and entry.origin == __name__
    assert entry.doc == "A test plug-in: plain local SGD re-implemented outside fltheory."


@pytest.mark.parametrize("problem_kind", ["data", "quadratic"])
def test_a_plugin_local_method_equals_the_builtin_plain_sgd(problem_kind):
    problem = _data_problem() if problem_kind == "data" else _quadratic()
    batch = 4 if problem_kind == "data" else 0
    builtin, own = _setup(problem, batch), _setup(problem, batch, local_method=OWN)
    for spec in SPECS:
        a, b = builtin.run(spec), assert_engine_matches_reference(own, spec)
        np.testing.assert_array_equal(a.included, b.included)
        np.testing.assert_allclose(b.objective, a.objective, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(b.final_w, a.final_w, rtol=1e-10, atol=1e-12)
        assert np.abs(a.final_w - a.final_w[:, :1]).max() > 0  # the runs trained something


def test_naming_the_builtin_sgd_changes_nothing():
    problem = _data_problem()
    a = _setup(problem, 4).run(SPECS[0])
    b = _setup(problem, 4, local_method="sgd").run(SPECS[0])
    np.testing.assert_array_equal(a.final_w, b.final_w)


def test_proximal_local_steps_meet_the_scalar_recursion():
    problem = _quadratic()  # F_k(x) = ½‖x − u_k‖²: ∇ = x − u_k
    u = np.asarray(problem.u, dtype=float)
    lr, steps, mu = 0.3, 4, 0.7
    rr, kk = np.array([0, 1, 0]), np.array([0, 3, 5])
    theta0 = torch.as_tensor(np.random.default_rng(0).normal(size=(3, 2)))
    local = Proximal(mu).engine_round(EngineRound(problem, None, lr, steps))
    got = local(rr, kk, theta0).numpy()
    w = theta0.numpy()
    x = w.copy()
    for _ in range(steps):
        x = x - lr * ((x - u[kk]) + mu * (x - w))
    np.testing.assert_allclose(got, x, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(local.work(rr, kk), np.full(3, steps * lr))


def test_proximal_runs_engine_and_reference_alike_and_mu_zero_is_plain_sgd():
    problem = _data_problem()
    prox = _setup(problem, 4, local_method="proximal", local_params={"mu": 0.5})
    a = assert_engine_matches_reference(prox, SPECS[0])
    zero = _setup(problem, 4, local_method="proximal", local_params={"mu": 0.0}).run(SPECS[0])
    plain = _setup(problem, 4).run(SPECS[0])
    np.testing.assert_allclose(zero.final_w, plain.final_w, rtol=1e-10, atol=1e-12)
    assert np.abs(a.final_w - plain.final_w).max() > 1e-6  # μ > 0 pulls the clients back


def test_wrong_choices_are_one_line_errors():
    problem = _quadratic()
    spec = SPECS[0]
    with pytest.raises(InputError, match="unknown local method 'prox'"):
        _setup(problem, 0, local_method="prox").run(spec)
    with pytest.raises(InputError, match="mu"):
        _setup(problem, 0, local_method="proximal", local_params={"mu": -1.0}).run(spec)
    with pytest.raises(InputError, match="no gradient correction"):
        scaffold = AlgorithmSpec("scaffold", Scaffold(), Schedule(0.2), ServerOptions(1.0))
        _setup(problem, 0, local_method="sgd").run(scaffold)


CONFIG = """\
seed = 1
device = "cpu"
dtype = "float64"
[run]
rounds = 2
[problem]
kind = "fedpbc_quadratic"
n_clients = 3
dim = 2
[availability]
kind = "bernoulli"
p = 0.5
[[algorithms]]
name = "fedavg"
"""


def test_the_local_table_of_a_config(tmp_path):
    from fltheory.sim.config import load_config

    path = tmp_path / "c.toml"
    path.write_text(CONFIG)
    plain = load_config(path)
    assert "local" not in plain.resolved and plain.settings.local_method is None
    path.write_text(CONFIG + '[local]\nmethod = "proximal"\nmu = 0.25\n')
    cfg = load_config(path)
    assert cfg.resolved["local"] == {"method": "proximal", "mu": 0.25}
    assert (cfg.settings.local_method, cfg.settings.local_params) == ("proximal", {"mu": 0.25})
    path.write_text(CONFIG + '[local]\nmethod = "proximal"\nnu = 0.25\n')
    with pytest.raises(InputError, match="nu") as info:
        load_config(path)
    assert "\n" not in str(info.value)
    path.write_text(CONFIG + f'[local]\nmethod = "{OWN}"\n')
    assert load_config(path).settings.local_method == OWN  # a plug-in's, by name
