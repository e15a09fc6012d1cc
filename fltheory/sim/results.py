"""Per-round records of one algorithm's run, their time averages, and the output files."""

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from fltheory.jsonable import to_jsonable
from fltheory.sim.client_metrics import summarise_distribution


@dataclass(eq=False)
class RunResult:
    """Everything recorded for one algorithm over R repetitions and T rounds.

    Metrics are taken after the rounds ``eval_rounds`` (0-based; the model w_{t+1}); arrays
    are (R, len(eval_rounds)), None where the problem has no such metric. Per-client records
    are (R, T, N): the aggregation weights actually applied (0 for non-participants),
    participation, and the π̂, λ̂ the server used (None with oracle knowledge).

    >>> from fltheory.sim.config import build, run_config
    >>> cfg = build({"run": {"rounds": 4}, "seeds": 2, "device": "cpu",
    ...              "problem": {"kind": "fedpbc_quadratic", "n_clients": 3, "dim": 2},
    ...              "availability": {"kind": "bernoulli", "p": 1.0},
    ...              "algorithms": [{"name": "fedavg"}]})
    >>> run = run_config(cfg)[1][0]
    >>> run.label, run.objective.shape, run.weights.shape  # (R, evaluations), (R, T, N)
    ('fedavg', (2, 4), (2, 4, 3))
    """

    label: str
    eval_rounds: np.ndarray
    objective: np.ndarray
    accuracy: np.ndarray | None
    distance: np.ndarray | None
    weights: np.ndarray
    included: np.ndarray
    n_active: np.ndarray
    final_w: np.ndarray
    pi_hat: np.ndarray | None = None
    lambda2_hat: np.ndarray | None = None
    seconds: float = 0.0
    info: dict[str, Any] = field(default_factory=dict)
    #: extra metrics of other models by name, e.g. "distance_client_mean" (R, n_eval).
    extra: dict[str, np.ndarray] = field(default_factory=dict)
    #: (R, N) test accuracy of the final global model on each client's test set (None: no data).
    client_accuracy: np.ndarray | None = None
    #: the evaluated models by name, (R, len(eval_rounds), P) in the run's dtype: "server" (the
    #: global model w_{t+1}) and the algorithm's extra ones, e.g. FedPBC's "client_mean".
    models: dict[str, np.ndarray] = field(default_factory=dict)

    def metrics(self) -> dict[str, np.ndarray]:
        out = {"objective": self.objective}
        if self.accuracy is not None:
            out["accuracy"] = self.accuracy
        if self.distance is not None:
            out["distance"] = self.distance
        out.update(self.extra)
        return out

    def summary(self) -> dict[str, Any]:
        """Time averages over evaluated rounds and final values, mean and std over seeds.

        >>> from fltheory.sim.config import build, run_config
        >>> cfg = build({"run": {"rounds": 4}, "device": "cpu",
        ...              "problem": {"kind": "fedpbc_quadratic", "n_clients": 3, "dim": 2},
        ...              "availability": {"kind": "bernoulli", "p": 1.0},
        ...              "algorithms": [{"name": "fedavg"}]})
        >>> summary = run_config(cfg)[1][0].summary()
        >>> summary["inclusion_rate"], summary["mean_weights"].round(6).tolist()  # 1/N each
        (1.0, [0.333333, 0.333333, 0.333333])
        """
        out: dict[str, Any] = {"label": self.label, **self.info}
        for name, arr in self.metrics().items():
            avg, final = arr.mean(axis=1), arr[:, -1]
            higher = name.startswith("accuracy")
            out[name] = {
                "time_average": float(avg.mean()),
                "time_average_std": float(avg.std()),
                "final": float(final.mean()),
                "final_std": float(final.std()),
                "best": float((arr.max(axis=1) if higher else arr.min(axis=1)).mean()),
            }
        if self.client_accuracy is not None:
            out["client_accuracy"] = summarise_distribution(self.client_accuracy)
        out["mean_weights"] = self.weights.mean(axis=(0, 1))
        out["inclusion_rate"] = float(self.included.mean())
        out["mean_active"] = float(self.n_active.mean())
        out["seconds"] = self.seconds
        return out


def write_results(
    out_dir: Path, config: dict[str, Any], summary: dict[str, Any], runs: list[RunResult]
) -> list[Path]:
    """Write ``summary.json`` (config + summary), ``rounds.csv`` (one row per algorithm, seed
    and evaluated round) and ``clients.npz`` (per-client weights, inclusion, estimates).

    >>> import tempfile
    >>> from fltheory.sim.config import build, run_config
    >>> cfg = build({"run": {"rounds": 2}, "device": "cpu",
    ...              "problem": {"kind": "fedpbc_quadratic", "n_clients": 3, "dim": 2},
    ...              "availability": {"kind": "bernoulli", "p": 1.0},
    ...              "algorithms": [{"name": "fedavg"}]})
    >>> summary, runs = run_config(cfg)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     paths = write_results(Path(folder), cfg.raw, summary, runs)
    ...     [p.name for p in paths], len(paths[1].read_text().splitlines())  # header + 2 rounds
    (['summary.json', 'rounds.csv', 'clients.npz'], 3)
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / "summary.json", out_dir / "rounds.csv", out_dir / "clients.npz"]
    paths[0].write_text(
        json.dumps(to_jsonable({"config": config, "summary": summary}), indent=2) + "\n"
    )
    with paths[1].open("w", newline="") as handle:
        writer = csv.writer(handle)
        names = ["objective", "accuracy", "distance"]
        writer.writerow(["algorithm", "seed", "round", *names, "n_active", "n_included"])
        for run in runs:
            for r in range(run.objective.shape[0]):
                for i, t in enumerate(run.eval_rounds):
                    values = [
                        "" if getattr(run, n) is None else f"{getattr(run, n)[r, i]:.10g}"
                        for n in names
                    ]
                    writer.writerow(
                        [
                            run.label,
                            r,
                            int(t) + 1,
                            *values,
                            int(run.n_active[r, t]),
                            int(run.included[r, t].sum()),
                        ]
                    )
    arrays: dict[str, np.ndarray] = {}
    for run in runs:
        arrays[f"{run.label}/weights"] = run.weights
        arrays[f"{run.label}/included"] = run.included
        if run.pi_hat is not None:
            arrays[f"{run.label}/pi_hat"] = run.pi_hat
        if run.lambda2_hat is not None:
            arrays[f"{run.label}/lambda2_hat"] = run.lambda2_hat
    np.savez_compressed(paths[2], **arrays)  # type: ignore[arg-type]  # numpy's stub types **kwds as its keyword options
    return paths
