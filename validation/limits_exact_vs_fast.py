"""Proposition 1 (FedPBC paper) weights: exact rationals vs the paper's subset sum vs fast paths.

w_i = E[1{i∈A}/|A| | A ≠ ∅] under independent links P(i ∈ A) = p_i. Reference: the paper's
subset-sum form evaluated in exact rationals (``fedavg_weights_exact``) on the exact binary
value of each float p_i; for m ≤ 10 it is itself checked against the definition, summed over
all 2^m availability sets (``fltheory.testing.limits.fedavg_weights_enumeration``). Compared:

* ``subset_sum``: the literal formula in floats (``fedavg_weights_subset_sum``, m ≤ 20);
* ``fast``: the certified Gauss rule (``fedavg_weights``), with its certified relative bound;
* ``deflation``: Poisson-binomial pmf deflation (``harmonic_inclusion_deflation``), O(m²).

Families: uniform p, p near 1 (where the alternating subset sum cancels catastrophically),
tiny p (1e-6..1e-3) and mixed extremes. Prints the worst relative error per method and family;
``--json PATH`` saves everything. Exit status 1 if the exact form disagrees with the definition,
or the fast path exceeds its certified bound (+1e-13 for rounding), or deflation exceeds 1e-10;
for m = 100 … 10⁴ (no exact reference) fast and deflation must agree to 1e-10.
"""

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

# The repository root goes on the path first, so this runs as `python DIR/script.py`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.limits.bernoulli import fedavg_weights, prob_any_active
from fltheory.limits.poisson_binomial import harmonic_inclusion_deflation
from fltheory.limits.subset_sum import fedavg_weights_exact, fedavg_weights_subset_sum
from fltheory.rng import generator
from fltheory.testing.limits import fedavg_weights_enumeration

METHODS = ("subset_sum", "fast", "deflation")
ROUNDING = 1e-13


def draw(rng: np.random.Generator, family: str, m: int) -> np.ndarray:
    if family == "uniform":
        return rng.uniform(0.0, 1.0, m)
    if family == "near one":
        return 1.0 - 10.0 ** rng.uniform(-6, -1, m)
    if family == "tiny":
        return 10.0 ** rng.uniform(-6, -3, m)
    return rng.choice([1e-6, 1e-3, 0.5, 0.999, 1.0 - 1e-6], m) * rng.uniform(0.9, 1.0, m)


def compare(p: np.ndarray) -> dict:
    exact_fr = fedavg_weights_exact([Fraction(float(v)) for v in p])
    exact = np.array([float(w) for w in exact_fr])
    row: dict = {"m": int(p.size)}
    if p.size <= 10:
        row["definition_equal"] = exact_fr == fedavg_weights_enumeration(
            [Fraction(float(v)) for v in p]
        )
    fast = fedavg_weights(p)
    found = {
        "fast": fast.weights,
        "deflation": harmonic_inclusion_deflation(p) / prob_any_active(p),
    }
    if p.size <= 20:
        found["subset_sum"] = fedavg_weights_subset_sum(p)
    for name, w in found.items():
        row[name] = float(np.max(np.abs(w - exact) / exact))
    row["fast_bound"] = fast.error_bound
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="m ≤ 12 and fewer draws")
    parser.add_argument("--json", type=Path, metavar="PATH", help="save the results as JSON")
    args = parser.parse_args(argv)
    sizes = (1, 2, 3, 5, 8, 12) if args.quick else (1, 2, 3, 5, 8, 12, 16, 20, 30, 40)
    draws = 2 if args.quick else 4
    rng = generator(0, "validation/limits")
    rows = []
    families = ("uniform", "near one", "tiny", "mixed")
    for family in families:
        for m in sizes:
            for _ in range(draws):
                rows.append({"family": family, **compare(draw(rng, family, m))})
    print("max relative error vs exact rationals (subset_sum only for m ≤ 20):")
    print(
        f"{'family':<10}{'m ≤':>5}" + "".join(f"{m:>12}" for m in METHODS) + f"{'fast bound':>12}"
    )
    for family in families:
        sub = [r for r in rows if r["family"] == family]
        cells = [max((r[m] for r in sub if m in r), default=float("nan")) for m in METHODS]
        bound = max(r["fast_bound"] for r in sub)
        print(
            f"{family:<10}{max(r['m'] for r in sub):>5}"
            + "".join(f"{c:>12.1e}" for c in cells)
            + f"{bound:>12.1e}"
        )
    definition_ok = all(r["definition_equal"] for r in rows if "definition_equal" in r)
    fast_ok = all(r["fast"] <= r["fast_bound"] + ROUNDING for r in rows)
    deflation_ok = all(r["deflation"] <= 1e-10 for r in rows)
    n_def = sum("definition_equal" in r for r in rows)
    print(f"exact subset-sum form = definition (all 2^m sets) on {n_def} draws: {definition_ok}")
    print(
        f"fast path within its certified bound + {ROUNDING:g}: {fast_ok}; "
        f"deflation within 1e-10: {deflation_ok}"
    )
    print(
        "max relative error vs exact: "
        + ", ".join(f"{m} {max(r[m] for r in rows if m in r):.1e}" for m in METHODS)
    )
    large = []
    for m in (100, 1000) if args.quick else (100, 1000, 10_000):
        for family in families:
            p = draw(rng, family, m)
            fast = fedavg_weights(p)
            other = harmonic_inclusion_deflation(p) / prob_any_active(p)
            diff = float(np.max(np.abs(fast.weights - other) / other))
            large.append(
                {
                    "family": family,
                    "m": m,
                    "fast_vs_deflation": diff,
                    "fast_bound": fast.error_bound,
                    "nodes": fast.n_nodes,
                }
            )
    print("no exact reference beyond m = 40: fast vs deflation (two independent routes)")
    for r in large:
        print(
            f"  {r['family']:<10} m = {r['m']:<6} |Δ|/w ≤ {r['fast_vs_deflation']:.1e} "
            f"(fast bound {r['fast_bound']:.1e}, {r['nodes']} nodes)"
        )
    large_ok = all(r["fast_vs_deflation"] <= 1e-10 for r in large)
    ok = definition_ok and fast_ok and deflation_ok and large_ok
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "large": large, "ok": ok}, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
