"""``fltheory optimize-q``: JSON contract, optimality of what it prints, one-line errors."""

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from fltheory.bounds.theorem2 import opt_bound_coefficients
from fltheory.cli.app import main
from fltheory.problems.config import load_problem_config
from fltheory.testing.weights import simplex_reference_minimum

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
KEYS = ("status", "objective", "q", "p", "excluded", "kkt_residual")


def run_json(capsys, *args):
    assert main(["optimize-q", *args, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    return json.loads(out)


@pytest.mark.parametrize("problem", ["14", "212"])
def test_json_has_the_required_keys(capsys, problem):
    cfg = str(EXAMPLES / "constants_table.toml")
    payload = run_json(capsys, "--config", cfg, "--problem", problem)
    for key in KEYS:
        assert key in payload
    assert payload["status"] == "optimal" and payload["problem"] == problem
    assert abs(sum(payload["q"]) - 1.0) < 1e-12  # Q = Σq of the file's q
    assert payload["objective"] <= payload["objective_at_config_q"]


def test_problem_212_answer_is_the_brute_force_minimum(capsys):
    cfg = EXAMPLES / "constants_table.toml"
    payload = run_json(capsys, "--config", str(cfg), "--problem", "212")
    setup = load_problem_config(cfg)
    s, v, _, _ = opt_bound_coefficients(setup)

    def f(q):
        return (0.5 * np.sum(s * q**2) + v) / np.sum(setup.pi * q)

    ref = simplex_reference_minimum(f, setup.n_clients, setup.Q, seed=1, starts=4)
    q = np.array(payload["q"])
    assert abs(payload["objective"] - f(q)) <= 1e-12 * f(q)
    assert f(q) <= f(ref) * (1 + 1e-9)
    # SLSQP gives q only to ~√tol on this flat objective; the objective check above is sharp.
    np.testing.assert_allclose(q, ref, atol=1e-4)


def test_cvxpy_method_agrees_with_the_closed_form(capsys):
    cfg = str(EXAMPLES / "quadratic_small.toml")
    closed = run_json(capsys, "--config", cfg, "--problem", "212")
    cvx = run_json(capsys, "--config", cfg, "--problem", "212", "--method", "cvxpy")
    np.testing.assert_allclose(cvx["q"], closed["q"], atol=1e-8)
    assert closed["solver"] == "closed-form" and cvx["solver"].startswith("CLARABEL")


def test_kappa2_sweep_from_the_file_and_override(capsys):
    cfg = str(EXAMPLES / "ca_fed_population.toml")  # [optimize] kappa2 = 5 values
    payload = run_json(capsys, "--config", cfg)
    assert [e["kappa2"] for e in payload["sweep"]] == [0.01, 0.1, 1.0, 10.0, 100.0]
    one = run_json(capsys, "--config", cfg, "--kappa2", "3")
    assert one["kappa2"] == 3.0 and "sweep" not in one


def test_more_bias_weight_moves_q_towards_unbiased(capsys):
    cfg = EXAMPLES / "constants_table.toml"
    setup = load_problem_config(cfg)
    unbiased = setup.alpha / setup.pi / np.sum(setup.alpha / setup.pi) * setup.Q
    gaps = []
    for k2 in ("0.01", "1", "100", "10000"):
        q = np.array(run_json(capsys, "--config", str(cfg), "--kappa2", k2)["q"])
        gaps.append(np.max(np.abs(q - unbiased)))
    assert all(b < a for a, b in itertools.pairwise(gaps))


def test_table_output(capsys):
    assert main(["optimize-q", "--config", str(EXAMPLES / "quadratic_small.toml")]) == 0
    out = capsys.readouterr().out
    assert "q*" in out and "KKT residual" in out


@pytest.mark.parametrize(
    "args",
    [
        ["--problem", "13"],
        ["--problem", "212", "--kappa2", "1"],
        ["--problem", "14", "--method", "cvxpy"],
        ["--problem", "212", "--method", "simplex"],
        ["--kappa2", "-1"],
    ],
)
def test_bad_options_fail_with_one_line(capsys, args):
    cfg = str(EXAMPLES / "constants_table.toml")
    assert main(["optimize-q", "--config", cfg, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fltheory: error:") and err.count("\n") == 1


def test_missing_config_fails_with_one_line(capsys, tmp_path):
    assert main(["optimize-q", "--config", str(tmp_path / "nope.toml")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
