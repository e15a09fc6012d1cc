"""CA-Fed ToN Fig. 3: data heterogeneity. Registered with its data; the run needs a sweep over
heterogeneity levels paired by seed.

>>> from fltheory.experiments.model import get
>>> get("cafed:fig3").numbers[1].value
1.2
"""

from fltheory.experiments.catalog.common import authors_setup, ton
from fltheory.experiments.model import Claim, Experiment, Number, Panel, SetupSpec, register

LEAF = "LEAF Synthetic(0.5, 0.5), N = 100"

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
