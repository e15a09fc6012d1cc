"""Theory vs simulation for one comparison, as one record: what ``fltheory simulate --theory``
prints and writes (``theory.json``, ``theory.csv``; the plot is :mod:`~fltheory.sim.theory.plot`).

:func:`compare_with_theory` takes the exact limits of a configuration
(:func:`~fltheory.sim.theory.exact.plan_theory`) and the models the run evaluated — per
algorithm label, ``eval_rounds`` (1-based) and the (R, E, d) arrays ``server`` (and FedPBC's
``client_mean``), as a run keeps them (:func:`models_of_runs`) and as ``clients.npz`` stores
them (:func:`models_of_npz`) — and judges each model with :func:`~fltheory.sim.theory.stats.
agreement`. Algorithms without a known limit are kept, with the reason, never dropped.
"""

import csv
import io
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from fltheory.jsonable import to_jsonable
from fltheory.sim.theory.exact import KNOWN, AlgorithmTheory, ExactLimit, TheoryPlan
from fltheory.sim.theory.stats import (
    AGREES,
    INCONCLUSIVE,
    LEVEL,
    TRANSIENT_TOL,
    Agreement,
    agreement,
    auto_burn_in,
    describe_test,
)

#: Models per algorithm label: "eval_rounds" (E,) 1-based, and (R, E, d) arrays by model name.
Models = Mapping[str, Mapping[str, np.ndarray]]

#: The columns of ``theory.csv``: name → meaning (also written into ``theory.json``).
CSV_COLUMNS: dict[str, str] = {
    "algorithm": "the algorithm's label in the config",
    "model": "server: the global model w_t; client_mean: FedPBC's mean of the client models",
    "status": "known / no known limit / no limit (the mean recursion does not contract)",
    "rule": "the simulator's per-round rule in words",
    "limit_function": "the fltheory function computing lim E[w_t]",
    "coordinate": "index j of the model coordinate of this row",
    "exact_limit": "lim E[w_t] in coordinate j",
    "optimum": "w*, the minimiser of F = sum_k alpha_k F_k (eq. 1), in coordinate j",
    "simulated_mean": "mean over seeds of the per-seed time average after the burn-in",
    "standard_error": "standard error of that mean across seeds",
    "band_half_width": "h_j of the test (see theory.json 'test')",
    "inside_band": "|simulated_mean - exact_limit| <= band_half_width",
    "verdict": "agrees / disagrees / inconclusive for the whole model (all coordinates)",
    "burn_in": "rounds left out before the time average",
    "seeds": "independent repetitions R",
    "reason": "why there is no known limit, or why the verdict is inconclusive",
}


def models_of_runs(runs: Sequence[Any]) -> dict[str, dict[str, np.ndarray]]:
    """The models a run evaluated, by label (:class:`~fltheory.sim.results.RunResult` list).

    >>> from fltheory.sim.config import build, run_config
    >>> cfg = build({"run": {"rounds": 3}, "seeds": 2, "device": "cpu",
    ...              "problem": {"kind": "quadratic", "u": [[0.0], [1.0]]},
    ...              "availability": {"kind": "bernoulli", "p": 0.5},
    ...              "algorithms": [{"name": "fedpbc"}]})
    >>> models = models_of_runs(run_config(cfg)[1])["fedpbc"]
    >>> models["eval_rounds"].tolist(), models["server"].shape, models["client_mean"].shape
    ([1, 2, 3], (2, 3, 1), (2, 3, 1))
    """
    return {
        run.label: {"eval_rounds": np.asarray(run.eval_rounds) + 1, **run.models} for run in runs
    }


def models_of_npz(path: str | Path) -> dict[str, dict[str, np.ndarray]]:
    """The same from a result's ``clients.npz`` (``<label>/eval_rounds``,
    ``<label>/models/<name>``).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "clients.npz"
    >>> np.savez(path, **{"fedavg/eval_rounds": np.arange(1, 4),
    ...                   "fedavg/models/server": np.zeros((2, 3, 1)), "fedavg/weights": 0})
    >>> {k: v.shape for k, v in models_of_npz(path)["fedavg"].items()}
    {'eval_rounds': (3,), 'server': (2, 3, 1)}
    """
    out: dict[str, dict[str, np.ndarray]] = {}
    with np.load(path, allow_pickle=False) as data:
        for key in data.files:
            if key.endswith("/eval_rounds"):
                out.setdefault(key.removesuffix("/eval_rounds"), {})["eval_rounds"] = data[key]
            elif "/models/" in key:
                label, _, name = key.rpartition("/models/")
                out.setdefault(label, {})[name] = data[key]
    return out


@dataclass(frozen=True)
class ModelComparison:
    """One model of one algorithm: its exact limit, the bias ‖lim − w*‖₂, the plotted
    coordinate (the one of largest bias) and the statistical :class:`Agreement`."""

    label: str
    algorithm: str
    rule: str
    exact: ExactLimit
    bias: float
    coordinate: int
    agreement: Agreement

    @property
    def key(self) -> str:
        """``label`` for the server model, ``label/model`` for another."""
        return self.label if self.exact.model == "server" else f"{self.label}/{self.exact.model}"

    def to_dict(self) -> dict[str, Any]:
        a = self.agreement
        return {
            "limit_function": self.exact.function,
            "method": self.exact.method,
            "rate": self.exact.rate,
            "exact_limit": self.exact.limit,
            "bias": self.bias,
            "objective_gap": self.exact.objective_gap,
            "burn_in": a.burn_in,
            "rounds_used": a.rounds_used,
            "seeds": a.seeds,
            "simulated_mean": a.mean,
            "standard_error": a.se,
            "band_half_width": a.half_width,
            "z": a.z,
            "z_optimum": a.z_optimum,
            "optimum_in_band": bool(a.z_optimum <= 1.0),
            "transient": a.transient,
            "verdict": a.verdict,
            "note": a.note,
            "plotted_coordinate": self.coordinate,
        }


@dataclass(frozen=True, eq=False)
class TheoryComparison:
    """Every algorithm of a comparison against its exact limit.

    ``comparisons`` holds the models with a known limit, ``unknown`` the algorithms without
    (status and reason); ``series`` keeps the simulated models for the plot (not in
    :meth:`to_dict`). ``str()`` is the table ``fltheory simulate --theory`` prints.

    >>> print(_demo())  # doctest: +ELLIPSIS
    Theory vs simulation (links); test: two-sided one-sample Student t-test ...
      fedavg: agrees (max |mean - limit|/band = ...); lim E[w][0] = 0.75, w*[0] = 0.5, ...
      mifa: no known limit: it reuses every client's latest update (a memory of past models)
    """

    optimum: np.ndarray
    availability: str
    level: float
    burn_in_rule: str
    comparisons: tuple[ModelComparison, ...]
    unknown: tuple[AlgorithmTheory, ...]
    provenance: dict[str, Any] = field(default_factory=dict)
    series: Mapping[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)

    @property
    def verdicts(self) -> dict[str, str]:
        """Verdict per model key (``label`` or ``label/client_mean``), then the algorithms
        without a known limit with their status.

        >>> _demo().verdicts
        {'fedavg': 'agrees', 'mifa': 'no known limit'}
        """
        out = {c.key: c.agreement.verdict for c in self.comparisons}
        out.update({a.label: a.status for a in self.unknown})
        return out

    @property
    def all_agree(self) -> bool:
        """Whether every model with a known limit agrees (and there is one).

        >>> _demo().all_agree
        True
        """
        return bool(self.comparisons) and all(
            c.agreement.verdict == AGREES for c in self.comparisons
        )

    def to_dict(self) -> dict[str, Any]:
        """The ``theory.json`` object (and ``fltheory simulate --theory --json``).

        >>> record = _demo().to_dict()
        >>> record["algorithms"]["fedavg"]["models"]["server"]["verdict"]
        'agrees'
        >>> [(entry["algorithm"], entry["status"]) for entry in record["no_known_limit"]]
        [('mifa', 'no known limit')]
        """
        algorithms: dict[str, Any] = {}
        for c in self.comparisons:
            entry = algorithms.setdefault(
                c.label,
                {"algorithm": c.algorithm, "status": KNOWN, "rule": c.rule, "models": {}},
            )
            entry["models"][c.exact.model] = c.to_dict()
        for a in self.unknown:
            algorithms[a.label] = {"algorithm": a.algorithm, "status": a.status, "rule": a.rule,
                                   "reason": a.reason, "models": {}}  # fmt: skip
        return {
            "provenance": self.provenance,
            "test": {
                "name": describe_test(self.level),
                "level": self.level,
                "burn_in": self.burn_in_rule,
                "inconclusive_when": "fewer than 2 seeds, no round after the burn-in, or "
                "rate^burn-in > 1e-3",
            },
            "optimum": self.optimum,
            "optimum_kind": "w*, the minimiser of F = sum_k alpha_k F_k (eq. 1)",
            "availability": self.availability,
            "verdicts": self.verdicts,
            "all_agree": self.all_agree,
            "no_known_limit": [
                {"algorithm": a.label, "status": a.status, "reason": a.reason} for a in self.unknown
            ],
            "algorithms": algorithms,
            "csv_columns": CSV_COLUMNS,
        }

    def to_json(self) -> str:
        """``theory.json``'s text.

        >>> json.loads(_demo().to_json())["verdicts"]["fedavg"]
        'agrees'
        """
        return json.dumps(to_jsonable(self.to_dict()), indent=2) + "\n"

    def to_csv(self) -> str:
        """``theory.csv``: one row per (algorithm, model, coordinate); one row per algorithm
        without a known limit.

        >>> TheoryComparison(np.zeros(1), "", LEVEL, "", (), ()).to_csv().split(",")[:3]
        ['algorithm', 'model', 'status']
        """
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for c in self.comparisons:
            a = c.agreement
            for j in range(self.optimum.size):
                row = {
                    "algorithm": c.label,
                    "model": c.exact.model,
                    "status": KNOWN,
                    "rule": c.rule,
                    "limit_function": c.exact.function,
                    "coordinate": j,
                    "exact_limit": _num(c.exact.limit[j]),
                    "optimum": _num(self.optimum[j]),
                    "simulated_mean": _num(a.mean[j]),
                    "standard_error": _num(a.se[j]),
                    "band_half_width": _num(a.half_width[j]),
                    "inside_band": _inside(a, c.exact.limit, j),
                    "verdict": a.verdict,
                    "burn_in": a.burn_in,
                    "seeds": a.seeds,
                    "reason": a.note,
                }
                writer.writerow([row[name] for name in CSV_COLUMNS])
        for u in self.unknown:
            row = {"algorithm": u.label, "status": u.status, "rule": u.rule, "reason": u.reason}
            writer.writerow([row.get(name, "") for name in CSV_COLUMNS])
        return buffer.getvalue()

    def __str__(self) -> str:
        lines = [f"Theory vs simulation ({self.availability}); test: {describe_test(self.level)}"]
        for c in self.comparisons:
            a, j = c.agreement, c.coordinate
            lines.append(
                f"  {c.key}: {a.verdict} (max |mean - limit|/band = {a.z:.3g}); "
                f"lim E[w][{j}] = {c.exact.limit[j]:.6g}, w*[{j}] = {self.optimum[j]:.6g}, "
                f"simulated {a.mean[j]:.6g} ± {a.half_width[j]:.2g}; bias {c.bias:.3g} "
                f"({c.exact.function.rsplit('.', 1)[-1]})" + (f"; {a.note}" if a.note else "")
            )
        lines += [f"  {u.label}: {u.status}: {u.reason}" for u in self.unknown]
        return "\n".join(lines)


def _num(value: float) -> str:
    return f"{value:.10g}" if math.isfinite(value) else ""


def _inside(a: Agreement, limit: np.ndarray, j: int) -> str:
    if a.verdict == INCONCLUSIVE and not math.isfinite(a.half_width[j]):
        return ""
    return str(bool(abs(a.mean[j] - limit[j]) <= a.half_width[j])).lower()


def compare_with_theory(
    plan: TheoryPlan,
    models: Models,
    *,
    rounds: int,
    eps: float,
    burn_in: int | None = None,
    level: float = LEVEL,
    provenance: dict[str, Any] | None = None,
) -> TheoryComparison:
    """Judge every model with a known limit (``burn_in`` None: per model, the automatic
    burn-in of :func:`~fltheory.sim.theory.stats.auto_burn_in`; ``eps``: the machine epsilon
    of the run's dtype).

    >>> from fltheory.sim.theory.exact import AlgorithmTheory, ExactLimit, TheoryPlan
    >>> exact = ExactLimit("server", np.array([0.75]), "fltheory.limits.bernoulli_limit", "", 0.5)
    >>> plan = TheoryPlan(np.array([0.5]), "links", (AlgorithmTheory("fedavg", "fedavg",
    ...                   "known", "1/|A|", "", (exact,)),), start=np.zeros(1))
    >>> rng = np.random.default_rng(0)
    >>> series = 0.75 + 0.05 * rng.standard_normal((8, 100, 1))
    >>> result = compare_with_theory(plan, {"fedavg": {"eval_rounds": np.arange(1, 101),
    ...                              "server": series}}, rounds=100, eps=1e-16)
    >>> result.verdicts, result.all_agree
    ({'fedavg': 'agrees'}, True)
    """
    comparisons: list[ModelComparison] = []
    series: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    unknown = tuple(a for a in plan.algorithms if a.status != KNOWN)
    for theory in plan.algorithms:
        recorded = models.get(theory.label, {})
        for exact in theory.limits:
            data = recorded.get(exact.model)
            rounds_at = recorded.get("eval_rounds")
            if data is None or rounds_at is None:
                data = np.full((0, 0, plan.optimum.size), np.nan)
                rounds_at = np.zeros(0, dtype=int)
            b = auto_burn_in(exact.rate, rounds) if burn_in is None else burn_in
            agree = agreement(data, rounds_at, exact.limit, plan.optimum, exact.rate, b,
                              start=plan.start, eps=eps, level=level)  # fmt: skip
            if data.shape[0] == 0:
                agree = _missing(agree)
            gap = exact.limit - plan.optimum
            comparisons.append(
                ModelComparison(
                    theory.label,
                    theory.algorithm,
                    theory.rule,
                    exact,
                    float(np.linalg.norm(gap)),
                    int(np.argmax(np.abs(gap))),
                    agree,
                )
            )
            series[comparisons[-1].key] = (np.asarray(rounds_at), np.asarray(data))
    rule = (
        f"given: {burn_in} rounds"
        if burn_in is not None
        else f"automatic: the first round b with rate^b <= {TRANSIENT_TOL:g}, at most half "
        "the rounds"
    )
    return TheoryComparison(plan.optimum, plan.availability, level, rule, tuple(comparisons),
                            unknown, dict(provenance or {}), series)  # fmt: skip


def _missing(agree: Agreement) -> Agreement:
    return replace(agree, verdict=INCONCLUSIVE, note="the run recorded no such model")


def _demo() -> TheoryComparison:
    """A small comparison for the examples: FedAvg against Proposition 1, and MIFA."""
    from fltheory.sim.theory.rules import NO_LIMIT

    exact = ExactLimit("server", np.array([0.75]), "fltheory.limits.bernoulli_limit", "", 0.5)
    plan = TheoryPlan(
        np.array([0.5]),
        "links",
        (
            AlgorithmTheory("fedavg", "fedavg", KNOWN, "1/|A_t| on A_t", "", (exact,)),
            AlgorithmTheory("mifa", "mifa", "no known limit", "", NO_LIMIT["mifa"]),
        ),
        np.zeros(1),
    )
    noise = np.random.default_rng(0).standard_normal((8, 100, 1))
    models = {"fedavg": {"eval_rounds": np.arange(1, 101), "server": 0.75 + 0.05 * noise}}
    return compare_with_theory(plan, models, rounds=100, eps=1e-16)
