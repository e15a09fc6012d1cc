"""Fig. 1(a) diagnosis (spec D, H1 then H3): is CA-Fed's reversal the noise of its ε̂ signal?

H1: one config holds AdaFed and four CA-Fed variants on the same traces (paired): the paper's
(first-minibatch loss, running-minimum F̂*), exact local minima with the full local train loss,
exact minima with a seeded 20 % validation subset, and the authors' signal (sklearn F*, full
local test loss, no ridge). Printed per variant: mean and 95 % t-interval of
acc_end(CA-Fed) − acc_end(AdaFed) in pp, participants/active, per-group exclusion rates.
H3: the same over data seeds (config ``seed``), a few run seeds each.

Usage: python figures/cafed_fig1a_diagnosis.py h1 [--rounds 200] [--seeds 10] [--data-seed 0]
       python figures/cafed_fig1a_diagnosis.py h3 [--rounds 100] [--seeds 4] [--data-seeds 10]
Prints one JSON object per line (progress on stderr) and writes them to
``OUT/cafed_fig1a_diagnosis_<h1|h3>.jsonl`` (``--out``, default figures/out/).
"""

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.api.simulation import simulate
from fltheory.atomic import write_atomic
from fltheory.experiments import judges
from fltheory.experiments.catalog.cafed_fig1 import FIG1A_RATES, fig1a_config
from fltheory.experiments.runner import measurements_of
from fltheory.experiments.stats import paired_difference

VARIANTS: dict[str, dict[str, Any]] = {
    "ca_fed": {},
    "ca_fed_oracle_train": {"fstar": "oracle", "loss_signal": "train"},
    "ca_fed_oracle_val": {"fstar": "oracle", "loss_signal": "validation"},
    "ca_fed_sklearn_test": {"fstar": "sklearn", "loss_signal": "test", "loss_ridge": False},
}


def config(rounds: int, data_seed: int, variants: tuple[str, ...]) -> dict[str, Any]:
    cfg = fig1a_config(rounds, ("adafed", "ca_fed"), 10)
    cfg["seed"] = data_seed
    ca = next(a for a in cfg["algorithms"] if a["name"] == "ca_fed")
    lr, server_lr = FIG1A_RATES["ca_fed"]
    cfg["algorithms"] = [a for a in cfg["algorithms"] if a["name"] != "ca_fed"] + [
        {**ca, **VARIANTS[v], "label": v, "lr": lr, "server_lr": server_lr} for v in variants
    ]
    return cfg


def summarise(rounds: int, seeds: int, data_seed: int, variants: tuple[str, ...]) -> dict:
    start = time.perf_counter()
    report = simulate(config(rounds, data_seed, variants), seeds=seeds, device="cpu", threads=1)
    m = measurements_of(report)
    ada = m.accuracy["adafed"][:, -1]
    out: dict[str, Any] = {
        "data_seed": data_seed,
        "rounds": rounds,
        "seeds": seeds,
        "adafed_acc": round(float(ada.mean()) * 100, 2),
    }
    alpha = m.alpha if m.alpha is not None else np.ones(1)
    top = int(np.argmax(alpha))
    out["largest_client"] = {
        "alpha": round(float(alpha[top]), 3),
        "group": next((g for g, mask in m.groups.items() if mask[top]), "?"),
    }
    for v in variants:
        acc = m.accuracy[v][:, -1]
        iv = paired_difference(acc, ada, confidence=0.95)
        out[v] = {
            "acc": round(float(acc.mean()) * 100, 2),
            "diff_pp": round(iv.mean * 100, 2),
            "ci_pp": [round(iv.low * 100, 2), round(iv.high * 100, 2)],
            "per_seed_pp": [round(float(x) * 100, 2) for x in acc - ada],
            "participation": round(judges.participation(m, v), 3),
            "exclusion": judges.exclusion_by_group(m, v),
        }
    out["seconds"] = round(time.perf_counter() - start, 1)
    return out


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hypothesis", choices=("h1", "h3"))
    parser.add_argument("--rounds", type=int, default=None, help="T (h1: 200, h3: 100)")
    parser.add_argument("--seeds", type=int, default=None, help="run seeds (h1: 10, h3: 4)")
    parser.add_argument("--data-seed", type=int, default=0, help="h1's data seed")
    parser.add_argument("--data-seeds", type=int, default=10, help="h3: data seeds 1..K")
    parser.add_argument("--out", type=Path, default=Path("figures/out"))
    args = parser.parse_args(argv)
    h1 = args.hypothesis == "h1"
    rounds = args.rounds or (200 if h1 else 100)
    seeds = args.seeds or (10 if h1 else 4)
    if rounds < 1 or seeds < 2 or args.data_seeds < 1:
        parser.error("--rounds must be >= 1, --seeds >= 2 and --data-seeds >= 1")
    jobs = [args.data_seed] if h1 else list(range(1, args.data_seeds + 1))
    variants = tuple(VARIANTS) if h1 else ("ca_fed", "ca_fed_oracle_train")
    args.out.mkdir(parents=True, exist_ok=True)
    lines = []
    for i, data_seed in enumerate(jobs, 1):
        print(f"[{i}/{len(jobs)}] data seed {data_seed}", file=sys.stderr, flush=True)
        lines.append(json.dumps(summarise(rounds, seeds, data_seed, variants)))
        print(lines[-1], flush=True)
    path = args.out / f"cafed_fig1a_diagnosis_{args.hypothesis}.jsonl"
    write_atomic(path, "\n".join(lines) + "\n")
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
