"""Table II diagnosis (cafed:table2): do Table II's Synthetic pairs fail to train because their
steps are too large for this problem — does the same η̄ with a smaller η train?

For each algorithm, Table II's pair (η, η̄) and η scaled by 0.1, 0.01 and 0.001 at the same η̄,
scored exactly as the grid search of ``fltheory reproduce cafed:table2 --full`` scores its
points: final test accuracy acc_end (mean of the last 5 % of the evaluations) of the same
tuning draws (data and traces from (0, "grid/cafed:table2/synthetic"), N = 100, T = 200), per
repetition; NaN: the run diverged. Scale 1 repeats the record's Table II points, so the first
row of each algorithm can be checked against the recorded verdict; acc(0) is the model that
does not move (η = 1e-12). ``--setup authors`` runs the public code's mechanics (momentum 0.9
on client and server, weight decay 0.01, two local epochs), ``paper`` eqs. 2-3.

Usage: python figures/cafed_table2_diagnosis.py [--setup authors|paper] [--mode full|quick]
       [--scales 1 0.1 0.01 0.001]
Prints one JSON object per line and writes them to ``OUT/cafed_table2_diagnosis_<setup>.jsonl``
(``--out``, default figures/out/); ``--record`` also writes them, with provenance, to the
experiment's results file ``docs/diagnoses/cafed_table2.json`` (keyed by the command).
"""

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.experiments.catalog.cafed_table2 import PURPOSE, SIZES, TABLE2, search_base
from fltheory.experiments.diagnoses import write_rows
from fltheory.experiments.grid import GridPoint, SimulatorObjective, tuning_seed

#: The tuning draws' repetitions of the full grid search (cafed:table2's ``seeds``).
REPETITIONS = 3


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", choices=("authors", "paper"), default="authors")
    parser.add_argument("--mode", choices=("full", "quick"), default="full")
    parser.add_argument("--scales", type=float, nargs="+", default=[1.0, 0.1, 0.01, 0.001])
    parser.add_argument("--out", type=Path, default=Path("figures/out"))
    parser.add_argument(
        "--record", action="store_true", help="also write docs/diagnoses/cafed_table2.json"
    )
    args = parser.parse_args(argv)
    if not all(0 < s <= 1 for s in args.scales):
        parser.error("--scales must lie in (0, 1]")
    objective = SimulatorObjective(search_base(args.mode, authors=args.setup == "authors"))
    seed = tuning_seed(0, PURPOSE)
    names = SIZES[args.mode][3]
    points = [GridPoint("adafed", 1e-12, 1.0)]  # acc(0), as the experiment measures it
    for name in names:
        lr, slr = TABLE2["synthetic"][name]
        points += [GridPoint(name, lr * s, slr) for s in args.scales]
    start = time.perf_counter()
    scores = objective(points, seed, REPETITIONS)
    seconds = round(time.perf_counter() - start, 1)
    rows = []
    for p in points:
        acc = np.asarray(scores[p], dtype=float)
        initial = p.lr == 1e-12
        rows.append(
            {
                "setup": args.setup,
                "algorithm": "acc(0)" if initial else p.algorithm,
                "lr": p.lr,
                "server_lr": p.server_lr,
                "lr_times_server_lr": float(f"{p.lr * p.server_lr:.6g}"),
                "acc_end_mean": None if np.isnan(acc).any() else round(float(acc.mean()), 4),
                "acc_end_per_draw": [None if np.isnan(a) else round(float(a), 4) for a in acc],
                "diverged_draws": int(np.isnan(acc).sum()),
                "tuning_seed": seed,
                "seconds_all_points": seconds,
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    command = " ".join(["python figures/cafed_table2_diagnosis.py", f"--setup {args.setup}",
                        f"--mode {args.mode}", "--scales",
                        *(f"{s:g}" for s in args.scales)])  # fmt: skip
    path = args.out / f"cafed_table2_diagnosis_{args.setup}.jsonl"
    for written in write_rows(path, rows, ("cafed:table2", command) if args.record else None):
        print(f"wrote {written}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
