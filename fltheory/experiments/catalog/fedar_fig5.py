"""FedAR §6.2 (Number of Clients N), Fig. 5: accuracy as the number of clients N varies
(AR:610-621).

>>> from fltheory.experiments.model import get
>>> get("fedar:fig5").status("paper")
'runnable'
"""

from typing import Any

import numpy as np

from fltheory.experiments.catalog.fedar_common import (
    ACCURACY_PANEL,
    FIG45_NAMES,
    fig2_judge,
    full_config,
    paper_setups,
    proxy_config,
    sweep_level,
    sweep_matrix,
    sweep_tags,
    trend_check,
)
from fltheory.experiments.catalog.pbc_ar_common import (
    ar,
)
from fltheory.experiments.judges import CONFIDENCE
from fltheory.experiments.model import (
    Check,
    Experiment,
    Measurements,
    Number,
    PaperStatement,
    register,
)
from fltheory.experiments.stats import holm, paired_difference

FIG5_N = {"quick": (15, 20, 25), "full": (80, 90, 100, 110, 120)}


def fig5_sweep(setup: str, mode: str) -> list[tuple[str, dict[str, Any]]]:
    """N ∈ {15, 20, 25} (quick) or 80..120 (full; 2N/C integral) at p_min = 0.1, six algorithms.

    >>> [t for t, _ in fig5_sweep("paper-cifar10", "full")][0]
    'N=80'
    """
    if mode == "quick":
        return [(f"N={n}", proxy_config(0.1, FIG45_NAMES, n_clients=n)) for n in FIG5_N[mode]]
    return [(f"N={n}", full_config(setup, 0.1, FIG45_NAMES, n_clients=n)) for n in FIG5_N[mode]]


def fig5_judge(m: Measurements, mode: str) -> list[Check]:
    """C2 FedAR best at each N; C1 every algorithm's accuracy decreases with N; C3 FedAR's per-seed
    slope in N is above each baseline's (degrades less)."""
    checks = fig2_judge(m, mode)
    first = sweep_tags(m)[0] + "/"
    names = [k.removeprefix(first) for k in m.accuracy if k.startswith(first)]
    baselines = [n for n in names if n != "fedar"]
    for label in names:
        checks.append(
            trend_check(m, label, -1, "AR:611-612",
                         "all algorithms show a decreasing trend in test accuracy as N grows")
        )  # fmt: skip
    x = np.asarray([sweep_level(t) for t in sweep_tags(m)])

    def slopes(label: str) -> np.ndarray:
        return np.polyfit(x, sweep_matrix(m, label).T, 1)[0] * 100.0

    fedar = slopes("fedar")
    rows = [paired_difference(fedar, slopes(b), confidence=CONFIDENCE[mode]) for b in baselines]
    adjusted = holm([iv.p_value for iv in rows])
    for b, iv, p in zip(baselines, rows, adjusted, strict=True):
        significant = bool(p < 1 - CONFIDENCE[mode])
        checks.append(
            Check(
                f"slope(FedAR) − slope({b}) > 0 (pp per client)",
                "other baselines degrade significantly, FedAR only marginally",
                round(iv.mean, 4),
                (round(iv.low, 4), round(iv.high, 4)),
                holds=significant and iv.mean > 0,
                opposite=significant and iv.mean < 0,
                role="secondary",
                where="AR:613-616",
                note=f"Holm-adjusted p = {p:.3g}",
            )
        )
    return checks


register(
    Experiment(
        id="fedar:fig5",
        title="Effect of the number of clients N (80 to 120)",
        source=ar("6.2 (Number of Clients N)", "Fig. 5"),
        where="AR:610-621",
        numbers=(
            Number("N low", 80, "clients", "AR:610-611"),
            Number("N high", 120, "clients", "AR:610-611"),
            Number("FedAR training loss at N = 80", 1.5, "", "AR:613-614"),
            Number("FedAR training loss at N = 120", 1.6, "", "AR:613-614"),
            Number("FedAR lowest accuracy (N = 110)", 43, "%", "AR:614-615"),
            Number("baselines except FedVARP below", 40, "%", "AR:616-617"),
        ),
        claims=(
            PaperStatement(
                "As N increases, all algorithms show an increasing trend in training loss and a "
                "decreasing trend in test accuracy",
                "AR:611-612",
            ),
            PaperStatement("FedAR achieves the best performance", "AR:612-613"),
            PaperStatement(
                "the other baselines degrade significantly, FedAR only marginally", "AR:613-616"
            ),
        ),
        setups=paper_setups(fig5_sweep, svhn=False),
        panels=(ACCURACY_PANEL,),
        judge=fig5_judge,
        seeds={"quick": 4, "full": 5},
    )
)
