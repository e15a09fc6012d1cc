"""The numbers of the report against independent computations, and the layout of report.json."""

import html
import math

import numpy as np
import pytest

from fltheory.markov.two_state import two_state_matrix
from fltheory.report.data import term_shares
from fltheory.report.fmt import human, power_of_ten

SECTIONS = ("model", "bounds", "weights", "limit", "simulation", "claims")


def _kron_all(pi: np.ndarray, lam2: np.ndarray) -> np.ndarray:
    P = np.ones((1, 1))
    for a, b in zip(pi, lam2, strict=True):
        P = np.kron(P, two_state_matrix(float(a), float(b)))
    return P


def test_model_constants_match_an_independent_dense_chain(small_report, small_config) -> None:
    from fltheory.markov.population import ca_fed_population

    _, _, rep = small_report
    p = small_config.population
    pop = ca_fed_population(p.n, p.g, p.nu, p.eps, seed=p.seed)
    eig = np.sort(np.abs(np.linalg.eigvals(_kron_all(pop.pi, pop.lambda2))))[::-1]
    model = rep["model"]
    assert model["slem"] == pytest.approx(eig[1], abs=1e-9)
    assert model["lambda"] == pytest.approx((1 + eig[1]) / 2, abs=1e-9)
    assert model["log2_n_states"] == pytest.approx(p.n)
    hitting = max(1 / ((1 - lam) * pi) for pi, lam in zip(pop.pi, pop.lambda2, strict=True))
    assert model["hitting_time"] == pytest.approx(hitting)
    groups = model["groups"]
    assert [g["clients"] for g in groups] == [2, 2, 2, 2]
    assert [g["pi"] for g in groups] == pytest.approx([0.9, 0.9, 0.1, 0.1])


def test_bounds_match_the_facade_and_shares_sum_to_one(small_report, small_config) -> None:
    from fltheory.api import bound_report
    from fltheory.report.data import client_optima, population_of, problem_setup

    _, _, rep = small_report
    pop = population_of(small_config)
    setup = problem_setup(small_config, pop, client_optima(small_config, pop))
    direct = bound_report(setup)
    for name, bound in direct.results.items():
        entry = rep["bounds"][name]
        assert entry["log10_value"] == pytest.approx(bound.log_value / math.log(10))
        assert entry["vacuous"] == bound.vacuous
    # The exact bias, independently: F(w_B*) − F* for ½‖w − u_k‖², uniform α, q = α.
    u = client_optima(small_config, pop)
    p = pop.pi / pop.pi.sum()
    w_b, w_star = p @ u, u.mean(axis=0)
    exact = 0.5 * np.mean(np.sum((w_b - u) ** 2, 1)) - 0.5 * np.mean(np.sum((w_star - u) ** 2, 1))
    assert rep["bounds"]["theorem1"]["exact"] == pytest.approx(exact, rel=1e-9)
    for name in ("theorem2", "total"):
        shares = [t["share"] for t in rep["bounds"][name]["terms"].values()]
        assert sum(shares) == pytest.approx(1.0)
        dominant = rep["bounds"][name]["dominant_term"]
        assert rep["bounds"][name]["terms"][dominant]["share"] == max(shares)


def test_term_shares_survive_overflow() -> None:
    shares = term_shares({"a": math.inf, "b": 1.0}, {"a": 800.0, "b": 0.0}, ["a", "b"])
    assert shares["a"]["share"] == 1.0 and shares["b"]["share"] == 0.0
    assert shares["a"]["log10"] == pytest.approx(800 / math.log(10))


def test_weights_sum_to_q_by_group(small_report) -> None:
    _, _, rep = small_report
    w = rep["weights"]
    assert sum(w["config_q_by_group"]) == pytest.approx(1.0)
    for row in w["problem14"]:
        assert sum(row["q_by_group"]) == pytest.approx(1.0, abs=1e-6)
    assert [row["kappa2"] for row in w["problem14"]] == [0.01, 1.0, 100.0]
    # Guideline C: α/π normalised, by group, with π = 0.9, 0.9, 0.1, 0.1 and two clients each.
    c = np.array([2 / 0.9, 2 / 0.9, 2 / 0.1, 2 / 0.1])
    assert w["guidelines"]["C_unbiased_q_by_group"] == pytest.approx(c / c.sum())


def test_bernoulli_limit_matches_a_fixed_point(small_report, small_config) -> None:
    """Fixed q = α, exact local steps: E[x'] = x + η̄ Σ_k π_k α_k γ (u_k − x), so the limit is
    the π-weighted mean of the u_k."""
    from fltheory.report.data import client_optima, population_of

    _, _, rep = small_report
    pop = population_of(small_config)
    u = client_optima(small_config, pop)
    expected = (pop.pi / pop.pi.sum()) @ u
    assert rep["limit"]["bernoulli_fixed_q"]["limit"] == pytest.approx(expected, abs=1e-9)
    assert rep["limit"]["bernoulli_fedavg_mean"]["optimum"] == pytest.approx(u.mean(0))


def test_simulation_agrees_with_the_exact_limit(small_report) -> None:
    _, _, rep = small_report
    sim = rep["simulation"]
    gap = np.abs(np.array(sim["time_average"]) - np.array(sim["exact_limit"]))
    assert np.all(gap <= 2.0 * np.array(sim["time_average_ci95"]))
    assert sim["distance_time_average_to_limit"] < 0.2
    assert sim["bias"]["theorem1_holds"] and sim["bias"]["theorem3_holds"]
    env = sim["lemma16_envelope"]
    assert env["holds_from_T_P"] and env["n_states"] == 16


def test_claims_read_from_the_stored_results(small_report) -> None:
    import json

    from fltheory.report.data import CHECK_RESULTS

    _, _, rep = small_report
    stored = {c["id"]: c["verdict"] for c in json.loads(CHECK_RESULTS.read_text())["claims"]}
    rows = rep["claims"]["claims"]
    assert rows and all(stored[r["id"]] == r["verdict"] for r in rows)
    assert "not re-run" in rep["claims"]["note"]


def test_report_json_layout(small_report) -> None:
    out, result, rep = small_report
    assert rep["schema_version"] == 1
    for key in (*SECTIONS, "summary", "figures", "config", "provenance", "mode", "timing"):
        assert key in rep, key
    assert rep["mode"] == "full"
    assert rep["provenance"]["config_hash"]
    for path in rep["figures"].values():
        assert (out / path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert set(result["paths"]) == {"html", "md", "json"}
    assert (out / "manifest.json").is_file()


def test_html_is_self_contained_and_markdown_has_the_same_sections(small_report) -> None:
    from fltheory.report.sections import TITLES

    out, _, rep = small_report
    page = (out / "report.html").read_text(encoding="utf-8")
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "http://" not in page and "https://" not in page
    assert page.count("data:image/png;base64,") == len(rep["figures"])
    for title in TITLES.values():
        assert html.escape(title, quote=True) in page and f"## {title}" in md
    for line in rep["summary"]:
        assert line in md
    assert "e+" not in " ".join(rep["summary"])


def test_human_numbers() -> None:
    assert human(1.2e55) == "1.2 × 10⁵⁵"
    assert human(-3.4e-12) == "−3.4 × 10⁻¹²"
    assert power_of_ten(1000.5).startswith("3.16 × 10¹⁰⁰⁰")
