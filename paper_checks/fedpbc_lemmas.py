"""Lemmas 1 and 2 of the FedPBC paper (Section IV) on random link probabilities.

ρ = λ₂(E[W²]) is computed exactly (E[W²] = E[W], a Poisson-binomial integral) and compared with
Lemma 1's bound 1 − c⁴[1 − (1 − c)^m]²/8; Lemma 2's E‖B(W₁⋯W_t − J)‖²_F ≤ ρ^t‖B‖²_F is
checked exactly by enumerating all 2^m link patterns (m ≤ 6) and by Monte Carlo (m = 12,
one-sided 5-standard-error test). Also reports how loose Lemma 1 is on the paper's Synthetic
(1,1) setting (m = 30, p ∈ {0.05, 0.9}, c = 0.03 after the ±0.02 perturbation).
Exit status 0 when every claim holds.
"""

import sys

import numpy as np

from fltheory.limits.fedpbc import lemma1_bound, mixing_rho
from fltheory.rng import generator
from fltheory.testing.claims import ClaimResult, report
from fltheory.testing.limits import lemma2_exact, lemma2_monte_carlo

SOURCE = "FedPBC paper, Section IV"


def claim_lemma1() -> ClaimResult:
    rng = generator(0, "paper_checks/fedpbc-lemma1")
    held, gaps = 0, []
    for _ in range(200):
        m = int(rng.integers(2, 120))
        p = rng.uniform(rng.uniform(0.01, 0.5), 1.0, m)
        rho, bound = mixing_rho(p), lemma1_bound(p)
        held += rho <= bound
        gaps.append((1.0 - rho) / (1.0 - bound))
    return ClaimResult(
        "Lemma 1: ρ ≤ 1 − c⁴[1 − (1 − c)^m]²/8", SOURCE,
        "holds on 200 random instances (m in 2..119)",
        f"held {held}/200; spectral gap / guaranteed gap: min {min(gaps):.3g}, "
        f"median {np.median(gaps):.3g}",
        held == 200,
    )  # fmt: skip


def claim_synthetic_setting() -> ClaimResult:
    p = np.repeat([0.05, 0.9], 15)
    p_low = np.repeat([0.03, 0.88], 15)  # the ±0.02 perturbation at its worst
    rho, bound = mixing_rho(p), lemma1_bound(p_low)
    return ClaimResult(
        "Lemma 1 on the Synthetic(1,1) setting (m = 30, c = 0.03)", SOURCE,
        "ρ(p) ≤ bound(c = 0.03)",
        f"ρ = {rho:.6f}, bound = {bound:.9f}; 1 − ρ = {1 - rho:.3e} vs 1 − bound = {1 - bound:.3e}",
        rho <= bound,
    )  # fmt: skip


def claim_lemma2_exact() -> ClaimResult:
    rng = generator(1, "paper_checks/fedpbc-lemma2")
    worst = 0.0
    for _ in range(30):
        m = int(rng.integers(2, 7))
        p = rng.uniform(0.05, 1.0, m)
        B = rng.normal(size=(int(rng.integers(1, 4)), m))
        rho = mixing_rho(p)
        for t in (1, 2, 4, 8):
            worst = max(worst, lemma2_exact(p, B, t) / (rho**t * np.sum(B**2)))
    return ClaimResult(
        "Lemma 2 (exact expectation over all link patterns)", SOURCE,
        "E‖B(W₁⋯W_t − J)‖² / (ρ^t ‖B‖²) ≤ 1 for t ∈ {1, 2, 4, 8}",
        f"largest ratio {worst:.4f} over 30 instances (m ≤ 6)", worst <= 1.0 + 1e-12,
    )  # fmt: skip


def claim_lemma2_monte_carlo() -> ClaimResult:
    rng = generator(2, "paper_checks/fedpbc-lemma2-mc")
    p = rng.uniform(0.1, 0.9, 12)
    B = rng.normal(size=(3, 12))
    rho = mixing_rho(p)
    lines, ok = [], True
    for t in (1, 3, 6):
        mean, se = lemma2_monte_carlo(p, B, t, runs=2000, seed=t)
        bound = rho**t * np.sum(B**2)
        ok &= mean - 5 * se <= bound
        lines.append(f"t={t}: {mean:.4g} ± {se:.2g} vs {bound:.4g}")
    return ClaimResult(
        "Lemma 2 by Monte Carlo (m = 12, 2000 runs)", SOURCE,
        "mean − 5 SE ≤ ρ^t ‖B‖²", "; ".join(lines), ok,
    )  # fmt: skip


def main(as_json: bool) -> int:
    results = [
        claim_lemma1(),
        claim_synthetic_setting(),
        claim_lemma2_exact(),
        claim_lemma2_monte_carlo(),
    ]
    return report(results, as_json=as_json)


if __name__ == "__main__":
    sys.exit(main("--json" in sys.argv[1:]))
