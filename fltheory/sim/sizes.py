"""How big a ``[problem]`` table makes a simulation, read from the raw table without building it.

For each problem kind: the clients N, the model parameters P and the bytes of its data and
fixed arrays; for each model of the data problems, P from the data's shape. The numbers are
closed forms of what the builders allocate (tests compare them with built problems, kind by
kind), so the memory preflight (:mod:`fltheory.sim.budget`) refuses a ``dim = 10⁹`` before
anything is allocated — and before torch is imported. A kind missing here (a third-party
plug-in) is sized by its ``n_clients`` alone.

Malformed values are the schema's to report: where a field is missing or not a positive
integer, its default is used.
"""

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Table = Mapping[str, Any]

#: (channels, height, width, classes) of the image data sets (:mod:`fltheory.sim.datasets`).
IMAGES: dict[str, tuple[int, int, int, int]] = {
    "digits": (1, 8, 8, 10),
    "mnist": (1, 28, 28, 10),
    "fashion_mnist": (1, 28, 28, 10),
    "cifar10": (3, 32, 32, 10),
    "svhn": (3, 32, 32, 10),
}
#: Images (train + test) of each data set: its arrays, float32, whatever the subset used.
IMAGE_COUNTS = {
    "digits": 1797,
    "mnist": 70_000,
    "fashion_mnist": 70_000,
    "cifar10": 60_000,
    "svhn": 99_289,
}
#: E[⌊LogNormal(4, 2)⌋] + 50: the mean samples per client of LEAF Synthetic (uncapped).
LEAF_MEAN_SAMPLES = math.exp(4.0 + 2.0**2 / 2) + 50


@dataclass(frozen=True)
class ProblemSize:
    """N clients, P model parameters, ``data_bytes`` of data and fixed arrays, whether its
    local steps run in memory-bounded chunks of rows (data problems) or all at once, and for
    data problems the features and mean samples of a client (what a local step gathers).

    >>> ProblemSize(10, 5, 0, chunked=False).n_params
    5
    """

    n_clients: int
    n_params: int
    data_bytes: float
    chunked: bool
    features: int = 0
    samples: float = 0.0


def count(table: Table, key: str, default: int) -> int:
    """``table[key]`` when it is a positive integer, else ``default``.

    >>> count({"dim": 10**9}, "dim", 100), count({"dim": "big"}, "dim", 100)
    (1000000000, 100)
    """
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return default
    return value


# --- models ----------------------------------------------------------------------------------
Shape = tuple[int, int, tuple[int, int, int] | None]  # (features, classes, image C×H×W)


def _conv_out(side: int, kernel: int, padding: int = 0) -> int:
    return max(side + 2 * padding - kernel + 1, 0)


def _softmax(table: Table, shape: Shape) -> int:
    features, classes, _ = shape
    return (features + 1) * classes


def _logistic(table: Table, shape: Shape) -> int:
    return shape[0] + 1


def _cnn(table: Table, shape: Shape) -> int:
    _, classes, image = shape
    c, h, w = image or (1, 8, 8)
    channels = table.get("cnn_channels", [32, 64])
    ok = isinstance(channels, list) and len(channels) == 2
    c1, c2 = (count({"c": x}, "c", 1) for x in channels) if ok else (32, 64)
    k = count(table, "cnn_kernel", 5)
    h1, w1 = _conv_out(h, k, k // 2) // 2, _conv_out(w, k, k // 2) // 2
    h2, w2 = _conv_out(h1, k, k // 2) // 2, _conv_out(w1, k, k // 2) // 2
    return c1 * c * k * k + c1 + c2 * c1 * k * k + c2 + (c2 * h2 * w2 + 1) * classes


def _two_convs(c: int, h: int, w: int, c1: int, c2: int) -> tuple[int, int]:
    """(parameters, flattened outputs) of conv(c→c1, 5×5) → pool → conv(c1→c2, 5×5) → pool."""
    h2, w2 = _conv_out(_conv_out(h, 5) // 2, 5) // 2, _conv_out(_conv_out(w, 5) // 2, 5) // 2
    return c1 * c * 25 + c1 + c2 * c1 * 25 + c2, c2 * h2 * w2


def _lenet5(table: Table, shape: Shape) -> int:
    _, classes, image = shape
    convs, flat = _two_convs(*(image or (1, 32, 32)), 6, 16)
    return convs + (flat + 1) * 120 + 121 * 84 + 85 * classes


def _cifar_cnn(table: Table, shape: Shape) -> int:
    _, classes, image = shape
    hidden = count(table, "cnn_hidden", 2048)
    convs, flat = _two_convs(*(image or (3, 32, 32)), 32, 64)
    return convs + (flat + 1) * hidden + (hidden + 1) * classes


def _resnet18(table: Table, shape: Shape) -> int:
    _, classes, image = shape
    c = (image or (3, 32, 32))[0]
    width = count(table, "resnet_width", 64)
    total = 9 * c * width + 2 * width  # stem convolution and its GroupNorm
    c_in = width
    for stage in range(4):
        c_out = width * 2**stage
        for block in range(2):
            total += 9 * c_in * c_out + 9 * c_out * c_out + 4 * c_out
            if block == 0 and (stage > 0 or c_in != c_out):
                total += c_in * c_out + 2 * c_out  # 1×1 projection and its GroupNorm
            c_in = c_out
    return total + (c_in + 1) * classes


#: model name → P for data of a given shape (the models of :data:`~fltheory.sim.MODELS`).
MODEL_PARAMS: dict[str, Callable[[Table, Shape], int]] = {
    "softmax": _softmax,
    "logistic": _logistic,
    "cnn": _cnn,
    "lenet5": _lenet5,
    "cifar_cnn": _cifar_cnn,
    "resnet18": _resnet18,
}


def model_params(table: Table, shape: Shape, default: str) -> int:
    """P of the model a data problem's table names (``model``, else ``default``); 0 for a
    model not listed in :data:`MODEL_PARAMS`.

    >>> model_params({"model": "softmax"}, (60, 10, None), "softmax")
    610
    """
    name = table.get("model", default)
    size = MODEL_PARAMS.get(name) if isinstance(name, str) else None
    return 0 if size is None else size(table, shape)


# --- problems --------------------------------------------------------------------------------
#: Bytes per data entry of the synthetic problems: float64 arrays, then a float32/64 copy.
SYNTHETIC_ENTRY_BYTES = 16
#: Bytes per data entry of the image problems: float32 arrays, then a float32/64 copy.
IMAGE_ENTRY_BYTES = 12


def _fedpbc_quadratic(table: Table) -> ProblemSize:
    n, d = count(table, "n_clients", 100), count(table, "dim", 100)
    return ProblemSize(n, d, 16.0 * n * d, chunked=False)


def _quadratic(table: Table) -> ProblemSize:
    u = table.get("u")
    rows = u if isinstance(u, list) else []
    n = max(len(rows), 1)
    d = max((len(r) for r in rows if isinstance(r, list)), default=1)
    return ProblemSize(n, d, 16.0 * n * d, chunked=False)


def _synthetic_leaf(table: Table) -> ProblemSize:
    n = count(table, "n_clients", 100)
    d, classes = count(table, "n_features", 60), count(table, "n_classes", 10)
    cap = count(table, "max_samples", 0)
    samples = min(LEAF_MEAN_SAMPLES, cap) if cap else LEAF_MEAN_SAMPLES
    data = SYNTHETIC_ENTRY_BYTES * n * samples * (d + 2) + 8.0 * classes * d
    if table.get("rng_layout") == "authors":
        data += 8.0 * d * d  # the covariance of the features, d × d
    params = model_params(table, (d, classes, None), "softmax")
    return ProblemSize(n, params, data, True, d, samples)


def _binary_synthetic(table: Table) -> ProblemSize:
    n, d = count(table, "n_clients", 24), count(table, "n_features", 10)
    samples = count(table, "n_train", 100) + count({"t": table.get("n_test", 100)}, "t", 1)
    data = SYNTHETIC_ENTRY_BYTES * n * samples * (d + 2)
    params = model_params(table, (d, 2, None), "logistic")
    return ProblemSize(n, params, data, True, d, samples)


def _image(kind: str) -> Callable[[Table], ProblemSize]:
    c, h, w, classes = IMAGES[kind]

    def size(table: Table) -> ProblemSize:
        n = count(table, "n_clients", 100)
        params = model_params(table, (c * h * w, classes, (c, h, w)), "softmax")
        data = IMAGE_ENTRY_BYTES * IMAGE_COUNTS[kind] * (c * h * w + 2)
        return ProblemSize(n, params, data, True, c * h * w, IMAGE_COUNTS[kind] / n)

    return size


#: problem kind → its size from the raw ``[problem]`` table (the kinds of
#: :data:`~fltheory.sim.PROBLEMS`).
PROBLEM_SIZES: dict[str, Callable[[Table], ProblemSize]] = {
    "fedpbc_quadratic": _fedpbc_quadratic,
    "quadratic": _quadratic,
    "synthetic_leaf": _synthetic_leaf,
    "binary_synthetic": _binary_synthetic,
    **{kind: _image(kind) for kind in IMAGES},
}


def problem_size(table: Table, default_clients: int = 100) -> ProblemSize:
    """The size of a raw ``[problem]`` table.

    >>> problem_size({"kind": "fedpbc_quadratic", "n_clients": 10, "dim": 10**9}).n_params
    1000000000
    >>> problem_size({"kind": "my_plugin", "n_clients": 7})
    ProblemSize(n_clients=7, n_params=0, data_bytes=0.0, chunked=False, features=0, samples=0.0)
    """
    kind = table.get("kind")
    size = PROBLEM_SIZES.get(kind) if isinstance(kind, str) else None
    if size is not None:
        return size(table)
    return ProblemSize(count(table, "n_clients", default_clients), 0, 0.0, chunked=False)
