"""Shared pieces of the FedPBC and FedAR catalogs: sources, the simulator features they still
need (keys of :data:`~fltheory.experiments.model.FEATURES`), measurements with per-seed extras,
and small judge helpers built on :mod:`fltheory.experiments.stats`.

>>> pbc("VI", "Fig. 2").seed_file.startswith("004_")
True
"""

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fltheory.experiments.judges import CONFIDENCE
from fltheory.experiments.model import Check, Measurements
from fltheory.experiments.stats import paired_difference
from fltheory.papers import Source

#: The FedPBC authors' public code (journal version) and what it settles (spec §11).
PBC_CODE = (
    "mingxiang12/FedPBC @ 2f6770c (journal version: CIFAR-10/SVHN/CINIC-10 CNNs only, no "
    "counterexample and no Synthetic(1,1) script). Taken from it: FedPBC is evaluated on the mean "
    "of all local models x̄ (static_pbc.py:117), FedAvg averages the active clients' deltas and "
    "makes no step when none is active (static_main.py:158-174). Not taken (journal-only): "
    "η₀/√(1 + t/10) decay, 5 local steps, batch 16, lognormal/sinusoidal link probabilities."
)
#: FedAR: no public code was found (spec header).
AR_CODE = "no public FedAR code found (searches in the spec's header); paper as written only"


def pbc(section: str, label: str) -> Source:
    """A figure or table (``label``) in a section of the FedPBC paper (``PBC:line``);
    the experiment's ``where`` gives its lines."""
    return Source("fedpbc", section, label)


def ar(section: str, label: str) -> Source:
    """A figure or table (``label``) in a section of the FedAR paper (``AR:line``);
    the experiment's ``where`` gives its lines."""
    return Source("fedar", section, label)


@dataclass(frozen=True, eq=False)
class SeedMeasurements(Measurements):
    """:class:`Measurements` plus ``per_seed`` arrays (first axis: seed) and ``theory`` values.

    >>> m = SeedMeasurements(np.array([0]), {"a": np.zeros((2, 1))},
    ...                      per_seed={"x": np.array([1.0, 3.0])})
    >>> m.per_seed["x"].mean()
    np.float64(2.0)
    """

    per_seed: dict[str, np.ndarray] = field(default_factory=dict)
    theory: dict[str, Any] = field(default_factory=dict)


def _r(x: float, digits: int = 4) -> float:
    return float(round(float(x), digits))


def compare(
    claim: str,
    a: np.ndarray,
    b: np.ndarray | float,
    *,
    sign: int,
    mode: str,
    where: str,
    paper: Any,
    role: str = "primary",
    note: str = "",
) -> Check:
    """The claim mean(a − b) > 0 (``sign`` +1) or < 0 (−1), paired over seeds at the mode's
    confidence: holds when the interval excludes 0 on the claimed side, the contrary when it
    excludes 0 on the other.

    >>> c = compare("a > b", np.array([2.0, 2.1, 1.9]), 1.0, sign=1, mode="quick", where="x",
    ...             paper="a > b")
    >>> c.holds, c.opposite
    (True, False)
    """
    a = np.asarray(a, dtype=float)
    other = np.broadcast_to(np.asarray(b, dtype=float), a.shape)
    iv = paired_difference(a, other, confidence=CONFIDENCE[mode])
    claimed, contrary = ("+", "-") if sign > 0 else ("-", "+")
    return Check(
        claim,
        paper,
        _r(iv.mean, 6),
        (_r(iv.low, 6), _r(iv.high, 6)),
        holds=iv.direction == claimed,
        role=role,
        opposite=iv.direction == contrary,
        where=where,
        note=note or f"paired over {iv.n} seeds, {100 * iv.confidence:.0f} % two-sided interval",
    )
