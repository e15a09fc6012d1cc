"""CA-Fed ToN Figs. 2-3: the κ̄² trade-off (2a), optimal κ̄² vs T (2b), data heterogeneity (3).

Registered with their data; the runs need a κ̄² sweep helper and a heterogeneity-level sweep.

>>> from fltheory.experiments.model import get
>>> get("cafed:fig2a").numbers[0].value
2.8
"""

from fltheory.experiments.catalog.common import authors_setup, ton
from fltheory.experiments.model import Claim, Experiment, Number, Panel, SetupSpec, register

LEAF = "LEAF Synthetic(0.5, 0.5), N = 100"

register(
    Experiment(
        id="cafed:fig2a",
        title="Convergence speed vs bias: CA-Fed over κ̄², Synthetic, T = 500",
        source=ton("V-B(b)", "Fig. 2(a)", "P2:317, P2:322"),
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
            Claim(
                "More available achieves the fastest convergence at the expense of a large "
                "non-vanishing bias error",
                "P2:317",
            ),
            Claim(
                "Unbiased ... ultimately achieves the highest test accuracy at communication "
                "round T = 500, but suffers from slower convergence",
                "P2:317",
            ),
            Claim("CA-Fed tends to exclude more clients for low values of κ̄²", "P2:317"),
            Claim("For κ̄² = 10², CA-Fed reduces to Unbiased (their curves overlap)", "P2:317"),
        ),
        setups={
            "paper": SetupSpec(
                "paper",
                "as cafed:fig1a's paper setup with T = 500 and κ̄² in {1e-2, 1e-1, 1, 10, 100}",
                LEAF,
                requires=("kappa_sweep",),
            ),
            "authors": authors_setup(LEAF, "authors_population", "kappa_sweep"),
        },
        panels=(Panel("accuracy", "accuracy", "test accuracy vs round, κ̄² sweep"),),
    )
)

register(
    Experiment(
        id="cafed:fig2b",
        title="Optimal κ̄² as a function of the training duration T",
        source=ton("V-B(b)", "Fig. 2(b)", "P2:317, P2:322"),
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
            Claim(
                "the optimal value of κ̄² depends on the available time for training. Low "
                "values of κ̄² speed-up convergence ... beneficial for short training durations "
                "... For longer training periods, a larger value of κ̄² may be preferable "
                "(judged: optimal κ̄² non-decreasing in T)",
                "P2:317",
            ),
        ),
        setups={
            "paper": SetupSpec(
                "paper",
                "from cafed:fig2a's runs: argmax over κ̄² of the accuracy at T",
                LEAF,
                requires=("kappa_sweep",),
            ),
            "authors": authors_setup(LEAF, "authors_population", "kappa_sweep"),
        },
    )
)

register(
    Experiment(
        id="cafed:fig3",
        title="Effect of data heterogeneity (γ = δ), Synthetic, T = 200",
        source=ton("V-B(c)", "Fig. 3", "P2:319, P2:325, P2:329, P2:1562"),
        numbers=(
            Number("ca_fed(κ̄² ∈ {1, 10}) − unbiased at γ = δ = 0.25", 1.6, "pp", "P2:329"),
            Number("ca_fed(κ̄² ∈ {1, 10}) − unbiased at γ = δ = 0.5", 1.2, "pp", "P2:329"),
            Number("ca_fed(κ̄² ∈ {1, 10}) − unbiased at γ = δ = 0.75", 1.0, "pp", "P2:329"),
            Number(
                "accuracy per level and algorithm",
                None,
                "%",
                "P2:325",
                "the plotted values are not in the text",
            ),
        ),
        claims=(
            Claim(
                "in the extreme IID setting (γ = δ = 0) ... More available and CA-Fed "
                "(κ̄² = 10⁻²) reach the highest test accuracy",
                "P2:329",
            ),
            Claim(
                "In the extreme non-IID setting (γ = δ = 1) ... CA-Fed (κ̄² = 10²) and "
                "Unbiased should be preferred",
                "P2:329",
            ),
            Claim(
                "For γ = δ = {0.25, 0.5, 0.75}, CA-Fed (κ̄² = 1 or 10) achieves the highest "
                "test accuracy",
                "P2:329",
            ),
        ),
        setups={
            "paper": SetupSpec(
                "paper",
                "as cafed:fig1a's paper setup for γ = δ ∈ {0, .25, .5, .75, 1}",
                "LEAF Synthetic(γ, γ), N = 100",
                requires=("level_sweep",),
            ),
            "authors": authors_setup(
                "authors' LEAF generator, seed 42",
                "authors_population",
                "authors_leaf_stream",
                "level_sweep",
            ),
        },
        panels=(Panel("final_accuracy", "accuracy", "accuracy after T = 200 vs heterogeneity"),),
    )
)
