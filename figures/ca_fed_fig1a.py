"""Figure: CA-Fed ToN Fig. 1(a) and 1(d) on LEAF Synthetic(0.5, 0.5), simulated.

Setup: ``examples/sim_ca_fed_fig1a.toml`` (Section V-A: N = 100 clients, g = 0.4, ν = 0.9,
ε = 1e-2, groups in random client order, α_k ∝ n_k, oracle π and λ; E = 2 local SGD steps of
32 samples, ridge 1e-2; five algorithms). The learning rates are the config's: chosen by
``figures/ca_fed_fig1a_grid.py`` on the paper's grid, because Table II's Synthetic rates do not
train on this data under eqs. 2-3 (see that script's docstring).

Panel (a): α-weighted mean test accuracy of the global model after each round, mean over the
repetitions (shaded: ± one standard deviation). Panel (d): cumulative aggregation weights
(1/T) Σ_t q_k^(t) summed over the clients of each of Fig. 1d's three groups, as a share of the
algorithm's total (so algorithms with unnormalised q, e.g. Unbiased's α_k/π_k, compare with
AdaFed's normalised ones); black ticks: each group's share of the target α.

Writes ``ca_fed_fig1a.png``, ``ca_fed_fig1a.csv`` (curves) and ``ca_fed_fig1a_weights.csv``
(panel d, shares and absolute sums) into ``--out`` (default figures/out).
"""

import argparse
import csv
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

# The repository root goes on the path first, so this runs as `python DIR/script.py`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.sim.config import load_config, run_config

OUT = Path(__file__).resolve().parent / "out"
CONFIG = Path(__file__).resolve().parents[1] / "examples" / "sim_ca_fed_fig1a.toml"
#: Fig. 1d's groups as unions of the config's four availability groups.
GROUPS = {
    "more available": ("more available, correlated", "more available, weakly correlated"),
    "less available, weakly correlated": ("less available, weakly correlated",),
    "less available, correlated": ("less available, correlated",),
}


def group_masks(groups: dict[str, np.ndarray], n: int) -> dict[str, np.ndarray]:
    """Boolean client masks of Fig. 1d's three groups."""
    out = {}
    for name, parts in GROUPS.items():
        mask = np.zeros(n, dtype=bool)
        for part in parts:
            mask |= np.asarray(groups[part], dtype=bool)
        out[name] = mask
    return out


def cumulative_weights(weights: np.ndarray, masks: dict[str, np.ndarray]) -> dict[str, float]:
    """Σ_{k ∈ group} (1/T) Σ_t q_k^(t), mean over repetitions, for (R, T, N) weights."""
    per_client = weights.mean(axis=(0, 1))
    return {name: float(per_client[mask].sum()) for name, mask in masks.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    cfg = load_config(CONFIG, seeds=args.seeds, device="cpu", threads=1)
    cfg = replace(cfg, settings=replace(cfg.settings, rounds=args.rounds))
    start = time.perf_counter()
    print(f"simulating {args.seeds} seeds × {args.rounds} rounds ...", file=sys.stderr, flush=True)
    _, runs = run_config(cfg)
    seconds = time.perf_counter() - start
    n = runs[0].weights.shape[2]
    masks = group_masks(cfg.groups, n)
    alpha = np.asarray(cfg.problem.alpha, dtype=float)
    alpha_share = {name: float(alpha[m].sum() / alpha.sum()) for name, m in masks.items()}
    rates = {run.label: (run.info["lr"], run.info["server_lr"]) for run in runs}

    fig = Figure(figsize=(13, 4.8), layout="constrained")
    ax_a, ax_d = fig.subplots(1, 2, width_ratios=(1.35, 1))
    for run in runs:
        rounds = run.eval_rounds + 1
        mean, sd = run.accuracy.mean(axis=0), run.accuracy.std(axis=0)
        lr, slr = rates[run.label]
        (line,) = ax_a.plot(rounds, mean, label=f"{run.label} (η={lr:g}, η̄={slr:g})")
        ax_a.fill_between(rounds, mean - sd, mean + sd, color=line.get_color(), alpha=0.2)
    ax_a.set_xlabel("communication round t")
    ax_a.set_ylabel("test accuracy (α-weighted mean over clients)")
    ax_a.set_title(f"(a) Synthetic(0.5, 0.5), N = {n}, mean ± sd over {args.seeds} runs")
    ax_a.grid(alpha=0.3)
    ax_a.legend(fontsize=8, loc="lower right")

    names = list(GROUPS)
    width = 0.8 / len(runs)
    x = np.arange(len(names))
    shares = {}
    for i, run in enumerate(runs):
        cum = cumulative_weights(run.weights, masks)
        total = sum(cum.values())
        # No weight at all (possible in a few rounds): no share to plot.
        share = {g: v / total if total > 0 else float("nan") for g, v in cum.items()}
        shares[run.label] = (cum, share)
        ax_d.bar(
            x + (i - (len(runs) - 1) / 2) * width,
            [shares[run.label][1][g] for g in names],
            width,
            label=run.label,
        )
    ax_d.scatter(x, [alpha_share[g] for g in names], marker="_", s=900, c="k", label="α share")
    ax_d.set_xticks(x, [g.replace(", ", ",\n") for g in names])
    ax_d.set_ylabel("share of cumulative weight (1/T) Σ_t q_k^(t)")
    ax_d.set_title(f"(d) cumulative aggregation weights by group, T = {args.rounds}")
    ax_d.grid(axis="y", alpha=0.3)
    ax_d.legend(fontsize=8, markerscale=0.3)
    fig.suptitle(
        "CA-Fed ToN Fig. 1(a),(d) simulated; rates η/η̄ from the grid search in "
        "examples/sim_ca_fed_fig1a.toml (Table II's do not train here)",
        fontsize=10,
    )

    args.out.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out / "ca_fed_fig1a.png", dpi=150)
    header = (
        f"# CA-Fed Fig. 1a simulated: {args.seeds} runs, T = {args.rounds}; rates "
        + "; ".join(f"{k} lr={v[0]:g} server_lr={v[1]:g}" for k, v in rates.items())
        + "\n"
    )
    with (args.out / "ca_fed_fig1a.csv").open("w", newline="") as handle:
        handle.write(header)
        writer = csv.writer(handle)
        writer.writerow(["algorithm", "lr", "server_lr", "round", "accuracy_mean", "accuracy_sd"])
        for run in runs:
            mean, sd = run.accuracy.mean(axis=0), run.accuracy.std(axis=0)
            for t, m, s in zip(run.eval_rounds + 1, mean, sd, strict=True):
                writer.writerow([run.label, *rates[run.label], int(t), f"{m:.6f}", f"{s:.6f}"])
    with (args.out / "ca_fed_fig1a_weights.csv").open("w", newline="") as handle:
        handle.write(header)
        writer = csv.writer(handle)
        writer.writerow(["algorithm", "group", "cumulative_weight", "share", "alpha_share"])
        for label, (cum, share) in shares.items():
            for g in names:
                row = [label, g, f"{cum[g]:.6f}", f"{share[g]:.6f}", f"{alpha_share[g]:.6f}"]
                writer.writerow(row)
    ref = next((r for r in runs if r.info["name"] == "adafed"), runs[0])
    print(f"simulated in {seconds:.1f} s; final accuracy (mean ± sd over runs) and its paired")
    print(f"difference from {ref.label} (same trace and batches in every run):")
    for run in sorted(runs, key=lambda r: -r.accuracy[:, -1].mean()):
        final, diff = run.accuracy[:, -1], run.accuracy[:, -1] - ref.accuracy[:, -1]
        print(
            f"  {run.label:<20} {final.mean():.4f} ± {final.std():.4f}   "
            f"{100 * diff.mean():+.2f} ± {100 * diff.std():.2f} pp"
        )


if __name__ == "__main__":
    main()
