"""Vectorised simulator vs the per-client reference loop (CA-Fed ToN Fig. 1(a) setting).

LEAF Synthetic(0.5, 0.5), N = 100 clients, the paper's availability population, E = 2 local
steps, minibatches of 32, the objective and test accuracy evaluated every round, all five
algorithms (examples/sim_ca_fed_fig1a.toml). The vectorised engine runs the whole comparison
(R seeds × T rounds, one shared trace); the loop runs fewer rounds and seeds, and its time is
extrapolated linearly in seeds × rounds (each seed-round costs the same in the loop). Rates are
seed-rounds per second, after an untimed 3-round warm-up of both. torch uses ``--threads``
intra-op threads (default 1).

    python benchmarks/bench_sim.py [--seeds 10] [--rounds 200] [--loop-rounds 10]
"""

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fltheory.sim.compare import Setup  # noqa: E402
from fltheory.sim.config import load_config  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--loop-seeds", type=int, default=1)
    parser.add_argument("--loop-rounds", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    cfg = load_config(ROOT / "examples" / "sim_ca_fed_fig1a.toml", device="cpu")
    settings = replace(cfg.settings, rounds=args.rounds)

    # Warm-up (library initialisation, first-touch allocations), not timed.
    warm = Setup(cfg.problem, cfg.process, replace(settings, rounds=3), cfg.seed, 2, cfg.prior)
    for spec in cfg.specs:
        warm.run(spec)
        warm.run(spec, implementation="reference")

    start = time.perf_counter()
    setup = Setup(cfg.problem, cfg.process, settings, cfg.seed, args.seeds, cfg.prior)
    fast = {spec.label: setup.run(spec) for spec in cfg.specs}
    total = time.perf_counter() - start

    loop_settings = replace(cfg.settings, rounds=args.loop_rounds)
    loop_setup = Setup(cfg.problem, cfg.process, loop_settings, cfg.seed, args.loop_seeds)
    slow = {spec.label: loop_setup.run(spec, implementation="reference") for spec in cfg.specs}

    load = os.getloadavg()[0]
    print(
        f"Synthetic(0.5, 0.5), N={cfg.problem.n_clients}, E={settings.local_steps}, "
        f"B={settings.batch_size}, {cfg.dtype}, torch threads={args.threads}, "
        f"load average {load:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"vectorised: {args.seeds} seeds x {args.rounds} rounds; reference loop: "
        f"{args.loop_seeds} seed(s) x {args.loop_rounds} rounds, extrapolated per seed-round"
    )
    print(f"{'algorithm':<22}{'vectorised':>14}{'loop':>12}{'speed-up':>10}  (seed-rounds/s)")
    ratios = []
    for label, run in fast.items():
        fast_rate = args.seeds * args.rounds / run.seconds
        slow_rate = args.loop_seeds * args.loop_rounds / slow[label].seconds
        ratios.append(fast_rate / slow_rate)
        print(f"{label:<22}{fast_rate:>14.1f}{slow_rate:>12.2f}{ratios[-1]:>9.1f}x")
    loop_total = sum(
        r.seconds * (args.seeds * args.rounds) / (args.loop_seeds * args.loop_rounds)
        for r in slow.values()
    )
    print(
        f"whole comparison ({len(fast)} algorithms, {args.seeds} seeds, {args.rounds} rounds): "
        f"vectorised {total:.1f} s, loop ~{loop_total:.0f} s (extrapolated); "
        f"speed-up {loop_total / total:.1f}x, per algorithm min {min(ratios):.1f}x"
    )


if __name__ == "__main__":
    main()
