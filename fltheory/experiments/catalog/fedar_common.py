"""FedAR §6, shared by its figure and table modules: the algorithms, the quick (digits) and full
(MNIST, CIFAR-10, SVHN) comparisons, the paper setups of an experiment, the p_min sweep of Fig. 2
with its paired judge (which Table 2 and Figs. 4-5 reuse), the per-client measurement of Table 3
and Fig. 3, and the trend checks of Figs. 4-5.

The runnable ``paper`` setups are a faithful reduction of the paper's own MNIST setting (its
appendix: logistic regression): softmax regression, K = 5 local steps of 64, η = 0.1, weight
decay 1e-3 (ridge), FedAR's p = 0.1 (AR:491-492), p_i evenly spaced on [p_min, 1] (AR:479-480),
the balanced two-classes-per-client split (``two_classes_balanced``, AR:487-489) and all six
algorithms (Scaffold with S = A_t). Quick mode runs scikit-learn digits with N = 20; full mode
runs MNIST from --data-dir, or Fashion-MNIST (Debian) standing in for it, with N = 100 and the
decay below. ``paper-cifar10`` (LeNet-5) and ``paper-svhn`` (ResNet-18, GroupNorm) are full-mode
configs reading --data-dir. No public FedAR code was found.

Learning-rate decay (key ``lr_decay``): the paper gives only the "initial" η₀ = 0.1 (AR:491). Full
mode reads it as η_t = η₀/√(1 + t/10) (``lr_schedule = "inverse_sqrt"``, ``lr_t0 = 10``), the
decay of the FedPBC authors' public code, the nearest stated schedule in this line of work;
quick mode keeps η constant (T = 40-50 rounds). The number of rounds is lost with the figures'
axes: full mode uses T = 200 (softmax) and 300 (CNNs).

>>> spread(0.5, 3)
[0.5, 0.75, 1.0]
"""

from functools import partial
from typing import Any

import numpy as np

from fltheory.experiments.catalog.pbc_ar_common import (
    AR_CODE,
    SeedMeasurements,
)
from fltheory.experiments.judges import beats_all
from fltheory.experiments.model import (
    Check,
    Measurements,
    Panel,
    SetupSpec,
)
from fltheory.experiments.stats import trend

BASELINES = ("mifa", "fedvarp", "fedavg_is", "fedavg_sampled", "scaffold")


ALGORITHMS: dict[str, dict[str, Any]] = {
    "fedar": {"name": "fedar", "p": 0.1},
    "mifa": {"name": "mifa"},
    "fedvarp": {"name": "fedvarp"},
    "fedavg_is": {"name": "fedavg_is"},
    "fedavg_sampled": {"name": "fedavg_sampled"},  # s = N/2: "at most 50 clients" of 100
    "scaffold": {"name": "scaffold"},  # S = A_t: "does not consider client unavailability"
}


ACCURACY_PANEL = Panel("accuracy", "accuracy", "test accuracy vs round (mean ± sd over seeds)")


CLIENT_HISTOGRAM = Panel(
    "clients", "histogram", "distribution of the final model's per-client test accuracy"
)


#: η_t = η₀/√(1 + t/10) in full mode (module docstring).
LR_DECAY = {"lr_schedule": "inverse_sqrt", "lr_t0": 10.0}


#: setup → (problem kind, model, rounds, evaluation period) of full mode.
FULL: dict[str, tuple[str, str, int, int]] = {
    "paper": ("mnist", "softmax", 200, 10),
    "paper-cifar10": ("cifar10", "lenet5", 300, 10),
    "paper-svhn": ("svhn", "resnet18", 300, 10),
}


FULL_CLIENTS = 100


def spread(p_min: float, n: int) -> list[float]:
    """p_i evenly spaced on [p_min, 1] (the paper's "varies from p_min to 1", AR:479-480).

    >>> spread(0.1, 3)
    [0.1, 0.55, 1.0]
    """
    return [round(p_min + (1.0 - p_min) * i / (n - 1), 6) for i in range(n)]


def proxy_config(
    p_min: float,
    names: tuple[str, ...],
    *,
    n_clients: int = 20,
    rounds: int = 40,
    full_availability: bool = False,
    kind: str = "digits",
    model: str = "softmax",
    eval_every: int = 5,
    lr_decay: bool = False,
) -> dict[str, Any]:
    """The §6.1 comparison: ``names`` under p_i evenly spaced on [p_min, 1] (or p ≡ 1), the
    balanced two-class split of ``kind`` and the paper's local solver (digits by default).

    >>> c = proxy_config(0.1, ("fedar", "scaffold"), kind="cifar10", model="lenet5")
    >>> c["problem"]["partition"], [a["label"] for a in c["algorithms"]]
    ('two_classes_balanced', ['fedar', 'scaffold'])
    """
    algorithms = []
    for name in names:
        table = {**ALGORITHMS[name], "label": name}
        if name == "fedavg_sampled":
            table["s"] = n_clients // 2
        algorithms.append(table)
    run: dict[str, Any] = {
        "rounds": rounds,
        "local_steps": 5,
        "batch_size": 64,
        "eval_every": eval_every,
        "lr": 0.1,
        "server_lr": 1.0,
    }
    if lr_decay:
        run.update(LR_DECAY)
    return {
        "name": f"fedar-{kind}-pmin{p_min}-n{n_clients}",
        "seed": 0,
        "device": "cpu",
        "dtype": "float32",
        "run": run,
        "problem": {
            "kind": kind,
            "n_clients": n_clients,
            "partition": "two_classes_balanced",
            "model": model,
            "ridge": 1e-3,
            "alpha": "uniform",
        },
        "availability": {
            "kind": "bernoulli",
            "p": 1.0 if full_availability else spread(p_min, n_clients),
        },
        "algorithms": algorithms,
    }


def full_config(
    setup: str, p_min: float, names: tuple[str, ...], *, n_clients: int | None = None, **kw: Any
) -> dict[str, Any]:
    """Full mode of ``setup`` (:data:`FULL`): N = 100, the decayed rate, T and model per setup.

    >>> full_config("paper-svhn", 0.5, ("fedar",))["problem"]["model"]
    'resnet18'
    """
    kind, model, rounds, every = FULL[setup]
    return proxy_config(
        p_min,
        names,
        n_clients=FULL_CLIENTS if n_clients is None else n_clients,
        rounds=rounds,
        kind=kind,
        model=model,
        eval_every=every,
        lr_decay=True,
        **kw,
    )


def time_average(m: Measurements, label: str) -> np.ndarray:
    """Per seed, the mean accuracy over all evaluations (final accuracies saturate, spec §4)."""
    return np.asarray(m.accuracy[label].mean(axis=1))


def sweep_level(tag: str) -> float:
    """The swept value of a tag such as ``p_min=0.3`` or ``N=20``.

    >>> sweep_level("N=20")
    20.0
    """
    return float(tag.split("=")[1])


def paper_setups(
    sweep: Any, *, svhn: bool = True, measure: dict[tuple[str, str], Any] | None = None
) -> dict[str, SetupSpec]:
    """The paper setups of one ID: ``sweep(setup, mode)`` builds its configs (or ``measure``
    maps (setup, mode) to a measure function)."""

    def modes(setup: str, names: tuple[str, ...]) -> dict[str, Any]:
        if measure is not None:
            return {"measure": {m: measure[(setup, m)] for m in names if (setup, m) in measure}}
        return {"configs": {m: partial(sweep, setup, m) for m in names}}

    setups = {
        "paper": SetupSpec(
            "paper",
            "§6.1 on the paper's MNIST setting (module docstring): softmax regression, K = 5, "
            "batch 64, η₀ = 0.1, ridge 1e-3, FedAR p = 0.1, no cut-off, all six algorithms; "
            "quick: N = 20, constant η; full: N = 100, η₀/√(1 + t/10), T = 200",
            "quick: scikit-learn digits; full: MNIST from --data-dir or Fashion-MNIST standing "
            "in; balanced two-class split",
            **modes("paper", ("quick", "full")),
        ),
        "paper-cifar10": SetupSpec(
            "paper-cifar10",
            "LeNet-5 on CIFAR-10, N = 100, balanced two-class split, all six algorithms, "
            "η₀/√(1 + t/10), T = 300 (GPU advised)",
            "CIFAR-10 from --data-dir",
            datasets=("cifar10",),
            full_needs_gpu=True,
            **modes("paper-cifar10", ("full",)),
        ),
        "authors": SetupSpec("authors", AR_CODE, "—", requires=("fedar_authors_code",)),
    }
    if svhn:
        setups["paper-svhn"] = SetupSpec(
            "paper-svhn",
            "ResNet-18 (GroupNorm) on SVHN, N = 100, balanced two-class split, all six "
            "algorithms, η₀/√(1 + t/10), T = 300 (GPU only in practice)",
            "SVHN from --data-dir",
            datasets=("svhn",),
            full_needs_gpu=True,
            **modes("paper-svhn", ("full",)),
        )
    return setups


FIG2_PMIN = (0.1, 0.5)


FIG2_NAMES = ("fedar", *BASELINES)


def fig2_sweep(setup: str, mode: str) -> list[tuple[str, dict[str, Any]]]:
    """p_min ∈ {0.1, 0.5}, the six algorithms; quick: digits, T = 40; full: :func:`full_config`.

    >>> [t for t, _ in fig2_sweep("paper", "quick")]
    ['p_min=0.1', 'p_min=0.5']
    """
    if mode == "quick":
        return [(f"p_min={p}", proxy_config(p, FIG2_NAMES)) for p in FIG2_PMIN]
    return [(f"p_min={p}", full_config(setup, p, FIG2_NAMES)) for p in FIG2_PMIN]


def sweep_tags(m: Measurements) -> list[str]:
    return list(dict.fromkeys(k.split("/")[0] for k in m.accuracy))


def fig2_judge(m: Measurements, mode: str) -> list[Check]:
    """Per p_min: FedAR beats every baseline on time-averaged accuracy (paired, Holm); the
    paper's numbers (44 %, 46 %, 70 %) are not comparable on digits and are reported only."""
    checks: list[Check] = []
    for t in sweep_tags(m):
        others = [k for k in m.accuracy if k.startswith(t + "/") and not k.endswith("/fedar")]
        checks += beats_all(
            m,
            f"{t}/fedar",
            others,
            mode=mode,
            where="AR:513-519",
            metric=("time-averaged test accuracy", lambda k: time_average(m, k)),
            paper={o: "FedAR highest test accuracy" for o in others},
        )
    return checks


T3_NAMES = ("fedar", "mifa", "fedvarp")


T3_ROUNDS = 50


def client_class_shares(data: Any) -> np.ndarray:
    """(N, C) π_kc: client k's share of training samples of class c (rows sum to 1).

    >>> from types import SimpleNamespace
    >>> d = SimpleNamespace(y_train=np.array([0, 1, 1, 2]), train_counts=np.array([3, 1]),
    ...                     n_classes=3)
    >>> client_class_shares(d).round(3).tolist()
    [[0.333, 0.667, 0.0], [0.0, 0.0, 1.0]]
    """
    owners = np.repeat(np.arange(data.train_counts.size), data.train_counts)
    counts = np.zeros((data.train_counts.size, data.n_classes))
    np.add.at(counts, (owners, data.y_train), 1.0)
    return np.asarray(counts / counts.sum(axis=1, keepdims=True))


def class_test_accuracy(problem: Any, final_w: np.ndarray) -> np.ndarray:
    """(R, N) low-noise per-client accuracy a_k = Σ_c π_kc·acc_c (spec §6): acc_c is the
    accuracy of each final model (``RunResult.final_w``, (R, P)) on every test image of class c
    in the whole test pool, π_kc the client's class share (:func:`client_class_shares`)."""
    import torch

    from fltheory.sim.problems import EVAL_CHUNK

    d = problem.data
    w = torch.as_tensor(final_w, device=problem.device, dtype=problem.dtype)
    hits = np.zeros((final_w.shape[0], d.n_classes))
    for s in range(0, d.y_test.size, EVAL_CHUNK):
        x = torch.as_tensor(d.x_test[s : s + EVAL_CHUNK], device=problem.device,
                            dtype=problem.dtype)  # fmt: skip
        y_np = d.y_test[s : s + EVAL_CHUNK]
        y = torch.as_tensor(y_np, device=problem.device)
        with torch.no_grad():
            correct = problem.model.correct(w, x, y).double().cpu().numpy()
        for c in np.unique(y_np):
            hits[:, c] += correct[:, y_np == c].sum(axis=1)
    per_class = np.bincount(d.y_test, minlength=d.n_classes).astype(float)
    acc_c = np.divide(hits, per_class, out=np.zeros_like(hits), where=per_class > 0)
    return np.asarray(acc_c @ client_class_shares(d).T)


def t3_configs(setup: str, mode: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(FedAR, MIFA, FedVARP at p_min = 0.1; FedAvg on its own p ≡ 1 trace) for ``setup``."""
    if mode == "quick":
        main = proxy_config(0.1, T3_NAMES, rounds=T3_ROUNDS)
        full = proxy_config(0.1, (), rounds=T3_ROUNDS, full_availability=True)
    else:
        main = full_config(setup, 0.1, T3_NAMES)
        full = full_config(setup, 0.1, (), full_availability=True)
    full["algorithms"] = [{"name": "fedavg", "label": "fedavg_full"}]
    return main, full


def measure_clients(
    setup: str, mode: str, seeds: int, data_dir: Any = None, device: str | None = "cpu"
) -> SeedMeasurements:
    """Per seed and client, the final model's accuracy (%) in the class-test form
    (:func:`class_test_accuracy`, key = label) and on the client's own disjoint test share
    (``label:share``, the noisy form earlier proxies used), for the runs of :func:`t3_configs`."""
    from fltheory.api.simulation import simulate
    from fltheory.experiments.data_sources import resolve

    runs, per_seed = [], {}
    for tables in t3_configs(setup, mode):
        resolved, _ = resolve(tables, data_dir)
        report = simulate(resolved, seeds=seeds, device=device, threads=1)
        for r in report.runs:
            runs.append(r)
            per_seed[r.label] = 100.0 * class_test_accuracy(report.config.problem, r.final_w)
            per_seed[f"{r.label}:share"] = 100.0 * np.asarray(r.client_accuracy)
    return SeedMeasurements(
        np.asarray(runs[0].eval_rounds),
        {r.label: np.asarray(r.accuracy) for r in runs},
        per_seed=per_seed,
    )


def measure_table3(seeds: int, data_dir: Any = None, device: str | None = "cpu") -> Measurements:
    """Quick mode: digits, N = 20, T = 50 (spec §6 "Quick mode")."""
    return measure_clients("paper", "quick", seeds, data_dir, device)


def measure_table3_full(
    seeds: int, data_dir: Any = None, device: str | None = "cpu"
) -> Measurements:
    """Full mode of ``paper``: MNIST (or Fashion-MNIST standing in), N = 100, T = 200."""
    return measure_clients("paper", "full", seeds, data_dir, device)


def measure_table3_cifar10(
    seeds: int, data_dir: Any = None, device: str | None = "cpu"
) -> Measurements:
    """Full mode of ``paper-cifar10``: LeNet-5, N = 100, T = 300."""
    return measure_clients("paper-cifar10", "full", seeds, data_dir, device)


T3_MEASURES = {
    ("paper", "quick"): measure_table3,
    ("paper", "full"): measure_table3_full,
    ("paper-cifar10", "full"): measure_table3_cifar10,
}


T3_SETUPS = paper_setups(None, svhn=False, measure=T3_MEASURES)


FIG45_NAMES = FIG2_NAMES


def sweep_matrix(m: Measurements, label: str) -> np.ndarray:
    """(seeds, levels) time-averaged accuracy of ``label`` across the sweep's tags."""
    return np.stack([time_average(m, f"{t}/{label}") for t in sweep_tags(m)], axis=1)


def trend_check(m: Measurements, label: str, sign: int, where: str, paper: str) -> Check:
    x = tuple(sweep_level(t) for t in sweep_tags(m))
    tr = trend(x, sweep_matrix(m, label))
    p_claimed, p_contrary = (
        (tr.p_positive, tr.p_negative) if sign > 0 else (tr.p_negative, tr.p_positive)
    )
    return Check(
        f"{label}: time-averaged accuracy {'in' if sign > 0 else 'de'}creases along the sweep",
        paper,
        {"spearman_rho": round(tr.rho, 3), "p_claimed": round(p_claimed, 3)},
        None,
        holds=p_claimed >= 0.8,
        opposite=p_contrary >= 0.9,
        where=where,
        note="bootstrap over seeds of Spearman's ρ; holds at P ≥ 0.8, contrary at P ≥ 0.9",
    )
