"""[problem] builders for real image data sets and [[algorithms]] builders for part-2 rules.

Image problems (``kind`` = "digits" | "fashion_mnist" | "mnist" | "cifar10")::

    data_dir = "..."          # fashion_mnist defaults to /usr/share/datasets/fashion-mnist
    n_clients = 100; max_train = 0; max_test = 0     # 0: every image
    partition = "dirichlet" | "label_swap" | "two_classes" | "iid"
    concentration = 0.5       # ς of the Dirichlet split
    swap_fraction = 0.5       # label_swap: share of clients (the last ones) with swapped labels
    model = "softmax" | "cnn" | "lenet5"; ridge = 1e-2; cnn_channels = [32, 64]; cnn_kernel = 5
    alpha = "samples" | "uniform" | [...]
"""

from typing import Any

import numpy as np

from fltheory.errors import InputError
from fltheory.sim import algorithms as algs
from fltheory.sim import datasets
from fltheory.sim.cnn import LeNet5, SmallCNN
from fltheory.sim.models import SoftmaxRegression
from fltheory.sim.partitions import (
    dirichlet_shares,
    federate,
    subsample,
    two_class_shares,
    uniform_shares,
)
from fltheory.sim.problems import DataProblem

IMAGE_KINDS = ("digits", "fashion_mnist", "mnist", "cifar10")
PARTITIONS = ("dirichlet", "label_swap", "two_classes", "iid")
MODELS = ("softmax", "cnn", "lenet5")


def _images(kind: str, data_dir: str | None) -> datasets.ImageArrays:
    if kind == "digits":
        return datasets.digits()
    if kind == "cifar10":
        return datasets.cifar10(data_dir)
    return datasets.idx_dataset(kind, data_dir)


def build_image_problem(sec, kind: str, seed: int, to: dict, alpha_fn) -> tuple[Any, dict]:
    """(DataProblem, client groups) for an image data set split across clients."""
    images = _images(kind, sec.get("data_dir", None, str))
    n = sec.number("n_clients", 100, integer=True)
    max_train = sec.number("max_train", 0, integer=True) or None
    max_test = sec.number("max_test", 0, integer=True) or None
    images = subsample(images, max_train, max_test, seed=seed)
    partition = sec.get("partition", "dirichlet", str)
    if partition not in PARTITIONS or n < 1:
        raise InputError(f"[problem] partition must be one of {PARTITIONS} and n_clients >= 1")
    counts = np.bincount(images.y_train, minlength=images.n_classes)
    groups: dict[str, np.ndarray] = {}
    swap = None
    if partition == "dirichlet":
        shares = dirichlet_shares(
            n, images.n_classes, sec.number("concentration", 0.5), counts, seed=seed
        )
    elif partition == "two_classes":
        shares = two_class_shares(n, images.n_classes, seed=seed)
    else:
        shares = uniform_shares(n, images.n_classes)
        if partition == "label_swap":
            fraction = sec.number("swap_fraction", 0.5)
            if not 0.0 <= fraction <= 1.0:
                raise InputError("[problem] swap_fraction must lie in [0, 1]")
            swap = np.arange(n) >= n - round(fraction * n)
            groups = {"original labels": ~swap, "swapped labels": swap}
    data = federate(images, shares, seed=seed, swap_clients=swap)
    model_name = sec.get("model", "softmax", str)
    ridge = sec.number("ridge", 1e-2)
    if model_name == "softmax":
        model = SoftmaxRegression(data.n_features, data.n_classes, ridge)
    elif model_name == "cnn":
        channels = sec.floats("cnn_channels", [32, 64]).astype(int)
        if channels.shape != (2,):
            raise InputError("[problem] cnn_channels must be two integers")
        kernel = sec.number("cnn_kernel", 5, integer=True)
        model = SmallCNN(
            images.shape, data.n_classes, (int(channels[0]), int(channels[1])), kernel, ridge
        )
    elif model_name == "lenet5":
        model = LeNet5(images.shape, data.n_classes, ridge)
    else:
        raise InputError(f"[problem] model must be one of {MODELS}, got '{model_name}'")
    alpha = alpha_fn(sec, data.n_clients, data.train_counts, "samples")
    return DataProblem(model, data, alpha, init_seed=seed, **to), groups


def _flag(sec, key: str) -> bool:
    value = sec.get(key, False)
    if not isinstance(value, bool):
        raise InputError(f"[{sec.where}] '{key}' must be true or false")
    return value


def build_memory_algorithm(name: str, sec, seed: int) -> algs.Algorithm | None:
    """The part-2 algorithms by config name (None: not one of them)."""
    if name == "fedpbc":
        return algs.FedPBC(compute=sec.get("compute", "all", str))
    if name == "fedar":
        scale = sec.number("cutoff_scale", None)
        return algs.FedAR(
            p=sec.number("p", 0.1), cutoff_scale=scale, cutoff_t0=sec.number("cutoff_t0", 1.0)
        )
    if name == "mifa":
        return algs.MIFA(wait_all=_flag(sec, "wait_all"))
    if name == "fedvarp":
        return algs.FedVARP()
    if name == "fedavg_is":
        return algs.FedAvgIS(normalise=_flag(sec, "normalise"))
    if name == "fedavg_sampled":
        return algs.FedAvgSampled(s=sec.number("s", 50, integer=True), seed=seed)
    return None
