"""``fltheory reproduce``: list the papers' experiments, or run one and judge it over seeds."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from fltheory.cli.output import Col, console, emit_json, print_table
from fltheory.cli.progress import progress_bar
from fltheory.errors import InputError

if TYPE_CHECKING:
    from fltheory.resultdir import ResultFolder


def _listing() -> list[dict[str, Any]]:
    from fltheory.experiments.model import SETUPS, all_experiments, module_of

    rows = []
    # The paper's own order: the journal's IDs, then the conference's.
    for e in sorted(all_experiments(), key=lambda e: (e.id.startswith("cafed-infocom"), e.id)):
        rows.append(
            {
                "id": e.id,
                "title": e.title,
                "source": e.source_record(),
                "setups": {s: e.status(s) for s in (*SETUPS, *e.setups) if s in e.setups},
                "requires": {s: list(e.setups[s].requires) for s in e.setups},
                "numbers": len(e.numbers),
                "lost_numbers": sum(n.value is None for n in e.numbers),
                "claims": len(e.claims),
                "module": module_of(e.id),
            }
        )
    return rows


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_fmt(v)}" for k, v in value.items())
    return str(value)


def _short(status: str, keep: int = 2) -> str:
    """``needs: a, b, c, d`` → ``needs: a, b (+2)``, ``needs data: cifar10: no ...`` →
    ``needs data: cifar10 (--data-dir)`` (the full text is in --json)."""
    if status.startswith("needs data: "):
        return status.split(":")[0] + ": " + status.split(":")[1].strip() + " (--data-dir)"
    if not status.startswith("needs: "):
        return status
    parts = status.removeprefix("needs: ").split(", ")
    more = f" (+{len(parts) - keep})" if len(parts) > keep else ""
    return "needs: " + ", ".join(parts[:keep]) + more


def _print_listing(rows: list[dict[str, Any]]) -> None:
    print_table(
        console(),
        "experiments (fltheory reproduce ID --setup S [--quick|--full])",
        [
            Col("id", atomic=True),
            Col("figure"),
            Col("setup paper"),
            Col("setup authors"),
            Col("other setups"),
            Col("in fltheory/experiments/", atomic=True),
        ],
        [
            (
                r["id"],
                r["source"]["figure"],
                _short(r["setups"].get("paper", "—")),
                _short(r["setups"].get("authors", "—")),
                "; ".join(
                    f"{name}: {_short(status)}"
                    for name, status in r["setups"].items()
                    if name not in ("paper", "authors")
                ),
                "—"
                if r["module"] is None
                else r["module"].removeprefix("fltheory.experiments.").replace(".", "/") + ".py",
            )
            for r in rows
        ],
    )


def _print_verdict(record: dict[str, Any], out: Path) -> None:
    from fltheory.experiments.runner import SMOKE_NOTE

    smoke = record["mode"] == "quick"
    title = (
        f"{record['id']} --setup {record['setup']} --{record['mode']}: "
        f"{record['verdict'] if smoke else record['verdict'].upper()} ({record['data']}; "
        f"{record['seeds']} seeds, {record['seconds']} s)"
    )
    rows = []
    for c in record["checks"]:
        ci = "" if c["ci"] is None else f"[{c['ci'][0]:.4g}, {c['ci'][1]:.4g}]"
        holds = "contrary" if c["opposite"] else {True: "yes", False: "no", None: "—"}[c["holds"]]
        rows.append((c["claim"], _fmt(c["paper"]), _fmt(c["measured"]), ci, holds, c["role"]))
    out_console = console()
    print_table(
        out_console,
        title,
        [
            Col("claim"),
            Col("paper"),
            Col("measured"),
            Col("CI"),
            Col("holds"),
            Col("role"),
        ],
        rows,
    )
    if smoke:
        out_console.print(SMOKE_NOTE)
    out_console.print(f"results written to {out}")


def _default_out(experiment_id: str, setup: str, mode: str) -> Path:
    """results/reproduce/<id>/<setup>-<mode> (created with its parents when the run starts)."""
    return Path("results") / "reproduce" / experiment_id.replace(":", "_") / f"{setup}-{mode}"


def _kept(folder: "ResultFolder", json_out: bool) -> None:
    """Print the verdict of the complete result ``--resume`` keeps (checked: its checksums,
    config hash and version matched; a verdict.json that is not one is refused)."""
    from fltheory.experiments.runner import VERDICT_FILE

    record = folder.stored(VERDICT_FILE)
    manifest = folder.manifest or {"files": []}
    files = [str(folder.path / e["name"]) for e in manifest["files"]]
    try:
        if json_out:
            emit_json({**record, "files": files})
        else:
            _print_verdict(record, folder.path)
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        raise folder.garbage(VERDICT_FILE, exc) from None


def reproduce_command(
    experiment_id: Annotated[
        str | None, typer.Argument(metavar="ID", help="Experiment ID, e.g. cafed:fig1a.")
    ] = None,
    list_: Annotated[bool, typer.Option("--list", help="List the experiments.")] = False,
    quick: Annotated[
        bool, typer.Option("--quick/--full", help="Reduced size for CI, or the paper's size.")
    ] = True,
    setup: Annotated[str, typer.Option(help="paper or authors.")] = "paper",
    seeds: Annotated[int | None, typer.Option(help="Seeds (default: the mode's).")] = None,
    device: Annotated[str, typer.Option(help="auto, cpu or cuda.")] = "cpu",
    out: Annotated[
        Path | None,
        typer.Option(help="Result folder (default results/reproduce/<id>/<setup>-<mode>)."),
    ] = None,
    overwrite: Annotated[
        bool, typer.Option(help="Replace the result in --out (keeps its grid-search cache).")
    ] = False,
    resume: Annotated[
        bool,
        typer.Option(
            help="Continue the unfinished run in --out (its cached grid searches are reused), or "
            "keep its complete result once its config hash, version and checksums match."
        ),
    ] = False,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            help="Folder with the data set's files (MNIST IDX, cifar-10-batches-py, SVHN .mat); "
            "without it Fashion-MNIST stands in for MNIST."
        ),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")] = False,
) -> None:
    """Reproduce a paper's experiment and judge it statistically over seeds."""
    from fltheory.experiments.model import get

    if list_:
        if experiment_id is not None:
            raise InputError("give either --list or an experiment ID, not both")
        rows = _listing()
        if json_out:
            emit_json({"experiments": rows})
        else:
            _print_listing(rows)
        return
    if experiment_id is None:
        raise InputError("give an experiment ID (see fltheory reproduce --list)")
    from fltheory.experiments.grid import CACHE_DIR, STORE_FILE, caching, remembering
    from fltheory.experiments.runner import owned_files, preflight, reproduction_identity
    from fltheory.provenance import provenance
    from fltheory.resultdir import ResultFolder

    mode = "quick" if quick else "full"
    experiment = get(experiment_id)
    target = out if out is not None else _default_out(experiment.id, setup, mode)
    # A grid setup's config is its search's outcome: preflight, the folder's identity and
    # the run share each point's scores (scored once, stored in the folder's cache by the
    # run). Before the folder is locked its cache is only read — or added to where an earlier
    # run made it (rows keyed by their config's hash, sqlite serialising writers), so a long
    # search interrupted there is resumed.
    cache = target / CACHE_DIR
    with remembering():
        with caching(cache, device, readonly=not _own_store(cache / STORE_FILE)):
            preflight(experiment.id, setup=setup, mode=mode, seeds=seeds, data_dir=data_dir)
            identity = reproduction_identity(
                experiment.id, setup=setup, mode=mode, seeds=seeds, data_dir=data_dir
            )
        with ResultFolder(
            target,
            owned=owned_files(experiment),
            keep=(CACHE_DIR,),
            overwrite=overwrite,
            resume=resume,
            inputs=() if data_dir is None else (data_dir,),
        ) as folder:
            if folder.keep_or_clear(identity):
                _kept(folder, json_out)
                return
            # Unfinished until the verdict is committed: a crash leaves a run --resume continues,
            # reusing the grid searches cached so far (a cleared folder keeps them too).
            folder.begin(provenance(**identity))
            _run(folder, experiment.id, setup, mode, seeds, device, data_dir, json_out)


def _own_store(path: Path) -> bool:
    """Whether ``path`` is a grid store an earlier run left in its result folder: a regular
    file, neither it nor its folder a link (never written through to somewhere else)."""
    return not path.parent.is_symlink() and not path.is_symlink() and path.is_file()


def _run(
    folder: "ResultFolder",
    experiment_id: str,
    setup: str,
    mode: str,
    seeds: int | None,
    device: str,
    data_dir: Path | None,
    json_out: bool,
) -> None:
    """Run the experiment into the opened ``folder``, print its verdict."""
    from fltheory.experiments.grid import CACHE_DIR
    from fltheory.experiments.plots import panel_png
    from fltheory.experiments.runner import run_experiment, write_reproduction

    cache = folder.path / CACHE_DIR
    with progress_bar(enabled=not json_out) as rows:
        rep = run_experiment(
            experiment_id,
            setup=setup,
            mode=mode,
            seeds=seeds,
            device=device,
            progress=None if rows is None else rows.advance,
            cache_dir=cache,
            data_dir=data_dir,
        )
    files = write_reproduction(rep, folder, draw=panel_png)
    if json_out:
        emit_json({**rep.record, "files": [str(p) for p in files]})
    else:
        _print_verdict(rep.record, folder.path)
