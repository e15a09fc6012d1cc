"""``fltheory optimize-q``: optimal aggregation weights for a problem file (problems 14, 212).

Problem 212 minimises ε̄_opt of Theorem 2 (eq. 13) over q ≥ 0, ‖q‖₁ = Q (closed form,
Appendix E); problem 14 minimises ε̄_opt + κ̄²·ε̄_bias with ε̄_bias = Γ·χ²(α‖p) (eq. 11).
κ̄² is ``--kappa2`` when given, else the file's ``[optimize] kappa2`` (a list there is solved as
a sweep), else :data:`fltheory.optimize.DEFAULT_KAPPA2` = 1 (eq. 14 as printed). The numbers
are :func:`fltheory.optimal_weights`'s (:mod:`fltheory.api.weights`); this module prints them.
"""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from fltheory.cli.app import app
from fltheory.cli.output import console, emit_json, warn
from fltheory.optimize import DEFAULT_KAPPA2

if TYPE_CHECKING:
    from fltheory.api.weights import WeightsReport


def _print(report: "WeightsReport") -> None:
    res, setup = report.result, report.setup
    table = Table(title=f"optimal aggregation weights, problem {res.problem} ({setup.source})")
    for col in ("client", "pi", "alpha", "q*", "p*", "config q"):
        table.add_column(col, justify="right")
    excluded = set(res.excluded)
    for k in range(setup.n_clients):
        mark = " (excluded)" if k in excluded else ""
        table.add_row(
            f"{k}{mark}",
            f"{setup.pi[k]:.4g}",
            f"{setup.alpha[k]:.4g}",
            f"{res.q[k]:.6g}",
            f"{res.p[k]:.6g}",
            f"{setup.q[k]:.6g}",
        )
    con = console()
    con.print(table)
    con.print(f"objective {res.objective:.8g} = {report.objective_meaning}", markup=False)
    con.print(f"objective at the file's q: {report.objective_at_config_q[0]:.8g}")
    con.print(
        f"status {res.status}, solver {res.solver}, "
        f"KKT residual {res.kkt_residual:.2e}, {len(excluded)} client(s) excluded"
    )
    for k2, other in zip(report.kappa2[1:], report.results[1:], strict=True):
        con.print(
            f"kappa2 = {k2:g}: objective {other.objective:.8g}, {len(other.excluded)} excluded"
        )
    if res.status != "optimal":
        warn(f"solver status {res.status}; the answer passed the KKT check")


@app.command("optimize-q")
def optimize_q_command(
    config: Annotated[Path, typer.Option("--config", help="Problem file (TOML).")],
    problem: Annotated[str, typer.Option("--problem", help="14 or 212.")] = "14",
    kappa2: Annotated[
        float | None,
        typer.Option(
            "--kappa2",
            help="Weight κ̄² of the bias term in problem 14. Without it, the problem file's "
            "\\[optimize] kappa2 runs (a list: one solve per value); without both, "
            f"κ̄² = {DEFAULT_KAPPA2:g} (eq. 14 as printed).",
        ),
    ] = None,
    method: Annotated[
        str | None,
        typer.Option("--method", help="Problem 212 solver: closed-form (default) or cvxpy."),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Optimal aggregation weights q* (CA-Fed problems 14 and 212)."""
    from fltheory.api.weights import optimal_weights

    report = optimal_weights(config, problem=problem, kappa2=kappa2, method=method)
    if json_out:
        emit_json(report.to_dict())
    else:
        _print(report)
