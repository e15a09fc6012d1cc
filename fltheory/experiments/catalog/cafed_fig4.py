"""CA-Fed ToN Fig. 4: estimation error vs t′ (4a) and accuracy with warmed estimators (4b).
Registered with their data; they need an estimator study and warmed estimators.

>>> from fltheory.experiments.model import get
>>> get("cafed:fig4b").numbers[0].value
100
"""

from fltheory.experiments.catalog.common import authors_setup, ton
from fltheory.experiments.model import Claim, Experiment, Number, Panel, SetupSpec, register

MNIST = "MNIST (digits / Fashion-MNIST stand in), Dirichlet(0.5), N = 100"

register(
    Experiment(
        id="cafed:fig4a",
        title="Estimation error of π̂ and λ̂ vs prior observations t′",
        source=ton("V-B(d)", "Fig. 4(a)", "P2:249-251, P2:327, P2:331, P2:349, P2:1536-1549"),
        numbers=(
            Number(
                "t′ grid",
                None,
                "rounds",
                "P2:327",
                "axis values 10^1 ... 10^4 read from the figure description; errors lost",
            ),
        ),
        claims=(
            Claim(
                "both errors decrease with an increasing number of observations, and the "
                "estimation error for λ_k is larger than that for π_k",
                "P2:349",
            ),
        ),
        setups={
            "paper": SetupSpec(
                "paper",
                "Beta priors from t′ observations of each client's chain (no training)",
                "Section V-A population, N = 100",
                requires=("estimator_study",),
            ),
            "authors": SetupSpec(
                "authors",
                "not in the public code (its Bayesian estimator is unused and biased, "
                "spec A.6): same as paper",
                "Section V-A population, N = 100",
                requires=("estimator_study",),
            ),
        },
        panels=(Panel("error", "accuracy", "mean |π̂ − π| and |λ̂ − λ| vs t′"),),
    )
)

register(
    Experiment(
        id="cafed:fig4b",
        title="Test accuracy after T = 50 with estimators warmed by t′ observations, MNIST",
        source=ton("V-B(d)", "Fig. 4(b)", "P2:327, P2:349"),
        numbers=(
            Number("t′ from which CA-Fed outperforms the baselines", 100, "observations", "P2:349"),
            Number("max_k 1/((1 − λ_k) π_k)", 100, "rounds", "P2:349"),
            Number("rounds T", 50, "rounds", "P2:327"),
        ),
        claims=(Claim("CA-Fed outperforms the baselines for t′ ≥ 100", "P2:349"),),
        setups={
            "paper": SetupSpec(
                "paper",
                "cafed:fig1b's setup, T = 50, warmed π̂, λ̂",
                MNIST,
                requires=("warmed_estimators",),
            ),
            "authors": authors_setup(MNIST, "warmed_estimators"),
        },
        panels=(Panel("final_accuracy", "accuracy", "accuracy after T = 50 vs t′"),),
    )
)
