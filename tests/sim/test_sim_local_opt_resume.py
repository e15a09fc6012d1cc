"""A run with the authors' local mechanics (local epochs, persistent local momentum buffers,
torch default init) and SCAFFOLD's control variates, stopped after some round and resumed, writes
the same bytes as one never stopped: the local buffers travel in the checkpoint."""

import numpy as np
import pytest

from fltheory.sim import checkpoint as ck
from fltheory.sim.config import build
from fltheory.sim.outfiles import RESULT_FILES
from fltheory.sim.rundir import simulate_into

ROUNDS = 6
RAW = {
    "seed": 2,
    "seeds": 2,
    "dtype": "float64",
    "device": "cpu",
    "run": {
        "rounds": ROUNDS,
        "batch_size": 6,
        "local_epochs": 1,
        "local_momentum": 0.9,
        "local_weight_decay": 1e-2,
        "init": "torch_default",
        "lr": 0.2,
    },
    "problem": {
        "kind": "synthetic_leaf",
        "gamma": 0.5,
        "delta": 0.5,
        "n_clients": 6,
        "n_features": 4,
        "n_classes": 3,
        "max_samples": 30,
        "ridge": 0.0,
    },
    "availability": {"kind": "ca_fed"},
    "algorithms": [{"name": "scaffold"}, {"name": "fedpbc"}],
}
COMPARED = [name for name in RESULT_FILES if name != "timing.json"]


class Stop(Exception):
    """Stands for a crash after some round."""


def _stop_after(n: int):
    seen: list[int] = []

    def progress(label: str, done: int) -> None:
        seen.append(done)
        if len(seen) == n:
            raise Stop

    return progress


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("whole") / "out"
    simulate_into(build(RAW), out, checkpoint_every=0)
    return out


@pytest.mark.parametrize("stop_at", [3, ROUNDS + 4])
def test_resume_with_local_buffers_is_bit_exact(tmp_path, uninterrupted, stop_at):
    out = tmp_path / "out"
    with pytest.raises(Stop):
        simulate_into(build(RAW), out, checkpoint_every=2, progress=_stop_after(stop_at))
    saved = ck._load(out / ck.CHECKPOINT_FOLDER / "current.npz")
    assert saved["local_buf"].shape == (2, 6, 15) and np.abs(saved["local_buf"]).max() > 0
    assert "memory/tensor/ci" in saved or "memory/tensor/x" in saved
    simulate_into(build(RAW), out, resume=True, checkpoint_every=2)
    for name in COMPARED:
        assert (out / name).read_bytes() == (uninterrupted / name).read_bytes(), name


def test_a_lost_buffer_changes_the_result(tmp_path, uninterrupted, monkeypatch):
    """The comparison above can fail: resuming with zeroed buffers gives other bytes."""
    out = tmp_path / "out"
    with pytest.raises(Stop):
        simulate_into(build(RAW), out, checkpoint_every=2, progress=_stop_after(3))
    restore = ck.restore_state

    def forgetful(*args, **kwargs):
        st = restore(*args, **kwargs)
        st.local_buf = st.local_buf * 0
        return st

    monkeypatch.setattr("fltheory.sim.config.run.restore_state", forgetful)
    simulate_into(build(RAW), out, resume=True, checkpoint_every=2)
    assert (out / "rounds.csv").read_bytes() != (uninterrupted / "rounds.csv").read_bytes()
