"""A command's output as one transaction: ``simulate``, ``reproduce``, ``check``, ``report``
(a result folder, :class:`ResultFolder`) and ``sweep export`` (a file, :func:`output_file`).

* **One writer**: an exclusive lock on the output (:class:`~fltheory.lock.OutputLock`); a second
  writer is refused in one line naming the first (pid, host, command, since when).
* **All or nothing**: the files are written into a staging folder inside the output
  (``.fltheory-staging/``) and committed by rename; before the first rename the manifest, if
  any, is demoted to ``in_progress``, and the ``complete`` manifest is written last. A run that
  fails or is killed before the commit leaves the folder as it was; one killed during the
  commit leaves an unfinished folder, never a "complete" manifest over a mix of two runs.
* **Trust, verified**: :meth:`ResultFolder.differences` compares a result with the run that
  would replace it (config hash, fltheory version) and every file with its checksum, so
  ``--resume`` keeps only a result it can vouch for.
* **Only its own**: :meth:`ResultFolder.clear` (``--overwrite``) removes what the manifest lists
  and the command's own entries, never hidden entries (``.git/``, ``.notes``) or anything else.
* Missing parent folders are created (``mkdir -p``); a parent that is a file is refused.
"""

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

from fltheory.atomic import (
    COMPLETE,
    MANIFEST,
    STATUS_COMPLETE,
    STATUS_RUNNING,
    UNFINISHED,
    _fsync_dir,
    changed_files,
    check_result_dir,
    missing_parents,
    read_manifest,
    write_atomic,
    write_manifest,
)
from fltheory.errors import InputError
from fltheory.lock import FOLDER_LOCK, OutputLock

#: The staging folder of a result folder (hidden: never one of its entries).
STAGING = ".fltheory-staging"
#: The first bytes of every SQLite database (a results store is one).
SQLITE_MAGIC = b"SQLite format 3\x00"


def make_parents(path: Path, flag: str = "--out") -> list[Path]:
    """Create the missing folders above ``path`` (``mkdir -p``); the ones created, outermost
    first (refusals: :func:`~fltheory.atomic.missing_parents`)."""
    created = []
    for folder in missing_parents(path, flag):
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        except OSError as exc:
            raise InputError(f"{flag} {path}: cannot create {folder} ({exc.strerror})") from None
        created.append(folder)
    return created


def _remove_empty(folders: list[Path]) -> None:
    """Remove ``folders`` (innermost first) while they are empty."""
    for folder in reversed(folders):
        try:
            folder.rmdir()
        except OSError:
            return


def _write_json(directory: Path, data: dict[str, Any]) -> None:
    write_atomic(directory / MANIFEST, json.dumps(data, indent=2, default=str) + "\n")


class ResultFolder:
    """``with ResultFolder(out, owned=...) as folder:`` — a result folder, checked
    (:func:`~fltheory.atomic.check_result_dir`), created, locked and checked again under the
    lock; :attr:`found` says what it held. Write with :meth:`write` (or into :attr:`staging`),
    then :meth:`commit`. :meth:`begin` marks a run that writes as it goes (checkpoints, caches)
    unfinished first. Leaving the block unlocks, and removes the folder when it was created for
    nothing.

    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp()) / "a" / "out"
    >>> with ResultFolder(out, owned=("x.txt",)) as folder:
    ...     _ = folder.write("x.txt", "1")
    ...     _ = folder.commit(["x.txt"], {"seed": 0})
    >>> sorted(p.name for p in out.iterdir())
    ['manifest.json', 'x.txt']
    >>> with ResultFolder(out, owned=("x.txt",), resume=True) as folder:
    ...     folder.found, folder.differences({"seed": 1})
    ('complete', ['its seed differs: 0 in the folder, 1 now'])
    """

    def __init__(
        self,
        path: str | Path,
        *,
        owned: tuple[str, ...] = (),
        keep: tuple[str, ...] = (),
        scratch: tuple[str, ...] = (),
        overwrite: bool = False,
        resume: bool = False,
        resumable: bool = True,
        inputs: tuple[str | Path, ...] = (),
        flag: str = "--out",
    ) -> None:
        self.path = Path(path)
        self.owned, self.keep, self.scratch, self.flag = owned, keep, scratch, flag
        self.overwrite, self.resume, self.resumable = overwrite, resume, resumable
        self.inputs = inputs
        self.found = ""
        self.committed = False
        self._created: list[Path] = []
        self._lock: OutputLock | None = None

    # -- entering and leaving -------------------------------------------------------------------

    def __enter__(self) -> "ResultFolder":
        self._check()
        self._created = make_parents(self.path, self.flag)
        try:
            self.path.mkdir()
            self._created.append(self.path)
        except FileExistsError:
            pass
        except OSError as exc:
            _remove_empty(self._created)
            raise InputError(
                f"{self.flag} {self.path}: cannot create it ({exc.strerror})"
            ) from None
        try:
            lock = OutputLock(self.path / FOLDER_LOCK, f"{self.flag} {self.path}")
            self._lock = lock.acquire()
            # Again under the lock: another writer may have changed the folder meanwhile.
            self.found = self._check()
            self._tidy()
        except BaseException:
            self._leave()
            raise
        return self

    def _check(self) -> str:
        return check_result_dir(
            self.path,
            locked=self._lock is not None,
            overwrite=self.overwrite,
            resume=self.resume,
            owned=self.owned,
            resumable=self.resumable,
            inputs=self.inputs,
            flag=self.flag,
        )

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._leave()

    def _leave(self) -> None:
        shutil.rmtree(self.path / STAGING, ignore_errors=True)
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        if not self.committed:
            _remove_empty(self._created)

    def _tidy(self) -> None:
        """Remove what a killed writer of this folder left: its staging folder and the
        temporary files of :func:`~fltheory.atomic.write_atomic` of this command's names."""
        shutil.rmtree(self.path / STAGING, ignore_errors=True)
        for name in (MANIFEST, *self.owned):
            for stray in self.path.glob(f".{name}.*.tmp"):
                stray.unlink(missing_ok=True)

    # -- what the folder holds ------------------------------------------------------------------

    @property
    def manifest(self) -> dict[str, Any] | None:
        """The folder's manifest (None when it has none)."""
        return read_manifest(self.path)

    def differences(self, expected: dict[str, Any]) -> list[str]:
        """Why the folder's result (or unfinished run) is not the one ``expected`` describes:
        each provenance key that differs (for an unfinished run, those it recorded), and for a
        complete result every file that is missing or fails its checksum. Empty: trust it."""
        manifest = self.manifest
        if manifest is None:
            return []
        stored = manifest.get("provenance", {})
        complete = manifest["status"] == STATUS_COMPLETE
        found = []
        for key, value in expected.items():
            if key not in stored and not complete:
                continue
            if stored.get(key) != value:
                found.append(f"its {key} differs: {_short(stored.get(key))} in the folder, "
                             f"{_short(value)} now")  # fmt: skip
        if complete:
            found += [f"file {p}" for p in changed_files(self.path, manifest)]
        return found

    def mismatch(self, differences: list[str]) -> InputError:
        """The refusal of a result that :meth:`differences` found wanting."""
        what = "complete result" if self.found == COMPLETE else "unfinished run"
        changed = [d for d in differences if d.startswith("file ")]
        if changed:
            return InputError(
                f"{self.flag} {self.path}: the {what} there was changed after it was written: "
                f"{'; '.join(changed[:3])}; give --overwrite to compute it again"
            )
        return InputError(
            f"{self.flag} {self.path}: the {what} there belongs to another run "
            f"({'; '.join(differences)}); give --overwrite to replace it"
        )

    def keep_or_clear(self, expected: dict[str, Any]) -> bool:
        """Settle what the folder holds for the run ``expected`` (its provenance) describes,
        as --resume and --overwrite ask: True when it holds that run's complete result, to be
        kept (nothing to compute); else False, after clearing a result or unfinished run of
        another run (--resume --overwrite) or any (--overwrite alone) — an unfinished run of
        the same one stays, to be continued. Another run's under --resume alone: refused
        (:meth:`mismatch`). Call :meth:`begin` next when it returns False.

        >>> import tempfile
        >>> out = Path(tempfile.mkdtemp()) / "out"
        >>> with ResultFolder(out, owned=("x.txt",)) as folder:
        ...     _ = folder.write("x.txt", "1")
        ...     _ = folder.commit(["x.txt"], {"seed": 0})
        >>> with ResultFolder(out, owned=("x.txt",), resume=True, overwrite=True) as folder:
        ...     folder.keep_or_clear({"seed": 0}), folder.keep_or_clear({"seed": 1})
        (True, False)
        >>> sorted(p.name for p in out.iterdir())  # the other run's result was cleared
        ['manifest.json']
        """
        if self.found not in (COMPLETE, UNFINISHED):
            return False
        if self.resume:
            differences = self.differences(expected)
            if differences and not self.overwrite:
                raise self.mismatch(differences)
            if not differences:
                return self.found == COMPLETE
        if self.overwrite:
            self.clear()
        return False

    def stored(self, name: str) -> Any:
        """The JSON file ``name`` of a complete result, or one refusal line when it is not
        JSON (its checksum can be right and its content still garbage)."""
        try:
            return json.loads((self.path / name).read_bytes().decode("utf-8"))
        except (OSError, ValueError) as exc:
            raise self.garbage(name, exc) from None

    def garbage(self, name: str, exc: BaseException) -> InputError:
        """The refusal of a stored file whose content is not what this command wrote."""
        return InputError(
            f"{self.flag} {self.path}: {name} is not what fltheory writes there "
            f"({type(exc).__name__}: {' '.join(str(exc).split())[:80]}); give --overwrite to "
            "compute it again"
        )

    # -- writing --------------------------------------------------------------------------------

    def clear(self) -> None:
        """Remove what this command wrote (``--overwrite``): the files the manifest lists, the
        command's own files (``owned``) and its scratch folders (``scratch``: checkpoints),
        less ``keep`` — never hidden entries, nor files it did not list in its own folders
        (``figures/``). The manifest says ``in_progress`` from the first removal on."""
        manifest = self.manifest
        if manifest is None:
            return
        _write_json(self.path, {**manifest, "status": STATUS_RUNNING})
        for entry in manifest["files"]:
            listed = Path(entry["name"])
            if listed.parts[0] in self.keep:
                continue
            target = self.path / listed
            if target.is_file() or target.is_symlink():
                target.unlink()
            _remove_empty([self.path / p for p in reversed(listed.parents[:-1])])
        for name in self.owned:
            target = self.path / name
            if name in self.keep or name.startswith(".") or not os.path.lexists(target):
                continue
            if target.is_dir() and not target.is_symlink():
                if name in self.scratch:
                    shutil.rmtree(target)
            else:
                target.unlink()
        _write_json(self.path, {**manifest, "status": STATUS_RUNNING, "files": []})

    def begin(self, provenance: dict[str, Any]) -> None:
        """Mark the folder ``in_progress`` with ``provenance`` (before a run that writes into
        it as it goes); the files an earlier manifest listed stay listed."""
        manifest = self.manifest
        files = manifest["files"] if manifest is not None else []
        _write_json(self.path, {"status": STATUS_RUNNING, "files": files, "provenance": provenance})

    @property
    def staging(self) -> Path:
        """The staging folder (created): files written here are committed by :meth:`commit`."""
        folder = self.path / STAGING
        folder.mkdir(exist_ok=True)
        return folder

    def write(self, name: str, data: bytes | str) -> Path:
        """Write the file ``name`` (a relative path) into the staging folder, its bytes synced
        to disk (the staging folder's own entries need not be: :meth:`commit` syncs the
        folders the files are renamed into)."""
        target = self.staging / name
        target.parent.mkdir(parents=True, exist_ok=True)
        return write_atomic(target, data, sync_folder=False)

    def commit(self, names: list[str], provenance: dict[str, Any]) -> list[Path]:
        """Move the staged files ``names`` into the folder and write the ``complete`` manifest
        last; the files an earlier result listed and this one does not are removed. Before the
        first rename the manifest says ``in_progress`` (a complete one is demoted first)."""
        staged = self.path / STAGING
        missing = [n for n in names if not (staged / n).is_file()]
        if missing:
            raise RuntimeError(f"commit of files never staged: {missing}")
        manifest = self.manifest
        old = [e["name"] for e in manifest["files"]] if manifest is not None else []
        if manifest is not None and manifest["status"] == STATUS_COMPLETE:
            _write_json(self.path, {**manifest, "status": STATUS_RUNNING})
        parents = {self.path}
        for name in names:
            target = self.path / name
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staged / name, target)
            parents.add(target.parent)
        for name in set(old) - set(names):
            if Path(name).parts[0] not in self.keep:
                (self.path / name).unlink(missing_ok=True)
        for folder in parents:
            _fsync_dir(folder)
        write_manifest(self.path, list(names), status=STATUS_COMPLETE, provenance=provenance)
        shutil.rmtree(staged, ignore_errors=True)
        self.committed = True
        return [self.path / name for name in names]


def _short(value: Any) -> str:
    """A provenance value for a message: hashes cut to 12 characters."""
    text = str(value)
    return text[:12] + "…" if len(text) == 64 and text.isalnum() else text


def check_output_file(
    path: str | Path, *, inputs: dict[str | Path, str] | None = None, flag: str = "--out"
) -> None:
    """Refuse, in one line, an output file that is not a new or regular file (a folder, a
    device node, a FIFO, a symbolic link), that is an input of the command (``inputs``: path →
    what it is; the same file by any name), or that is a SQLite database (a results store).

    >>> import tempfile
    >>> store = Path(tempfile.mkdtemp()) / "runs.db"
    >>> _ = store.write_bytes(SQLITE_MAGIC)
    >>> check_output_file(store.with_name("runs.csv"), inputs={store: "the store read"})
    >>> check_output_file(store, inputs={store: "the store read"})
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: --out ...runs.db: is the store read (...runs.db), an input of ...
    """
    path = Path(path)
    if not os.path.lexists(path):
        missing_parents(path, flag)
        return
    for item, what in (inputs or {}).items():
        if Path(item).exists() and path.exists() and os.path.samefile(path, item):
            raise InputError(f"{flag} {path}: is {what} ({item}), an input of this command")
    if path.is_symlink():
        raise InputError(f"{flag} {path}: is a symbolic link; name the file itself")
    if path.is_dir():
        raise InputError(f"{flag} {path}: is a directory; name a file")
    if not path.is_file():
        raise InputError(f"{flag} {path}: is not a regular file (a device, FIFO or socket)")
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise InputError(f"{flag} {path}: cannot read it ({exc.strerror})") from None
    if head == SQLITE_MAGIC:
        raise InputError(
            f"{flag} {path}: is a SQLite database (a sweep results store?); choose another name"
        )


@contextmanager
def output_file(
    path: str | Path, *, inputs: dict[str | Path, str] | None = None, flag: str = "--out"
) -> Iterator[Path]:
    """``with output_file(out, inputs=...) as target: write_atomic(target, data)`` — a single
    output file: checked (:func:`check_output_file`), its missing parents created, locked
    against a second writer (a hidden lock file beside it) and checked again under the lock.

    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp()) / "results" / "runs.csv"
    >>> with output_file(out) as target:
    ...     _ = write_atomic(target, "a,b\\n")
    >>> sorted(p.name for p in out.parent.iterdir())
    ['runs.csv']
    """
    path = Path(path)
    check_output_file(path, inputs=inputs, flag=flag)
    created = make_parents(path, flag)
    lock = OutputLock(path.parent / f".{path.name}.fltheory.lock", f"{flag} {path}")
    try:
        with lock:
            check_output_file(path, inputs=inputs, flag=flag)
            yield path
    except BaseException:
        if not path.exists():
            _remove_empty(created)
        raise
