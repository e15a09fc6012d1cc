"""``[run] record_objective = false``: the training objective is skipped, nothing else changes.

Expected values come from the same config with the objective recorded (the default): the
accuracies, weights and final models must be the same bytes, the objective absent everywhere a
result shows it (RunResult, summary, rounds.csv, checkpoints), and a config without the key must
keep the resolved form, hence the hash, it had before the key existed.
"""

import csv
import io

import pytest

from fltheory.experiments.grid import without_objective
from fltheory.experiments.model import get
from fltheory.experiments.runner import resolved_config
from fltheory.provenance import config_hash
from fltheory.sim.compare import Setup
from fltheory.sim.config import build, run_config
from fltheory.sim.results import result_contents
from fltheory.sim.rundir import simulate_into
from fltheory.testing.sim import assert_engine_matches_reference

RAW = {
    "seed": 5,
    "seeds": 2,
    "dtype": "float64",
    "device": "cpu",
    "run": {"rounds": 6, "local_steps": 2, "batch_size": 4, "lr": 0.2, "eval_every": 2},
    "problem": {
        "kind": "synthetic_leaf",
        "gamma": 0.5,
        "delta": 0.5,
        "n_clients": 6,
        "n_features": 4,
        "n_classes": 3,
        "max_samples": 40,
    },
    "availability": {"kind": "ca_fed"},
    "algorithms": [{"name": "ca_fed", "kappa2": 0.5}, {"name": "fedpbc"}],
}


@pytest.fixture(scope="module")
def both():
    with_objective = run_config(build(RAW))
    without = run_config(build(without_objective(RAW)))
    return with_objective, without


def test_only_the_objective_goes(both):
    (_, full), (_, lean) = both
    for a, b in zip(full, lean, strict=True):
        assert a.objective is not None and b.objective is None
        assert a.accuracy is not None and b.accuracy is not None
        assert a.accuracy.tobytes() == b.accuracy.tobytes()
        assert a.weights.tobytes() == b.weights.tobytes()
        assert a.final_w.tobytes() == b.final_w.tobytes()
        assert sorted(k for k in a.extra if not k.startswith("objective")) == sorted(b.extra)
        for name, value in b.extra.items():
            assert value.tobytes() == a.extra[name].tobytes(), name
    assert any(k.startswith("objective_") for k in full[1].extra)  # FedPBC's client mean


def test_the_summary_and_rounds_csv_have_no_objective(both):
    _, (summary, runs) = both
    for entry in summary["algorithms"].values():
        assert "objective" not in entry and "accuracy" in entry
    files = result_contents({"seed": 5}, summary, runs)
    rows = list(csv.DictReader(io.StringIO(str(files["rounds.csv"]))))
    assert rows and all(row["objective"] == "" and row["accuracy"] != "" for row in rows)
    assert len(rows) == 2 * 2 * 3  # algorithms × seeds × evaluations: every row is written


def test_a_config_without_the_key_keeps_its_hash():
    plain = build(RAW).resolved
    assert "record_objective" not in plain["run"]
    explicit = {**RAW, "run": {**RAW["run"], "record_objective": True}}
    assert config_hash(build(explicit).resolved) == config_hash(plain)
    lean = build(without_objective(RAW)).resolved
    assert lean["run"]["record_objective"] is False
    assert config_hash(lean) != config_hash(plain)


def test_the_reference_loop_skips_it_too():
    cfg = build(without_objective(RAW))
    setup = Setup(
        cfg.problem, cfg.process, cfg.settings, cfg.seed, cfg.seeds, cfg.prior, cfg.warmup
    )
    run = assert_engine_matches_reference(setup, cfg.specs[0])
    assert run.objective is None


def test_a_resumed_run_without_objective_gives_the_same_bytes(tmp_path):
    cfg = without_objective(RAW)
    once = tmp_path / "once"
    simulate_into(build(cfg), once, checkpoint_every=0)
    stopped = tmp_path / "stopped"

    class Stop(Exception):
        pass

    def stop_after_four(label: str, done: int, seen: list[int] = []) -> None:  # noqa: B006
        seen.append(done)
        if len(seen) == 4:
            raise Stop

    with pytest.raises(Stop):
        simulate_into(build(cfg), stopped, checkpoint_every=2, progress=stop_after_four)
    simulate_into(build(cfg), stopped, resume=True, checkpoint_every=2)
    for name in ("summary.json", "rounds.csv", "clients.npz"):
        assert (stopped / name).read_bytes() == (once / name).read_bytes(), name


def test_experiments_run_without_the_objective():
    config, _ = resolved_config(get("cafed:fig1a"), "authors", "quick")
    assert config["run"]["record_objective"] is False
    sweep, _ = resolved_config(get("cafed:fig3"), "paper", "quick")
    assert isinstance(sweep, list) and sweep
    assert all(tables["run"]["record_objective"] is False for _, tables in sweep)
