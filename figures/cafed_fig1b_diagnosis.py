"""Fig. 1(b) diagnosis: is CA-Fed's deficit on MNIST (Fashion-MNIST stands in) the horizon,
the noise of its ε̂ signal, or the learning rates?

Each mode is one config, so its algorithms share traces and minibatches (paired):
``signal``: AdaFed against CA-Fed (the paper setup: first-minibatch loss, running-minimum F̂*)
and CA-Fed with exact local minima + a seeded 20 % validation loss, at the setup's 0.5/1.0;
plus Table II's MNIST rates (CA-Fed 0.1/1.0 against AdaFed 0.03/1.0). ``rates``: CA-Fed
against AdaFed at equal rates 0.03/1.0 and 0.1/1.0. ``baselines``: More available, AdaFed and
Unbiased against CA-Fed at the setup's rates (why More available leads in full mode).
``authors``: AdaFed, Unbiased and CA-Fed under the authors' mechanics. Printed per
comparison: the difference in pp (mean and 95 % paired t-interval) at several rounds and for
acc_end, participants/active and per-group exclusion rates.

Usage: python figures/cafed_fig1b_diagnosis.py signal|rates|baselines|authors [--rounds 200]
       [--seeds 8] [--clients 30] [--max-train 6000] [--max-test 2000]
Prints one JSON object and writes it to ``OUT/cafed_fig1b_diagnosis_<mode>.json`` (``--out``).
"""

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.api.simulation import simulate
from fltheory.atomic import write_atomic
from fltheory.experiments import judges
from fltheory.experiments.catalog.cafed_fig1 import ORACLE_SIGNAL, fig1b_config
from fltheory.experiments.catalog.common import TABLE2
from fltheory.experiments.data_sources import resolve
from fltheory.experiments.model import get
from fltheory.experiments.runner import measurements_of
from fltheory.experiments.stats import paired_difference

#: per mode: label → (algorithm, options, rates or None for the setup's, baseline label)
Variant = tuple[str, dict[str, Any], tuple[float, float] | None, str]
MODES: dict[str, dict[str, Variant]] = {
    "signal": {
        "adafed": ("adafed", {}, None, ""),
        "ca_fed": ("ca_fed", {}, None, "adafed"),
        "ca_fed_oracle": ("ca_fed", ORACLE_SIGNAL, None, "adafed"),
        "adafed_t2": ("adafed", {}, TABLE2["mnist"]["adafed"], ""),
        "ca_fed_t2": ("ca_fed", {}, TABLE2["mnist"]["ca_fed"], "adafed_t2"),
    },
    "rates": {
        "adafed_0.03": ("adafed", {}, TABLE2["mnist"]["adafed"], ""),
        "ca_fed_0.03": ("ca_fed", {}, TABLE2["mnist"]["adafed"], "adafed_0.03"),
        "adafed_0.1": ("adafed", {}, TABLE2["mnist"]["ca_fed"], ""),
        "ca_fed_0.1": ("ca_fed", {}, TABLE2["mnist"]["ca_fed"], "adafed_0.1"),
    },
    "baselines": {
        "ca_fed": ("ca_fed", {}, None, ""),
        "more_available": ("more_available", {}, None, "ca_fed"),
        "adafed": ("adafed", {}, None, "ca_fed"),
        "unbiased": ("unbiased", {}, None, "ca_fed"),
    },
    "authors": {
        "adafed": ("adafed", {}, None, ""),
        "unbiased": ("unbiased", {}, None, "adafed"),
        "ca_fed": ("ca_fed", {}, None, "adafed"),
    },
}


def config(mode: str, rounds: int, clients: int, max_train: int, max_test: int) -> dict[str, Any]:
    if mode == "authors":
        cfg = get("cafed:fig1b").setup("authors").configs["quick"]()
        cfg["run"]["rounds"] = rounds
        cfg["run"]["eval_every"] = 5
        cfg["problem"]["n_clients"] = clients
    else:
        cfg = fig1b_config(rounds, clients, ("adafed", "ca_fed"), 5, max_train, max_test)
    by_name = {a["name"]: a for a in cfg["algorithms"]}
    algorithms = []
    for label, (name, options, rates, _) in MODES[mode].items():
        base = by_name.get(name) or by_name["adafed"]
        entry = {**base, "name": name, **options, "label": label}
        if name != "ca_fed":
            entry = {
                k: v
                for k, v in entry.items()
                if k
                not in ("kappa2", "tau", "beta", "bias_const", "fstar", "loss_signal", "loss_ridge")
            }
        if rates is not None:
            entry["lr"], entry["server_lr"] = rates
        algorithms.append(entry)
    cfg["algorithms"] = algorithms
    return cfg


def summarise(
    mode: str, rounds: int, seeds: int, clients: int, max_train: int, max_test: int
) -> dict:
    start = time.perf_counter()
    cfg, data = resolve(config(mode, rounds, clients, max_train, max_test), None)
    m = measurements_of(simulate(cfg, seeds=seeds, device="cpu", threads=1))
    checkpoints = sorted({t for t in (20, 40, 60, 100, 200, 400, rounds) if t <= rounds})
    out: dict[str, Any] = {
        "mode": mode,
        "data": data,
        "rounds": rounds,
        "seeds": seeds,
        "clients": clients,
    }
    for label, (_, _, _, base) in MODES[mode].items():
        out[f"{label}_acc"] = round(float(m.final(label).mean()) * 100, 2)
        if not base:
            continue
        end = paired_difference(m.final(label), m.final(base), confidence=0.95)
        at = {}
        for t in checkpoints:
            iv = paired_difference(m.at_round(label, t), m.at_round(base, t), confidence=0.95)
            at[str(t)] = [round(iv.mean * 100, 2), round(iv.low * 100, 2), round(iv.high * 100, 2)]
        out[label] = {
            "vs": base,
            "diff_end_pp": [
                round(end.mean * 100, 2),
                round(end.low * 100, 2),
                round(end.high * 100, 2),
            ],
            "diff_at_round_pp": at,
            "participation": round(judges.participation(m, label), 3),
            "exclusion": judges.exclusion_by_group(m, label),
        }
    out["seconds"] = round(time.perf_counter() - start, 1)
    return out


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=tuple(MODES))
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--max-train", type=int, default=6000)
    parser.add_argument("--max-test", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=Path("figures/out"))
    args = parser.parse_args(argv)
    if args.rounds < 20 or args.seeds < 2 or args.clients < 4:
        parser.error("--rounds must be >= 20, --seeds >= 2 and --clients >= 4")
    result = summarise(
        args.mode, args.rounds, args.seeds, args.clients, args.max_train, args.max_test
    )
    text = json.dumps(result)
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"cafed_fig1b_diagnosis_{args.mode}.json"
    write_atomic(path, text + "\n")
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
