"""The authors' local mechanics, compiled kernel vs the torch path, measured in the same run.

Setting — CA-Fed's Fig. 1(a) under ``--setup authors`` (``fltheory reproduce cafed:fig1a
--full --setup authors``: LEAF Synthetic(0.5, 0.5) in the authors' layout, softmax regression
on 60 features + bias and 10 classes (P = 610), 2 local epochs of minibatches of 32 (ragged:
⌈n_k/32⌉ steps per epoch), local SGD momentum 0.9 and weight decay 1e-2 with persistent
per-client buffers, server momentum), with ``--clients`` (100) clients all available every
round and Unbiased aggregation, ``--seeds`` (10) seeds batched: the work of the authors'
per-client loop at equal work (every client trains every round).

Measured (CPU seconds of this process, torch on ``--threads`` = 1 thread; minimum over
``--repeats`` runs, each after an untimed first round):

* **ms per seed-round** of the whole engine round (local work of every client, aggregation,
  server step; evaluation only after the last round) for the torch path
  (``DataProblem.compiled = False``: :meth:`LocalRunner._torch
  <fltheory.sim.local_opt.LocalRunner._torch>`) and the compiled path
  (:func:`~fltheory.sim.cpu_kernels.linear_local`), and their ratio;
* the ratio against :data:`AUTHORS_MS_PER_SEED_ROUND`, the authors' code's figure (see there);
* one evaluation of the 10 global models (objective on the training set + test accuracy, what
  ``eval_every = 1`` adds to every round), compiled and torch;
* the compiled path's achieved FLOP rate: 4·C·f·E·Σn_k FLOP per seed-round (scores and
  gradient: two multiply-adds per class, input and sample; the softmax is not counted),
  against dense float32 matmuls (torch, i.e. its BLAS) of the same shapes on the same core:
  the scores (C × f)·(f × n) and the gradient (C × n)·(n × f) for n = all S samples at once,
  each client's n_k, and 32 (one call per minibatch); and a 512 × 512 product, roughly the
  core's arithmetic ceiling.

    python benchmarks/bench_authors_mechanics.py [--seeds 10] [--clients 100] [--rounds 6]
        [--torch-rounds 3] [--repeats 3] [--threads 1] [--json PATH]

Target (issue 23): compiled ≤ 12.4 ms per seed-round, ≥ 50× the authors' figure, with
``OMP_NUM_THREADS=1``.
"""

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fltheory.experiments.model import get  # noqa: E402
from fltheory.sim import cpu_kernels  # noqa: E402
from fltheory.sim.compare import Setup  # noqa: E402
from fltheory.sim.config import build  # noqa: E402

#: The reference figure: ms per seed-round of the authors' own code (arodio/CA-Fed, run
#: unmodified but for a driver) at N = 100 with every client training every round, Unbiased,
#: the Fig. 1a setting — measured with their code in issue 23's side-by-side comparison, not
#: by this script (their code is not part of fltheory).
AUTHORS_MS_PER_SEED_ROUND = 620.0

#: The issue's target: this many times faster than :data:`AUTHORS_MS_PER_SEED_ROUND`.
TARGET_RATIO = 50.0


def config(clients: int) -> dict:
    """The authors' Fig. 1a run table with every client available and Unbiased alone."""
    raw = get("cafed:fig1a").setup("authors").configs["full"]()
    raw["device"] = "cpu"
    raw["problem"]["n_clients"] = clients
    raw["algorithms"] = [a for a in raw["algorithms"] if a["name"] == "unbiased"]
    raw["availability"] = {"kind": "bernoulli", "p": 1.0}
    return raw


def ms_per_seed_round(cfg, compiled: bool, seeds: int, rounds: int, repeats: int) -> float:
    """CPU ms per seed-round of rounds 2 .. T (the first round untimed), minimum over
    ``repeats`` runs; evaluation only after the last round (not timed)."""
    cfg.problem.compiled = compiled
    settings = replace(cfg.settings, rounds=rounds + 1, eval_every=10**6)
    best = float("inf")
    for _ in range(repeats):
        setup = Setup(cfg.problem, cfg.process, settings, cfg.seed, seeds, cfg.prior)
        stamps: list[float] = []
        setup.run(cfg.specs[0], observe=lambda t, w, s=stamps: s.append(time.process_time()))
        best = min(best, (stamps[rounds] - stamps[0]) / (seeds * rounds))
    return 1e3 * best


def eval_ms(problem, compiled: bool, seeds: int, repeats: int) -> float:
    """CPU ms of one evaluation (objective + accuracy) of ``seeds`` models."""
    problem.compiled = compiled
    w = 0.1 * torch.randn(seeds, problem.n_params, generator=torch.Generator().manual_seed(0))
    best = float("inf")
    for _ in range(repeats + 1):
        start = time.process_time()
        problem.objective(w)
        problem.accuracy(w)
        best = min(best, time.process_time() - start)
    return 1e3 * best


def dense_gflops(classes: int, inputs: int, counts, repeats: int) -> dict[str, float]:
    """GFLOP/s of float32 matmuls (torch's BLAS) of the round's shapes: the scores
    (C × f)·(f × n) and the gradient (C × n)·(n × f) with n = all samples at once ("round"),
    each client's n_k ("clients": what stays in cache, as in the kernel) and 32 ("steps",
    one call per minibatch)."""
    gen = torch.Generator().manual_seed(1)
    total = int(counts.sum())
    w = torch.randn(classes, inputs, generator=gen)
    x = torch.randn(total, inputs, generator=gen)
    r = torch.randn(classes, total, generator=gen)
    starts = [0, *counts.cumsum()[:-1].tolist()]
    sizes = {
        "round": [(0, total)],
        "clients": list(zip(starts, counts.tolist(), strict=True)),
        "steps": [(s, 32) for s in range(0, total - 32, 32)],
    }
    parts = {
        name: [(x[s : s + n], r[:, s : s + n].contiguous()) for s, n in spans]
        for name, spans in sizes.items()
    }
    out = {}
    for name, blocks in parts.items():
        best = float("inf")
        for _ in range(repeats + 1):
            start = time.process_time()
            for xb, rb in blocks:
                torch.mm(w, xb.T)
                torch.mm(rb, xb)
            best = min(best, time.process_time() - start)
        samples = sum(xb.shape[0] for xb, _ in blocks)
        out[name] = 4 * classes * inputs * samples / best / 1e9
    a = torch.randn(512, 512, generator=gen)
    best = float("inf")
    for _ in range(repeats + 1):
        start = time.process_time()
        for _ in range(10):
            torch.mm(a, a)
        best = min(best, time.process_time() - start)
    out["square_512"] = 10 * 2 * 512**3 / best / 1e9  # the core's arithmetic ceiling, roughly
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=6, help="timed rounds, compiled path")
    parser.add_argument("--torch-rounds", type=int, default=3, help="timed rounds, torch path")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    if not cpu_kernels.AVAILABLE:
        sys.exit("numba is not installed: no compiled path to measure")
    cfg = build(config(args.clients))
    problem = cfg.problem
    counts = problem.train_counts
    classes, inputs, epochs = problem.model.n_classes, problem.model.n_features + 1, 2
    flop = 4 * classes * inputs * epochs * int(counts.sum())
    steps = int((epochs * -(-counts // cfg.settings.batch_size)).sum())
    print(
        f"authors' Fig. 1a mechanics: N = {args.clients} (all available), {args.seeds} seeds, "
        f"softmax {inputs}×{classes}, {int(counts.sum())} samples, E = {epochs}, B = "
        f"{cfg.settings.batch_size}: {steps} local steps and {flop / 1e6:.0f} MFLOP per "
        f"seed-round; threads {args.threads}, load average {os.getloadavg()[0]:.1f}"
    )
    start = time.perf_counter()
    ms_per_seed_round(cfg, True, args.seeds, 1, 1)  # numba's compilation or cache load
    first = time.perf_counter() - start
    fast = ms_per_seed_round(cfg, True, args.seeds, args.rounds, args.repeats)
    slow = ms_per_seed_round(cfg, False, args.seeds, args.torch_rounds, args.repeats)
    ratio, vs_authors = slow / fast, AUTHORS_MS_PER_SEED_ROUND / fast
    print(f"torch path:    {slow:8.2f} ms per seed-round")
    print(
        f"compiled path: {fast:8.2f} ms per seed-round ({1e3 * fast / steps:.2f} µs per local "
        f"step; first run, one round: {first:.1f} s wall, numba's compilation or cache load)"
    )
    print(f"RATIO torch / compiled: {ratio:.1f}x")
    print(
        f"RATIO vs the authors' code ({AUTHORS_MS_PER_SEED_ROUND:.0f} ms per seed-round, "
        f"measured with their code, issue 23): {vs_authors:.1f}x (target >= {TARGET_RATIO:.0f}x, "
        f"<= {AUTHORS_MS_PER_SEED_ROUND / TARGET_RATIO:.1f} ms): "
        f"{'met' if vs_authors >= TARGET_RATIO else 'NOT met'}"
    )
    ev_fast = eval_ms(problem, True, args.seeds, args.repeats)
    ev_slow = eval_ms(problem, False, args.seeds, args.repeats)
    print(
        f"evaluation of the {args.seeds} models (objective + accuracy, eval_every = 1 adds it "
        f"to every round): compiled {ev_fast / args.seeds:.2f} ms per seed, torch "
        f"{ev_slow / args.seeds:.2f} ms per seed; with it every round the compiled path is "
        f"{fast + ev_fast / args.seeds:.2f} ms per seed-round "
        f"({AUTHORS_MS_PER_SEED_ROUND / (fast + ev_fast / args.seeds):.1f}x the authors')"
    )
    achieved = flop / (fast / 1e3) / 1e9
    dense = dense_gflops(classes, inputs, counts, args.repeats)
    same = max(dense[k] for k in ("round", "clients", "steps"))
    print(
        f"FLOP rate: compiled path {achieved:.1f} GFLOP/s over the whole engine round; dense "
        f"float32 matmul of the same shapes on this core (torch's BLAS): all samples at once "
        f"{dense['round']:.1f}, client by client {dense['clients']:.1f}, 32-sample steps "
        f"{dense['steps']:.1f} GFLOP/s (compiled / best of these: {achieved / same:.2f}); a "
        f"512×512 product, the core's ceiling: {dense['square_512']:.1f} GFLOP/s (compiled: "
        f"{achieved / dense['square_512']:.0%} of it)"
    )
    if args.json:
        figures = {
            "clients": args.clients, "seeds": args.seeds, "steps_per_seed_round": steps,
            "flop_per_seed_round": flop, "torch_ms_per_seed_round": slow,
            "compiled_ms_per_seed_round": fast, "ratio_torch_over_compiled": ratio,
            "authors_ms_per_seed_round": AUTHORS_MS_PER_SEED_ROUND,
            "ratio_vs_authors": vs_authors, "target_ratio_vs_authors": TARGET_RATIO,
            "eval_ms_per_seed_compiled": ev_fast / args.seeds,
            "eval_ms_per_seed_torch": ev_slow / args.seeds,
            "compiled_gflops": achieved, "dense_matmul_gflops": dense, "first_run_s": first,
            "threads": args.threads, "load_average": os.getloadavg()[0],
        }  # fmt: skip
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
