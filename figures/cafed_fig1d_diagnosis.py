"""Fig. 1(d) diagnosis: CA-Fed's mean included count (the paper's "45 on average", P2:1584)
and whether Unbiased's gap to the α shares is trace noise.

``count``: runs the setup's quick config (CA-Fed, AdaFed, Unbiased) and prints, per algorithm,
the mean included clients per round and the mean active clients per round; for Unbiased, the
per-seed share gap per group and the same gap predicted from the trace alone with weights
α_k/π_k (oracle π) on active rounds. ``trace``: the trace-only gap of Unbiased over many trace
seeds and several horizons T: its mean (a systematic bias) and sd (noise), no training.
``f3ast``: F3AST's share gap per group on full mode's traces, against α and paired against
Unbiased (same traces), for r₀ = π, β = 0.005 (the setup), r₀ = α and β ∈ {0.01, 0.02, 0.05}.

Usage: python figures/cafed_fig1d_diagnosis.py count [--setup paper|authors] [--seeds 6]
       python figures/cafed_fig1d_diagnosis.py trace [--setup paper|authors] [--seeds 200]
       python figures/cafed_fig1d_diagnosis.py f3ast [--seeds 10]   (full mode's traces)
Prints JSON lines and writes them to ``OUT/cafed_fig1d_diagnosis_<what>_<setup>.jsonl``.
"""

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.api.simulation import simulate
from fltheory.atomic import write_atomic
from fltheory.experiments import judges
from fltheory.experiments.catalog.cafed_fig1 import FIG1D_QUICK, fig1a_authors_config, fig1a_config
from fltheory.experiments.catalog.common import FIG1D_GROUPS
from fltheory.experiments.runner import measurements_of
from fltheory.experiments.stats import paired_difference
from fltheory.sim.config.loader import build


def quick_config(setup: str) -> dict[str, Any]:
    if setup == "paper":
        return fig1a_config(100, FIG1D_QUICK, 10)
    return fig1a_authors_config("quick", names=FIG1D_QUICK)


def masks(groups: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Fig. 1(d)'s three groups as boolean masks over the clients."""
    return {
        name: np.any([np.asarray(groups[p], dtype=bool) for p in parts if p in groups], axis=0)
        for name, parts in FIG1D_GROUPS.items()
    }


def trace_gaps(trace: np.ndarray, alpha: np.ndarray, pi: np.ndarray, groups: dict) -> dict:
    """Per seed and group: share of Σ_t α_k/π_k·1{active} minus the α share."""
    per_client = trace.sum(axis=1) * (alpha / pi)  # (R, N)
    total = per_client.sum(axis=1)
    return {
        g: per_client[:, mask].sum(axis=1) / total - alpha[mask].sum() / alpha.sum()
        for g, mask in groups.items()
    }


def p_fails(gaps: dict[str, np.ndarray], n: int) -> float:
    """Share of disjoint n-seed batches whose mean gap exceeds 0.02 in some group (the judge's
    Unbiased check failing on trace noise alone)."""
    size = len(next(iter(gaps.values()))) // n * n
    means = np.array([np.abs(v[:size].reshape(-1, n).mean(axis=1)) for v in gaps.values()])
    return round(float(np.mean((means > 0.02).any(axis=0))), 3)


def count(setup: str, seeds: int) -> dict[str, Any]:
    raw = quick_config(setup)
    report = simulate(raw, seeds=seeds, device="cpu", threads=1)
    m = measurements_of(report)
    assert m.active is not None and m.alpha is not None
    groups = masks(m.groups)
    pi = np.asarray(report.config.process.pi, dtype=float)
    out: dict[str, Any] = {
        "setup": setup,
        "seeds": seeds,
        "rounds": int(m.active.shape[1]),
        "active_per_round": round(float(m.active.sum(axis=2).mean()), 2),
    }
    for label in m.included:
        per_round = m.included[label].sum(axis=2).mean(axis=1)  # (R,)
        out[f"{label}_included_per_round"] = [round(float(x), 2) for x in per_round]
    weights = m.weights["unbiased"].sum(axis=1)  # (R, N)
    predicted = trace_gaps(m.active, m.alpha, pi, groups)
    for g, mask in groups.items():
        measured = weights[:, mask].sum(axis=1) / weights.sum(axis=1)
        measured = measured - m.alpha[mask].sum() / m.alpha.sum()
        out[f"unbiased_gap[{g}]"] = [round(float(x), 4) for x in measured]
        out[f"trace_gap[{g}]"] = [round(float(x), 4) for x in predicted[g]]
    return out


def trace(setup: str, seeds: int) -> list[dict[str, Any]]:
    raw = quick_config(setup)
    raw["seeds"] = 2
    cfg = build(raw)
    alpha = np.asarray(cfg.problem.alpha, dtype=float)
    pi = np.asarray(cfg.process.pi, dtype=float)
    groups = masks({k: np.asarray(v) for k, v in cfg.groups.items()})
    lines = []
    for rounds in (100, 200, 1000):
        tr = np.asarray(cfg.process.sample(12345, seeds, rounds), dtype=bool)
        gaps = trace_gaps(tr, alpha, pi, groups)
        lines.append(
            {
                "setup": setup,
                "rounds": rounds,
                "trace_seeds": seeds,
                "pi_by_group": {g: round(float(pi[k].mean()), 3) for g, k in groups.items()},
                "alpha_share": {g: round(float(alpha[k].sum()), 3) for g, k in groups.items()},
                "gap_mean": {g: round(float(v.mean()), 4) for g, v in gaps.items()},
                "gap_sd": {g: round(float(v.std(ddof=1)), 4) for g, v in gaps.items()},
                **{f"p_check_fails_mean_of_{n}": p_fails(gaps, n) for n in (6, 10)},
            }
        )
    return lines


F3AST_VARIANTS = {
    "f3ast": {},
    "f3ast_r0_alpha": {"r0": "alpha"},
    "f3ast_beta_0.01": {"beta": 0.01},
    "f3ast_beta_0.02": {"beta": 0.02},
    "f3ast_beta_0.05": {"beta": 0.05},
}


def f3ast(seeds: int) -> dict[str, Any]:
    """Full mode's traces (T = 200, config seed 0): F3AST's share gap per group, against the α
    share and paired against Unbiased's on the same traces (which removes the trace noise)."""
    raw = fig1a_config(200, ("unbiased", "f3ast"), 50)
    base = raw["algorithms"][1]
    raw["algorithms"] = [raw["algorithms"][0]] + [
        {**base, **options, "label": label} for label, options in F3AST_VARIANTS.items()
    ]
    m = measurements_of(simulate(raw, seeds=seeds, device="cpu", threads=1))
    assert m.alpha is not None
    groups = masks(m.groups)

    def shares(label: str) -> dict[str, np.ndarray]:
        w = m.weights[label].sum(axis=1)
        return {g: w[:, k].sum(axis=1) / w.sum(axis=1) for g, k in groups.items()}

    unbiased = shares("unbiased")
    out: dict[str, Any] = {"rounds": 200, "seeds": seeds}
    for label in F3AST_VARIANTS:
        s = shares(label)
        row = {}
        for g, k in groups.items():
            vs_alpha = paired_difference(s[g], np.full(seeds, m.alpha[k].sum()), confidence=0.95)
            vs_unbiased = paired_difference(s[g], unbiased[g], confidence=0.95)
            row[g] = {
                "minus_alpha": [round(x, 4) for x in (vs_alpha.mean, vs_alpha.low, vs_alpha.high)],
                "minus_unbiased": [
                    round(x, 4) for x in (vs_unbiased.mean, vs_unbiased.low, vs_unbiased.high)
                ],
            }
        row["exclusion"] = judges.exclusion_by_group(m, label)
        out[label] = row
    return out


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("count", "trace", "f3ast"))
    parser.add_argument("--setup", choices=("paper", "authors"), default="paper")
    parser.add_argument("--seeds", type=int, default=None, help="count: 6, trace: 200")
    parser.add_argument("--out", type=Path, default=Path("figures/out"))
    args = parser.parse_args(argv)
    if args.seeds is not None and args.seeds < 2:
        parser.error("--seeds must be >= 2")
    if args.what == "count":
        lines = [count(args.setup, args.seeds or 6)]
    elif args.what == "f3ast":
        lines = [f3ast(args.seeds or 10)]
    else:
        lines = trace(args.setup, args.seeds or 200)
    text = "\n".join(json.dumps(line) for line in lines) + "\n"
    print(text, end="")
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"cafed_fig1d_diagnosis_{args.what}_{args.setup}.jsonl"
    write_atomic(path, text)
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
