"""Fig. 2 diagnosis: why CA-Fed(low κ̄²) loses to Unbiased at t = 40 (2a) and why the optimal
κ̄² is the largest at every T (2b) on cafed:fig1a's paper setup.

One config (paired traces and minibatches), evaluated every ``--every`` rounds: Unbiased, More
available at its grid rates (1.0/2.0) and at CA-Fed's (0.03/5.0), and CA-Fed for each κ̄² of
the paper's sweep; optionally (``--oracle``) CA-Fed with exact local minima and a 20 %
validation loss (noise-free ε̂). Printed: accuracy differences vs Unbiased at t = 10, 20, 40,
T (pp, 95 % paired t-interval), participants/active overall and in the first 10 rounds, the
argmax κ̄² at each evaluated round (mean over seeds), and the α mass of the less-available
clients (what More available drops).

Usage: python figures/cafed_fig2_diagnosis.py [--rounds 200] [--seeds 6] [--every 2] [--oracle]
Prints one JSON object and writes it to ``OUT/cafed_fig2_diagnosis.json`` (``--out``).
"""

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.api.simulation import simulate
from fltheory.atomic import write_atomic
from fltheory.experiments import judges
from fltheory.experiments.catalog.cafed_fig1 import FIG1A_RATES, ORACLE_SIGNAL, fig1a_config
from fltheory.experiments.runner import measurements_of
from fltheory.experiments.stats import paired_difference

KAPPAS = (1e-2, 1e-1, 1.0, 1e1, 1e2)


def config(rounds: int, every: int, oracle: bool) -> dict[str, Any]:
    cfg = fig1a_config(rounds, ("unbiased", "more_available"), every)
    lr, server_lr = FIG1A_RATES["ca_fed"]
    cfg["algorithms"].append(
        {
            "name": "more_available",
            "label": "more_available_same_rate",
            "lr": lr,
            "server_lr": server_lr,
        }
    )
    signals = [("", {})] + ([("oracle ", ORACLE_SIGNAL)] if oracle else [])
    for prefix, options in signals:
        for kappa2 in KAPPAS:
            cfg["algorithms"].append(
                {
                    "name": "ca_fed",
                    "label": f"{prefix}k2={kappa2:g}",
                    "kappa2": kappa2,
                    "tau": 0.0,
                    "beta": 1.0,
                    "lr": lr,
                    "server_lr": server_lr,
                    **options,
                }
            )
    return cfg


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--oracle", action="store_true")
    parser.add_argument("--out", type=Path, default=Path("figures/out"))
    args = parser.parse_args(argv)
    if args.rounds < 40 or args.seeds < 2 or args.every < 1:
        parser.error("--rounds must be >= 40, --seeds >= 2 and --every >= 1")
    report = simulate(
        config(args.rounds, args.every, args.oracle), seeds=args.seeds, device="cpu", threads=1
    )
    m = measurements_of(report)
    assert m.active is not None and m.alpha is not None
    less = np.any([v for g, v in m.groups.items() if g.startswith("less")], axis=0)
    out: dict[str, Any] = {
        "rounds": args.rounds,
        "seeds": args.seeds,
        "alpha_less_available": round(float(m.alpha[less].sum() / m.alpha.sum()), 3),
        "unbiased_acc": {
            str(t): round(float(m.at_round("unbiased", t).mean()) * 100, 2)
            for t in sorted({10, 20, 40, args.rounds})
        },
    }
    for label in m.accuracy:
        if label == "unbiased":
            continue
        diffs = {}
        for t in sorted({10, 20, 40, args.rounds}):
            iv = paired_difference(m.at_round(label, t), m.at_round("unbiased", t), confidence=0.95)
            diffs[str(t)] = [
                round(iv.mean * 100, 2),
                round(iv.low * 100, 2),
                round(iv.high * 100, 2),
            ]
        early = m.included[label][:, :10].sum() / max(1, m.active[:, :10].sum())
        out[label] = {
            "minus_unbiased_pp": diffs,
            "participation": round(judges.participation(m, label), 3),
            "participation_first_10": round(float(early), 3),
        }
    for prefix in ("", "oracle "):
        labels = {k: f"{prefix}k2={k:g}" for k in KAPPAS if f"{prefix}k2={k:g}" in m.accuracy}
        if not labels:
            continue
        values = np.array([m.accuracy[lab].mean(axis=0) for lab in labels.values()])  # (K, E)
        best = np.asarray(list(labels))[values.argmax(axis=0)]
        out[f"{prefix}kappa_star_by_round"] = {
            str(int(r) + 1): float(k) for r, k in zip(m.eval_rounds, best, strict=True)
        }
    text = json.dumps(out)
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "cafed_fig2_diagnosis.json"
    write_atomic(path, text + "\n")
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
