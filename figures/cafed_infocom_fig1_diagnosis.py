"""INFOCOM Fig. 1/2 diagnosis: which mechanic flips CA-Fed's exclusion pattern between the
``paper`` and ``authors`` setups, and how far an exactly unbiased sampler is from α at T = 150.

``fig1``: one mechanic switched at a time, each row a config holding CA-Fed variants on the same
traces (paired); per variant the paired mean and 95 % t-interval over seeds of
excl(less available) − excl(more available) (the fig1 judge's first check), the per-group
exclusion rates and participants/active.
``fig2``: per setup and algorithm, the mean single-run TV(α, time-averaged shares) (the old
fig2 judge), the TV of the seed-mean shares with its sign-flip p-value (the corrected judge,
``departure``) and the judge's checks at --seeds (95 %).

Usage: python figures/cafed_infocom_fig1_diagnosis.py fig1|fig2 [--seeds 9] [--out DIR]
Prints one JSON object per line and writes them to ``OUT/cafed_infocom_<fig1|fig2>.jsonl``
(``--out``, default figures/out/).
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
from fltheory.experiments.catalog.cafed_infocom_common import (
    authors_infocom_config,
    group_masks,
    infocom_config,
)
from fltheory.experiments.catalog.cafed_infocom_fig1 import exclusion_rate
from fltheory.experiments.catalog.cafed_infocom_fig2 import client_shares, departure, fig2_judge
from fltheory.experiments.runner import measurements_of
from fltheory.experiments.stats import paired_difference

PAPER_SIGNAL = {"fstar": "running_min", "loss_signal": "minibatch"}
AUTHORS_SIGNAL = {"fstar": "sklearn", "loss_signal": "test", "loss_ridge": False}
AUTHORS_POPULATION = {"kind": "ca_fed_authors", "g": 0.4, "nu": 0.9, "eps": 0.01}


def _cafed(cfg: dict[str, Any], variants: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """``cfg`` with only CA-Fed, once per variant (options replace the base entry's)."""
    base = next(a for a in cfg["algorithms"] if a["name"] == "ca_fed")
    algs = []
    for label, options in variants.items():
        entry = {**base, **options, "label": label}
        if "bias_const" in options:
            entry.pop("kappa2", None)
        if "kappa2" in options:
            entry.pop("bias_const", None)
        algs.append({k: v for k, v in entry.items() if v is not None})
    return {**cfg, "algorithms": algs}


def fig1_rows() -> dict[str, dict[str, Any]]:
    paper, authors = infocom_config("synthetic"), authors_infocom_config("synthetic")
    paper_pop = {
        **paper,
        "availability": {**AUTHORS_POPULATION, "split": "deterministic"},
        "problem": {**paper["problem"], "groups": "deterministic"},
    }
    authors_pop = {**authors, "availability": dict(paper["availability"])}
    return {
        "paper": _cafed(
            paper,
            {
                "paper": {},
                "bias_const=1 (no 4)": {"bias_const": 1.0},
                "authors signal (sklearn F*, test loss)": AUTHORS_SIGNAL,
                "authors signal + bias_const=1": {**AUTHORS_SIGNAL, "bias_const": 1.0},
                "exact F* + train loss": {"fstar": "oracle", "loss_signal": "train"},
            },
        ),
        "paper + authors population/groups": _cafed(
            paper_pop, {"paper": {}, "authors signal": AUTHORS_SIGNAL}
        ),
        "authors": _cafed(
            authors,
            {
                "authors": {},
                "paper signal (minibatch, running min)": {**PAPER_SIGNAL, "loss_ridge": None},
                "paper signal + 4κ̄²": {**PAPER_SIGNAL, "kappa2": 1.0},
            },
        ),
        "authors + paper population": _cafed(
            authors_pop, {"authors": {}, "paper signal": PAPER_SIGNAL}
        ),
    }


def fig1(seeds: int) -> list[str]:
    lines = []
    for row, cfg in fig1_rows().items():
        m = measurements_of(simulate(cfg, seeds=seeds, device="cpu", threads=1))
        masks = group_masks(m)
        less = masks["less available, correlated"] | masks["less available, weakly correlated"]
        for a in cfg["algorithms"]:
            label = a["label"]
            iv = paired_difference(
                exclusion_rate(m, label, less),
                exclusion_rate(m, label, masks["more available"]),
                confidence=0.95,
            )
            out = {
                "setup": row,
                "variant": label,
                "less_minus_more": round(iv.mean, 3),
                "ci95": [round(iv.low, 3), round(iv.high, 3)],
                "participation": round(judges.participation(m, label), 3),
                "exclusion": judges.exclusion_by_group(m, label),
            }
            lines.append(json.dumps(out, ensure_ascii=False))
            print(lines[-1], flush=True)
    return lines


def fig2(seeds: int) -> list[str]:
    lines = []
    for setup, cfg in (
        ("paper", infocom_config("synthetic")),
        ("authors", authors_infocom_config("synthetic")),
    ):
        m = measurements_of(simulate(cfg, seeds=seeds, device="cpu", threads=1))
        assert m.alpha is not None
        target = m.alpha / m.alpha.sum()
        out: dict[str, Any] = {"setup": setup, "seeds": seeds}
        for label in ("unbiased", "f3ast", "adafed", "ca_fed"):
            deviation = client_shares(m, label) - target
            tv, p, critical = departure(deviation)
            out[label] = {
                "tv_per_run": round(float(0.5 * np.abs(deviation).sum(axis=1).mean()), 4),
                "tv_seed_mean": round(tv, 4),
                "sign_flip_p": round(p, 4),
                "null_q95": round(critical, 4),
            }
        out["checks"] = [
            [c.claim[:40], c.measured, list(c.ci or ()), c.holds, c.opposite]
            for c in fig2_judge(m, "full")
        ]
        lines.append(json.dumps(out))
        print(lines[-1], flush=True)
    return lines


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("fig1", "fig2"))
    parser.add_argument("--seeds", type=int, default=9)
    parser.add_argument("--out", type=Path, default=Path("figures/out"))
    args = parser.parse_args(argv)
    if args.seeds < 2:
        parser.error("--seeds must be >= 2")
    lines = (fig1 if args.what == "fig1" else fig2)(args.seeds)
    args.out.mkdir(parents=True, exist_ok=True)
    write_atomic(args.out / f"cafed_infocom_{args.what}.jsonl", "\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
