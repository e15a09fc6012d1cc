"""Run the falsifier over a selection of claims: the library side of ``fltheory check``.

:func:`check` returns a :class:`CheckReport` — one :class:`~fltheory.claims.falsifier.Verdict`
per claim and a summary — which the CLI prints as a table or as one JSON object, and which
:mod:`fltheory.claims.errata` turns into the findings (``docs/findings.md``, the README's
summary, ``docs/errata/``).
"""

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fltheory.claims.claim import CLAIMS, Claim
from fltheory.claims.falsifier import Verdict, falsify

#: progress(claim id, index, total) before each claim is searched.
Progress = Callable[[str, int, int], None]


@dataclass
class CheckReport:
    """The verdicts of one ``fltheory check`` run, in claim-id order.

    >>> from fltheory.claims.claim import Claim, Source
    >>> from fltheory.claims.space import Real, Space
    >>> c = Claim("fedar:demo", Source("fedar", "§0", "demo"), "x ≥ 0",
    ...           Space([Real("x", 0.0, 1.0)]), margin=lambda i: i["x"])
    >>> check([c], budget=50).summary["verdicts"]
    {'holds': 1}
    """

    verdicts: list[Verdict]
    budget: int | str | None
    seconds_per_claim: float | None
    seed: int
    seconds: float
    summary: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.summary:
            counts = Counter(v.verdict for v in self.verdicts)
            evaluations = sum(v.evaluations for v in self.verdicts)
            search_seconds = sum(v.seconds for v in self.verdicts if v.evaluations)
            self.summary = {
                "claims": len(self.verdicts),
                "verdicts": dict(sorted(counts.items())),
                "refuted": [v.id for v in self.verdicts if v.verdict == "refuted"],
                "errors": [v.id for v in self.verdicts if v.verdict == "error"],
                "evaluations": evaluations,
                "seconds": self.seconds,
                "evaluations_per_second": evaluations / search_seconds if search_seconds else None,
                "budget": self.budget,
                "seconds_per_claim": self.seconds_per_claim,
                "seed": self.seed,
            }

    def to_dict(self) -> dict[str, Any]:
        """``{"claims": [...], "summary": {...}}`` — the JSON of ``fltheory check``."""
        return {"claims": [v.to_dict() for v in self.verdicts], "summary": self.summary}

    def text_table(self) -> str:
        """One plain-text line per claim (id, verdict, worst margin, evaluations, seconds,
        evaluations per second) and the total, for logs and test output."""
        width = max((len(v.id) for v in self.verdicts), default=2)
        lines = [f"{'id':{width}s} {'verdict':15s} {'worst':>11s} {'evals':>6s} {'s':>6s} ev/s"]
        for v in self.verdicts:
            worst = "" if v.worst_margin is None else f"{v.worst_margin:.3g}"
            rate = "" if v.evals_per_second is None else f"{v.evals_per_second:.0f}"
            lines.append(
                f"{v.id:{width}s} {v.verdict:15s} {worst:>11s} {v.evaluations:6d} "
                f"{v.seconds:6.1f} {rate}"
            )
        lines.append(f"total {self.seconds:.1f} s")
        return "\n".join(lines)


def unexpected_verdicts(claims: Sequence[Claim], verdicts: Sequence[Verdict]) -> list[str]:
    """``"id: expected X, got Y (message)"`` for each executable claim whose verdict is not the
    one it declares.

    >>> from fltheory.claims.claim import Claim, Source
    >>> from fltheory.claims.space import Real, Space
    >>> c = Claim("fedar:demo", Source("fedar", "§0", "demo"), "x ≥ 0.5",
    ...           Space([Real("x", 0.0, 1.0)]), margin=lambda i: i["x"] - 0.5, expected="holds")
    >>> unexpected_verdicts([c], check([c], budget=50).verdicts)
    ['fedar:demo: expected holds, got refuted (...)']
    """
    return [
        f"{c.id}: expected {c.expected}, got {v.verdict} ({v.message})"
        for c, v in zip(claims, verdicts, strict=True)
        if c.executable and c.expected is not None and v.verdict != c.expected
    ]


def check(
    claims: Sequence[Claim] | None = None,
    *,
    budget: int | str | None = "default",
    seconds: float | None = None,
    seed: int = 0,
    progress: Progress | None = None,
) -> CheckReport:
    """Falsify each claim (all registered ones when ``claims`` is None).

    ``budget``: evaluations per claim ("default": each claim's own); ``seconds``: a time cap per
    claim; ``seed``: the search seed (same seed and budget, same verdicts).
    """
    chosen = list(CLAIMS) if claims is None else list(claims)
    start = time.perf_counter()
    verdicts = []
    for i, claim in enumerate(chosen):
        if progress is not None:
            progress(claim.id, i, len(chosen))
        verdicts.append(falsify(claim, budget=budget, seconds=seconds, seed=seed))
    return CheckReport(verdicts, budget, seconds, seed, time.perf_counter() - start)
