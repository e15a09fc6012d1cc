"""Provenance of a result: what produced it, from what, where — so a number can be traced.

:func:`provenance` records the fltheory version, the git commit of the source tree when it is a
checkout, the Python/numpy/torch versions, the platform, the command line, the time, every
outside plug-in loaded (:func:`fltheory.plugins.plugin_records`: module, distribution and
version, SHA-256 of its source files, what it registered), and (from the caller) the fully
resolved configuration with its hash, the seeds, device and dtype.
"""

import datetime as _dt
import hashlib
import json
import platform
import subprocess
import sys
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

from fltheory._version import __version__
from fltheory.plugins import plugin_records


def config_hash(config: Any) -> str:
    """SHA-256 of the canonical JSON of ``config`` (sorted keys): equal configs, equal hashes.

    >>> config_hash({"b": 1, "a": [1, 2]}) == config_hash({"a": [1, 2], "b": 1})
    True
    """
    text = json.dumps(config, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def git_commit() -> str | None:
    """The commit of the source checkout fltheory runs from (with ``+dirty`` when modified),
    or None when it is not a git checkout (an installed wheel) or git is missing."""
    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return None
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True, text=True, timeout=5, check=True,
        ).stdout.strip()  # fmt: skip
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True, text=True, timeout=5, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{commit}+dirty" if dirty else commit


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def provenance(**extra: Any) -> dict[str, Any]:
    """The common provenance record, updated with the caller's ``extra`` fields (e.g.
    ``config=..., config_hash=..., seeds=..., device=..., dtype=...``).

    >>> record = provenance(seeds=[0, 1])
    >>> record["fltheory_version"] == __version__ and record["seeds"] == [0, 1]
    True
    """
    record: dict[str, Any] = {
        "fltheory_version": __version__,
        "git_commit": git_commit(),
        "python": platform.python_version(),
        "numpy": _version("numpy"),
        "torch": _version("torch"),
        "platform": platform.platform(),
        "command": sys.argv,
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "plugins": plugin_records(),
    }
    record.update(extra)
    return record
