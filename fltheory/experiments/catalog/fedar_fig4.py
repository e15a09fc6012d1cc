"""FedAR §6.2 (Hyperparameter Evaluation), Fig. 4: accuracy as p_min varies (AR:592-609).

>>> from fltheory.experiments.model import get
>>> get("fedar:fig4").status("paper")
'runnable'
"""

from typing import Any

from fltheory.experiments.catalog.fedar_common import (
    ACCURACY_PANEL,
    FIG45_NAMES,
    fig2_judge,
    full_config,
    paper_setups,
    proxy_config,
    trend_check,
)
from fltheory.experiments.catalog.pbc_ar_common import (
    ar,
)
from fltheory.experiments.model import (
    Check,
    Experiment,
    Measurements,
    Number,
    PaperStatement,
    register,
)

FIG4_PMIN = {"quick": (0.1, 0.3, 0.5), "full": (0.1, 0.2, 0.3, 0.4, 0.5)}


def fig4_sweep(setup: str, mode: str) -> list[tuple[str, dict[str, Any]]]:
    """p_min ∈ {0.1, 0.3, 0.5} (quick, digits, T = 40) or 0.1..0.5 (full), six algorithms.

    >>> [t for t, _ in fig4_sweep("paper", "full")][-1]
    'p_min=0.5'
    """
    if mode == "quick":
        return [(f"p_min={p}", proxy_config(p, FIG45_NAMES)) for p in FIG4_PMIN[mode]]
    return [(f"p_min={p}", full_config(setup, p, FIG45_NAMES)) for p in FIG4_PMIN[mode]]


def fig4_judge(m: Measurements, mode: str) -> list[Check]:
    """C1 FedAR beats every baseline at every p_min (Holm within a level); C2 FedAR improves
    with p_min ("marginal": direction only)."""
    checks = fig2_judge(m, mode)
    checks.append(trend_check(m, "fedar", +1, "AR:606", "marginal enhancement as p_min increases"))
    return checks


register(
    Experiment(
        id="fedar:fig4",
        title="Effect of the minimum participation probability p_min (0.1 to 0.5)",
        source=ar("6.2 (Hyperparameter Evaluation)", "Fig. 4"),
        where="AR:592-609",
        numbers=(
            Number("p_min range low", 0.1, "", "AR:603"),
            Number("p_min range high", 0.5, "", "AR:603"),
            Number("FedAR accuracy at p_min = 0.5", 47, "%", "AR:607"),
            Number("every baseline's accuracy at p_min = 0.5 below", 45, "%", "AR:607-608"),
            Number("p_min grid", None, "", "AR:600", "lost; probably {0.1, ..., 0.5}"),
        ),
        claims=(
            PaperStatement(
                "FedAR consistently outperforms all the baselines for every p_min", "AR:605"
            ),
            PaperStatement(
                "a marginal enhancement in FedAR's performance as p_min increases", "AR:606"
            ),
        ),
        setups=paper_setups(fig4_sweep, svhn=False),
        panels=(ACCURACY_PANEL,),
        judge=fig4_judge,
        seeds={"quick": 4, "full": 5},
    )
)
