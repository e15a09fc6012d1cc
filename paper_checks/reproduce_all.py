"""Every registered experiment × setup: smoke runs, full runs, and the record built from them.

Quick mode is a smoke test: ``python paper_checks/reproduce_all.py`` runs every runnable
(ID, setup) in quick mode and writes ``smoke_results.{json,md}`` (outcomes ``smoke: direction
agrees / disagrees / inconclusive``) into ``--out`` (default ``results/smoke``), rewritten after
every run (a killed run keeps the rows it finished). Those never enter the record.

The record is full size (:mod:`fltheory.experiments.record`):

    python paper_checks/reproduce_all.py --full --runs DIR [--ids ...] [--setups ...]
        runs each missing full-size (ID, setup) into DIR/<id>__<setup>/ (one at a time; a
        complete folder is kept), then stores them as --store does;
    python paper_checks/reproduce_all.py --store RUN_DIR ...
        copies the compact record (verdict.json + manifest.json, unchanged, checksum checked) of
        every complete full run under RUN_DIR into --records (default docs/full/runs), then
        regenerates the record;
    python paper_checks/reproduce_all.py --collect [RECORDS]
        regenerates docs/reproduce_results.{json,md} (--out) from the run records (default
        docs/full/runs) and the registry, running nothing.
"""

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

# The repository root goes on the path first, so this runs as `python DIR/script.py`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.atomic import write_atomic
from fltheory.jsonable import to_jsonable

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "docs" / "full" / "runs"
RECORD_OUT = ROOT / "docs"
SMOKE_OUT = ROOT / "results" / "smoke"


def write_smoke(out: Path, rows: list[dict[str, Any]]) -> None:
    """``smoke_results.json`` and ``.md`` in ``out`` (created), each written atomically."""
    from fltheory.experiments.record import render_smoke

    out.mkdir(parents=True, exist_ok=True)
    write_atomic(out / "smoke_results.json", json.dumps(to_jsonable({"smoke": rows}), indent=1))
    title = "# Smoke runs (quick mode: reduced sizes, direction only; not the record)\n\n"
    write_atomic(out / "smoke_results.md", title + render_smoke(rows) + "\n")


def collect(records: Path, out: Path) -> list[dict[str, Any]]:
    """Regenerate the record (``reproduce_results.{json,md}`` in ``out``) from ``records``."""
    from fltheory.experiments.model import all_experiments
    from fltheory.experiments.record import load_records, record_page, record_rows

    rows = record_rows(load_records(records), all_experiments())
    out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(to_jsonable({"record": rows}), indent=1, ensure_ascii=False) + "\n"
    write_atomic(out / "reproduce_results.json", text)
    write_atomic(out / "reproduce_results.md", record_page(rows))
    return rows


def store(run_dirs: list[Path], records: Path) -> list[Path]:
    """Store every complete full run found under ``run_dirs`` (folders holding a manifest
    whose verdict is a full run); unfinished or quick results are reported and skipped."""
    from fltheory.errors import InputError
    from fltheory.experiments.record import store_run

    stored = []
    for base in run_dirs:
        for manifest in sorted(base.rglob("manifest.json")):
            if not (manifest.parent / "verdict.json").is_file():
                continue
            try:
                stored.append(store_run(manifest.parent, records))
            except InputError as exc:
                print(f"skipped: {exc}", file=sys.stderr)
    return stored


def todo(mode: str, ids: list[str] | None, setups: list[str] | None) -> list[tuple[str, str]]:
    """The (ID, setup) pairs that can run in ``mode`` here (their data present)."""
    from fltheory.experiments.data_sources import data_status
    from fltheory.experiments.model import all_experiments

    return [
        (e.id, name)
        for e in all_experiments()
        if not ids or e.id in ids
        for name, spec in e.setups.items()
        if (not setups or name in setups)
        and not e.missing(name, mode)
        and data_status(spec.datasets) is None
    ]


def run_smoke(pairs: list[tuple[str, str]], out: Path) -> None:
    from fltheory.errors import FLTheoryError
    from fltheory.experiments.record import summary_row
    from fltheory.experiments.runner import run_experiment

    rows: list[dict[str, Any]] = []
    for i, (experiment_id, setup) in enumerate(pairs, 1):
        print(f"[{i}/{len(pairs)}] {experiment_id} --setup {setup} --quick", file=sys.stderr)
        start = time.perf_counter()
        try:
            rows.append(summary_row(run_experiment(experiment_id, setup=setup).record))
        except FLTheoryError as exc:
            seconds = round(time.perf_counter() - start, 1)
            rows.append({"id": experiment_id, "setup": setup, "mode": "quick",
                         "seconds": seconds, "verdict": f"error: {exc}"})  # fmt: skip
        print(f"    {rows[-1]['verdict']} ({rows[-1]['seconds']} s)", file=sys.stderr)
        write_smoke(out, rows)
    write_smoke(out, rows)


def run_full(pairs: list[tuple[str, str]], runs: Path) -> None:
    """Each pair's full run into ``runs/<id>__<setup>/`` through a result folder (as
    ``fltheory reproduce --full --resume --overwrite --out``): a complete result of the same
    run is kept, anything else of the run's own files replaced; the grid-search cache stays,
    and is read (not written) for the folder's identity before the folder is locked."""
    from fltheory.experiments.grid import CACHE_DIR, caching, remembering
    from fltheory.experiments.record import record_name
    from fltheory.experiments.runner import reproduction_identity

    for i, (experiment_id, setup) in enumerate(pairs, 1):
        target = runs / record_name(experiment_id, setup)
        with remembering():
            with caching(target / CACHE_DIR, readonly=True):
                identity = reproduction_identity(
                    experiment_id, setup=setup, mode="full", seeds=None
                )
            _run_pair(experiment_id, setup, target, identity, f"[{i}/{len(pairs)}]")


def _run_pair(
    experiment_id: str, setup: str, target: Path, identity: dict[str, Any], step: str
) -> None:
    """One pair of :func:`run_full` into ``target``, whose run ``identity`` describes."""
    from fltheory.experiments.grid import CACHE_DIR
    from fltheory.experiments.model import get
    from fltheory.experiments.plots import panel_png
    from fltheory.experiments.runner import owned_files, run_experiment, write_reproduction
    from fltheory.provenance import provenance
    from fltheory.resultdir import ResultFolder

    owned = owned_files(get(experiment_id))
    with ResultFolder(
        target, owned=owned, keep=(CACHE_DIR,), resume=True, overwrite=True
    ) as folder:
        if folder.keep_or_clear(identity):
            return
        print(f"{step} {experiment_id} --setup {setup} --full", file=sys.stderr)
        folder.begin(provenance(**identity))
        rep = run_experiment(experiment_id, setup=setup, mode="full", cache_dir=target / CACHE_DIR)
        write_reproduction(rep, folder, draw=panel_png)
    print(f"    {rep.record['verdict']} ({rep.record['cpu_seconds']} CPU s)", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="full runs into --runs, then store")
    parser.add_argument("--runs", type=Path, help="--full: folder of the full runs' results")
    parser.add_argument("--ids", nargs="*")
    parser.add_argument("--setups", nargs="*")
    parser.add_argument("--out", type=Path, help="tables' folder (record: docs; smoke: results)")
    parser.add_argument("--records", type=Path, default=RECORDS, help="the run records")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--store", nargs="+", type=Path, metavar="RUN_DIR")
    action.add_argument("--collect", nargs="?", type=Path, const=RECORDS, metavar="RECORDS")
    args = parser.parse_args(argv)
    if args.collect is not None:
        collect(args.collect, args.out or RECORD_OUT)
        return 0
    if args.store:
        for path in store(args.store, args.records):
            print(f"stored {path}", file=sys.stderr)
        collect(args.records, args.out or RECORD_OUT)
        return 0
    if args.full:
        if args.runs is None:
            parser.error("--full needs --runs DIR (where the full results go)")
        run_full(todo("full", args.ids, args.setups), args.runs)
        store([args.runs], args.records)
        collect(args.records, args.out or RECORD_OUT)
        return 0
    run_smoke(todo("quick", args.ids, args.setups), args.out or SMOKE_OUT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
