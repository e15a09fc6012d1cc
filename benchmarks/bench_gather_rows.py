"""FedAR's full-size local steps (softmax regression on the torch path) with a chunk's minibatch
rows gathered into one reused buffer (``DataProblem._gather_rows``) against a fresh tensor per
chunk (the code before), in the same invocation.

Each variant is a fresh process (``OMP_NUM_THREADS=1``) simulating ``--rounds`` rounds of
FedAR on fedar:fig2's full configuration (Fashion-MNIST standing in for MNIST, N = 100,
p_min = 0.1, 5 local steps of 64, 10 seeds); the "fresh" variant patches ``_gather_rows`` to
``index_select`` into a new tensor. Printed per variant: user and system CPU seconds and minor
page faults of the child (getrusage), and the ratios; both variants must give the same final
models bit for bit (the script exits 1 otherwise).

    python benchmarks/bench_gather_rows.py [--rounds 20] [--repeats 1]
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The child's program: argv = variant, rounds; prints one JSON line.
CHILD = """
import hashlib, json, resource, sys
import numpy as np
from fltheory.api.simulation import simulate
from fltheory.experiments.catalog.fedar_common import full_config
from fltheory.experiments.data_sources import resolve
from fltheory.sim.problems import DataProblem
if sys.argv[1] == "fresh":
    DataProblem._gather_rows = lambda self, rows: self._xy.index_select(0, rows)
config = full_config("paper", 0.1, ("fedar",))
config["run"]["rounds"] = int(sys.argv[2])
tables, _ = resolve(config, None)
before = resource.getrusage(resource.RUSAGE_SELF)
report = simulate(tables, seeds=10, device="cpu", threads=1)
after = resource.getrusage(resource.RUSAGE_SELF)
digest = hashlib.sha256(np.ascontiguousarray(report.runs[0].final_w).tobytes()).hexdigest()
print(json.dumps({"user": after.ru_utime - before.ru_utime,
                  "sys": after.ru_stime - before.ru_stime,
                  "minflt": after.ru_minflt - before.ru_minflt, "final_w": digest}))
"""


def run(variant: str, rounds: int) -> dict[str, float | str]:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, variant, str(rounds)],
        env=env, capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    result: dict[str, float | str] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    if args.rounds < 1 or args.repeats < 1:
        parser.error("--rounds and --repeats must be >= 1")
    rows: dict[str, list[dict[str, float | str]]] = {"reused": [], "fresh": []}
    for _ in range(args.repeats):
        for variant in rows:  # alternating, so both see the same phases of a shared host
            rows[variant].append(run(variant, args.rounds))
            r = rows[variant][-1]
            print(f"{variant:7s} user {r['user']:7.2f} s  sys {r['sys']:6.2f} s  "
                  f"minor faults {r['minflt']:>9}", flush=True)  # fmt: skip
    best = {v: min(rows[v], key=lambda r: float(r["user"]) + float(r["sys"])) for v in rows}
    cpu = {v: float(best[v]["user"]) + float(best[v]["sys"]) for v in rows}
    system = float(best["fresh"]["sys"]) / max(float(best["reused"]["sys"]), 1e-9)
    faults = int(best["fresh"]["minflt"]) / max(int(best["reused"]["minflt"]), 1)
    print(f"RATIO fresh / reused: CPU {cpu['fresh'] / cpu['reused']:.2f}x, "
          f"system {system:.1f}x, minor faults {faults:.1f}x")  # fmt: skip
    same = len({r["final_w"] for v in rows for r in rows[v]}) == 1
    print(f"same final models: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
