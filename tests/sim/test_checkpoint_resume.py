"""Checkpoints: a run stopped after any round and resumed writes the same bytes as one that was
never stopped; the npz holds the evaluated models; checkpoints of another run are refused."""

import csv
import json

import numpy as np
import pytest
import torch

from fltheory.atomic import STATUS_RUNNING, is_complete, read_manifest
from fltheory.errors import InputError
from fltheory.sim import checkpoint as ck
from fltheory.sim.config import build
from fltheory.sim.outfiles import CHECKPOINT_FOLDER, RESULT_FILES
from fltheory.sim.rundir import simulate_into

ROUNDS = 9
# Every kind of state the engine carries: weight-rule state (CA-Fed's loss filter, F3AST's
# rates), per-client memory (FedPBC, MIFA, FedAR, FedVARP), running Bayesian estimates,
# minibatch plans and FedAvg(S)'s sampling keys, server momentum.
RAW = {
    "seed": 3,
    "seeds": 2,
    "dtype": "float64",
    "device": "cpu",
    "run": {"rounds": ROUNDS, "local_steps": 2, "batch_size": 4, "lr": 0.2, "eval_every": 2},
    "problem": {
        "kind": "synthetic_leaf",
        "gamma": 0.5,
        "delta": 0.5,
        "n_clients": 8,
        "n_features": 5,
        "n_classes": 3,
        "max_samples": 60,
    },
    "availability": {"kind": "ca_fed"},
    "algorithms": [
        {"name": "ca_fed", "kappa2": 0.5, "estimator": "bayesian"},
        {"name": "f3ast", "k": 3, "momentum": 0.5},
        {"name": "fedpbc"},
        {"name": "mifa"},
        {"name": "fedar"},
        {"name": "fedvarp"},
        {"name": "fedavg_sampled", "s": 3},
    ],
}
TOTAL = ROUNDS * len(RAW["algorithms"])
COMPARED = [name for name in RESULT_FILES if name != "timing.json"]


class Stop(Exception):
    """Stands for a crash after some round."""


def _ticker(stop_at: int | None, seen: list[int]):
    def progress(label: str, done: int) -> None:
        seen.append(done)
        if len(seen) == stop_at:
            raise Stop

    return progress


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("reference") / "out"
    simulate_into(build(RAW), out, checkpoint_every=0)
    return out


@pytest.mark.parametrize("stop_at", [1, 4, ROUNDS + 5, 3 * ROUNDS, TOTAL - 1])
def test_a_stopped_run_resumes_to_the_same_bytes(tmp_path, reference, stop_at):
    out = tmp_path / "out"
    with pytest.raises(Stop):
        simulate_into(build(RAW), out, checkpoint_every=3, progress=_ticker(stop_at, []))
    manifest = read_manifest(out)
    assert manifest is not None and manifest["status"] == STATUS_RUNNING
    assert not is_complete(out)
    resumed: list[int] = []
    simulate_into(build(RAW), out, resume=True, checkpoint_every=3, progress=_ticker(None, resumed))
    # Finished algorithms are not run again (one tick each); the stopped one goes on from its
    # last checkpoint (a multiple of 3 rounds, none after its last round), not from round 0.
    finished = (stop_at - 1) // ROUNDS
    saved = min(stop_at - finished * ROUNDS, ROUNDS - 1) // 3 * 3
    n_algorithms = len(RAW["algorithms"])
    assert len(resumed) == finished + (ROUNDS - saved) + ROUNDS * (n_algorithms - finished - 1)
    assert is_complete(out) and not (out / CHECKPOINT_FOLDER).exists()
    for name in COMPARED:
        assert (out / name).read_bytes() == (reference / name).read_bytes(), name


def test_the_npz_holds_the_evaluated_models(reference):
    """The stored server models (and FedPBC's client mean) give back rounds.csv's objective."""
    cfg = build(RAW)
    arrays = np.load(reference / "clients.npz")
    with (reference / "rounds.csv").open() as handle:
        rows = [r for r in csv.DictReader(handle) if r["algorithm"] == "fedpbc"]
    rounds = arrays["fedpbc/eval_rounds"]
    assert rounds.tolist() == [2, 4, 6, 8, 9]
    for name, column in (("server", "objective"), ("client_mean", "objective_client_mean")):
        models = arrays[f"fedpbc/models/{name}"]
        assert models.shape == (2, rounds.size, cfg.problem.n_params)
        for i in range(rounds.size):
            f = cfg.problem.objective(torch.as_tensor(models[:, i])).numpy()
            stored = [float(r[column]) for r in rows if int(r["round"]) == rounds[i]]
            np.testing.assert_allclose(f, stored, rtol=1e-9)
    provenance = json.loads(str(arrays["provenance"]))
    assert provenance["config"]["run"]["local_steps"] == 2 and provenance["repetitions"] == 2


def test_provenance_in_every_result_file(reference):
    summary = json.loads((reference / "summary.json").read_text())
    schema = json.loads((reference / "rounds.schema.json").read_text())
    with (reference / "rounds.csv").open() as handle:
        header = next(csv.reader(handle))
    assert list(schema["columns"]) == header
    for record in (summary["provenance"], schema["provenance"]):
        assert record["config"]["algorithms"][0]["lr"] == 0.2  # a default, filled in
        assert len(record["config_hash"]) == 64 and record["seed"] == 3
        assert record["device"] == "cpu" and record["dtype"] == "float64"
        assert record["numpy"] == np.__version__ and record["torch"] is not None
        assert "created" not in record  # the clock stays out of the compared files
    assert "seconds" not in summary["summary"]["algorithms"]["fedpbc"]


def test_a_checkpoint_of_another_config_is_refused(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(Stop):
        simulate_into(build(RAW), out, checkpoint_every=1, progress=_ticker(3, []))
    other = {**RAW, "run": {**RAW["run"], "lr": 0.3}}
    with pytest.raises(InputError, match=r"belongs to another run .*config_hash"):
        simulate_into(build(other), out, resume=True)


def test_the_auto_policy_spends_at_most_one_twentieth(tmp_path, monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(ck.time, "perf_counter", lambda: clock[0])
    saver = ck.Checkpointer(tmp_path, every=None, rounds=100)
    assert not saver.due(1)  # not before MIN_INTERVAL
    clock[0] = ck.MIN_INTERVAL
    assert saver.due(1)

    def slow_write(path, data):  # a save that takes 0.5 s: the next one after 20 × 0.5 s
        clock[0] += 0.5

    monkeypatch.setattr(ck, "write_atomic", slow_write)
    saver._save({"current.npz": {"t": np.array(1)}})
    assert saver.save_seconds == 0.5
    clock[0] += 9.9
    assert not saver.due(2)
    clock[0] += 0.1
    assert saver.due(2) and not saver.due(100)  # never after the last round


def test_a_finished_run_waits_for_the_next_due_save(tmp_path, monkeypatch):
    """Auto policy: a finished algorithm's records are written with the next save that is due
    (never dropped: the next algorithm's state is not saved without them)."""
    from fltheory.sim.config import run_config
    from fltheory.sim.engine import initial_state

    clock = [0.0]
    monkeypatch.setattr(ck.time, "perf_counter", lambda: clock[0])
    cfg = build({**RAW, "algorithms": RAW["algorithms"][:2]})
    _, runs = run_config(cfg)
    saver = ck.Checkpointer(tmp_path, every=None, rounds=ROUNDS)
    saver.finished(0, runs[0])
    assert not (tmp_path / CHECKPOINT_FOLDER).exists()  # not due yet
    clock[0] = ck.MIN_INTERVAL
    setup = ck.Setup(cfg.problem, cfg.process, cfg.settings, cfg.seed, cfg.seeds, cfg.prior)
    spec = cfg.specs[1]
    st = initial_state(cfg.problem, setup.trace, spec, setup.knowledge(spec), setup.w0)
    st.t, saver.index = 1, 1
    saver(st)
    done, current = saver.load()
    assert len(done) == 1 and current is not None and int(current["t"]) == 1
    np.testing.assert_array_equal(done[0]["objective"], runs[0].objective)
