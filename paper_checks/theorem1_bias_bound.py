"""Theorems 1 and 3 of CA-Fed (ToN) on random quadratic problems: do eqs. 10, 11, 15 hold?

Draws strongly convex quadratic federations (seeded), computes the exact bias error
F(w_B*) − F* and ε(w) in closed form, and compares with the bounds. Prints one line per claim
(``--json`` for one JSON object); exit status 0 when every claim holds.
"""

import sys

import numpy as np

from fltheory.bounds.theorem1 import bias_bound_chi2, total_error_at
from fltheory.bounds.theorem3 import bias_bound_tv
from fltheory.problems.quadratic import QuadraticProblem
from fltheory.rng import generator
from fltheory.testing.claims import ClaimResult, report
from fltheory.testing.problems import random_spd

N_INSTANCES = 300


def instance(seed: int) -> tuple[QuadraticProblem, np.ndarray]:
    rng = generator(seed, "paper_checks/theorem1")
    n, d = int(rng.integers(2, 9)), int(rng.integers(1, 6))
    mu = rng.uniform(0.1, 1.0)
    H = random_spd(rng, n, d, mu, mu * rng.uniform(1.0, 30.0))
    q = rng.uniform(0.0, 1.0, size=n) * (rng.random(n) > 0.2)
    q[rng.integers(n)] = 1.0
    prob = QuadraticProblem(
        rng.normal(size=(n, d)) * 3, H, rng.normal(size=n), rng.dirichlet(np.ones(n)),
        rng.uniform(0.05, 1.0, size=n), q / q.sum(),
    )  # fmt: skip
    return prob, prob.w_star + rng.normal(size=d) * 2


def main(as_json: bool) -> int:
    results = {"eq. 10": [], "eq. 11": [], "eq. 15": []}
    ratios = {"eq. 11": [], "eq. 15": []}
    for seed in range(N_INSTANCES):
        prob, w = instance(seed)
        for key, res in (
            ("eq. 10", total_error_at(prob, w)),
            ("eq. 11", bias_bound_chi2(prob)),
            ("eq. 15", bias_bound_tv(prob)),
        ):
            results[key].append(bool(res.holds))
            if key in ratios and res.exact and np.isfinite(res.value):
                ratios[key].append(res.value / res.exact)
    claims = []
    statements = {
        "eq. 10": "ε = F(w) − F* ≤ 2κ²(ε_opt + ε_bias) (Theorem 1)",
        "eq. 11": "ε_bias ≤ κ²·χ²(α‖p)·Γ (Theorem 1)",
        "eq. 15": "ε_bias ≤ 4κ²·d_TV²(α, p)·Γ′ (Theorem 3)",
    }
    for key, held in results.items():
        tight = ""
        if ratios.get(key):
            tight = (
                f"; bound/exact: min {min(ratios[key]):.3g}, median {np.median(ratios[key]):.3g}"
            )
        claims.append(
            ClaimResult(
                claim=statements[key],
                source=f"CA-Fed ToN {key}",
                expected=f"holds on all {N_INSTANCES} random quadratic instances",
                measured=f"held on {sum(held)}/{len(held)}{tight}",
                passed=all(held),
            )
        )
    return report(claims, as_json=as_json)


if __name__ == "__main__":
    sys.exit(main("--json" in sys.argv[1:]))
