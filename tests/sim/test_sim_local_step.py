"""The plain-SGD local step: fused linear models against the loss_grad loop, chunked runs
against unchunked ones, and the memory limit of configs and the CLI.

Chunking the (seed, client) rows changes no value, but a CPU's float32 matrix kernels may round
a chunk of 64 rows differently from a batch of 200 in the last bit (they do on some AMD EPYC):
runs are compared bit for bit only at equal chunking, and across chunkings within
:data:`CHUNKING_RTOL`. The chunk size itself is fixed by the config, never by the free memory.
"""

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
#: Relative tolerance between runs chunked differently: a float32 product of ≤ 61 terms rounds
#: to within ~61·2⁻²⁴ ≈ 4e-6 of its value whatever its order; 10 local steps of a contraction
#: (lr 0.1) carry that forward without growth, so 1e-4 leaves a margin of 25 — while a chunking
#: bug (a row stepped on another row's data) moves the results by O(1).
CHUNKING_RTOL = 1e-4
CASES = [(LEAF, 4), (BINARY, 4), (BINARY, 0)]


def _runs(problem: dict[str, Any], batch_size: int, chunk_rows: int | None) -> list[Any]:
    """Every algorithm's run, local steps in chunks of ``chunk_rows`` rows (None: default)."""
    raw = _config({**problem, "n_clients": 60}, seeds=4)
    raw["run"]["batch_size"] = batch_size
    raw["availability"]["p"] = 0.9
    cfg = build(raw)
    if chunk_rows is not None:
        steps, batch = (2, 4) if batch_size else (1, int(cfg.problem.train_counts.max()))
        per_row = cfg.problem.local_bytes // cfg.problem.local_rows(steps, batch)
        cfg.problem.memory_limit = 16 * chunk_rows * per_row
        assert cfg.problem.local_rows(steps, batch) == chunk_rows
    setup = Setup(cfg.problem, cfg.process, cfg.settings, cfg.seed, cfg.seeds)
    assert setup.trace.sum(axis=(0, 2)).min() > 128
    return [setup.run(spec) for spec in cfg.specs]


@pytest.mark.parametrize(("problem", "batch_size"), CASES)
def test_equal_chunking_gives_the_same_bytes(problem: dict[str, Any], batch_size: int) -> None:
    """Chunks of 64 rows for the local steps (and of 13 or 128 for the engine's updates,
    binary full batches unchunked there), twice: the same results, bit for bit."""
    for first, again in zip(
        _runs(problem, batch_size, 64), _runs(problem, batch_size, 64), strict=True
    ):
        assert np.array_equal(first.final_w, again.final_w)
        assert np.array_equal(first.objective, again.objective)


@pytest.mark.parametrize(("problem", "batch_size"), CASES)
def test_chunked_rows_agree_within_rounding(problem: dict[str, Any], batch_size: int) -> None:
    """Every round's pairs at once against chunks of 64 rows: equal to :data:`CHUNKING_RTOL`
    (bit for bit on CPUs whose kernels round row by row, which this test does not require)."""
    for whole, parts in zip(
        _runs(problem, batch_size, None), _runs(problem, batch_size, 64), strict=True
    ):
        scale = np.abs(whole.final_w).max()
        np.testing.assert_allclose(parts.final_w, whole.final_w, rtol=0, atol=CHUNKING_RTOL * scale)
        np.testing.assert_allclose(parts.objective, whole.objective, rtol=CHUNKING_RTOL)


@pytest.mark.parametrize("free", [96 * 2**20, 2**40])
def test_default_chunks_do_not_follow_the_free_memory(monkeypatch, free: int) -> None:
    """On a loaded machine (96 MiB free) as on an idle one: the chunks of the default
    256 MiB, hence the same results."""
    import fltheory.resources
    import fltheory.sim.problems

    monkeypatch.setattr(fltheory.resources, "available_memory", lambda: free)
    monkeypatch.setattr(fltheory.sim.problems, "available_memory", lambda: free, raising=False)
    cfg = build(_config(LEAF))
    assert cfg.problem.local_bytes == 256 * 2**20
    row = 2 * 4 * (cfg.problem.data.n_features + 2) * 4  # [x, 1, y] of 2 steps × 4 samples
    assert cfg.problem.local_rows(2, 4) == (256 * 2**20 // row) // 64 * 64


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
    assert main([*base, "1MiB"]) == 0
    capsys.readouterr()
    assert main([*base, "-3"]) == 2
    assert "fltheory: error: --memory-limit must be a positive size" in capsys.readouterr().err
    assert main([*base, "10KiB"]) == 2  # the data alone (4 clients × 12 samples) is 9 KiB
    assert "the limit is 10 KiB" in capsys.readouterr().err


def test_gathered_rows_reuse_one_buffer() -> None:
    """Successive chunks' minibatch rows land in the same buffer (no fresh pages per chunk)
    and are exactly the samples' rows; a larger chunk grows it."""
    problem = build(_config(LEAF)).problem
    xy = problem._xy
    first = problem._gather_rows(torch.tensor([3, 0, 3]))
    assert torch.equal(first, xy[[3, 0, 3]])
    ptr = first.data_ptr()
    second = problem._gather_rows(torch.tensor([1, 2]))
    assert torch.equal(second, xy[[1, 2]]) and second.data_ptr() == ptr
    bigger = problem._gather_rows(torch.arange(5))
    assert torch.equal(bigger, xy[:5])
