"""``docs/claims.md``: every registered claim by paper — id, statement, place in the paper, the
verdict of the stored ``fltheory check`` run (``docs/check_results.json``) and the module that
defines it — followed by each claim's notes (why it holds or fails, which reading of the paper
was implemented).

Regenerate after adding or changing a claim, or after storing a new check run (a test fails
while the page is out of date)::

    python -m fltheory.claims.index
"""

import json
import re
from pathlib import Path
from typing import Any

from fltheory.claims.claim import CLAIMS, Claim, select
from fltheory.papers import PAPER_TABLE

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "claims.md"
CHECK_RESULTS = ROOT / "docs" / "check_results.json"

HEADER = """\
# The papers' claims

Generated from the claim registry (`fltheory.claims`) and the stored check run
`docs/check_results.json` by `python -m fltheory.claims.index`; do not edit by hand (a test
fails when this page is out of date). Each claim is one checkable statement of a paper;
`fltheory check ID` searches it for a counterexample, `fltheory check ID --explain` shows the
reading implemented and the witnesses in the paper's quantities, and `fltheory check --list`
lists them in the terminal. A verdict is that of the stored run (`holds`: no counterexample
within the budget; `refuted`: a counterexample confirmed exactly; `not executable`: a statement
with no margin, with the reason); `—` marks a claim registered after that run. Under each
paper's table, the notes of its claims say why each holds or fails and which reading of the
paper was implemented (`fltheory check ID --notes` prints them in the terminal).
"""


def stored_verdicts(path: Path = CHECK_RESULTS) -> dict[str, str]:
    """Claim id → verdict of the stored check run (empty when the file is absent).

    >>> stored_verdicts()["cafed:lemma8-eq98"]
    'refuted'
    """
    if not path.is_file():
        return {}
    record = json.loads(path.read_text())
    return {c["id"]: c["verdict"] for c in record["claims"]}


def _cell(text: Any) -> str:
    """One Markdown table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _location(claim: Claim) -> str:
    source = claim.source
    lines = f" (lines {source.lines[0]}–{source.lines[1]})" if source.lines else ""
    return f"{source.section}, {source.label}{lines}"


def _verdict(claim: Claim, verdicts: dict[str, str]) -> str:
    if not claim.executable:
        return f"not executable: {claim.reason}"
    return verdicts.get(claim.id, "—").replace("_", " ")


_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9}


def section_prefix(section: str) -> str:
    """The file-name prefix of the module that holds a claim printed in ``section`` (its first
    § or appendix): claims live in ``fltheory/claims/papers/<paper>/<prefix>[_<topic>].py``, so
    a statement's file follows from where the paper prints it.

    >>> [section_prefix(s) for s in ("§III-A eq. (5); App. B2", "App. B2 Lemma 16, eq. (156)",
    ...                              "§5.1, Remark 1", "Remark 1 and §VI", "§V-B(d), Fig. 4a")]
    ['s3a', 'app_b2', 's5_1', 's6', 's5b']
    """
    appendix = re.search(r"App\.\s*([A-Z])(\d*)", section)
    part = re.search(r"§\s*([IVX]+|\d+(?:\.\d+)?)(?:-([A-Z]))?", section)
    if part and (not appendix or part.start() < appendix.start()):
        number, letter = part.group(1), part.group(2) or ""
        number = str(_ROMAN[number]) if number in _ROMAN else number.replace(".", "_")
        return f"s{number}{letter.lower()}"
    if appendix:
        return f"app_{appendix.group(1).lower()}{appendix.group(2)}"
    raise ValueError(f"no § or appendix in the section {section!r}")


def module_path(module: str | None) -> str:
    """``fltheory.claims.papers.fedar.s4_rules`` → ``fltheory/claims/papers/fedar/s4_rules.py``.

    >>> module_path("fltheory.claims.papers.fedar.s4_rules")
    'fltheory/claims/papers/fedar/s4_rules.py'
    """
    return "—" if module is None else module.replace(".", "/") + ".py"


def notes_markdown(claims: list[Claim]) -> list[str]:
    """The notes of ``claims`` as a Markdown list, one item per claim that has notes.

    >>> from fltheory.claims import Claim, Source
    >>> notes_markdown([Claim("fedar:x", Source("fedar", "§1", "x"), "s", reason="prose",
    ...                       notes="Read   as printed.")])
    ['- `fedar:x` — Read as printed.']
    """
    return [f"- `{c.id}` — {' '.join(c.notes.split())}" for c in claims if c.notes.strip()]


def claims_markdown(verdicts: dict[str, str] | None = None) -> str:
    """The page: per paper (the order of :data:`~fltheory.papers.PAPER_TABLE`), a table of its
    claims sorted by id, then their notes; ``verdicts`` default to :func:`stored_verdicts`."""
    verdicts = stored_verdicts() if verdicts is None else verdicts
    parts = [HEADER]
    for paper in PAPER_TABLE.values():
        claims = select(paper=paper.id)
        if not claims:
            continue
        parts += [
            f"## {paper.short} (`{paper.id}`, {len(claims)} claims)",
            "",
            paper.citation,
            "",
            "| id | statement | where in the paper | verdict | defined in |",
            "|---|---|---|---|---|",
        ]
        for c in claims:
            module = module_path(CLAIMS.origin(c.id))
            cells = (f"`{c.id}`", c.statement, _location(c), _verdict(c, verdicts), f"`{module}`")
            parts.append("| " + " | ".join(_cell(x) for x in cells) + " |")
        parts.append("")
        notes = notes_markdown(claims)
        if notes:
            parts += [f"### Notes on the claims of {paper.short}", "", *notes, ""]
    return "\n".join(parts)


def main() -> None:
    """Write :data:`PAGE`."""
    PAGE.write_text(claims_markdown())
    print(f"wrote {PAGE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
