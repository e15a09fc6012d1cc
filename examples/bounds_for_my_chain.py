"""Worked example: bounds for my own availability chain.

Two clients whose availability is *correlated with each other* — they tend to go offline
together (a shared network), which no product of per-client chains can express. The chain is
written as a 4 × 4 transition matrix over the joint states {nobody, client 0, client 1, both},
and this script asks fltheory the questions of CA-Fed for it:

1. the chain's constants (Lemma 16: λ(P), C_P, T_P; `fltheory chain --matrix`),
2. Theorems 1–3 for a small quadratic problem on it (`fltheory bound`),
3. the optimal aggregation weights (problem 212; `fltheory optimize-q`).

Each number is cross-checked against a direct computation, so the script fails loudly if the
library and the definitions ever disagree. Run from the repository root:

    python examples/bounds_for_my_chain.py
"""

import json
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, no install

import fltheory
from fltheory.markov.io import load_chain

# Row i: the probabilities of moving from state i to each state in one round.
P = np.array(
    [
        [0.70, 0.10, 0.10, 0.10],  # nobody online: the network is down for a while
        [0.10, 0.70, 0.05, 0.15],  # client 0 only: client 0 is the more available one
        [0.30, 0.20, 0.30, 0.20],  # client 1 only
        [0.05, 0.05, 0.05, 0.85],  # both online: they stay together
    ]
)
STATES = [[], [0], [1], [0, 1]]  # which clients are available in each state

PROBLEM = """
rounds = 300
local_steps = 2
sigma = [0.5, 1.0]
alpha = "uniform"
q = [0.5, 0.5]          # equal weights: biased towards the more available client (eq. 4)

[clients]
matrix = "P.csv"
states = "states.json"

[steps]
eta1 = 0.02
power = 1.0

[problem]
u = [[1.0, 0.0], [-1.0, 0.5]]
H_diag = [[2.0, 1.0], [1.0, 3.0]]
diameter = 6.0
"""


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        np.savetxt(folder / "P.csv", P, delimiter=",")
        (folder / "states.json").write_text(json.dumps(STATES))
        (folder / "problem.toml").write_text(PROBLEM)

        # 1. The chain's constants.
        chain = load_chain(folder / "P.csv", folder / "states.json")
        report = fltheory.chain_report(chain)
        print(f"λ̄₂ = {report.slem:.4f}, λ(P) = {report.lam:.4f} (the mixing rate, eq. 229)")
        print(f"C_P = {report.C_P:.4g} (Lemma 16 constant), T_P = {report.T_P} rounds (burn-in)")
        print(f"client availability π = {np.round(report.client_availability, 4).tolist()}")

        # Independent check: ρ from the eigenvector of Pᵀ for eigenvalue 1, and λ̄₂ = the
        # second largest eigenvalue modulus.
        values, vectors = np.linalg.eig(P.T)
        rho = np.real(vectors[:, np.argmin(abs(values - 1))])
        rho /= rho.sum()
        pi = [rho[1] + rho[3], rho[2] + rho[3]]
        assert np.allclose(report.client_availability, pi, atol=1e-12)
        assert np.isclose(report.slem, sorted(abs(values))[-2], atol=1e-12)
        assert np.isclose(report.lam, (report.slem + 1) / 2)

        # 2. Theorems 1-3 for the quadratic problem on this chain.
        bounds = fltheory.bound_report(folder / "problem.toml")
        for name in ("theorem1", "theorem3", "theorem2", "total"):
            res = getattr(bounds, name)
            exact = "" if res.exact is None else f", exact {res.exact:.4g}"
            vacuous = " (vacuous)" if res.vacuous else ""
            print(f"{name} ({res.equation}): {res.value:.4g}{exact}{vacuous}")
        print(f"eq. 13 is dominated by: {bounds.theorem2.details['dominant_term']}")
        for res in (bounds.theorem1, bounds.theorem3):  # a bias bound bounds the exact bias
            assert res.exact is not None and res.value >= res.exact

        # 3. The optimal aggregation weights (problem 212, the closed form of App. E).
        weights = fltheory.optimal_weights(folder / "problem.toml", problem="212")
        q = weights.q
        print(f"q* = {np.round(q, 4).tolist()}, excluded clients {weights.result.excluded}")
        assert np.isclose(q.sum(), 1.0) and (q >= 0).all()
        p = np.asarray(pi) * q / (np.asarray(pi) @ q)  # eq. 4, computed here
        assert np.allclose(weights.result.p, p, atol=1e-9)


if __name__ == "__main__":
    main()
