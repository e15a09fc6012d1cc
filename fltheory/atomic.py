"""Crash-safe result directories: atomic files and a manifest written last.

Every file goes to a temporary name in the same directory, is fsync-ed and renamed over its
final name, so a reader sees the old file or the new one, never half of one. ``manifest.json``
(files, sizes, sha256, provenance, ``status``) is written when a run starts (status
``in_progress``) and rewritten last (``complete``): a directory without a complete manifest is
never a result, and a run can tell its own unfinished directory from a foreign one.

Checks happen before any work (:func:`prepare_result_dir`): an ``--out`` that is an existing
file, sits under a missing parent, is not writable, already holds a complete result (unless
overwrite or resume is asked for) or holds foreign files is refused with one line.
"""

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from fltheory.errors import InputError

MANIFEST = "manifest.json"
STATUS_RUNNING, STATUS_COMPLETE = "in_progress", "complete"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


#: Mode of the files written (what ``open`` would give them: 0o666 less the process umask).
FILE_MODE = 0o666 & ~_umask()


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path: str | Path, data: bytes | str) -> Path:
    """Write ``data`` to ``path`` atomically (temporary file, fsync, rename, fsync the folder).

    >>> import tempfile
    >>> p = write_atomic(Path(tempfile.mkdtemp()) / "a.txt", "hello")
    >>> p.read_text()
    'hello'
    """
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, FILE_MODE)  # mkstemp makes it private (0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(path.parent)
    return path


def sha256_of(path: str | Path) -> str:
    """The hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_manifest(directory: str | Path) -> dict[str, Any] | None:
    """The manifest of a result directory, or None when it has none (or it is unreadable)."""
    path = Path(directory) / MANIFEST
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def is_complete(directory: str | Path) -> bool:
    """True when ``directory`` holds a complete result whose files match their checksums."""
    manifest = read_manifest(directory)
    if manifest is None or manifest.get("status") != STATUS_COMPLETE:
        return False
    for entry in manifest.get("files", []):
        path = Path(directory) / entry["name"]
        if not path.is_file() or path.stat().st_size != entry["size"]:
            return False
        if sha256_of(path) != entry["sha256"]:
            return False
    return True


#: What :func:`check_result_dir` finds: no folder yet, an empty one, an unfinished run, a result.
NEW, EMPTY, UNFINISHED, COMPLETE = "new", "empty", "unfinished", "complete"


def check_result_dir(
    directory: str | Path,
    *,
    overwrite: bool = False,
    resume: bool = False,
    owned: tuple[str, ...] = (),
) -> str:
    """Check an output directory without touching it; return :data:`NEW`, :data:`EMPTY`,
    :data:`UNFINISHED` or :data:`COMPLETE`, or refuse it with one :class:`InputError` line.

    ``owned`` names the files (and sub-folders) a run of this kind writes; other entries
    are foreign and make the directory unusable (they would be mixed with new results).
    Hidden entries (temporary files of :func:`write_atomic`) are ignored.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_result_dir(folder / "new"), check_result_dir(folder)
    ('new', 'empty')
    >>> _ = (folder / "notes.txt").write_text("mine")
    >>> check_result_dir(folder)
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: --out ...: the folder holds files that are not an fltheory ...
    """
    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise InputError(f"--out {path}: exists and is not a directory")
    parent = path.parent if str(path.parent) else Path(".")
    if not path.exists():
        if not parent.is_dir():
            raise InputError(f"--out {path}: the parent folder {parent} does not exist")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise InputError(f"--out {path}: the parent folder {parent} is not writable")
        return NEW
    if not os.access(path, os.W_OK | os.X_OK):
        raise InputError(f"--out {path}: the folder is not writable")
    manifest = read_manifest(path)
    entries = sorted(p.name for p in path.iterdir() if not p.name.startswith("."))
    if manifest is None:
        if entries:
            raise InputError(
                f"--out {path}: the folder holds files that are not an fltheory result "
                f"({', '.join(entries[:3])}{', ...' if len(entries) > 3 else ''}); "
                "choose an empty or new folder"
            )
        return EMPTY
    foreign = [e for e in entries if e != MANIFEST and e not in owned]
    if foreign:
        raise InputError(
            f"--out {path}: the folder holds foreign files ({', '.join(foreign[:3])}); "
            "choose an empty or new folder"
        )
    complete = manifest.get("status") == STATUS_COMPLETE
    if complete and not (overwrite or resume):
        raise InputError(
            f"--out {path}: already holds a complete result; give --overwrite to replace it "
            "(or --resume to keep it)"
        )
    if not complete and not (resume or overwrite):
        raise InputError(
            f"--out {path}: holds an unfinished run; give --resume to continue it or "
            "--overwrite to start again"
        )
    return COMPLETE if complete else UNFINISHED


def prepare_result_dir(
    directory: str | Path,
    *,
    overwrite: bool = False,
    resume: bool = False,
    owned: tuple[str, ...] = (),
    keep: tuple[str, ...] = (),
) -> Path:
    """Check an output directory (:func:`check_result_dir`), create it if needed, empty it when
    ``overwrite`` is given without ``resume`` (except the entries named in ``keep``: caches
    keyed by their content), and return it.

    >>> import tempfile
    >>> prepare_result_dir(Path(tempfile.mkdtemp()) / "out").is_dir()
    True
    """
    path = Path(directory)
    found = check_result_dir(path, overwrite=overwrite, resume=resume, owned=owned)
    if found == NEW:
        try:
            path.mkdir()
        except OSError as exc:
            raise InputError(f"--out {path}: cannot create it ({exc.strerror})") from None
    elif found != EMPTY and overwrite and not resume:
        for target in path.iterdir():
            if target.name in keep:
                continue
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            else:
                target.unlink()
    return path


def write_manifest(
    directory: str | Path,
    files: list[str | Path],
    *,
    status: str,
    provenance: dict[str, Any] | None = None,
) -> Path:
    """Write ``manifest.json`` listing ``files`` (relative to ``directory``) with size and
    SHA-256, the run's provenance and its ``status`` — last, atomically."""
    directory = Path(directory)
    entries = []
    for name in files:
        path = directory / name
        entries.append(
            {"name": str(Path(name)), "size": path.stat().st_size, "sha256": sha256_of(path)}
        )
    manifest = {"status": status, "files": entries, "provenance": provenance or {}}
    return write_atomic(directory / MANIFEST, json.dumps(manifest, indent=2, default=str) + "\n")
