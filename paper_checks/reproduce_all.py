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


def _text(value: Any, width: int = 60) -> str:
    """A measured value or interval as short text."""
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    return str(value)[:width]


def headline(record: dict[str, Any]) -> dict[str, str]:
    """The claim, the paper's value and ours (with its interval) of ONE check, so the two
    numbers side by side are the same quantity: the first primary check that does not hold,
    else the first primary check with an interval.

    >>> headline({"checks": [
    ...     {"role": "primary", "claim": "a > b", "paper": "a better", "measured": 3.0,
    ...      "ci": [1.0, 5.0], "holds": True},
    ...     {"role": "primary", "claim": "a > c", "paper": "+1.56 pp", "measured": -2.3,
    ...      "ci": [-3.35, -1.26], "holds": False}]})
    {'claim': 'a > c', 'paper': '+1.56 pp', 'measured': '-2.3 [-3.35, -1.26]'}
    """
    primary = [c for c in record.get("checks", []) if c.get("role") == "primary"]
    if not primary:
        return {"claim": "—", "paper": "—", "measured": "—"}
    # A holding guard without an interval (e.g. "the algorithms train") is not the headline.
    with_ci = [c for c in primary if c.get("ci") is not None] or primary
    check = next((c for c in primary if not c.get("holds")), with_ci[0])
    ours = _text(check.get("measured"))
    if check.get("ci") is not None:
        ours += " " + _text(check["ci"])
    return {"claim": str(check.get("claim", "—")), "paper": _text(check.get("paper", "—")),
            "measured": ours}  # fmt: skip


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
        "headline": headline(record),
    }


def render_markdown(rows: list[dict[str, Any]]) -> str:
    """The Markdown table of ``rows`` (:func:`summary_row` output, or an error row): per run,
    the primary checks holding, and the claim, the paper's value and ours of :func:`headline`.

    >>> print(render_markdown([{"id": "a:b", "setup": "paper", "mode": "quick",
    ...     "verdict": "reproduced", "checks": {"primary": 2, "holding": 2},
    ...     "headline": {"claim": "a > b", "paper": "+1 pp", "measured": "1.2 [0.1, 2.3]"},
    ...     "seconds": 3.0}]))
    | id | setup | mode | verdict | primary checks holding | claim | paper | ours [CI] | seconds |
    |---|---|---|---|---|---|---|---|---|
    | a:b | paper | quick | reproduced | 2/2 | a > b | +1 pp | 1.2 [0.1, 2.3] | 3.0 |
    """
    lines = [
        "| id | setup | mode | verdict | primary checks holding | claim | paper | ours [CI] "
        "| seconds |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        head = r.get("headline", {"claim": "—", "paper": "—", "measured": "—"})
        checks = r.get("checks")
        cells = [
            r["id"],
            r["setup"],
            r.get("mode", "—"),
            r["verdict"],
            f"{checks['holding']}/{checks['primary']}" if checks else "—",
            head["claim"],
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
    """``reproduce_results.json`` and ``.md`` in ``out`` (created), each written atomically."""
    out.mkdir(parents=True, exist_ok=True)
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
