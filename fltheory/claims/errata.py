"""The errata, generated from ``fltheory check`` output — never edited by hand.

The committed ``docs/check_results.json`` is the JSON of a full ``fltheory check --json`` run
(``python paper_checks/run_all.py``). From it:

* :func:`errata_table` — the README's findings, grouped by class (errors first, results before
  proof steps; then typos and version differences), one line of *why* per finding and the
  moderate witness in the paper's quantities; refutations of unintended (literal) readings are
  listed apart, as what they are: not findings about the papers;
* :func:`write_errata` — ``docs/errata/<paper>/<label>.py`` (a standalone verification script
  per error, typo and version, :mod:`fltheory.claims.errata_script`) and the per-paper reports
  ``docs/errata/<paper>/report.{md,html}`` (:mod:`fltheory.claims.errata_report`).

Tests check that the README's table and ``docs/errata/`` are what this module generates.

    python -m fltheory.claims.errata [docs/check_results.json] [README.md] [docs/errata]
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


def script_link(claim_id: str) -> str:
    """The README-relative path of a claim's errata script."""
    paper, _, label = claim_id.partition(":")
    return f"docs/errata/{paper}/{label}.py"


def errata_table(results: dict[str, Any]) -> str:
    """Markdown of the refuted claims of a ``fltheory check --json`` object, grouped by class.

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
            cells += [_cell(witness_text(c)), f"[script]({script_link(c['id'])})"]
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
    summary = results.get("summary", {})
    counts = summary.get("verdicts", {})
    if counts:
        classes = {k: sum(1 for c in refuted if (_group(c) or ("?",))[0] == k) for k in CLASSES}
        errata = sum(classes[k] for k in ERRATA_CLASSES)
        lines.append(
            "Verdicts of the run: "
            + ", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items()))
            + f" (seed {summary.get('seed')}, budget {summary.get('budget')}); of the "
            f"refutations, {errata} are findings about the papers ("
            + ", ".join(f"{classes[k]} {k}" for k in ERRATA_CLASSES)
            + f") and {classes['literal']} refute an unintended reading."
        )
    return "\n".join(lines).rstrip()


def update_readme(readme: str, results: dict[str, Any]) -> str:
    """``readme`` with the text between the errata markers replaced by the generated table."""
    head, sep, rest = readme.partition(START)
    if not sep or END not in rest:
        raise ValueError(f"the README has no {START} … {END} block")
    _, _, tail = rest.partition(END)
    return f"{head}{START}\n{errata_table(results)}\n{END}{tail}"


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
    results = json.loads(results_path.read_text())
    readme_path.write_text(update_readme(readme_path.read_text(), results))
    written = write_errata(results, errata_dir)
    print(f"updated the errata of {readme_path} and {len(written)} files in {errata_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
