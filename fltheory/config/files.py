"""Reading user files without trusting them: regular files only, bounded size, bounded nesting.

Every reader here refuses, with a one-line :class:`~fltheory.errors.InputError` and before
reading a byte, what is not a regular file (a directory, a named pipe that would block forever,
``/dev/zero`` that would fill memory); files above a size cap; text that is not UTF-8; and
TOML/JSON nested deeper than :data:`MAX_NESTING` (the parsers would otherwise hit Python's
recursion limit).
"""

import json
import math
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

from fltheory.errors import InputError

#: Largest configuration or small data file read as text (bytes).
MAX_TEXT_BYTES = 64 * 2**20
#: Deepest nesting of tables/arrays accepted in TOML and JSON.
MAX_NESTING = 32
#: Largest ``.npy`` file read (bytes).
MAX_NPY_BYTES = 4 * 2**30


def regular_file(path: str | Path, what: str = "file") -> Path:
    """``path`` as a :class:`Path` after checking it names an existing regular file.

    >>> regular_file("/")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: /: file is a directory, not a regular file
    """
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InputError(f"{path}: {what} not found") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read {what} ({exc.strerror})") from None
    if stat.S_ISDIR(mode):
        raise InputError(f"{path}: {what} is a directory, not a regular file")
    if not stat.S_ISREG(mode):
        kind = "a named pipe" if stat.S_ISFIFO(mode) else "a device or special file"
        raise InputError(f"{path}: {what} is {kind}, not a regular file")
    return path


def read_bytes(path: str | Path, what: str = "file", max_bytes: int = MAX_TEXT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` (refused above, before reading).

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = Path(folder.name) / "f.bin"
    >>> _ = path.write_bytes(b"0123456789")
    >>> read_bytes(path)[:4]
    b'0123'
    >>> read_bytes(path, max_bytes=5)
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: ...f.bin: file has 10 bytes, more than the 5 accepted
    >>> folder.cleanup()
    """
    path = regular_file(path, what)
    size = path.stat().st_size
    if size > max_bytes:
        raise InputError(f"{path}: {what} has {size:,} bytes, more than the {max_bytes:,} accepted")
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise InputError(f"{path}: cannot read {what} ({exc.strerror})") from None
    if len(data) > max_bytes:  # the file grew while we read it
        raise InputError(f"{path}: {what} is larger than the {max_bytes:,} bytes accepted")
    return data


def read_text(path: str | Path, what: str = "file", max_bytes: int = MAX_TEXT_BYTES) -> str:
    """The UTF-8 text of a regular file (see :func:`read_bytes`).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "notes.txt"
    ...     _ = path.write_text("λ(P) = 0.95", encoding="utf-8")
    ...     read_text(path)
    'λ(P) = 0.95'
    """
    data = read_bytes(path, what, max_bytes)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{Path(path)}: {what} is not UTF-8 text (byte {exc.start}: {exc.reason})"
        ) from None


def nesting_depth(value: Any, limit: int = MAX_NESTING) -> int:
    """Depth of nested dicts/lists (0 for a scalar), counting no further than ``limit`` + 1."""
    depth, level = 0, [value]
    while level and depth <= limit:
        nxt: list[Any] = []
        for item in level:
            if isinstance(item, dict):
                nxt.extend(item.values())
            elif isinstance(item, list):
                nxt.extend(item)
        if not nxt:
            break
        depth += 1
        level = nxt
    return depth


def _check_nesting(value: Any, path: Path, what: str) -> None:
    if nesting_depth(value) > MAX_NESTING:
        raise InputError(f"{path}: {what} is nested more than {MAX_NESTING} levels deep")


def load_toml(path: str | Path, what: str = "config file") -> dict[str, Any]:
    """Parse a TOML file into a dict (every failure is one line naming the file).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
    ...     _ = f.write("a = 1")
    >>> load_toml(f.name)
    {'a': 1}
    >>> os.unlink(f.name)
    """
    path = Path(path)
    text = read_text(path, what)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: invalid TOML ({exc})") from None
    except RecursionError:
        raise InputError(f"{path}: {what} is nested too deeply to parse") from None
    _check_nesting(data, path, what)
    return data


def load_json(path: str | Path, what: str = "JSON file") -> Any:
    """Parse a JSON file (standard JSON: NaN and Infinity are refused).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "chain.json"
    ...     _ = path.write_text('{"P": [[0.5, 0.5], [0.3, 0.7]], "bad": NaN}')
    ...     load_json(path)
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: ...chain.json: JSON file contains NaN, which is not a JSON number
    """
    path = Path(path)
    text = read_text(path, what)

    def _no_constants(name: str) -> Any:
        raise InputError(f"{path}: {what} contains {name}, which is not a JSON number")

    try:
        data = json.loads(text, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: invalid JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise InputError(f"{path}: {what} is nested too deeply to parse") from None
    _check_nesting(data, path, what)
    return data


def load_npy(
    path: str | Path,
    what: str = "array file",
    *,
    ndim: int | tuple[int, ...] | None = None,
    kinds: str = "biuf",
    max_bytes: int = MAX_NPY_BYTES,
) -> np.ndarray:
    """A ``.npy`` array whose header has been checked before its data is read.

    Refused with one line: non-regular files, files above ``max_bytes``, pickled (object)
    arrays, dtypes whose kind is not in ``kinds`` ("b" bool, "i"/"u" integers, "f" floats;
    complex "c" is refused unless listed — silently dropping an imaginary part is a wrong
    number), 0-d and empty arrays, a number of dimensions other than ``ndim``, and headers
    that lie about the size of the data that follows.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "a.npy")
    >>> np.save(path, np.eye(2))
    >>> load_npy(path, ndim=2).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    >>> np.save(path, np.array(3.0))
    >>> load_npy(path)
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: ...: array file holds a 0-d array (a single number), not an array
    """
    path = regular_file(path, what)
    size = path.stat().st_size
    if size > max_bytes:
        raise InputError(f"{path}: {what} has {size:,} bytes, more than the {max_bytes:,} accepted")
    try:
        with path.open("rb") as handle:
            version = np.lib.format.read_magic(handle)
            if version == (1, 0):
                shape, _fortran, dtype = np.lib.format.read_array_header_1_0(handle)
            else:
                shape, _fortran, dtype = np.lib.format.read_array_header_2_0(handle)
            offset = handle.tell()
            if dtype.hasobject:
                raise InputError(f"{path}: {what} holds Python objects (pickled); refused")
            if dtype.kind not in kinds:
                raise InputError(
                    f"{path}: {what} has dtype {dtype} (kind '{dtype.kind}'); "
                    f"expected one of kinds '{kinds}' (b bool, i/u integer, f float)"
                )
            if len(shape) == 0:
                raise InputError(
                    f"{path}: {what} holds a 0-d array (a single number), not an array"
                )
            expected = math.prod(shape) * dtype.itemsize
            if expected != size - offset:
                raise InputError(
                    f"{path}: {what} header declares shape {shape} ({expected:,} bytes of "
                    f"data) but {size - offset:,} bytes follow: truncated or corrupt"
                )
            if math.prod(shape) == 0:
                raise InputError(f"{path}: {what} is empty (shape {shape})")
            wanted = (ndim,) if isinstance(ndim, int) else ndim
            if wanted is not None and len(shape) not in wanted:
                dims = " or ".join(str(d) for d in wanted)
                raise InputError(f"{path}: {what} must be {dims}-D, got shape {shape}")
            handle.seek(0)
            array = np.load(handle, allow_pickle=False)
    except InputError:
        raise
    except (ValueError, OSError, EOFError) as exc:
        raise InputError(f"{path}: not a readable .npy file ({exc})") from None
    return np.asarray(array)
