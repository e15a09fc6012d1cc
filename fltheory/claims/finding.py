"""What a claim reads the paper as saying, and what its refutation means for the paper.

A refuted margin is a fact about an instance; whether it is a *finding about the paper* depends
on the reading. :class:`Reading` records the reading a claim tests — the printed words, the
paper's hypotheses and how the instance space enforces each one, and why this reading is the one
the authors meant. :class:`Finding` classifies a refutation:

* ``error`` — the statement, as the authors meant it, fails under the paper's own hypotheses;
  ``severity`` ``result`` (a theorem's, proposition's or guideline's conclusion fails) or
  ``step`` (a proof step fails; ``survives`` says whether and how the result survives);
* ``typo`` — the printed form fails and an evident intended form holds (``intended`` names the
  claim of that form);
* ``version`` — holds in one version of the paper and fails in another (``intended`` names the
  claim of the version that holds, where registered);
* ``literal`` — only an unintended reading fails: not a finding about the paper, kept out of the
  errata (a labelled variant beside the claim of the intended reading).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Finding classes, in the order the errata list them.
CLASSES = ("error", "typo", "version", "literal")
#: Severities of an ``error``, most severe first.
SEVERITIES = ("result", "step")
#: Classes that are findings about the paper (the errata); ``literal`` is not one.
ERRATA_CLASSES = ("error", "typo", "version")

#: Section titles of the table, by (class, severity).
GROUPS = (
    (("error", "result"), "Errors: a result's conclusion fails under the paper's hypotheses"),
    (("error", "step"), "Errors in proof steps"),
    (("typo", None), "Typos: the printed form fails, the intended form holds"),
    (("version", None), "Version differences: holds in one version of the paper, fails in another"),
)


@dataclass(frozen=True)
class Hypothesis:
    """One hypothesis of the paper that applies to a statement, and how the instance space
    enforces it.

    >>> Hypothesis("Assumption 1: P irreducible and aperiodic", "λ₂ ∈ (−1, 1) per client").text
    'Assumption 1: P irreducible and aperiodic'
    """

    text: str
    enforced: str

    def to_dict(self) -> dict[str, str]:
        return {"hypothesis": self.text, "enforced_by": self.enforced}


@dataclass(frozen=True)
class Reading:
    """The reading of the paper a claim tests.

    Attributes:
        quote: the statement as printed (from the seed file named by the claim's source, whose
            ``lines`` locate it), cleaned of extraction noise.
        hypotheses: the paper's hypotheses that apply, each with how the space enforces it.
        interpretation: which reading the claim tests and why it is the one the authors meant
            (shorthand such as lim x for lim E[x], an O(·), a quantifier, which copy of the
            paper, a cited paper's step).
        alternatives: other readings the text admits and the claims that register them.

    >>> r = Reading("x^T converges", (), "lim E[x^T]: the proof computes E[x^T]")
    >>> r.to_dict()["interpretation"]
    'lim E[x^T]: the proof computes E[x^T]'
    """

    quote: str
    hypotheses: tuple[Hypothesis, ...] = ()
    interpretation: str = ""
    alternatives: str = ""

    def __post_init__(self) -> None:
        if not self.quote.strip():
            raise ValueError("a reading needs the quoted text")

    def to_dict(self) -> dict[str, Any]:
        return {
            "quote": self.quote,
            "hypotheses": [h.to_dict() for h in self.hypotheses],
            "interpretation": self.interpretation,
            "alternatives": self.alternatives,
        }


@dataclass(frozen=True)
class Finding:
    """The classification of a refutation (see the module docstring).

    >>> Finding("error", "the bound fails for one client", severity="result").to_dict()["class"]
    'error'
    >>> Finding("literal", "lim x read for lim E[x]", intended="fedpbc:prop1-expectation").errata
    False
    """

    cls: str
    why: str
    severity: str | None = None
    survives: str = ""
    intended: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.cls not in CLASSES:
            raise ValueError(f"finding class must be one of {CLASSES}, got {self.cls!r}")
        if (self.cls == "error") != (self.severity is not None):
            raise ValueError("an 'error' finding needs a severity, and only an error has one")
        if self.severity is not None and self.severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {SEVERITIES}, got {self.severity!r}")
        if self.severity == "step" and not self.survives:
            raise ValueError("a 'step' error must say whether the result survives")
        if self.cls == "typo" and not self.intended:
            raise ValueError("a 'typo' must name the claim of the intended form")
        if not self.why.strip() or "\n" in self.why.strip():
            raise ValueError("a finding's why is one line")

    @property
    def errata(self) -> bool:
        """Whether this is a finding about the paper (error, typo or version)."""
        return self.cls in ERRATA_CLASSES

    def rank(self) -> tuple[int, int]:
        """Sort key: errors first (results before steps), then typos, versions, literals."""
        severity = SEVERITIES.index(self.severity) if self.severity else 0
        return CLASSES.index(self.cls), severity

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"class": self.cls, "severity": self.severity, "why": self.why}
        if self.survives:
            out["survives"] = self.survives
        if self.intended:
            out["intended"] = self.intended
        out.update(self.extra)
        return out
