"""CA-Fed ToN Fig. 2: the convergence-speed vs bias trade-off over κ̄² (2a) and the optimal κ̄²
as a function of the training duration T (2b), from one set of runs: Unbiased, More available
and CA-Fed for several κ̄² on cafed:fig1a's ``paper`` setup (its rates).

>>> from fltheory.experiments.model import get
>>> [a["label"] for a in get("cafed:fig2a").setup("paper").configs["quick"]()["algorithms"]]
['unbiased', 'more_available', 'ca_fed k2=0.01', 'ca_fed k2=100']
"""

from itertools import pairwise
from typing import Any

import numpy as np
import scipy.stats

from fltheory.experiments import judges
from fltheory.experiments.catalog.cafed_fig1 import FIG1A_PAPER, FIG1A_RATES, fig1a_config
from fltheory.experiments.catalog.common import (
    AUTHORS_LEAF,
    AUTHORS_LEAF_RATES,
    LEAF_CAPS,
    ton,
    with_authors,
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
    per_mode,
    register,
)
from fltheory.experiments.stats import paired_difference
from fltheory.rng import generator

LEAF = "LEAF Synthetic(0.5, 0.5), N = 100 (fltheory's generator, data seed 0)"
PREFIX = "ca_fed k2="
#: κ̄² values per mode (the paper's sweep in full mode, its two ends in quick mode).
KAPPAS = {"quick": (1e-2, 1e2), "full": (1e-2, 1e-1, 1.0, 1e1, 1e2)}
#: Training durations T at which fig2b takes the argmax over κ̄².
DURATIONS = {"quick": (10, 20, 40, 100), "full": (10, 20, 40, 100, 200, 500)}


def fig2_config(mode: str) -> dict[str, Any]:
    """Unbiased, More available and CA-Fed(κ̄²) for each κ̄² of the mode (fig1a's paper setup)."""
    rounds, eval_every = (100, 10) if mode == "quick" else (500, 10)
    cfg = fig1a_config(rounds, ("unbiased", "more_available"), eval_every)
    lr, server_lr = FIG1A_RATES["ca_fed"]
    for kappa2 in KAPPAS[mode]:
        cfg["algorithms"].append(
            {
                "name": "ca_fed",
                "label": f"{PREFIX}{kappa2:g}",
                "kappa2": kappa2,
                "tau": 0.0,
                "beta": 1.0,
                "lr": lr,
                "server_lr": server_lr,
            }
        )
    cfg["name"] = f"cafed-fig2-paper-{mode}"
    return cfg


def kappas(m: Measurements) -> dict[float, str]:
    """κ̄² → label of the CA-Fed runs, ascending."""
    found = {float(k.removeprefix(PREFIX)): k for k in m.accuracy if k.startswith(PREFIX)}
    return dict(sorted(found.items()))


def _participation(m: Measurements, label: str) -> np.ndarray:
    assert m.active is not None
    return np.asarray(m.included[label].sum(axis=(1, 2)) / m.active.sum(axis=(1, 2)))


def fig2a_judge(m: Measurements, mode: str) -> list[Check]:
    """Fig. 2a: (a) CA-Fed's participation increases with κ̄² (every consecutive paired
    difference > 0); (b) CA-Fed at κ̄² = 0.1 (the smallest κ̄² in quick mode, 0.01) beats
    Unbiased at t = 40; (c) CA-Fed(100) beats More available at the end; (e) CA-Fed(100)
    overlaps Unbiased (mean curves within 0.5 pp, participation ≥ 0.98); (f) More available
    ≥ Unbiased at t = 40 (reported)."""
    ks = kappas(m)
    confidence = judges.CONFIDENCE[mode]
    checks: list[Check] = []
    if m.active is not None:
        rates = {k: _participation(m, label) for k, label in ks.items()}
        steps = list(ks)
        for low, high in pairwise(steps):
            iv = paired_difference(rates[high], rates[low], confidence=confidence)
            checks.append(
                Check(
                    f"CA-Fed includes more clients at κ̄² = {high:g} than at {low:g}",
                    "CA-Fed tends to exclude more clients for low values of κ̄²",
                    judges._round(iv.mean, 4),
                    (judges._round(iv.low, 4), judges._round(iv.high, 4)),
                    holds=iv.direction == "+",
                    opposite=iv.direction == "-",
                    where="P2:317",
                )
            )
    early = 0.1 if 0.1 in ks else min(ks)
    checks += judges.beats_all(
        m,
        ks[early],
        ["unbiased"],
        mode=mode,
        where="P2:317",
        at_round=40,
        paper={"unbiased": "+2.8 pp at t = 40 (κ̄² = 0.1)"},
    )
    top = ks[max(ks)]
    checks += judges.beats_all(
        m,
        top,
        ["more_available"],
        mode=mode,
        where="P2:317",
        paper={"more_available": "+3.8 pp at t = 500 (κ̄² = 100)"},
    )
    gap = float(np.abs(m.accuracy[top].mean(axis=0) - m.accuracy["unbiased"].mean(axis=0)).max())
    share = float(_participation(m, top).mean()) if m.active is not None else float("nan")
    checks.append(
        Check(
            "CA-Fed(κ̄² = 100) reduces to Unbiased: curves within 0.5 pp, participation >= 0.98",
            "their curves overlap in Fig. 2a",
            {"max_gap_pp": judges._round(100 * gap), "participation": judges._round(share)},
            None,
            holds=100 * gap <= 0.5 and share >= 0.98,
            where="P2:317",
        )
    )
    checks += judges.beats_all(
        m,
        "more_available",
        ["unbiased"],
        mode=mode,
        where="P2:317",
        at_round=40,
        role="secondary",
        paper={"unbiased": "More available fastest early"},
    )
    return checks


def optimal_kappa(m: Measurements, durations: tuple[int, ...], seeds: np.ndarray) -> np.ndarray:
    """κ̂*(T): the κ̄² whose mean accuracy (over ``seeds``) at round T is highest, per T."""
    ks = kappas(m)
    values = np.array(
        [[m.at_round(label, t)[seeds].mean() for t in durations] for label in ks.values()]
    )
    return np.asarray(list(ks))[values.argmax(axis=0)]


def fig2b_judge(m: Measurements, mode: str) -> list[Check]:
    """Fig. 2b: the optimal κ̄² is non-decreasing in T — Spearman(T, log κ̂*(T)) > 0 with
    bootstrap probability (resampling seeds) ≥ 0.9 (full) / 0.8 (quick); the contrary when the
    probability of ρ < 0 reaches that level."""
    durations = tuple(t for t in DURATIONS[mode] if t <= int(m.eval_rounds[-1]) + 1)
    level = 0.9 if mode == "full" else 0.8
    point = optimal_kappa(m, durations, np.arange(m.seeds))
    rng = generator(0, "experiments/fig2b/bootstrap")
    rhos = []
    for _ in range(500):
        pick = rng.integers(0, m.seeds, m.seeds)
        best = np.log10(optimal_kappa(m, durations, pick))
        rho = scipy.stats.spearmanr(durations, best).statistic if np.ptp(best) > 0 else 0.0
        rhos.append(float(np.nan_to_num(rho)))
    p_up, p_down = float(np.mean(np.array(rhos) > 0)), float(np.mean(np.array(rhos) < 0))
    return [
        Check(
            "the optimal κ̄² is non-decreasing in the training duration T",
            "low κ̄² for short training, larger κ̄² for longer (P2:317)",
            {
                "kappa_star": {str(t): float(k) for t, k in zip(durations, point, strict=True)},
                "p_rho_positive": judges._round(p_up),
                "p_rho_negative": judges._round(p_down),
            },
            None,
            holds=p_up >= level,
            opposite=p_down >= level,
            where="P2:317",
            note=f"bootstrap over seeds (500 resamples); holds at P(ρ > 0) >= {level}",
        )
    ]


def _paper_setup() -> SetupSpec:
    return SetupSpec(
        "paper",
        FIG1A_PAPER.description + "; κ̄² in {1e-2, 1e-1, 1, 10, 100} (quick: 1e-2, 100), "
        "T = 500 (quick: 100)",
        LEAF,
        configs=per_mode(fig2_config),
    )


ACCURACY = Panel("accuracy", "accuracy", "test accuracy vs round, κ̄² sweep")

register(
    Experiment(
        id="cafed:fig2a",
        title="Convergence speed vs bias: CA-Fed over κ̄², Synthetic, T = 500",
        source=ton("V-B(b)", "Fig. 2(a)"),
        where="P2:317, P2:322",
        numbers=(
            Number(
                "ca_fed(κ̄²=0.1) − unbiased at t = 40",
                2.8,
                "pp",
                "P2:317",
                "the text writes κ̄ = 10^-1; read as κ̄² (the sweep's values)",
            ),
            Number("ca_fed(κ̄²=100) − more_available at t = 500", 3.8, "pp", "P2:317"),
            Number("rounds T", 500, "rounds", "P2:317"),
            Number("runs", None, "runs", "P2:322", "not stated (assume 10)"),
        ),
        claims=(
            PaperStatement(
                "More available achieves the fastest convergence at the expense of a large "
                "non-vanishing bias error",
                "P2:317",
            ),
            PaperStatement(
                "Unbiased ... ultimately achieves the highest test accuracy at communication "
                "round T = 500, but suffers from slower convergence",
                "P2:317",
            ),
            PaperStatement("CA-Fed tends to exclude more clients for low values of κ̄²", "P2:317"),
            PaperStatement(
                "For κ̄² = 10², CA-Fed reduces to Unbiased (their curves overlap)", "P2:317"
            ),
        ),
        setups=with_authors(
            {
                "paper": _paper_setup(),
            },
            AUTHORS_LEAF,
            caps=LEAF_CAPS,
            rates=AUTHORS_LEAF_RATES,
        ),
        panels=(ACCURACY, Panel("exclusion", "group_exclusion", "left out, by client group")),
        judge=fig2a_judge,
        diagnoses=(
            Diagnosis("figures/cafed_fig2_diagnosis.py", "--oracle", "cafed_fig2_diagnosis.json"),
        ),
        seeds={"quick": 4, "full": 10},
    )
)

register(
    Experiment(
        id="cafed:fig2b",
        title="Optimal κ̄² as a function of the training duration T",
        source=ton("V-B(b)", "Fig. 2(b)"),
        where="P2:317, P2:322",
        numbers=(
            Number(
                "optimal κ̄² per T",
                None,
                "",
                "P2:322",
                "the curve's values are lost; only the claim survives",
            ),
        ),
        claims=(
            PaperStatement(
                "the optimal value of κ̄² depends on the available time for training. Low "
                "values of κ̄² speed-up convergence ... beneficial for short training durations "
                "... For longer training periods, a larger value of κ̄² may be preferable "
                "(judged: optimal κ̄² non-decreasing in T)",
                "P2:317",
            ),
        ),
        setups=with_authors(
            {
                "paper": _paper_setup(),
            },
            AUTHORS_LEAF,
            caps=LEAF_CAPS,
            rates=AUTHORS_LEAF_RATES,
        ),
        panels=(ACCURACY,),
        judge=fig2b_judge,
        diagnoses=(
            Diagnosis("figures/cafed_fig2_diagnosis.py", "--oracle", "cafed_fig2_diagnosis.json"),
        ),
        seeds={"quick": 4, "full": 10},
    )
)
