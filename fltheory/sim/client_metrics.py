"""Distribution of the global model's test accuracy over clients (FedAR paper, Table 3).

For each repetition: mean and variance over clients (population variance, in the same units
as the accuracies), and the mean accuracy of the worst and of the best ⌈0.1·N⌉ clients
("Worst 10 %", "Best 10 %", as in q-FFL [19] of the FedAR paper). Clients without test data
(NaN) are left out.
"""

import math

import numpy as np

from fltheory.errors import InputError


def accuracy_distribution(acc: np.ndarray, fraction: float = 0.1) -> dict[str, np.ndarray]:
    """Per-repetition statistics of an (R, N) array of per-client accuracies."""
    acc = np.atleast_2d(np.asarray(acc, dtype=float))
    if not 0.0 < fraction <= 1.0:
        raise InputError(f"fraction must lie in (0, 1], got {fraction}")
    out: dict[str, list[float]] = {"mean": [], "variance": [], "worst": [], "best": []}
    for row in acc:
        vals = np.sort(row[~np.isnan(row)])
        if vals.size == 0:
            raise InputError("no client has test data: the accuracy distribution is undefined")
        m = max(1, math.ceil(fraction * vals.size))
        out["mean"].append(float(vals.mean()))
        out["variance"].append(float(vals.var()))
        out["worst"].append(float(vals[:m].mean()))
        out["best"].append(float(vals[-m:].mean()))
    return {k: np.array(v) for k, v in out.items()}


def summarise_distribution(acc: np.ndarray, fraction: float = 0.1) -> dict[str, float]:
    """Table 3's row: each statistic's mean over repetitions and its std across repetitions,
    plus the std across clients (mean over repetitions) that Table 3 prints as "Mean ± std"."""
    stats = accuracy_distribution(acc, fraction)
    out = {}
    for name, values in stats.items():
        out[name] = float(values.mean())
        out[f"{name}_std_over_seeds"] = float(values.std())
    out["std_over_clients"] = float(np.sqrt(stats["variance"]).mean())
    return out
