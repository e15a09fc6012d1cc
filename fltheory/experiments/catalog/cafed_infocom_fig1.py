"""CA-Fed INFOCOM 2023, Fig. 1: the availability raster with CA-Fed's selections, judged by
which client groups CA-Fed leaves out (P1:112).

>>> from fltheory.experiments.model import get
>>> get("cafed-infocom:fig1").source.label
'Fig. 1'
"""

import numpy as np

from fltheory.experiments import judges
from fltheory.experiments.catalog.cafed_infocom_common import (
    SYN_PAPER,
    SYNTHETIC,
    authors_setup,
    group_masks,
    paper_setup,
)
from fltheory.experiments.catalog.common import (
    infocom,
)
from fltheory.experiments.model import (
    Check,
    Diagnosis,
    Experiment,
    Measurements,
    Number,
    Panel,
    PaperStatement,
    register,
)
from fltheory.experiments.stats import paired_difference


def exclusion_rate(m: Measurements, label: str, mask: np.ndarray) -> np.ndarray:
    """Per seed: the share of active client-rounds of ``mask`` that ``label`` left out."""
    assert m.active is not None
    active = m.active[..., mask]
    left = active & ~m.included[label][..., mask]
    return np.asarray(left.sum(axis=(1, 2)) / np.maximum(active.sum(axis=(1, 2)), 1))


def fig1_judge(m: Measurements, mode: str) -> list[Check]:
    """INFOCOM Fig. 1: CA-Fed leaves out less-available clients more than more-available ones
    (paired over seeds), and among the less available the correlated at least as much as the
    weakly correlated (not significantly less)."""
    confidence = judges.CONFIDENCE[mode]
    masks = group_masks(m)
    less = masks["less available, correlated"] | masks["less available, weakly correlated"]
    iv = paired_difference(
        exclusion_rate(m, "ca_fed", less),
        exclusion_rate(m, "ca_fed", masks["more available"]),
        confidence=confidence,
    )
    iv2 = paired_difference(
        exclusion_rate(m, "ca_fed", masks["less available, correlated"]),
        exclusion_rate(m, "ca_fed", masks["less available, weakly correlated"]),
        confidence=confidence,
    )
    claim = "excluded clients tend to be those with low average availability or high correlation"
    return [
        Check(
            "CA-Fed leaves out less-available clients more than more-available ones",
            claim,
            judges._round(iv.mean),
            (judges._round(iv.low), judges._round(iv.high)),
            holds=iv.direction == "+",
            opposite=iv.direction == "-",
            where="P1:112",
        ),
        Check(
            "among the less available, correlated ones left out at least as often",
            claim,
            judges._round(iv2.mean),
            (judges._round(iv2.low), judges._round(iv2.high)),
            holds=iv2.direction != "-",
            opposite=iv2.direction == "-",
            where="P1:112",
        ),
    ]


register(
    Experiment(
        id="cafed-infocom:fig1",
        title="Availability raster with CA-Fed's selections (binary synthetic)",
        source=infocom("V", "Fig. 1"),
        where="P1:112",
        numbers=(Number("N, T", None, "", "P1:100-112", "lost in extraction"),),
        claims=(
            PaperStatement(
                "excluded clients tend to be those with low average availability or high "
                "correlation",
                "P1:112",
            ),
        ),
        setups={"paper": paper_setup(SYN_PAPER), "authors": authors_setup(SYNTHETIC)},
        panels=(
            Panel("raster", "raster", "seed 0: inactive / active left out / included"),
            Panel("exclusion", "group_exclusion", "active client-rounds left out, by group"),
        ),
        judge=fig1_judge,
        diagnoses=(
            Diagnosis(
                "figures/cafed_infocom_fig1_diagnosis.py", "fig1", "cafed_infocom_fig1.jsonl"
            ),
        ),
        seeds={"quick": 3, "full": 9},
    )
)
