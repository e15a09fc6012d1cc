"""cafed-infocom catalog: the authors' setup runs every algorithm at the rates of the public
scripts (paper_experiments/synthetic/full_experiment.sh; MNIST run.sh), F3AST included; the
Fig. 2 judge tells a departure of the importance from α from one run's trace noise."""

import numpy as np
import pytest

from fltheory.experiments.catalog.cafed_infocom_common import authors_infocom_config
from fltheory.experiments.catalog.cafed_infocom_fig2 import (
    departure,
    fig2_judge,
)
from fltheory.experiments.model import Measurements

# (η, η̄) per algorithm as written in the scripts (spec A.6, "INFOCOM rates in the scripts").
SYNTHETIC_SCRIPT = {
    "unbiased": (0.03, 0.03),
    "f3ast_code": (0.03, 0.03),
    "adafed": (0.001, 1.0),
    "ca_fed": (0.01, 0.3),
}


def test_authors_synthetic_rates_are_the_scripts_for_every_algorithm():
    algorithms = authors_infocom_config("synthetic")["algorithms"]
    rates = {a["name"]: (a.get("lr"), a.get("server_lr")) for a in algorithms}
    assert rates == SYNTHETIC_SCRIPT


@pytest.mark.parametrize("data", ["synthetic", "mnist"])
def test_authors_f3ast_has_its_own_rates_not_the_run_default(data):
    cfg = authors_infocom_config(data)
    f3ast = next(a for a in cfg["algorithms"] if a["name"] == "f3ast_code")
    expected = (0.03, 0.03) if data == "synthetic" else (1e-3, 0.1)
    assert (f3ast["lr"], f3ast["server_lr"]) == expected
    assert (f3ast["lr"], f3ast["server_lr"]) != (cfg["run"]["lr"], cfg["run"]["server_lr"])


def _planted_importance(seeds: int = 12, rounds: int = 60, rng_seed: int = 0) -> Measurements:
    """8 clients with α uniform, 0-3 more available (π = 0.9), 4-7 less (π = 0.1), independent
    activity. Unbiased weighs the active ones α/π (E[q] = α exactly); the others double the
    weight of clients 0-3 (F3AST, AdaFed) or of 0-1 (CA-Fed), so they favour the more available."""
    rng = np.random.default_rng(rng_seed)
    pi = np.array([0.9] * 4 + [0.1] * 4)
    alpha = np.full(8, 1 / 8)
    active = rng.random((seeds, rounds, 8)) < pi
    unbiased = active * (alpha / pi)
    boost = {"f3ast": np.arange(8) < 4, "adafed": np.arange(8) < 4, "ca_fed": np.arange(8) < 2}
    weights = {"unbiased": unbiased, **{k: unbiased * (1 + b) for k, b in boost.items()}}
    groups = {
        "more available, correlated": np.arange(8) < 2,
        "more available, weakly correlated": (np.arange(8) >= 2) & (np.arange(8) < 4),
        "less available, correlated": (np.arange(8) >= 4) & (np.arange(8) < 6),
        "less available, weakly correlated": np.arange(8) >= 6,
    }
    acc = {k: np.zeros((seeds, 1)) for k in weights}
    return Measurements(
        np.array([rounds - 1]), acc, weights=weights, active=active, groups=groups, alpha=alpha
    )


def test_departure_is_zero_for_deviations_that_cancel_and_one_sided_for_a_constant_bias():
    tv, p, _ = departure(np.array([[0.2, -0.2], [-0.2, 0.2], [0.1, -0.1], [-0.1, 0.1]]))
    assert (tv, p) == (0.0, 1.0)
    # A constant deviation: every sign pattern but all-plus / all-minus averages to less.
    tv, p, _ = departure(np.tile([0.05, -0.05], (6, 1)))
    assert tv == pytest.approx(0.05) and p == pytest.approx(2 / 2**6)


def test_fig2_judge_unbiased_follows_alpha_and_the_boosted_depart():
    checks = fig2_judge(_planted_importance(), "full")
    assert [c.holds for c in checks] == [True] * 5
    assert not any(c.opposite for c in checks)
    # E[Σ_t q_k] ∝ α_k·(1 + boost_k): CA-Fed doubles clients 0-1 ⇒ shares
    # (2, 2, 1, 1, 1, 1, 1, 1)/10, a more-available share of 6/10 against α's 4/8: +0.1.
    assert checks[4].measured == pytest.approx(0.1, abs=0.03)


def test_fig2_judge_a_single_run_level_of_noise_is_not_a_departure():
    # One run's TV of Unbiased is large at this T (the old judge's 0.05 failed on it); the
    # seed mean stays within the sign-flip null.
    m = _planted_importance(rounds=20)
    shares = m.weights["unbiased"].sum(axis=1)
    shares = shares / shares.sum(axis=1, keepdims=True)
    assert (0.5 * np.abs(shares - 1 / 8).sum(axis=1)).mean() > 0.05
    assert fig2_judge(m, "full")[0].holds
