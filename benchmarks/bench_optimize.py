"""Solve times of the aggregation-weight optimisers: cvxpy (problems 212 and 14) vs the closed
form of problem 212, for N = 10 … 10 000 clients.

Every timing is the best of k wall-clock runs of the PUBLIC call (input checks, solve, Newton
polish and KKT certification included); cvxpy times include building and compiling the
problem, except the "14 re-solve" column, which re-solves the compiled DPP problem of (14) at a
new c_bias (the cost of one point of a trade-off sweep). A cvxpy method whose call exceeds
``--cap`` seconds is not run at larger N.

    python benchmarks/bench_optimize.py [--sizes 10 100 1000 10000] [--json out.json]
"""

import argparse
import json
import platform
import time
from collections.abc import Callable

import numpy as np

from fltheory.optimize import problem212
from fltheory.optimize.problem14 import Problem14
from fltheory.rng import generator


def instance(n: int, seed: int, v: float = 0.05) -> dict:
    """A random instance; the default v ≫ sQ²/N makes Guideline A bite (clients excluded)."""
    rng = generator(seed, f"bench-optimize-{n}")
    pi = rng.uniform(0.05, 1.0, n)
    alpha = rng.dirichlet(np.ones(n))
    s = np.exp(rng.uniform(-1.0, 1.0, n))
    return {"pi": pi, "alpha": alpha, "s": s, "v": v, "Q": 1.0}


def best_of(k: int, fn: Callable[[], object]) -> tuple[float, object]:
    best, out = np.inf, None
    for _ in range(k):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def measure(inst: dict, k_cvx: int, repeats: int, capped: set[str]) -> dict:
    """One table row for one instance."""
    pi, alpha, s, v, Q = inst["pi"], inst["alpha"], inst["s"], inst["v"], inst["Q"]
    row: dict = {"n": pi.size}
    t_closed, closed = best_of(max(repeats, 5), lambda: problem212.solve_closed_form(pi, s, v, Q))
    row.update(closed_s=t_closed, n_excluded=len(closed.excluded))
    if "212" not in capped:
        t, res = best_of(k_cvx, lambda: problem212.solve_cvxpy(pi, s, v, Q))
        row.update(
            cvxpy212_s=t,
            cvxpy212_solver=res.solver,
            max_abs_dq=float(np.max(np.abs(res.q - closed.q))),
            rel_dobj=abs(res.objective - closed.objective) / closed.objective,
        )
    if "14" not in capped:

        def build_and_solve():
            prob = Problem14(pi, alpha, s, v, Q)
            return prob, prob.solve(1.0, 1.0)

        t, (prob, res14) = best_of(k_cvx, build_and_solve)
        t_re, _ = best_of(k_cvx, lambda: prob.solve(1.0, 2.0))
        row.update(
            cvxpy14_s=t,
            cvxpy14_resolve_s=t_re,
            cvxpy14_solver=res14.solver,
            kkt14=res14.kkt_residual,
        )
    return row


def run(sizes: list[int], repeats: int, cap: float, seed: int, v: float) -> list[dict]:
    rows: list[dict] = []
    capped: set[str] = set()
    for n in sizes:
        row = measure(instance(n, seed, v), 1 if n >= 10_000 else repeats, repeats, capped)
        capped |= {"212"} if row.get("cvxpy212_s", 0.0) > cap else set()
        capped |= {"14"} if row.get("cvxpy14_s", 0.0) > cap else set()
        rows.append(row)
        print_row(row)
    return rows


HEADER = (
    f"{'N':>6} {'closed 212':>11} {'cvxpy 212':>10} {'ratio':>8} {'cvxpy 14':>10} "
    f"{'14 re-solve':>11} {'excl.':>6} {'max|Δq|':>9} {'rel Δobj':>9}"
)


def fmt(x: float | None, spec: str) -> str:
    return "capped" if x is None else format(x, spec)


def print_row(row: dict) -> None:
    c212 = row.get("cvxpy212_s")
    ratio = None if c212 is None else c212 / row["closed_s"]
    print(
        f"{row['n']:>6} {fmt(row['closed_s'], '11.2e')} {fmt(c212, '10.2e')} "
        f"{fmt(ratio, '8.0f')} {fmt(row.get('cvxpy14_s'), '10.2e')} "
        f"{fmt(row.get('cvxpy14_resolve_s'), '11.2e')} {row['n_excluded']:>6} "
        f"{fmt(row.get('max_abs_dq'), '9.1e')} {fmt(row.get('rel_dobj'), '9.1e')}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000, 10_000])
    parser.add_argument("--repeats", type=int, default=3, help="k of best-of-k (cvxpy)")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds; skip larger N after")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--v", type=float, default=0.05, help="v of eq. 13 (1e-6: no exclusion)")
    parser.add_argument("--json", dest="json_path", default=None, help="save rows as JSON")
    args = parser.parse_args()
    print("times in seconds, best of k; ratio = cvxpy 212 / closed form")
    print(HEADER)
    rows = run(args.sizes, args.repeats, args.cap, args.seed, args.v)
    if args.json_path:
        meta = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "v": args.v,
            "seed": args.seed,
        }
        with open(args.json_path, "w") as fh:
            json.dump({"meta": meta, "rows": rows}, fh, indent=2)


if __name__ == "__main__":
    main()
