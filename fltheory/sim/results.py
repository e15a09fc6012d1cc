"""Per-round records of one algorithm's run, their time averages, and the output files."""

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from fltheory.atomic import npz_bytes
from fltheory.jsonable import to_jsonable
from fltheory.sim.client_metrics import summarise_distribution


@dataclass(eq=False)
class RunResult:
    """Everything recorded for one algorithm over R repetitions and T rounds.

    Metrics are taken after the rounds ``eval_rounds`` (0-based; the model w_{t+1}); arrays
    are (R, len(eval_rounds)), None where the problem has no such metric (the objective: where
    ``[run] record_objective`` is false). Per-client records
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
    objective: np.ndarray | None
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
        out = {} if self.objective is None else {"objective": self.objective}
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


#: The columns of ``rounds.csv``: name → (meaning, unit); written to ``rounds.schema.json``.
ROUNDS_COLUMNS: dict[str, tuple[str, str]] = {
    "algorithm": ("the algorithm's label ([[algorithms]] label, else its name)", "-"),
    "seed": ("repetition r = 0, ..., R-1 (its random streams are keyed by the seed and r)", "-"),
    "round": ("the model evaluated is w_{t+1}, after rounds 1..t+1; this is t+1", "rounds"),
    "objective": (
        "F(w) = sum_k alpha_k F_k(w) of the server model w (eq. 1; empty: not recorded)",
        "loss",
    ),
    "accuracy": (
        "alpha-weighted mean test accuracy of the server model (empty: no labelled data)",
        "fraction in [0, 1]",
    ),
    "distance": (
        "||w - w*||_2 from the server model to the minimiser w* of F (empty: w* unknown)",
        "parameter norm",
    ),
    "n_active": ("|A_t|: clients available at that round", "clients"),
    "n_included": ("clients whose update entered the server step (q_k > 0)", "clients"),
}
_EXTRA_MODELS = {"client_mean": "the mean of the client models (FedPBC)"}


def _columns(runs: list[RunResult]) -> dict[str, tuple[str, str]]:
    """The columns of ``rounds.csv`` for these runs: the base ones, then the metrics of the
    algorithms' extra models (e.g. ``objective_client_mean``; empty for the others)."""
    columns = dict(ROUNDS_COLUMNS)
    for name in sorted({name for run in runs for name in run.extra}):
        metric, _, tag = name.partition("_")
        model = _EXTRA_MODELS.get(tag, f"the algorithm's {tag!r} model")
        columns[name] = (
            f"'{metric}' of {model} instead of the server model",
            ROUNDS_COLUMNS[metric][1],
        )
    return columns


def _rounds_csv(runs: list[RunResult], names: list[str]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(names)
    for run in runs:
        table = run.metrics()
        for r in range(run.weights.shape[0]):
            for i, t in enumerate(run.eval_rounds):
                row: dict[str, Any] = {"algorithm": run.label, "seed": r, "round": int(t) + 1}
                row["n_active"] = int(run.n_active[r, t])
                row["n_included"] = int(run.included[r, t].sum())
                row.update({n: f"{v[r, i]:.10g}" for n, v in table.items()})
                writer.writerow([row.get(n, "") for n in names])
    return buffer.getvalue()


def result_contents(
    provenance: dict[str, Any],
    summary: dict[str, Any],
    runs: list[RunResult],
    timing: dict[str, Any] | None = None,
) -> dict[str, bytes | str]:
    """The result files of a comparison by name, each byte for byte determined by the runs (no
    clock in them; :func:`write_results` writes them, :mod:`fltheory.resultdir` stages them):

    * ``summary.json`` — the provenance (version, commit, resolved config and its hash, seeds,
      device, dtype, library versions) and the summary, less its timings;
    * ``rounds.csv`` — one row per algorithm, seed and evaluated round, and
      ``rounds.schema.json`` — each column's meaning and unit, and the provenance;
    * ``clients.npz`` — per algorithm ``<label>/weights``, ``included`` (R, T, N),
      ``pi_hat``/``lambda2_hat`` (estimated knowledge), ``eval_rounds`` (1-based) and
      ``models/server`` (R, evaluations, P): the server model at every evaluation, per seed
      (FedPBC also ``models/client_mean``); ``provenance`` as a JSON string;
    * ``timing.json`` — what varies from run to run: seconds per algorithm, and ``timing``.

    >>> from fltheory.sim.config import build, run_config
    >>> cfg = build({"run": {"rounds": 2}, "device": "cpu",
    ...              "problem": {"kind": "fedpbc_quadratic", "n_clients": 3, "dim": 2},
    ...              "availability": {"kind": "bernoulli", "p": 1.0},
    ...              "algorithms": [{"name": "fedavg"}]})
    >>> list(result_contents({"seed": 0}, *run_config(cfg)))
    ['summary.json', 'rounds.csv', 'rounds.schema.json', 'clients.npz', 'timing.json']
    """

    def dump(value: Any) -> str:
        return json.dumps(to_jsonable(value), indent=2) + "\n"

    stable = dict(summary)
    stable["algorithms"] = {
        label: {k: v for k, v in entry.items() if k != "seconds"}
        for label, entry in summary["algorithms"].items()
    }
    columns = _columns(runs)
    arrays: dict[str, np.ndarray] = {"provenance": np.array(json.dumps(to_jsonable(provenance)))}
    for run in runs:
        arrays[f"{run.label}/weights"] = run.weights
        arrays[f"{run.label}/included"] = run.included
        if run.pi_hat is not None:
            arrays[f"{run.label}/pi_hat"] = run.pi_hat
        if run.lambda2_hat is not None:
            arrays[f"{run.label}/lambda2_hat"] = run.lambda2_hat
        arrays[f"{run.label}/eval_rounds"] = np.asarray(run.eval_rounds) + 1
        for name, models in run.models.items():
            arrays[f"{run.label}/models/{name}"] = models
    schema = {
        "file": "rounds.csv",
        "columns": {name: {"meaning": m, "unit": u} for name, (m, u) in columns.items()},
        "provenance": provenance,
    }
    timing = {"seconds": {run.label: run.seconds for run in runs}, **(timing or {})}
    contents: dict[str, bytes | str] = {
        "summary.json": dump(
            {"provenance": provenance, "config": provenance.get("config"), "summary": stable}
        ),
        "rounds.csv": _rounds_csv(runs, list(columns)),
        "rounds.schema.json": dump(schema),
        "clients.npz": npz_bytes(arrays, compress=True),
        "timing.json": dump(timing),
    }
    return contents


def write_results(
    out_dir: Path,
    provenance: dict[str, Any],
    summary: dict[str, Any],
    runs: list[RunResult],
    timing: dict[str, Any] | None = None,
) -> list[Path]:
    """Write the files of :func:`result_contents` into ``out_dir``, each atomically.

    >>> import tempfile
    >>> from fltheory.sim.config import build, run_config
    >>> cfg = build({"run": {"rounds": 2}, "device": "cpu",
    ...              "problem": {"kind": "fedpbc_quadratic", "n_clients": 3, "dim": 2},
    ...              "availability": {"kind": "bernoulli", "p": 1.0},
    ...              "algorithms": [{"name": "fedavg"}]})
    >>> summary, runs = run_config(cfg)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     paths = write_results(Path(folder), {"seed": 0}, summary, runs)
    ...     models = np.load(paths[3])["fedavg/models/server"].shape  # (R, evaluations, P)
    ...     rows = len(paths[1].read_text().splitlines())  # rounds.csv: header + 2 rounds
    ...     [p.name for p in paths[2:]], rows, models
    (['rounds.schema.json', 'clients.npz', 'timing.json'], 3, (1, 2, 2))
    """
    from fltheory.atomic import write_atomic

    contents = result_contents(provenance, summary, runs, timing)
    return [write_atomic(out_dir / name, data) for name, data in contents.items()]
