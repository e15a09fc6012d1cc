"""FedAR §6.2 (Bias Mitigation), Table 3: per-client accuracy — mean, spread, variance, worst and
best 10 % of clients (AR:546-576).

>>> from fltheory.experiments.model import get
>>> get("fedar:table3").status("paper")
'runnable'
"""

import numpy as np

from fltheory.experiments.catalog.fedar_common import ACCURACY_PANEL, CLIENT_HISTOGRAM, T3_SETUPS
from fltheory.experiments.catalog.pbc_ar_common import (
    SeedMeasurements,
    ar,
    compare,
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
from fltheory.experiments.stats import paired_difference


def client_stats(acc: np.ndarray) -> dict[str, np.ndarray]:
    """Table 3's columns per seed from (seeds, N) accuracies in %: mean, Var (ddof 0), worst
    and best 10 % (mean of the ⌈0.1 N⌉ lowest / highest).

    >>> s = client_stats(np.array([[10.0, 20.0, 30.0, 40.0]]))
    >>> float(s["mean"][0]), float(s["var"][0]), float(s["worst10"][0]), float(s["best10"][0])
    (25.0, 125.0, 10.0, 40.0)
    """
    k = int(np.ceil(0.1 * acc.shape[1]))
    ordered = np.sort(acc, axis=1)
    return {
        "mean": acc.mean(axis=1),
        "var": acc.var(axis=1),
        "worst10": ordered[:, :k].mean(axis=1),
        "best10": ordered[:, -k:].mean(axis=1),
    }


def _equivalent(
    claim: str, a: np.ndarray, b: np.ndarray, delta: float, mode: str, where: str
) -> Check:
    iv = paired_difference(a, b, confidence=CONFIDENCE[mode])
    return Check(
        claim,
        "closely align with FedAvg (full availability)",
        round(iv.mean, 4),
        (round(iv.low, 4), round(iv.high, 4)),
        holds=-delta < iv.low and iv.high < delta,
        opposite=iv.low > delta or iv.high < -delta,
        where=where,
        note=f"equivalence: the interval lies inside ± {delta:g}",
    )


def _same(x: np.ndarray) -> np.ndarray:
    return x


#: C1 of Table 3: (claim, statistic, transform, equivalence margin) against FedAvg-full.
C1_MARGINS = (
    ("FedAR mean ≈ FedAvg-full mean (pp)", "mean", _same, 3.0),
    ("FedAR worst 10 % ≈ FedAvg-full (pp)", "worst10", _same, 3.0),
    ("FedAR best 10 % ≈ FedAvg-full (pp)", "best10", _same, 5.0),
    ("FedAR log Var ≈ FedAvg-full log Var", "var", np.log, float(np.log(1.25))),
)


def table3_judge(m: Measurements, mode: str) -> list[Check]:
    """C1 FedAR ≈ FedAvg-full (mean ± 3, worst 10 % ± 3, best 10 % ± 5 pp, log Var ± log 1.25);
    C2 FedAR's mean above MIFA's; C3 FedVARP's variance above FedAR's (log ratio) and FedVARP's
    mean not below FedAR's by more than 1 pp."""
    if not isinstance(m, SeedMeasurements):
        return []
    s = {k: client_stats(v) for k, v in m.per_seed.items()}
    w = "AR:568-570"
    ideal = s["fedavg_full"]
    checks = [
        _equivalent(claim, f(s["fedar"][key]), f(ideal[key]), delta, mode, w)
        for claim, key, f, delta in C1_MARGINS
    ]
    checks += [
        compare(
            "FedAR mean − MIFA mean > 0 (pp)",
            s["fedar"]["mean"],
            s["mifa"]["mean"],
            sign=1,
            mode=mode,
            where="AR:571",
            paper="approximately 6 % higher than MIFA (table: 40.9 − 34.0 = 6.9)",
        ),
        compare(
            "log Var(FedVARP) − log Var(FedAR) > 0",
            np.log(s["fedvarp"]["var"]),
            np.log(s["fedar"]["var"]),
            sign=1,
            mode=mode,
            where="AR:572-576",
            paper="FedVARP variance 432.5 vs FedAR 325 (over 100 more)",
        ),
        compare(
            "FedVARP mean − FedAR mean > −1 pp (marginally higher)",
            s["fedvarp"]["mean"],
            s["fedar"]["mean"] - 1.0,
            sign=1,
            mode=mode,
            where="AR:572",
            paper="41.3 vs 40.9",
            role="secondary",
        ),
        *_share_diagnostic(m, mode),
        Check(
            "Table 3 on the proxy (mean over seeds; %, %²)",
            {k: v for k, v in TABLE3.items()},
            {k: {c: round(float(x.mean()), 2) for c, x in st.items()} for k, st in s.items()},
            None,
            None,
            role="diagnostic",
            where="AR:557-560",
            note="per-client accuracy in the class-test form a_k = Σ_c π_kc·acc_c on the whole "
            "test pool; magnitudes are not comparable with the paper's CIFAR-10 LeNet-5",
        ),
    ]
    return checks


def _share_diagnostic(m: SeedMeasurements, mode: str) -> list[Check]:
    """C3 again on the noisy per-client test shares (the earlier proxies' reading)."""
    if "fedvarp:share" not in m.per_seed:
        return []
    var = {k: m.per_seed[f"{k}:share"].var(axis=1) for k in ("fedar", "fedvarp")}
    c = compare(
        "log Var(FedVARP) − log Var(FedAR) > 0 on each client's disjoint test share",
        np.log(var["fedvarp"]),
        np.log(var["fedar"]),
        sign=1,
        mode=mode,
        where="AR:572-576",
        paper="FedVARP variance 432.5 vs FedAR 325",
    )
    return [
        Check(
            c.claim,
            c.paper,
            c.measured,
            c.ci,
            None,
            role="diagnostic",
            where=c.where,
            note="binomial test-sample noise of the small shares is common to all algorithms "
            "and dilutes the ordering (spec §6, diagnosis 3)",
        )
    ]


#: AR Table 3 (AR:557-560): mean ± std over clients, Var (%²), worst and best 10 % (± within).
TABLE3: dict[str, dict[str, float]] = {
    "fedar": {"mean": 40.9, "std": 18.1, "var": 325.0, "worst10": 20.8, "best10": 67.7},
    "mifa": {"mean": 34.0, "std": 13.6, "var": 182.5, "worst10": 19.7, "best10": 53.8},
    "fedvarp": {"mean": 41.3, "std": 20.7, "var": 432.5, "worst10": 19.4, "best10": 73.9},
    "fedavg_full": {"mean": 41.0, "std": 18.0, "var": 321.6, "worst10": 21.2, "best10": 69.5},
}


_T3_LINE = {"fedar": 557, "mifa": 558, "fedvarp": 559, "fedavg_full": 560}


register(
    Experiment(
        id="fedar:table3",
        title="Accuracy statistics across clients: mean, variance, worst and best 10 %",
        source=ar("6.2 (Bias Mitigation)", "Table 3"),
        where="AR:546-576",
        numbers=tuple(
            Number(f"{alg} {col}", v, "%²" if col == "var" else "%", f"AR:{_T3_LINE[alg]}")
            for alg, row in TABLE3.items()
            for col, v in row.items()
        ),
        claims=(
            PaperStatement(
                "FedAR's Mean, Worst 10 % and Best 10 % closely align with FedAvg", "AR:568-570"
            ),
            PaperStatement("FedAR's mean is approximately 6 % higher than MIFA", "AR:571"),
            PaperStatement(
                "FedVARP's mean is marginally higher than FedAR but its variance is considerably "
                "higher (over 100 more)",
                "AR:572-576",
            ),
        ),
        setups=T3_SETUPS,
        panels=(ACCURACY_PANEL, CLIENT_HISTOGRAM),
        judge=table3_judge,
        seeds={"quick": 8, "full": 5},
    )
)
