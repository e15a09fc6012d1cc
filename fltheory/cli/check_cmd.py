"""``fltheory check``: try hard to break every checkable statement of the papers.

``fltheory check --list`` lists the registered claims; ``fltheory check [ID ...] [--paper P]``
runs the falsifier (:mod:`fltheory.claims.falsifier`) on each and prints ID, location, verdict,
worst margin and evaluations — or, with ``--json``, one object ``{"claims": [...],
"summary": {...}}``. ``--out DIR`` also writes ``check.json`` and ``check.csv`` atomically with a
manifest and provenance.
"""

import csv
import io
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from fltheory.cli.app import app
from fltheory.cli.output import Col, console, emit_json, print_table
from fltheory.errors import InputError

CSV_COLUMNS = ("id", "verdict", "worst_margin", "evaluations", "seconds", "exact_verified")
OUT_FILES = ("check.json", "check.csv")


def _list(json_out: bool, paper: str | None) -> None:
    from fltheory.claims.claim import CLAIMS

    claims = CLAIMS.select(paper=paper)
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
                    }
                    for c in claims
                ]
            }
        )
        return
    print_table(
        console(),
        f"{len(claims)} registered claims",
        [Col("id", atomic=True), Col("location"), Col("executable"), Col("statement")],
        [
            (
                c.id,
                f"{c.source.section}, {c.source.label}",
                "yes" if c.executable else "no",
                c.statement,
            )
            for c in claims
        ],
    )


def _margin(value: float | None) -> str:
    return "—" if value is None else f"{value:.3g}"


def _print(report: dict[str, Any]) -> None:
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
                _margin(v["worst_margin"]),
                str(v["evaluations"]),
            )
        )
    out = console()
    print_table(
        out,
        "Claims of the papers, searched for counterexamples",
        [
            Col("id", atomic=True),
            Col("where"),
            Col("verdict"),
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
        if v["verdict"] == "error":
            out.print(f"[magenta]error in {v['id']}:[/] {v['message']}")


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


@app.command("check")
def check_command(
    ids: Annotated[
        list[str] | None, typer.Argument(help="Claim ids (default: all, or those of --paper).")
    ] = None,
    paper: Annotated[
        str | None, typer.Option(help="Only this paper: cafed, cafed-infocom, fedpbc, fedar.")
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
    overwrite: Annotated[bool, typer.Option(help="Replace a complete result in --out.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Search each claim of the papers for a counterexample: refuted, holds, or error."""
    from fltheory.claims.claim import CLAIMS

    if list_only:
        if ids:
            raise InputError("--list takes no claim ids")
        _list(json_out, paper)
        return
    if budget is not None and not 1 <= budget <= MAX_BUDGET:
        raise InputError(f"--budget must lie in 1..{MAX_BUDGET:.0e} evaluations, got {budget}")
    if seconds is not None and not seconds > 0:
        raise InputError(f"--seconds must be > 0, got {seconds}")
    if seed < 0:
        raise InputError(f"--seed must be >= 0, got {seed}")
    claims = CLAIMS.select(ids or None, paper=paper)
    if not claims:
        raise InputError("no claim matches the selection")
    if out is not None:  # refuse a bad --out before any work (written by _write, at the end)
        from fltheory.atomic import check_result_dir

        check_result_dir(out, overwrite=overwrite, owned=OUT_FILES, resumable=False)
    from fltheory.claims.run import check

    chosen_budget: int | str | None = budget if budget is not None else "default"
    if budget is None and seconds is not None:
        chosen_budget = None
    if json_out:
        result = check(claims, budget=chosen_budget, seconds=seconds, seed=seed)
    else:
        bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        with bar:
            task = bar.add_task("claims", total=len(claims))

            def tick(claim_id: str, done: int, total: int) -> None:
                bar.update(task, completed=done, description=claim_id)

            result = check(claims, budget=chosen_budget, seconds=seconds, seed=seed, progress=tick)
    report = result.to_dict()
    if out is not None:
        report["files"] = [str(p) for p in _write(out, report, overwrite)]
    if json_out:
        emit_json(report)
    else:
        _print(report)
