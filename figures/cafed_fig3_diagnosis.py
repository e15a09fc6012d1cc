"""Fig. 3 diagnosis (cafed:fig3, paper setup): is γ = δ = 0 the "extreme IID setting"?

(1) ``labels``: LEAF Synthetic(γ, δ) draws W_k, b_k with entries N(μ_k, 1), μ_k ~ N(0, γ²);
a common shift μ_k of every logit leaves argmax unchanged, so γ cannot change any label. Printed:
the share of labels (and whether the features are) identical between (γ, δ) = (0, 0) and other
levels at the same seed, for fltheory's and the authors' generator layout.
(2) ``iid``: fig3's comparison at ``--level`` (γ = δ) against an IID control with the same
sample counts: x ~ N(0, Σ) and one shared W_0, b_0 ~ N(0, 1) for every client (FedProx's
"synthetic IID"). Unbiased, More available, CA-Fed (κ̄² = 0.01, 1), More available at
Unbiased's rates and CA-Fed(1) at η̄ = 8, on the same traces; printed: acc_end per algorithm
and X − Unbiased in pp with a 95 % paired t-interval.

Usage: python figures/cafed_fig3_diagnosis.py labels
       python figures/cafed_fig3_diagnosis.py iid [--level 0] [--rounds 100] [--seeds 5]
Prints one JSON object per line and writes them to ``OUT/cafed_fig3_diagnosis_<what>.jsonl``
(``--out``, default figures/out/).
"""

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.api.simulation import simulate
from fltheory.atomic import write_atomic
from fltheory.experiments.catalog.cafed_fig3 import fig3_config
from fltheory.experiments.runner import measurements_of
from fltheory.experiments.stats import paired_difference
from fltheory.rng import generator
from fltheory.sim.data import FederatedData, synthetic_leaf
from fltheory.sim.plugins.fields import target_weights
from fltheory.sim.plugins.problems.synthetic import SyntheticLeafParams
from fltheory.sim.problems import DataProblem
from fltheory.sim.registries import PROBLEMS, Built, ModelShape, ProblemContext


def iid_control(data: FederatedData, seed: int) -> FederatedData:
    """FedProx's "synthetic IID" with ``data``'s sample counts: x ~ N(0, diag(j^-1.2)) and one
    W_0, b_0 with N(0, 1) entries labelling every client."""
    rng = generator(seed, "figures/cafed-fig3-iid")
    scale = np.arange(1, data.n_features + 1, dtype=float) ** (-0.6)
    w = rng.standard_normal((data.n_classes, data.n_features))
    b = rng.standard_normal(data.n_classes)
    x_train = (rng.standard_normal(data.x_train.shape) * scale).astype(data.x_train.dtype)
    x_test = (rng.standard_normal(data.x_test.shape) * scale).astype(data.x_test.dtype)
    return dataclasses.replace(
        data,
        x_train=x_train,
        y_train=np.argmax(x_train @ w.T + b, axis=1).astype(np.int64),
        x_test=x_test,
        y_test=np.argmax(x_test @ w.T + b, axis=1).astype(np.int64),
    )


@PROBLEMS.register("synthetic_iid", params=SyntheticLeafParams)
def build_shared(params: SyntheticLeafParams, ctx: ProblemContext) -> Built:
    """FedProx's synthetic IID with LEAF Synthetic's sample counts (the IID control)."""
    data = synthetic_leaf(params.gamma, params.delta, params.n_clients, seed=ctx.seed)
    data = iid_control(data, ctx.seed)
    assert ctx.model is not None
    model = ctx.model(ModelShape(data.n_features, data.n_classes))
    alpha = target_weights(params.alpha, data.n_clients, data.train_counts)
    return DataProblem(model, data, alpha, ctx.device, ctx.dtype, init_seed=ctx.seed), {}


def labels() -> list[dict[str, Any]]:
    """Label and feature identity between level (0, 0) and others, same seed."""
    out = []
    for layout, seed in (("fltheory", 0), ("authors", 42)):
        base = synthetic_leaf(0.0, 0.0, 100, seed=seed, rng_layout=layout)
        for g, d in ((1.0, 0.0), (0.5, 0.5), (1.0, 1.0)):
            o = synthetic_leaf(g, d, 100, seed=seed, rng_layout=layout)
            out.append(
                {
                    "layout": layout,
                    "gamma": g,
                    "delta": d,
                    "features_identical": bool(np.allclose(base.x_train, o.x_train)),
                    "labels_identical_share": round(float((base.y_train == o.y_train).mean()), 4),
                }
            )
    return out


def iid(rounds: int, seeds: int, level: float) -> dict[str, Any]:
    """fig3's comparison at ``level`` on its own data and on the IID control, plus
    More available at Unbiased's rates (0.03/5) and CA-Fed(1) at the grid's largest η̄ = 8."""
    start = time.perf_counter()
    _, cfg = next(c for c in fig3_config("full") if c[0] == f"gd={level:g}")
    cfg["run"]["rounds"] = rounds
    drop = ("ca_fed k2=10", "ca_fed k2=100")
    algs = [a for a in cfg["algorithms"] if a["label"] not in drop]
    more = next(a for a in algs if a["name"] == "more_available")
    ca1 = next(a for a in algs if a["label"] == "ca_fed k2=1")
    algs.append({**more, "label": "more_available@0.03/5", "lr": 0.03, "server_lr": 5.0})
    algs.append({**ca1, "label": "ca_fed k2=1@0.03/8", "server_lr": 8.0})
    cfg["algorithms"] = algs
    out: dict[str, Any] = {"level": level, "rounds": rounds, "seeds": seeds}
    for kind in ("synthetic_leaf", "synthetic_iid"):
        m = measurements_of(
            simulate(
                {**cfg, "problem": {**cfg["problem"], "kind": kind}},
                seeds=seeds,
                device="cpu",
                threads=1,
            )
        )
        ref = m.accuracy["unbiased"][:, -1]
        row: dict[str, Any] = {}
        for label, acc in m.accuracy.items():
            iv = paired_difference(acc[:, -1], ref, confidence=0.95)
            row[label] = {
                "acc": round(float(acc[:, -1].mean()) * 100, 2),
                "minus_unbiased_pp": [round(x * 100, 2) for x in (iv.mean, iv.low, iv.high)],
            }
        out[kind] = row
    out["seconds"] = round(time.perf_counter() - start, 1)
    return out


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("labels", "iid"))
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--level", type=float, default=0.0, choices=(0.0, 0.25, 0.5, 0.75, 1.0))
    parser.add_argument("--out", type=Path, default=Path("figures/out"))
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seeds < 2:
        parser.error("--rounds must be >= 1 and --seeds >= 2")
    rows = labels() if args.what == "labels" else [iid(args.rounds, args.seeds, args.level)]
    lines = [json.dumps(row) for row in rows]
    print("\n".join(lines), flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"cafed_fig3_diagnosis_{args.what}.jsonl"
    write_atomic(path, "\n".join(lines) + "\n")
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
