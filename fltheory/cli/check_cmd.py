"""``fltheory check``: try hard to break every checkable statement of the papers.

``fltheory check --list`` lists the registered claims; ``fltheory check [ID ...] [--paper P]``
runs the falsifier (:mod:`fltheory.claims.falsifier`) on each and prints ID, location, verdict,
the finding's class, worst margin and evaluations — or, with ``--json``, one object
``{"claims": [...], "summary": {...}}`` in which every claim carries its ``notes`` (why it holds
or fails, which reading of the paper was implemented). ``--notes`` prints those notes under the
table; ``--explain`` prints, per claim, its reading, finding and notes and the witnesses in the
paper's own quantities with both sides evaluated. ``--out DIR``
also writes ``check.json`` and ``check.csv`` atomically with a manifest and provenance;
``--paper P --report DIR`` writes the paper's errata report (Markdown, HTML, verification
scripts).

Outside claims (``fltheory check --plugin MODULE``, :mod:`fltheory.plugins`) go through the same
falsifier, verdicts and output; with no ids and no ``--paper``, the claims of the modules named
by ``--plugin`` / ``FLTHEORY_PLUGINS`` are searched when they register any (else every claim).
"""

import csv
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from fltheory.cli.output import Col, console, emit_json, print_table
from fltheory.cli.progress import progress_bar
from fltheory.errors import InputError
from fltheory.papers import PAPER_TABLE

if TYPE_CHECKING:
    from fltheory.claims.claim import Claim

CSV_COLUMNS = ("id", "verdict", "worst_margin", "evaluations", "seconds", "exact_verified")
OUT_FILES = ("check.json", "check.csv")


def _module_file(module: str | None) -> str:
    """``fltheory.claims.papers.fedar.s4_rules`` → ``papers/fedar/s4_rules.py``."""
    if module is None:
        return "—"
    return module.removeprefix("fltheory.claims.").replace(".", "/") + ".py"


def _select(ids: list[str] | None, paper: str | None) -> list["Claim"]:
    """The claims named by ``ids`` / ``paper``; with neither, those registered by the plug-ins
    requested by name when there are any, else every claim."""
    from fltheory import plugins
    from fltheory.claims.claim import CLAIMS, select

    if not ids and paper is None:
        own = [c for c in CLAIMS if plugins.requested_by_name(CLAIMS.origin(c.id))]
        if own:
            return own
    return select(ids or None, paper=paper)


def notes_text(claim: "Claim") -> str:
    """A claim's notes on one line (why it holds or fails, which reading was implemented).

    >>> from fltheory.claims import Claim, Source
    >>> notes_text(Claim("fedar:x", Source("fedar", "§1", "x"), "s", reason="prose",
    ...                  notes="Read as   printed."))
    'Read as printed.'
    """
    return " ".join(claim.notes.split())


def _with_notes(report: dict[str, Any], claims: list["Claim"]) -> None:
    """Give every record of ``report`` its claim's notes (the falsifier leaves them out of a
    statement it does not search: a not-executable one)."""
    by_id = {c.id: c for c in claims}
    for v in report["claims"]:
        if v["id"] in by_id:
            v["notes"] = notes_text(by_id[v["id"]])


def _print_notes(rows: list[tuple[str, str]]) -> None:
    """Under a table: each claim's notes, one paragraph per claim, wrapped at the terminal's
    width between words (prose, unlike the derivations of ``--explain``)."""
    out = console()
    shown = [(cid, notes) for cid, notes in rows if notes]
    prose: dict[str, Any] = {"highlight": False, "markup": False}
    out.print(f"Notes ({len(shown)} of {len(rows)} claims have notes):", **prose)
    for cid, notes in shown:
        out.print(f"\n{cid}: {notes}", **prose)


def _list(json_out: bool, claims: list["Claim"], notes: bool = False) -> None:
    from fltheory.claims.claim import CLAIMS

    if json_out:
        emit_json(
            {
                "claims": [
                    {
                        "id": c.id,
                        "source": str(c.source),
                        "statement": c.statement,
                        "executable": c.executable,
                        "expected": c.expected,
                        "reason": c.reason or None,
                        "notes": notes_text(c),
                        "module": CLAIMS.origin(c.id),
                    }
                    for c in claims
                ]
            }
        )
        return
    print_table(
        console(),
        f"{len(claims)} registered claims",
        [
            Col("id", atomic=True),
            Col("location"),
            Col("executable"),
            Col("statement"),
            Col("in fltheory/claims/", atomic=True),
        ],
        [
            (
                c.id,
                f"{c.source.section}, {c.source.label}",
                "yes" if c.executable else "no",
                c.statement,
                _module_file(CLAIMS.origin(c.id)),
            )
            for c in claims
        ],
    )
    if notes:
        _print_notes([(c.id, notes_text(c)) for c in claims])


def _margin(value: float | None) -> str:
    return "—" if value is None else f"{value:.3g}"


def _finding_text(v: dict[str, Any]) -> str:
    finding = v.get("finding")
    if not finding:
        return ""
    return finding["class"] + (f" ({finding['severity']})" if finding.get("severity") else "")


#: Console options for derivations: no markup, no highlighting, no wrapping.
PLAIN: dict[str, Any] = {"highlight": False, "markup": False, "soft_wrap": True}


def _explain(report: dict[str, Any]) -> None:
    """Per claim: where, statement, reading, finding, and the witnesses in the paper's
    quantities with both sides evaluated (the derivation step by step)."""
    from fltheory.claims.errata_report import _explanation_lines

    out = console()
    for v in report["claims"]:
        out.print(f"[bold]{v['id']}[/] — {v['verdict']}", highlight=False)
        out.print(f"  where: {v['source']}", **PLAIN)
        out.print(f"  statement: {v['statement']}", **PLAIN)
        reading = v.get("reading") or {}
        if reading.get("interpretation"):
            out.print(f"  reading: {reading['interpretation']}", **PLAIN)
        finding = v.get("finding")
        if finding:
            tail = f" (intended: {finding['intended']})" if finding.get("intended") else ""
            out.print(
                f"  finding: {_finding_text(v)} — {finding['why']}{tail}",
                **PLAIN,
            )
        if v["verdict"] == "not_executable":
            out.print(f"  why not executable: {v['message']}", **PLAIN)
        if v.get("notes"):
            out.print(f"  notes: {v['notes']}", **PLAIN)
        moderate = v.get("moderate_witness") or {}
        sections = []
        if moderate.get("paper"):
            sections.append(
                (
                    f"least extreme counterexample (extremeness {moderate['extremeness']:.2g})",
                    moderate["paper"],
                )
            )
        boundary = v.get("failure_boundary") or {}
        if boundary.get("at_paper"):
            sections.append(
                (
                    f"where it starts to fail (t = {boundary['t']:.4g} of the path from a holding "
                    "instance)",
                    boundary["at_paper"],
                )
            )
        if v.get("witness_paper"):
            label = "worst counterexample" if v["verdict"] == "refuted" else "closest instance"
            sections.append((label, v["witness_paper"]))
        elif v.get("instance"):
            sections.append(("worst instance (internal coordinates)", None))
        for title, paper in sections:
            out.print(f"  {title}:", **PLAIN)
            lines = _explanation_lines(paper) if paper else [str(v["instance"])]
            for line in lines:
                out.print(f"    {line}", **PLAIN)
        if v.get("declined"):
            total = sum(v["declined"].values())
            top = next(iter(v["declined"]))
            out.print(f"  declined instances: {total} (most often: {top})", **PLAIN)
        out.print("")


def _print(report: dict[str, Any], notes: bool = False) -> None:
    styles = {"refuted": "bold red", "error": "bold magenta", "holds": "green"}
    rows = []
    for v in report["claims"]:
        location = v["source"].split(" ", 1)[-1].split(",")[0]  # the section; --json has all
        verdict = v["verdict"]
        if verdict == "refuted" and v.get("exact_verified"):
            verdict += " (exact)"
        rows.append(
            (
                v["id"],
                location,
                Text(verdict, style=styles.get(v["verdict"], "dim")),
                _finding_text(v),
                _margin(v["worst_margin"]),
                str(v["evaluations"]),
            )
        )
    from fltheory.papers import PAPERS

    whose = "the papers" if all(v["id"].split(":")[0] in PAPERS for v in report["claims"]) else ""
    out = console()
    print_table(
        out,
        f"Claims of {whose}, searched for counterexamples"
        if whose
        else "Claims searched for counterexamples",
        [
            Col("id", atomic=True),
            Col("where"),
            Col("verdict"),
            Col("finding"),
            Col("worst margin", numeric=True),
            Col("evals", numeric=True),
        ],
        rows,
    )
    s = report["summary"]
    rate = s.get("evaluations_per_second")
    out.print(
        f"{s['claims']} claims: "
        + ", ".join(f"{n} {k}" for k, n in s["verdicts"].items())
        + f"; {s['evaluations']} evaluations in {s['seconds']:.1f} s"
        + (f" ({rate:,.0f} per second)" if rate else "")
    )
    for v in report["claims"]:
        if v["verdict"] in ("error", "inconclusive"):
            out.print(f"[magenta]{v['verdict']} in {v['id']}:[/] {v['message']}")
    if any(v.get("finding") for v in report["claims"]):
        out.print(
            "finding: error (result/step), typo, version — about the paper; literal — an "
            "unintended reading, not a finding. --explain shows the witnesses in the paper's terms."
        )
    if notes:
        _print_notes([(v["id"], v.get("notes") or "") for v in report["claims"]])
    elif any(v.get("notes") for v in report["claims"]):
        out.print("--notes prints why each claim holds or fails and the reading implemented.")


def _write(out_dir: Path, report: dict[str, Any], overwrite: bool) -> list[Path]:
    """check.json and check.csv as one transaction (:class:`fltheory.resultdir.ResultFolder`:
    locked, staged, committed with the manifest; a failure leaves the folder as it was)."""
    from fltheory.jsonable import to_jsonable
    from fltheory.provenance import provenance
    from fltheory.resultdir import ResultFolder

    payload = to_jsonable(report)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for v in payload["claims"]:
        writer.writerow(["" if v.get(c) is None else v[c] for c in CSV_COLUMNS])
    s = report["summary"]
    record = provenance(
        seed=s["seed"], budget=s["budget"], seconds_per_claim=s["seconds_per_claim"]
    )
    with ResultFolder(out_dir, owned=OUT_FILES, overwrite=overwrite, resumable=False) as folder:
        folder.write("check.json", json.dumps(payload, indent=2) + "\n")
        folder.write("check.csv", buffer.getvalue())
        return folder.commit(list(OUT_FILES), record)


#: Most evaluations per claim accepted by ``--budget`` (the defaults are a few thousand; 10⁷
#: already takes hours for the slowest claims).
MAX_BUDGET = 10**7
#: Longest time cap per claim accepted by ``--seconds`` (one day).
MAX_SECONDS = 86_400.0
#: The errata report's files; the verification scripts go into ``scripts/``.
SCRIPTS = "scripts"
REPORT_FILES = ("report.md", "report.html", "check.json", SCRIPTS)


def _write_report(out_dir: Path, report: dict[str, Any], paper: str, overwrite: bool) -> list[Path]:
    """The paper's errata report, its verification scripts (``scripts/<label>.py``) and the
    check object, as one transaction (:class:`fltheory.resultdir.ResultFolder`, as ``--out``)."""
    from fltheory.claims.claim import CLAIMS
    from fltheory.claims.errata_report import paper_report_html, paper_report_markdown
    from fltheory.claims.errata_script import errata_script
    from fltheory.claims.finding import ERRATA_CLASSES
    from fltheory.jsonable import to_jsonable
    from fltheory.provenance import provenance
    from fltheory.resultdir import ResultFolder

    payload = to_jsonable(report)
    files = {
        "report.md": paper_report_markdown(payload, paper, scripts=SCRIPTS + "/"),
        "report.html": paper_report_html(payload, paper, scripts=SCRIPTS + "/"),
        "check.json": json.dumps(payload, indent=2) + "\n",
    }
    for v in payload["claims"]:
        finding = v.get("finding") or {}
        claim = CLAIMS.get(v["id"])
        if v["verdict"] == "refuted" and finding.get("class") in ERRATA_CLASSES and claim.verify:
            label = v["id"].split(":", 1)[1]
            files[f"{SCRIPTS}/{label}.py"] = errata_script(v, claim.verify)
    s = report["summary"]
    record = provenance(seed=s["seed"], budget=s["budget"], paper=paper)
    with ResultFolder(
        out_dir, owned=REPORT_FILES, overwrite=overwrite, resumable=False, flag="--report"
    ) as folder:
        for name, text in files.items():
            folder.write(name, text)
        return folder.commit(list(files), record)


def check_command(
    ids: Annotated[
        list[str] | None, typer.Argument(help="Claim ids (default: all, or those of --paper).")
    ] = None,
    paper: Annotated[
        str | None, typer.Option(help=f"Only this paper: {', '.join(PAPER_TABLE)}.")
    ] = None,
    budget: Annotated[
        int | None, typer.Option(help="Evaluations per claim (default: each claim's own).")
    ] = None,
    seconds: Annotated[float | None, typer.Option(help="Time cap per claim, seconds.")] = None,
    seed: Annotated[
        int, typer.Option(help="Search seed (same seed and budget, same verdicts).")
    ] = 0,
    list_only: Annotated[
        bool, typer.Option("--list", help="List the claims; run nothing.")
    ] = False,
    out: Annotated[
        Path | None, typer.Option(help="Folder for check.json, check.csv and a manifest.")
    ] = None,
    overwrite: Annotated[
        bool, typer.Option(help="Replace a complete result in --out / --report.")
    ] = False,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain",
            help="Print each claim's reading, finding and witnesses in the paper's quantities.",
        ),
    ] = False,
    report_dir: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help="With --paper: write that paper's errata report (report.md, report.html, "
            "verification scripts) into this folder.",
        ),
    ] = None,
    notes: Annotated[
        bool,
        typer.Option(
            "--notes",
            help="Print each claim's notes under the table: why it holds or fails, which "
            "reading of the paper was implemented.",
        ),
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Search each claim of the papers (or your own, with --plugin MODULE) for a counterexample:
    refuted (with the finding's class), holds, inconclusive, or error."""
    from fltheory.papers import PAPERS

    if notes and json_out:
        raise InputError("--notes prints text; --json already carries every claim's notes")
    if list_only:
        if ids:
            raise InputError("--list takes no claim ids")
        _list(json_out, _select(None, paper), notes)
        return
    if budget is not None and not 1 <= budget <= MAX_BUDGET:
        raise InputError(f"--budget must lie in 1..{MAX_BUDGET:.0e} evaluations, got {budget}")
    if seconds is not None and not 0 < seconds <= MAX_SECONDS:
        raise InputError(
            f"--seconds must be a number of seconds in (0, {MAX_SECONDS:.0f}], got {seconds}"
        )
    if report_dir is not None and paper is None:
        raise InputError("--report writes one paper's errata report: give --paper too")
    if report_dir is not None and paper not in PAPERS:
        raise InputError(
            f"--report writes the errata report of a seed paper ({', '.join(sorted(PAPERS))}); "
            "use --out for the verdicts of other claims"
        )
    if explain and json_out:
        raise InputError("--explain prints text; --json already carries every explanation")
    if seed < 0:
        raise InputError(f"--seed must be >= 0, got {seed}")
    claims = _select(ids, paper)
    if not claims:
        raise InputError("no claim matches the selection")
    if out is not None:  # refuse a bad --out before any work (written by _write, at the end)
        from fltheory.atomic import check_result_dir

        check_result_dir(out, overwrite=overwrite, owned=OUT_FILES, resumable=False)
    if report_dir is not None:
        from fltheory.atomic import check_result_dir

        check_result_dir(
            report_dir, overwrite=overwrite, owned=REPORT_FILES, resumable=False, flag="--report"
        )
    from fltheory.claims.run import check

    chosen_budget: int | str | None = budget if budget is not None else "default"
    if budget is None and seconds is not None:
        chosen_budget = None
    with progress_bar(enabled=not json_out) as rows:
        tick = None if rows is None else rows.row("claims")  # described by the claim checked
        result = check(claims, budget=chosen_budget, seconds=seconds, seed=seed, progress=tick)
    report = result.to_dict()
    _with_notes(report, claims)
    files: list[Path] = []
    if out is not None:
        files += _write(out, report, overwrite)
    if report_dir is not None:
        assert paper is not None
        files += _write_report(report_dir, report, paper, overwrite)
    if files:
        report["files"] = [str(p) for p in files]
    if json_out:
        emit_json(report)
    elif explain:
        _explain(report)
    else:
        _print(report, notes)
    if report_dir is not None and not json_out:
        console().print(f"errata report: {report_dir / 'report.html'}")
