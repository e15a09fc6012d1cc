"""``fltheory sweep``: run a grid of simulation configs × seeds into a resumable SQLite store;
``fltheory sweep export STORE --format csv|parquet --out FILE``: the store as one table."""

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from fltheory.cli.output import emit_json
from fltheory.errors import InputError

if TYPE_CHECKING:
    from fltheory.sweep.run import SweepReport
    from fltheory.sweep.spec import Sweep

EXPORT = "export"


def _export(store: Path | None, fmt: str | None, out: Path | None, json_out: bool) -> None:
    from fltheory.sweep.export import export

    if store is None or fmt is None or out is None:
        raise InputError("usage: fltheory sweep export STORE --format csv|parquet --out FILE")
    rows = export(store, fmt, out)
    if json_out:
        emit_json({"rows": rows, "out": str(out), "format": fmt})
    else:
        sys.stdout.write(f"{rows} runs written to {out}\n")


def sweep_command(
    target: Annotated[
        str, typer.Argument(help="The sweep file (.toml), or 'export' to export a store.")
    ],
    exported: Annotated[
        Path | None, typer.Argument(help="With 'export': the results store to export.")
    ] = None,
    store: Annotated[
        Path | None,
        typer.Option(help="SQLite results store (created with its parents, or resumed)."),
    ] = None,
    executor: Annotated[str, typer.Option(help="local (processes) or ray.")] = "local",
    workers: Annotated[int, typer.Option(help="Runs at a time (local processes or Ray CPUs).")] = 1,
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address ('auto': the running cluster).")
    ] = None,
    fmt: Annotated[
        str | None, typer.Option("--format", help="With 'export': csv or parquet.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="With 'export': the file to write (never the store, a folder or a device)."
        ),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
) -> None:
    """Run a sweep (base config × axes × seeds); each finished run is stored at once, so a
    restart skips them. `fltheory sweep export STORE --format csv --out runs.csv` exports."""
    if target == EXPORT:
        if store is not None or executor != "local" or workers != 1 or address is not None:
            raise InputError("--store, --executor, --workers and --address run a sweep, not export")
        _export(exported, fmt, out, json_out)
        return
    if exported is not None or fmt is not None or out is not None:
        raise InputError("a second argument, --format and --out are for 'fltheory sweep export'")
    if store is None:
        raise InputError("missing option --store (the SQLite results store)")
    if workers < 1:
        raise InputError(f"--workers must be >= 1, got {workers}")
    if executor not in ("local", "ray"):
        raise InputError(f"unknown executor '{executor}'; choose local or ray")
    from fltheory.sweep.spec import load_sweep

    sweep = load_sweep(target)
    from fltheory.resultdir import make_parents

    make_parents(store, "--store")  # `--store results/sweep.db` on a fresh clone
    report = _run(sweep, store, executor, workers, address)
    if json_out:
        emit_json(report.to_dict())
    else:
        sys.stdout.write(
            f"{report.runs_total} runs: {report.runs_done} done now, {report.runs_skipped} "
            f"already in {report.store}\n"
        )


def _run(
    sweep: "Sweep", store: Path, executor: str, workers: int, address: str | None
) -> "SweepReport":
    """Run the sweep with one progress bar on stderr (runs done / total, ETA) when stderr is a
    terminal; logs and pipes get no bar."""
    from functools import partial

    from fltheory.cli.progress import progress_bar
    from fltheory.sweep.run import run_sweep

    with progress_bar(eta=True) as rows:
        # runs found in the store start the row (and do not speed up the ETA)
        advance = None if rows is None else partial(rows.advance, "runs")
        return run_sweep(
            sweep, store, executor=executor, workers=workers, address=address, progress=advance
        )
