"""``fltheory chain --clients-file F --json`` at scale: the clients CSV reader and the JSON writer.

Usage: ``python benchmarks/bench_clients_csv.py [--clients N] [--repeats R]``

Writes a CSV of N admissible (π, λ₂) clients (default 10⁶), then times, in the same run:

* parse — the previous reader (``csv.reader`` and one ``float()`` per cell in a Python loop)
  against :func:`fltheory.markov.population.load_clients_csv` (one C parse of the whole file,
  with the same checks: bounded exponents, no NaN/inf, admissible pairs);
* JSON — the previous conversion (``to_jsonable`` recursing into ``tolist()`` element by
  element, then ``json.dumps``) against the current one (``tolist()`` of finite arrays in C);
* the whole command as a subprocess (interpreter start included), wall time.

Ratios are naive / current. Times are the best of ``--repeats`` runs.
"""

import argparse
import contextlib
import csv
import io
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from fltheory.api.chain import chain_report
from fltheory.cli.output import emit_json
from fltheory.markov.population import load_clients_csv
from fltheory.markov.product import ProductChain
from fltheory.rng import generator


def _best(fn: Any, repeats: int) -> tuple[float, Any]:
    best, out = math.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def naive_load(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """The reader this replaces: csv.reader and float() per cell."""
    with path.open(newline="") as handle:
        rows = list(csv.reader(handle))
    header = [name.strip() for name in rows[0]]
    columns = [header.index("pi"), header.index("lambda2")]
    records = [row for row in rows[1:] if any(row)]
    values = np.empty((len(records), 2))
    for i, row in enumerate(records):
        for j, c in enumerate(columns):
            values[i, j] = float(row[c].strip())
            if not math.isfinite(values[i, j]):
                raise ValueError("not finite")
    return values[:, 0].copy(), values[:, 1].copy()


def naive_jsonable(value: Any) -> Any:
    """The converter this replaces: arrays through tolist(), then element by element."""
    if isinstance(value, dict):
        return {str(k): naive_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [naive_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return naive_jsonable(value.tolist())
    if isinstance(value, np.bool_ | bool):
        return bool(value)
    if isinstance(value, np.integer | int):
        return int(value)
    if isinstance(value, np.floating | float):
        f = float(value)
        return f if math.isfinite(f) else None
    return value


def write_clients(path: Path, n: int) -> None:
    rng = generator(0, "bench/clients-csv")
    pi = rng.uniform(0.05, 0.95, n)
    lambda2 = rng.uniform(0.0, 0.9, n)
    lines = (f"{a!r},{b!r}" for a, b in zip(pi.tolist(), lambda2.tolist(), strict=True))
    path.write_text("pi,lambda2\n" + "\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=10**6)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "clients.csv"
        write_clients(path, args.clients)
        t_naive, (pi0, lam0) = _best(lambda: naive_load(path), args.repeats)
        t_fast, (pi1, lam1) = _best(lambda: load_clients_csv(path), args.repeats)
        assert np.array_equal(pi0, pi1) and np.array_equal(lam0, lam1), "readers disagree"
        payload = chain_report(ProductChain(pi1, lam1)).to_dict()

        def naive_json() -> str:
            return json.dumps(naive_jsonable(payload), allow_nan=False)

        def fast_json() -> str:
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer):
                emit_json(payload)
            return buffer.getvalue()

        j_naive, text0 = _best(naive_json, args.repeats)
        j_fast, text1 = _best(fast_json, args.repeats)
        assert text0 + "\n" == text1, "JSON writers disagree"
        root = Path(__file__).resolve().parents[1]
        env = {**os.environ, "PYTHONPATH": str(root), "OMP_NUM_THREADS": "1"}
        command = [sys.executable, "-m", "fltheory", "chain", "--clients-file", str(path), "--json"]

        def whole() -> None:
            subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)

        t_cmd, _ = _best(whole, args.repeats)
    n = f"{args.clients:,}"
    print(f"{'step':<34}{'naive s':>10}{'current s':>11}{'ratio':>8}")
    print(f"{'parse ' + n + ' clients':<34}{t_naive:>10.3f}{t_fast:>11.3f}{t_naive / t_fast:>8.1f}")
    print(f"{'JSON of the report':<34}{j_naive:>10.3f}{j_fast:>11.3f}{j_naive / j_fast:>8.1f}")
    print(f"whole command (wall, best of {args.repeats}): {t_cmd:.2f} s  [{' '.join(command[1:])}]")


if __name__ == "__main__":
    main()
