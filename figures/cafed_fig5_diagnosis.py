"""Fig. 5 diagnosis (cafed:fig5a-c, cafed:fig5d): does a noise-free ε̂ signal make CA-Fed
leave out the correlated clusters 6-9 (5a-c) and beat AdaFed (5d)?

One config per data setting holds Unbiased, AdaFed and CA-Fed variants on the same traces
(paired): the paper's signal (first-minibatch loss, running-minimum F̂*) and exact local minima
with the full local train loss (``fstar = "oracle"``, ``loss_signal = "train"``). Printed per
variant: acc_end, CA-Fed − AdaFed and CA-Fed − Unbiased in pp with 95 % paired t-intervals, the
exclusion-rate gap x_{6-9} − x_{0-5} with its interval, and the per-cluster exclusion rates x_c
(pooled over seeds). ``--setup authors`` runs cafed:fig5d's authors config instead (their
signal only).

Usage: python figures/cafed_fig5_diagnosis.py [--setup paper|authors] [--setting a|c]
       [--rounds 100] [--seeds 10] [--clients 100]
Prints one JSON object and writes it to ``OUT/cafed_fig5_diagnosis_<setup>_<setting>.json``
(``--out``, default figures/out/).
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
from fltheory.experiments.catalog.cafed_fig5 import (
    AVAILABLE,
    CORRELATED,
    _rate,
    cluster_counts,
    fig5_config,
)
from fltheory.experiments.model import get
from fltheory.experiments.runner import measurements_of
from fltheory.experiments.stats import paired_difference

VARIANTS: dict[str, dict[str, Any]] = {
    "ca_fed": {},
    "ca_fed_oracle_train": {"fstar": "oracle", "loss_signal": "train"},
}


def config(setup: str, setting: str, rounds: int, clients: int) -> dict[str, Any]:
    """AdaFed + the CA-Fed variants; ``authors``: cafed:fig5d's authors config (setting c)."""
    partition = "iid" if setting == "a" else "dirichlet"
    if setup == "authors":
        cfg = get("cafed:fig5d").setup("authors").configs["full"]()
        cfg["run"]["rounds"] = rounds
        cfg["problem"].update(n_clients=clients, partition=partition)
        cfg["algorithms"] = [
            a for a in cfg["algorithms"] if a["name"] in ("unbiased", "adafed", "ca_fed")
        ]
        variants = {"ca_fed": {}}
    else:
        cfg = fig5_config(partition, clients, rounds, ("unbiased", "adafed", "ca_fed"))
        variants = VARIANTS
    ca = next(a for a in cfg["algorithms"] if a["name"] == "ca_fed")
    cfg["algorithms"] = [a for a in cfg["algorithms"] if a["name"] != "ca_fed"] + [
        {**ca, **variants[v], "label": v} for v in variants
    ]
    return cfg


def run(setup: str, setting: str, rounds: int, seeds: int, clients: int) -> dict[str, Any]:
    """AdaFed and the CA-Fed variants of one Fig. 5 setting, paired over ``seeds``."""
    start = time.perf_counter()
    cfg = config(setup, setting, rounds, clients)
    m = measurements_of(simulate(cfg, seeds=seeds, device="cpu", threads=1))
    ada = m.accuracy["adafed"][:, -1]
    out: dict[str, Any] = {"setup": setup, "setting": setting, "rounds": rounds, "seeds": seeds}
    out["adafed_acc"] = round(float(ada.mean()) * 100, 2)
    out["unbiased_acc"] = round(float(m.accuracy["unbiased"][:, -1].mean()) * 100, 2)
    for v in [a["label"] for a in cfg["algorithms"] if a["name"] == "ca_fed"]:
        acc = m.accuracy[v][:, -1]
        iv = paired_difference(acc, ada, confidence=0.95)
        ub = paired_difference(acc, m.accuracy["unbiased"][:, -1], confidence=0.95)
        left, seen = cluster_counts(m, v)
        corr = _rate(left[:, CORRELATED].sum(axis=1), seen[:, CORRELATED].sum(axis=1))
        avail = _rate(left[:, AVAILABLE].sum(axis=1), seen[:, AVAILABLE].sum(axis=1))
        keep = np.isfinite(corr) & np.isfinite(avail)  # seeds where both groups were active
        gap = (
            paired_difference(corr[keep], avail[keep], confidence=0.95) if keep.sum() >= 2 else None
        )
        rates = _rate(left.sum(axis=0), seen.sum(axis=0))
        tavg = paired_difference(
            m.accuracy[v].mean(axis=1), m.accuracy["adafed"].mean(axis=1), confidence=0.95
        )
        out[v] = {
            "acc": round(float(acc.mean()) * 100, 2),
            "time_average_pp": [round(x * 100, 2) for x in (tavg.mean, tavg.low, tavg.high)],
            "minus_adafed_pp": round(iv.mean * 100, 2),
            "ci_pp": [round(iv.low * 100, 2), round(iv.high * 100, 2)],
            "minus_unbiased_pp": [round(x * 100, 2) for x in (ub.mean, ub.low, ub.high)],
            "exclusion_gap": None if gap is None else round(gap.mean, 3),
            "exclusion_gap_ci": None if gap is None else [round(gap.low, 3), round(gap.high, 3)],
            "x_c": [round(float(x), 3) for x in rates],
        }
    out["seconds"] = round(time.perf_counter() - start, 1)
    return out


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", choices=("paper", "authors"), default="paper")
    parser.add_argument("--setting", choices=("a", "c"), default="c")
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--out", type=Path, default=Path("figures/out"))
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seeds < 2 or args.clients < 10:
        parser.error("--rounds must be >= 1, --seeds >= 2 and --clients >= 10")
    line = json.dumps(run(args.setup, args.setting, args.rounds, args.seeds, args.clients))
    print(line, flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"cafed_fig5_diagnosis_{args.setup}_{args.setting}.json"
    write_atomic(path, line + "\n")
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
