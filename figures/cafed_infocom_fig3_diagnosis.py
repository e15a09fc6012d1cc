"""INFOCOM Fig. 3 / Table I diagnosis: CA-Fed − F3AST (and − the best other) on the binary
synthetic data, per setup and CA-Fed variant, under both time-average definitions.

Per row (a config; its algorithms share traces and minibatches, so differences are paired):
per algorithm the means over seeds of the per-round time-average up to T (the judges'), the
code's logged-point time-average (judges.logged_metrics), the maximum, acc_end and the
second-half sd (per round and over the logged points); per CA-Fed variant the paired
differences to F3AST and to the best other algorithm with 95 % t-intervals (pp).

Rows: ``paper`` and ``paper-digits`` (the registry's configs, CA-Fed variants: paper; the
authors' signal + no-4 bias that flips Fig. 1), ``authors`` (the registry's config with F3AST
at its script rates), ``authors-f3ast-bug`` (F3AST at the run default η = 0.3, η̄ = 1: the
config before the fix) and ``authors-same-rates`` (Unbiased and F3AST at CA-Fed's script rates
0.01/0.3, plus CA-Fed at Unbiased's 0.03/0.03: does CA-Fed's lead follow the rates?).

Usage: python figures/cafed_infocom_fig3_diagnosis.py [--seeds 9] [--rows paper,...] [--out DIR]
Prints one JSON object per row and writes them to ``OUT/cafed_infocom_fig3.jsonl``.
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
from fltheory.experiments.catalog.cafed_infocom_common import authors_infocom_config, infocom_config
from fltheory.experiments.model import Measurements
from fltheory.experiments.runner import measurements_of
from fltheory.experiments.stats import paired_difference

PP = 100.0
CA_FED_SCRIPT_RATES = (0.01, 0.3)  # synthetic/full_experiment.sh, CA-Fed's η, η̄
AUTHORS_SIGNAL = {"fstar": "sklearn", "loss_signal": "test", "loss_ridge": False}


def rows() -> dict[str, dict[str, Any]]:
    paper, digits = infocom_config("synthetic"), infocom_config("digits")
    for cfg in (paper, digits):
        ca = next(a for a in cfg["algorithms"] if a["name"] == "ca_fed")
        flipped = {k: v for k, v in ca.items() if k != "kappa2"}
        flipped.update(AUTHORS_SIGNAL, bias_const=1.0, label="ca_fed_authors_signal")
        cfg["algorithms"] = [*cfg["algorithms"], flipped]
    authors = authors_infocom_config("synthetic")
    bug = authors_infocom_config("synthetic")
    for a in bug["algorithms"]:
        if a["name"] == "f3ast_code":
            a.pop("lr"), a.pop("server_lr")
    same = authors_infocom_config("synthetic")
    for a in same["algorithms"]:
        if a["name"] in ("unbiased", "f3ast_code"):
            a["lr"], a["server_lr"] = CA_FED_SCRIPT_RATES
    slow = next(a for a in same["algorithms"] if a["name"] == "ca_fed")
    same["algorithms"].append({**slow, "label": "ca_fed_at_unbiased_rates", "lr": 0.03,
                               "server_lr": 0.03})  # fmt: skip
    return {
        "paper": paper,
        "paper-digits": digits,
        "authors": authors,
        "authors-f3ast-bug": bug,
        "authors-same-rates": same,
    }


def metrics(m: Measurements, label: str) -> dict[str, np.ndarray]:
    acc = m.accuracy[label]
    half = m.eval_rounds + 1 > (m.eval_rounds[-1] + 1) / 2
    logged = judges.logged_metrics(m, label)
    return {
        "time_average": acc.mean(axis=1),
        "time_average_logged": logged["time_average"],
        "max": acc.max(axis=1),
        "end": m.final(label),
        "sd_half": acc[:, half].std(axis=1, ddof=1),
        "sd_half_logged": logged["second_half_sd"],
    }


def summarise(name: str, cfg: dict[str, Any], seeds: int) -> dict[str, Any]:
    m = measurements_of(simulate(cfg, seeds=seeds, device="cpu", threads=1))
    labels = [a.get("label", a["name"]) for a in cfg["algorithms"]]
    per = {k: metrics(m, k) for k in labels}
    out: dict[str, Any] = {"row": name, "seeds": seeds}
    out["means_pp"] = {
        k: {s: round(float(np.mean(v)) * PP, 2) for s, v in per[k].items()} for k in labels
    }
    others = [k for k in labels if not k.startswith("ca_fed")]
    for ca in (k for k in labels if k.startswith("ca_fed")):
        diffs = {}
        for stat in ("time_average", "time_average_logged", "end", "sd_half", "sd_half_logged"):
            lower = stat.startswith("sd")
            best = (min if lower else max)(others, key=lambda k: float(np.mean(per[k][stat])))
            for ref in dict.fromkeys(("f3ast", best)):
                iv = paired_difference(PP * per[ca][stat], PP * per[ref][stat], confidence=0.95)
                diffs[f"{stat} − {ref}"] = [
                    round(iv.mean, 2),
                    [round(iv.low, 2), round(iv.high, 2)],
                ]
        out[ca] = {
            "participation": round(judges.participation(m, ca), 3),
            "differences_pp": diffs,
        }
    return out


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=9)
    parser.add_argument("--out", type=Path, default=Path("figures/out"))
    parser.add_argument("--rows", default="paper,authors,authors-f3ast-bug,authors-same-rates")
    args = parser.parse_args(argv)
    table = rows()
    wanted = args.rows.split(",")
    if args.seeds < 2 or not set(wanted) <= set(table):
        parser.error(f"--seeds must be >= 2 and --rows a subset of {','.join(table)}")
    lines = []
    for name in wanted:
        lines.append(json.dumps(summarise(name, table[name], args.seeds), ensure_ascii=False))
        print(lines[-1], flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    write_atomic(args.out / "cafed_infocom_fig3.jsonl", "\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
