"""``fltheory chain``: λ(P), C_P, T_P and friends for an availability chain."""

from pathlib import Path
from typing import Annotated, Any

import typer

from fltheory.api.chain import ChainReport, chain_report
from fltheory.cli.output import Col, console, emit_json, print_table, warn
from fltheory.errors import InputError
from fltheory.markov.protocol import AvailabilityChain

PRESETS = ("ca-fed",)


def _chain_from_options(
    clients: list[str],
    clients_file: Path | None,
    matrix: Path | None,
    states: Path | None,
    preset: str | None,
    population: dict[str, Any],
    exact: bool,
    config: Path | None = None,
) -> AvailabilityChain:
    """Build the chain object named by exactly one of the source options."""
    from fltheory.markov.io import load_chain, parse_client_spec

    sources = [
        name
        for name, given in (
            ("--client", bool(clients)),
            ("--clients-file", clients_file is not None),
            ("--matrix", matrix is not None),
            ("--preset", preset is not None),
            ("--config", config is not None),
        )
        if given
    ]
    if len(sources) != 1:
        named = ", ".join(sources) if sources else "none"
        raise InputError(
            "give exactly one chain source: --client, --clients-file, --matrix, --preset or "
            f"--config (got {named})"
        )
    if config is not None:
        if states is not None:
            raise InputError("--states only applies to --matrix")
        if exact:
            raise InputError("--exact applies to --matrix chains")
        from fltheory.api.availability import as_chain

        return as_chain(config)
    if states is not None and matrix is None:
        raise InputError("--states only applies to --matrix")
    if exact and matrix is None:
        raise InputError("--exact applies to --matrix chains (two-state chains are closed-form)")
    if matrix is not None:
        return load_chain(matrix, states, exact=exact)

    from fltheory.markov.product import ProductChain

    if preset is not None:
        if preset not in PRESETS:
            raise InputError(f"unknown preset '{preset}' (choose from: {', '.join(PRESETS)})")
        from fltheory.markov.population import ca_fed_population

        return ca_fed_population(**population).chain()
    if clients_file is not None:
        from fltheory.markov.population import load_clients_csv

        pi, lambda2 = load_clients_csv(clients_file)
        return ProductChain(pi, lambda2)
    pairs = [parse_client_spec(c) for c in clients]
    return ProductChain([p for p, _ in pairs], [lam for _, lam in pairs])


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _print_report(report: ChainReport) -> None:
    n_states: Any = report.n_states
    if n_states is None:
        n_states = f"e^{report.log_n_states:.6g}"
    rows = [
        ("method", report.method, "exact (sympy), dense (numpy) or structured"),
        ("clients N", report.n_clients, "number of clients"),
        ("states M", n_states, "joint availability states (2^N for two-state clients)"),
        ("slem λ̄₂(P)", report.slem, "second largest eigenvalue modulus (eq. 229)"),
        ("λ(P)", report.lam, "geometric mixing rate (λ̄₂ + 1)/2 (eq. 229)"),
        ("relaxation time", report.relaxation_time, "1/(1 − λ̄₂), rounds"),
        ("C_P", report.C_P, "Lemma 16 constant: eq. 156, optimally block-scaled U"),
        ("ln C_P", report.log_C_P, "natural log of C_P"),
        ("T_P", report.T_P, "Lemma 16 burn-in: rounds before the bound holds (eq. 157)"),
        ("T_P safe", report.T_P_safe, "burn-in of eq. 157 with ln(2nᵢ/(r·λ̄₂))"),
    ]
    if report.dense:
        empirical = None if report.empirical is None else report.empirical.value
        rows += [
            ("T entrywise", report.T_entrywise, "exact start of the proof's entrywise bound"),
            ("empirical C_P", empirical, "sup_{t≥T_P} E(t)/λ(P)ᵗ"),
        ]
    else:
        rows.append(
            (
                "hitting time",
                report.hitting_time,
                "hitting-time scale, rounds: max_k 1/((1 − λ_k) π_k), Sec. V-B(d)",
            )
        )
    bounds = report.mixing_time_bounds
    rows.append(
        (
            "t_mix(ε) bounds",
            f"[{_fmt(bounds.lower)}, {_fmt(bounds.upper)}]",
            f"mixing time to within ε = {bounds.eps} in total variation, rounds",
        )
    )
    out = console()
    print_table(
        out,
        "Availability chain (CA-Fed ToN, Lemma 16 / Appendix F)",
        [Col("quantity"), Col("value", numeric=True), Col("meaning")],
        [(label, _fmt(value), note) for label, value, note in rows],
    )
    pis = report.client_availability
    if pis is not None and len(pis) > 0:
        out.print(
            f"client availability π_k: min {min(pis):.4g}, max {max(pis):.4g}, "
            f"mean {sum(pis) / len(pis):.4g} over {len(pis)} clients"
        )
    for message in report.warnings:
        warn(message)


def chain_command(
    client: Annotated[
        list[str] | None,
        typer.Option("--client", help="A two-state client as PI:LAMBDA2 (repeatable)."),
    ] = None,
    clients_file: Annotated[
        Path | None,
        typer.Option(
            help="CSV with columns pi, lambda2 and optionally count, name (a row: a client, or "
            "count clients)."
        ),
    ] = None,
    matrix: Annotated[
        Path | None, typer.Option(help="Transition matrix (.csv, .npy or .json).")
    ] = None,
    states: Annotated[
        Path | None, typer.Option(help="State→clients map for --matrix (.csv/.npy 0/1, .json).")
    ] = None,
    preset: Annotated[str | None, typer.Option(help="Named population: ca-fed.")] = None,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help="A TOML file with an \\[availability] table (a simulation config, a problem "
            "or report file) or whose top level is one (docs/plugins.md).",
        ),
    ] = None,
    n: Annotated[int, typer.Option(help="Preset: number of clients N.")] = 100,
    g: Annotated[float, typer.Option(help="Preset: availability gap, π = ½ ± g.")] = 0.4,
    nu: Annotated[float, typer.Option(help="Preset: λ₂ of correlated clients.")] = 0.9,
    eps: Annotated[float, typer.Option(help="Preset: std of λ₂ of weakly correlated.")] = 1e-2,
    seed: Annotated[int, typer.Option(help="Preset: seed for the λ₂ draws and split.")] = 0,
    split: Annotated[str, typer.Option(help="Preset: 'blocks' or 'random'.")] = "blocks",
    exact: Annotated[bool, typer.Option(help="Force the exact (sympy) Jordan path.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Spectral constants of an availability chain: λ̄₂, λ(P), C_P, T_P (Lemma 16)."""
    population = {"n": n, "g": g, "nu": nu, "eps": eps, "seed": seed, "split": split}
    chain = _chain_from_options(
        client or [], clients_file, matrix, states, preset, population, exact, config
    )
    report = chain_report(chain, exact=True if exact else None)
    if json_out:
        emit_json(report.to_dict())
    else:
        _print_report(report)
