"""Seeded learning-rate grid search (CA-Fed ToN App. G1-B(c), Table II).

The paper: "For each method and task, we performed a grid search to determine the optimal
learning rates η and η̄" over η ∈ {2, 1, 0.3, 0.1, 0.03, 0.01} and η̄ ∈ {5, 4, 3, 2, 1, 0.3, 0.1}
(MNIST, CIFAR-10), η̄ ∈ {8, ..., 1} (Synthetic LEAF) (P2:1584). It does not say on which metric.

Selection criterion used here: the final test accuracy acc_end (mean over the last 5 % of the
evaluations, as :meth:`~fltheory.experiments.model.Measurements.final`), averaged over tuning
repetitions, on **tuning draws**: a data set and availability traces drawn from a master seed
derived from (seed, "grid/<purpose>") and never used by the evaluated runs. With respect to the
evaluation this is a held-out validation metric (Table II's rates are "the learning rates
corresponding to the results in Figure 1", which plots test accuracy). A diverged point scores
−∞; ties go to the first pair in grid order.

* :func:`grid_search` is pure: ``evaluate(points, tuning_seed, repetitions)`` gives the
  per-repetition scores of every point, and the search returns a :class:`GridResult`;
* :class:`SimulatorObjective` evaluates every point of the grid in one comparison (data and
  availability trace drawn once, each point batched over repetitions);
* :func:`cached_grid_search` keeps every point's scores in the sweep results store
  (:class:`fltheory.sweep.Store`) ``<run directory>/grid/grid.db`` (the directory set by
  :func:`caching`), one row per point keyed by the hash of the point's config, stored as soon
  as its batch (the server rates of one (algorithm, η)) is scored: a re-run, or a search
  killed and restarted, scores only the points not stored yet, and two runs may share it.

>>> grid = Grid((1.0, 0.1), (2.0, 1.0))
>>> planted = lambda points, seed, reps: {p: np.full(reps, -abs(p.lr - 0.1) - p.server_lr)
...                                      for p in points}
>>> grid_search(planted, ("a",), grid, seed=0, purpose="doc", repetitions=2).selected()
{'a': (0.1, 1.0)}
"""

import contextlib
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from fltheory.rng import generator

Pair = tuple[float, float]


@dataclass(frozen=True)
class Grid:
    """Local rates η × server rates η̄, in the paper's order.

    >>> Grid((2.0, 0.01), (8.0, 1.0)).pairs()
    [(2.0, 8.0), (2.0, 1.0), (0.01, 8.0), (0.01, 1.0)]
    """

    local: tuple[float, ...]
    server: tuple[float, ...]

    def pairs(self) -> list[Pair]:
        return [(lr, slr) for lr in self.local for slr in self.server]

    def corners(self) -> "Grid":
        """The four corners (quick mode).

        >>> APPENDIX_G["synthetic"].corners()
        Grid(local=(2.0, 0.01), server=(8.0, 1.0))
        """
        return Grid((self.local[0], self.local[-1]), (self.server[0], self.server[-1]))


#: App. G1-B(c) grids (P2:1584), per data set.
APPENDIX_G: dict[str, Grid] = {
    "synthetic": Grid((2.0, 1.0, 0.3, 0.1, 0.03, 0.01), (8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0)),
    "mnist": Grid((2.0, 1.0, 0.3, 0.1, 0.03, 0.01), (5.0, 4.0, 3.0, 2.0, 1.0, 0.3, 0.1)),
    "cifar10": Grid((2.0, 1.0, 0.3, 0.1, 0.03, 0.01), (5.0, 4.0, 3.0, 2.0, 1.0, 0.3, 0.1)),
}


@dataclass(frozen=True)
class GridPoint:
    """One algorithm at one rate pair; ``label`` is how runs and caches name it."""

    algorithm: str
    lr: float
    server_lr: float

    @property
    def label(self) -> str:
        return f"{self.algorithm}|{self.lr:g}|{self.server_lr:g}"


#: evaluate(points, tuning seed, repetitions) -> per-repetition scores (higher is better).
Evaluate = Callable[[list[GridPoint], int, int], Mapping[GridPoint, np.ndarray]]


def tuning_seed(seed: int, purpose: str) -> int:
    """The master seed of the tuning draws: from the stream (seed, "grid/<purpose>"), never
    ``seed`` itself (so tuning and evaluation never share data or traces).

    >>> tuning_seed(0, "x") == tuning_seed(0, "x") != tuning_seed(1, "x")
    True
    """
    rng = generator(seed, f"grid/{purpose}")
    while True:
        value = int(rng.integers(1, 2**31 - 1))
        if value != seed:
            return value


def select(scores: Mapping[Pair, np.ndarray]) -> Pair:
    """The pair of highest mean score (NaN: −∞; ties: the first in order).

    >>> select({(1.0, 1.0): np.array([0.5, np.nan]), (0.1, 1.0): np.array([0.4, 0.4])})
    (0.1, 1.0)
    """
    means = [_mean(v) for v in scores.values()]
    return list(scores)[int(np.argmax(means))]


def _mean(values: np.ndarray) -> float:
    v = np.asarray(values, dtype=float)
    return float(v.mean()) if v.size and np.isfinite(v).all() else -math.inf


@dataclass(frozen=True, eq=False)
class GridResult:
    """Scores of every (algorithm, η, η̄) over the tuning repetitions, and the selection."""

    purpose: str
    tuning_seed: int
    repetitions: int
    criterion: str
    scores: dict[str, dict[Pair, np.ndarray]] = field(default_factory=dict)
    key: str = ""

    def selected(self) -> dict[str, Pair]:
        return {alg: select(table) for alg, table in self.scores.items()}

    def summary(self) -> dict[str, Any]:
        """What a verdict records: the search's identity and its selection."""
        return {
            "purpose": self.purpose,
            "tuning_seed": self.tuning_seed,
            "repetitions": self.repetitions,
            "criterion": self.criterion,
            "key": self.key,
            "selected": {a: list(p) for a, p in self.selected().items()},
        }


def grid_search(
    evaluate: Evaluate,
    algorithms: Sequence[str],
    grid: Grid,
    *,
    seed: int,
    purpose: str,
    repetitions: int,
    extra: Sequence[Pair] = (),
    criterion: str = "acc_end",
) -> GridResult:
    """Evaluate every algorithm at every pair of ``grid`` (and the ``extra`` pairs) on the
    tuning draws of (``seed``, "grid/<purpose>"), in one call to ``evaluate``."""
    pairs = list(dict.fromkeys([*grid.pairs(), *extra]))
    points = [GridPoint(a, lr, slr) for a in algorithms for lr, slr in pairs]
    tune = tuning_seed(seed, purpose)
    found = evaluate(points, tune, repetitions)
    scores = {a: {(p.lr, p.server_lr): np.asarray(found[p], dtype=float)
                  for p in points if p.algorithm == a} for a in algorithms}  # fmt: skip
    return GridResult(purpose, tune, repetitions, criterion, scores)


_CACHE: ContextVar[Path | None] = ContextVar("grid_cache", default=None)
_DEVICE: ContextVar[str] = ContextVar("grid_device", default="cpu")
_DONE: ContextVar[list[GridResult] | None] = ContextVar("grid_done", default=None)
_READONLY: ContextVar[bool] = ContextVar("grid_readonly", default=False)
#: A :func:`remembering` block's scored points: key -> (scores, CPU seconds it cost, process
#: time when it was scored).
Memo = dict[str, tuple[np.ndarray, float, float]]
_MEMO: ContextVar[Memo | None] = ContextVar("grid_memo", default=None)
#: The sub-folder of a run directory holding the grid caches.
CACHE_DIR = "grid"
#: The results store of the grid points in that folder.
STORE_FILE = "grid.db"


@contextlib.contextmanager
def caching(
    directory: Path | None, device: str | None = None, *, readonly: bool = False
) -> Iterator[list[GridResult]]:
    """Within the block, :func:`cached_grid_search` reads and writes ``directory`` (None: no
    cache; ``readonly``: reads its store if there is one, never creates or writes it — for a
    folder not locked yet) and :class:`SimulatorObjective` runs on ``device`` (None: cpu);
    yields the list of the searches done (for the verdict record)."""
    done: list[GridResult] = []
    tokens = (
        _CACHE.set(directory),
        _DEVICE.set(device or "cpu"),
        _DONE.set(done),
        _READONLY.set(readonly),
    )
    try:
        yield done
    finally:
        _CACHE.reset(tokens[0])
        _DEVICE.reset(tokens[1])
        _DONE.reset(tokens[2])
        _READONLY.reset(tokens[3])


@contextlib.contextmanager
def remembering() -> Iterator[None]:
    """Within the block, a grid point scored once is not scored again (keyed as in the store,
    by its config's hash): a reproduction builds its config three times — the preflight check,
    the result folder's identity and the run — and a grid setup's config is the outcome of its
    search, which without this ran three times (twice before the folder's cache was open).
    Nested blocks share the outermost block's scores."""
    if _MEMO.get() is not None:
        yield
        return
    token = _MEMO.set({})
    try:
        yield
    finally:
        _MEMO.reset(token)


def cpu_seconds_before(moment: float) -> float:
    """CPU seconds the current :func:`remembering` block spent scoring grid points before the
    process time ``moment`` (0 outside one): a run that reuses them adds them to its cost."""
    memo = _MEMO.get() or {}
    return sum(cost for _, cost, at in memo.values() if at < moment)


def cached_grid_search(
    objective: "SimulatorObjective",
    algorithms: Sequence[str],
    grid: Grid,
    *,
    seed: int,
    purpose: str,
    repetitions: int,
    extra: Sequence[Pair] = (),
    record: bool = True,
) -> GridResult:
    """:func:`grid_search` with ``objective``, each point's scores cached in the
    :func:`caching` directory's results store under the hash of the point's config (stored
    points are read back, the others scored in batches of one (algorithm, η), each batch
    stored as it finishes); ``record``: list it among the searches of the run (False for a
    helper run such as acc(0))."""
    from fltheory.provenance import config_hash

    pairs = list(dict.fromkeys([*grid.pairs(), *extra]))
    points = [GridPoint(a, lr, slr) for a in algorithms for lr, slr in pairs]
    tune = tuning_seed(seed, purpose)
    keyed: dict[str, Any] = {"repetitions": repetitions, "criterion": "acc_end"}
    keyed["device"] = _DEVICE.get()
    if objective.metric is not None:
        keyed["metric"] = objective.metric
    key = config_hash({"tables": objective.tables(points, tune), **keyed})
    directory = _CACHE.get()
    memo = _MEMO.get()
    scorer: SimulatorObjective | _Remembered = objective
    if memo is not None:
        scorer = _Remembered(objective, keyed, memo)
    evaluate: Evaluate = scorer
    if directory is not None and not _READONLY.get():
        directory.mkdir(parents=True, exist_ok=True)
        evaluate = _StoredObjective(scorer, directory / STORE_FILE, keyed)
    elif directory is not None and (directory / STORE_FILE).is_file():
        evaluate = _StoredObjective(scorer, directory / STORE_FILE, keyed, readonly=True)
    result = grid_search(
        evaluate, algorithms, grid, seed=seed, purpose=purpose, repetitions=repetitions,
        extra=extra,
    )  # fmt: skip
    result = GridResult(
        result.purpose, result.tuning_seed, repetitions, result.criterion, result.scores, key
    )
    done = _DONE.get()
    if done is not None and record and all(r.key != result.key for r in done):
        done.append(result)
    return result


@dataclass(frozen=True)
class _Remembered:
    """``objective`` whose points' scores are kept in ``memo`` (by the hash of the point's
    config and ``keyed``, as :class:`_StoredObjective` keys them) for the rest of a
    :func:`remembering` block."""

    objective: "SimulatorObjective"
    keyed: Mapping[str, Any]
    memo: Memo

    def tables(self, points: list[GridPoint], seed: int) -> dict[str, Any]:
        return self.objective.tables(points, seed)

    def __call__(
        self, points: list[GridPoint], seed: int, repetitions: int
    ) -> dict[GridPoint, np.ndarray]:
        from fltheory.provenance import config_hash

        keys = {
            p: config_hash({"tables": self.objective.tables([p], seed), **self.keyed})
            for p in points
        }
        missing = [p for p in points if keys[p] not in self.memo]
        if missing:
            start = time.process_time()
            scores = self.objective(missing, seed, repetitions)
            cost = (time.process_time() - start) / len(missing)
            for p in missing:
                self.memo[keys[p]] = (np.asarray(scores[p], dtype=float), cost, start)
        return {p: self.memo[keys[p]][0].copy() for p in points}


@dataclass(frozen=True)
class _StoredObjective:
    """``objective`` behind a sweep results store: one row per point (key: the hash of the
    point's config and ``keyed``; metrics ``acc_end/rep<i>``, NaN for a diverged run)."""

    objective: "SimulatorObjective | _Remembered"
    path: Path
    keyed: Mapping[str, Any]
    #: Read the stored points only (the points scored are not added).
    readonly: bool = False

    def __call__(
        self, points: list[GridPoint], seed: int, repetitions: int
    ) -> dict[GridPoint, np.ndarray]:
        import time

        from fltheory.provenance import config_hash
        from fltheory.sweep import Row, Store

        configs = {p: {"tables": self.objective.tables([p], seed), **self.keyed} for p in points}
        keys = {p: config_hash(c) for p, c in configs.items()}
        names = [f"acc_end/rep{i}" for i in range(repetitions)]
        out: dict[GridPoint, np.ndarray] = {}
        with Store(self.path, readonly=self.readonly) as store:
            rows = {row.key: row for row in store.rows()}
            for p in points:
                if keys[p] in rows:
                    out[p] = np.array([rows[keys[p]].metrics[n] for n in names], dtype=float)
            batches: dict[tuple[str, float], list[GridPoint]] = {}
            for p in points:
                if p not in out:
                    batches.setdefault((p.algorithm, p.lr), []).append(p)
            for batch in batches.values():
                start = time.perf_counter()
                scores = self.objective(batch, seed, repetitions)
                seconds = (time.perf_counter() - start) / len(batch)
                for p in batch:
                    values = np.asarray(scores[p], dtype=float)
                    swept = {"algorithm": p.algorithm, "lr": p.lr, "server_lr": p.server_lr}
                    metrics = dict(zip(names, values.tolist(), strict=True))
                    if not self.readonly:
                        store.add(Row(keys[p], seed, swept, configs[p], metrics, seconds))
                    out[p] = values
        return out


def without_objective(tables: dict[str, Any]) -> dict[str, Any]:
    """``tables`` with ``[run] record_objective = false``: the judges and the grid searches read
    accuracies and participation (:func:`~fltheory.experiments.runner.measurements_of`,
    :class:`SimulatorObjective`), never the training objective, whose evaluation is a pass over
    every training sample at each evaluation (about a fifth of ``cafed:fig1a --full --setup
    authors``).

    >>> without_objective({"run": {"rounds": 3}})["run"]
    {'rounds': 3, 'record_objective': False}
    """
    return {**tables, "run": {**tables["run"], "record_objective": False}}


@dataclass(frozen=True)
class SimulatorObjective:
    """Scores grid points with the simulator: ``base`` is an ``fltheory simulate`` table whose
    algorithms (by name) are repeated at every point; all points share one comparison (data and
    availability trace drawn once from the tuning seed, each point batched over repetitions).
    ``metric``: an extra metric of the run (e.g. FedPBC's ``accuracy_client_mean``) scored
    instead of the server model's accuracy where the run records it. A point's algorithm is a
    base entry's name or label."""

    base: Mapping[str, Any]
    metric: str | None = None

    def tables(self, points: Sequence[GridPoint], seed: int) -> dict[str, Any]:
        # By name or label: the authors' setup runs F3AST as "f3ast_code" labelled "f3ast".
        algs = self.base["algorithms"]
        by_name = {**{a["name"]: a for a in algs}, **{a["label"]: a for a in algs if "label" in a}}
        algorithms = [
            {**by_name[p.algorithm], "lr": p.lr, "server_lr": p.server_lr, "label": p.label}
            for p in points
        ]
        return {**self.base, "seed": seed, "algorithms": algorithms}

    def __call__(
        self, points: list[GridPoint], seed: int, repetitions: int
    ) -> dict[GridPoint, np.ndarray]:
        from fltheory.api.simulation import simulate
        from fltheory.experiments.model import Measurements

        tables = self.tables(points, seed)
        # The key above keeps the tables as given: skipping the objective changes no score.
        report = simulate(
            without_objective(tables), seeds=repetitions, device=_DEVICE.get(), threads=1
        )
        by_label = {r.label: r for r in report.runs}
        out = {}
        for p in points:
            run = by_label[p.label]
            curve = run.accuracy
            if self.metric is not None and self.metric in run.extra:
                curve = run.extra[self.metric]
            m = Measurements(np.asarray(run.eval_rounds), {p.label: np.asarray(curve)})
            out[p] = m.final(p.label)
        return out
