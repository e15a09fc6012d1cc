"""The results store of sweeps: one SQLite file (standard library), one row per finished run.

Each finished run is one transaction (``INSERT OR IGNORE`` keyed by the run's hash), so a crash
— ``kill -9`` included — loses at most the runs still in flight; the journal is in WAL mode, so
readers (an export, a notebook) see every committed run while a sweep writes, and several
sweeps may write to one store (each waits its turn for the write lock).

Every SQLite failure, at opening or later, is a :class:`StoreError` whose one line names its
cause (:func:`describe`): a missing folder, a read-only file system, no permission, a full disk
or a file-size limit, a lock held too long by another process, a corrupt file, a file that is
not a store, or a store deleted or replaced while a sweep writes to it (checked before every
insert: SQLite itself would go on writing into the deleted file).
"""

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fltheory.errors import InputError

#: Schema version, kept in SQLite's ``user_version``.
VERSION = 1
#: Seconds a writer waits for the lock held by another sweep before giving up.
BUSY_SECONDS = 600.0
#: The range of an SQLite INTEGER (signed 64 bits): the seeds a store can hold.
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1
#: Free bytes below which a failed write is put down to a full disk.
FULL_BYTES = 2**20

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


#: One row per sweep that added runs: what produced them (created with the first such row).
_PROVENANCE = """
CREATE TABLE IF NOT EXISTS provenance (
    id INTEGER PRIMARY KEY,
    recorded REAL NOT NULL,    -- Unix time
    record TEXT NOT NULL       -- JSON: fltheory.provenance.provenance() (plug-ins included)
)
"""


class StoreError(InputError):
    """The results store cannot be opened, read or written; the message names the cause."""


class StoreLost(StoreError):
    """The store was deleted or replaced while in use: what was written since is lost."""


def _read_only_fs(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _free_bytes(folder: Path) -> int | None:
    try:
        stat = os.statvfs(folder)
    except OSError:
        return None
    return stat.f_bavail * stat.f_frsize


def _size_limit(path: Path) -> int | None:
    """The file-size limit (``ulimit -f``) when the store or its WAL has reached it."""
    try:
        import resource  # POSIX only
    except ImportError:
        return None
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if limit == resource.RLIM_INFINITY:
        return None
    for name in (path, Path(f"{path}-wal")):
        try:
            if name.stat().st_size + 65536 >= limit:
                return int(limit)
        except OSError:
            continue
    return None


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


def describe(
    err: sqlite3.Error, path: Path, doing: str, identity: tuple[int, int] | None = None
) -> str:
    """One line naming why SQLite failed on the store ``path`` while ``doing`` something
    (``identity``: the (device, inode) it had when opened, to tell a vanished store).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> describe(sqlite3.OperationalError("unable to open database file"),
    ...          folder / "no" / "r.db", "opening it")
    '.../no/r.db: the folder .../no does not exist'
    >>> err = sqlite3.OperationalError("database is locked")
    >>> err.sqlite_errorname = "SQLITE_BUSY"
    >>> describe(err, folder / "r.db", "storing a run")
    '.../r.db: the store is locked by another process (waited 600 s while storing a run)'
    """
    name = getattr(err, "sqlite_errorname", "") or ""
    head = f"{path}: "
    if identity is not None and _identity(path) != identity:
        gone = "deleted" if not path.exists() else "replaced by another file"
        return head + f"the store was {gone} while in use ({doing}); the runs stored since are lost"
    folder = path.absolute().parent
    if not folder.exists():
        return head + f"the folder {folder} does not exist"
    if not folder.is_dir():
        return head + f"{folder} is not a folder"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return head + (
            f"the store is locked by another process (waited {BUSY_SECONDS:g} s while {doing})"
        )
    limit = _size_limit(path)
    free = _free_bytes(folder)
    if limit is not None and name.startswith(("SQLITE_FULL", "SQLITE_IOERR")):
        return head + f"the file-size limit (ulimit -f: {limit} bytes) was reached while {doing}"
    if name.startswith("SQLITE_FULL") or (
        name.startswith("SQLITE_IOERR") and free is not None and free < FULL_BYTES
    ):
        return head + f"the disk is full ({free or 0} bytes free) while {doing}"
    if name.startswith("SQLITE_CORRUPT"):
        return head + f"the store is corrupt (SQLite: {err}); export what is readable or start anew"
    if name.startswith("SQLITE_NOTADB"):
        return head + "not a sweep results store (not an SQLite database)"
    if _read_only_fs(folder):
        return head + f"the store is on a read-only file system (while {doing})"
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
        return head + f"permission denied while {doing} (SQLite: {err})"
    if name.startswith("SQLITE_IOERR"):
        return head + f"input/output error while {doing} (SQLite {name}: {err})"
    return head + f"SQLite failed while {doing} ({name or type(err).__name__}: {err})"


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
    """An open results store (a context manager; created when missing, unless ``readonly``:
    then it must exist, and may sit on a read-only file system).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "results.db"
    >>> with Store(path) as store:
    ...     store.add(Row("k1", 0, {"run.lr": 0.1}, {"seed": 0}, {"f/objective/final": 1.5}, 0.2))
    ...     store.add(Row("k1", 0, {"run.lr": 0.1}, {"seed": 0}, {"f/objective/final": 9.9}, 0.2))
    ...     sorted(store.keys()), [r.metrics for r in store.rows()]
    True
    False
    (['k1'], [{'f/objective/final': 1.5}])
    >>> Store(path.parent / "no" / "r.db")
    Traceback (most recent call last):
    ...
    fltheory.sweep.store.StoreError: .../no/r.db: the folder .../no does not exist
    """

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._identity: tuple[int, int] | None = None
        if self.path.is_dir():
            raise StoreError(f"{self.path}: the store is a directory, not a SQLite file")
        if self.path.exists() and not self.path.is_file():
            raise StoreError(f"{self.path}: the store is not a regular file")
        folder = self.path.absolute().parent
        if readonly and not self.path.exists():
            raise StoreError(f"{self.path}: no such results store")
        if not readonly and self.path.parent.is_dir() and _read_only_fs(folder):
            raise StoreError(
                f"{self.path}: the store is on a read-only file system; a sweep writes to it "
                "(copy it to a writable folder)"
            )
        try:
            self._db = self._connect(folder)
        except sqlite3.Error as err:
            raise StoreError(describe(err, self.path, "opening it")) from None
        try:
            self._setup()
        except sqlite3.Error as err:
            self._db.close()
            raise StoreError(describe(err, self.path, "opening it")) from None
        except StoreError:
            self._db.close()
            raise
        self._identity = _identity(self.path)

    def _connect(self, folder: Path) -> sqlite3.Connection:
        if not self.readonly:
            return sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
        # A store on a read-only file system has no -wal/-shm files to make: opened as
        # immutable unless a WAL left by a crash holds committed runs.
        wal = Path(f"{self.path}-wal")
        immutable = _read_only_fs(folder) and not (wal.exists() and wal.stat().st_size > 0)
        uri = f"file:{quote(str(self.path.absolute()))}?mode=ro"
        if immutable:
            uri += "&immutable=1"
        return sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS, isolation_level=None)

    def _setup(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        tables = self._db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
        if version not in (0, VERSION) or (version == 0 and tables):
            names = ", ".join(sorted(name for (name,) in tables)[:5]) or "none"
            raise StoreError(
                f"{self.path}: not a sweep results store (schema version {version}, "
                f"tables: {names})"
            )
        if self.readonly:
            if version == 0:
                raise StoreError(f"{self.path}: not a sweep results store (an empty database)")
            return
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        if version == 0:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={VERSION}")
            self._db.execute("COMMIT")

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """Turn an SQLite error into a :class:`StoreError` naming its cause."""
        try:
            yield
        except sqlite3.Error as err:
            self.verify()
            raise StoreError(describe(err, self.path, doing, self._identity)) from None

    def verify(self) -> None:
        """Raise :class:`StoreError` when the file at the store's path is no longer the one
        opened (deleted, moved, replaced): SQLite would go on writing into the lost file.

        >>> import tempfile
        >>> path = Path(tempfile.mkdtemp()) / "r.db"
        >>> with Store(path) as store:
        ...     path.unlink()
        ...     store.verify()
        Traceback (most recent call last):
        ...
        fltheory.sweep.store.StoreLost: .../r.db: the store was deleted while in use (...)...
        """
        if self._identity is not None and _identity(self.path) != self._identity:
            gone = "deleted" if not self.path.exists() else "replaced by another file"
            raise StoreLost(
                f"{self.path}: the store was {gone} while in use (a sweep writing to it); "
                "the runs stored since are lost"
            )

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
        with self._guard("reading it"):
            return {key for (key,) in self._db.execute("SELECT key FROM runs")}

    def add(self, row: Row) -> bool:
        """Store one finished run in its own transaction; False if its key was already there.

        >>> import tempfile
        >>> with Store(Path(tempfile.mkdtemp()) / "r.db") as store:
        ...     store.add(Row("k", 0, {}, {}, {}, 0.0)), store.add(Row("k", 0, {}, {}, {}, 0.0))
        (True, False)
        """
        if not SEED_MIN <= row.seed <= SEED_MAX:
            raise StoreError(f"{self.path}: seed {row.seed} does not fit a store (signed 64 bits)")
        self.verify()
        values = (
            row.key,
            row.seed,
            json.dumps(row.swept),  # in the order of the sweep file's axes
            _dumps(row.config),
            _dumps(row.metrics),
            row.seconds,
            time.time(),
        )
        with self._guard("storing a run"):
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)", values
            )
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
        with self._guard("reading it"):
            found = self._db.execute(query).fetchall()
        for key, seed, swept, config, metrics, seconds in found:
            try:
                row = Row(
                    key, seed, json.loads(swept), json.loads(config), json.loads(metrics), seconds
                )
            except (TypeError, ValueError):
                raise StoreError(f"{self.path}: the store is corrupt (run {key!r})") from None
            yield row

    def __len__(self) -> int:
        with self._guard("reading it"):
            return int(self._db.execute("SELECT COUNT(*) FROM runs").fetchone()[0])

    def add_provenance(self, record: dict[str, Any]) -> None:
        """Keep the provenance of a sweep that adds runs (versions, command, plug-ins).

        >>> import tempfile
        >>> with Store(Path(tempfile.mkdtemp()) / "r.db") as store:
        ...     store.add_provenance({"fltheory_version": "0.1.0", "plugins": []})
        ...     [r["fltheory_version"] for r in store.provenance()]
        ['0.1.0']
        """
        self.verify()
        text = json.dumps(record, sort_keys=True, default=str)
        with self._guard("storing the provenance"):
            self._db.execute(_PROVENANCE)
            self._db.execute(
                "INSERT INTO provenance (recorded, record) VALUES (?, ?)", (time.time(), text)
            )

    def provenance(self) -> list[dict[str, Any]]:
        """The provenance records of the sweeps that added runs, oldest first (none in a store
        written before fltheory kept them).

        >>> import tempfile
        >>> with Store(Path(tempfile.mkdtemp()) / "r.db") as store:
        ...     store.provenance()
        []
        """
        with self._guard("reading it"):
            found = self._db.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name='provenance'"
            ).fetchone()
            rows = self._db.execute("SELECT record FROM provenance ORDER BY id") if found else []
            texts = [text for (text,) in rows]
        try:
            return [json.loads(text) for text in texts]
        except ValueError:
            raise StoreError(f"{self.path}: the store is corrupt (a provenance record)") from None


def _dumps(value: Any) -> str:
    """JSON with NaN kept (a metric may be undefined); floats round-trip exactly."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
