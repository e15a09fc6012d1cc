"""The ``fltheory chain`` report (fltheory.api.chain.chain_report) for every chain type: its
``to_dict()`` is the ``--json`` object."""

import json
import math

import numpy as np
import pytest

from fltheory.api.chain import chain_report
from fltheory.errors import InputError
from fltheory.jsonable import to_jsonable
from fltheory.markov import ClusteredChain, MarkovChain, ProductChain
from fltheory.rng import generator

DENSE_KEYS = {
    "n_clients",
    "n_states",
    "log_n_states",
    "stationary",
    "client_availability",
    "slem",
    "lambda",
    "C_P",
    "log_C_P",
    "C_P_minimal",
    "T_P",
    "T_P_safe",
    "T_entrywise",
    "jordan_blocks",
    "relaxation_time",
    "mixing_time_bounds",
    "empirical_C_P",
    "empirical_C_P_range",
    "reversible",
    "method",
    "warnings",
}


def _two_state(a: float, b: float) -> np.ndarray:
    return np.array([[1 - a, a], [b, 1 - b]])


def test_dense_report_keys_consistency_and_json():
    # client k is active in state (s₀, s₁) iff s_k = 1; state index 2·s₀ + s₁ (np.kron order)
    P = np.kron(_two_state(0.2, 0.3), _two_state(0.05, 0.6))
    pi = np.array([0.2 / 0.5, 0.05 / 0.65])  # eq. (237): π = P01/(P01 + P10)
    r = chain_report(MarkovChain(P, [[], [1], [0], [0, 1]])).to_dict()
    assert set(r) == DENSE_KEYS
    json.dumps(to_jsonable(r), allow_nan=False)
    assert r["n_states"] == 4 and r["n_clients"] == 2 and r["method"] == "dense"
    # product chain: λ̄₂ = max |λ₂,k| = max(0.5, 0.35) (eq. 234); reversible; T_P = 0
    assert r["slem"] == pytest.approx(0.5, abs=1e-14)
    assert r["lambda"] == pytest.approx(0.75, abs=1e-14)
    assert r["relaxation_time"] == pytest.approx(2.0, rel=1e-13)
    assert r["C_P"] == pytest.approx(math.exp(r["log_C_P"]), rel=1e-15)
    assert r["C_P_minimal"] is True
    assert (r["T_P"], r["T_P_safe"], r["T_entrywise"]) == (0, 0, 0)
    assert sum(b["size"] for b in r["jordan_blocks"]) == 4
    assert r["jordan_blocks"][0] == {"eigenvalue": [1.0, 0.0], "size": 1}
    assert r["reversible"] and r["mixing_time_bounds"]["upper_valid"]
    assert r["empirical_C_P"] <= r["C_P"]
    np.testing.assert_allclose(r["client_availability"], pi, rtol=1e-14)
    assert r["warnings"] == []


def test_dense_report_on_a_defective_decimal_chain_uses_the_exact_path():
    r = chain_report(MarkovChain([[0.3, 0.3, 0.4], [0.3, 0.5, 0.2], [0.1, 0.3, 0.6]])).to_dict()
    assert r["method"] == "exact"
    assert [b["size"] for b in r["jordan_blocks"]] == [1, 2]
    assert (r["T_P"], r["T_P_safe"], r["T_entrywise"]) == (1, 3, 3)
    assert r["C_P_minimal"] is False  # a Jordan block of size 2: the chain basis is not optimised
    assert any("exact path" in w for w in r["warnings"])
    assert any("Jordan blocks" in w for w in r["warnings"])
    assert any("T_entrywise" in w for w in r["warnings"])
    assert any("not reversible" in w for w in r["warnings"])
    assert not r["mixing_time_bounds"]["upper_valid"]


def test_one_state_chain_report():
    r = chain_report(MarkovChain([[1.0]])).to_dict()
    assert r["slem"] == 0.0 and r["C_P"] == 0.0 and r["T_P"] == 0
    json.dumps(to_jsonable(r), allow_nan=False)


def test_product_report_fields() -> None:
    chain = ProductChain([0.1, 0.9, 0.5], [0.9, 0.0, -0.5])
    report = chain_report(chain).to_dict()
    assert report["n_states"] == 8 and report["jordan_blocks"] is None
    assert report["method"] == "structured" and report["warnings"] == []
    assert report["C_P_minimal"] is True
    assert report["slem"] == pytest.approx(0.9) and report["lambda"] == pytest.approx(0.95)
    assert report["hitting_time"] == pytest.approx(1 / ((1 - 0.9) * 0.1))
    assert report["relaxation_time"] == pytest.approx(10.0)
    np.testing.assert_allclose(report["stationary"], chain.stationary)
    assert report["C_P"] == pytest.approx(math.exp(report["log_C_P"]))
    bounds = report["mixing_time_bounds"]
    rho_min = 0.1 * 0.1 * 0.5
    assert bounds["upper"] == pytest.approx(math.log(1 / (0.25 * rho_min)) * 10)
    assert bounds["lower"] == pytest.approx(9 * math.log(2))
    wide = chain_report(ProductChain(np.full(13, 0.5), np.zeros(13))).to_dict()
    assert wide["stationary"] is None


def test_large_population_report() -> None:
    n = 100_000
    rng = generator(0, "tests/product/large")
    pi = rng.uniform(0.01, 0.99, n)
    report = chain_report(ProductChain(pi, rng.uniform(0.0, 0.9, n))).to_dict()
    assert math.isfinite(report["log_C_P"]) and report["stationary"] is None
    assert report["n_states"] is None and report["C_P"] is None
    assert report["C_P_minimal"] is False
    assert len(report["warnings"]) == 4  # M > 2^62, ρ not listed, C_P overflow, not searched
    assert "not searched" in report["warnings"][-1]
    same = ProductChain(np.full(n, 0.3), np.full(n, 0.5))  # one λ₂ value: nothing to search
    assert chain_report(same).to_dict()["C_P_minimal"] is True


def test_clustered_report_fields() -> None:
    c = np.arange(10)
    chain = ClusteredChain(np.where(c < 5, 0.9, 0.1), np.where(c < 5, 0.0, c / 10), c.repeat(10))
    report = chain_report(chain).to_dict()
    assert report["n_clients"] == 100 and report["n_clusters"] == 10
    assert len(report["client_availability"]) == 100 and report["stationary"] is not None
    np.testing.assert_array_equal(report["cluster_of_client"], c.repeat(10))
    assert report["hitting_time"] == pytest.approx(100.0)
    assert report["C_P"] == pytest.approx(chain.cluster_chain.C_P)


def test_unknown_chain_type_is_refused():
    with pytest.raises(InputError, match=r"must be an AvailabilityChain \(MarkovChain"):
        chain_report(object())  # type: ignore[arg-type]
