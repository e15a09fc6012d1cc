"""Cost of checkpointing ``fltheory simulate --out`` at the default policy vs no checkpoints.

For each shipped example (``examples/sim_*.toml``, or those named), the same comparison is
written to a result directory with the default checkpoint policy (adaptive: a checkpoint when
the compute since the last one is at least 20 times what writing one took, and at least 1 s)
and with checkpoints off (``checkpoint_every=0``), alternately, ``--repeats`` times each; the
best wall time of each is kept. Printed per config: both times, their ratio (the overhead), and
the checkpoints written with the time they took (from ``timing.json``) as a share of the run.

    python benchmarks/bench_checkpoint.py [CONFIG ...] [--rounds 30] [--seeds 0] [--repeats 2]
        [--every K] [--json PATH]   (K: a fixed period to measure instead of the default policy)

``--rounds``/``--seeds`` shorten the examples (0: the config's own).
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fltheory.config import load_toml  # noqa: E402
from fltheory.sim.config import build  # noqa: E402
from fltheory.sim.rundir import simulate_into  # noqa: E402


def timed(path: Path, rounds: int, seeds: int, every: int | None, folder: Path) -> tuple:
    """(wall seconds, checkpoints written, seconds they took) of one run into a new folder."""
    raw = load_toml(path)
    if rounds:
        raw["run"] = {**raw["run"], "rounds": rounds}
    if seeds:
        raw["seeds"] = seeds
    cfg = build(raw, base=path.parent, source=path)
    out = folder / "out"
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    simulate_into(cfg, out, checkpoint_every=every)
    wall = time.perf_counter() - start
    saves = json.loads((out / "timing.json").read_text())["checkpoints"]
    return wall, saves["saves"], saves["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("configs", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=30, help="0: the config's own")
    parser.add_argument("--seeds", type=int, default=0, help="0: the config's own")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--every", type=int, default=None, help="fixed K (default: adaptive)")
    parser.add_argument("--json", type=Path, help="also write the table to this JSON file")
    args = parser.parse_args()
    configs = args.configs or sorted((ROOT / "examples").glob("sim_*.toml"))
    policy = "adaptive (default)" if args.every is None else f"every {args.every} rounds"
    print(
        f"checkpoints {policy} vs none; best of {args.repeats}; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"{'config':<36}{'none s':>9}{'ckpt s':>9}{'ratio':>8}{'saves':>7}{'save s':>8}{'share':>8}"
    )
    ratios, shares, rows = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for path in configs:
            plain, checked = [], []
            for _ in range(args.repeats):
                plain.append(timed(path, args.rounds, args.seeds, 0, folder))
                checked.append(timed(path, args.rounds, args.seeds, args.every, folder))
            base = min(p[0] for p in plain)
            best = min(checked)
            ratios.append(best[0] / base)
            shares.append(best[2] / best[0])
            rows.append(
                {"config": path.name, "none_s": base, "checkpointed_s": best[0],
                 "ratio": ratios[-1], "saves": best[1], "save_s": best[2]}
            )  # fmt: skip
            print(
                f"{path.name:<36}{base:>9.2f}{best[0]:>9.2f}{ratios[-1]:>8.3f}"
                f"{best[1]:>7d}{best[2]:>8.3f}{best[2] / best[0]:>7.1%}"
            )
    mean = sum(ratios) / len(ratios)
    print(f"overhead (wall ratio - 1): max {max(ratios) - 1:+.1%}, mean {mean - 1:+.1%}")
    print(f"time spent writing checkpoints / run time: max {max(shares):.1%}")
    if args.json:
        args.json.write_text(json.dumps({"policy": policy, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
