"""CA-Fed INFOCOM 2023, Fig. 3: time-average test accuracy up to round t on the synthetic data
and MNIST (P1:114).

>>> from fltheory.experiments.model import get
>>> [n.value for n in get("cafed-infocom:fig3").numbers][:2]
[0.89, 1.24]
"""

import numpy as np

from fltheory.experiments import judges
from fltheory.experiments.catalog.cafed_infocom_common import (
    BOTH,
    README,
    SYN_PAPER,
    authors_setup,
    paper_setup,
    tags,
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


def fig3_judge(m: Measurements, mode: str) -> list[Check]:
    """INFOCOM Fig. 3, per data set: the time-average accuracy up to T of CA-Fed beats every
    other algorithm (paired, Holm); F3AST is the paper's second best; magnitude ±0.8 pp of the
    README's +0.89 (synthetic) / +1.24 (MNIST) in full mode."""
    checks: list[Check] = []
    for tag in tags(m):
        paper_pp = 0.89 if tag == "synthetic" else 1.24

        def average(label: str) -> np.ndarray:
            return np.asarray(m.accuracy[label].mean(axis=1))

        others = [f"{tag}/{k}" for k in ("f3ast", "adafed", "unbiased")]
        checks += judges.beats_all(
            m,
            f"{tag}/ca_fed",
            others,
            mode=mode,
            where="P1:114",
            paper={others[0]: f"+{paper_pp} pp (README, F3AST second best)"},
            metric=("time-average up to T", average),
        )
        if mode == "full":
            iv = paired_difference(
                judges.PP * average(f"{tag}/ca_fed"),
                judges.PP * average(others[0]),
                confidence=0.95,
            )
            checks.append(
                Check(
                    f"{tag}: CA-Fed − F3AST time-average is +{paper_pp} pp (± 0.8)",
                    paper_pp,
                    judges._round(iv.mean),
                    (judges._round(iv.low), judges._round(iv.high)),
                    holds=abs(iv.mean - paper_pp) <= 0.8 or iv.contains(paper_pp),
                    where=README,
                )
            )
    return checks


register(
    Experiment(
        id="cafed-infocom:fig3",
        title="Time-average test accuracy up to round t (synthetic and MNIST)",
        source=infocom("V", "Fig. 3"),
        where="P1:114",
        numbers=(
            Number(
                "ca_fed − f3ast time-average, synthetic",
                0.89,
                "pp",
                README,
                "76.22 − 75.33; the text says 'about a percentage point' (P1:114)",
            ),
            Number("ca_fed − f3ast time-average, MNIST", 1.24, "pp", README, "62.76 − 61.52"),
        ),
        claims=(
            PaperStatement(
                "CA-Fed ... about a percentage point higher than the second best algorithm (F3AST)",
                "P1:114",
            ),
        ),
        setups={
            "paper": paper_setup(SYN_PAPER + "; full mode adds digits with swapped labels", True),
            "authors": authors_setup(BOTH, True),
        },
        panels=(Panel("accuracy", "accuracy", "test accuracy vs round"),),
        judge=fig3_judge,
        diagnoses=(
            Diagnosis("figures/cafed_infocom_fig3_diagnosis.py", "", "cafed_infocom_fig3.jsonl"),
        ),
        seeds={"quick": 3, "full": 9},
    )
)
