"""Fig. 4(b) diagnosis (cafed:fig4b, paper setup): with π̂, λ̂ warmed by t′ observations,
does CA-Fed − AdaFed approach its value under the oracle π, λ (cafed:fig1b's setting)?

Runs fig4b's quick configuration (Fashion-MNIST standing in for MNIST as in ``reproduce``,
N = 30, T = 30, CA-Fed and AdaFed) at the given t′ values and once with the oracle estimator,
each paired over the same run seeds. Printed per arm: acc_end of both, CA-Fed − AdaFed in pp
with a 95 % paired t-interval and per seed, CA-Fed's participants / active clients and its
exclusion rate per population group. ``--signal exact`` gives CA-Fed a noise-free ε̂ (exact
local minima, full local train loss).

Usage: python figures/cafed_fig4b_diagnosis.py [--t-primes 1000] [--seeds 12]
       [--signal paper|exact]
Prints one JSON object per line and writes them to ``OUT/cafed_fig4b_diagnosis_<signal>.jsonl``
(``--out``, default figures/out/); ``--record`` also writes them, with provenance, to the
experiment's results file ``docs/diagnoses/cafed_fig4b.json`` (keyed by the command).
"""

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.api.simulation import simulate
from fltheory.experiments import judges
from fltheory.experiments.catalog.cafed_fig4 import fig4b_configs
from fltheory.experiments.data_sources import resolve
from fltheory.experiments.diagnoses import write_rows
from fltheory.experiments.runner import measurements_of
from fltheory.experiments.stats import paired_difference


def arm(cfg: dict[str, Any], seeds: int, name: str) -> dict[str, Any]:
    """CA-Fed − AdaFed at the end of one configuration."""
    start = time.perf_counter()
    m = measurements_of(simulate(cfg, seeds=seeds, device="cpu", threads=1))
    ca, ada = m.accuracy["ca_fed"][:, -1], m.accuracy["adafed"][:, -1]
    iv = paired_difference(ca, ada, confidence=0.95)
    return {
        "arm": name,
        "seeds": seeds,
        "ca_fed": round(float(ca.mean()) * 100, 2),
        "adafed": round(float(ada.mean()) * 100, 2),
        "minus_adafed_pp": [round(x * 100, 2) for x in (iv.mean, iv.low, iv.high)],
        "per_seed_pp": [round(float(x) * 100, 1) for x in ca - ada],
        "ca_fed_participation": round(judges.participation(m, "ca_fed"), 3),
        "exclusion_by_group": judges.exclusion_by_group(m, "ca_fed"),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--t-primes", type=int, nargs="+", default=[1000])
    parser.add_argument("--seeds", type=int, default=12)
    parser.add_argument(
        "--signal",
        choices=("paper", "exact"),
        default="paper",
        help="CA-Fed's ε̂ signal: the paper's (minibatch loss, running-min F̂*) or exact local "
        "minima with the full local train loss",
    )
    parser.add_argument("--out", type=Path, default=Path("figures/out"))
    parser.add_argument(
        "--record", action="store_true", help="also write docs/diagnoses/cafed_fig4b.json"
    )
    args = parser.parse_args(argv)
    if args.seeds < 2:
        parser.error("--seeds must be >= 2")
    base, _ = resolve(fig4b_configs("quick")[0][1], None)  # MNIST's stand-in, as reproduce
    if args.signal == "exact":
        base["algorithms"] = [
            {**a, "fstar": "oracle", "loss_signal": "train"} if a["name"] == "ca_fed" else a
            for a in base["algorithms"]
        ]
    arms = [({**base, "run": {**base["run"], "warmup": t}}, f"t'={t}") for t in args.t_primes]
    run = {k: v for k, v in base["run"].items() if k != "warmup"}
    arms.append(({**base, "run": {**run, "estimator": "oracle"}}, "oracle"))
    rows = []
    for cfg, name in arms:
        rows.append(arm(cfg, args.seeds, name))
        print(json.dumps(rows[-1]), flush=True)
    command = " ".join(["python figures/cafed_fig4b_diagnosis.py", f"--signal {args.signal}",
                        f"--seeds {args.seeds}", "--t-primes",
                        *map(str, args.t_primes)])  # fmt: skip
    path = args.out / f"cafed_fig4b_diagnosis_{args.signal}.jsonl"
    for written in write_rows(path, rows, ("cafed:fig4b", command) if args.record else None):
        print(f"wrote {written}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
