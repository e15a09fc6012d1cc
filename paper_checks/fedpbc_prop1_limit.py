"""Proposition 1 of the FedPBC paper and its Section VI counterexample, checked exactly.

Claims: (1) the subset-sum formula equals the definition E[1{i∈A}/|A| | A ≠ ∅] (exact
rationals); (2) on the counterexample (m = 100, u_i ~ N((i/1000)1, 0.01 I) in R^100, s = 30,
η = 3e-4) FedAvg's limit misses x* iff p₀ ≠ p₁; (3) the limit does not depend on η, s;
(4) a seeded simulation of FedAvg agrees with the limit (±5 standard errors over runs) while
the iterate itself keeps fluctuating — the limit is one of E[x_t], not of x_t; (5) FedPBC's
expected average model is x* whatever p₀, p₁. Exit status 0 when every claim holds.
"""

import sys
from fractions import Fraction

import numpy as np

from fltheory.limits.aggregation import FEDAVG, bernoulli_limit
from fltheory.limits.fedpbc import fedpbc_limit
from fltheory.limits.local import local_gain
from fltheory.limits.subset_sum import fedavg_weights_exact
from fltheory.rng import generator
from fltheory.testing.claims import ClaimResult, report
from fltheory.testing.limits import (
    bernoulli_sampler,
    fedavg_weights_enumeration,
    simulate_isotropic,
)

SOURCE = "FedPBC paper, Prop. 1 and Section VI"
LR, STEPS = 3e-4, 30
PAIRS = [(0.1, 0.9), (0.5, 0.5), (0.9, 0.1), (0.3, 0.7), (0.05, 0.05)]


def counterexample() -> np.ndarray:
    rng = generator(0, "paper_checks/fedpbc-counterexample")
    means = (np.arange(1, 101) / 1000.0)[:, None] * np.ones((1, 100))
    return means + 0.1 * rng.normal(size=(100, 100))


def link_probabilities(p0: float, p1: float) -> np.ndarray:
    return np.repeat([p0, p1], 50)


def claim_formula() -> ClaimResult:
    rng = generator(1, "paper_checks/prop1-rationals")
    agree = 0
    for _ in range(100):
        m = int(rng.integers(1, 8))
        p = [Fraction(int(rng.integers(1, 20)), 20) for _ in range(m)]
        agree += fedavg_weights_exact(p) == fedavg_weights_enumeration(p)
    return ClaimResult(
        "subset-sum form of Prop. 1 = E[1{i∈A}/|A| | A ≠ ∅]", SOURCE,
        "exact equality on 100 random rational instances", f"{agree}/100 equal", agree == 100,
    )  # fmt: skip


def claim_bias(u: np.ndarray) -> ClaimResult:
    x_star = u.mean(axis=0)
    lines, ok = [], True
    for p0, p1 in PAIRS:
        dist = bernoulli_limit(link_probabilities(p0, p1), u, lr=LR, local_steps=STEPS).distance(
            x_star
        )
        ok &= dist > 1e-3 if p0 != p1 else dist < 1e-12
        lines.append(f"({p0}, {p1}): {dist:.3e}")
    return ClaimResult(
        "FedAvg's limit ≠ x* iff p₀ ≠ p₁ (‖lim E[x_t] − x*‖ per (p₀, p₁))", SOURCE,
        "> 1e-3 when p₀ ≠ p₁, < 1e-12 when equal", "; ".join(lines), ok,
    )  # fmt: skip


def claim_step_independence(u: np.ndarray) -> ClaimResult:
    p = link_probabilities(0.1, 0.9)
    limits = [
        bernoulli_limit(p, u, lr=lr, local_steps=s).limit
        for lr, s in ((LR, STEPS), (0.5, 1), (0.9, 5))
    ]
    spread = max(float(np.max(np.abs(x - limits[0]))) for x in limits)
    return ClaimResult(
        "the limit does not depend on η or s (γ cancels in the fixed point)", SOURCE,
        "max difference < 1e-12 over (η, s) ∈ {(3e-4, 30), (0.5, 1), (0.9, 5)}",
        f"{spread:.2e}", spread < 1e-12,
    )  # fmt: skip


def claim_simulation(u: np.ndarray) -> ClaimResult:
    p = link_probabilities(0.1, 0.9)
    limit = bernoulli_limit(p, u, lr=LR, local_steps=STEPS).limit
    runs, rounds, burn = 40, 4000, 1500
    gains = np.full(100, float(local_gain(LR, STEPS)))
    means, sq = simulate_isotropic(
        bernoulli_sampler(p, runs, seed=7), u, FEDAVG, gains,
        rounds=rounds, burn_in=burn, runs=runs, center=limit,
    )  # fmt: skip
    se = means.std(axis=0, ddof=1) / np.sqrt(runs)
    worst = float(np.max(np.abs(means.mean(axis=0) - limit) / se))
    spread = float(np.sqrt(sq.mean()))
    return ClaimResult(
        "seeded FedAvg runs average to the limit; the iterate does not converge", SOURCE,
        "|mean − limit| ≤ 5 SE in all 100 coordinates, and RMS ‖x_t − limit‖ > 0",
        f"worst |mean − limit|/SE = {worst:.2f} ({runs} runs × {rounds - burn} rounds); "
        f"RMS ‖x_t − limit‖ = {spread:.3e}",
        worst <= 5.0 and spread > 1e-6,
    )  # fmt: skip


def claim_fedpbc(u: np.ndarray) -> ClaimResult:
    x_star = u.mean(axis=0)
    lines, ok = [], True
    for p0, p1 in PAIRS:
        result = fedpbc_limit(link_probabilities(p0, p1), u, lr=LR, local_steps=STEPS)
        dist_bar = float(np.linalg.norm(result.average - x_star))
        dist_ps = float(np.linalg.norm(result.server - x_star))
        ok &= dist_bar < 1e-12
        lines.append(f"({p0}, {p1}): x̄ {dist_bar:.1e}, PS {dist_ps:.1e}")
    return ClaimResult(
        "FedPBC's expected average model is x* (Fig. 2a); the PS model is off by O(γ)", SOURCE,
        "‖E[x̄] − x*‖ < 1e-12 for every (p₀, p₁)", "; ".join(lines), ok,
    )  # fmt: skip


def main(as_json: bool) -> int:
    u = counterexample()
    results = [
        claim_formula(),
        claim_bias(u),
        claim_step_independence(u),
        claim_simulation(u),
        claim_fedpbc(u),
    ]
    return report(results, as_json=as_json)


if __name__ == "__main__":
    sys.exit(main("--json" in sys.argv[1:]))
