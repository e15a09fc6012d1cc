"""Figure: ‖lim E[x_t] − x*‖ of FedAvg vs link heterogeneity and vs availability correlation.

Panel (a), FedPBC paper Proposition 1 and its Section VI counterexample: m = 100 clients,
F_i = ½‖x − u_i‖² with u_i ~ N((i/1000)·1, 0.01 I) in R^100, s = 30 local steps of η = 3e-4,
independent links with p₀ = ½ − δ for the first half and p₁ = ½ + δ for the second. Theory:
``bernoulli_limit`` (Proposition 1 weights). Monte Carlo (seeded, numpy): FedAvg runs from x = 0,
per-run time averages after a burn-in; the point is ‖mean over runs − x*‖, the error bar
√(Σ_j SE_j²) (the noise level of that norm).

Panel (b), Markov availability (CA-Fed ToN Section II-A, eq. 236): m = 10 independent two-state
clients with stationary π = 0.1 (first half) or 0.9 and a common λ₂, F_i as above in R^5
(u_i ~ N((i/10)·1, 0.01 I)), one local step of η = 0.5. Theory: ``product_markov_limit``
(stationary mean of the (state, x) chain, Kronecker structure) for FedAvg and for CA-Fed's
unnormalised aggregation (eq. 3) with Guideline C's weights q_k = α_k/π_k (η̄ = 0.5), which is
unbiased under independent links (λ₂ = 0) but drifts away from x* as λ₂ grows; FedAvg's limit
barely moves (its mean recursion depends on the state only through the empty set).
Monte Carlo: two-state traces from ``TwoStateChains`` (seeded), same estimator as in (a).

Writes ``fedavg_bias_vs_heterogeneity.png`` and ``.csv`` (panel, rule, x = δ or λ₂, theory,
mc, mc_err; empty mc cells where no simulation was run) into ``--out``.
"""

import argparse
import csv
import sys
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

# The repository root goes on the path first, so this runs as `python DIR/script.py`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.limits.aggregation import FEDAVG, Aggregation, bernoulli_limit
from fltheory.limits.local import local_gain
from fltheory.limits.markov import product_markov_limit
from fltheory.rng import generator
from fltheory.sim.availability import TwoStateChains
from fltheory.testing.limits import bernoulli_sampler, simulate_isotropic

OUT = Path(__file__).resolve().parent / "out"
LR_A, STEPS_A = 3e-4, 30
LR_B = 0.5
M_B = 10


def clients(m: int, d: int, scale: float, purpose: str) -> np.ndarray:
    rng = generator(0, purpose)
    return (np.arange(1, m + 1) / scale)[:, None] * np.ones((1, d)) + 0.1 * rng.normal(size=(m, d))


def monte_carlo(
    sampler, u: np.ndarray, rule: Aggregation, gain: float, rounds: int, burn: int, runs: int
) -> tuple[float, float]:
    """(‖mean of per-run time averages − x*‖, √(Σ_j SE_j²))."""
    gains = np.full(u.shape[0], gain)
    means, _ = simulate_isotropic(
        sampler, u, rule, gains, rounds=rounds, burn_in=burn, runs=runs, center=u.mean(axis=0)
    )
    se = means.std(axis=0, ddof=1) / np.sqrt(runs)
    return float(np.linalg.norm(means.mean(axis=0) - u.mean(axis=0))), float(np.sqrt(np.sum(se**2)))


def panel_a(quick: bool) -> list[list]:
    u = clients(100, 100, 1000.0, "figures/fedavg-bias/counterexample")
    x_star = u.mean(axis=0)
    rows = []
    print("link heterogeneity sweep ...", file=sys.stderr, flush=True)
    for delta in np.linspace(0.0, 0.45, 19):
        p = np.repeat([0.5 - delta, 0.5 + delta], 50)
        theory = bernoulli_limit(p, u, lr=LR_A, local_steps=STEPS_A).distance(x_star)
        rows.append(["a", "FedAvg", float(delta), theory, "", ""])
    gain = float(local_gain(LR_A, STEPS_A))
    runs, rounds = (8, 1500) if quick else (20, 3000)
    for k, delta in enumerate((0.0, 0.15, 0.3, 0.45)):
        p = np.repeat([0.5 - delta, 0.5 + delta], 50)
        sampler = bernoulli_sampler(p, runs, seed=k)
        mc, err = monte_carlo(sampler, u, FEDAVG, gain, rounds, rounds // 3, runs)
        theory = bernoulli_limit(p, u, lr=LR_A, local_steps=STEPS_A).distance(x_star)
        rows.append(["a", "FedAvg", delta, theory, mc, err])
    return rows


def panel_b(quick: bool) -> list[list]:
    u = clients(M_B, 5, 10.0, "figures/fedavg-bias/markov")
    x_star = u.mean(axis=0)
    pi = np.repeat([0.1, 0.9], M_B // 2)
    rules = {
        "FedAvg": FEDAVG,
        "unbiased q = α/π (eq. 3)": Aggregation(
            q=(1.0 / M_B) / pi, normalised=False, server_lr=0.5
        ),
    }
    gain = float(local_gain(LR_B, 1))
    runs, rounds = (6, 4000) if quick else (16, 20000)
    rows = []
    print("λ₂ sweep ...", file=sys.stderr, flush=True)
    for name, rule in rules.items():
        for lam in (0.0, 0.2, 0.4, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98):
            theory = product_markov_limit(pi, np.full(M_B, lam), u, rule, lr=LR_B).distance(x_star)
            rows.append(["b", name, lam, theory, "", ""])
        for k, lam in enumerate((0.0, 0.5, 0.8, 0.9, 0.95)):
            trace = TwoStateChains(pi, np.full(M_B, lam)).sample(seed=k, reps=runs, rounds=rounds)
            mc, err = monte_carlo(lambda t, tr=trace: tr[:, t], u, rule, gain, rounds, 500, runs)
            theory = product_markov_limit(pi, np.full(M_B, lam), u, rule, lr=LR_B).distance(x_star)
            rows.append(["b", name, lam, theory, mc, err])
    return rows


def draw(ax, rows: list[list], rule: str, color: str) -> None:
    curve = sorted((r[2], r[3]) for r in rows if r[1] == rule and r[4] == "")
    points = [r for r in rows if r[1] == rule and r[4] != ""]
    ax.plot(*zip(*curve, strict=True), "-", color=color, label=f"{rule}: theory")
    ax.errorbar(
        [r[2] for r in points],
        [r[4] for r in points],
        yerr=[r[5] for r in points],
        fmt="o",
        color=color,
        capsize=3,
        label=f"{rule}: Monte Carlo",
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="output directory")
    parser.add_argument("--quick", action="store_true", help="shorter Monte Carlo runs")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rows_a, rows_b = panel_a(args.quick), panel_b(args.quick)
    fig = Figure(figsize=(12, 4.5), layout="constrained")
    ax, bx = fig.subplots(1, 2)
    draw(ax, rows_a, "FedAvg", "C0")
    ax.set_xlabel("link heterogeneity δ  (p₀ = ½ − δ, p₁ = ½ + δ)")
    ax.set_ylabel("‖lim E[x_t] − x*‖")
    ax.set_title("(a) Bernoulli links, m = 100 (FedPBC Prop. 1, Sec. VI)")
    ax.legend(fontsize=8)
    for j, rule in enumerate(("FedAvg", "unbiased q = α/π (eq. 3)")):
        draw(bx, rows_b, rule, f"C{j}")
    bx.set_xlabel("second eigenvalue λ₂ of every client's chain (π = 0.1 / 0.9)")
    bx.set_ylabel("‖lim E[x_t] − x*‖")
    bx.set_title(f"(b) Markov availability, m = {M_B} two-state clients")
    bx.legend(fontsize=8)
    fig.suptitle("Where FedAvg-type aggregation converges in expectation, and how far from x*")
    fig.savefig(args.out / "fedavg_bias_vs_heterogeneity.png", dpi=110, metadata={"Software": None})
    with open(args.out / "fedavg_bias_vs_heterogeneity.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["panel", "rule", "x", "theory", "mc", "mc_err"])
        writer.writerows(rows_a + rows_b)


if __name__ == "__main__":
    main()
