"""The memory preflight covers the model parameters: ``dim = 10⁹`` (and its kin: features,
classes, channels, widths) is refused up front, in one line, by the CLI, sweeps and the Python
API alike — never a MemoryError. The sizes it reads from a raw ``[problem]`` table
(:mod:`fltheory.sim.sizes`) are checked against the problems and models as built, for every
registered kind and model, so a new plug-in cannot slip past it unsized."""

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import fltheory
from fltheory.errors import InputError
from fltheory.sim.algorithms.memory import MemoryAlgorithm
from fltheory.sim.budget import EVAL_MODELS, TABLE_ALGORITHMS, check_config_size, footprint
from fltheory.sim.config import build
from fltheory.sim.registries import ALGORITHMS, MODELS, PROBLEMS, AlgorithmContext, ModelShape
from fltheory.sim.sizes import IMAGES, MODEL_PARAMS, PROBLEM_SIZES, problem_size
from fltheory.sweep import load_sweep, run_sweep

ROOT = Path(__file__).resolve().parents[2]


def _config(problem: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {
        "device": "cpu",
        "run": {"rounds": 3},
        "problem": problem,
        "availability": {"kind": "bernoulli", "p": 0.5},
        "algorithms": [{"name": "fedavg"}],
        **top,
    }


#: One small table per problem kind (images: the digits shipped with scikit-learn).
SMALL = {
    "fedpbc_quadratic": {"n_clients": 3, "dim": 7},
    "quadratic": {"u": [[0.0, 1.0, 2.0], [1.0, 2.0, 3.0]]},
    "synthetic_leaf": {"gamma": 0.5, "delta": 0.5, "n_clients": 4, "max_samples": 60},
    "binary_synthetic": {"n_clients": 4, "n_train": 10, "n_test": 2},
    "digits": {"n_clients": 4, "model": "cnn", "cnn_channels": [3, 5], "cnn_kernel": 3},
}


def test_every_problem_kind_and_model_is_sized():
    assert set(PROBLEM_SIZES) == set(PROBLEMS.names())
    assert set(MODEL_PARAMS) == set(MODELS.names())
    assert set(IMAGES) | {"synthetic_leaf", "binary_synthetic"} == {
        e.name for e in PROBLEMS if "model" in e.params.model_fields
    }


@pytest.mark.parametrize("kind", sorted(SMALL))
def test_problem_sizes_match_the_built_problems(kind):
    table = {"kind": kind, **SMALL[kind]}
    problem = build(_config(table)).problem
    size = problem_size(table)
    assert (size.n_clients, size.n_params) == (problem.n_clients, problem.n_params)


SHAPES = [ModelShape(64, 10, (1, 8, 8)), ModelShape(784, 10, (1, 28, 28))]
SHAPES += [ModelShape(3072, 10, (3, 32, 32))]
MODEL_TABLES = {
    "softmax": [{}],
    "logistic": [{}],
    "cnn": [{}, {"cnn_channels": [3, 7], "cnn_kernel": 3}],
    "lenet5": [{}],
    "cifar_cnn": [{"cnn_hidden": 16}],
    "resnet18": [{"resnet_width": 4, "resnet_groups": 2}],
}


@pytest.mark.parametrize("name", sorted(MODEL_TABLES))
def test_model_parameter_counts_match_the_built_models(name):
    entry = MODELS.get(name)
    for table in MODEL_TABLES[name]:
        for shape in SHAPES:
            if name == "logistic":
                shape = ModelShape(shape.n_features, 2, None)
            elif name in ("lenet5", "cifar_cnn") and shape.n_features == 64:
                continue  # they need images of 16×16 or more
            model = entry.build(entry.params(**table), shape)
            assert MODEL_PARAMS[name](table, (shape.n_features, shape.n_classes, shape.image)) == (
                model.n_params
            )


@pytest.mark.parametrize("name", ALGORITHMS.names())
def test_the_algorithms_with_client_tables_are_the_listed_ones(name):
    """An (R, N, P) table in an algorithm's memory is what TABLE_ALGORITHMS budgets for."""
    reps, n, params = 2, 5, 3
    pi = np.linspace(0.2, 0.9, n)
    ctx = AlgorithmContext(n, 4, 0, pi, np.zeros(n))
    algorithm = ALGORITHMS.build(name, {}, ctx)
    tables = False
    if isinstance(algorithm, MemoryAlgorithm):
        memory = algorithm.init_memory(reps, n, torch.zeros(reps, params))
        values = memory.values() if isinstance(memory, dict) else [memory]
        tables = any(
            isinstance(v, torch.Tensor) and tuple(v.shape) == (reps, n, params) for v in values
        )
    assert tables == (name in TABLE_ALGORITHMS)
    extra = algorithm.eval_models(memory) if isinstance(algorithm, MemoryAlgorithm) else {}
    assert 1 + len(extra) == EVAL_MODELS.get(name, 1)


HUGE = {
    "quadratic-dim": {"kind": "fedpbc_quadratic", "n_clients": 10, "dim": 10**9},
    "leaf-features": {"kind": "synthetic_leaf", "gamma": 0.5, "delta": 0.5, "n_features": 10**9},
    "leaf-classes": {"kind": "synthetic_leaf", "gamma": 0.5, "delta": 0.5, "n_classes": 10**8},
    "binary-samples": {"kind": "binary_synthetic", "n_train": 10**9},
    "cnn-channels": {"kind": "digits", "model": "cnn", "cnn_channels": [10**5, 10**5]},
    "resnet-width": {"kind": "digits", "model": "resnet18", "resnet_width": 10**5},
}


@pytest.mark.parametrize("name", sorted(HUGE))
def test_huge_models_are_refused_by_the_python_api(name):
    with pytest.raises(InputError, match=r"^would need ~.* for a run of .* parameters"):
        fltheory.simulate(_config(HUGE[name]))


def test_models_kept_at_every_evaluation_count():
    """10⁶ parameters × 100 seeds × 10⁴ evaluations: ~4 TB of kept models alone."""
    raw = _config({"kind": "fedpbc_quadratic", "n_clients": 2, "dim": 10**6}, seeds=100)
    raw["run"]["rounds"] = 10**4
    assert footprint(raw)["models"] > 4e12
    with pytest.raises(InputError, match="the models kept at each evaluation"):
        check_config_size(raw)


def test_the_cli_refuses_dim_1e9_in_one_line_before_importing_torch(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(
        'device = "cpu"\n[run]\nrounds = 3\n[problem]\nkind = "fedpbc_quadratic"\n'
        'n_clients = 10\ndim = 1000000000\n[availability]\nkind = "bernoulli"\np = 0.5\n'
        '[[algorithms]]\nname = "fedavg"\n'
    )
    code = (
        "import sys\nfrom fltheory.cli.app import main\n"
        f"status = main(['simulate', '--config', {str(path)!r}])\n"
        "print('torch' in sys.modules, status)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.stdout.split() == ["False", "2"]
    (line,) = done.stderr.splitlines()
    assert line.startswith("fltheory: error: would need ~") and "1,000,000,000 parameters" in line


def _sweep(folder: Path, dim: int, seeds: int = 2, axes: str = "") -> Path:
    (folder / "base.toml").write_text(
        f'device = "cpu"\n[run]\nrounds = 1\n[problem]\nkind = "fedpbc_quadratic"\n'
        f'n_clients = 20\ndim = {dim}\n[availability]\nkind = "bernoulli"\np = 0.5\n'
        '[[algorithms]]\nname = "fedavg"\n'
    )
    path = folder / "s.toml"
    path.write_text(f'base = "base.toml"\nseeds = {seeds}\n{axes}')
    return path


def test_a_sweep_point_too_large_is_refused_before_the_store_or_any_run(tmp_path):
    sweep = load_sweep(_sweep(tmp_path, 2, axes='[axes]\n"problem.dim" = [2, 1000000000]\n'))
    with pytest.raises(InputError, match=r'point \{"problem.dim": 1000000000\}.* would need'):
        run_sweep(sweep, tmp_path / "r.db")
    assert not (tmp_path / "r.db").exists()


def test_a_sweep_counts_its_workers(tmp_path, monkeypatch):
    """With 256 MiB free, one run of 10⁵ parameters (~70 MiB) fits, 16 at once do not."""
    import fltheory.resources

    monkeypatch.setattr(fltheory.resources, "available_memory", lambda: 256 * 2**20)
    sweep = load_sweep(_sweep(tmp_path, 100_000, seeds=16))
    with pytest.raises(InputError, match="16 runs at once"):
        run_sweep(sweep, tmp_path / "r.db", workers=16)
    check_config_size(sweep.raw)  # one run alone fits


def test_an_address_space_limit_counts_as_the_memory_available(tmp_path):
    """Under ``ulimit -v 4GiB`` a run of ~22 GiB is refused in one line, not a MemoryError."""
    code = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, 4 * 2**30))\n"
        "from fltheory.resources import available_memory\n"
        "assert available_memory() <= 4 * 2**30\n"
        "from fltheory.cli.app import main\n"
        f"sys.exit(main(['simulate', '--config', {str(tmp_path / 'c.toml')!r}]))\n"
    )
    (tmp_path / "c.toml").write_text(
        'device = "cpu"\n[run]\nrounds = 2\n[problem]\nkind = "fedpbc_quadratic"\n'
        'n_clients = 2\ndim = 300000000\n[availability]\nkind = "bernoulli"\np = 0.5\n'
        '[[algorithms]]\nname = "fedavg"\n'
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.returncode == 2, done.stderr[-500:]
    (line,) = done.stderr.splitlines()
    assert line.startswith("fltheory: error: would need ~") and "available" in line
