"""Figure: problem (14)'s optimal weights q* on the paper's population as κ̄² sweeps.

Setup: examples/ca_fed_population.toml (N = 100 clients of Section V-A(a), illustrative
constants, T = 200, E = 5, η_t = 0.009/t, Q = 1). The coefficients of ε̄_opt (eq. 13: Σ, v,
ψ + φ/ln(1/λ), Σ_{t≤T} η_t) come from ``opt_bound_coefficients``; ``Problem14`` then minimises
ε̄_opt(q) + κ̄²·Γ·χ²(α‖p(q)) (eqs. 11, 13, 14; κ̄² = 1 is eq. 14 as printed).

Panel (a): cumulative weight Σ_{k∈group} q_k*/Q of the three groups of CA-Fed Fig. 1d, with
Guideline C's unbiased weights q ∝ α/π (dashed) for reference. Panel (b): the two error terms
at q*. Stars: κ̄² = 1; the sweep covers κ̄² ∈ [1e24, 1e36]. Two observations the figure makes visible:

* v of eq. 13 contains (MQ/4)Σ(η_t² + 1/t²) with M = 2^100 states, so ε̄_opt ~ 1e31 and the
  bias term only matters for κ̄² ≳ 1e27: at κ̄² = 1 problem (14) returns "More available"
  (the less available half gets q ≈ 0);
* problem (14) sees the chain only through λ(P), so the two "less available" groups (same π,
  different λ₂) always get identical weights: the curves overlap. Guideline B is not part of it.

Writes ``optimal_weights_tradeoff.png`` and ``.csv`` into ``--out`` (default figures/out).
"""

import argparse
import csv
import sys
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

# The repository root goes on the path first, so this runs as `python DIR/script.py`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.bounds.theorem2 import opt_bound_coefficients
from fltheory.markov.population import GROUP_NAMES, ca_fed_population
from fltheory.optimize.guidelines import unbiased_weights
from fltheory.optimize.problem14 import Problem14
from fltheory.problems.config import load_problem_config

OUT = Path(__file__).resolve().parent / "out"
CONFIG = Path(__file__).resolve().parents[1] / "examples" / "ca_fed_population.toml"
#: Fig. 1d's three groups, as unions of ``GROUP_NAMES`` indices.
GROUPS = {
    "more available": tuple(i for i, name in enumerate(GROUP_NAMES) if name.startswith("more")),
    "less available, weakly correlated": (GROUP_NAMES.index("less available, weakly correlated"),),
    "less available, correlated": (GROUP_NAMES.index("less available, correlated"),),
}


def group_weights(q: np.ndarray, labels: np.ndarray, Q: float) -> list[float]:
    return [float(q[np.isin(labels, members)].sum() / Q) for members in GROUPS.values()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="output directory")
    parser.add_argument("--points", type=int, default=25, help="κ̄² values in [1e24, 1e36]")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    setup = load_problem_config(CONFIG)
    pop = ca_fed_population(n=100, g=0.4, nu=0.9, eps=1e-2, seed=0)
    assert np.array_equal(setup.pi, pop.pi), "the example file no longer holds the population"
    s, v, const, denom = opt_bound_coefficients(setup)
    gamma = setup.constants.Gamma
    problem = Problem14(setup.pi, setup.alpha, s, v, setup.Q, gamma=gamma, const=const, denom=denom)
    kappas = np.concatenate([[1.0], np.logspace(24, 36, args.points)])
    rows = []
    for i, k2 in enumerate(kappas):
        print(f"κ̄² {i + 1}/{len(kappas)}", file=sys.stderr, flush=True)
        res = problem.solve(1.0, float(k2))
        weights = group_weights(res.q, pop.labels, setup.Q)
        rows.append([float(k2), *weights, res.extras["eps_opt"], res.extras["eps_bias"]])
    data = np.array(rows)
    reference = group_weights(
        unbiased_weights(setup.alpha, setup.pi, np.ones(setup.n_clients, bool), setup.Q),
        pop.labels,
        setup.Q,
    )

    fig = Figure(figsize=(12, 4.5), layout="constrained")
    ax, bx = fig.subplots(1, 2)
    at_one, sweep = data[0], data[1:]  # κ̄² = 1 is drawn as a separate star, not joined
    for j, (name, ref) in enumerate(zip(GROUPS, reference, strict=True)):
        style = {"color": f"C{j}", "marker": "o", "ms": 3}
        ax.plot(sweep[:, 0], sweep[:, 1 + j], label=f"{name} (q* of problem 14)", **style)
        ax.plot(1.0, at_one[1 + j], "*", color=f"C{j}", ms=10)
        ax.axhline(ref, color=f"C{j}", ls="--", lw=1, label=f"{name} (Guideline C, q ∝ α/π)")
    ax.set_xscale("log")
    ax.set_xlabel("κ̄² (weight of the bias term; κ̄² = 1 is eq. 14)")
    ax.set_ylabel("cumulative weight Σ_group q_k / Q")
    ax.set_title("(a) optimal weights by group (less-available curves overlap)")
    ax.legend(fontsize=7, loc="center left")
    bx.loglog(sweep[:, 0], sweep[:, 4], "o-", ms=3, color="C0", label="ε̄_opt(q*) (eq. 13)")
    bx.loglog(
        sweep[:, 0],
        sweep[:, 0] * sweep[:, 5],
        "s-",
        ms=3,
        color="C1",
        label="κ̄²·ε̄_bias(q*) (eq. 11)",
    )
    bx.loglog([1.0, 1.0], [at_one[4], at_one[5]], "*", color="k", ms=10, label="κ̄² = 1 (eq. 14)")
    bx.set_xlabel("κ̄²")
    bx.set_ylabel("error term at q*")
    bx.set_title("(b) the two terms of problem (14) at its optimum")
    bx.legend(fontsize=8)
    fig.suptitle(
        f"Problem (14) on the paper's population ({CONFIG.name}; v = {v:.3g} from M = 2^100)"
    )
    fig.savefig(args.out / "optimal_weights_tradeoff.png", dpi=110, metadata={"Software": None})
    header = [
        "kappa2",
        *(f"q_{n.replace(', ', '_').replace(' ', '_')}" for n in GROUPS),
        "eps_opt",
        "eps_bias",
    ]
    with open(args.out / "optimal_weights_tradeoff.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([*header, *(f"unbiased_{h[2:]}" for h in header[1:4])])
        writer.writerows([*row, *reference] for row in rows)


if __name__ == "__main__":
    main()
