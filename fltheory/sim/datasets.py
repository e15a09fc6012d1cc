"""Real image data sets from files the user already has (no downloads) or from packages.

* :func:`digits` — scikit-learn's 8×8 handwritten digits (1797 images, shipped with the package);
  the embedded default real data set.
* :func:`idx_dataset` — MNIST / Fashion-MNIST in the IDX format of LeCun et al. (files
  ``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``, ``t10k-images-idx3-ubyte``,
  ``t10k-labels-idx1-ubyte``, each possibly gzipped). Fashion-MNIST's default directory is where
  Debian's ``dataset-fashion-mnist`` package installs it.
* :func:`cifar10` — CIFAR-10 in its python-pickle batch format (``data_batch_1`` … ``_5``,
  ``test_batch``, directly in the folder or in its ``cifar-10-batches-py``), read by a restricted
  unpickler (:func:`safe_unpickle`: containers, scalars and numpy arrays only).
* :func:`svhn` — SVHN cropped digits, ``train_32x32.mat`` / ``test_32x32.mat`` (MATLAB v5, read
  with ``scipy.io.loadmat``).
* :func:`missing` — why a data set cannot be loaded from a folder, without reading it.

Images come back flattened to (n, C·H·W) float32 in [0, 1] (pixel / max), channel-first, with
their (C, H, W) shape. A missing file raises a one-line :class:`InputError` saying where the
loader looked and how to provide the data. :func:`write_idx` writes IDX files (tests, tools).
"""

import gzip
import io
import math
import pickle
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, cast

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
    "svhn": "put SVHN's train_32x32.mat and test_32x32.mat there, or set data_dir",
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


#: Largest IDX payload read, unpacked (bytes; MNIST's largest is 47 MB).
MAX_IDX_BYTES = 2**30
#: Most dimensions an IDX header may declare (images are 3-D; the format allows 255).
MAX_IDX_DIMS = 8


def _idx_stream(path: Path) -> BinaryIO:
    """The file opened for reading, through gzip when its name ends in .gz."""
    try:
        handle: BinaryIO = path.open("rb")
    except OSError as exc:
        raise InputError(f"{path}: cannot read IDX file ({exc.strerror})") from None
    if path.suffix == ".gz":
        return cast(BinaryIO, gzip.GzipFile(fileobj=handle, mode="rb"))
    return handle


def _read_at_most(stream: BinaryIO, path: Path, size: int) -> bytes:
    try:
        return stream.read(size)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"{path}: not a readable IDX file ({exc})") from None


def _read_exactly(stream: BinaryIO, path: Path, size: int, what: str) -> bytes:
    data = _read_at_most(stream, path, size)
    if len(data) != size:
        raise InputError(f"{path}: truncated IDX {what} ({len(data)} of {size:,} bytes)")
    return data


def read_idx(path: str | Path) -> np.ndarray:
    """An IDX file (magic 0x00 0x00 type ndim, big-endian int32 sizes, data), .gz allowed.

    The header is validated (magic, type, at most 8 dimensions, non-negative sizes, a payload
    of at most 1 GiB) before the payload is read; a short or over-long payload is refused.

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> read_idx(write_idx(Path(folder.name) / "a.gz", np.arange(6, dtype=np.uint8).reshape(2, 3)))
    array([[0, 1, 2],
           [3, 4, 5]], dtype=uint8)
    >>> folder.cleanup()
    """
    path = regular_file(path, "IDX file")
    with _idx_stream(path) as stream:
        magic = _read_exactly(stream, path, 4, "magic number")
        if magic[0] != 0 or magic[1] != 0 or magic[2] not in IDX_TYPES:
            raise InputError(f"{path}: not an IDX file (bad magic number)")
        ndim = magic[3]
        if ndim > MAX_IDX_DIMS:
            raise InputError(f"{path}: IDX header declares {ndim} dimensions (at most 8)")
        dims = struct.unpack(f">{ndim}i", _read_exactly(stream, path, 4 * ndim, "header"))
        if any(d < 0 for d in dims):
            raise InputError(f"{path}: negative size in the IDX header {dims}")
        dtype = np.dtype(IDX_TYPES[magic[2]])
        size = math.prod(dims) * dtype.itemsize
        if size > MAX_IDX_BYTES:
            raise InputError(
                f"{path}: IDX header {dims} declares {size:,} bytes, more than {MAX_IDX_BYTES:,}"
            )
        payload = _read_exactly(stream, path, size, "data")
        if _read_at_most(stream, path, 1):
            raise InputError(f"{path}: IDX data size does not match its header {dims}")
    return np.frombuffer(payload, dtype=dtype).reshape(dims).astype(dtype.newbyteorder("="))


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


#: The only globals a CIFAR-10 batch may name: numpy's array reconstruction (numpy 1 and 2).
CIFAR_PICKLE_GLOBALS = frozenset(
    {
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy._core.multiarray", "_reconstruct"),
        ("numpy.core.numeric", "_frombuffer"),
        ("numpy._core.numeric", "_frombuffer"),
        ("numpy", "ndarray"),
        ("numpy", "dtype"),
        ("_codecs", "encode"),
    }
)
#: Largest CIFAR-10 batch file read (each official batch is about 31 MB).
MAX_CIFAR_BATCH_BYTES = 2**28


class _SafeUnpickler(pickle.Unpickler):
    """An unpickler that builds only containers, scalars and numpy arrays: any other global
    (a function that could run code) is refused."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in CIFAR_PICKLE_GLOBALS:
            raise pickle.UnpicklingError(f"refused global {module}.{name}")
        return super().find_class(module, name)


def safe_unpickle(data: bytes) -> Any:
    """Unpickle ``data`` allowing only numpy array reconstruction among globals.

    >>> safe_unpickle(pickle.dumps({b"labels": [1, 2]}))
    {b'labels': [1, 2]}
    >>> safe_unpickle(pickle.dumps(print))
    Traceback (most recent call last):
    ...
    _pickle.UnpicklingError: refused global builtins.print
    """
    return _SafeUnpickler(io.BytesIO(data), encoding="bytes").load()


def _cifar_batch(path: Path) -> tuple[np.ndarray, np.ndarray]:
    raw = read_bytes(path, "CIFAR-10 batch", max_bytes=MAX_CIFAR_BATCH_BYTES)
    try:
        batch = safe_unpickle(raw)
        data = np.asarray(batch[b"data"], dtype=np.uint8)
        labels = np.asarray(batch[b"labels"], dtype=np.int64)
    except (pickle.UnpicklingError, KeyError, TypeError, ValueError, EOFError) as exc:
        raise InputError(f"{path}: not a CIFAR-10 python batch ({exc})") from None
    except Exception as exc:  # a malformed pickle may raise anything while it is built
        raise InputError(f"{path}: not a CIFAR-10 python batch ({type(exc).__name__})") from None
    if data.ndim != 2 or data.shape[1] != 3072 or labels.shape != (data.shape[0],):
        raise InputError(f"{path}: CIFAR-10 batches hold (n, 3072) images and n labels")
    if labels.size and (labels.min() < 0 or labels.max() > 9):
        raise InputError(f"{path}: CIFAR-10 labels must lie in 0..9")
    return data, labels


CIFAR_FILES = (*(f"data_batch_{i}" for i in range(1, 6)), "test_batch")


def _cifar_dir(directory: Path) -> Path:
    """``directory`` or its ``cifar-10-batches-py`` subfolder, whichever holds the batches."""
    nested = directory / "cifar-10-batches-py"
    return nested if not (directory / CIFAR_FILES[0]).is_file() and nested.is_dir() else directory


def cifar10(directory: str | Path | None) -> ImageArrays:
    """CIFAR-10 from ``data_batch_1`` … ``data_batch_5`` and ``test_batch`` in ``directory`` (or
    its ``cifar-10-batches-py`` subfolder). The pickles are read with :func:`safe_unpickle`."""
    if directory is None:
        raise InputError("cifar10: no data_dir given; " + HOW_TO["cifar10"])
    directory = _cifar_dir(Path(directory))
    for n in CIFAR_FILES:
        if not (directory / n).is_file():
            raise InputError(f"cifar10: no {n} in {directory}; {HOW_TO['cifar10']}")
    parts = [_cifar_batch(directory / n) for n in CIFAR_FILES]
    x_train = np.concatenate([p[0] for p in parts[:5]]).astype(np.float32) / 255.0
    y_train = np.concatenate([p[1] for p in parts[:5]])
    x_test = parts[5][0].astype(np.float32) / 255.0
    return ImageArrays(x_train, y_train, x_test, parts[5][1], (3, 32, 32), 10)


SVHN_FILES = ("train_32x32.mat", "test_32x32.mat")
#: Largest SVHN .mat file read (the official train file is 182 MB).
MAX_SVHN_BYTES = 2**30


def _svhn_part(path: Path) -> tuple[np.ndarray, np.ndarray]:
    from scipy.io import loadmat

    regular_file(path, "SVHN file")
    if path.stat().st_size > MAX_SVHN_BYTES:
        raise InputError(f"{path}: SVHN file larger than {MAX_SVHN_BYTES:,} bytes")
    try:
        mat = loadmat(path, variable_names=["X", "y"])
        x, y = np.asarray(mat["X"]), np.asarray(mat["y"]).reshape(-1)
    except Exception as exc:  # scipy raises many types on malformed files
        raise InputError(f"{path}: not an SVHN .mat (v5) file ({type(exc).__name__})") from None
    if x.ndim != 4 or x.shape[:3] != (32, 32, 3) or y.shape != (x.shape[3],):
        raise InputError(f"{path}: SVHN holds X (32, 32, 3, n) and y (n, 1)")
    if y.size and (y.min() < 1 or y.max() > 10):
        raise InputError(f"{path}: SVHN labels must lie in 1..10 (10 is the digit 0)")
    images = np.ascontiguousarray(x.transpose(3, 2, 0, 1)).reshape(x.shape[3], -1)
    return images.astype(np.float32) / 255.0, (y.astype(np.int64) % 10)


def svhn(directory: str | Path | None) -> ImageArrays:
    """SVHN (cropped digits) from ``train_32x32.mat`` and ``test_32x32.mat`` in ``directory``:
    X (32, 32, 3, n) becomes (n, 3·32·32) channel-first, label 10 becomes the digit 0."""
    if directory is None:
        raise InputError("svhn: no data_dir given; " + HOW_TO["svhn"])
    directory = Path(directory)
    for n in SVHN_FILES:
        if not (directory / n).is_file():
            raise InputError(f"svhn: no {n} in {directory}; {HOW_TO['svhn']}")
    (x_tr, y_tr), (x_te, y_te) = (_svhn_part(directory / n) for n in SVHN_FILES)
    return ImageArrays(x_tr, y_tr, x_te, y_te, (3, 32, 32), 10)


def missing(name: str, directory: str | Path | None = None) -> str | None:
    """Why data set ``name`` cannot be loaded from ``directory`` (its default folder when None)
    without reading it: a one-line message naming what is missing and where, or None.

    >>> missing("cifar10") is not None and "data_dir" in missing("cifar10")
    True
    >>> missing("digits") is None
    True
    """
    try:
        if name == "digits":
            return None
        if name in ("mnist", "fashion_mnist"):
            if directory is None and name == "mnist":
                raise InputError("mnist: no data_dir given; " + HOW_TO["mnist"])
            folder = Path(directory) if directory is not None else FASHION_MNIST_DIR
            for stem in IDX_FILES.values():
                _find(folder, stem, name)
        elif name == "cifar10":
            if directory is None:
                raise InputError("cifar10: no data_dir given; " + HOW_TO["cifar10"])
            folder = _cifar_dir(Path(directory))
            absent = [n for n in CIFAR_FILES if not (folder / n).is_file()]
            if absent:
                raise InputError(f"cifar10: no {absent[0]} in {folder}; {HOW_TO['cifar10']}")
        elif name == "svhn":
            if directory is None:
                raise InputError("svhn: no data_dir given; " + HOW_TO["svhn"])
            absent = [n for n in SVHN_FILES if not (Path(directory) / n).is_file()]
            if absent:
                raise InputError(f"svhn: no {absent[0]} in {directory}; {HOW_TO['svhn']}")
        else:
            raise InputError(f"unknown data set '{name}'")
    except InputError as exc:
        return str(exc)
    return None


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
