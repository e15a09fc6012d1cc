"""Shared data of the CA-Fed catalog: sources, the ``authors`` setup's missing features, the
paper's availability population and Table II, and the Fig. 1-style judge.

>>> TABLE2["synthetic"]["ca_fed"]
(2.0, 3.0)
"""

from typing import Any

from fltheory.experiments import judges
from fltheory.experiments.model import Check, Judge, Measurements, SetupSpec, Source

TON = "Rodio et al., CA-Fed, IEEE/ACM ToN 32(2), 2024"
TON_FILE = "002_2f28135276b05638.txt (HAL, with appendices; P2)"
INFOCOM = "Rodio et al., CA-Fed, IEEE INFOCOM 2023"
INFOCOM_FILE = "001_4d8faa0e7730b5d7.txt (P1; most numbers lost in extraction)"


def ton(section: str, figure: str, lines: str) -> Source:
    """A location in the ToN paper (line numbers of P2)."""
    return Source(TON, TON_FILE, section, figure, lines)


def infocom(section: str, figure: str, lines: str) -> Source:
    """A location in the INFOCOM paper (line numbers of P1)."""
    return Source(INFOCOM, INFOCOM_FILE, section, figure, lines)


#: What the ``authors`` setup (arodio/CA-Fed at e673587 mechanics) needs that the simulator lacks.
AUTHORS_MECHANICS = (
    "local_epochs",
    "local_momentum",
    "true_local_minima",
    "cafed_loss_signal",
    "bias_const",
    "torch_default_init",
    "authors_logging",
)
#: The ``[run]`` keys of the public code's local and server mechanics the simulator has (spec
#: B.0.3, C.1, C.2, C.16): 2 local epochs of minibatches of 32, local and server SGD momentum 0.9
#: with weight decay 1e-2 (persistent client buffers), nn.Linear's default initialisation. The
#: code's loss has no ridge term: pair with ``ridge = 0`` in ``[problem]``.
AUTHORS_RUN: dict[str, Any] = {
    "local_epochs": 2,
    "batch_size": 32,
    "local_momentum": 0.9,
    "local_weight_decay": 1e-2,
    "momentum": 0.9,
    "weight_decay": 1e-2,
    "init": "torch_default",
}


def authors_run(run: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    """A ``[run]`` table with the authors' mechanics (:data:`AUTHORS_RUN`) laid over it
    (``local_steps`` dropped: epochs replace it), then ``overrides``.

    >>> run = authors_run({"rounds": 200, "local_steps": 2, "batch_size": 32}, batch_size=64)
    >>> run["local_epochs"], run["batch_size"], "local_steps" in run
    (2, 64, False)
    """
    base = {k: v for k, v in run.items() if k != "local_steps"}
    return {**base, **AUTHORS_RUN, **overrides}


AUTHORS_NOTE = (
    "arodio/CA-Fed (e673587) is the INFOCOM code: it has no script for any ToN experiment, so "
    "for ToN IDs this setup is an extrapolation of the public code's mechanics to ToN parameters"
)


def authors_setup(data: str, *extra: str) -> SetupSpec:
    """The ``authors`` setup of a ToN experiment: the public code's mechanics (not runnable yet)."""
    return SetupSpec(
        "authors",
        "the authors' public code mechanics (spec B.0.3): 2 local epochs, local+server SGD "
        "momentum 0.9 and weight decay 1e-2 with persistent client state, sklearn F*, full "
        f"local test loss as CA-Fed's signal, bias_const (no 4). {AUTHORS_NOTE}",
        data,
        requires=AUTHORS_MECHANICS + tuple(extra),
    )


#: ToN Table II (P2:1572-1575): (η, η̄) per data set and algorithm.
TABLE2: dict[str, dict[str, tuple[float, float]]] = {
    "synthetic": {
        "unbiased": (2.0, 2.0),
        "more_available": (1.0, 7.0),
        "ca_fed": (2.0, 3.0),
        "adafed": (1.0, 1.0),
        "f3ast": (2.0, 2.0),
    },
    "mnist": {
        "unbiased": (0.03, 1.0),
        "more_available": (0.1, 4.0),
        "ca_fed": (0.1, 1.0),
        "adafed": (0.03, 1.0),
        "f3ast": (0.1, 0.3),
    },
    "cifar10": {
        "unbiased": (0.03, 1.0),
        "more_available": (0.03, 3.0),
        "ca_fed": (0.03, 1.0),
        "adafed": (0.03, 1.0),
        "f3ast": (0.03, 0.3),
    },
}

#: Section V-A(a) population (P0:305): g = 0.4, ν = 0.9, ε = 1e-2.
PAPER_AVAILABILITY: dict[str, Any] = {"kind": "ca_fed", "g": 0.4, "nu": 0.9, "eps": 1e-2}

#: Fig. 1d's three groups as unions of the paper population's four quarters.
FIG1D_GROUPS = {
    "more available": ("more available, correlated", "more available, weakly correlated"),
    "less available, weakly correlated": ("less available, weakly correlated",),
    "less available, correlated": ("less available, correlated",),
}


def fig1_judge(paper_pp: float, tolerance_pp: float, where: str) -> Judge:
    """Fig. 1(a-c): CA-Fed beats every other algorithm at the end (paired, Holm), has the best
    mean with bootstrap probability ≥ 0.8, and beats AdaFed by the paper's margin (full mode);
    More available below Unbiased and CA-Fed ahead of Unbiased at t = 40 are reported, with
    CA-Fed's participation ratio and per-group exclusion rates as diagnostics."""

    def judge(m: Measurements, mode: str) -> list[Check]:
        others = [k for k in m.accuracy if k != "ca_fed"]
        paper = {"adafed": f"+{paper_pp} pp (AdaFed second best)"}
        checks = judges.beats_all(m, "ca_fed", others, mode=mode, where=where, paper=paper)
        checks.append(judges.ranking(m, "ca_fed", mode=mode, where=where))
        if "adafed" in m.accuracy:
            checks.append(
                judges.magnitude(
                    m,
                    "ca_fed",
                    "adafed",
                    paper_pp=paper_pp,
                    tolerance_pp=tolerance_pp,
                    mode=mode,
                    where=where,
                )
            )
            checks.append(
                Check(
                    "adafed is second best (bootstrap probability)",
                    "AdaFed second best",
                    judges._round(judges.rank_probability(m, "adafed", 2)),
                    None,
                    None,
                    role="diagnostic",
                    where=where,
                )
            )
        if {"more_available", "unbiased"} <= set(m.accuracy):
            checks += judges.beats_all(
                m, "unbiased", ["more_available"], mode=mode, where=where, role="secondary"
            )
        if "unbiased" in m.accuracy and m.eval_rounds.size and (m.eval_rounds + 1 <= 40).any():
            checks += judges.beats_all(
                m, "ca_fed", ["unbiased"], mode=mode, where=where, at_round=40, role="secondary"
            )
        if m.active is not None and "ca_fed" in m.included:
            checks.append(
                Check(
                    "ca_fed participants / active clients per round in [0.85, 0.95]",
                    "45 of about 50 active (P2:1584)",
                    judges._round(judges.participation(m, "ca_fed")),
                    (0.85, 0.95),
                    None,
                    role="diagnostic",
                    where="P2:1584",
                )
            )
            checks.append(
                Check(
                    "ca_fed exclusion rate per group: highest for 'less available, correlated'",
                    "excludes some 'less available and correlated' clients (P2:315)",
                    judges.exclusion_by_group(m, "ca_fed"),
                    None,
                    None,
                    role="diagnostic",
                    where="P2:315",
                )
            )
        return checks

    return judge
