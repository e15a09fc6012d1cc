"""The plain-SGD local step: fused linear models against the loss_grad loop, chunked runs
against unchunked ones (bit for bit), and the memory limit of configs and the CLI."""

from typing import Any

import numpy as np
import pytest
import torch

from fltheory.cli.app import main
from fltheory.sim.compare import Setup
from fltheory.sim.config import build
from fltheory.sim.models import LogisticRegression, Model, SoftmaxRegression

LEAF = {"kind": "synthetic_leaf", "gamma": 0.5, "delta": 0.5, "n_clients": 8, "max_samples": 60}


def _config(problem: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {
        "run": {"rounds": 5, "local_steps": 2, "batch_size": 4, "eval_every": 2},
        "seeds": 3,
        "device": "cpu",
        "problem": problem,
        "availability": {"kind": "bernoulli", "p": 0.6},
        "algorithms": [{"name": "fedavg", "lr": 0.1}, {"name": "fedpbc", "lr": 0.1}],
        **top,
    }


@pytest.mark.parametrize("model", [SoftmaxRegression(3, 4, ridge=0.05), LogisticRegression(3)])
@pytest.mark.parametrize("full", [False, True])
def test_fused_steps_match_the_loss_grad_loop(model: Model, full: bool) -> None:
    gen = torch.Generator().manual_seed(0)
    m, steps, batch = 5, 1 if full else 3, 7
    theta = torch.randn(m, model.n_params, generator=gen, dtype=torch.float64)
    x = torch.randn(steps, m, batch, 3, generator=gen, dtype=torch.float64)
    classes = getattr(model, "n_classes", 2)
    y = torch.randint(0, classes, (steps, m, batch), generator=gen)
    weight = None
    if full:
        weight = torch.rand(m, batch, generator=gen, dtype=torch.float64)
        weight /= weight.sum(-1, keepdim=True)
    ones = torch.ones(steps, m, batch, 1, dtype=torch.float64)
    fused = model.local_sgd(theta, torch.cat([x, ones], -1), y, weight, 0.3, 3)
    loop = Model.local_sgd(model, theta, x, y, weight, 0.3, 3)
    torch.testing.assert_close(fused, loop, rtol=1e-12, atol=1e-12)


BINARY = {"kind": "binary_synthetic", "n_clients": 60, "n_train": 20, "n_test": 5}


@pytest.mark.parametrize(("problem", "batch_size"), [(LEAF, 4), (BINARY, 4), (BINARY, 0)])
def test_chunked_rows_give_the_same_bytes(problem: dict[str, Any], batch_size: int) -> None:
    """A memory limit that cuts each round's (seed, client) pairs into chunks of 64 rows for
    the local steps (and of 13 or 128 for the engine's updates, binary full batches unchunked
    there): the same results, bit for bit."""
    runs = {}
    for chunked in (False, True):
        raw = _config({**problem, "n_clients": 60}, seeds=4)
        raw["run"]["batch_size"] = batch_size
        raw["availability"]["p"] = 0.9
        cfg = build(raw)
        if chunked:
            steps, batch = (2, 4) if batch_size else (1, int(cfg.problem.train_counts.max()))
            per_row = cfg.problem.local_bytes // cfg.problem.local_rows(steps, batch)
            cfg.problem.memory_limit = 16 * 64 * per_row
            assert cfg.problem.local_rows(steps, batch) == 64
        setup = Setup(cfg.problem, cfg.process, cfg.settings, cfg.seed, cfg.seeds)
        assert setup.trace.sum(axis=(0, 2)).min() > 128
        runs[chunked] = [setup.run(spec) for spec in cfg.specs]
    for whole, parts in zip(runs[False], runs[True], strict=True):
        assert np.array_equal(whole.final_w, parts.final_w)
        assert np.array_equal(whole.objective, parts.objective)


def test_memory_limit_text_and_errors() -> None:
    cfg = build(_config(LEAF, memory_limit="3 MiB"))
    assert cfg.problem.memory_limit == 3 * 2**20
    assert cfg.problem.local_bytes == 3 * 2**20 // 16
    with pytest.raises(ValueError, match="memory_limit must be a positive size"):
        build(_config(LEAF, memory_limit="many"))


def test_cli_memory_limit(tmp_path, capsys) -> None:
    path = tmp_path / "c.toml"
    path.write_text(
        'seeds = 2\ndevice = "cpu"\n[run]\nrounds = 3\nlocal_steps = 2\nbatch_size = 4\n'
        '[problem]\nkind = "binary_synthetic"\nn_clients = 4\nn_train = 10\nn_test = 2\n'
        '[availability]\nkind = "bernoulli"\np = 0.5\n[[algorithms]]\nname = "fedavg"\n'
    )
    base = ["simulate", "--config", str(path), "--json", "--memory-limit"]
    assert main([*base, "1KiB"]) == 0
    capsys.readouterr()
    assert main([*base, "-3"]) == 2
    assert "fltheory: error: memory_limit must be a positive size" in capsys.readouterr().err
    assert main([*base, "10B"]) == 2
    assert "the limit is 10 B" in capsys.readouterr().err
