"""Which data set an experiment's run reads, and from where: ``--data-dir`` and stand-ins.

A setup's configs name a ``[problem]`` kind; the file-backed kinds (``mnist``, ``fashion_mnist``,
``cifar10``, ``svhn``) read the folder given by ``fltheory reproduce --data-dir`` (written into
the problem table's ``data_dir``). Without a folder, MNIST is replaced by its stand-in,
Fashion-MNIST from Debian's ``dataset-fashion-mnist`` package; the label of what was read goes
into the verdict (``data``), the summary, the CSV headers and the PNG titles. Data that are
absent stop the run before any work with one line naming what is missing and where it looked.

>>> tables, label = resolve({"problem": {"kind": "digits"}}, None)
>>> label is None
True
"""

import copy
from pathlib import Path
from typing import Any

from fltheory.errors import InputError
from fltheory.sim.datasets import FASHION_MNIST_DIR, missing

#: Problem kinds read from files, with their names in the outputs.
FILE_KINDS = {
    "mnist": "MNIST",
    "fashion_mnist": "Fashion-MNIST",
    "cifar10": "CIFAR-10",
    "svhn": "SVHN",
}
#: What stands in for a data set when no folder is given.
STAND_INS = {"mnist": "fashion_mnist"}


def needed(kind: str, data_dir: Path | None) -> tuple[str, str | None]:
    """(kind actually read, why it cannot be read or None) for a config naming ``kind``.

    >>> needed("cifar10", None)[1].startswith("cifar10: no data_dir given")
    True
    """
    actual = STAND_INS.get(kind, kind) if data_dir is None else kind
    return actual, missing(actual, data_dir)


def label(kind: str, actual: str, data_dir: Path | None) -> str:
    """How the outputs name the data read.

    >>> label("mnist", "fashion_mnist", None).split(" (")[0]
    'Fashion-MNIST standing in for MNIST'
    """
    if actual != kind:
        return (
            f"{FILE_KINDS[actual]} standing in for {FILE_KINDS[kind]} "
            f"(Debian dataset-fashion-mnist, {FASHION_MNIST_DIR})"
        )
    where = FASHION_MNIST_DIR if data_dir is None else data_dir
    return f"{FILE_KINDS[kind]} from {where}"


def _one(tables: dict[str, Any], data_dir: Path | None) -> tuple[dict[str, Any], str | None]:
    kind = tables.get("problem", {}).get("kind")
    if kind not in FILE_KINDS:
        return tables, None
    actual, why = needed(kind, data_dir)
    if why is not None:
        raise InputError(f"needs data: {why}")
    out = copy.deepcopy(tables)
    out["problem"]["kind"] = actual
    if data_dir is not None:
        out["problem"]["data_dir"] = str(data_dir)
    return out, label(kind, actual, data_dir)


def resolve(config: Any, data_dir: Path | None) -> tuple[Any, str | None]:
    """(config with the data set actually read and its folder, its label or None when no file
    data set is read); a sweep (list of (tag, tables)) is resolved tag by tag. Absent data
    raise a one-line InputError starting ``needs data:``."""
    if isinstance(config, list):
        labels: list[str] = []
        resolved = []
        for tag, tables in config:
            new, name = _one(tables, data_dir)
            resolved.append((tag, new))
            if name is not None and name not in labels:
                labels.append(name)
        return resolved, "; ".join(labels) or None
    return _one(config, data_dir)


def data_status(kinds: tuple[str, ...], data_dir: Path | None = None) -> str | None:
    """``needs data: ...`` when a setup reading ``kinds`` cannot find them, else None.

    >>> data_status(("cifar10",)).startswith("needs data: cifar10")
    True
    """
    for kind in kinds:
        why = needed(kind, data_dir)[1]
        if why is not None:
            return f"needs data: {why}"
    return None
