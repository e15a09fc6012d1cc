"""``fltheory optimize-q``: optimal aggregation weights for a problem file (problems 14, 212).

Problem 212 minimises ε̄_opt of Theorem 2 (eq. 13) over q ≥ 0, ‖q‖₁ = Q (closed form,
Appendix E); problem 14 minimises ε̄_opt + κ̄²·ε̄_bias with ε̄_bias = Γ·χ²(α‖p) (eq. 11).
κ̄² is ``--kappa2`` when given, else the file's ``[optimize] kappa2`` (a list there is solved as
a sweep), else :data:`fltheory.optimize.DEFAULT_KAPPA2` = 1 (eq. 14 as printed). The numbers
are :func:`fltheory.optimal_weights`'s (:mod:`fltheory.api.weights`); this module prints them.
"""

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import numpy as np
import typer

from fltheory.cli.output import Col, console, emit_json, print_table, warn
from fltheory.optimize import DEFAULT_KAPPA2

if TYPE_CHECKING:
    from fltheory.api.weights import WeightsReport


def client_ranges(indices: list[int]) -> str:
    """Client indices written as ranges.

    >>> client_ranges([0, 1, 2, 5, 7, 8])
    '0–2, 5, 7–8'
    """
    spans: list[list[int]] = []
    for k in indices:
        if spans and k == spans[-1][1] + 1:
            spans[-1][1] = k
        else:
            spans.append([k, k])
    return ", ".join(f"{lo}" if lo == hi else f"{lo}–{hi}" for lo, hi in spans)


def client_groups(keys: Sequence[tuple[float, ...]]) -> list[list[int]]:
    """Clients with the same key (their inputs: π, α, the file's q, excluded or not), in order
    of first appearance.

    >>> client_groups([(0.9, 1.0), (0.1, 1.0), (0.9, 1.0)])
    [[0, 2], [1]]
    """
    groups: dict[tuple[float, ...], list[int]] = {}
    for k, key in enumerate(keys):
        groups.setdefault(key, []).append(k)
    return list(groups.values())


def _span(values: np.ndarray) -> str:
    low, high = f"{values.min():.6g}", f"{values.max():.6g}"
    return low if low == high else f"{low} to {high}"


def _print(report: "WeightsReport", all_clients: bool) -> None:
    res, setup = report.result, report.setup
    excluded = set(res.excluded)
    con = console()
    title = f"optimal aggregation weights, problem {res.problem} ({setup.source})"
    numbers = ("π (availability)", "α (importance)", "q* (optimal weight)", "p* (eff. share)")
    columns = [Col("clients"), *(Col(h, numeric=True) for h in numbers)]
    columns.append(Col("file's q", numeric=True))
    vectors = (setup.pi, setup.alpha, res.q, res.p, setup.q)
    names = list(setup.groups)
    group_of = np.full(setup.n_clients, -1)
    for i, mask in enumerate(setup.groups.values()):
        group_of[(group_of < 0) & np.asarray(mask, dtype=bool)] = i
    if all_clients:
        groups = [[k] for k in range(setup.n_clients)]
    else:
        keys: list[tuple[float, ...]] = [
            (float(setup.pi[k]), float(setup.alpha[k]), float(setup.q[k]), float(k in excluded))
            for k in range(setup.n_clients)
        ]
        if names:  # the availability table's named groups, split by exclusion
            keys = [(float(group_of[k]), float(k in excluded)) for k in range(setup.n_clients)]
        groups = client_groups(keys)
    rows = []
    for members in groups:
        mark = " (excluded)" if members[0] in excluded else ""
        named = f"{names[group_of[members[0]]]}: " if names and group_of[members[0]] >= 0 else ""
        label = named + client_ranges(members) + mark
        if len(members) > 1:
            label = f"{label} ({len(members)} clients)"
        rows.append((label, *(_span(v[members]) for v in vectors)))
    if not all_clients and len(groups) < setup.n_clients:
        title += f", {setup.n_clients} clients in {len(groups)} groups (--all: every client)"
    print_table(con, title, columns, rows)
    con.print(f"objective {res.objective:.8g} = {report.objective_meaning}", markup=False)
    con.print(f"objective at the file's q: {report.objective_at_config_q[0]:.8g}")
    if setup.q_default is not None:
        con.print(f"the file gives no q: {setup.q_default}", markup=False)
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
    all_clients: Annotated[
        bool,
        typer.Option(
            "--all", help="One row per client (default: one row per group of equal clients)."
        ),
    ] = False,
) -> None:
    """Optimal aggregation weights q* (CA-Fed problems 14 and 212)."""
    from fltheory.api.weights import optimal_weights

    report = optimal_weights(config, problem=problem, kappa2=kappa2, method=method)
    if json_out:
        emit_json(report.to_dict())
    else:
        _print(report, all_clients)
