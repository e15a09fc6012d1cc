"""An exclusive lock on an output (a result folder, an exported file) that names its holder.

The lock is ``flock(2)`` on a small lock file holding the holder's pid, host, command line and
start time. The kernel drops the lock when its holder ends, however it ends (``kill -9``
included), so a lock left by a dead process is taken over at once, safely: no guess from a pid
that may have been reused, and no window where two writers both think they hold it. A second
writer is refused with one line naming the holder. The standard library's ``fcntl`` is all it
needs (a lock-file package would add a dependency for these forty lines, and none of the usual
ones names the holder).
"""

import datetime as _dt
import errno
import fcntl
import json
import os
import shlex
import socket
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from fltheory.errors import InputError

#: The lock file of a result folder (hidden: never one of its entries).
FOLDER_LOCK = ".fltheory.lock"
#: Seconds a refused writer waits for the holder to write its name into the lock file (the
#: holder writes it right after locking).
_NAME_WAIT = 0.5


def holder_record() -> dict[str, Any]:
    """Who this process is, as written into the lock files it holds.

    >>> sorted(holder_record())
    ['command', 'host', 'pid', 'since']
    """
    argv = list(sys.argv) or ["python"]
    name = Path(argv[0]).name
    if name in ("__main__.py", "fltheory"):  # python -m fltheory, or the console script
        name = "fltheory"
    command = shlex.join([name, *argv[1:]])
    return {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "command": command if len(command) <= 200 else command[:199] + "…",
        "since": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
    }


def describe_holder(record: dict[str, Any] | None) -> str:
    """The holder in words, for a refusal.

    >>> describe_holder({"pid": 7, "host": "h", "command": "fltheory x", "since": "2024"})
    'pid 7 on h, since 2024: fltheory x'
    >>> describe_holder(None)
    'a process that has not written its name yet'
    """
    if not record:
        return "a process that has not written its name yet"
    return (
        f"pid {record.get('pid')} on {record.get('host')}, since {record.get('since')}: "
        f"{record.get('command')}"
    )


def held_by(path: Path) -> dict[str, Any] | None:
    """The holder of the lock file ``path`` while a process holds it (``{}`` when it has not
    written its name yet), None when nobody does; takes nothing.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / ".lock"
    >>> held_by(path) is None
    True
    >>> with OutputLock(path, "--out x"):
    ...     held_by(path)["pid"] == os.getpid()
    True
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return OutputLock._holder(fd) or {}
    except OSError:
        return None
    finally:
        os.close(fd)
    return None


def refusal(what: str, holder: dict[str, Any] | None) -> InputError:
    """The one-line refusal of a second writer."""
    return InputError(
        f"{what}: another fltheory command is writing it ({describe_holder(holder)}); wait "
        "for it to end or choose another name"
    )


class OutputLock:
    """``with OutputLock(lock_file, "--out DIR"):`` — hold the lock on an output, or be refused
    with one :class:`~fltheory.errors.InputError` line naming the holder. The lock file is
    removed when released.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / ".lock"
    >>> with OutputLock(path, "--out x"):
    ...     try:
    ...         OutputLock(path, "--out x").acquire()
    ...     except InputError as err:
    ...         print(str(err).startswith("--out x: another fltheory command is writing it"))
    True
    >>> path.exists()
    False
    """

    def __init__(self, path: Path, what: str) -> None:
        self.path = Path(path)
        self.what = what
        self._fd: int | None = None

    def acquire(self) -> "OutputLock":
        """Take the lock (at once: a held lock is refused, never waited for)."""
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except FileNotFoundError:  # the folder went away under us: create it again
                self.path.parent.mkdir(parents=True, exist_ok=True)
                continue
            except OSError as exc:
                raise InputError(
                    f"{self.what}: cannot create its lock file ({exc.strerror})"
                ) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = self._holder(fd)
                os.close(fd)
                raise refusal(self.what, holder) from None
            except OSError as exc:
                os.close(fd)
                if exc.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL):
                    raise InputError(
                        f"{self.what}: its file system does not support locks ({exc.strerror}); "
                        "choose a folder on a local disk"
                    ) from None
                raise
            if self._same_file(fd):
                break
            os.close(fd)  # its holder removed it meanwhile: lock the new one
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(holder_record()) + "\n").encode(), 0)
        self._fd = fd
        return self

    def _same_file(self, fd: int) -> bool:
        """Whether the locked file is still the one at ``path`` (a releasing holder unlinks it
        while it holds the lock; whoever locked the unlinked file must try again)."""
        try:
            here = os.stat(self.path)
        except FileNotFoundError:
            return False
        mine = os.fstat(fd)
        return (here.st_dev, here.st_ino) == (mine.st_dev, mine.st_ino)

    @staticmethod
    def _holder(fd: int) -> dict[str, Any] | None:
        deadline = time.monotonic() + _NAME_WAIT
        while True:
            try:
                record = json.loads(os.pread(fd, 4096, 0).decode("utf-8", "replace"))
                if isinstance(record, dict):
                    return record
            except (OSError, ValueError):
                pass
            if time.monotonic() > deadline:
                return None
            time.sleep(0.01)

    def release(self) -> None:
        """Remove the lock file and drop the lock (removed first, while still held)."""
        if self._fd is None:
            return
        try:
            os.unlink(self.path)
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> "OutputLock":
        return self.acquire()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
