"""Crash-safe result directories: atomic files and a manifest written last.

Every file goes to a temporary name in the same directory, is fsync-ed and renamed over its
final name, so a reader sees the old file or the new one, never half of one. ``manifest.json``
(files, sizes, sha256, provenance, ``status``) is written when a run starts (status
``in_progress``) and rewritten last (``complete``): a directory without a complete manifest is
never a result, and a run can tell its own unfinished directory from a foreign one.

Checks happen before any work (:func:`check_result_dir`): an ``--out`` that is an existing
file, sits under a parent that is not a folder, is not writable, already holds a complete result
(unless overwrite or resume is asked for), holds foreign files, an input of the command or a
damaged manifest is refused with one line. :mod:`fltheory.resultdir` makes a run's writes into
such a folder one transaction (a lock, a staging folder, a commit).
"""

import hashlib
import io
import json
import os
import tempfile
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fltheory.errors import InputError
from fltheory.lock import FOLDER_LOCK, held_by, refusal

if TYPE_CHECKING:
    import numpy as np

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


def write_atomic(path: str | Path, data: bytes | str, *, sync_folder: bool = True) -> Path:
    """Write ``data`` to ``path`` atomically (temporary file, fsync, rename, fsync the folder;
    ``sync_folder=False`` leaves the last to the caller, e.g. a staging folder whose files are
    renamed again before they count).

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
    if sync_folder:
        _fsync_dir(path.parent)
    return path


def npz_bytes(arrays: Mapping[str, "np.ndarray"], *, compress: bool = False) -> bytes:
    """The bytes of an ``.npz`` holding ``arrays`` — deterministic (no time stamps), so equal
    arrays give equal files (:func:`numpy.savez` stamps each member with the current time);
    write them with :func:`write_atomic`.

    >>> import numpy as np
    >>> blob = npz_bytes({"a": np.arange(3)})
    >>> blob == npz_bytes({"a": np.arange(3)}), np.load(io.BytesIO(blob))["a"].tolist()
    (True, [0, 1, 2])
    """
    import numpy as np  # here, not at the top: this module is imported where numpy is not

    buffer = io.BytesIO()
    method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(buffer, "w", compression=method) as archive:
        for name, value in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = method
            with archive.open(info, "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asarray(value), allow_pickle=False)
    return buffer.getvalue()


def sha256_of(path: str | Path) -> str:
    """The hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _bad_name(name: object) -> bool:
    """A file name a manifest may not list: not text, absolute, hidden, or reaching outside."""
    if not isinstance(name, str) or not name or "\x00" in name or "\\" in name:
        return True
    parts = Path(name).parts
    return Path(name).is_absolute() or ".." in parts or parts[0].startswith(".")


def manifest_problem(data: object) -> str | None:
    """Why ``data`` is not a manifest this module wrote (None when it is one).

    >>> manifest_problem({"status": "complete", "files": [], "provenance": {}}) is None
    True
    >>> manifest_problem({"status": "complete", "files": [{"name": "../x"}], "provenance": {}})
    'files[0] is not {name, size, sha256} of a file in the folder'
    """
    if not isinstance(data, dict):
        return "not a JSON object"
    if data.get("status") not in (STATUS_RUNNING, STATUS_COMPLETE):
        return f"status {data.get('status')!r} is neither {STATUS_RUNNING} nor {STATUS_COMPLETE}"
    if not isinstance(data.get("provenance", {}), dict):
        return "provenance is not a table"
    files = data.get("files")
    if not isinstance(files, list):
        return "files is not a list"
    for i, entry in enumerate(files):
        ok = (
            isinstance(entry, dict)
            and not _bad_name(entry.get("name"))
            and isinstance(entry.get("size"), int)
            and isinstance(entry.get("sha256"), str)
        )
        if not ok:
            return f"files[{i}] is not {{name, size, sha256}} of a file in the folder"
    return None


def manifest_damage(directory: str | Path) -> str | None:
    """Why the ``manifest.json`` of ``directory`` cannot be trusted; None when it is absent or
    sound."""
    path = Path(directory) / MANIFEST
    if not os.path.lexists(path):
        return None
    if not path.is_file():
        return "it is not a regular file"
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError) as exc:
        return f"it is not JSON ({type(exc).__name__})"
    return manifest_problem(data)


def read_manifest(directory: str | Path) -> dict[str, Any] | None:
    """The manifest of a result directory, or None when it has none (or it is unreadable, or
    not a manifest: :func:`manifest_problem`)."""
    path = Path(directory) / MANIFEST
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError):
        return None
    return data if manifest_problem(data) is None else None


def changed_files(directory: str | Path, manifest: dict[str, Any]) -> list[str]:
    """The files a manifest lists that are missing or differ from their size and SHA-256.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = write_atomic(folder / "a.txt", "a")
    >>> m = json.loads(write_manifest(folder, ["a.txt"], status="complete").read_text())
    >>> changed_files(folder, m), (folder / "a.txt").write_text("b"), changed_files(folder, m)
    ([], 1, ['a.txt (its SHA-256 differs)'])
    """
    problems = []
    for entry in manifest.get("files", []):
        path = Path(directory) / entry["name"]
        if not path.is_file():
            problems.append(f"{entry['name']} (missing)")
        elif path.stat().st_size != entry["size"]:
            problems.append(f"{entry['name']} (its size differs)")
        elif sha256_of(path) != entry["sha256"]:
            problems.append(f"{entry['name']} (its SHA-256 differs)")
    return problems


def is_complete(directory: str | Path) -> bool:
    """True when ``directory`` holds a complete result whose files match their checksums."""
    manifest = read_manifest(directory)
    if manifest is None or manifest.get("status") != STATUS_COMPLETE:
        return False
    return not changed_files(directory, manifest)


#: What :func:`check_result_dir` finds: no folder yet, an empty one, an unfinished run, a result.
NEW, EMPTY, UNFINISHED, COMPLETE = "new", "empty", "unfinished", "complete"


def missing_parents(path: str | Path, flag: str = "--out") -> list[Path]:
    """The folders above ``path`` that do not exist yet, outermost first (to be created as by
    ``mkdir -p``); one :class:`InputError` line when one in the way is not a folder or the
    nearest existing one is not writable.

    >>> import tempfile
    >>> base = Path(tempfile.mkdtemp())
    >>> [p.relative_to(base).as_posix() for p in missing_parents(base / "a" / "b" / "out")]
    ['a', 'a/b']
    """
    path = Path(path)
    missing: list[Path] = []
    parent = path.parent
    while not os.path.lexists(parent) and parent != parent.parent:
        missing.insert(0, parent)
        parent = parent.parent
    if not parent.is_dir():
        raise InputError(f"{flag} {path}: {parent} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(f"{flag} {path}: the folder {parent} is not writable")
    return missing


def _input_inside(path: Path, inputs: tuple[str | Path, ...], flag: str) -> None:
    """Refuse an output that is, or holds, an input of the command (its config, its data)."""
    target = path.resolve()
    for item in inputs:
        source = Path(item).resolve()
        if source == target:
            raise InputError(f"{flag} {path}: is an input of this command ({item})")
        if target in source.parents:
            raise InputError(
                f"{flag} {path}: holds an input of this command ({item}); choose another folder"
            )


def check_result_dir(
    directory: str | Path,
    *,
    overwrite: bool = False,
    resume: bool = False,
    owned: tuple[str, ...] = (),
    resumable: bool = True,
    inputs: tuple[str | Path, ...] = (),
    flag: str = "--out",
    locked: bool = False,
) -> str:
    """Check an output directory without touching it; return :data:`NEW`, :data:`EMPTY`,
    :data:`UNFINISHED` or :data:`COMPLETE`, or refuse it with one :class:`InputError` line.

    ``owned`` names the files (and sub-folders) a run of this kind writes; other entries
    are foreign and make the directory unusable (they would be mixed with new results).
    Hidden entries (``.git``, notes, the lock and staging of :mod:`fltheory.resultdir`) are
    never touched and never in the way. Missing parent folders are fine (they are created);
    ``inputs`` (the command's config, data, store) may not be the directory or lie inside it;
    ``resumable``: whether the command takes ``--resume`` (the advice in the refusals). A
    folder another command is writing (its lock is held: :mod:`fltheory.lock`) is refused
    naming that command, unless ``locked`` (the caller holds the lock).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_result_dir(folder / "new" / "out"), check_result_dir(folder)
    ('new', 'empty')
    >>> _ = (folder / "notes.txt").write_text("mine")
    >>> check_result_dir(folder)
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: --out ...: the folder holds files that are not an fltheory ...
    """
    path = Path(directory)
    _input_inside(path, inputs, flag)
    if os.path.lexists(path) and not path.is_dir():
        raise InputError(f"{flag} {path}: exists and is not a directory")
    if not path.exists():
        missing_parents(path, flag)
        return NEW
    if not os.access(path, os.W_OK | os.X_OK):
        raise InputError(f"{flag} {path}: the folder is not writable")
    holder = None if locked else held_by(path / FOLDER_LOCK)
    if holder is not None:
        raise refusal(f"{flag} {path}", holder)
    damage = manifest_damage(path)
    if damage is not None:
        raise InputError(
            f"{flag} {path}: its {MANIFEST} is damaged ({damage}); fltheory cannot tell what "
            "it wrote there: move the folder away or choose another"
        )
    manifest = read_manifest(path)
    entries = sorted(p.name for p in path.iterdir() if not p.name.startswith("."))
    if manifest is None:
        if entries:
            raise InputError(
                f"{flag} {path}: the folder holds files that are not an fltheory result "
                f"({', '.join(entries[:3])}{', ...' if len(entries) > 3 else ''}); "
                "choose an empty or new folder"
            )
        return EMPTY
    foreign = [e for e in entries if e != MANIFEST and e not in owned]
    if foreign:
        raise InputError(
            f"{flag} {path}: the folder holds foreign files ({', '.join(foreign[:3])}); "
            "choose an empty or new folder"
        )
    complete = manifest.get("status") == STATUS_COMPLETE
    if complete and not (overwrite or resume):
        keep = " (or --resume to keep it)" if resumable else ""
        raise InputError(
            f"{flag} {path}: already holds a complete result; give --overwrite to replace it{keep}"
        )
    if not complete and not (resume or overwrite):
        advice = "--resume to continue it or --overwrite" if resumable else "--overwrite"
        raise InputError(f"{flag} {path}: holds an unfinished run; give {advice} to start again")
    return COMPLETE if complete else UNFINISHED


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
