"""``fltheory bound``: Theorems 1–3 of CA-Fed (ToN) evaluated for a problem file."""

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from fltheory.cli.app import app
from fltheory.cli.output import console, emit_json, warn

if TYPE_CHECKING:
    from fltheory.api.bounds import BoundReport


def _num(value: float | None, log_value: float | None = None) -> str:
    if value is None:
        return "—"
    if math.isinf(value) and log_value is not None and math.isfinite(log_value):
        return f"e^{log_value:.6g}"
    return f"{value:.6g}"


def _print(report: "BoundReport") -> None:
    out = console()
    results = report.results
    table = Table(title=f"CA-Fed bounds for {report.setup.source}")
    for col in ("bound", "equation", "value", "ln value", "exact", "holds", "vacuous"):
        table.add_column(col, justify="right" if col not in ("bound", "equation") else "left")
    labels = {
        "theorem1": "Thm 1 bias",
        "theorem2": "Thm 2 opt",
        "theorem3": "Thm 3 bias",
        "total": "Thm 1+2 total",
    }
    for key, res in results.items():
        holds = "—" if res.holds is None else ("yes" if res.holds else "NO")
        vacuous = "—" if res.vacuous is None else ("yes" if res.vacuous else "no")
        table.add_row(
            labels[key],
            res.equation,
            _num(res.value, res.log_value),
            f"{res.log_value:.6g}",
            _num(res.exact),
            holds,
            vacuous,
        )
    out.print(table)
    thm2 = report.theorem2
    terms = Table(title="Theorem 2 (eq. 13) terms, natural logs")
    terms.add_column("term")
    terms.add_column("ln value", justify="right")
    for name, log_x in thm2.log_terms.items():
        terms.add_row(name, f"{log_x:.6g}")
    out.print(terms)
    out.print(f"dominant term of eq. 13: {thm2.details.get('dominant_term')}")
    for key, res in results.items():
        for cond in res.conditions:
            warn(f"{key}: condition fails: {cond}")
        for message in res.warnings:
            warn(f"{key}: {message}")


@app.command("bound")
def bound_command(
    config: Annotated[Path, typer.Option("--config", help="Problem file (TOML).")],
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    safe_tp: Annotated[
        bool, typer.Option("--safe-tp", help="Use the chain's T_P_safe instead of T_P.")
    ] = False,
) -> None:
    """Bias (Theorems 1, 3) and optimisation-error (Theorem 2) bounds of CA-Fed."""
    from fltheory.api.bounds import bound_report

    report = bound_report(config, use_safe_T_P=safe_tp)
    if json_out:
        emit_json(report.to_dict())
    else:
        _print(report)
