"""Proposition 1 weights: paper's subset-sum form vs O(m²) routes vs the certified fast path.

Usage: ``python benchmarks/bench_limits.py [--json PATH] [--max-subset M] [--quick]``

Table 1 (m = 10…24): wall time of the literal subset-sum formula (numpy, all 2^m subsets), the
exact-node Gauss rule (⌈m/2⌉ nodes, O(m²)), the deflation recursion (O(m²)) and the certified
fast rule, with ratios measured in the same run, plus each method's largest relative error
against exact rationals (fractions). Table 2: the fast path alone up to m = 10⁵ next to the
O(m²) deflation where it is still affordable. Times are the best of several repeats.
"""

import argparse
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

from fltheory.limits.bernoulli import fedavg_weights, prob_any_active
from fltheory.limits.poisson_binomial import harmonic_inclusion_deflation
from fltheory.limits.subset_sum import fedavg_weights_exact, fedavg_weights_subset_sum
from fltheory.rng import generator


def _best_time(fn, repeats: int) -> tuple[float, object]:
    best, out = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def _probabilities(m: int) -> np.ndarray:
    p = generator(2024, f"bench-limits-{m}").uniform(0.0, 1.0, m)
    p[: min(m, 2)] = [1e-6, 1.0 - 1e-6][: min(m, 2)]
    return p


def _rel(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a / b - 1.0)))


def small_table(max_m: int, repeats: int) -> list[dict]:
    rows = []
    for m in range(10, max_m + 1, 2):
        p = _probabilities(m)
        exact = np.array([float(w) for w in fedavg_weights_exact([Fraction(v) for v in p])])
        t_sub, w_sub = _best_time(
            lambda p=p: fedavg_weights_subset_sum(p), 1 if m > 20 else repeats
        )
        t_rule, w_rule = _best_time(lambda p=p: fedavg_weights(p, exact=True).weights, repeats)
        t_defl, h = _best_time(lambda p=p: harmonic_inclusion_deflation(p), repeats)
        t_fast, w_fast = _best_time(lambda p=p: fedavg_weights(p).weights, repeats)
        rows.append(
            {
                "m": m,
                "t_subset_sum": t_sub,
                "t_exact_rule": t_rule,
                "t_deflation": t_defl,
                "t_fast": t_fast,
                "subset_over_fast": t_sub / t_fast,
                "err_subset_sum": _rel(w_sub, exact),
                "err_exact_rule": _rel(w_rule, exact),
                "err_deflation": _rel(h / prob_any_active(p), exact),
                "err_fast": _rel(w_fast, exact),
            }
        )
    return rows


def large_table(sizes: list[int], repeats: int, deflation_max: int) -> list[dict]:
    rows = []
    for m in sizes:
        p = _probabilities(m)
        t_fast, result = _best_time(lambda p=p: fedavg_weights(p), repeats)
        row = {
            "m": m,
            "t_fast": t_fast,
            "nodes": result.n_nodes,
            "certified_rel_bound": result.error_bound,
            "sum_minus_one": float(result.weights.sum() - 1.0),
        }
        if m <= deflation_max:
            t_defl, h = _best_time(lambda p=p: harmonic_inclusion_deflation(p), 1)
            row |= {
                "t_deflation": t_defl,
                "deflation_over_fast": t_defl / t_fast,
                "fast_vs_deflation": _rel(result.weights, h / prob_any_active(p)),
            }
        rows.append(row)
    return rows


def _print(rows: list[dict], title: str) -> None:
    print(title)
    keys = list(dict.fromkeys(k for r in rows for k in r))
    print("  ".join(f"{k:>16}" for k in keys))
    for r in rows:
        cells = []
        for k in keys:
            v = r.get(k, "")
            cells.append(f"{v:>16}" if isinstance(v, (int, str)) else f"{v:>16.3e}")
        print("  ".join(cells))
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the tables to this JSON file")
    parser.add_argument("--max-subset", type=int, default=24, help="largest m for table 1")
    parser.add_argument("--quick", action="store_true", help="smaller sizes, one repeat")
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else 3
    max_subset = min(args.max_subset, 16) if args.quick else args.max_subset
    sizes = [100, 1_000, 10_000] if args.quick else [100, 1_000, 10_000, 100_000]
    small = small_table(max_subset, repeats)
    large = large_table(sizes, repeats, deflation_max=10_000)
    _print(small, "Table 1: Proposition 1 weights, times in seconds, errors vs exact rationals")
    _print(large, "Table 2: certified fast path at scale (errors are relative)")
    if args.json:
        args.json.write_text(json.dumps({"small": small, "large": large}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
