"""CA-Fed INFOCOM 2023, shared by its figure modules: the ``paper`` and ``authors`` setups,
the comparison they run, the client-group masks and the data-set tags of a sweep.

The extraction lost almost every number of P1; Table I's values come from the authors' README
(arodio/CA-Fed README.md:146-159, "the average over three runs"), which carries the same table,
and are marked so.

The ``paper`` setup follows the INFOCOM text (binary synthetic data with Bernoulli group
identity, P1:180; two availability groups, more/less available × correlated/weakly correlated;
plain SGD per eqs. 2-3) with the numbers the extraction lost taken from the authors' scripts:
N = 24, d = 10, 50 train / 150 test samples, h = 0.2, T = 150, g = 0.4, ν = 0.9. Rates η = 0.3,
η̄ = 1 for every algorithm (a 3-point probe: accuracy is flat in η ∈ {0.03, 0.3, 1}; no grid
search yet). "MNIST" is scikit-learn digits with the second half of the clients' labels swapped
(P1:104), in full mode only. Time averages are per round (spec B.0.1 ``paper``).

>>> infocom_config("synthetic")["run"]["rounds"] == ROUNDS
True
"""

from collections.abc import Callable
from typing import Any

import numpy as np

from fltheory.experiments.catalog.common import (
    AUTHORS_IMAGE_RATES,
    AUTHORS_INFOCOM_RATES,
    FIG1D_GROUPS,
    PAPER_AVAILABILITY,
    to_authors,
)
from fltheory.experiments.model import (
    Config,
    Measurements,
    SetupSpec,
    per_mode,
)

ROUNDS = 150


ALGORITHMS: list[dict[str, Any]] = [
    {"name": "unbiased", "label": "unbiased"},
    {"name": "f3ast", "label": "f3ast", "k": 12, "beta": 1 / ROUNDS, "r0": "pi"},
    {"name": "adafed", "label": "adafed"},
    {"name": "ca_fed", "label": "ca_fed", "kappa2": 1.0, "tau": 0.0, "beta": 1.0},
]


def infocom_config(data: str) -> dict[str, Any]:
    """The ``paper`` comparison on ``data`` = "synthetic" or "digits" (labels swapped)."""
    problem: dict[str, Any] = (
        {
            "kind": "binary_synthetic",
            "n_clients": 24,
            "n_features": 10,
            "n_train": 50,
            "n_test": 150,
            "flip": 0.2,
            "ridge": 1e-2,
            "alpha": "samples",
        }
        if data == "synthetic"
        else {
            "kind": "digits",
            "n_clients": 24,
            "partition": "label_swap",
            "swap_fraction": 0.5,
            "model": "softmax",
            "ridge": 1e-2,
            "alpha": "samples",
        }
    )
    return {
        "name": f"cafed-infocom-paper-{data}",
        "seed": 0,
        "device": "auto",
        "dtype": "float32",
        "run": {
            "rounds": ROUNDS,
            "local_steps": 2,
            "batch_size": 32,
            "eval_every": 1,
            "estimator": "oracle",
            "lr": 0.3,
            "server_lr": 1.0,
        },
        "problem": problem,
        "availability": {**PAPER_AVAILABILITY, "split": "random"},
        "algorithms": [dict(a) for a in ALGORITHMS],
    }


def group_masks(m: Measurements) -> dict[str, np.ndarray]:
    return {
        name: np.any([m.groups[p] for p in parts if p in m.groups], axis=0)
        for name, parts in FIG1D_GROUPS.items()
    }


def tags(m: Measurements) -> list[str]:
    return sorted({k.split("/")[0] for k in m.accuracy})


README = "arodio/CA-Fed README.md:156-159 (P1:114-121 cells lost)"


SYNTHETIC = "binary synthetic clustered, N = 24, d = 10, h = 0.2 (authors' scripts)"


BOTH = SYNTHETIC + "; MNIST with swapped labels, N = 24"


PAPER_TEXT = (
    "the INFOCOM text (P1:100-108, Appendix F): two groups, more/less available and "
    "correlated/weakly correlated; plain SGD, E = 2 steps of 32; N, T and the data sizes "
    "lost in extraction are the authors' scripts' (module docstring)"
)


SYN_PAPER = "binary synthetic, N = 24, d = 10, 50/150 samples, h = 0.2, Bernoulli groups"


def one_or_both(
    mode: str, make: Callable[[str], dict[str, Any]], second: str, sweep: bool
) -> Config:
    """What a setup runs in ``mode``: ``make("synthetic")``, or (``sweep``) the tagged
    synthetic comparison and, in full mode only, ``make(second)`` (the image data set).

    >>> [tag for tag, _ in one_or_both("full", infocom_config, "digits", True)]
    ['synthetic', 'digits']
    """
    if not sweep:
        return make("synthetic")
    names = ("synthetic",) if mode == "quick" else ("synthetic", second)
    return [(name, make(name)) for name in names]


def paper_setup(data: str, sweep: bool = False) -> SetupSpec:
    configs = per_mode(one_or_both, infocom_config, "digits", sweep)
    return SetupSpec("paper", PAPER_TEXT, data, configs=configs)


def authors_infocom_config(data: str) -> dict[str, Any]:
    """The public scripts' run (spec C.10): ``data`` = "synthetic" (binary, deterministic 12/12
    groups, h = 0.2, 50/150 samples, the deterministic population split) or "mnist" (labels
    swapped per cluster, ``label_swap_clusters``; Fashion-MNIST stands in without --data-dir),
    data seed 42, the authors' mechanics (:func:`~.common.to_authors`), the synthetic script's
    rates (full_experiment.sh) or the MNIST script's 1e-3/0.1."""
    paper = infocom_config("synthetic")
    if data == "synthetic":
        paper["problem"] = {**paper["problem"], "groups": "deterministic"}
        rates, split = AUTHORS_INFOCOM_RATES, "deterministic"
    else:
        paper["problem"] = {
            "kind": "mnist",
            "n_clients": 24,
            "partition": "label_swap_clusters",
            "model": "softmax",
            "ridge": 0.0,
            "alpha": "samples",
        }
        rates, split = AUTHORS_IMAGE_RATES, "multinomial"
    out = to_authors(paper, split=split, rates=rates)
    out["run"]["batch_size"] = 32 if data == "synthetic" else 64
    out["name"] = f"cafed-infocom-authors-{data}"
    return out


def authors_setup(data: str, sweep: bool = False) -> SetupSpec:
    configs = per_mode(one_or_both, authors_infocom_config, "mnist", sweep)
    return SetupSpec(
        "authors",
        "the public scripts (paper_experiments/synthetic, mnist): 2 local epochs (bz 32 "
        "synthetic, 64 MNIST), momentum 0.9, WD 1e-2, oracle π/λ, T = 150, data seed 42, "
        "sklearn F*, test-loss signal, bias_const 1, the code's F3AST (k = 12); rates of "
        "synthetic/full_experiment.sh (Unbiased .03/.03, CA-Fed .01/.3, AdaFed 1e-3/1, F3AST "
        ".03/.03) and MNIST's 1e-3/.1 for every algorithm (the others' are unpublished); "
        "metrics also over the code's logged points (verdict 'authors_logging')",
        data,
        configs=configs,
        datasets=("mnist",) if sweep else (),
    )
