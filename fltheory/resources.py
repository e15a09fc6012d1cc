"""Refuse absurd sizes before allocating: the memory a job would need against what is available.

A request for 10⁹ clients, rounds or seeds must end in one line such as
``would need ~75 GiB for the availability trace; 23 GiB available`` — never in a MemoryError
traceback or an out-of-memory kill. Callers estimate their largest allocations up front and
call :func:`require_memory`.
"""

import os
import re

from fltheory.errors import InputError

GIB = 2**30
#: Share of the available memory one job may plan to use.
DEFAULT_MEMORY_FRACTION = 0.8


def _address_space_left() -> int | None:
    """Bytes this process may still map under ``ulimit -v`` (RLIMIT_AS), or None (no limit)."""
    try:
        import resource  # POSIX only
    except ImportError:
        return None
    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit == resource.RLIM_INFINITY:
        return None
    mapped = 0
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("VmSize:"):
                    mapped = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError):
        pass
    return max(int(limit) - mapped, 0)


def available_memory() -> int:
    """Bytes of memory available to a new allocation (``MemAvailable`` of /proc/meminfo,
    else free physical pages), capped by a cgroup limit when one is set and by what
    ``ulimit -v`` leaves this process.

    >>> available_memory() > 0
    True
    """
    found: int | None = None
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    found = int(line.split()[1]) * 1024
                    break
    except OSError:
        pass
    if found is None:
        try:
            found = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            found = 8 * GIB
    for limit_file in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(limit_file) as handle:
                text = handle.read().strip()
        except OSError:
            continue
        if text.isdigit():
            found = min(found, int(text))
    left = _address_space_left()
    return found if left is None else min(found, left)


def human_bytes(n: float) -> str:
    """``12 GiB``, ``340 MiB``, ``2.5 KiB`` (binary units, 2 significant digits where small).

    >>> human_bytes(75 * 2**30), human_bytes(3 * 2**20 + 1), human_bytes(12)
    ('75 GiB', '3.0 MiB', '12 B')
    """
    for unit, size in (("TiB", 2**40), ("GiB", GIB), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            value = n / size
            return f"{value:.0f} {unit}" if value >= 10 else f"{value:.1f} {unit}"
    return f"{n:.0f} B"


_UNITS = {"": 1, "b": 1, "k": 2**10, "m": 2**20, "g": GIB, "t": 2**40}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)


def parse_bytes(value: int | str, what: str = "memory limit") -> int:
    """A positive number of bytes: an integer, or text such as ``4GiB``, ``512 MiB``, ``2g``
    (K, M, G, T: binary units, with or without ``iB``/``B``).

    >>> parse_bytes("4GiB"), parse_bytes("1.5 m"), parse_bytes(1024)
    (4294967296, 1572864, 1024)
    >>> parse_bytes("lots")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: memory limit must be a positive size such as 4GiB or ..., got 'lots'
    """
    match = None if isinstance(value, bool | int) else _SIZE.fullmatch(str(value))
    if isinstance(value, int) and not isinstance(value, bool):
        size = value
    elif match is not None:
        size = int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    else:
        size = 0
    if size < 1:
        raise InputError(f"{what} must be a positive size such as 4GiB or 512MiB, got {value!r}")
    return size


def require_memory(
    needed: float,
    what: str,
    *,
    limit: float | None = None,
    fraction: float = DEFAULT_MEMORY_FRACTION,
) -> None:
    """Raise InputError when ``needed`` bytes exceed ``limit`` (default: ``fraction`` of the
    available memory).

    >>> require_memory(1024, "a small table")
    >>> require_memory(75 * 2**50, "the availability trace")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: would need ~76800 TiB for the availability trace; ... available
    """
    available = available_memory()
    budget = fraction * available if limit is None else limit
    if needed <= budget:
        return
    message = f"would need ~{human_bytes(needed)} for {what}; "
    if limit is None:
        message += f"{human_bytes(available)} available"
    else:
        message += f"the limit is {human_bytes(limit)} ({human_bytes(available)} available)"
    raise InputError(message)
