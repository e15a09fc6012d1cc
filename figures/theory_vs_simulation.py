"""Theory vs simulation: the limits and bounds of fltheory against the PyTorch simulator.

(a) FedAvg (FedPBC paper Algorithm 1) under Bernoulli links, p₀ ≠ p₁ vs p₀ = p₁: per-seed
    ‖x_t − x*‖ (mean ± 2 SD/√R band over seeds) and ‖mean_seeds x_t − x*‖, with Proposition 1's
    ‖lim E[x] − x*‖ as horizontal lines;
(b) Markov availability, eq. 3 with fixed unnormalised q: the stationary mean (coordinate 0) from
    ``product_markov_limit`` as λ₂ grows (curve) vs simulated time averages (points ± 2 SE);
(c) CA-Fed eq. 3 with q ∝ π on a strongly convex quadratic: simulated F_B(w_t) − F_B* and the
    distances of the seed-mean iterate to w_B* (eq. 4) and to w*.

Writes theory_vs_simulation.png and .csv (columns panel, series, x, y, lo, hi; ~60 log-spaced
rounds per curve) into ``--out``.
"""

import argparse
import csv
import sys
from pathlib import Path

import numpy as np
import torch
from matplotlib.figure import Figure

# The repository root goes on the path first, so this runs as `python DIR/script.py`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.limits.aggregation import bernoulli_limit
from fltheory.sim.algorithms import FedAvg
from fltheory.sim.availability import BernoulliLinks
from fltheory.sim.compare import Setup
from fltheory.sim.problems import QuadraticSim
from fltheory.sim.settings import AlgorithmSpec, Schedule, ServerOptions, SimSettings
from validation.bounds_vs_simulator import BoundsCase, eps_opt_rows, simulated
from validation.limits_vs_simulator import MarkovCase, two_group_problem

Row = tuple[str, str, float, float, float, float]


def log_indices(n: int, count: int = 60) -> np.ndarray:
    """About ``count`` log-spaced indices in [0, n) (the CSV keeps these rounds only)."""
    return np.unique(np.geomspace(1, n, count).astype(int) - 1)


def collect_seed_mean(store: list[np.ndarray]):
    """An observer appending the seed-mean model after every round to ``store``."""

    def observe(_t: int, w: torch.Tensor) -> None:
        store.append(w.mean(0).numpy().copy())

    return observe


def panel_fedavg(ax, rows: list[Row], reps: int, rounds: int) -> None:
    u, p_split = two_group_problem(12, 2, 1)
    lr, steps = 0.1, 3
    problem = QuadraticSim(u, np.full(12, 1.0 / 12))
    t = np.arange(1, rounds + 1)
    for (label, p), color in zip(
        (("p₀ = 0.2, p₁ = 0.8", p_split), ("p₀ = p₁ = 0.5", np.full(12, 0.5))),
        ("tab:red", "tab:blue"),
        strict=True,
    ):
        setup = Setup(problem, BernoulliLinks(p), SimSettings(rounds, steps), 11, reps)
        means: list[np.ndarray] = []
        spec = AlgorithmSpec("fedavg", FedAvg(), Schedule(lr))
        res = setup.run(spec, observe=collect_seed_mean(means))
        dist = res.distance  # (R, T)
        mu, band = dist.mean(0), 2.0 * dist.std(0, ddof=1) / np.sqrt(reps)
        mean_dist = np.linalg.norm(np.array(means) - problem.w_star, axis=1)
        predicted = bernoulli_limit(p, u, lr=lr, local_steps=steps).distance(problem.w_star)
        ax.plot(t, mu, color=color, label=f"{label}: mean ‖x_t − x*‖")
        ax.fill_between(t, mu - band, mu + band, color=color, alpha=0.25)
        ax.plot(t, mean_dist, color=color, ls=":", label=f"{label}: ‖mean x_t − x*‖")
        ax.axhline(predicted, color=color, ls="--", lw=1, label=f"{label}: Prop. 1")
        for i in log_indices(rounds):
            rows.append(("a", label, float(t[i]), float(mu[i]), mu[i] - band[i], mu[i] + band[i]))
        rows.append(("a", f"{label} Prop. 1", float("nan"), predicted, predicted, predicted))
    ax.set_xscale("log")
    ax.set_xlabel("round t")
    ax.set_ylabel("distance to x*")
    ax.set_title("(a) FedAvg under Bernoulli links")
    ax.legend(fontsize=6)


def panel_markov(ax, rows: list[Row], reps: int, rounds: int) -> None:
    grid = np.linspace(0.0, 0.95, 40)
    base = MarkovCase(rounds=rounds, reps=reps)
    curve = np.array([base.theory(lam)[0] for lam in grid])
    ax.plot(grid, curve, color="k", label="theory: product_markov_limit")
    ax.axhline(curve[0], color="gray", ls="--", lw=1, label="λ₂ = 0 point (w_B*)")
    for x, y in zip(grid, curve, strict=True):
        rows.append(("b", "theory", float(x), float(y), float(y), float(y)))
    points = (0.0, 0.5, 0.8, 0.9, 0.95)
    sims = [base.simulate(lam) for lam in points]
    mean = np.array([m[0] for m, _ in sims])
    err = 2.0 * np.array([s[0] for _, s in sims])
    ax.errorbar(points, mean, yerr=err, fmt="o", color="tab:green", capsize=3,
                label=f"simulation ({reps} seeds, ± 2 SE)")  # fmt: skip
    for x, y, e in zip(points, mean, err, strict=True):
        rows.append(("b", "simulation", x, float(y), float(y - e), float(y + e)))
    ax.set_xlabel("λ₂ (every client)")
    ax.set_ylabel("stationary mean, coordinate 0")
    ax.set_title("(b) correlation-induced shift, eq. 3, fixed q")
    ax.legend(fontsize=7)


def panel_bias(ax, rows: list[Row], reps: int, rounds: int) -> None:
    case = BoundsCase(reps=reps, long_rounds=rounds)
    problem = case.problem()
    sim, process = simulated(case, problem)
    setup = Setup(sim, process, SimSettings(rounds, case.E, eval_every=rounds), 21, reps)
    spec = AlgorithmSpec(
        "eq3-fixed-q", FedAvg(rule="fixed", q=problem.q), Schedule(0.1, "inverse", 20.0),
        ServerOptions(lr=1.0, diameter=case.diameter),
    )  # fmt: skip
    gaps: list[np.ndarray] = []
    means: list[np.ndarray] = []

    def observe(_t: int, w: torch.Tensor) -> None:
        arr = w.numpy()
        gaps.append(eps_opt_rows(problem, arr))
        means.append(arr.mean(0))

    setup.run(spec, observe=observe)
    t = np.arange(1, rounds + 1)
    g = np.array(gaps)  # (T, R)
    mu, band = g.mean(1), 2.0 * g.std(1, ddof=1) / np.sqrt(reps)
    to_b = np.linalg.norm(np.array(means) - problem.w_B_star, axis=1)
    to_star = np.linalg.norm(np.array(means) - problem.w_star, axis=1)
    ax.plot(t, mu, color="tab:purple", label="mean F_B(w_t) − F_B*")
    ax.fill_between(t, np.maximum(mu - band, 1e-12), mu + band, color="tab:purple", alpha=0.25)
    ax.plot(t, to_b, color="tab:orange", label="‖mean w_t − w_B*‖")
    ax.plot(t, to_star, color="tab:cyan", label="‖mean w_t − w*‖")
    gap = float(np.linalg.norm(problem.w_star - problem.w_B_star))
    ax.axhline(gap, color="gray", ls="--", lw=1, label="‖w* − w_B*‖")
    for name, series in (("F_B gap", mu), ("dist w_B*", to_b), ("dist w*", to_star)):
        lo, hi = (mu - band, mu + band) if name == "F_B gap" else (series, series)
        rows.extend(
            ("c", name, float(t[i]), float(series[i]), float(lo[i]), float(hi[i]))
            for i in log_indices(rounds)
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("round t")
    ax.set_ylabel("optimality gap / distance")
    ax.set_title("(c) eq. 3 with q ∝ π converges to w_B* (eq. 4)")
    ax.legend(fontsize=7)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "out")
    parser.add_argument("--reps", type=int, default=40, help="seeds per simulation")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    fig = Figure(figsize=(16, 4.8), layout="constrained")
    axes = fig.subplots(1, 3)
    rows: list[Row] = []
    print("panel 1/3: FedAvg vs Proposition 1 ...", file=sys.stderr, flush=True)
    panel_fedavg(axes[0], rows, args.reps, 600)
    print("panel 2/3: Markov shift vs λ₂ ...", file=sys.stderr, flush=True)
    panel_markov(axes[1], rows, args.reps, 1500)
    print("panel 3/3: convergence to w_B* ...", file=sys.stderr, flush=True)
    panel_bias(axes[2], rows, args.reps, 1500)
    fig.suptitle("fltheory: theory vs the PyTorch simulator")
    fig.savefig(args.out / "theory_vs_simulation.png", dpi=130)
    with open(args.out / "theory_vs_simulation.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["panel", "series", "x", "y", "lo", "hi"])
        writer.writerows(rows)


if __name__ == "__main__":
    main()
