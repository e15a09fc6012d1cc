"""The Python API returns what the CLI prints: for every command, ``--json`` is exactly the
façade's ``to_dict()`` (through the same ``to_jsonable``), timings aside."""

import json
from pathlib import Path

import numpy as np
import pytest

import fltheory
from fltheory.cli.app import main
from fltheory.errors import InputError
from fltheory.jsonable import to_jsonable
from fltheory.markov import ClusteredChain, MarkovChain, ProductChain

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
#: Wall-clock fields, different in every run.
TIMINGS = {"solve_time", "seconds"}


def _drop_timings(value):
    if isinstance(value, dict):
        return {k: _drop_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [_drop_timings(v) for v in value]
    return value


def _cli_json(capsys, argv: list[str]) -> dict:
    assert main([*argv, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def assert_same_json(cli: dict, report) -> None:
    payload = to_jsonable(report.to_dict())
    assert list(cli) == list(payload)  # same keys, same order
    assert _drop_timings(cli) == _drop_timings(payload)


@pytest.mark.parametrize(
    ("argv", "chain"),
    [
        (["--client", "0.9:0.5", "--client", "0.1:0.9"], ProductChain([0.9, 0.1], [0.5, 0.9])),
        (
            ["--matrix", str(EXAMPLES / "chain_sticky3.csv")],
            MarkovChain(np.loadtxt(EXAMPLES / "chain_sticky3.csv", delimiter=",")),
        ),
    ],
    ids=["product", "dense"],
)
def test_chain_report_is_the_chain_json(capsys, argv, chain):
    assert_same_json(_cli_json(capsys, ["chain", *argv]), fltheory.chain_report(chain))


def test_chain_report_of_a_clustered_chain_lists_its_clusters():
    report = fltheory.chain_report(ClusteredChain([0.9, 0.2], [0.5, 0.0], [0, 0, 1]))
    assert report.n_clusters == 2 and report.cluster_of_client.tolist() == [0, 0, 1]
    assert report.dense is False and report.T_entrywise is None
    assert {"n_clusters", "cluster_lambda2"} <= report.to_dict().keys()


def test_chain_report_keeps_warnings_as_data():
    report = fltheory.chain_report(MarkovChain([[0.3, 0.3, 0.4], [0.3, 0.5, 0.2], [0.1, 0.3, 0.6]]))
    assert isinstance(report.warnings, tuple) and len(report.warnings) >= 3
    assert report.to_dict()["warnings"] == list(report.warnings)


@pytest.mark.parametrize("safe", [False, True])
def test_bound_report_is_the_bound_json(capsys, safe):
    config = EXAMPLES / "quadratic_small.toml"
    flag = ["--safe-tp"] if safe else []
    cli = _cli_json(capsys, ["bound", "--config", str(config), *flag])
    assert_same_json(cli, fltheory.bound_report(config, use_safe_T_P=safe))


def test_bound_report_takes_a_setup_as_well_as_a_path():
    from fltheory.problems import load_problem_config

    setup = load_problem_config(EXAMPLES / "quadratic_small.toml")
    report = fltheory.bound_report(setup)
    assert report.setup is setup
    assert report.theorem2.value == fltheory.bound_report(setup.source).theorem2.value


@pytest.mark.parametrize(
    ("config", "options", "kwargs"),
    [
        ("ca_fed_population.toml", [], {}),  # a κ̄² sweep from the file
        ("quadratic_small.toml", ["--kappa2", "3"], {"kappa2": 3.0}),
        ("quadratic_small.toml", ["--problem", "212"], {"problem": "212"}),
        (
            "quadratic_small.toml",
            ["--problem", "212", "--method", "cvxpy"],
            {"problem": "212", "method": "cvxpy"},
        ),
    ],
    ids=["sweep", "kappa2", "212", "212-cvxpy"],
)
def test_optimal_weights_is_the_optimize_json(capsys, config, options, kwargs):
    cli = _cli_json(capsys, ["optimize-q", "--config", str(EXAMPLES / config), *options])
    assert_same_json(cli, fltheory.optimal_weights(EXAMPLES / config, **kwargs))


def test_optimal_weights_sweep_has_one_result_per_kappa2():
    report = fltheory.optimal_weights(EXAMPLES / "ca_fed_population.toml")
    assert report.kappa2 == (0.01, 0.1, 1.0, 10.0, 100.0)
    assert len(report.results) == len(report.objective_at_config_q) == 5
    assert report.result is report.results[0]


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"problem": "13"}, "problem must be 14 or 212"),
        ({"problem": "212", "kappa2": 1.0}, "kappa2 applies to problem 14 only"),
        ({"method": "cvxpy"}, "method applies to problem 212"),
        ({"problem": "212", "method": "newton"}, "method must be one of"),
        ({"kappa2": -1.0}, "kappa2"),
    ],
)
def test_optimal_weights_refuses_bad_options(kwargs, fragment):
    with pytest.raises(InputError, match=fragment):
        fltheory.optimal_weights(EXAMPLES / "quadratic_small.toml", **kwargs)


U = np.loadtxt(EXAMPLES / "u_ten_clients.csv", delimiter=",", ndmin=2)
P_LIST = "0.2,0.2,0.2,0.2,0.2,0.9,0.9,0.9,0.9,0.9"
P = np.array([0.2] * 5 + [0.9] * 5)


@pytest.mark.parametrize(
    ("options", "kwargs"),
    [
        ([], {}),
        (
            ["--q", "1,2,1,2,1,2,1,2,1,2", "--alpha", "1,1,1,1,1,2,2,2,2,2"],
            {"q": np.tile([1.0, 2.0], 5), "alpha": np.repeat([1.0, 2.0], 5)},
        ),
        (
            ["--no-normalise", "--lr", "0.5", "--local-steps", "3", "--server-lr", "0.8"],
            {"normalised": False, "lr": 0.5, "local_steps": 3, "server_lr": 0.8},
        ),
    ],
    ids=["fedavg", "weighted", "fixed-rule"],
)
def test_aggregation_limit_is_the_limit_json(capsys, options, kwargs):
    u = str(EXAMPLES / "u_ten_clients.csv")
    cli = _cli_json(capsys, ["limit", "--u", u, "--p", P_LIST, *options])
    assert_same_json(cli, fltheory.aggregation_limit(U, p=P, **kwargs))


def test_aggregation_limit_takes_a_chain_file_or_any_chain(capsys, tmp_path):
    u = np.array([[1.0, 0.0], [0.0, 2.0]])
    matrix, states = EXAMPLES / "chain_sticky3.csv", EXAMPLES / "chain_sticky3_states.json"
    from_file = fltheory.aggregation_limit(u, chain=matrix, states=states)
    chain = MarkovChain(np.loadtxt(matrix, delimiter=","), [[], [0], [0, 1]])
    from_chain = fltheory.aggregation_limit(u, chain=chain)
    np.testing.assert_allclose(from_file.limit, from_chain.limit, rtol=1e-12)
    assert from_file.method == from_chain.method
    np.save(tmp_path / "u.npy", u)
    cli = _cli_json(
        capsys, ["limit", "--u", str(tmp_path / "u.npy"), "--chain", str(matrix), "--states",
                 str(states)],
    )  # fmt: skip
    assert_same_json(cli, from_file)


def test_aggregation_limit_of_a_periodic_chain_file_is_its_time_average(tmp_path):
    path = tmp_path / "flip.json"
    path.write_text(json.dumps({"P": [[0, 1], [1, 0]], "state_clients": [[0], [1]]}))
    report = fltheory.aggregation_limit([[0.0], [1.0]], chain=path)
    assert report.limit.tolist() == pytest.approx([0.5])


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({}, "exactly one of p"),
        ({"p": [0.5, 0.5], "chain": ProductChain([0.5] * 2, [0.0] * 2)}, "exactly one of p"),
        ({"p": [0.5]}, "u has 2 rows"),
        ({"p": [0.5, 0.5], "states": "map.json"}, "states only applies"),
        ({"p": [0.5, 0.5], "alpha": [0.0, 0.0]}, "alpha must have a positive entry"),
    ],
)
def test_aggregation_limit_refuses_bad_input(kwargs, fragment):
    with pytest.raises(InputError, match=fragment):
        fltheory.aggregation_limit([[0.0], [1.0]], **kwargs)


TINY = {
    "name": "tiny",
    "seed": 0,
    "seeds": 3,
    "device": "cpu",
    "dtype": "float64",
    "run": {"rounds": 6, "local_steps": 2, "eval_every": 2, "lr": 0.1},
    "problem": {"kind": "fedpbc_quadratic", "n_clients": 5, "dim": 3},
    "availability": {"kind": "bernoulli", "p_groups": [0.2, 0.9]},
    "algorithms": [{"name": "fedavg"}, {"name": "unbiased"}],
}
TINY_TOML = """name = "tiny"
seed = 0
seeds = 3
device = "cpu"
dtype = "float64"
[run]
rounds = 6
local_steps = 2
eval_every = 2
lr = 0.1
[problem]
kind = "fedpbc_quadratic"
n_clients = 5
dim = 3
[availability]
kind = "bernoulli"
p_groups = [0.2, 0.9]
[[algorithms]]
name = "fedavg"
[[algorithms]]
name = "unbiased"
"""


def test_simulate_is_the_simulate_json(capsys, tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY_TOML)
    cli = _cli_json(capsys, ["simulate", "--config", str(path), "--seeds", "2"])
    assert_same_json(cli, fltheory.simulate(path, seeds=2))
    assert_same_json(cli, fltheory.simulate(TINY, seeds=2))  # the same tables as a dict


def test_simulate_reports_progress_with_the_number_of_rounds():
    calls: list[tuple[str, int, int]] = []
    report = fltheory.simulate(TINY, seeds=1, progress=lambda *call: calls.append(call))
    assert calls[-1] == ("unbiased", 6, 6) and len(calls) == 12
    assert [run.label for run in report.runs] == ["fedavg", "unbiased"]
    assert report.config.seeds == 1


def test_the_cli_output_files_come_from_the_report(tmp_path, capsys):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY_TOML)
    assert main(["simulate", "--config", str(path), "--out", str(tmp_path / "out")]) == 0
    saved = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert saved["provenance"]["config_file"] == str(path) and saved["summary"]["name"] == "tiny"
    assert "results written to" in capsys.readouterr().out


def test_simulate_into_a_directory_keeps_a_complete_result(tmp_path):
    out = tmp_path / "out"
    first = fltheory.simulate(TINY, seeds=2, out=out, checkpoint_every=1)
    assert first.runs and (out / "manifest.json").is_file()
    kept = fltheory.simulate(TINY, seeds=2, out=out, resume=True)  # nothing is run again
    assert (
        kept.runs == () and kept.summary["algorithms"].keys() == first.summary["algorithms"].keys()
    )
    with pytest.raises(InputError, match="already holds a complete result"):
        fltheory.simulate(TINY, seeds=2, out=out)
    replaced = fltheory.simulate(TINY, seeds=2, out=out, overwrite=True)
    assert replaced.summary["algorithms"] == {
        label: {**entry, "seconds": replaced.summary["algorithms"][label]["seconds"]}
        for label, entry in first.summary["algorithms"].items()
    }
