"""``fltheory bound``: Theorems 1–3 of CA-Fed (ToN) evaluated for a problem file."""

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from fltheory.cli.output import Col, console, emit_json, print_table, warn

if TYPE_CHECKING:
    from fltheory.api.bounds import BoundReport


def _num(value: float | None, log_value: float | None = None) -> str:
    if value is None:
        return "—"
    if math.isinf(value) and log_value is not None and math.isfinite(log_value):
        return f"e^{log_value:.6g}"
    return f"{value:.6g}"


#: Plain-words names beside the equation labels of eq. 13's terms (Theorem 2).
TERM_NAMES = {
    "fraction": "(½qᵀΣq + υ)/πᵀq: noise and start, over participation",
    "quad_form": "½qᵀΣq: stochastic-gradient noise",
    "v": "υ = v_diam + v_markov",
    "v_diam": "2·diam(W)²/E: distance from the start",
    "v_markov": "M·(Q/4)·S₃: grows with the number of chain states M",
    "psi": "ψ = psi_gamma + psi_grad + psi_burnin",
    "psi_gamma": "4L(1+EQ)ΓΣηₜ²: client heterogeneity Γ",
    "psi_grad": "2E²G²Σηₜ²: gradient bound G",
    "psi_burnin": "HΣ_{t<T_P}ηₜ: rounds before mixing (T_P)",
    "phi_over_log": "φ/ln(1/λ(P)): cost of correlated availability",
    "numerator": "numerator of eq. 13",
    "denominator": "Σ_{t≤T}ηₜ: sum of step sizes",
    "pi_q": "πᵀq: expected weight of the available clients",
    "log_inv_lambda": "ln(1/λ(P)): mixing speed",
}

#: Plain-words names of the bounds.
BOUND_NAMES = {
    "theorem1": "Thm 1 bias (eq. 11): distance of the biased optimum",
    "theorem2": "Thm 2 opt (eq. 13): optimisation error",
    "theorem3": "Thm 3 bias (eq. 15): tighter bias bound",
    "total": "Thm 1+2 total (eq. 10): error bound",
}


def _print(report: "BoundReport") -> None:
    out = console()
    results = report.results
    rows = []
    for key, res in results.items():
        holds = "—" if res.holds is None else ("yes" if res.holds else "NO")
        vacuous = "—" if res.vacuous is None else ("yes" if res.vacuous else "no")
        rows.append(
            (
                BOUND_NAMES[key],
                _num(res.value, res.log_value),
                f"{res.log_value:.6g}",
                _num(res.exact),
                holds,
                vacuous,
                _num(res.trivial),
            )
        )
    setup = report.setup
    print_table(
        out,
        f"CA-Fed bounds for {setup.source or 'the problem'}",
        [
            Col("bound"),
            Col("value", numeric=True),
            Col("ln value", numeric=True),
            Col("exact", numeric=True),
            Col("holds"),
            Col("vacuous"),
            Col("trivial bound", numeric=True),
        ],
        rows,
    )
    out.print(
        "vacuous: the bound exceeds the trivial bound max_W F − F*, what any point of W loses",
        markup=False,
    )
    if setup.q_default is not None:
        out.print(
            f"{setup.q_default}: the file gives no q, so p = α and the exact bias is 0 "
            "(add q = [...] to bound another rule)",
            markup=False,
        )
    thm2 = report.theorem2
    print_table(
        out,
        "Theorem 2 (eq. 13) terms, natural logs",
        [Col("term"), Col("ln value", numeric=True), Col("meaning")],
        [
            (name, f"{log_x:.6g}", TERM_NAMES.get(name, ""))
            for name, log_x in thm2.log_terms.items()
        ],
    )
    out.print(f"dominant term of eq. 13: {thm2.details.get('dominant_term')}")
    for key, res in results.items():
        for cond in res.conditions:
            warn(f"{key}: condition fails: {cond}")
        for message in res.warnings:
            warn(f"{key}: {message}")


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
