"""Vectorised simulator vs the per-client reference loops, ratios measured in the same run.

Part 1 — CA-Fed ToN Fig. 1(a) setting: LEAF Synthetic(0.5, 0.5), N = 100 clients, the paper's
availability population, E = 2, minibatches of 32, the five algorithms of
examples/sim_ca_fed_fig1a.toml.
Part 2 — the stale-update algorithms (FedPBC, its Remark-1 variant, FedAR, MIFA, FedVARP,
FedAvg-IS, FedAvg (S = 50)) on the same Synthetic problem and trace; then the two-layer CNN
(channels 32, 64, 5×5 kernels) on scikit-learn's digits (N = 100, Dirichlet(0.5)) with FedAvg,
FedAR and FedPBC (examples/sim_ca_fed_fig1b_digits.toml with model = "cnn").

The vectorised engine runs R seeds × T rounds on one shared trace; the loop runs fewer seeds
and rounds and its time is extrapolated linearly in seeds × rounds (each seed-round costs the
same in the loop). Rates are seed-rounds per second, after an untimed 3-round warm-up of both.
torch uses ``--threads`` intra-op threads (default 1).

    python benchmarks/bench_sim.py [--part all|1|2] [--seeds 10] [--rounds 200] \
        [--loop-rounds 10] [--cnn-seeds 2] [--cnn-rounds 20] [--cnn-loop-rounds 2]
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

from fltheory.sim import algorithms as algs  # noqa: E402
from fltheory.sim.compare import Setup  # noqa: E402
from fltheory.sim.config import build, load_config  # noqa: E402
from fltheory.sim.settings import AlgorithmSpec, Schedule  # noqa: E402


def compare(title, cfg, specs, seeds, rounds, loop_seeds, loop_rounds) -> None:
    """Time every spec vectorised and in the loop on one problem; print rates and ratios."""
    settings = replace(cfg.settings, rounds=rounds)
    warm = Setup(cfg.problem, cfg.process, replace(settings, rounds=3), cfg.seed, 2, cfg.prior)
    for spec in specs:
        warm.run(spec)
        warm.run(spec, implementation="reference")
    start = time.perf_counter()
    setup = Setup(cfg.problem, cfg.process, settings, cfg.seed, seeds, cfg.prior)
    fast = {spec.label: setup.run(spec) for spec in specs}
    total = time.perf_counter() - start
    loop_setup = Setup(
        cfg.problem, cfg.process, replace(settings, rounds=loop_rounds), cfg.seed, loop_seeds
    )
    slow = {spec.label: loop_setup.run(spec, implementation="reference") for spec in specs}
    s = settings
    print(
        f"\n{title}: N={cfg.problem.n_clients}, P={cfg.problem.n_params}, E={s.local_steps}, "
        f"B={s.batch_size}, {cfg.dtype}, load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores"
    )
    print(
        f"vectorised: {seeds} seeds x {rounds} rounds; reference loop: {loop_seeds} seed(s) x "
        f"{loop_rounds} rounds, extrapolated per seed-round"
    )
    print(f"{'algorithm':<30}{'vectorised':>12}{'loop':>10}{'speed-up':>10}  (seed-rounds/s)")
    ratios = []
    for label, run in fast.items():
        fast_rate = seeds * rounds / run.seconds
        slow_rate = loop_seeds * loop_rounds / slow[label].seconds
        ratios.append(fast_rate / slow_rate)
        print(f"{label:<30}{fast_rate:>12.1f}{slow_rate:>10.2f}{ratios[-1]:>9.1f}x")
    loop_total = sum(r.seconds * seeds * rounds / (loop_seeds * loop_rounds) for r in slow.values())
    print(
        f"whole comparison: vectorised {total:.1f} s, loop ~{loop_total:.0f} s (extrapolated); "
        f"speed-up {loop_total / total:.1f}x, per algorithm min {min(ratios):.1f}x"
    )


def part2_specs(schedule: Schedule, n: int) -> list[AlgorithmSpec]:
    rules = [
        ("fedpbc", algs.FedPBC()),
        ("fedpbc (active compute)", algs.FedPBC(compute="active")),
        ("fedar (p=0.1)", algs.FedAR()),
        ("mifa", algs.MIFA()),
        ("fedvarp", algs.FedVARP()),
        ("fedavg_is", algs.FedAvgIS()),
        (f"fedavg (S={n // 2})", algs.FedAvgSampled(s=n // 2)),
    ]
    return [AlgorithmSpec(label, alg, schedule) for label, alg in rules]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["all", "1", "2"], default="all")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--loop-seeds", type=int, default=1)
    parser.add_argument("--loop-rounds", type=int, default=10)
    parser.add_argument("--cnn-seeds", type=int, default=2)
    parser.add_argument("--cnn-rounds", type=int, default=20)
    parser.add_argument("--cnn-loop-rounds", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    cfg = load_config(ROOT / "examples" / "sim_ca_fed_fig1a.toml", device="cpu")
    loop = (args.loop_seeds, args.loop_rounds)
    if args.part in ("all", "1"):
        compare("Part 1, Synthetic(0.5, 0.5)", cfg, cfg.specs, args.seeds, args.rounds, *loop)
    if args.part in ("all", "2"):
        specs = part2_specs(Schedule(0.05), cfg.problem.n_clients)
        compare("Part 2, Synthetic(0.5, 0.5)", cfg, specs, args.seeds, args.rounds, *loop)
        digits = load_config(ROOT / "examples" / "sim_ca_fed_fig1b_digits.toml", device="cpu")
        raw = {**digits.raw, "problem": {**digits.raw["problem"], "model": "cnn", "ridge": 1e-3}}
        cnn = build(raw, base=ROOT / "examples")
        schedule = Schedule(0.1)
        specs = [AlgorithmSpec("fedavg", algs.FedAvg(), schedule)] + [
            s for s in part2_specs(schedule, 100) if s.label in ("fedpbc", "fedar (p=0.1)")
        ]
        title = "Part 2, CNN (32, 64 channels, 5x5) on digits"
        compare(title, cnn, specs, args.cnn_seeds, args.cnn_rounds, 1, args.cnn_loop_rounds)


if __name__ == "__main__":
    main()
