"""Figure (analogue of CA-Fed ToN Fig. 4a): estimation error of π̂_k and λ̂_k vs observations t'.

The paper's population (Section V-A(a): N = 100, π = ½ ± 0.4, λ₂ = 0.9 or N(0, 10⁻⁴)) is
simulated as independent two-state chains (eq. 236) from their stationary law, one seeded stream
per repetition (``TwoStateChains.sample``, i.e. ``fltheory.rng.generator``). After t' rounds,
t' ∈ {10^1, 10^1.5, …, 10^4}, the Section IV-B estimates (``running_estimates``, Beta(1, 1)
priors) give (1/N)Σ_k|π̂_k − π_k| and (1/N)Σ_k|λ̂_k − λ_k|, averaged over repetitions (error
bars: ± 1 standard deviation across repetitions).

Asymptotic prediction (dashed): E|X| = √(2/π)·sd for a normal error, with
Var π̂ ≈ π(1 − π)(1 + λ)/((1 − λ)t') (sample mean of a two-state chain with autocorrelation λ^|h|)
and Var λ̂ ≈ P01(1 − P01)/((t' − 1)(1 − π)) + P10(1 − P10)/((t' − 1)π) (transition-count MLE),
averaged over clients. It ignores the prior, so it is off at small t'.

Writes ``estimator_convergence.png`` and ``.csv`` into ``--out`` (default figures/out).
"""

import argparse
import csv
import sys
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

# The repository root goes on the path first, so this runs as `python DIR/script.py`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.markov.estimators import running_estimates
from fltheory.markov.population import ca_fed_population
from fltheory.sim.availability import TwoStateChains

OUT = Path(__file__).resolve().parent / "out"
HORIZONS = np.round(10.0 ** np.arange(1.0, 4.01, 0.5)).astype(int)


def predicted(pi: np.ndarray, lam: np.ndarray, t: int) -> tuple[float, float]:
    """√(2/π)·mean_k sd_k of π̂ and λ̂ after t rounds (see module docstring)."""
    p01, p10 = (1.0 - lam) * pi, (1.0 - lam) * (1.0 - pi)
    sd_pi = np.sqrt(pi * (1.0 - pi) * (1.0 + lam) / ((1.0 - lam) * t))
    sd_lam = np.sqrt(p01 * (1 - p01) / ((t - 1) * (1 - pi)) + p10 * (1 - p10) / ((t - 1) * pi))
    scale = np.sqrt(2.0 / np.pi)
    return float(scale * sd_pi.mean()), float(scale * sd_lam.mean())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="output directory")
    parser.add_argument("--reps", type=int, default=30, help="independent repetitions")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    pop = ca_fed_population(n=100, g=0.4, nu=0.9, eps=1e-2, seed=0)
    process = TwoStateChains(pop.pi, pop.lambda2)
    err_pi = np.empty((args.reps, HORIZONS.size))
    err_lam = np.empty_like(err_pi)
    for r in range(args.reps):
        trace = process.sample(seed=r, reps=1, rounds=int(HORIZONS[-1]))[0]
        est = running_estimates(trace)
        err_pi[r] = np.abs(est.pi[HORIZONS - 1] - pop.pi).mean(axis=1)
        err_lam[r] = np.abs(est.lambda2[HORIZONS - 1] - pop.lambda2).mean(axis=1)
    pred = np.array([predicted(pop.pi, pop.lambda2, int(t)) for t in HORIZONS])

    fig = Figure(figsize=(6.5, 4.5), layout="constrained")
    ax = fig.subplots()
    for err, col, label, color in ((err_pi, 0, "π", "C0"), (err_lam, 1, "λ", "C1")):
        ax.errorbar(
            HORIZONS,
            err.mean(axis=0),
            yerr=err.std(axis=0),
            marker="o",
            color=color,
            capsize=3,
            label=f"(1/N) Σ |{label}̂_k − {label}_k| (simulated)",
        )
        ax.plot(HORIZONS, pred[:, col], "--", color=color, label=f"asymptotic prediction ({label})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("number of observations t'")
    ax.set_ylabel("mean absolute estimation error")
    ax.set_title(f"Availability estimates, paper's population (N = 100, {args.reps} seeds)")
    ax.legend(fontsize=8)
    fig.savefig(args.out / "estimator_convergence.png", dpi=110, metadata={"Software": None})
    with open(args.out / "estimator_convergence.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            [
                "t",
                "err_pi_mean",
                "err_pi_sd",
                "pred_pi",
                "err_lam_mean",
                "err_lam_sd",
                "pred_lam",
                "reps",
            ]
        )
        for k, t in enumerate(HORIZONS):
            writer.writerow(
                [
                    int(t),
                    err_pi[:, k].mean(),
                    err_pi[:, k].std(),
                    pred[k, 0],
                    err_lam[:, k].mean(),
                    err_lam[:, k].std(),
                    pred[k, 1],
                    args.reps,
                ]
            )


if __name__ == "__main__":
    main()
