"""Per-round cost of a Flower simulation (fltheory.flower strategies, Ray backend) vs fltheory's
vectorised engine, on the same quadratic federation and availability trace.

Both run the same rule for T rounds from the same w0; the engine time is its own compute time
(``RunResult.seconds``) and Flower's is the wall time of ``Strategy.start`` (messages through
the simulation engine, one local run per message; Ray's start-up excluded by a warm-up run).
Printed per rule: seconds per round of each, their ratio (Flower / engine), and the largest
difference between the two final models.

    python benchmarks/bench_flower.py [--clients 10] [--rounds 20] [--dim 20] [--json PATH]

Needs the ``flower`` extra (``make test-flower`` builds .venv-flower); without Flower it says
so and exits 0.
"""

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fltheory.rng import generator  # noqa: E402
from fltheory.sim.algorithms import MIFA, CAFed, FedAvg, FedPBC, Unbiased  # noqa: E402
from fltheory.sim.availability import TwoStateChains  # noqa: E402
from fltheory.sim.compare import Setup  # noqa: E402
from fltheory.sim.problems import QuadraticSim  # noqa: E402
from fltheory.sim.settings import AlgorithmSpec, Schedule, SimSettings  # noqa: E402

SCHEDULE = Schedule(0.05)
STEPS = 5
RULES = {
    "fedavg": ("FedAvgStrategy", {}, FedAvg()),
    "unbiased": ("UnbiasedStrategy", {}, Unbiased()),
    "ca_fed": ("CAFedStrategy", {"kappa2": 0.25}, CAFed(kappa2=0.25)),
    "fedpbc": ("FedPBCStrategy", {}, FedPBC()),
    "mifa": ("MIFAStrategy", {}, MIFA()),
}


def federation(n: int, dim: int, rounds: int):
    rng = generator(0, "bench/flower")
    problem = QuadraticSim(
        rng.normal(size=(n, dim)), np.full(n, 1 / n), rng.uniform(0.5, 2, (n, dim))
    )
    process = TwoStateChains(rng.uniform(0.2, 0.9, n), rng.uniform(0.0, 0.8, n))
    setup = Setup(problem, process, SimSettings(rounds, STEPS), seed=0, reps=1)
    return problem, process, setup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--dim", type=int, default=20)
    parser.add_argument("--json", type=Path, help="also write the table to this JSON file")
    args = parser.parse_args()
    if importlib.util.find_spec("flwr") is None:
        print("bench_flower: skipped, Flower is not installed (make test-flower builds it)")
        return
    from flwr.app import ArrayRecord
    from flwr.serverapp import ServerApp
    from flwr.simulation import run_simulation

    import fltheory.flower as ff

    problem, process, setup = federation(args.clients, args.dim, args.rounds)
    driver = ff.AvailabilityDriver(setup.trace[0])
    oracle = {"pi": process.pi, "lambda2": process.lambda2}
    flower: dict[str, tuple[float, np.ndarray]] = {}
    app = ServerApp()

    @app.main()
    def main_app(grid, context):
        for name, (cls, params, _) in [("warm-up", RULES["fedavg"]), *RULES.items()]:
            strategy = getattr(ff, cls)(
                alpha=problem.alpha, schedule=SCHEDULE, local_steps=STEPS, driver=driver,
                run=name, **oracle, **params,
            )  # fmt: skip
            start = time.perf_counter()
            result = strategy.start(grid, ArrayRecord([np.zeros(args.dim)]), args.rounds)
            seconds = (time.perf_counter() - start) / args.rounds
            flower[name] = (seconds, result.arrays.to_numpy_ndarrays()[0])

    backend = {
        "client_resources": {"num_cpus": 1},
        "init_args": {"num_cpus": 2, "include_dashboard": False, "log_to_driver": False},
    }
    run_simulation(app, ff.problem_client_app(problem), args.clients, backend_config=backend)
    rows = []
    print(f"N = {args.clients}, d = {args.dim}, T = {args.rounds}, E = {STEPS} (quadratic, CPU)")
    print(
        f"{'rule':<10} {'engine s/round':>15} {'Flower s/round':>15} {'ratio':>8} {'max |Δw|':>10}"
    )
    for name, (_, _, rule) in RULES.items():
        run = setup.run(AlgorithmSpec(name, rule, SCHEDULE))
        engine = run.seconds / args.rounds
        seconds, w = flower[name]
        gap = float(np.abs(w - run.final_w[0]).max())
        rows.append({"rule": name, "engine": engine, "flower": seconds, "ratio": seconds / engine,
                     "max_abs_diff": gap})  # fmt: skip
        print(f"{name:<10} {engine:>15.2e} {seconds:>15.2e} {seconds / engine:>8.0f} {gap:>10.1e}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
