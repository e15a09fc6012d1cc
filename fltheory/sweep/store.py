"""The results store of sweeps: one SQLite file (standard library), one row per finished run.

Each finished run is one transaction (``INSERT OR IGNORE`` keyed by the run's hash), so a crash
— ``kill -9`` included — loses at most the runs still in flight; the journal is in WAL mode, so
readers (an export, a notebook) see every committed run while a sweep writes, and several
sweeps may write to one store (each waits its turn for the write lock).
"""

import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fltheory.errors import InputError

#: Schema version, kept in SQLite's ``user_version``.
VERSION = 1
#: Seconds a writer waits for the lock held by another sweep before giving up.
BUSY_SECONDS = 600.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    key TEXT PRIMARY KEY,      -- SHA-256 of the fully resolved config (seed included)
    seed INTEGER NOT NULL,
    swept TEXT NOT NULL,       -- JSON: dotted key -> value of the sweep's axes
    config TEXT NOT NULL,      -- JSON: the fully resolved config
    metrics TEXT NOT NULL,     -- JSON: "label/metric/final" -> number (see sweep.run)
    seconds REAL NOT NULL,     -- wall time of the run
    finished REAL NOT NULL     -- Unix time it was stored
)
"""


@dataclass(frozen=True)
class Row:
    """A stored run: its key, seed, swept values, resolved config, metrics and wall time.

    >>> Row("k", 0, {"run.lr": 0.1}, {}, {"fedavg/objective/final": 0.5}, 1.2).swept
    {'run.lr': 0.1}
    """

    key: str
    seed: int
    swept: dict[str, Any]
    config: dict[str, Any]
    metrics: dict[str, Any]
    seconds: float


class Store:
    """An open results store (a context manager; created when missing).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "results.db"
    >>> with Store(path) as store:
    ...     store.add(Row("k1", 0, {"run.lr": 0.1}, {"seed": 0}, {"f/objective/final": 1.5}, 0.2))
    ...     store.add(Row("k1", 0, {"run.lr": 0.1}, {"seed": 0}, {"f/objective/final": 9.9}, 0.2))
    ...     sorted(store.keys()), [r.metrics for r in store.rows()]
    True
    False
    (['k1'], [{'f/objective/final': 1.5}])
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise InputError(f"{self.path}: the store is a directory, not a SQLite file")
        if self.path.exists() and not self.path.is_file():
            raise InputError(f"{self.path}: the store is not a regular file")
        try:
            self._db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as err:
            raise InputError(f"{self.path}: cannot open the store ({err})") from None
        try:
            self._setup()
        except sqlite3.DatabaseError as err:
            self._db.close()
            raise InputError(f"{self.path}: not a sweep results store ({err})") from None

    def _setup(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        tables = self._db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
        if version not in (0, VERSION) or (version == 0 and tables):
            raise sqlite3.DatabaseError(f"schema version {version}, tables {len(tables)}")
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        if version == 0:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={VERSION}")
            self._db.execute("COMMIT")

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (committed runs are on disk already).

        >>> import tempfile
        >>> Store(Path(tempfile.mkdtemp()) / "r.db").close()
        """
        self._db.close()

    def keys(self) -> set[str]:
        """The keys of the stored runs.

        >>> import tempfile
        >>> with Store(Path(tempfile.mkdtemp()) / "r.db") as store:
        ...     _ = store.add(Row("k", 0, {}, {}, {}, 0.0))
        ...     store.keys()
        {'k'}
        """
        return {key for (key,) in self._db.execute("SELECT key FROM runs")}

    def add(self, row: Row) -> bool:
        """Store one finished run in its own transaction; False if its key was already there.

        >>> import tempfile
        >>> with Store(Path(tempfile.mkdtemp()) / "r.db") as store:
        ...     store.add(Row("k", 0, {}, {}, {}, 0.0)), store.add(Row("k", 0, {}, {}, {}, 0.0))
        (True, False)
        """
        values = (
            row.key,
            row.seed,
            json.dumps(row.swept),  # in the order of the sweep file's axes
            _dumps(row.config),
            _dumps(row.metrics),
            row.seconds,
            time.time(),
        )
        cursor = self._db.execute("INSERT OR IGNORE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)", values)
        return cursor.rowcount == 1

    def rows(self) -> Iterator[Row]:
        """Every stored run, in the order they were stored.

        >>> import tempfile
        >>> with Store(Path(tempfile.mkdtemp()) / "r.db") as store:
        ...     _ = store.add(Row("k", 3, {"run.lr": 0.1}, {}, {"m": 0.5}, 0.0))
        ...     [(r.seed, r.metrics) for r in store.rows()]
        [(3, {'m': 0.5})]
        """
        query = "SELECT key, seed, swept, config, metrics, seconds FROM runs ORDER BY rowid"
        for key, seed, swept, config, metrics, seconds in self._db.execute(query):
            yield Row(
                key, seed, json.loads(swept), json.loads(config), json.loads(metrics), seconds
            )

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM runs").fetchone()[0])


def _dumps(value: Any) -> str:
    """JSON with NaN kept (a metric may be undefined); floats round-trip exactly."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
