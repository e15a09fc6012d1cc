"""Real image data sets from files the user already has (no downloads) or from packages.

* :func:`digits` — scikit-learn's 8×8 handwritten digits (1797 images, shipped with the package);
  the embedded default real data set.
* :func:`idx_dataset` — MNIST / Fashion-MNIST in the IDX format of LeCun et al. (files
  ``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``, ``t10k-images-idx3-ubyte``,
  ``t10k-labels-idx1-ubyte``, each possibly gzipped). Fashion-MNIST's default directory is where
  Debian's ``dataset-fashion-mnist`` package installs it.
* :func:`cifar10` — CIFAR-10 in its python-pickle batch format (``data_batch_1`` … ``_5``,
  ``test_batch``). Pickle files can run code when loaded: only point this at files you trust.

Images come back flattened to (n, C·H·W) float32 in [0, 1] (pixel / max), channel-first, with
their (C, H, W) shape. A missing file raises a one-line :class:`InputError` saying where the
loader looked and how to provide the data. :func:`write_idx` writes IDX files (tests, tools).
"""

import gzip
import io
import pickle
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from fltheory.config.files import read_bytes, regular_file
from fltheory.errors import InputError
from fltheory.rng import generator

FASHION_MNIST_DIR = Path("/usr/share/datasets/fashion-mnist")
IDX_FILES = {
    "train_images": "train-images-idx3-ubyte",
    "train_labels": "train-labels-idx1-ubyte",
    "test_images": "t10k-images-idx3-ubyte",
    "test_labels": "t10k-labels-idx1-ubyte",
}
#: IDX type codes → numpy dtypes (big-endian as stored).
IDX_TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}
HOW_TO = {
    "fashion_mnist": "install Debian's package (apt-get install dataset-fashion-mnist) or set "
    "data_dir to a folder with the IDX files",
    "mnist": "put the four MNIST IDX files (optionally .gz) there, or set data_dir",
    "cifar10": "unpack cifar-10-python.tar.gz there (data_batch_1..5, test_batch), or set data_dir",
}


@dataclass(frozen=True, eq=False)
class ImageArrays:
    """Train/test images flattened to (n, C·H·W) in [0, 1], labels in 0..n_classes − 1."""

    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray
    shape: tuple[int, int, int]
    n_classes: int

    def __post_init__(self) -> None:
        size = int(np.prod(self.shape))
        for x, y in ((self.x_train, self.y_train), (self.x_test, self.y_test)):
            if x.ndim != 2 or x.shape[1] != size or y.shape != (x.shape[0],):
                raise InputError(f"images and labels do not match the shape {self.shape}")
            if y.size and (y.min() < 0 or y.max() >= self.n_classes):
                raise InputError(f"labels must lie in 0..{self.n_classes - 1}")


#: Largest IDX file read, packed or unpacked (bytes; MNIST's largest is 47 MB unpacked).
MAX_IDX_BYTES = 2**30


def read_idx(path: str | Path) -> np.ndarray:
    """An IDX file (magic 0x00 0x00 type ndim, big-endian int32 sizes, data), .gz allowed."""
    path = Path(path)
    data = read_bytes(path, "IDX file", max_bytes=MAX_IDX_BYTES)
    raw = data
    if path.suffix == ".gz":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as handle:
                raw = handle.read(MAX_IDX_BYTES + 1)  # a gzip bomb stops at the cap
        except (OSError, EOFError) as exc:
            raise InputError(f"{path}: not a readable gzip file ({exc})") from None
        if len(raw) > MAX_IDX_BYTES:
            raise InputError(f"{path}: unpacks to more than {MAX_IDX_BYTES:,} bytes")
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in IDX_TYPES:
        raise InputError(f"{path}: not an IDX file (bad magic number)")
    ndim = raw[3]
    header = 4 + 4 * ndim
    if len(raw) < header:
        raise InputError(f"{path}: truncated IDX header")
    dims = struct.unpack(f">{ndim}i", raw[4:header])
    dtype = np.dtype(IDX_TYPES[raw[2]])
    count = int(np.prod(dims)) if dims else 1
    if len(raw) - header != count * dtype.itemsize:
        raise InputError(f"{path}: IDX data size does not match its header {dims}")
    return (
        np.frombuffer(raw, dtype=dtype, offset=header).reshape(dims).astype(dtype.newbyteorder("="))
    )


def write_idx(path: str | Path, array: np.ndarray) -> Path:
    """Write ``array`` as an IDX file (gzipped when the name ends in .gz)."""
    path = Path(path)
    arr = np.asarray(array)
    codes = {np.dtype(v).newbyteorder("="): k for k, v in IDX_TYPES.items()}
    key = arr.dtype.newbyteorder("=")
    if key not in codes:
        raise InputError(f"IDX cannot store dtype {arr.dtype}")
    header = bytes([0, 0, codes[key], arr.ndim]) + struct.pack(f">{arr.ndim}i", *arr.shape)
    data = header + arr.astype(IDX_TYPES[codes[key]]).tobytes()
    with gzip.open(path, "wb") if path.suffix == ".gz" else path.open("wb") as handle:
        handle.write(data)
    return path


def _find(directory: Path, stem: str, name: str) -> Path:
    for candidate in (directory / stem, directory / f"{stem}.gz"):
        if candidate.is_file():
            return candidate
    raise InputError(f"{name}: no {stem}[.gz] in {directory}; {HOW_TO[name]}")


def idx_dataset(name: str = "fashion_mnist", directory: str | Path | None = None) -> ImageArrays:
    """MNIST or Fashion-MNIST from IDX files (``name`` is "mnist" or "fashion_mnist")."""
    if name not in ("mnist", "fashion_mnist"):
        raise InputError(f"unknown IDX data set '{name}' (mnist or fashion_mnist)")
    if directory is None:
        if name == "mnist":
            raise InputError("mnist: no data_dir given; " + HOW_TO["mnist"])
        directory = FASHION_MNIST_DIR
    directory = Path(directory)
    arrays = {key: read_idx(_find(directory, stem, name)) for key, stem in IDX_FILES.items()}
    images = [arrays["train_images"], arrays["test_images"]]
    labels = [arrays["train_labels"], arrays["test_labels"]]
    if any(a.ndim != 3 for a in images) or any(a.ndim != 1 for a in labels):
        raise InputError(f"{name}: image files must be 3-D and label files 1-D IDX arrays")
    h, w = images[0].shape[1:]
    scale = max(float(images[0].max()), 1.0)
    flat = [a.reshape(a.shape[0], -1).astype(np.float32) / scale for a in images]
    return ImageArrays(
        flat[0], labels[0].astype(np.int64), flat[1], labels[1].astype(np.int64), (1, h, w), 10
    )


def _cifar_batch(path: Path) -> tuple[np.ndarray, np.ndarray]:
    regular_file(path, "CIFAR-10 batch")
    try:
        with path.open("rb") as handle:
            batch = pickle.load(handle, encoding="bytes")
        data = np.asarray(batch[b"data"], dtype=np.uint8)
        labels = np.asarray(batch[b"labels"], dtype=np.int64)
    except (OSError, pickle.UnpicklingError, KeyError, TypeError, EOFError) as exc:
        raise InputError(f"{path}: not a CIFAR-10 python batch ({exc})") from None
    if data.ndim != 2 or data.shape[1] != 3072 or labels.shape != (data.shape[0],):
        raise InputError(f"{path}: CIFAR-10 batches hold (n, 3072) images and n labels")
    return data, labels


def cifar10(directory: str | Path | None) -> ImageArrays:
    """CIFAR-10 from ``data_batch_1`` … ``data_batch_5`` and ``test_batch`` in ``directory``."""
    if directory is None:
        raise InputError("cifar10: no data_dir given; " + HOW_TO["cifar10"])
    directory = Path(directory)
    names = [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]
    for n in names:
        if not (directory / n).is_file():
            raise InputError(f"cifar10: no {n} in {directory}; {HOW_TO['cifar10']}")
    parts = [_cifar_batch(directory / n) for n in names]
    x_train = np.concatenate([p[0] for p in parts[:5]]).astype(np.float32) / 255.0
    y_train = np.concatenate([p[1] for p in parts[:5]])
    x_test = parts[5][0].astype(np.float32) / 255.0
    return ImageArrays(x_train, y_train, x_test, parts[5][1], (3, 32, 32), 10)


def digits(test_fraction: float = 0.2) -> ImageArrays:
    """scikit-learn's digits (8×8, 17 grey levels), split train/test by a fixed permutation."""
    if not 0.0 < test_fraction < 1.0:
        raise InputError(f"test_fraction must lie in (0, 1), got {test_fraction}")
    from sklearn.datasets import load_digits

    bunch = load_digits()
    x = (bunch.data / 16.0).astype(np.float32)
    y = bunch.target.astype(np.int64)
    order = generator(0, "sim/datasets/digits-split").permutation(y.size)
    n_test = round(test_fraction * y.size)
    test, train = order[:n_test], order[n_test:]
    return ImageArrays(x[train], y[train], x[test], y[test], (1, 8, 8), 10)
