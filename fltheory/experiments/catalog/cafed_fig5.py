"""CA-Fed ToN Fig. 5: spatial correlation. N clients in 10 clusters (consecutive blocks), one
two-state chain per cluster: clusters 0-4 "more available" (π = 0.9, λ = 0), clusters 5-9
"less available, correlated" (π = 0.1, λ = c/10). Data on scikit-learn digits (MNIST's
stand-in): setting (a) homogeneous = IID shares; (c) heterogeneous intra and inter = Dirichlet(0.5)
per client. Setting (b) (homogeneous within, heterogeneous across clusters) needs a
cluster-level data generator that does not exist yet: it is not run.

>>> from fltheory.experiments.model import get
>>> get("cafed:fig5d").numbers[0].value
0.6
>>> get("cafed:fig5d").setup("paper").configs["quick"]()["availability"]["lambda2"][5:]
[0.5, 0.6, 0.7, 0.8, 0.9]
"""

from typing import Any

import numpy as np

from fltheory.experiments import judges
from fltheory.experiments.catalog.cafed_fig1 import ALGORITHM_TABLES, fig1_judge
from fltheory.experiments.catalog.common import AUTHORS_IMAGE_RATES, ton, with_authors
from fltheory.experiments.model import (
    Check,
    Diagnosis,
    Experiment,
    Measurements,
    Number,
    Panel,
    PaperStatement,
    SetupSpec,
    register,
)
from fltheory.experiments.stats import paired_difference

DIGITS = "scikit-learn digits (8x8; stands in for MNIST)"
FIG5_SETUP = (
    "N clients in 10 clusters, one chain per cluster: clusters 0-4 π = 0.9, λ = 0; clusters 5-9 "
    "π = 0.1, λ = c/10; CA-Fed κ̄² = 1, oracle π and λ; plain SGD, E = 2 steps of 32, "
    "η = 0.5, η̄ = 1 (cafed:fig1b's rates)"
)
CORRELATED, AVAILABLE = (6, 7, 8, 9), (0, 1, 2, 3, 4, 5)


def fig5_config(
    partition: str, n_clients: int, rounds: int, names: tuple[str, ...]
) -> dict[str, Any]:
    """One comparison of Fig. 5 on digits with the given partition (iid: setting a)."""
    problem: dict[str, Any] = {
        "kind": "digits",
        "n_clients": n_clients,
        "partition": partition,
        "model": "softmax",
        "ridge": 1e-2,
        "alpha": "samples",
    }
    if partition == "dirichlet":
        problem["concentration"] = 0.5
    return {
        "name": f"cafed-fig5-paper-{partition}",
        "seed": 0,
        "device": "auto",
        "dtype": "float32",
        "run": {
            "rounds": rounds,
            "local_steps": 2,
            "batch_size": 32,
            "eval_every": 5,
            "estimator": "oracle",
            "lr": 0.5,
            "server_lr": 1.0,
        },
        "problem": problem,
        "availability": {
            "kind": "clustered",
            "pi": [0.9] * 5 + [0.1] * 5,
            "lambda2": [0.0] * 5 + [c / 10 for c in range(5, 10)],
            "assignment": "blocks",
        },
        "algorithms": [{"name": n, "label": n, **ALGORITHM_TABLES[n]} for n in names],
    }


def cluster_counts(m: Measurements, label: str) -> tuple[np.ndarray, np.ndarray]:
    """(left out, active) client-rounds per seed and cluster, each (seeds, 10)."""
    assert m.active is not None
    active = m.active.astype(bool)
    left_out = active & ~m.included[label].astype(bool)
    masks = [m.groups[f"cluster {c}"] for c in range(10)]
    left = np.stack([left_out[..., k].sum(axis=(1, 2)) for k in masks], axis=1)
    seen = np.stack([active[..., k].sum(axis=(1, 2)) for k in masks], axis=1)
    return left, seen


def _rate(left: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """left / seen, NaN where nothing was seen."""
    out = np.full(np.shape(left), np.nan)
    return np.divide(left, seen, out=out, where=np.asarray(seen) > 0)


def cluster_exclusion(m: Measurements, label: str) -> np.ndarray:
    """(seeds, 10): per seed and cluster, the share of active client-rounds ``label`` left out
    (NaN where the cluster was never active)."""
    return _rate(*cluster_counts(m, label))


def fig5ac_judge(m: Measurements, mode: str) -> list[Check]:
    """Fig. 5a-c per data setting run: CA-Fed leaves out the correlated clusters 6-9 more than
    clusters 0-5 (per seed, pooled over the clusters' active client-rounds; paired over seeds);
    in full mode, setting (a) also needs x_c >= 0.8 for
    c in 6..9 and <= 0.2 for 0..5 (means), setting (c) some correlated cluster partially
    included (0.2 < x_c < 0.8). Per-cluster rates are reported."""
    checks: list[Check] = []
    for label in [k for k in m.included if k.split("/")[-1] == "ca_fed"]:
        setting = label.split("/")[0] if "/" in label else "a"
        left, seen = cluster_counts(m, label)
        corr = _rate(left[:, CORRELATED].sum(axis=1), seen[:, CORRELATED].sum(axis=1))
        avail = _rate(left[:, AVAILABLE].sum(axis=1), seen[:, AVAILABLE].sum(axis=1))
        keep = np.isfinite(corr) & np.isfinite(avail)
        iv = paired_difference(corr[keep], avail[keep], confidence=judges.CONFIDENCE[mode])
        checks.append(
            Check(
                f"({setting}) CA-Fed leaves out clusters 6-9 more than clusters 0-5",
                "sequentially excludes all clients from clusters {9, 8, 7, 6}",
                judges._round(iv.mean),
                (judges._round(iv.low), judges._round(iv.high)),
                holds=iv.direction == "+",
                opposite=iv.direction == "-",
                where="P2:353",
            )
        )
        means = _rate(left.sum(axis=0), seen.sum(axis=0))  # pooled over seeds
        rates = {f"cluster {c}": judges._round(v) for c, v in enumerate(means)}
        if mode == "full" and setting == "a":
            checks.append(
                Check(
                    "(a) x_c >= 0.8 for clusters 6-9 and <= 0.2 for clusters 0-5",
                    "excludes, in order, all clients from clusters {9, 8, 7, 6}",
                    rates,
                    None,
                    holds=bool(
                        (means[list(CORRELATED)] >= 0.8).all()
                        and (means[list(AVAILABLE)] <= 0.2).all()
                    ),
                    where="P2:353",
                )
            )
        elif mode == "full" and setting == "c":
            partial = [c for c in CORRELATED if 0.2 < means[c] < 0.8]
            checks.append(
                Check(
                    "(c) some correlated cluster partially included (0.2 < x_c < 0.8)",
                    "CA-Fed can partially include clients from the more correlated clusters",
                    rates,
                    None,
                    holds=bool(partial),
                    where="P2:353",
                )
            )
        else:
            checks.append(
                Check(
                    f"({setting}) exclusion rate per cluster",
                    "—",
                    rates,
                    None,
                    None,
                    role="diagnostic",
                    where="P2:353",
                )
            )
    checks.append(
        Check(
            "(b) homogeneous within, heterogeneous across clusters",
            "include cluster 8",
            "not run: needs a cluster-level data generator",
            None,
            None,
            role="diagnostic",
            where="P2:353",
        )
    )
    return checks


register(
    Experiment(
        id="cafed:fig5a-c",
        title="Spatial correlation: activity and CA-Fed inclusion rasters (data settings a, c)",
        source=ton("V-B(e)", "Fig. 5(a)-(c)"),
        where="P2:341-347, P2:351, P2:353",
        numbers=(
            Number("clusters", 10, "clusters", "P2:351"),
            Number(
                "λ_c of the correlated clusters",
                None,
                "",
                "P2:351",
                "c/10 for c = 5..9 as read from the text; raster values not in the text",
            ),
        ),
        claims=(
            PaperStatement(
                "CA-Fed starts considering the clients in cluster c̄ = 9 ... and sequentially "
                "excludes, in order, all clients from clusters {9, 8, 7, 6}",
                "P2:353",
            ),
            PaperStatement(
                "(b) still excludes all clients from clusters c = {9, 7, 6}, but decides to "
                "include clients from cluster c = 8 (a property of that data draw)",
                "P2:353",
            ),
            PaperStatement(
                "(c) CA-Fed can partially include clients from the more correlated clusters",
                "P2:353",
            ),
        ),
        setups=with_authors(
            {
                "paper": SetupSpec(
                    "paper",
                    FIG5_SETUP + "; settings (a) and (c); quick: (a) only, N = 50, T = 40",
                    DIGITS + "; (a) IID shares, (c) Dirichlet(0.5) per client",
                    configs={
                        "quick": lambda: [("a", fig5_config("iid", 50, 40, ("ca_fed", "adafed")))],
                        "full": lambda: [
                            ("a", fig5_config("iid", 100, 100, ("ca_fed", "adafed"))),
                            ("c", fig5_config("dirichlet", 100, 100, ("ca_fed", "adafed"))),
                        ],
                    },
                ),
            },
            DIGITS + ", clusters as paper",
            rates=AUTHORS_IMAGE_RATES,
            seed=None,
        ),
        panels=(
            Panel("raster", "raster", "seed 0: inactive / active left out / included"),
            Panel("exclusion", "group_exclusion", "active client-rounds left out, by cluster"),
        ),
        judge=fig5ac_judge,
        diagnoses=(
            Diagnosis(
                "figures/cafed_fig5_diagnosis.py",
                "--setup paper --setting a",
                "cafed_fig5_diagnosis_paper_a.json",
            ),
        ),
        seeds={"quick": 3, "full": 10},
    )
)

register(
    Experiment(
        id="cafed:fig5d",
        title="Spatial correlation: test accuracy, MNIST (digits stands in), T = 100",
        source=ton("V-B(e)", "Fig. 5(d)"),
        where="P2:347, P2:353",
        numbers=(
            Number("ca_fed − adafed", 0.6, "pp", "P2:353"),
            Number("rounds T", 100, "rounds", "P2:347"),
        ),
        claims=(
            PaperStatement(
                "CA-Fed can operate correctly in the presence of spatial correlation and still "
                "outperforms the baselines (+0.6 pp w.r.t. AdaFed)",
                "P2:353",
            ),
        ),
        setups=with_authors(
            {
                "paper": SetupSpec(
                    "paper",
                    FIG5_SETUP + "; setting (c); quick: N = 50, T = 40, CA-Fed vs AdaFed",
                    DIGITS + ", Dirichlet(0.5) per client",
                    configs={
                        "quick": lambda: fig5_config("dirichlet", 50, 40, ("ca_fed", "adafed")),
                        "full": lambda: fig5_config(
                            "dirichlet",
                            100,
                            100,
                            ("unbiased", "more_available", "ca_fed", "adafed", "f3ast"),
                        ),
                    },
                ),
            },
            DIGITS + ", clusters as paper",
            rates=AUTHORS_IMAGE_RATES,
            seed=None,
        ),
        panels=(Panel("accuracy", "accuracy", "test accuracy vs round"),),
        judge=fig1_judge(0.6, 0.6, "P2:353"),
        diagnoses=(
            Diagnosis(
                "figures/cafed_fig5_diagnosis.py",
                "--setup paper --setting c",
                "cafed_fig5_diagnosis_paper_c.json",
                setups=("paper",),
            ),
            Diagnosis(
                "figures/cafed_fig5_diagnosis.py",
                "--setup authors",
                "cafed_fig5_diagnosis_authors_c.json",
                setups=("authors",),
            ),
        ),
        seeds={"quick": 6, "full": 20},
    )
)
