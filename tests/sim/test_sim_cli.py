"""``fltheory simulate``: JSON summary, output files, shipped examples, one-line errors."""

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from fltheory.cli.app import main
from fltheory.sim.config import load_config

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

TINY = """
name = "tiny"
seed = 3
seeds = 2
dtype = "float64"
[run]
rounds = 6
local_steps = 2
batch_size = 4
lr = 0.2
[problem]
kind = "synthetic_leaf"
gamma = 0.5
delta = 0.5
n_clients = 8
n_features = 5
n_classes = 3
max_samples = 60
[availability]
kind = "ca_fed"
[[algorithms]]
name = "unbiased"
[[algorithms]]
name = "ca_fed"
kappa2 = 0.5
estimator = "bayesian"
[[algorithms]]
name = "f3ast"
k = 3
"""


DAY_CYCLE = 'kind = "day_cycle"\np = 0.5\namplitude = 0.1\nperiod = 24'


def _write(tmp_path, text, name="c.toml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_json_summary_and_output_files(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["simulate", "--config", _write(tmp_path, TINY), "--json", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert captured.err == ""
    assert summary["seeds"] == 2 and summary["rounds"] == 6 and summary["clients"] == 8
    assert set(summary["algorithms"]) == {"unbiased", "ca_fed", "f3ast"}
    stored = json.loads((out / "summary.json").read_text())
    assert stored["summary"]["algorithms"].keys() == summary["algorithms"].keys()
    assert stored["config"]["seed"] == 3
    with (out / "rounds.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 3 * 2 * 6
    unbiased = [float(r["objective"]) for r in rows if r["algorithm"] == "unbiased"]
    assert summary["algorithms"]["unbiased"]["objective"]["time_average"] == pytest.approx(
        np.mean(unbiased), rel=1e-8
    )
    arrays = np.load(out / "clients.npz")
    assert arrays["ca_fed/weights"].shape == (2, 6, 8)
    assert arrays["ca_fed/pi_hat"].shape == (2, 6, 8)
    # Per-group weights: the four groups of the paper population, from the same arrays.
    groups = summary["algorithms"]["f3ast"]["mean_weight_by_group"]
    assert len(groups) == 4


def test_seeds_override_and_rich_table(tmp_path, capsys):
    assert main(["simulate", "--config", _write(tmp_path, TINY), "--seeds", "1"]) == 0
    captured = capsys.readouterr()
    assert "1 seeds" in captured.out and "unbiased" in captured.out


def test_same_seed_gives_identical_results(tmp_path, capsys):
    path = _write(tmp_path, TINY)
    outputs = []
    for _ in range(2):
        assert main(["simulate", "--config", path, "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        outputs.append({k: v["objective"] for k, v in result["algorithms"].items()})
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("name", ["sim_ca_fed_fig1a.toml", "sim_fedpbc_counterexample.toml"])
def test_shipped_examples_parse(name):
    cfg = load_config(EXAMPLES / name)
    assert cfg.specs and cfg.settings.rounds >= 200


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        (
            lambda t: t.replace('name = "unbiased"', 'name = "nope"'),
            "unknown algorithm 'nope' in [algorithms.0] of",
        ),
        (
            lambda t: t.replace("rounds = 6", "rounds = 6\nbogus = 1"),
            "unknown key 'bogus' in [run] of",
        ),
        (
            lambda t: t.replace("rounds = 6", 'rounds = "six"'),
            "key 'rounds' in [run] of",
        ),
        (
            lambda t: t.replace('kind = "ca_fed"', 'kind = "two_state"\npi = 0.5'),
            ": missing key 'lambda2' (give 'pi' and 'lambda2', or 'groups')",
        ),
        (lambda t: t.replace("k = 3", "k = 30"), "needs 1 <= k <= 8"),
        (lambda t: t.replace("kappa2 = 0.5", "kappa2 = -1"), "key 'kappa2' in [algorithms.1] of"),
        (lambda t: t + "\n[[", "invalid TOML"),
        (
            lambda t: t.replace('estimator = "bayesian"', 'estimator = "psychic"'),
            "key 'estimator' in [algorithms.1] of",
        ),
        (lambda t: t.replace("lr = 0.2", "lr = -0.2"), "key 'lr' in [run] of"),
        (
            lambda t: t.replace('kind = "ca_fed"', DAY_CYCLE).replace('"bayesian"', '"oracle"'),
            "does not define",
        ),
    ],
)
def test_config_errors_are_one_line_exit_2(tmp_path, capsys, edit, fragment):
    assert main(["simulate", "--config", _write(tmp_path, edit(TINY)), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fltheory: error:")
    assert fragment in lines[0]


def test_missing_config_and_bad_device(tmp_path, capsys):
    assert main(["simulate", "--config", str(tmp_path / "absent.toml")]) == 2
    assert "not found" in capsys.readouterr().err
    assert main(["simulate", "--config", _write(tmp_path, TINY), "--device", "tpu"]) == 2
    assert "device" in capsys.readouterr().err


BASE = """
seeds = 2
dtype = "float64"
[run]
rounds = 4
local_steps = 1
batch_size = 2
[problem]
{problem}
[availability]
{availability}
[[algorithms]]
name = "adafed"
estimator = "bayesian"
[[algorithms]]
name = "fedavg"
rule = "fixed"
"""


def test_zero_oracle_availability_is_refused_only_where_it_divides(tmp_path, capsys):
    (tmp_path / "t.csv").write_text("1,0\n1,0\n0,0\n")
    text = (
        'seeds = 1\n[run]\nrounds = 3\n[problem]\nkind = "fedpbc_quadratic"\nn_clients = 2\n'
        'dim = 2\n[availability]\nkind = "trace"\npath = "t.csv"\n'
        '[[algorithms]]\nname = "fedavg"\n[[algorithms]]\nname = "unbiased"\n'
    )
    assert main(["simulate", "--config", _write(tmp_path, text), "--json"]) == 2
    assert "client 1 has pi = 0" in capsys.readouterr().err


PROBLEMS = {
    "binary": 'kind = "binary_synthetic"\nn_clients = 6\nn_train = 5\nn_test = 3',
    "fedpbc": 'kind = "fedpbc_quadratic"\nn_clients = 6\ndim = 3',
    "quadratic": 'kind = "quadratic"\nu = [[0, 1], [1, 0], [2, 2], [0, 0], [1, 1], [3, 0]]\n'
    "hess = [[1, 2], [1, 1], [2, 2], [1, 3], [1, 1], [2, 1]]",
}

AVAILABILITY = {
    "two_state": 'kind = "two_state"\npi = 0.5\nlambda2 = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]',
    "clustered": 'kind = "clustered"\npi = [0.9, 0.2]\nlambda2 = [0.0, 0.5]',
    "bernoulli": 'kind = "bernoulli"\np_groups = [0.3, 0.8]',
    "noise": 'kind = "uniform_noise"\np = 0.5\nhalf_width = 0.1',
    "cycle": 'kind = "day_cycle"\np = 0.5\namplitude = 0.2\nperiod = 3\nphase = 0.25',
    "chain": 'kind = "finite_chain"\nmatrix = [[0.5, 0.5], [0.2, 0.8]]\n'
    "state_clients = [[1, 0, 1, 0, 1, 0], [0, 1, 1, 1, 0, 1]]",
    "csv": 'kind = "clients_csv"\npath = "clients.csv"',
    "trace": 'kind = "trace"\npath = "trace.csv"',
}


@pytest.mark.parametrize("problem", sorted(PROBLEMS))
@pytest.mark.parametrize("availability", sorted(AVAILABILITY))
def test_every_problem_and_availability_kind_runs(tmp_path, capsys, problem, availability):
    (tmp_path / "clients.csv").write_text("pi,lambda2\n" + "0.5,0.3\n" * 6)
    # Client 3 is never active in the trace: fine for FedAvg, which never divides by π.
    (tmp_path / "trace.csv").write_text("\n".join(["1,0,1,0,1,1", "0,1,1,0,1,0"] * 3) + "\n")
    text = BASE.format(problem=PROBLEMS[problem], availability=AVAILABILITY[availability])
    assert main(["simulate", "--config", _write(tmp_path, text), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["clients"] == 6 and set(summary["algorithms"]) == {"adafed", "fedavg"}
