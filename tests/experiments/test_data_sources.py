"""Data sets of ``fltheory reproduce``: ``--data-dir`` (CIFAR-10 pickles, MNIST IDX files written
by the tests), Fashion-MNIST standing in for MNIST, one-line "needs data" refusals, and
``cafed:fig1c`` end to end on a tiny CIFAR-format fixture."""

import json
import pickle
from pathlib import Path

import numpy as np
import pytest
import torch

import fltheory.sim.datasets as datasets_module
from fltheory.atomic import is_complete
from fltheory.cli.app import main
from fltheory.errors import InputError
from fltheory.experiments.data_sources import data_status, resolve
from fltheory.experiments.model import get
from fltheory.experiments.runner import resolved_config
from fltheory.sim.cnn import SmallCNN
from fltheory.sim.config import build
from fltheory.sim.datasets import CIFAR_FILES, write_idx


def write_cifar_fixture(folder: Path, per_batch: int = 60, seed: int = 0) -> Path:
    """Six CIFAR-10 python batches in ``folder/cifar-10-batches-py``: class c's images are
    brighter with c (learnable), 32×32×3 stored as (n, 3072) uint8 rows, protocol-2 pickles."""
    rng = np.random.default_rng(seed)
    batches = folder / "cifar-10-batches-py"
    batches.mkdir(parents=True)
    for name in CIFAR_FILES:
        labels = rng.integers(0, 10, per_batch)
        data = (labels[:, None] * 20 + rng.integers(0, 60, (per_batch, 3072))).astype(np.uint8)
        batch = {b"batch_label": name.encode(), b"data": data, b"labels": labels.tolist()}
        (batches / name).write_bytes(pickle.dumps(batch, protocol=2))
    return folder


def _one_line_error(capsys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and len(lines) == 1, captured.err
    return lines[0]


def test_fig1c_loader_and_model_path(tmp_path):
    fixture = write_cifar_fixture(tmp_path / "data")
    e = get("cafed:fig1c")
    assert e.setup("paper").requires == () and e.setup("paper").datasets == ("cifar10",)
    assert e.status("paper").startswith("needs data: cifar10")  # nothing in default folders
    tables, label = resolved_config(e, "paper", "quick", fixture)
    assert label == f"CIFAR-10 from {fixture}"
    assert tables["problem"]["data_dir"] == str(fixture)
    cfg = build({**tables, "device": "cpu", "seeds": 2})
    problem = cfg.problem
    model = problem.model
    assert isinstance(model, SmallCNN) and model.shape == (3, 32, 32)
    # 300 training images over 10 clients, 20 % of each client's held out (at least 1 kept).
    counts = problem.data.train_counts
    assert counts.sum() < 300 and counts.sum() >= 300 - round(0.2 * 300) - 10
    theta = torch.as_tensor(model.initial_params(0), dtype=torch.float32)[None]
    x = torch.as_tensor(problem.data.x_train[:4])
    assert model.logits(theta.double(), x.double()).shape == (1, 4, 10)


def test_missing_data_is_one_line_exit_2(capsys, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["reproduce", "cafed:fig1c", "--data-dir", str(empty)]) == 2
    line = _one_line_error(capsys)
    assert "cafed:fig1c --setup paper needs data: cifar10: no data_batch_1" in line
    assert str(empty) in line
    assert main(["reproduce", "cafed:fig1b", "--data-dir", str(empty)]) == 2
    assert f"mnist: no train-images-idx3-ubyte[.gz] in {empty}" in _one_line_error(capsys)
    with pytest.raises(InputError, match=r"needs data: svhn: no train_32x32\.mat"):
        resolve({"problem": {"kind": "svhn"}}, empty)


def test_fashion_mnist_stands_in_and_its_absence_is_explained(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(datasets_module, "FASHION_MNIST_DIR", tmp_path / "not-installed")
    status = get("cafed:fig1b").status("paper")
    assert status.startswith("needs data: fashion_mnist: no train-images-idx3-ubyte[.gz]")
    assert "apt-get install dataset-fashion-mnist" in status
    assert main(["reproduce", "cafed:fig1b"]) == 2
    assert "apt-get install dataset-fashion-mnist" in _one_line_error(capsys)
    assert data_status(("cifar10",), write_cifar_fixture(tmp_path / "c", per_batch=1)) is None


def test_mnist_from_data_dir_is_named_in_the_outputs(tmp_path):
    rng = np.random.default_rng(0)
    for prefix, n in (("train", 400), ("t10k", 100)):
        write_idx(
            tmp_path / f"{prefix}-images-idx3-ubyte.gz",
            rng.integers(0, 256, (n, 28, 28)).astype(np.uint8),
        )
        write_idx(tmp_path / f"{prefix}-labels-idx1-ubyte", rng.integers(0, 10, n).astype(np.uint8))
    tables, label = resolved_config(get("cafed:fig1b"), "paper", "quick", tmp_path)
    assert label == f"MNIST from {tmp_path}" and tables["problem"]["kind"] == "mnist"
    assert build({**tables, "device": "cpu"}).problem.data.n_features == 784
    if datasets_module.missing("fashion_mnist") is None:
        tables, label = resolved_config(get("cafed:fig1b"), "paper", "quick")
        assert tables["problem"]["kind"] == "fashion_mnist" and "data_dir" not in tables["problem"]
        assert label.startswith("Fashion-MNIST standing in for MNIST")


@pytest.mark.slow
def test_fig1c_quick_end_to_end_on_a_cifar_fixture(capsys, tmp_path):
    fixture = write_cifar_fixture(tmp_path / "data")
    out = tmp_path / "out"
    argv = ["reproduce", "cafed:fig1c", "--quick", "--seeds", "2", "--data-dir", str(fixture)]
    assert main([*argv, "--out", str(out), "--json"]) == 0, capsys.readouterr().err
    record = json.loads(capsys.readouterr().out)
    assert record["id"] == "cafed:fig1c" and record["mode"] == "quick"
    assert record["data"] == f"CIFAR-10 from {fixture}"
    assert record["config"]["problem"]["kind"] == "cifar10"
    assert set(record["measured"]) == {"ca_fed", "adafed"} and record["checks"]
    assert is_complete(out) and (out / "accuracy.png").read_bytes()[:4] == b"\x89PNG"
    assert f"CIFAR-10 from {fixture}" in (out / "accuracy.csv").read_text().splitlines()[0]
    assert f"CIFAR-10 from {fixture}" in (out / "summary.md").read_text()


def test_listing_shortens_the_data_reason():
    from fltheory.cli.reproduce_cmd import _short

    status = get("cafed:fig1c").status("paper")
    assert _short(status) == "needs data: cifar10 (--data-dir)"
    assert _short("needs: a, b, c") == "needs: a, b (+1)"
