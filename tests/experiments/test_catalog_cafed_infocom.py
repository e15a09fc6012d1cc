"""cafed-infocom catalog configs: the authors' setup runs every algorithm at the rates of the
public scripts (paper_experiments/synthetic/full_experiment.sh; MNIST run.sh), F3AST included."""

import pytest

from fltheory.experiments.catalog.cafed_infocom import authors_infocom_config

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
