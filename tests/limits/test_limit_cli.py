"""``fltheory limit``: JSON contract, the three availability sources, one-line errors."""

import json

import numpy as np
import pytest

from fltheory.cli.app import main
from fltheory.testing.limits import fedavg_weights_enumeration

U = np.array([[1.0, 0.0], [0.0, 2.0], [-1.0, 1.0]])


@pytest.fixture
def u_file(tmp_path):
    path = tmp_path / "u.npy"
    np.save(path, U)
    return path


def _run_json(capsys, argv):
    assert main(argv) == 0
    out = capsys.readouterr().out
    return json.loads(out)


def test_bernoulli_json_matches_definition(capsys, u_file):
    from fractions import Fraction

    report = _run_json(capsys, ["limit", "--u", str(u_file), "--p", "1/10,1/2,9/10", "--json"])
    assert set(report) >= {"limit", "weights", "optimum", "distance", "method"}
    w = [
        float(x)
        for x in fedavg_weights_enumeration([Fraction(1, 10), Fraction(1, 2), Fraction(9, 10)])
    ]
    assert np.allclose(report["weights"], w, rtol=1e-13)
    assert np.allclose(report["limit"], np.array(w) @ U, rtol=1e-13)
    assert np.allclose(report["optimum"], U.mean(axis=0))
    assert report["distance"] == pytest.approx(np.linalg.norm(np.array(w) @ U - U.mean(axis=0)))
    assert report["optimum_kind"].startswith("uniform")


def test_p_from_files_and_csv_u(capsys, tmp_path):
    np.savetxt(tmp_path / "u.csv", U, delimiter=",")
    (tmp_path / "p.txt").write_text("0.2\n# comment\n0.5\n0.7\n")
    np.save(tmp_path / "p.npy", np.array([0.2, 0.5, 0.7]))
    a = _run_json(
        capsys, ["limit", "--u", str(tmp_path / "u.csv"), "--p", str(tmp_path / "p.txt"), "--json"]
    )
    b = _run_json(
        capsys, ["limit", "--u", str(tmp_path / "u.csv"), "--p", str(tmp_path / "p.npy"), "--json"]
    )
    assert a["limit"] == b["limit"]


def test_weighted_alpha_and_product_chain(capsys, u_file):
    report = _run_json(
        capsys,
        ["limit", "--u", str(u_file), "--chain-clients", "0.3:0,0.5:0,0.8:0", "--q", "1,2,3",
         "--server-lr", "0.5", "--alpha", "1,1,2", "--json"],
    )  # fmt: skip
    pq = np.array([0.3, 0.5, 0.8]) * np.array([1.0, 2.0, 3.0])
    assert np.allclose(report["limit"], pq @ U / pq.sum(), rtol=1e-10)  # CA-Fed eq. 4
    assert np.allclose(report["optimum"], np.array([1, 1, 2]) @ U / 4)
    assert report["stationary_mse"] > 0
    assert report["expected_sq_distance"] == pytest.approx(
        report["stationary_mse"] + report["distance"] ** 2
    )


def test_general_chain_file_with_state_map(capsys, tmp_path, u_file):
    chain = {
        "P": [["1/2", "1/2", "0"], ["1/4", "1/4", "1/2"], ["1/3", "1/3", "1/3"]],
        "state_clients": [[0], [1, 2], []],
    }
    path = tmp_path / "chain.json"
    path.write_text(json.dumps(chain))
    report = _run_json(capsys, ["limit", "--u", str(u_file), "--chain", str(path), "--json"])
    assert sum(report["weights"]) == pytest.approx(1.0)
    assert "Markov chain" in report["method"]


def test_human_output(capsys, u_file):
    assert main(["limit", "--u", str(u_file), "--p", "0.1,0.5,0.9"]) == 0
    out = capsys.readouterr().out
    assert "E[x_t]" in out and "distance" in out


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        ([], "exactly one of"),
        (["--p", "0.5,0.5,0.5", "--chain-clients", "0.5:0,0.5:0,0.5:0"], "exactly one of"),
        (["--p", "0.5,abc,0.5"], "not a number"),
        (["--p", "0.5,0.5"], "u has 3 rows"),
        (["--p", "0.5,1.5,0.5"], "probabilities"),
        (["--chain-clients", "0.5:0,0.5"], "PI:LAMBDA2"),
        (["--chain-clients", "0.5:0,0.5:0"], "lists 2 clients"),
        (["--p", "0.5,0.5,0.5", "--states", "s.csv"], "--states only applies"),
        (["--p", "0.9,0.9,0.9", "--q", "5,5,5", "--lr", "1"], "does not contract"),
        (["--p", "0.5,0.5,0.5", "--lr", "3"], "(0, 2)"),
        (["--p", "0.5,0.5,0.5", "--alpha", "1,2"], "--alpha"),
    ],
)
def test_errors_are_one_line_exit_2(capsys, u_file, extra, fragment):
    assert main(["limit", "--u", str(u_file), *extra, "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], captured.err


def test_missing_u_file(capsys, tmp_path):
    assert main(["limit", "--u", str(tmp_path / "none.npy"), "--p", "0.5"]) == 2
    assert "not found" in capsys.readouterr().err
