"""``fltheory report``: the six-section report (model, bounds, weights, limits, simulation vs
theory, claims) as ``report.html`` (self-contained), ``report.md`` and ``report.json``.

Without ``--config`` it reports on the embedded default, the CA-Fed paper's population of 100
clients (:mod:`fltheory.report.config`). Progress goes to stderr; stdout gets the summary and
the path of ``report.html`` (or, with ``--json``, one object with the paths and the summary).
"""

import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from fltheory.cli.output import emit_json

DEFAULT_OUT = Path("fltheory-report")


def report_command(
    config: Annotated[
        Path | None,
        typer.Option(
            "--config", help="Report file (TOML, docs/report.md); default: the CA-Fed population."
        ),
    ] = None,
    out: Annotated[
        Path,
        typer.Option(
            "--out", help="Output directory (created with its parents; locked while written)."
        ),
    ] = DEFAULT_OUT,
    overwrite: Annotated[
        bool, typer.Option(help="Replace the report in --out (only the files it lists).")
    ] = False,
    quick: Annotated[
        bool, typer.Option("--quick", help="Shorter simulations (under a minute on 2 cores).")
    ] = False,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open report.html in a web browser when done.")
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Everything fltheory knows about one setting, as a readable, checked report."""
    from fltheory.report.config import load_report_config
    from fltheory.report.run import make_report

    cfg = load_report_config(config)
    inputs = () if config is None else (config,)
    result = make_report(cfg, out, quick=quick, overwrite=overwrite, inputs=inputs)
    html_path = result["paths"]["html"].resolve()
    if json_out:
        emit_json(
            {
                "paths": {k: str(p.resolve()) for k, p in result["paths"].items()},
                "seconds": result["seconds"],
                "summary": result["summary"],
            }
        )
    else:
        for line in result["summary"]:
            typer.echo(f"  {line}")
        typer.echo(f"report written in {result['seconds']:.0f} s: {html_path}")
    if open_browser:
        webbrowser.open(html_path.as_uri())
