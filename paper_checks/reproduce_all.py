"""Every registered experiment × runnable setup through ``fltheory reproduce``: a verdict table.

Writes ``docs/reproduce_results.json`` (per run: id, setup, mode, data set, verdict, seconds,
checks summary) and ``docs/reproduce_results.md`` (id, setup, verdict, the paper's headline
number beside ours, seconds), both rewritten after every run (a killed run keeps the rows it
finished). ``--collect DIR ...`` runs nothing: it builds the same table from the ``verdict.json``
files under those folders (results of ``fltheory reproduce ... --out DIR`` run elsewhere, e.g. the
full modes one at a time).

    python paper_checks/reproduce_all.py [--full] [--ids ID ...] [--setups S ...] [--out DIR]
    python paper_checks/reproduce_all.py --collect RESULTS_DIR ... [--out DIR]
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


def headline(record: dict[str, Any]) -> tuple[str, str]:
    """(the paper's first number, our first primary check's measured value) as text.

    >>> headline({"paper": {"numbers": [{"name": "gap", "value": 1.56, "unit": "pp"}]},
    ...           "checks": [{"role": "primary", "measured": -2.4, "claim": "gap > 0"}]})
    ('gap: 1.56 pp', '-2.4')
    """
    numbers = [n for n in record.get("paper", {}).get("numbers", []) if n.get("value") is not None]
    paper = (
        f"{numbers[0]['name']}: {numbers[0]['value']:g} {numbers[0]['unit']}".strip()
        if numbers
        else "—"
    )
    primary = [c for c in record.get("checks", []) if c.get("role") == "primary"]
    ours = "—"
    if primary:
        measured = primary[0]["measured"]
        ours = f"{measured:g}" if isinstance(measured, (int, float)) else str(measured)[:60]
    return paper, ours


def summary_row(record: dict[str, Any]) -> dict[str, Any]:
    """The JSON row of one verdict record."""
    checks = record.get("checks", [])
    primary = [c for c in checks if c.get("role") == "primary"]
    return {
        "id": record["id"],
        "setup": record["setup"],
        "mode": record["mode"],
        "data": record.get("data", ""),
        "verdict": record["verdict"],
        "seconds": record.get("seconds"),
        "checks": {
            "primary": len(primary),
            "holding": sum(1 for c in primary if c.get("holds")),
            "contrary": sum(1 for c in primary if c.get("opposite")),
        },
        "headline": dict(zip(("paper", "measured"), headline(record), strict=True)),
    }


def render_markdown(rows: list[dict[str, Any]]) -> str:
    """The Markdown table of ``rows`` (:func:`summary_row` output, or an error row).

    >>> print(render_markdown([{"id": "a:b", "setup": "paper", "verdict": "reproduced",
    ...     "headline": {"paper": "x: 1 pp", "measured": "1.2"}, "seconds": 3.0}]))
    | id | setup | verdict | paper | ours | seconds |
    |---|---|---|---|---|---|
    | a:b | paper | reproduced | x: 1 pp | 1.2 | 3.0 |
    """
    lines = ["| id | setup | verdict | paper | ours | seconds |", "|---|---|---|---|---|---|"]
    for r in rows:
        head = r.get("headline", {"paper": "—", "measured": "—"})
        cells = [
            r["id"],
            r["setup"],
            r["verdict"],
            head["paper"],
            head["measured"],
            r.get("seconds"),
        ]
        lines.append("| " + " | ".join(str(c).replace("|", "/") for c in cells) + " |")
    return "\n".join(lines)


def collect(folders: list[Path]) -> list[dict[str, Any]]:
    """The summary rows of every ``verdict.json`` under ``folders``, sorted by (id, setup, mode).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "run").mkdir()
    ...     _ = (Path(d) / "run" / "verdict.json").write_text(json.dumps(
    ...         {"id": "a:b", "setup": "paper", "mode": "full", "verdict": "reproduced"}))
    ...     [(r["id"], r["verdict"]) for r in collect([Path(d)])]
    [('a:b', 'reproduced')]
    """
    rows = [
        summary_row(json.loads(path.read_text(encoding="utf-8")))
        for folder in folders
        for path in sorted(folder.rglob("verdict.json"))
    ]
    return sorted(rows, key=lambda r: (r["id"], r["setup"], r["mode"]))


def write_table(out: Path, rows: list[dict[str, Any]]) -> None:
    """``reproduce_results.json`` and ``.md`` in ``out``, each written atomically."""
    write_atomic(
        out / "reproduce_results.json",
        json.dumps(to_jsonable({"runs": rows}), indent=1) + "\n",
    )
    write_atomic(out / "reproduce_results.md", render_markdown(rows) + "\n")


def main(argv: list[str] | None = None) -> int:
    from fltheory.errors import FLTheoryError
    from fltheory.experiments.data_sources import data_status
    from fltheory.experiments.model import all_experiments
    from fltheory.experiments.runner import run_experiment

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--ids", nargs="*")
    parser.add_argument("--setups", nargs="*")
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--collect", nargs="+", type=Path, metavar="DIR")
    args = parser.parse_args(argv)
    if args.collect:
        write_table(args.out, collect(args.collect))
        return 0
    mode = "full" if args.full else "quick"
    todo = [
        (e.id, name)
        for e in all_experiments()
        if not args.ids or e.id in args.ids
        for name, spec in e.setups.items()
        if (not args.setups or name in args.setups)
        and not e.missing(name, mode)
        and data_status(spec.datasets) is None
    ]
    rows = []
    for i, (experiment_id, setup) in enumerate(todo, 1):
        print(
            f"[{i}/{len(todo)}] {experiment_id} --setup {setup} --{mode}",
            file=sys.stderr,
            flush=True,
        )
        start = time.perf_counter()
        try:
            record = run_experiment(experiment_id, setup=setup, mode=mode).record
            rows.append(summary_row(record))
        except FLTheoryError as exc:
            seconds = round(time.perf_counter() - start, 1)
            error = {"id": experiment_id, "setup": setup, "mode": mode, "seconds": seconds}
            rows.append({**error, "verdict": f"error: {exc}"})
        print(f"    {rows[-1]['verdict']} ({rows[-1]['seconds']} s)", file=sys.stderr, flush=True)
        write_table(args.out, rows)
    if not todo:
        write_table(args.out, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
