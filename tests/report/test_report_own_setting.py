"""``fltheory report`` on a setting of the reader's own (issue 26, section 3): three client
groups in an ``[availability]`` table, the unbiased rule. Every section follows the reader's
weights; section 5 simulates that rule and its theory column is that rule's exact limit; zeros
print as 0; what was reduced is said in the "In short" box.

Expected values are computed here independently: the unbiased weights by hand, the exact limit
through the façade with those weights, the exact stationary gap from the limit's second moment.
"""

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fltheory.cli.app import main
from fltheory.errors import InputError
from fltheory.report.config import ReportConfig

GROUPS = [
    {"name": "office", "count": 4, "pi": 0.85, "lambda2": 0.2},
    {"name": "home", "count": 4, "pi": 0.5, "lambda2": 0.7},
    {"name": "mobile", "count": 2, "pi": 0.15, "lambda2": 0.95},
]
OWN = {
    "title": "three groups",
    "availability": {"kind": "two_state", "groups": GROUPS},
    "problem": {"weights": "unbiased", "kappa2": [1.0]},
    "simulation": {
        "rounds": 60,
        "seeds": 3,
        "leaf": False,
        "limit_clients": 5,
        "raster_rounds": 10,
    },
}


@pytest.fixture(scope="module")
def own_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    from fltheory.report.run import make_report

    out = tmp_path_factory.mktemp("own")
    make_report(ReportConfig.model_validate(OWN), out, progress=lambda message: None)
    return out, json.loads((out / "report.json").read_text(encoding="utf-8"))


def test_the_groups_are_the_readers(own_report) -> None:
    _, rep = own_report
    groups = rep["model"]["groups"]
    assert [(g["name"], g["clients"], g["pi"]) for g in groups] == [
        ("office", 4, 0.85),
        ("home", 4, 0.5),
        ("mobile", 2, 0.15),
    ]
    assert rep["model"]["kind"] == "two_state" and rep["model"]["preset"] is False
    assert rep["weights"]["group_names"] == ["office", "home", "mobile"]


def test_section_5_simulates_the_readers_rule_against_its_exact_limit(own_report) -> None:
    import fltheory

    _, rep = own_report
    sim = rep["simulation"]
    # limit_clients = 5 of 10: the first clients of each group in proportion (2, 2, 1)
    assert sim["n_clients"] == 5 and sim["clients_of_setting"] == 10
    pi = np.array([0.85, 0.85, 0.5, 0.5, 0.15])
    lam = np.array([0.2, 0.2, 0.7, 0.7, 0.95])
    q = (1 / pi) / np.sum(1 / pi)  # unbiased, α uniform, Q = 1
    np.testing.assert_allclose(sim["q"], q, rtol=1e-12)
    assert "unbiased" in sim["rule"]
    u = np.array(rep["limit"]["markov_fixed_q"]["optimum"])  # the target, for the shape only
    assert u.shape == (2,)
    # the theory column is the exact limit of that rule on that chain
    from fltheory.report.setting import client_optima, setting_of, small_setting

    cfg = ReportConfig.model_validate(OWN)
    setting = setting_of(cfg)
    u_small = client_optima(cfg, setting)[small_setting(cfg, setting).clients]
    exact = fltheory.aggregation_limit(
        u_small,
        chain=fltheory.ProductChain(pi, lam),
        q=q,
        normalised=False,
        lr=cfg.simulation.lr,
        local_steps=cfg.problem.local_steps,
    )
    np.testing.assert_allclose(sim["exact_limit"], exact.limit, atol=1e-10)
    assert sim["bias"]["exact_stationary_gap"] == pytest.approx(
        0.5 * exact.expected_sq_distance, rel=1e-9
    )
    # the simulated gap sits near its exact stationary value (seeded; a generous band)
    bias = sim["bias"]
    assert abs(bias["simulated_gap_time_average"] - bias["exact_stationary_gap"]) <= (
        3.0 * bias["simulated_gap_ci95"]
    )
    assert bias["simulated_gap_interval"][0] >= 0.0  # a non-negative gap's band is clipped
    # the unbiased rule has no bias: the exact ε_bias is 0 up to rounding
    assert abs(bias["exact"]) < 1e-12


def test_every_section_follows_the_readers_weights(own_report) -> None:
    _, rep = own_report
    w = rep["weights"]
    c = np.array([4 / 0.85, 4 / 0.5, 2 / 0.15])
    np.testing.assert_allclose(w["config_q_by_group"], c / c.sum(), rtol=1e-12)
    assert "unbiased" in w["rule"] and "unbiased" in rep["limit"]["rule"]
    # under independent links, the unbiased rule's limit is the target itself (eq. 4: p = α)
    fixed = rep["limit"]["bernoulli_fixed_q"]
    np.testing.assert_allclose(fixed["limit"], fixed["optimum"], atol=1e-12)


def test_presentation_zeros_reductions_and_notes(own_report) -> None:
    out, rep = own_report
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "−∞" not in md and "-inf" not in md
    assert any(
        line.startswith("Reduced: sections 4–5 use 5 of the 10 clients") for line in rep["summary"]
    )
    assert "first clients of every group" in md
    assert "clipped at 0" in md
    assert "vacuous: the bound exceeds the trivial bound" in md
    assert "fails the KKT check" not in md  # never a solver's own message


def test_unsolved_kappa_points_are_a_dash_with_a_footnote() -> None:
    from fltheory.report.sections import weights_section

    numbers = {
        "weights": {
            "group_names": ["a", "b"],
            "rule": "fixed q = α, eq. 3",
            "config_q_by_group": [0.5, 0.5],
            "problem14": [
                {"kappa2": 1.0, "status": "optimal", "q_by_group": [1.0, 0.0], "excluded": 1},
                {
                    "kappa2": 1e30,
                    "status": "not solved",
                    "reason": "newton at kappa2 = 1e30 fails the KKT check",
                    "q_by_group": None,
                },
            ],
            "problem212": {"q_by_group": [1.0, 0.0], "excluded": 1},
            "guidelines": {
                "A_excluded_by_problem212": ["b"],
                "B_lambda_all": 0.9,
                "B_lambda_without_correlated": None,
                "B_lambda_more_available_only": 0.6,
                "C_unbiased_q_by_group": [0.2, 0.8],
            },
        }
    }
    section = weights_section(numbers)
    table = section.tables[0]
    row = next(r for r in table.rows if "1 × 10³⁰" in r[0])
    assert row[0].endswith("*") and row[1:] == ["—", "—", "—"]
    text = " ".join(" ".join(r) for r in table.rows) + " ".join(table.notes)
    assert "newton" not in text and "fails the KKT" not in text
    assert table.notes and table.notes[0].startswith("* not solved at κ̄² = 1 × 10³⁰")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '[population]\nn = 8\n[availability]\nkind = "bernoulli"\np = [0.5, 0.5]\n',
            "give [availability] or [population]",
        ),
        (
            '[availability]\nkind = "two_state"\npi = [0.5, 0.4]\nlambda2 = [0.1, 0.2]\n'
            "[problem]\nu = [[0.0], [1.0], [2.0]]\n",
            "[problem] u has 3 rows, but [availability] describes 2 clients",
        ),
        ('[availability]\nkind = "trace"\npath = "t.csv"\n', "no stationary Markov chain"),
        ('[availability]\nkind = "ca_fed"\n', "does not fix the number of clients"),
        ('[availability]\nkind = "two_state"\npie = 0.5\n', "did you mean 'pi'"),
    ],
    ids=["both", "u rows", "trace", "no N", "near miss"],
)
def test_bad_availability_is_refused_before_any_work(tmp_path: Path, capsys, text, expected):
    (tmp_path / "t.csv").write_text("1,0\n0,1\n1,1\n")
    path = tmp_path / "report.toml"
    path.write_text(text)
    status = main(["report", "--config", str(path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and expected in err, err
    assert not (tmp_path / "out").exists()


def test_a_clients_file_is_read_beside_the_report_file(tmp_path: Path) -> None:
    from fltheory.report.config import load_report_config
    from fltheory.report.setting import setting_of

    (tmp_path / "clients.csv").write_text("name,pi,lambda2,count\na,0.9,0.1,3\nb,0.2,0.8,1\n")
    path = tmp_path / "report.toml"
    path.write_text('[availability]\nkind = "clients_csv"\npath = "clients.csv"\n')
    setting = setting_of(load_report_config(path))
    assert setting.group_names == ("a", "b") and setting.n_clients == 4
    with pytest.raises(InputError):
        setting_of(
            ReportConfig.model_validate({"availability": {"kind": "clients_csv", "path": "x"}})
        )


def test_the_python_facade_takes_a_chain_a_table_or_a_file(tmp_path: Path) -> None:
    from fltheory.markov import ProductChain
    from fltheory.report.run import as_report_config

    chain = as_report_config(None, ProductChain([0.9, 0.2], [0.5, 0.0])).availability
    assert chain == {"kind": "two_state", "pi": [0.9, 0.2], "lambda2": [0.5, 0.0]}
    table = {"kind": "two_state", "groups": GROUPS}
    assert as_report_config({"title": "t"}, table).availability == table
    path = tmp_path / "setting.toml"
    path.write_text('[availability]\nkind = "clients_csv"\npath = "c.csv"\n', encoding="utf-8")
    (tmp_path / "c.csv").write_text("pi,lambda2,count\n0.9,0.1,2\n")
    cfg = as_report_config(None, path)
    assert cfg.availability["path"] == str(tmp_path / "c.csv")  # beside the file it came from
    assert as_report_config(path).availability["kind"] == "clients_csv"  # a report file too


def test_section_6_evaluates_the_claims_on_the_setting(own_report) -> None:
    out, rep = own_report
    live = {row["id"]: row for row in rep["claims"]["live"]}
    expected = {
        "cafed:thm1-eq11",
        "cafed:thm3-eq15",
        "cafed:unbiased-zero-bias",
        "cafed:lemma16-eq5",
        "fedpbc:prop1-time-average",
    }
    assert set(live) == expected
    for row in live.values():
        assert row["holds"], row
        assert row["stored_verdict"] in ("holds", "refuted") and row["statement"]
    assert live["cafed:thm1-eq11"]["nearby"]["evaluations"] == 24
    assert live["cafed:thm1-eq11"]["nearby"]["worst_margin"] >= 0.0
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "Evaluated on this setting (live)" in md
    assert "Stored verdicts on the papers' own settings" in md


def test_a_live_margin_can_fail() -> None:
    """The margins are signed: a time average outside its band, a bound below the exact side."""
    from fltheory.report.live import _bias_margin, live_claims
    from fltheory.report.setting import setting_of

    cfg = ReportConfig.model_validate(OWN)
    setting = setting_of(cfg)
    u = np.arange(20.0).reshape(10, 2)
    alpha = np.full(10, 0.1)
    sim = {"time_average": [1.0, 0.0], "time_average_ci95": [0.1, 0.1], "exact_limit": [0, 0]}
    sim["seeds"] = 3
    rows = live_claims(setting, u, alpha, alpha, "fixed q = α, eq. 3", 32.0, sim, None)
    row = next(r for r in rows if r["id"] == "fedpbc:prop1-time-average")
    assert not row["holds"] and row["margin"] == pytest.approx(-0.9)
    # Theorem 1 at a biased q: the bound exceeds the exact bias, margin = their difference
    at = _bias_margin("eq11")(u, alpha, setting.pi, alpha)
    assert at["margin"] == pytest.approx(at["value"] - at["exact"]) and at["exact"] > 0
