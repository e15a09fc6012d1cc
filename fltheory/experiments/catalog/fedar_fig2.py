"""FedAR §6.1-6.2, Fig. 2: convergence of FedAR against the five baselines at p_min = 0.1 and
0.5 (paired time-averaged accuracy).

>>> from fltheory.experiments.model import get
>>> get("fedar:fig2").status("paper")
'runnable'
"""

from fltheory.experiments.catalog.fedar_common import (
    ACCURACY_PANEL,
    fig2_judge,
    fig2_sweep,
    paper_setups,
)
from fltheory.experiments.catalog.pbc_ar_common import (
    ar,
)
from fltheory.experiments.model import (
    Experiment,
    Number,
    PaperStatement,
    register,
)

register(
    Experiment(
        id="fedar:fig2",
        title="Convergence of FedAR and the baselines (training loss, test accuracy), p_min = 0.1 "
        "and 0.5",
        source=ar("6.1-6.2", "Fig. 2"),
        where="AR:475-522, AR:90-91",
        numbers=(
            Number("clients N", 100, "clients", "AR:477"),
            Number("local steps K", 5, "steps", "AR:491"),
            Number("batch size", 64, "samples", "AR:491"),
            Number("initial learning rate η₀", 0.1, "", "AR:491", "decay not stated"),
            Number("FedAR exponent p", 0.1, "", "AR:492"),
            Number("weight decay", 1e-3, "", "AR:492"),
            Number("FedAvg(S) clients per round", 50, "clients", "AR:498-499"),
            Number("CIFAR-10 p_min 0.1: FedAR training loss", 1.5, "", "AR:513"),
            Number("CIFAR-10 p_min 0.1: FedAR highest test accuracy", 44, "%", "AR:514"),
            Number("CIFAR-10 p_min 0.1: gain over the baselines", 3, "pp (at least)", "AR:514"),
            Number("SVHN p_min 0.1: FedAR training loss below", 1, "", "AR:515-516"),
            Number("SVHN p_min 0.1: FedAR test accuracy over", 70, "%", "AR:515-516"),
            Number("CIFAR-10 p_min 0.5: FedAR test accuracy", 46, "%", "AR:517-518"),
            Number("SVHN p_min 0.5: FedAR test accuracy around", 70, "%", "AR:518-519"),
            Number("best-case accuracy improvement", 75, "%", "AR:90-91"),
            Number("best-case training-loss reduction", 50, "%", "AR:90-91"),
            Number("rounds T", None, "rounds", "AR:522", "axes lost with the figure"),
        ),
        claims=(
            PaperStatement(
                "FedAR has a similar convergence speed as FedAvg-IS, MIFA, and FedVARP",
                "AR:507-508",
            ),
            PaperStatement(
                "the convergence speed of FedAR is markedly superior to that of Scaffold",
                "AR:508-510",
            ),
            PaperStatement("FedAR achieves the highest test accuracy (every panel)", "AR:513-519"),
        ),
        setups=paper_setups(fig2_sweep),
        panels=(ACCURACY_PANEL,),
        judge=fig2_judge,
        seeds={"quick": 6, "full": 5},
    )
)
