"""Overhead of locking and staging a result folder (``fltheory.resultdir``) on
``fltheory simulate --out``, measured on a small config where it weighs most.

The comparison is computed once; then its result files are written, alternately, ``--repeats``
times each into a new folder:

* **transaction** — what ``simulate --out`` does now: :class:`~fltheory.resultdir.ResultFolder`
  (checks, ``mkdir``, the lock, the checks again under it), the ``in_progress`` manifest, the
  files into the staging folder (each fsync-ed; the staging folder itself is not, its entries
  are renamed again), the commit (renames, one fsync of the folder, the ``complete``
  manifest), the lock released;
* **direct** — the same files and manifests written straight into the folder (each file still
  atomic: temporary name, fsync, rename, fsync of the folder), with no lock and no staging: the
  write path before.

Printed: the median of each, their ratio, the added milliseconds, and that addition as a share
of a whole ``simulate_into`` run of the config (compute included, median of ``--runs``).

    python benchmarks/bench_result_folder.py [--config FILE] [--repeats 30] [--runs 5]
        [--json PATH]
"""

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fltheory.atomic import STATUS_COMPLETE, STATUS_RUNNING, write_manifest  # noqa: E402
from fltheory.config import load_toml  # noqa: E402
from fltheory.provenance import provenance  # noqa: E402
from fltheory.resultdir import ResultFolder  # noqa: E402
from fltheory.sim.config import build, run_config  # noqa: E402
from fltheory.sim.outfiles import OWNED, RESULT_FILES  # noqa: E402
from fltheory.sim.results import result_contents, write_results  # noqa: E402
from fltheory.sim.rundir import result_provenance, simulate_into  # noqa: E402

#: A small comparison (a fraction of a second of compute): the overhead's worst case.
SMALL = {
    "name": "small",
    "seed": 0,
    "seeds": 2,
    "device": "cpu",
    "dtype": "float64",
    "run": {"rounds": 50, "local_steps": 2, "eval_every": 5, "lr": 0.05},
    "problem": {"kind": "fedpbc_quadratic", "n_clients": 20, "dim": 10},
    "availability": {"kind": "bernoulli", "p_groups": [0.2, 0.9]},
    "algorithms": [{"name": "fedavg"}, {"name": "fedpbc"}],
}


def direct(out: Path, record: dict, summary: dict, runs: list) -> None:
    out.mkdir()
    write_manifest(out, [], status=STATUS_RUNNING, provenance=provenance(**record))
    write_results(out, record, summary, runs)
    write_manifest(out, list(RESULT_FILES), status=STATUS_COMPLETE, provenance=provenance(**record))


def transaction(out: Path, record: dict, summary: dict, runs: list) -> None:
    with ResultFolder(out, owned=OWNED) as folder:
        folder.begin(provenance(**record))
        for name, data in result_contents(record, summary, runs).items():
            folder.write(name, data)
        folder.commit(list(RESULT_FILES), provenance(**record))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, help="a simulate config (default: a small one)")
    parser.add_argument("--repeats", type=int, default=30, help="writes of each kind")
    parser.add_argument("--runs", type=int, default=5, help="whole simulate_into runs")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    if args.config:
        cfg = build(load_toml(args.config), base=args.config.parent, source=args.config)
    else:
        cfg = build(SMALL)
    summary, runs = run_config(cfg)
    record = result_provenance(cfg)
    provenance(**record)  # warm the git-commit cache for both paths alike
    times: dict[str, list[float]] = {"direct": [], "transaction": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeats):
            for name, write in (("direct", direct), ("transaction", transaction)):
                out = Path(tmp) / f"{name}-{i}"
                start = time.perf_counter()
                write(out, record, summary, runs)
                times[name].append(time.perf_counter() - start)
                shutil.rmtree(out)
        whole = []
        for i in range(args.runs):
            start = time.perf_counter()
            simulate_into(cfg, Path(tmp) / f"run-{i}", checkpoint_every=0)
            whole.append(time.perf_counter() - start)
    base, txn = (statistics.median(times[k]) for k in ("direct", "transaction"))
    run = statistics.median(whole)
    print(f"config: {args.config or 'small built-in'} ({cfg.seeds} seeds × "
          f"{cfg.settings.rounds} rounds); {args.repeats} writes of each kind, median")  # fmt: skip
    print(f"direct write (no lock, no staging): {base * 1e3:8.2f} ms")
    print(f"transaction (lock + staging + commit): {txn * 1e3:8.2f} ms")
    print(f"ratio transaction / direct: {txn / base:.2f}")
    added = txn - base
    print(f"added: {added * 1e3:.2f} ms = {added / run:.1%} of a whole simulate --out run "
          f"({run:.3f} s, median of {args.runs})")  # fmt: skip
    if args.json:
        figures = {"direct_s": base, "transaction_s": txn, "ratio": txn / base,
                   "added_s": added, "whole_run_s": run, "repeats": args.repeats}  # fmt: skip
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
