"""A results store as one table for pandas: a row per run with the swept values, the seed and
each algorithm's final and time-averaged metrics; CSV, or Parquet where pyarrow is installed.
The file is written atomically (a reader never sees half of it) under a lock, and never over
the store, another SQLite database, a folder or a non-regular file
(:func:`fltheory.resultdir.output_file`); missing parent folders are created."""

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

from fltheory.atomic import write_atomic
from fltheory.config.files import regular_file
from fltheory.errors import InputError
from fltheory.resultdir import check_output_file, output_file
from fltheory.sweep.store import Store

FORMATS = ("csv", "parquet")


def _cell(value: Any) -> Any:
    """A swept value as a table cell: scalars as they are, lists and tables as JSON text."""
    return json.dumps(value) if isinstance(value, (list, dict)) else value


def _arrow_column(pyarrow: Any, values: list[Any]) -> Any:
    """An Arrow array of ``values``; as JSON text when their types do not mix (0.1 and "x")."""
    try:
        return pyarrow.array(values)
    except (pyarrow.ArrowInvalid, pyarrow.ArrowTypeError):
        return pyarrow.array([None if v is None else json.dumps(v) for v in values])


def table(store: str | Path) -> tuple[list[str], list[dict[str, Any]]]:
    """(columns, rows) of a store: ``key``, the swept keys, ``seed``, the metric columns; rows
    sorted by swept values then seed (the same table whatever order the runs finished in).

    >>> import tempfile
    >>> from fltheory.sweep.store import Row
    >>> path = Path(tempfile.mkdtemp()) / "r.db"
    >>> with Store(path) as db:
    ...     _ = db.add(Row("b", 1, {"run.lr": 0.1}, {}, {"fedavg/objective/final": 2.0}, 0.1))
    ...     _ = db.add(Row("a", 0, {"run.lr": 0.1}, {}, {"fedavg/objective/final": 1.0}, 0.1))
    >>> columns, rows = table(path)
    >>> columns, [r["seed"] for r in rows]
    (['key', 'run.lr', 'seed', 'fedavg/objective/final'], [0, 1])
    """
    regular_file(store, "results store")
    with Store(store, readonly=True) as db:  # readable on a read-only file system too
        stored = list(db.rows())
    swept: dict[str, None] = {}
    metrics: set[str] = set()
    for row in stored:
        swept.update(dict.fromkeys(row.swept))
        metrics.update(row.metrics)
    stored.sort(key=lambda r: (json.dumps(r.swept, sort_keys=True), r.seed, r.key))
    rows = [
        {
            "key": r.key,
            **{k: _cell(r.swept[k]) if k in r.swept else None for k in swept},
            "seed": r.seed,
            **{m: r.metrics.get(m, math.nan) for m in sorted(metrics)},
        }
        for r in stored
    ]
    return ["key", *swept, "seed", *sorted(metrics)], rows


def export(store: str | Path, fmt: str, out: str | Path) -> int:
    """Write the table of ``store`` to ``out`` as ``fmt`` ("csv" or "parquet"); the row count.
    ``out`` may be a new file or a regular one (replaced), not the store or any SQLite file.

    >>> import tempfile
    >>> from fltheory.sweep.store import Row
    >>> folder = Path(tempfile.mkdtemp())
    >>> with Store(folder / "r.db") as db:
    ...     _ = db.add(Row("a", 0, {"run.lr": 0.1}, {}, {"fedavg/objective/final": 0.1}, 0.1))
    >>> export(folder / "r.db", "csv", folder / "r.csv")
    1
    >>> print((folder / "r.csv").read_text().strip())
    key,run.lr,seed,fedavg/objective/final
    a,0.1,0,0.1
    """
    if fmt not in FORMATS:
        raise InputError(f"unknown export format '{fmt}'; choose csv or parquet")
    inputs: dict[str | Path, str] = {store: "the results store being exported"}
    check_output_file(out, inputs=inputs)  # before reading the store: fail fast
    columns, rows = table(store)
    if fmt == "parquet":
        try:
            import pyarrow
            import pyarrow.parquet
        except ImportError:
            raise InputError(
                "--format parquet needs pyarrow: pip install 'fltheory[parquet]'"
            ) from None
        buffer = io.BytesIO()
        data = {c: _arrow_column(pyarrow, [row[c] for row in rows]) for c in columns}
        pyarrow.parquet.write_table(pyarrow.table(data), buffer)
        payload: bytes | str = buffer.getvalue()
    else:
        text = io.StringIO()
        writer = csv.DictWriter(text, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        payload = text.getvalue()
    with output_file(out, inputs=inputs) as target:
        write_atomic(target, payload)
    return len(rows)
