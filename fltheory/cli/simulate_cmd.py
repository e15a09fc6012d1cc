"""``fltheory simulate``: run a TOML-configured comparison on the vectorised simulator."""

from pathlib import Path
from typing import Annotated, Any

import typer

from fltheory.atomic import MANIFEST
from fltheory.cli.output import Col, console, emit_json, print_table
from fltheory.cli.progress import progress_bar
from fltheory.sim.outfiles import RESULT_FILES, THEORY_FILES


def _print_summary(summary: dict[str, Any], out_dir: Path | None) -> None:
    """One row per (algorithm, metric), so the table fits a terminal for any metric set."""
    title = (
        f"{summary['name']}: {summary['seeds']} seeds × {summary['rounds']} rounds, "
        f"{summary['clients']} clients ({summary['device']}, {summary['dtype']})"
    )
    columns = [
        Col("algorithm"),
        Col("metric"),
        Col("time avg", numeric=True),
        Col("final ± sd (seeds)", numeric=True),
        Col("included", numeric=True),
        Col("seconds", numeric=True),
    ]
    # Server-model metrics, then (FedPBC) the same metrics of the mean of the client models.
    base = ("objective", "accuracy", "distance")
    metrics = (*base, *(f"{m}_client_mean" for m in base))
    table_rows: list[tuple[str, ...]] = []
    sections: list[int] = []
    for label, entry in summary["algorithms"].items():
        rows = [
            (
                m.replace("_client_mean", " (client mean)"),
                f"{st['time_average']:.4g}",
                f"{st['final']:.4g} ± {st['final_std']:.2g}",
            )
            for m in metrics
            if (st := entry.get(m))
        ]
        acc = entry.get("client_accuracy")
        if acc:
            rows.append(
                ("client acc. mean / worst 10 %", "", f"{acc['mean']:.4g} / {acc['worst']:.4g}")
            )
        for i, row in enumerate(rows or [("—", "", "")]):
            first = i == 0
            table_rows.append(
                (
                    label if first else "",
                    *row,
                    f"{entry['inclusion_rate']:.3f}" if first else "",
                    f"{entry['seconds']:.2f}" if first else "",
                )
            )
        sections.append(len(table_rows) - 1)
    out = console()
    print_table(out, title, columns, table_rows, sections=sections)
    if out_dir is not None:
        out.print(f"results written to {out_dir}")


def _print_theory(theory: Any) -> None:
    """One row per model with a known limit, at the coordinate j where lim E[w_t] and w*
    differ most (bias: ‖lim − w*‖₂), then the algorithms without one."""
    columns = [
        Col("algorithm"),
        Col("verdict"),
        Col("limit", numeric=True),
        Col("simulated ± band", numeric=True),
        Col("w*", numeric=True),
        Col("bias", numeric=True),
        Col("j", numeric=True),
        Col("limit from", atomic=True),
    ]
    rows = []
    for c in theory.comparisons:
        a, j = c.agreement, c.coordinate
        rows.append(
            (
                c.key,
                a.verdict + (f": {a.note}" if a.note else ""),
                f"{c.exact.limit[j]:.5g}",
                f"{a.mean[j]:.5g} ± {a.half_width[j]:.2g}",
                f"{theory.optimum[j]:.5g}",
                f"{c.bias:.3g}",
                str(j),
                c.exact.function.rsplit(".", 1)[-1],
            )
        )
    out = console()
    if rows:
        print_table(out, f"Theory vs simulation: {theory.availability}", columns, rows)
    out.print(f"test: {theory.to_dict()['test']['name']}; burn-in {theory.burn_in_rule}",
              highlight=False)  # fmt: skip
    for u in theory.unknown:
        out.print(f"{u.label}: {u.status}: {u.reason}", highlight=False)


def _preflight(config: Path, seeds: int | None, memory_limit: str | None) -> None:
    """Refuse an unreadable config or an absurd size before torch is imported (seconds)."""
    from fltheory.config.files import load_toml
    from fltheory.sim.budget import check_config_size, check_required_tables

    raw = load_toml(config)
    check_required_tables(raw, str(config))
    overrides = {"seeds": seeds, "memory_limit": memory_limit}
    check_config_size({**raw, **{k: v for k, v in overrides.items() if v is not None}})


def simulate_command(
    config: Annotated[Path, typer.Option("--config", help="Comparison configuration (.toml).")],
    device: Annotated[
        str | None, typer.Option(help="auto, cpu or cuda (overrides the config).")
    ] = None,
    seeds: Annotated[
        int | None, typer.Option(help="Number of repetitions R (overrides the config).")
    ] = None,
    threads: Annotated[
        int | None, typer.Option(help="CPU threads for torch (0: torch's default; config: 1).")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Result directory (created with its parents; locked while written): summary.json, "
            "rounds.csv (+ rounds.schema.json), clients.npz, timing.json, manifest.json "
            "(written last); checkpoints while running."
        ),
    ] = None,
    overwrite: Annotated[
        bool,
        typer.Option(
            help="Replace the result (or unfinished run) held in --out (only the files it lists)."
        ),
    ] = False,
    resume: Annotated[
        bool,
        typer.Option(
            help="Continue the unfinished run in --out from its last checkpoint, or keep its "
            "complete result once its config hash, version and checksums match."
        ),
    ] = False,
    checkpoint_every: Annotated[
        int | None,
        typer.Option(
            help="Checkpoint every K rounds (0: never; default: adaptive, under 5 % overhead)."
        ),
    ] = None,
    memory_limit: Annotated[
        str | None,
        typer.Option(
            help="Memory the run may use, e.g. 4GiB (default: the available memory): a larger "
            "estimate is refused up front; chunks of (seed, client) local steps shrink to a 16th."
        ),
    ] = None,
    theory: Annotated[
        bool,
        typer.Option(
            help="Compare every algorithm with its exact limit lim E[w_t] (quadratic problems; "
            "Bernoulli or Markov availability): a verdict per algorithm, and with --out "
            "theory.json, theory.csv and the overlay plot theory.png."
        ),
    ] = False,
    burn_in: Annotated[
        int | None,
        typer.Option(
            help="With --theory: rounds left out of the time averages (default: from each "
            "limit's contraction rate)."
        ),
    ] = None,
    json_out: Annotated[
        bool,
        typer.Option("--json", help="Print the summary (with --theory: the comparison) as JSON."),
    ] = False,
) -> None:
    """Simulate FL algorithms under client availability (vectorised PyTorch engine)."""
    from fltheory.api.simulation import check_options

    check_options(  # the checks of the Python API, messages naming the flags
        seeds=seeds,
        device=device,
        threads=threads,
        memory_limit=memory_limit,
        out=out,
        overwrite=overwrite,
        resume=resume,
        checkpoint_every=checkpoint_every,
        theory=theory,
        burn_in=burn_in,
        flags=True,
    )
    _preflight(config, seeds, memory_limit)
    if out is not None:  # refuse a bad --out before any work (and before importing torch)
        from fltheory.atomic import check_result_dir
        from fltheory.sim.outfiles import OWNED

        check_result_dir(out, overwrite=overwrite, resume=resume, owned=OWNED, inputs=(config,))
    from fltheory.api.simulation import simulate

    options: dict[str, Any] = {"seeds": seeds, "device": device, "threads": threads, "out": out}
    options["memory_limit"] = memory_limit
    options.update(overwrite=overwrite, resume=resume, checkpoint_every=checkpoint_every)
    options.update(theory=theory, burn_in=burn_in)
    with progress_bar(enabled=not json_out) as rows:
        report = simulate(config, progress=None if rows is None else rows.advance, **options)
    summary = report.to_dict()
    names = (*RESULT_FILES, *(THEORY_FILES if theory else ()), MANIFEST)
    files = [str(out / name) for name in names] if out is not None else None
    if files is not None:
        summary["files"] = files
    if json_out and report.theory is not None:
        emit_json({**report.theory.to_dict(), **({"files": files} if files else {})})
    elif json_out:
        emit_json(summary)
    else:
        _print_summary(summary, out)
        if report.theory is not None:
            _print_theory(report.theory)
