"""The simulator's registries: every plug-in is documented, every algorithm has a reference twin
that agrees with the engine when built from its schema defaults, a module that no list names is
discovered, and docs/plugins.md is generated from the registries and up to date."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from pydantic import BaseModel

from fltheory.config import Strict
from fltheory.markov.population import ca_fed_population
from fltheory.registry import Entry
from fltheory.sim.availability import TwoStateChains
from fltheory.sim.compare import Setup
from fltheory.sim.config.docs import PAGE, plugins_markdown
from fltheory.sim.config.tables import AlgorithmOptions
from fltheory.sim.data import synthetic_leaf
from fltheory.sim.models import SoftmaxRegression
from fltheory.sim.problems import DataProblem, QuadraticSim
from fltheory.sim.registries import (
    ALGORITHMS,
    AVAILABILITY,
    MODELS,
    PROBLEMS,
    AlgorithmContext,
    NoParams,
)
from fltheory.sim.settings import AlgorithmSpec, Schedule, ServerOptions, SimSettings
from fltheory.sim.twins import Twin
from fltheory.testing.sim import assert_engine_matches_reference

ROOT = Path(__file__).resolve().parents[2]
REGISTRIES = {"algorithm": ALGORITHMS, "problem": PROBLEMS, "model": MODELS, "avail": AVAILABILITY}
ENTRIES = [(kind, entry) for kind, reg in REGISTRIES.items() for entry in reg]
N = 8
POP = ca_fed_population(N, seed=0)


def test_the_documented_names_are_registered():
    assert set(PROBLEMS.names()) == {
        "synthetic_leaf",
        "binary_synthetic",
        "fedpbc_quadratic",
        "quadratic",
        "digits",
        "fashion_mnist",
        "mnist",
        "cifar10",
        "svhn",
    }
    assert set(MODELS.names()) == {
        "softmax",
        "logistic",
        "cnn",
        "lenet5",
        "cifar_cnn",
        "resnet18",
    }
    assert set(AVAILABILITY.names()) == {
        "ca_fed",
        "ca_fed_authors",
        "two_state",
        "clients_csv",
        "clustered",
        "bernoulli",
        "uniform_noise",
        "day_cycle",
        "finite_chain",
        "trace",
    }
    assert set(ALGORITHMS.names()) >= {
        "fedavg",
        "unbiased",
        "more_available",
        "adafed",
        "f3ast",
        "ca_fed",
        "fedpbc",
        "fedar",
        "mifa",
        "fedvarp",
        "fedavg_is",
        "fedavg_sampled",
        "fedavg_uniform",
    }


@pytest.mark.parametrize(("kind", "entry"), ENTRIES, ids=[f"{k}:{e.name}" for k, e in ENTRIES])
def test_every_plugin_has_a_strict_documented_schema(kind, entry):
    assert issubclass(entry.params, Strict)
    assert entry.params.model_config["extra"] == "forbid"
    assert entry.doc.endswith("."), "the one-line doc is a whole sentence"
    for name, field in entry.params.model_fields.items():
        assert field.annotation is not None, name
        assert field.description and "\n" not in field.description, f"{entry.name}.{name}"


@pytest.mark.parametrize("entry", list(ALGORITHMS), ids=ALGORITHMS.names())
def test_algorithm_fields_do_not_collide_with_the_shared_options(entry):
    shared = {*AlgorithmOptions.model_fields, "name"}
    assert not shared & set(entry.params.model_fields)
    if entry.builtin:  # a plug-in algorithm needs no twin (when it has one, it is run below)
        assert isinstance(entry.extras.get("reference"), Twin)


def test_model_fields_do_not_collide_with_problem_fields():
    for problem in PROBLEMS:
        fields = set(problem.params.model_fields) | {"kind"}
        if "model" in fields:
            for model in MODELS:
                assert not fields & set(model.params.model_fields), (problem.name, model.name)


def _softmax_setup():
    data = synthetic_leaf(0.5, 0.5, N, seed=3, n_features=4, n_classes=3, max_samples=40)
    problem = DataProblem(SoftmaxRegression(4, 3), data, data.train_counts, dtype=torch.float64)
    settings = SimSettings(rounds=8, local_steps=2, batch_size=3, eval_every=3)
    return Setup(problem, TwoStateChains(POP.pi, POP.lambda2), settings, seed=4, reps=2)


def _quadratic_setup():
    rng = np.random.default_rng(5)
    problem = QuadraticSim(rng.normal(size=(N, 3)), rng.uniform(0.5, 1.5, N), dtype=torch.float64)
    settings = SimSettings(rounds=10, local_steps=3, batch_size=0, eval_every=2)
    return Setup(problem, TwoStateChains(POP.pi, POP.lambda2), settings, seed=1, reps=2)


@pytest.mark.parametrize("problem", ["softmax", "quadratic"])
@pytest.mark.parametrize("name", ALGORITHMS.names())
def test_every_algorithm_built_from_defaults_matches_its_twin(name, problem):
    if ALGORITHMS.get(name).extras.get("reference") is None:
        pytest.skip(f"the plug-in algorithm {name!r} has no reference twin")
    setup = _softmax_setup() if problem == "softmax" else _quadratic_setup()
    ctx = AlgorithmContext(
        N, setup.settings.rounds, 2, setup.process.pi, setup.problem.local_minima
    )
    algorithm = ALGORITHMS.build(name, {}, ctx)
    assert algorithm.name == name  # the reference loop finds the twin by this name
    spec = AlgorithmSpec(name, algorithm, Schedule(0.3), ServerOptions(1.2))
    assert_engine_matches_reference(setup, spec)


def test_discovery_imports_a_module_no_list_names():
    source = (ROOT / "fltheory" / "sim" / "algorithms" / "__init__.py").read_text()
    assert "fedavg_uniform" not in source
    code = (
        "import sys\n"
        "from fltheory.sim.registries import ALGORITHMS\n"
        "module = 'fltheory.sim.algorithms.fedavg_uniform'\n"
        "before = module in sys.modules\n"
        "names = ALGORITHMS.names()\n"
        "print(before, module in sys.modules, 'fedavg_uniform' in names)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.split() == ["False", "True", "True"]


def test_plugins_page_is_up_to_date():
    assert PAGE.read_text() == plugins_markdown(), (
        "docs/plugins.md is out of date: run python -m fltheory.sim.config.docs"
    )


def test_every_registered_name_appears_in_the_page():
    text = PAGE.read_text()
    for kind, registry in REGISTRIES.items():
        key = {"algorithm": "name", "model": "model"}.get(kind, "kind")
        for name in (entry.name for entry in registry if entry.builtin):
            assert f'### `{key} = "{name}"`' in text, name
            assert f"`{name}`" in text


def test_the_page_changes_when_a_plugin_is_added(request):
    """The staleness check can fail: a new entry shows up in the generated page."""

    def build_example(params: BaseModel, ctx: AlgorithmContext):
        """An algorithm added for this test."""

    entry = Entry("zz_example", NoParams, build_example, "An algorithm added for this test.")
    ALGORITHMS.add("zz_example", entry, origin=entry.origin)
    request.addfinalizer(lambda: ALGORITHMS.unregister("zz_example"))
    page = plugins_markdown()
    assert '### `name = "zz_example"`' in page and page != PAGE.read_text()
