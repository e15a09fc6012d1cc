"""The local-step kernel with its two LLVM-IR steps (fltheory.sim.kernel_ir: the minibatch row
copy and the softmax residuals) against the same kernel with numba's loops for them (their
plain-Python twins compiled by numba, inlined), in the same invocation.

Setting: bench_authors_mechanics.py's — the authors' Fig. 1a mechanics (``--setup authors``:
softmax regression on 60 features + bias and 10 classes, 2 local epochs of minibatches of 32,
momentum 0.9, weight decay 1e-2, persistent per-client buffers), N = 100 clients all
available, Unbiased, 10 seeds batched. Each variant is a fresh one-thread process with its
own numba cache folder (a variant never reads the other's compiled code, nor writes to the
package's cache); variants alternate, ``--repeats`` times. Printed per run: CPU ms per
seed-round of the whole engine round (rounds 2 .. T after an untimed one-round run that
compiles, evaluation only after the last) and the kernel's share; then the ratio of the
minima, and how far apart the two variants' final models are (they sum in another order: a
relative difference below 1e-3 is required, else exit 1).

The twins loop over classes sample by sample; the code before the IR steps (a pass over the
block per operation, vectorised over samples) was faster than that, so this ratio is the gain
over numba's plain loops, not over the previous release (about 1.08x on the kernel there).

    python benchmarks/bench_kernel_ir.py [--rounds 6] [--repeats 3]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The child's program: argv = variant ("ir" or "loops"), rounds, output .npy path.
CHILD = """
import json, sys, time
from dataclasses import replace
import numpy as np
sys.path.insert(0, "benchmarks")
from bench_authors_mechanics import config
from fltheory.sim import cpu_kernels, kernel_ir
from fltheory.sim.compare import Setup
from fltheory.sim.config import build
if sys.argv[1] == "loops":
    kernel_ir.intrinsics = lambda: {}
rounds = int(sys.argv[2])
kernel = cpu_kernels.linear_local
spent = [0.0]
def timed(*args):
    start = time.process_time()
    out = kernel(*args)
    spent[0] += time.process_time() - start
    return out
cpu_kernels.linear_local = timed
cfg = build(config(100))
cfg.problem.compiled = True
warm = replace(cfg.settings, rounds=1, eval_every=10**6)  # numba's compilation: untimed
Setup(cfg.problem, cfg.process, warm, cfg.seed, 10, cfg.prior).run(cfg.specs[0])
spent[0] = 0.0
settings = replace(cfg.settings, rounds=rounds + 1, eval_every=10**6)
setup = Setup(cfg.problem, cfg.process, settings, cfg.seed, 10, cfg.prior)
stamps, shares, models = [], [], []
def observe(t, w):
    stamps.append(time.process_time())
    shares.append(spent[0])
    models[:] = [w]
setup.run(cfg.specs[0], observe=observe)
np.save(sys.argv[3], np.asarray(models[0]))
per = 10 * rounds
print(json.dumps({"ms": 1e3 * (stamps[rounds] - stamps[0]) / per,
                  "kernel_ms": 1e3 * (shares[rounds] - shares[0]) / per}))
"""


def run(variant: str, rounds: int, folder: Path) -> tuple[dict[str, float], Path]:
    cache = folder / f"numba-{variant}"
    models = folder / f"{variant}.npy"
    env = {
        **os.environ,
        "OMP_NUM_THREADS": "1",
        "PYTHONPATH": str(ROOT),
        "NUMBA_CACHE_DIR": str(cache),
    }
    out = subprocess.run(
        [sys.executable, "-c", CHILD, variant, str(rounds), str(models)],
        env=env, capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result, models


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.rounds < 1 or args.repeats < 1:
        parser.error("--rounds and --repeats must be >= 1")
    import numpy as np

    from fltheory.sim import cpu_kernels

    if not cpu_kernels.AVAILABLE:
        print("numba is not installed: no compiled kernel to measure", file=sys.stderr)
        return 2
    runs: dict[str, list[dict[str, float]]] = {"ir": [], "loops": []}
    finals: dict[str, np.ndarray] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeats):
            for variant in runs:  # alternating: both see the same phases of a shared host
                result, path = run(variant, args.rounds, Path(tmp))
                runs[variant].append(result)
                finals[variant] = np.load(path)
                print(f"{variant:5s} {result['ms']:7.2f} ms per seed-round "
                      f"(kernel {result['kernel_ms']:6.2f})", flush=True)  # fmt: skip
    best = {v: min(r["ms"] for r in runs[v]) for v in runs}
    kernel = {v: min(r["kernel_ms"] for r in runs[v]) for v in runs}
    print(f"RATIO loops / IR: whole round {best['loops'] / best['ir']:.3f}x, kernel "
          f"{kernel['loops'] / kernel['ir']:.3f}x (minima over {args.repeats} runs)")  # fmt: skip
    a, b = finals["ir"], finals["loops"]
    apart = float(np.max(np.abs(a - b)) / max(float(np.max(np.abs(b))), 1e-30))
    rounds = args.rounds + 1
    print(f"final models after {rounds} rounds: max |IR − loops| / max |loops| = {apart:.1e}")
    return 0 if apart < 1e-3 else 1


if __name__ == "__main__":
    sys.exit(main())
