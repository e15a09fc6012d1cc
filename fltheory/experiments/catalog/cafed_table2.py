"""CA-Fed ToN Table II: the learning rates (η, η̄) of Fig. 1 and the grids they came from.

The ``paper`` setup runs the seeded grid search of :mod:`fltheory.experiments.grid` on LEAF
Synthetic(0.5, 0.5) under eqs. 2-3 (Fig. 1a's paper setup) and judges whether Table II's pair
trains (spec B:table2 (a)) and whether it is the grid's argmax ((b), reported). Selection: final
test accuracy on tuning draws disjoint from every evaluation seed (see the grid module).

>>> from fltheory.experiments.model import get
>>> len(get("cafed:table2").numbers)
34
>>> sorted(get("cafed:table2").setups["paper"].measure)
['full', 'quick']
"""

from typing import Any

import numpy as np

from fltheory.experiments import judges
from fltheory.experiments.catalog.cafed_fig1 import fig1a_config
from fltheory.experiments.catalog.common import (
    AUTHORS_DESCRIPTION,
    AUTHORS_LEAF,
    LEAF_CAPS,
    TABLE2,
    to_authors,
    ton,
)
from fltheory.experiments.grid import (
    APPENDIX_G,
    Grid,
    Pair,
    SimulatorObjective,
    cached_grid_search,
    select,
)
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

RUN_TIMES = (
    Number("minutes per run, Binary Synthetic (CPU)", 10, "min", "P2:1564-1570"),
    Number("minutes per run, LEAF Synthetic (CPU)", 6, "min", "P2:1564-1570"),
    Number("minutes per run, MNIST (GTX 1080 Ti)", 42, "min", "P2:1564-1570"),
    Number("minutes per run, CIFAR-10 (GTX 1080 Ti)", 157, "min", "P2:1564-1570"),
)
INITIAL = "initial"  # the model at η = 1e-12 on the tuning draws: acc(0)
#: mode -> (clients, rounds, eval_every, algorithms, grid)
SIZES: dict[str, tuple[int, int, int, tuple[str, ...], Grid]] = {
    "quick": (40, 60, 10, ("ca_fed", "adafed"), APPENDIX_G["synthetic"].corners()),
    "full": (100, 200, 5, tuple(TABLE2["synthetic"]), APPENDIX_G["synthetic"]),
}
PURPOSE = "cafed:table2/synthetic"
#: The ``authors`` grids: App. G's extended down to the code's working range (spec D.1(b)).
AUTHORS_GRIDS: dict[str, Grid] = {
    "quick": Grid((2.0, 0.01, 1e-3), (8.0, 1.0, 0.1)),
    "full": Grid((2.0, 1.0, 0.1, 0.01, 1e-3, 1e-4), (8.0, 3.0, 1.0, 0.3, 0.1)),
}


def search_base(mode: str, authors: bool = False) -> dict[str, Any]:
    """The ``fltheory simulate`` table every grid point of :func:`search_synthetic` runs
    (Fig. 1a's, at the mode's N and T; ``authors``: under the public code's mechanics).

    >>> search_base("full")["problem"]["n_clients"], search_base("full")["run"]["rounds"]
    (100, 200)
    """
    clients, rounds, every, names, _ = SIZES[mode]
    base: dict[str, Any] = fig1a_config(rounds, names, every, TABLE2["synthetic"])
    base["problem"] = {**base["problem"], "n_clients": clients}
    return to_authors(base, max_samples=LEAF_CAPS[mode]) if authors else base


def search_synthetic(mode: str, repetitions: int, authors: bool = False) -> Measurements:
    """The grid (quick: its corners) plus Table II's pairs on the tuning draws, and acc(0);
    one pseudo-evaluation per point holding its acc_end per repetition. ``authors``: under the
    public code's mechanics (:func:`~.common.to_authors`, n_k ≤ 400 in quick mode) on
    :data:`AUTHORS_GRIDS`."""
    names, grid = SIZES[mode][3], AUTHORS_GRIDS[mode] if authors else SIZES[mode][4]
    objective = SimulatorObjective(search_base(mode, authors))
    extra = [TABLE2["synthetic"][name] for name in names]
    result = cached_grid_search(
        objective, names, grid, seed=0, purpose=PURPOSE, repetitions=repetitions, extra=extra
    )
    # Same purpose, so the same tuning draws: the model that does not move gives acc(0).
    start = cached_grid_search(
        objective,
        ("adafed",),
        Grid((1e-12,), (1.0,)),
        seed=0,
        purpose=PURPOSE,
        repetitions=repetitions,
        record=False,
    )
    accuracy = {
        f"{alg}|{lr:g}|{slr:g}": scores[:, None]
        for alg, table in result.scores.items()
        for (lr, slr), scores in table.items()
    }
    accuracy[INITIAL] = next(iter(start.scores["adafed"].values()))[:, None]
    return Measurements(np.array([SIZES[mode][1] - 1]), accuracy)


def quick(repetitions: int) -> Measurements:
    """Quick mode of :func:`search_synthetic`."""
    return search_synthetic("quick", repetitions)


def full(repetitions: int) -> Measurements:
    """Full mode of :func:`search_synthetic`."""
    return search_synthetic("full", repetitions)


def authors_quick(repetitions: int) -> Measurements:
    """Quick mode of :func:`search_synthetic` under the authors' mechanics."""
    return search_synthetic("quick", repetitions, authors=True)


def authors_full(repetitions: int) -> Measurements:
    """Full mode of :func:`search_synthetic` under the authors' mechanics."""
    return search_synthetic("full", repetitions, authors=True)


def _by_algorithm(m: Measurements) -> dict[str, dict[Pair, np.ndarray]]:
    out: dict[str, dict[Pair, np.ndarray]] = {}
    for label, acc in m.accuracy.items():
        if "|" in label:
            alg, lr, slr = label.split("|")
            out.setdefault(alg, {})[(float(lr), float(slr))] = acc[:, -1]
    return out


def table2_judge(m: Measurements, mode: str) -> list[Check]:
    """Per algorithm: (a) Table II's pair trains, acc_end ≥ acc(0) + ½(best − acc(0)), paired
    over the tuning repetitions (primary); (b) it is within 2 SE of the grid's best (reported).
    A diverged run (NaN accuracy) counts as accuracy 0 here and as −∞ in the selection."""
    acc0 = np.nan_to_num(m.accuracy[INITIAL][:, -1])
    checks = []
    for alg, table in _by_algorithm(m).items():
        paper = TABLE2["synthetic"][alg]
        best = select(table)
        best_scores = np.nan_to_num(table[best])
        mine = np.nan_to_num(table[paper])
        threshold = acc0 + 0.5 * (best_scores - acc0)
        iv = paired_difference(mine, threshold, confidence=judges.CONFIDENCE[mode])
        checks.append(
            Check(
                f"{alg}: Table II pair η/η̄ = {paper[0]:g}/{paper[1]:g} trains: acc_end − "
                "(acc(0) + ½(best − acc(0))) > 0 (paired over tuning draws, pp)",
                f"{paper[0]:g}/{paper[1]:g} is the grid optimum",
                judges._round(judges.PP * iv.mean),
                (judges._round(judges.PP * iv.low), judges._round(judges.PP * iv.high)),
                holds=iv.direction == "+",
                opposite=iv.direction == "-",
                where="P2:1572-1575, P2:1584",
            )
        )
        se = float(best_scores.std(ddof=1) / np.sqrt(best_scores.size))
        checks.append(
            Check(
                f"{alg}: grid-selected η/η̄ = {best[0]:g}/{best[1]:g} vs Table II "
                f"{paper[0]:g}/{paper[1]:g} (Table II within 2 SE of the best acc_end)",
                f"{paper[0]:g}/{paper[1]:g}",
                {
                    "selected": f"{best[0]:g}/{best[1]:g}",
                    "best_acc_end": judges._round(float(best_scores.mean()), 4),
                    "table2_acc_end": judges._round(float(mine.mean()), 4),
                    "acc0": judges._round(float(acc0.mean()), 4),
                },
                None,
                holds=bool(mine.mean() >= best_scores.mean() - 2 * se),
                role="secondary",
                where="P2:1572-1575, P2:1584",
            )
        )
    return checks


register(
    Experiment(
        id="cafed:table2",
        title="Learning rates of Fig. 1 (Table II) and the grid search that chose them",
        source=ton("App. G1-B(c)", "Table II"),
        where="P2:1564-1584",
        numbers=tuple(
            Number(f"{data} {alg} {which}", rate, "", "P2:1572-1575")
            for data, table in TABLE2.items()
            for alg, pair in table.items()
            for which, rate in zip(("η", "η̄"), pair, strict=True)
        )
        + RUN_TIMES,
        claims=(
            PaperStatement(
                "For each method and task, we performed a grid search to determine the "
                "optimal learning rates η and η̄ (judged: Table II's pair trains, i.e. reaches "
                "half of the best grid point's gain)",
                "P2:1584",
            ),
        ),
        setups={
            "paper": SetupSpec(
                "paper",
                "seeded grid η ∈ {2, 1, .3, .1, .03, .01} × η̄ ∈ {8..1} (LEAF; quick: the 4 "
                "corners, N = 40, T = 60, CA-Fed and AdaFed) plus Table II's pairs under eqs. 2-3 "
                "(Fig. 1a's paper setup); selection by final test accuracy on tuning draws "
                "disjoint from the evaluation seeds; MNIST and CIFAR-10 grids not run yet",
                "LEAF Synthetic(0.5, 0.5), fltheory's generator, tuning draws",
                measure={"quick": quick, "full": full},
            ),
            "authors": SetupSpec(
                "authors",
                AUTHORS_DESCRIPTION + "; the grid extended down to the code's working range "
                "(quick: η ∈ {2, .01, 1e-3} × η̄ ∈ {8, 1, .1}, n_k ≤ 400; full: η ∈ {2, 1, .1, "
                ".01, 1e-3, 1e-4} × η̄ ∈ {8, 3, 1, .3, .1}) plus Table II's pairs",
                AUTHORS_LEAF + " (quick: N = 40), tuning draws",
                measure={"quick": authors_quick, "full": authors_full},
            ),
        },
        panels=(Panel("grid", "grid", "acc_end over the (η, η̄) grid on the tuning draws"),),
        judge=table2_judge,
        seeds={"quick": 2, "full": 3},
        diagnoses=tuple(
            Diagnosis(
                "figures/cafed_table2_diagnosis.py",
                f"--setup {setup}",
                f"cafed_table2_diagnosis_{setup}.jsonl",
                (setup,),
            )
            for setup in ("paper", "authors")
        ),
    )
)
