"""What an experiment of the registry is: the paper's numbers and claims as data, the setups that
run it, the panels it plots and the judge that decides it.

* :class:`Experiment` — a stable ID (``cafed:fig1a``), where it is in the paper (a
  :class:`fltheory.papers.Source`), the paper's reported :class:`Number` s and quoted
  :class:`PaperStatement` s (each with its place in the text),
  one :class:`SetupSpec` per setup (``paper``, ``authors``), the :class:`Panel` s and a judge;
* :class:`Measurements` — what a run measured, per algorithm and seed, as the judge reads it;
* :class:`Check` — one judged claim: ``{claim, paper, measured, ci, holds}``;
* :data:`FEATURES` — simulator features an experiment may still need (its ``requires``).

Experiments register themselves in :data:`EXPERIMENTS`, a :class:`~fltheory.registry.Registry`
that imports every module of :mod:`fltheory.experiments.catalog`: adding an experiment is adding
(or extending) one module there.
"""

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, TypeVar

import numpy as np

from fltheory.errors import InputError
from fltheory.experiments.diagnoses import read_notes
from fltheory.papers import Source
from fltheory.registry import Registry

#: Modes: ``quick`` (a smoke test: reduced size, for CI; direction only at a one-sided 80 %
#: level, reported as :data:`SMOKE_VERDICTS`) and ``full`` (the paper's size; 95 % intervals,
#: magnitudes judged; its verdict is the record).
MODES = ("quick", "full")
T = TypeVar("T")


def per_mode(make: Callable[..., T], *args: Any, **kwargs: Any) -> dict[str, Callable[[], T]]:
    """A setup's ``configs`` whose builder takes the mode first: ``{mode: make(mode, *args,
    **kwargs)}`` for every mode of :data:`MODES`, each built when called.

    >>> configs = per_mode(lambda mode, n: f"{mode} × {n}", 3)
    >>> list(configs), configs["full"]()
    (['quick', 'full'], 'full × 3')
    """
    return {mode: partial(make, mode, *args, **kwargs) for mode in MODES}


#: Setups: ``paper`` (the paper as written) and ``authors`` (what the authors' public code does).
SETUPS = ("paper", "authors")
#: Verdicts of a full run (the record), best first.
VERDICTS = ("reproduced", "not_reproduced", "contradicted")
#: Outcomes of a quick run (a smoke test: :data:`fltheory.experiments.judges.SMOKE`).
SMOKE_VERDICTS = ("smoke: direction agrees", "smoke: inconclusive", "smoke: direction disagrees")

#: Simulator features some experiments still need (spec C.*), by key: one line each.
FEATURES: dict[str, str] = {
    "true_local_minima": "true local minima F_k* for data problems (sklearn fit / exact) [C.4]",
    "cafed_loss_signal": "CA-Fed loss signal options: full local test/validation loss [C.5]",
    "validation_split": "a 20 % validation split of each client's training set [C.6]",
    "bias_const": "CA-Fed bias factor without the 4 (the code's bias_const) [C.7]",
    "authors_population": "the authors' availability population (1/2-1/4-1/4 multinomial) [C.8]",
    "authors_leaf_stream": "the authors' LEAF generator stream layout, seed-42 replica [C.9]",
    "infocom_data": "the INFOCOM binary-synthetic and swapped-label MNIST data [C.10]",
    "f3ast_code_variant": "the authors' F3AST variant (oracle pi, no memory) [C.11]",
    "warmed_estimators": "estimators warmed by t' observations of each chain [C.12]",
    "cluster_data": "a cluster-level data heterogeneity generator (Fig. 5 setting b) [C.13]",
    "cifar10": "CIFAR-10 data (--data-dir) and the 2-conv network; GPU for full mode [C.14]",
    "kappa_sweep": "kappa2 sweeps with per-T argmax from one run set [C.17]",
    "grid_search": "seeded learning-rate grid search with tuning seeds disjoint from evaluation "
    "seeds (App. G) [table2]",
    # FedPBC and FedAR (issue 13)
    "shapley_values": "Fig. 1's stale-client Shapley driver on CIFAR-10 with LeNet-5 (exact "
    "Shapley and the NumPy softmax driver exist) [spec 3]",
    "fedpbc_authors_script": "a script of the FedPBC authors for this experiment: their public "
    "code (mingxiang12/FedPBC, journal version) has CNN experiments only [spec 11]",
    "fedar_authors_code": "the FedAR authors' code: none public (paper as written only)",
}


@dataclass(frozen=True)
class Number:
    """A number the paper reports. ``value`` None means the extraction lost it (``note`` says
    what survives); ``where`` is ``file:line`` in the seed text."""

    name: str
    value: float | None
    unit: str
    where: str
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": self.value,
            "unit": self.unit,
            "where": self.where,
            "lost_in_extraction": self.value is None,
            "note": self.note,
        }


@dataclass(frozen=True)
class PaperStatement:
    """A qualitative statement of the paper, quoted, with its place in the text (``file:line``)
    — what an experiment judges; an executable claim is :class:`fltheory.claims.Claim`.

    >>> PaperStatement("CA-Fed beats AdaFed", "P2:315").to_dict()["where"]
    'P2:315'
    """

    text: str
    where: str

    def to_dict(self) -> dict[str, str]:
        return {"text": self.text, "where": self.where}


#: How the verdict records name each paper and its seed file: (citation, what the seed file is;
#: its line prefix). The seed file itself comes from :data:`fltheory.papers.PAPER_TABLE`.
RECORD_NAMES: dict[str, tuple[str, str]] = {
    "cafed": ("Rodio et al., CA-Fed, IEEE/ACM ToN 32(2), 2024", "HAL, with appendices; P2"),
    "cafed-infocom": (
        "Rodio et al., CA-Fed, IEEE INFOCOM 2023",
        "P1; most numbers lost in extraction",
    ),
    "fedpbc": (
        "Xiang, Ioannidis, Yeh, Joe-Wong, Su, Towards Bias Correction of FedAvg over Nonuniform "
        "and Time-Varying Communications (FedPBC; short version, full version arXiv:2306.00280)",
        "PBC",
    ),
    "fedar": (
        "FedAR: client update Approximation and Rectification",
        "AR; OCR: figures, most exponents and the appendix lost",
    ),
}


def span(where: str) -> tuple[int, int]:
    """The first and last line numbers of ``where`` (``P2:300-315, P2:1553``): the ``lines``
    of an experiment's :class:`~fltheory.papers.Source`.

    >>> span("P2:300-315, P2:1553-1562, P2:1577")
    (300, 1577)
    """
    pairs = re.findall(r":(\d+)(?:-(\d+))?", where)
    numbers = [int(x) for pair in pairs for x in pair if x]
    if not numbers:
        raise ValueError(f"no line numbers in {where!r}")
    return min(numbers), max(numbers)


@dataclass(frozen=True)
class Panel:
    """One plotted panel. ``kind``: ``accuracy`` (test accuracy vs round, mean ± sd over seeds;
    ``curve`` the same for another quantity, named by ``title``),
    ``group_shares`` (share of cumulative weight per client group vs α's share),
    ``group_exclusion`` (rate at which active clients of each group are left out), ``raster``
    (CA-Fed's per-round decisions), ``grid`` (a learning-rate grid) or ``histogram`` (the
    distribution over clients of a per-client value, pooled over seeds). ``xlabel``/``ylabel``
    override the kind's axis labels and ``xscale``/``yscale`` ("linear" or "log") its scales.

    >>> Panel("distance", "curve", "‖x − x*‖", ylabel="‖x − x*‖", yscale="log").yscale
    'log'
    """

    name: str
    kind: str
    title: str
    xlabel: str | None = None
    ylabel: str | None = None
    xscale: str = "linear"
    yscale: str = "linear"


#: One comparison (``fltheory simulate`` tables) or a sweep of tagged comparisons.
Config = dict[str, Any] | list[tuple[str, dict[str, Any]]]


@dataclass(frozen=True)
class Diagnosis:
    """A script under ``figures/`` that measures why a claim fails here: run as
    ``python SCRIPT ARGS`` from the repository root, it writes ``writes`` (a JSON or JSONL file
    under ``figures/out/``). ``setups``: the setups whose verdict it explains (empty: all).

    >>> d = Diagnosis("figures/cafed_fig3_diagnosis.py", "iid", "cafed_fig3_diagnosis_iid.jsonl")
    >>> d.command, d.output
    ('python figures/cafed_fig3_diagnosis.py iid', 'figures/out/cafed_fig3_diagnosis_iid.jsonl')
    """

    script: str
    args: str
    writes: str
    setups: tuple[str, ...] = ()

    @property
    def command(self) -> str:
        return f"python {self.script} {self.args}".rstrip()

    @property
    def output(self) -> str:
        """The file it writes, from the repository root (the scripts' default ``--out``)."""
        return f"figures/out/{self.writes}"

    def explains(self, setup: str) -> bool:
        return not self.setups or setup in self.setups


@dataclass(frozen=True)
class SetupSpec:
    """One way of running an experiment. ``configs[mode]()`` returns the ``fltheory simulate``
    tables (a dict) for that mode, or a list of (tag, tables) for a sweep (one comparison per
    tag, same seeds; labels become ``tag/label``); ``requires`` lists :data:`FEATURES` keys
    still missing from the simulator (the setup is not runnable until it is empty)."""

    name: str
    description: str
    data: str
    requires: tuple[str, ...] = ()
    configs: Mapping[str, Callable[[], Config]] = field(default_factory=dict)
    #: problem kinds read from files (``mnist``, ``cifar10``, ``svhn``): absent data make the
    #: setup "needs data" (:mod:`fltheory.experiments.data_sources`; ``--data-dir``).
    datasets: tuple[str, ...] = ()
    #: mode → measure(seeds): experiments that run no federated training (e.g. an estimator
    #: study) produce their :class:`Measurements` directly; it also gets ``data_dir`` and
    #: ``device`` when it takes them as keywords.
    measure: Mapping[str, Callable[[int], "Measurements"]] = field(default_factory=dict)
    #: Whether the full mode needs a GPU (CNNs on CIFAR-10/SVHN at the paper's size: hours
    #: to days on a CPU core).
    full_needs_gpu: bool = False

    def __post_init__(self) -> None:
        unknown = [r for r in self.requires if r not in FEATURES]
        if unknown:
            raise ValueError(f"unknown simulator feature(s) {unknown} in setup {self.name!r}")

    def runnable(self, mode: str) -> bool:
        return not self.requires and (mode in self.configs or mode in self.measure)


@dataclass(frozen=True)
class Check:
    """One judged claim. ``holds``: True (established), False (not established), None
    (diagnostic, not judged). ``opposite``: the data establish the contrary. ``role``:
    ``primary`` checks decide the verdict, ``secondary`` and ``diagnostic`` are reported."""

    claim: str
    paper: Any
    measured: Any
    ci: tuple[float, float] | None
    holds: bool | None
    role: str = "primary"
    opposite: bool = False
    where: str = ""
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "claim": self.claim,
            "paper": self.paper,
            "measured": self.measured,
            "ci": None if self.ci is None else [float(self.ci[0]), float(self.ci[1])],
            "holds": self.holds,
            "role": self.role,
            "opposite": self.opposite,
            "where": self.where,
            "note": self.note,
        }


@dataclass(frozen=True, eq=False)
class Measurements:
    """What a run measured, as the judges read it.

    ``accuracy[label]`` is (seeds, evaluations) after the 0-based rounds ``eval_rounds``;
    ``included`` / ``weights`` [label] and ``active`` are (seeds, T, N); ``groups`` maps a client
    group to its boolean mask; ``alpha`` is the target importance (N,).

    >>> m = Measurements(np.array([9]), {"a": np.array([[0.5], [0.7]])})
    >>> m.seeds, m.final("a").tolist()
    (2, [0.5, 0.7])
    """

    eval_rounds: np.ndarray
    accuracy: dict[str, np.ndarray]
    included: dict[str, np.ndarray] = field(default_factory=dict)
    weights: dict[str, np.ndarray] = field(default_factory=dict)
    active: np.ndarray | None = None
    groups: dict[str, np.ndarray] = field(default_factory=dict)
    alpha: np.ndarray | None = None

    @property
    def seeds(self) -> int:
        return int(next(iter(self.accuracy.values())).shape[0])

    def final(self, label: str, fraction: float = 0.05) -> np.ndarray:
        """Per seed, the mean accuracy over the last ``fraction`` of evaluations (at least one):
        the spec's acc_end."""
        acc = self.accuracy[label]
        k = max(1, round(fraction * acc.shape[1]))
        return np.asarray(acc[:, -k:].mean(axis=1))

    def at_round(self, label: str, t: int) -> np.ndarray:
        """Per seed, the accuracy of the last evaluation at or before round ``t`` (1-based)."""
        idx = np.flatnonzero(self.eval_rounds + 1 <= t)
        if idx.size == 0:
            raise InputError(f"no evaluation at or before round {t}")
        return np.asarray(self.accuracy[label][:, idx[-1]])


#: judge(measurements, mode) -> checks
Judge = Callable[[Measurements, str], list[Check]]


@dataclass(frozen=True)
class Experiment:
    """One experiment of a paper (see the module docstring)."""

    id: str
    title: str
    #: The figure or table: paper, section, label and the span of its lines in the seed text.
    source: Source
    numbers: tuple[Number, ...]
    claims: tuple[PaperStatement, ...]
    setups: Mapping[str, SetupSpec]
    panels: tuple[Panel, ...] = ()
    judge: Judge | None = None
    seeds: Mapping[str, int] = field(default_factory=lambda: {"quick": 6, "full": 10})
    #: Scripts that measured why its claims fail (linked from the verdict record).
    diagnoses: tuple[Diagnosis, ...] = ()
    #: Every place of the seed text it draws on (``P2:300-315, P2:1553-1562``): ``source.lines``
    #: is their span.
    where: str = ""

    def __post_init__(self) -> None:
        if self.source.lines is None and self.where:  # the span of ``where``
            object.__setattr__(self, "source", replace(self.source, lines=span(self.where)))

    def source_record(self) -> dict[str, str]:
        """Its place in the paper as the verdict record and ``reproduce --list --json`` print it.

        >>> get("fedpbc:fig2").source_record()["seed_file"]
        '004_7f83552c6af82f79.txt (PBC)'
        """
        citation, note = RECORD_NAMES[self.source.paper]
        return {
            "paper": citation,
            "seed_file": f"{self.source.seed_file} ({note})",
            "section": self.source.section,
            "figure": self.source.label,
            "lines": self.where,
        }

    @property
    def notes(self) -> str:
        """What its runs and diagnoses found, read from ``docs/diagnoses/<id>.md``
        (:mod:`fltheory.experiments.diagnoses`; empty without one): results are files, not
        prose in the catalog.

        >>> "−2.38 pp" in get("cafed:fig1a").notes
        True
        """
        return read_notes(self.id)

    def setup(self, name: str) -> SetupSpec:
        if name not in self.setups:
            raise InputError(
                f"{self.id} has no setup '{name}' (choose from: {', '.join(self.setups)})"
            )
        return self.setups[name]

    def missing(self, setup: str, mode: str) -> list[str]:
        """Why ``setup`` in ``mode`` cannot run yet (empty: it can)."""
        spec = self.setup(setup)
        why = [FEATURES[r] for r in spec.requires]
        if not why and not spec.runnable(mode):
            why.append(f"no {mode} configuration yet")
        if not why and self.judge is None:
            why.append("no judge yet")
        return why

    def status(self, setup: str) -> str:
        """``runnable`` (quick and full), ``quick only``, ``needs: <features>`` or ``needs data:
        <what is missing where>`` (data looked for in their default folders)."""
        spec = self.setups.get(setup)
        if spec is None:
            return "—"
        if spec.requires:
            return "needs: " + ", ".join(spec.requires)
        from fltheory.experiments.data_sources import data_status

        absent = data_status(spec.datasets)
        if absent is not None:
            return absent
        modes = [m for m in MODES if not self.missing(setup, m)]
        if modes == list(MODES):
            return "runnable"
        return f"{modes[0]} only" if modes else "needs: judge"

    def paper_record(self) -> dict[str, Any]:
        return {
            "numbers": [n.to_dict() for n in self.numbers],
            "claims": [c.to_dict() for c in self.claims],
        }


#: Every experiment, by ID; modules of :mod:`fltheory.experiments.catalog` register themselves.
EXPERIMENTS: Registry[Experiment, Experiment] = Registry(
    "experiment", package="fltheory.experiments.catalog", group="fltheory.experiments"
)


def register(experiment: Experiment) -> Experiment:
    """Add ``experiment`` to :data:`EXPERIMENTS` (IDs are registered once).

    >>> get("cafed:fig1a").source.label
    'Fig. 1(a)'
    """
    return EXPERIMENTS.add(experiment.id, experiment)


def get(experiment_id: str) -> Experiment:
    """The registered experiment ``experiment_id`` (unknown: an InputError with a suggestion).

    >>> get("cafed:fig1b").id
    'cafed:fig1b'
    """
    return EXPERIMENTS.get(experiment_id)


def module_of(experiment_id: str) -> str:
    """The module that registered the experiment (``fltheory.experiments.catalog.…``).

    >>> module_of("cafed:fig2a")
    'fltheory.experiments.catalog.cafed_fig2'
    """
    return EXPERIMENTS.origin(experiment_id)


def all_experiments() -> list[Experiment]:
    """Every registered experiment, sorted by ID.

    >>> "cafed-infocom:table1" in [e.id for e in all_experiments()]
    True
    """
    return list(EXPERIMENTS)
