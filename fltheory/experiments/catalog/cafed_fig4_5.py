"""CA-Fed ToN Figs. 4-5: estimation error vs t′ (4a), accuracy with warmed estimators (4b),
spatial correlation rasters (5a-c) and accuracy (5d). Registered with their data; they need
warmed estimators and clustered availability in the simulator.

>>> from fltheory.experiments.model import get
>>> get("cafed:fig5d").numbers[0].value
0.6
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

FIG5_SETUP = (
    "N = 100 in 10 clusters of 10, one chain per cluster: clusters 0-4 π = 0.9, λ = 0; "
    "clusters 5-9 π = 0.1, λ = c/10"
)

register(
    Experiment(
        id="cafed:fig5a-c",
        title="Spatial correlation: activity and CA-Fed inclusion rasters (3 data settings)",
        source=ton("V-B(e)", "Fig. 5(a)-(c)", "P2:341-347, P2:351, P2:353"),
        numbers=(
            Number("clusters", 10, "clusters", "P2:351"),
            Number(
                "λ_c of the correlated clusters",
                None,
                "",
                "P2:351",
                "c/10 for c = 5..9 as read from the text; raster values not in the text",
            ),
        ),
        claims=(
            Claim(
                "CA-Fed starts considering the clients in cluster c̄ = 9 ... and sequentially "
                "excludes, in order, all clients from clusters {9, 8, 7, 6}",
                "P2:353",
            ),
            Claim(
                "(b) still excludes all clients from clusters c = {9, 7, 6}, but decides to "
                "include clients from cluster c = 8 (a property of that data draw)",
                "P2:353",
            ),
            Claim(
                "(c) CA-Fed can partially include clients from the more correlated clusters",
                "P2:353",
            ),
        ),
        setups={
            "paper": SetupSpec("paper", FIG5_SETUP, MNIST, requires=("clustered_availability",)),
            "authors": authors_setup(MNIST, "clustered_availability"),
        },
        panels=(Panel("raster", "group_exclusion", "activity / inclusion raster"),),
    )
)

register(
    Experiment(
        id="cafed:fig5d",
        title="Spatial correlation: test accuracy, MNIST, T = 100",
        source=ton("V-B(e)", "Fig. 5(d)", "P2:347, P2:353"),
        numbers=(
            Number("ca_fed − adafed", 0.6, "pp", "P2:353"),
            Number("rounds T", 100, "rounds", "P2:347"),
        ),
        claims=(
            Claim(
                "CA-Fed can operate correctly in the presence of spatial correlation and still "
                "outperforms the baselines (+0.6 pp w.r.t. AdaFed)",
                "P2:353",
            ),
        ),
        setups={
            "paper": SetupSpec(
                "paper", FIG5_SETUP + "; setting (c)", MNIST, requires=("clustered_availability",)
            ),
            "authors": authors_setup(MNIST, "clustered_availability"),
        },
        panels=(Panel("accuracy", "accuracy", "test accuracy vs round"),),
        seeds={"quick": 6, "full": 20},
    )
)
