"""A researcher's own setting, as issue 26 met it: three client groups of their own (office,
home, mobile), written once as an ``[availability]`` table and accepted by every command and
façade function, from files and from Python objects.

Expected values come from independent computations: the per-client (π, λ₂) written out by
hand, the chain's constants from the ``ProductChain`` of those lists, the limit from the dense
Markov limit of the same clients.
"""

import json
from pathlib import Path

import numpy as np
import pytest

import fltheory
from fltheory.cli.app import main
from fltheory.errors import InputError
from fltheory.markov import ProductChain

GROUPS = [
    {"name": "office", "count": 4, "pi": 0.85, "lambda2": 0.2},
    {"name": "home", "count": 4, "pi": 0.5, "lambda2": 0.7},
    {"name": "mobile", "count": 2, "pi": 0.15, "lambda2": 0.95},
]
TABLE = {"kind": "two_state", "groups": GROUPS}
PI = [0.85] * 4 + [0.5] * 4 + [0.15] * 2
LAMBDA2 = [0.2] * 4 + [0.7] * 4 + [0.95] * 2
U = [[1, 0], [1, 0.5], [0.8, 0], [1.2, 0.1], [0, 1], [0.1, 1], [0, 0.8], [-0.1, 1.2], [-1, -1]]
U = [*U, [-1.2, -0.8]]

AVAILABILITY_TOML = """
[availability]
kind = "two_state"
groups = [
  {name = "office", count = 4, pi = 0.85, lambda2 = 0.2},
  {name = "home", count = 4, pi = 0.5, lambda2 = 0.7},
  {name = "mobile", count = 2, pi = 0.15, lambda2 = 0.95},
]
"""

PROBLEM_TOML = f"""
rounds = 200
local_steps = 2
sigma = 1.0
[steps]
eta1 = 0.05
power = 1.0
[problem]
u = {json.dumps(U)}
diameter = 8.0
{AVAILABILITY_TOML}
"""

CLIENTS_CSV = "name,pi,lambda2,count\noffice,0.85,0.2,4\nhome,0.5,0.7,4\nmobile,0.15,0.95,2\n"

PROBLEM_DICT = {
    "rounds": 200,
    "local_steps": 2,
    "sigma": 1.0,
    "steps": {"eta1": 0.05, "power": 1.0},
    "problem": {"u": U, "diameter": 8.0},
}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {
        "problem": tmp_path / "problem.toml",
        "availability": tmp_path / "availability.toml",
        "clients": tmp_path / "clients.csv",
    }
    paths["problem"].write_text(PROBLEM_TOML)
    paths["availability"].write_text(AVAILABILITY_TOML)
    paths["clients"].write_text(CLIENTS_CSV)
    return paths


def by_hand() -> ProductChain:
    return ProductChain(PI, LAMBDA2)


def test_the_three_forms_give_one_chain(files):
    expected = fltheory.chain_report(by_hand())
    forms = [TABLE, files["availability"], files["clients"], files["problem"], by_hand()]
    for form in forms:
        report = fltheory.chain_report(form)
        assert report.n_clients == 10
        np.testing.assert_allclose(report.client_availability, PI)
        assert report.lam == expected.lam and report.log_C_P == expected.log_C_P


def test_groups_keep_their_names_and_counts(files):
    from fltheory.api.availability import availability_setting

    for form in (TABLE, files["availability"], files["clients"]):
        setting = availability_setting(form)
        assert setting.group_names == ("office", "home", "mobile")
        assert np.bincount(setting.labels).tolist() == [4, 4, 2]
    text = str(availability_setting(TABLE))
    assert "office  4        0.85  0.2" in text and "mobile  2        0.15  0.95" in text


def test_bound_report_from_a_file_a_dict_and_a_chain_object(files):
    from_file = fltheory.bound_report(files["problem"])
    from_dict = fltheory.bound_report(PROBLEM_DICT, availability=TABLE)
    from_object = fltheory.bound_report(PROBLEM_DICT, availability=by_hand())
    for report in (from_dict, from_object):
        assert report.total.log_value == from_file.total.log_value
        np.testing.assert_allclose(report.setup.pi, PI)
    # H defaults to the identity (the file gives no Hessian): w* is the mean of the u_k
    np.testing.assert_allclose(from_file.setup.problem.w_star, np.mean(U, axis=0))
    # no q in the file: said where the answer is
    assert from_file.setup.q_default == "q = α/π (default: unbiased)"
    assert from_file.to_dict()["setup"]["q_default"] == "q = α/π (default: unbiased)"
    assert "q = α/π (default: unbiased)" in str(from_file)
    assert list(from_file.setup.groups) == ["office", "home", "mobile"]


def test_optimal_weights_take_the_problem_as_number_or_text(files):
    a = fltheory.optimal_weights(files["problem"], problem=212)
    b = fltheory.optimal_weights(PROBLEM_DICT, availability=TABLE, problem="212")
    np.testing.assert_allclose(a.q, b.q)
    assert a.status == a.result.status and a.objective == a.result.objective  # --json keys
    assert "problem 212" in str(a) and "(excluded)" in str(a)


def test_aggregation_limit_takes_the_table(files):
    expected = fltheory.aggregation_limit(U, chain=by_hand(), normalised=False)
    for form in (TABLE, files["availability"], files["clients"]):
        got = fltheory.aggregation_limit(U, chain=form, normalised=False)
        np.testing.assert_allclose(got.limit, expected.limit, rtol=0, atol=1e-12)
    with pytest.raises(InputError, match="the groups count 10 clients, the setting has 3"):
        fltheory.aggregation_limit(U[:3], chain=TABLE)


def test_records_expose_their_json_keys_and_print_as_tables():
    from fltheory.jsonable import to_jsonable

    report = fltheory.chain_report(TABLE)
    for key, value in report.to_dict().items():
        if key != "mixing_time_bounds":  # the object, whose fields the JSON lists
            assert to_jsonable(getattr(report, key)) == to_jsonable(value), key
    assert getattr(report, "lambda") == report.lam
    limit = fltheory.aggregation_limit(U, chain=TABLE)
    weights = fltheory.optimal_weights(PROBLEM_DICT, availability=TABLE, kappa2=1.0)
    for record in (limit, weights):
        assert all(hasattr(record, key) for key in record.to_dict())
    text = str(report)
    assert text.startswith("availability chain") and "ChainReport(" not in text
    assert "hitting_time" in text and "lambda" in text


def test_the_cli_reads_the_same_files(files, capsys):
    assert main(["bound", "--config", str(files["problem"]), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["setup"]["n_clients"] == 10
    assert main(["optimize-q", "--config", str(files["problem"]), "--problem", "212"]) == 0
    assert main(["chain", "--clients-file", str(files["clients"]), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["n_clients"] == 10
    assert main(["chain", "--config", str(files["availability"]), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["n_clients"] == 10
    u = files["problem"].parent / "u.csv"
    u.write_text("\n".join(",".join(str(x) for x in row) for row in U) + "\n")
    expected = fltheory.aggregation_limit(U, chain=by_hand()).limit
    for chain in (files["availability"], files["clients"], files["problem"]):
        assert main(["limit", "--u", str(u), "--chain", str(chain), "--json"]) == 0
        limit = json.loads(capsys.readouterr().out)["limit"]
        np.testing.assert_allclose(limit, expected, atol=1e-12)


def test_a_mismatch_of_counts_is_refused(tmp_path):
    bad = PROBLEM_TOML.replace("count = 2", "count = 3")
    path = tmp_path / "bad.toml"
    path.write_text(bad)
    with pytest.raises(InputError, match="the groups count 11 clients, the problem has 10"):
        fltheory.bound_report(path)


def test_simulation_accepts_the_groups_and_reports_them(files):
    report = fltheory.simulate(
        {
            "run": {"rounds": 3},
            "device": "cpu",
            "problem": {"kind": "quadratic", "u": U},
            "availability": TABLE,
            "algorithms": [{"name": "fedavg"}],
        }
    )
    assert report.summary["clients"] == 10
    groups = report.summary["algorithms"]["fedavg"]
    assert "office" in json.dumps(groups) and "mobile" in json.dumps(groups)
    other = fltheory.simulate(
        {
            "run": {"rounds": 3},
            "device": "cpu",
            "problem": {"kind": "quadratic", "u": U},
            "availability": {"kind": "bernoulli", "p": 1.0},
            "algorithms": [{"name": "fedavg"}],
        },
        availability=by_hand(),
    )
    assert other.config.resolved["availability"]["kind"] == "two_state"


def test_the_theory_side_of_the_table_loads_no_torch(files):
    import subprocess
    import sys

    code = (
        "import sys, fltheory\n"
        f"fltheory.bound_report({str(files['problem'])!r})\n"
        f"fltheory.chain_report({str(files['clients'])!r})\n"
        "print('torch' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "False"


def test_a_sweep_varies_a_group_of_the_base_config(tmp_path):
    from fltheory.sweep.spec import load_sweep, runs

    base = tmp_path / "base.toml"
    base.write_text(
        f'[run]\nrounds = 2\n[problem]\nkind = "quadratic"\nu = {json.dumps(U)}\n'
        f'{AVAILABILITY_TOML}\n[[algorithms]]\nname = "fedavg"\n'
    )
    sweep = tmp_path / "sweep.toml"
    sweep.write_text('base = "base.toml"\n[axes]\n"availability.groups.2.pi" = [0.1, 0.2]\n')
    planned = list(runs(load_sweep(sweep)))
    values = [r.resolved["availability"]["groups"][2]["pi"] for r in planned]
    assert values == [0.1, 0.2]
    bad = tmp_path / "bad.toml"
    bad.write_text('base = "base.toml"\n[axes]\n"availability.groups.2.count" = [5]\n')
    with pytest.raises(InputError, match="describes 13 clients, the problem has 10"):
        load_sweep(bad)


def test_a_links_table_takes_the_bernoulli_limit_for_any_number_of_clients():
    u = np.arange(60.0).reshape(60, 1)
    table = {"kind": "bernoulli", "groups": [{"count": 40, "p": 0.9}, {"count": 20, "p": 0.2}]}
    got = fltheory.aggregation_limit(u, chain=table, normalised=False)
    p = np.array([0.9] * 40 + [0.2] * 20)
    expected = fltheory.aggregation_limit(u, p=p, normalised=False)
    np.testing.assert_allclose(got.limit, expected.limit, rtol=1e-12)
    np.testing.assert_allclose(got.limit, (p / p.sum()) @ u, rtol=1e-9)  # eq. 4: ∝ π_k q_k
