"""The errata, generated from ``fltheory check`` output — never edited by hand.

The committed ``docs/check_results.json`` is the JSON of a full ``fltheory check --json`` run
(``python paper_checks/run_all.py``). From it:

* :func:`findings_page` — ``docs/findings.md``: how a refutation becomes a finding, then
  :func:`errata_table` — the findings grouped by class (errors first, results before proof
  steps; then typos and version differences), one line of *why* per finding and the moderate
  witness in the paper's quantities; refutations of unintended (literal) readings are listed
  apart, as what they are: not findings about the papers — and each finding's notes (why it
  fails, which reading was implemented);
* :func:`findings_summary` — the README's findings in brief (counts by class, the errors in
  results, a link to the page), between the markers :data:`START` and :data:`END`;
* :func:`write_errata` — ``docs/errata/<paper>/<label>.py`` (a standalone verification script
  per error, typo and version, :mod:`fltheory.claims.errata_script`) and the per-paper reports
  ``docs/errata/<paper>/report.{md,html}`` (:mod:`fltheory.claims.errata_report`).

Tests check that the README's summary, ``docs/findings.md`` and ``docs/errata/`` are what this
module generates.

    python -m fltheory.claims.errata [docs/check_results.json] [README.md] [docs/errata] \
        [docs/findings.md]
"""

import json
import sys
from pathlib import Path
from typing import Any

from fltheory.claims.finding import CLASSES, ERRATA_CLASSES, GROUPS

START, END = "<!-- errata:start -->", "<!-- errata:end -->"

#: Longest witness text in a table cell.
WITNESS_CHARS = 240


def _cell(text: Any) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def witness_text(verdict: dict[str, Any], limit: int = WITNESS_CHARS) -> str:
    """The moderate witness (else the worst one) in the paper's quantities, on one line.

    >>> witness_text({"moderate_witness": {"paper": {"quantities": [
    ...     {"symbol": "π", "name": "availability", "value": "(0.5, 1)", "formula": ""}]}}})
    'π = (0.5, 1)'
    """
    paper = (verdict.get("moderate_witness") or {}).get("paper") or verdict.get("witness_paper")
    if paper:
        parts = [q["formula"] or f"{q['symbol']} = {q['value']}" for q in paper["quantities"]]
        text = "; ".join(parts)
    else:
        instance = (verdict.get("moderate_witness") or {}).get("instance") or verdict.get(
            "instance"
        )
        text = "; ".join(f"{k} = {v}" for k, v in (instance or {}).items()) or "—"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _group(verdict: dict[str, Any]) -> tuple[str, str | None] | None:
    finding = verdict.get("finding")
    if not finding:
        return None
    return finding["class"], finding.get("severity")


def script_link(claim_id: str, scripts: str = "docs/errata/") -> str:
    """The path of a claim's errata script, relative to the page that links it (``scripts``:
    the errata folder as seen from that page; the repository root by default)."""
    paper, _, label = claim_id.partition(":")
    return f"{scripts}{paper}/{label}.py"


def errata_table(results: dict[str, Any], scripts: str = "docs/errata/") -> str:
    """Markdown of the refuted claims of a ``fltheory check --json`` object, grouped by class
    (``scripts``: the errata folder relative to the page, see :func:`script_link`).

    >>> table = errata_table({"claims": [{"id": "cafed:x", "source": "s", "statement": "x ≥ 1",
    ...     "verdict": "refuted", "finding": {"class": "error", "severity": "result",
    ...     "why": "x = 0.5 is allowed"}}], "summary": {}})
    >>> table.splitlines()[4]
    '| `cafed:x` | s | x ≥ 1 | x = 0.5 is allowed | — | [script](docs/errata/cafed/x.py) |'
    """
    refuted = [c for c in results["claims"] if c["verdict"] == "refuted"]
    lines: list[str] = []
    for key, title in GROUPS:
        rows = [c for c in refuted if _group(c) == key]
        if not rows:
            continue
        extra = "does the result survive?" if key == ("error", "step") else None
        head = ["claim", "where", "statement", "why"]
        if extra:
            head.append(extra)
        if key[0] == "typo":
            head.append("intended form (holds)")
        head += ["moderate witness (paper's quantities)", "check"]
        lines += [f"**{title}** ({len(rows)})", "", "| " + " | ".join(head) + " |"]
        lines.append("|" + "---|" * len(head))
        for c in rows:
            finding = c["finding"]
            cells = [
                f"`{c['id']}`",
                _cell(c["source"]),
                _cell(c["statement"]),
                _cell(finding["why"]),
            ]
            if extra:
                cells.append(_cell(finding.get("survives", "")))
            if key[0] == "typo":
                cells.append(f"`{finding.get('intended', '')}`")
            cells += [_cell(witness_text(c)), f"[script]({script_link(c['id'], scripts)})"]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    literal = [c for c in refuted if _group(c) == ("literal", None)]
    if literal:
        lines += [
            f"**Not findings about the papers** ({len(literal)}): unintended readings, registered "
            "as labelled variants beside the intended reading, which holds.",
            "",
        ]
        for c in literal:
            intended = c["finding"].get("intended")
            tail = f" (intended reading: `{intended}`)" if intended else ""
            lines.append(f"- `{c['id']}` — {_cell(c['finding']['why'])}{tail}")
        lines.append("")
    unclassified = [c for c in refuted if _group(c) is None]
    if unclassified:
        lines += [f"**Refuted, not yet classified** ({len(unclassified)}):", ""]
        lines += [f"- `{c['id']}` — {_cell(c['statement'])}" for c in unclassified]
        lines.append("")
    verdicts_line = _verdicts_line(results)
    if verdicts_line:
        lines.append(verdicts_line)
    return "\n".join(lines).rstrip()


def _verdicts_line(results: dict[str, Any]) -> str:
    """'Verdicts of the run: …' with the refutations split into findings and literal readings
    (empty when the object has no verdict counts)."""
    summary = results.get("summary", {})
    counts = summary.get("verdicts", {})
    if not counts:
        return ""
    refuted = [c for c in results["claims"] if c["verdict"] == "refuted"]
    classes = {k: sum(1 for c in refuted if (_group(c) or ("?",))[0] == k) for k in CLASSES}
    errata = sum(classes[k] for k in ERRATA_CLASSES)
    return (
        "Verdicts of the run: "
        + ", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items()))
        + f" (seed {summary.get('seed')}, budget {summary.get('budget')}); of the "
        f"refutations, {errata} are findings about the papers ("
        + ", ".join(f"{classes[k]} {k}" for k in ERRATA_CLASSES)
        + f") and {classes['literal']} refute an unintended reading."
    )


#: The findings page, relative to the repository root.
FINDINGS_PAGE = "docs/findings.md"

FINDINGS_HEADER = """\
# Findings about the papers

Generated from `docs/check_results.json` (the output of `python paper_checks/run_all.py`: every
registered claim at its default budget, seed 0) by `fltheory.claims.errata`; never edited by
hand (a test fails while this page, the README's summary or `docs/errata/` is out of date).

`fltheory check` registers every checkable statement of the seeds (lemmas, propositions,
theorems, remarks, defining equations; the printed and the proved form where they differ) and
searches each adversarially: boundary-biased sampling, Nelder–Mead on the margin, hypothesis
with `target()` and shrinking, then an exact re-verification of the worst instance. A refutation
is a fact about an instance; whether it is a finding about the paper depends on the reading, so
each claim records its **reading** — the quoted text, the paper's hypotheses and how the search
enforces each, and why that reading is the one the authors meant (shorthand such as lim x for
lim E[x], an O(·), a quantifier, which copy of the paper). Each refutation is **classified**:
`error` (the statement as meant fails under the paper's own hypotheses; severity `result` or
proof `step`, saying whether the result survives), `typo` (the printed form fails, an evident
intended form holds), `version` (holds in one version of the paper, fails in another), or
`literal` — only an unintended reading fails, which is not a finding and is listed apart.

After a refutation the search looks for the **least extreme counterexample** (the violation
farthest from the boundary of the space, rounded to few digits, re-verified exactly) and the
point where the statement starts to fail on the path from an instance where it holds;
`fltheory check ID --explain` prints both in the paper's own quantities (clients' losses as
formulas, π, λ₂ or P, q, η, …) with both sides evaluated. Each error, typo and version has a
standalone verification script, `docs/errata/<paper>/<label>.py` (Python with
`fractions`/`mpmath` only, no fltheory), and each paper an errata report written for its
authors, `docs/errata/<paper>/report.html` (and `.md`); `fltheory check --paper P --report DIR`
writes the same for a new run. Every claim, with its verdict and notes:
[claims.md](claims.md).
"""


def _notes_list(results: dict[str, Any]) -> list[str]:
    """Each finding's notes (errata classes first, in the table's order), one item per claim."""
    refuted = [c for c in results["claims"] if c["verdict"] == "refuted" and c.get("notes")]
    order: list[tuple[str, str | None] | None] = [key for key, _ in GROUPS]
    order.append(("literal", None))
    rows = sorted((c for c in refuted if _group(c) in order), key=lambda c: order.index(_group(c)))
    return [f"- `{c['id']}` — {' '.join(c['notes'].split())}" for c in rows]


def findings_page(results: dict[str, Any]) -> str:
    """``docs/findings.md``: the method in brief, :func:`errata_table` (script links relative to
    ``docs/``) and the notes of every refuted claim (why it fails, the reading implemented).

    >>> page = findings_page({"claims": [{"id": "fedar:x", "source": "s", "statement": "x ≥ 1",
    ...     "verdict": "refuted", "notes": "Read  as printed.", "finding": {"class": "error",
    ...     "severity": "result", "why": "x = 0.5 is allowed"}}], "summary": {}})
    >>> "[script](errata/fedar/x.py)" in page, page.splitlines()[-1]
    (True, '- `fedar:x` — Read as printed.')
    """
    parts = [FINDINGS_HEADER, "## The findings", "", errata_table(results, scripts="errata/")]
    notes = _notes_list(results)
    if notes:
        parts += [
            "",
            "## Notes on each refuted claim",
            "",
            "What each claim's module records about it: which reading is implemented, what is "
            "checked against what, and why the statement fails there.",
            "",
            *notes,
        ]
    return "\n".join(parts).rstrip() + "\n"


#: What each (class, severity) of :data:`~fltheory.claims.finding.GROUPS` means, in the summary.
MEANING = {
    ("error", "result"): "a result's conclusion fails under the paper's own hypotheses",
    ("error", "step"): "a step of a proof fails (each finding says whether the result survives)",
    ("typo", None): "the printed form fails, an evident intended form holds",
    ("version", None): "holds in one version of the paper, fails in another",
}


def findings_summary(results: dict[str, Any]) -> str:
    """The README's findings in brief: counts by class, the errors in results with their *why*,
    and the link to :data:`FINDINGS_PAGE`.

    >>> text = findings_summary({"claims": [{"id": "cafed:x", "source": "s", "statement": "x",
    ...     "verdict": "refuted", "finding": {"class": "error", "severity": "result",
    ...     "why": "x = 0.5 is allowed"}}], "summary": {}})
    >>> text.splitlines()[2].endswith("| 1 |"), "- `cafed:x` — x = 0.5 is allowed" in text
    (True, True)
    """
    refuted = [c for c in results["claims"] if c["verdict"] == "refuted"]
    lines = ["| class | meaning | claims |", "|---|---|---|"]
    for (cls, severity), _ in GROUPS:
        n = sum(1 for c in refuted if _group(c) == (cls, severity))
        name = f"{cls} ({severity})" if severity else cls
        lines.append(f"| {name} | {MEANING[cls, severity]} | {n} |")
    literal = sum(1 for c in refuted if _group(c) == ("literal", None))
    lines.append(
        f"| literal | not a finding: an unintended reading fails, the intended one holds | "
        f"{literal} |"
    )
    results_errors = [c for c in refuted if _group(c) == ("error", "result")]
    if results_errors:
        lines += ["", "The errors in results:", ""]
        lines += [f"- `{c['id']}` — {_cell(c['finding']['why'])}" for c in results_errors]
    verdicts_line = _verdicts_line(results)
    lines += [""] + ([verdicts_line, ""] if verdicts_line else [])
    lines.append(
        f"Every finding with its moderate witness, verification script and notes: "
        f"[{FINDINGS_PAGE}]({FINDINGS_PAGE}); per paper, a report for its authors: "
        "`docs/errata/<paper>/report.html`."
    )
    return "\n".join(lines)


def update_readme(readme: str, results: dict[str, Any]) -> str:
    """``readme`` with the text between the errata markers replaced by the generated summary."""
    head, sep, rest = readme.partition(START)
    if not sep or END not in rest:
        raise ValueError(f"the README has no {START} … {END} block")
    _, _, tail = rest.partition(END)
    return f"{head}{START}\n{findings_summary(results)}\n{END}{tail}"


def errata_files(results: dict[str, Any]) -> dict[str, str]:
    """Every file of ``docs/errata/`` (relative path → content): the verification scripts of
    the errors, typos and versions, and each paper's report (Markdown and HTML)."""
    from fltheory.claims.claim import CLAIMS
    from fltheory.claims.errata_report import paper_report_html, paper_report_markdown
    from fltheory.claims.errata_script import errata_script, script_name
    from fltheory.papers import PAPERS

    files: dict[str, str] = {}
    for record in results["claims"]:
        finding = record.get("finding") or {}
        if record["verdict"] != "refuted" or finding.get("class") not in ERRATA_CLASSES:
            continue
        verify = CLAIMS.get(record["id"]).verify
        if verify is None:
            raise ValueError(f"{record['id']}: an erratum without a standalone verify")
        files[script_name(record["id"])] = errata_script(record, verify)
    for paper in PAPERS:
        files[f"{paper}/report.md"] = paper_report_markdown(results, paper)
        files[f"{paper}/report.html"] = paper_report_html(results, paper)
    return files


def write_errata(results: dict[str, Any], directory: Path) -> list[Path]:
    """Write :func:`errata_files` under ``directory`` atomically; remove scripts of claims that
    are no longer errata (only ``*.py`` files this module generates, never anything else)."""
    from fltheory.atomic import write_atomic

    files = errata_files(results)
    written = []
    for relative, content in sorted(files.items()):
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, content)
        written.append(path)
    for stale in directory.glob("*/*.py"):
        relative = stale.relative_to(directory).as_posix()
        if relative not in files and "Generated by `python -m fltheory.claims.errata`" in (
            stale.read_text(errors="replace")
        ):
            stale.unlink()
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    results_path = Path(args[0] if args else "docs/check_results.json")
    readme_path = Path(args[1] if len(args) > 1 else "README.md")
    errata_dir = Path(args[2] if len(args) > 2 else "docs/errata")
    page_path = Path(args[3] if len(args) > 3 else FINDINGS_PAGE)
    results = json.loads(results_path.read_text())
    readme_path.write_text(update_readme(readme_path.read_text(), results))
    page_path.write_text(findings_page(results))
    written = write_errata(results, errata_dir)
    print(
        f"updated the findings of {readme_path}, wrote {page_path} and {len(written)} files "
        f"in {errata_dir}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
