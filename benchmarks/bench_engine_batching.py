"""The engine's plain-SGD path today vs before issue 14, ratios measured in the same run.

The "old" path is kept callable here: :class:`OldBatchPlan` is the former plan (16-round int64
blocks of numpy's bounded integers cached for every seed, a round stacked to (R, E, N, B)) and
:func:`old_local_sgd` the former ``DataProblem.local_sgd`` (per step: gather,
``Model.loss_grad``, θ − lr·g). Both run through the same ``run_vectorised`` (the old problem
has no ``local_sgd_round``, so the engine takes its former branch). The "new" path is the
engine as it runs here: with numba installed, logistic regression on CPU in float32 runs
through the compiled kernels (:mod:`fltheory.sim.cpu_kernels`: a small plan's raw words to the
sample rows of the participating pairs, then the E steps in one call); softmax regression
steps with torch. The new plan draws other numbers (multiply-shift of raw words), so the two
engines' weights are compared on the old plan's draws.

Part a — memory-aware batching: LEAF Synthetic(0.5, 0.5), softmax regression, N = 10 000
clients, E = 2, B = 32, the CA-Fed availability and "unbiased" FedAvg of
examples/sim_ca_fed_fig1a.toml. Per-seed-round cost with ``--seeds`` (50) seeds against 1 seed
(target <= 1.2x) and the process's peak resident memory (target < 4 GiB; it includes the data
set). The old path runs at 1 seed and ``--old-seeds`` seeds (at 50 it needs ~14 GiB).
``--max-samples`` caps the samples per client (0: the paper's generator, whose 3.7 M samples
take ~1-2 min to draw).

Part b — per-step overhead: the INFOCOM binary data set (N = 24, d = 10, logistic regression)
and LEAF Synthetic with N = 24 (softmax, P = 610), 10 seeds, E = 2, B = 32: the batched local
step (plan draws, gather + E steps of every participating seed-client pair) and the whole
engine run, per seed-round, old / new (target >= 5x, printed for both problems), and the index
draws alone (old: numpy's bounded integers; new: the raw words the kernels read, or without
numba the multiply-shift indices). The new step's first call is timed apart (wall seconds): in
the process's first kernel call it is numba's compilation, or loading numba's cache where an
earlier process compiled (``cache=True``), excluded from the per-step times. Minimum over
``--repeats`` repetitions; the load average is printed. Times are CPU seconds of this
process (torch on ``--threads`` = 1 thread), robust to other jobs on a shared machine; on
CUDA, wall seconds after a sync. Both parts run on CUDA too when a GPU is present.

    python benchmarks/bench_engine_batching.py [--part all|a|b] [--seeds 50] [--rounds 4]
        [--old-seeds 5] [--max-samples 1000] [--repeats 3] [--threads 1]
"""

import argparse
import copy
import os
import resource
import sys
import time
import types
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fltheory.rng import generator  # noqa: E402
from fltheory.sim import cpu_kernels  # noqa: E402
from fltheory.sim.batches import BatchPlan  # noqa: E402
from fltheory.sim.compare import Setup  # noqa: E402
from fltheory.sim.config import build, load_config  # noqa: E402
from fltheory.sim.engine import _local_runner  # noqa: E402

GIB = 2**30


class OldBatchPlan:
    """The plan before issue 14 (copied): 16-round blocks for every seed, stacked rounds."""

    def __init__(self, seed, counts, local_steps, batch_size, reps):
        self.seed, self.local_steps, self.batch_size, self.reps = (
            seed,
            local_steps,
            batch_size,
            reps,
        )
        self.counts = np.asarray(counts, dtype=np.int64)
        self._cache = OrderedDict()

    def _block(self, rep, block):
        key = (rep, block)
        if key not in self._cache:
            rng = generator(self.seed, f"sim/batches/rep{rep}/block{block}")
            shape = (16, self.local_steps, self.counts.size, self.batch_size)
            self._cache[key] = rng.integers(0, self.counts[None, None, :, None], size=shape)
            while len(self._cache) > 2 * self.reps:
                self._cache.popitem(last=False)
        return self._cache[key]

    def rep_round(self, rep, t):
        return self._block(rep, t // 16)[t % 16]

    def round(self, t):
        return np.stack([self.rep_round(r, t) for r in range(self.reps)])


def old_local_sgd(self, theta, clients, idx, lr, steps):
    """``DataProblem.local_sgd`` before issue 14 (copied, with its ``_gather``)."""
    for j in range(steps):
        step_idx, weight = (None, None) if idx is None else (idx[j], None)
        if step_idx is None:
            step_idx, weight = self._full_batch(clients)
        rows = (self._offsets[clients][:, None] + step_idx).reshape(-1)
        shape = (*step_idx.shape, self._x.shape[1])
        x, y = self._x.index_select(0, rows).view(shape), self._y[rows].view(step_idx.shape)
        _, g = self.model.loss_grad(theta, x, y, weight)
        theta = theta - lr * g
    return theta


def old_problem(problem):
    """A shallow copy of ``problem`` whose local SGD is the old one."""
    old = copy.copy(problem)
    old.local_sgd = types.MethodType(old_local_sgd, old)
    old.local_sgd_round = None  # the engine's former branch: tensors to ``local_sgd``
    return old


def setups(cfg, seeds, rounds, device, eval_every=10**6):
    """(new, old) comparisons on one trace: same problem data, plan and local step differ."""
    settings = replace(cfg.settings, rounds=rounds, eval_every=eval_every)
    new = Setup(cfg.problem, cfg.process, settings, cfg.seed, seeds, cfg.prior)
    old = Setup(old_problem(cfg.problem), cfg.process, settings, cfg.seed, seeds, cfg.prior)
    s = settings
    old.plan = OldBatchPlan(cfg.seed, cfg.problem.train_counts, s.local_steps, s.batch_size, seeds)
    return new, old


def now(device: str) -> float:
    """CPU time of this process on CPU (one torch thread: robust to other processes on a
    shared machine); wall time after a synchronisation on CUDA."""
    if device == "cpu":
        return time.process_time()
    torch.cuda.synchronize()
    return time.perf_counter()


def reset_peak() -> None:
    """Restart the kernel's peak-RSS count (VmHWM) where Linux allows it."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def peak_rss() -> float:
    """Peak resident memory (GiB) since the last :func:`reset_peak`."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024 / GIB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / GIB


def load(name: str, device: str, **problem):
    cfg = load_config(ROOT / "examples" / "sim_ca_fed_fig1a.toml", device=device)
    raw = {**cfg.raw, "algorithms": cfg.raw["algorithms"][:1], "device": device}
    raw["problem"] = {**cfg.raw["problem"], **problem} if name == "leaf" else problem
    if name == "binary":
        raw["availability"] = {"kind": "bernoulli", "p": 0.5}
    return build(raw, base=ROOT / "examples")


def part_a(args, device: str) -> None:
    start = time.perf_counter()
    cfg = load("leaf", device, n_clients=10_000, max_samples=args.max_samples)
    spec = cfg.specs[0]
    print(
        f"\nPart a ({device}): N = 10000, P = {cfg.problem.n_params}, "
        f"{cfg.problem.train_counts.sum():,} samples (data built in "
        f"{time.perf_counter() - start:.0f} s, peak RSS so far {peak_rss():.2f} GiB), E = 2, "
        f"B = 32, {args.rounds} rounds, load average {os.getloadavg()[0]:.1f}"
    )

    def per_seed_round(seeds: int, which: int, repeats: int) -> tuple[float, float, int]:
        """(CPU seconds per seed-round, peak RSS in GiB, active pairs): rounds 1 .. T-2 (no
        warm-up, no evaluation: the models are evaluated only after the last round)."""
        best, peak = float("inf"), 0.0
        for _ in range(repeats):
            setup = setups(cfg, seeds, args.rounds, device)[which]
            stamps: list[float] = []
            reset_peak()
            setup.run(spec, observe=lambda t, w, stamps=stamps: stamps.append(now(device)))
            peak = max(peak, peak_rss())
            best = min(best, (stamps[-2] - stamps[0]) / (seeds * (args.rounds - 2)))
        return best, peak, int(setup.trace[:, 1:-1].sum())

    one, _, _ = per_seed_round(1, 0, args.repeats)
    many, peak, active = per_seed_round(args.seeds, 0, 1)
    print(f"new: 1 seed {1e3 * one:.1f} ms per seed-round, {args.seeds} seeds {1e3 * many:.1f} ms")
    print(
        f"  ({active / (args.seeds * (args.rounds - 2)):.0f} active clients per seed-round); "
        f"RATIO {args.seeds} seeds / 1 seed per seed-round: {many / one:.2f}x (target <= 1.2x); "
        f"peak RSS during the {args.seeds}-seed run {peak:.2f} GiB (target < 4)"
    )
    old_one, _, _ = per_seed_round(1, 1, args.repeats)
    old_many, old_peak, _ = per_seed_round(args.old_seeds, 1, 1)
    print(
        f"old: 1 seed {1e3 * old_one:.1f} ms per seed-round, {args.old_seeds} seeds "
        f"{1e3 * old_many:.1f} ms: ratio {old_many / old_one:.2f}x, peak RSS {old_peak:.2f} GiB; "
        f"old / new at 1 seed {old_one / one:.2f}x"
    )


def run_seconds(setup, spec) -> float:
    """Seconds (:func:`now`) of one run."""
    device = setup.problem.device
    start = now(device)
    setup.run(spec)
    return now(device) - start


def local_step_time(setup, lr: float, rounds: int, repeats: int) -> tuple[float, float]:
    """(seconds per seed-round of the batched local step (plan draws and gather + E steps) at
    w = 0, wall seconds of its first call: numba's compilation when it is the first kernel
    call of the process)."""
    problem, plan, trace = setup.problem, setup.plan, setup.trace
    w = torch.zeros(setup.reps, problem.n_params, device=problem.device, dtype=problem.dtype)
    pairs = [np.nonzero(trace[:, t]) for t in range(rounds)]

    def step(t: int, rr: np.ndarray, kk: np.ndarray) -> None:
        local = _local_runner(problem, plan.round(t), lr, setup.settings.local_steps)
        local(rr, kk, w[torch.as_tensor(rr, device=w.device)])

    start = time.perf_counter()
    step(0, *pairs[0])
    first, best = time.perf_counter() - start, float("inf")
    for rep in range(repeats + 1):  # the first pass warms up
        start = now(problem.device)
        for t, (rr, kk) in enumerate(pairs):
            step(t, rr, kk)
        if rep:
            best = min(best, (now(problem.device) - start) / (setup.reps * rounds))
    return best, first


def draw_time(setup, rounds: int, repeats: int, plan_type=BatchPlan) -> float:
    """Seconds per seed-round of drawing the minibatch indices alone (a fresh plan, every
    repetition's round t before round t + 1, as the engine asks); a small :class:`BatchPlan`
    under the compiled kernels: its blocks' raw words, which they read (the multiply-shift
    is done in the kernel, for the participating pairs only)."""
    s, best = setup.settings, float("inf")
    for _ in range(repeats):
        counts = setup.problem.train_counts
        plan = plan_type(setup.seed, counts, s.local_steps, s.batch_size, setup.reps)
        words = isinstance(plan, BatchPlan) and plan.small and setup.problem._logistic_kernel
        start = time.process_time()
        for t in range(rounds):
            if words:
                plan.round(t).words()
                continue
            for r in range(setup.reps):
                plan.rep_round(r, t)
        best = min(best, (time.process_time() - start) / (setup.reps * rounds))
    return best


def part_b(args, device: str) -> None:
    rounds = 100
    kernels = "numba installed" if cpu_kernels.AVAILABLE else "numba NOT installed: torch path"
    print(
        f"\nPart b ({device}): N = 24, 10 seeds, E = 2, B = 32, {rounds} rounds, per seed-round, "
        f"min over {args.repeats} repeats, load average {os.getloadavg()[0]:.1f}; compiled "
        f"kernels: {kernels}"
    )
    for name, cfg in (
        ("binary (logistic, d=10)", load("binary", device, kind="binary_synthetic")),
        ("LEAF Synthetic (softmax, P=610)", load("leaf", device, n_clients=24)),
    ):
        spec = cfg.specs[0]
        new, old = setups(cfg, 10, rounds, device, eval_every=10)
        lr = spec.schedule.lr
        t_old, _ = local_step_time(old, lr, rounds, args.repeats)
        t_new, first = local_step_time(new, lr, rounds, args.repeats)
        e_old = min(run_seconds(old, spec) for _ in range(args.repeats)) / (10 * rounds)
        e_new = min(run_seconds(new, spec) for _ in range(args.repeats)) / (10 * rounds)
        same_draws = copy.copy(new)  # the new engine on the old plan's draws
        same_draws.plan = old.plan
        diff = np.abs(old.run(spec).final_w - same_draws.run(spec).final_w).max()
        draws_old = draw_time(old, rounds, args.repeats, OldBatchPlan)
        draws_new = draw_time(new, rounds, args.repeats)
        print(
            f"{name}: local step old {1e6 * t_old:.1f} us, new {1e6 * t_new:.1f} us, "
            f"RATIO {t_old / t_new:.1f}x (target >= 5x); new's first call {first:.2f} s "
            f"(numba's compilation when it is the process's first kernel call; excluded above); "
            f"index draws alone: old {1e6 * draws_old:.1f} us, new {1e6 * draws_new:.1f} us; "
            f"whole engine old {1e6 * e_old:.0f} us, new {1e6 * e_new:.0f} us, ratio "
            f"{e_old / e_new:.1f}x; on the old draws, max |w_old - w_new| after {rounds} rounds "
            f"{diff:.1e}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["all", "a", "b"], default="all")
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--old-seeds", type=int, default=5)
    parser.add_argument("--max-samples", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    for device in devices:
        if args.part in ("all", "b"):
            part_b(args, device)
        if args.part in ("all", "a"):
            part_a(args, device)


if __name__ == "__main__":
    main()
