"""Image classification problems: a real data set split across clients, a model trained on it.

Kinds: ``digits`` (scikit-learn's 8×8 digits, shipped with the package), ``fashion_mnist`` and
``mnist`` (IDX files), ``cifar10`` (python-pickle batches), ``svhn`` (.mat files); see
:mod:`fltheory.sim.datasets`. Partitions (:mod:`fltheory.sim.partitions`): ``dirichlet`` (CA-Fed
ToN Section V-A(b)), ``two_classes`` and ``two_classes_balanced`` (FedAR Section 6.1, spec 10.2),
``iid``, ``label_swap`` (INFOCOM version, Section V-A: the last clients swap two label pairs) and
``label_swap_clusters`` (the INFOCOM authors' code: two random clusters, each swapping its own
two pairs). ``validation_fraction`` holds out that share of every client's training samples
(:func:`~fltheory.sim.partitions.validation_split`, CA-Fed ToN P2:307: 20 %): they are not
trained on.
"""

from collections.abc import Callable
from typing import Literal

import numpy as np
from pydantic import Field

from fltheory.config import Strict
from fltheory.sim import datasets
from fltheory.sim.datasets import ImageArrays
from fltheory.sim.partitions import (
    cluster_label_maps,
    dirichlet_shares,
    federate,
    subsample,
    swap_labels,
    take_train,
    two_class_balanced_shares,
    two_class_shares,
    uniform_shares,
)
from fltheory.sim.plugins.fields import (
    MODEL_DOC,
    SCORING_DOC,
    DataAlpha,
    alpha_field,
    target_weights,
)
from fltheory.sim.problems import DataProblem, Scoring
from fltheory.sim.registries import PROBLEMS, Built, ModelShape, ProblemContext


class ImageParams(Strict):
    """Parameters shared by the image problems."""

    n_clients: int = Field(100, ge=1, description="number of clients N")
    max_train: int = Field(0, ge=0, description="random subset of training images (0: all)")
    max_test: int = Field(0, ge=0, description="random subset of test images (0: all)")
    partition: Literal[
        "dirichlet",
        "label_swap",
        "label_swap_clusters",
        "two_classes",
        "two_classes_balanced",
        "iid",
    ] = Field("dirichlet", description="how the classes are split across the clients")
    concentration: float = Field(0.5, gt=0.0, description="ς of the Dirichlet partition")
    swap_fraction: float = Field(
        0.5, ge=0.0, le=1.0, description="label_swap: share of clients (the last) with swaps"
    )
    validation_fraction: float = Field(
        0.0, ge=0.0, lt=1.0, description="share of each client's training set held out"
    )
    model: str = Field("softmax", description=MODEL_DOC)
    alpha: DataAlpha = alpha_field("samples")
    scoring: Scoring = Field("model", description=SCORING_DOC)


class ImageFileParams(ImageParams):
    """Parameters of the image problems read from files."""

    data_dir: str | None = Field(None, description="folder holding the data set's files")


#: partition → (N × C shares, per-client label maps N × C or None, client groups)
Split = tuple[np.ndarray, np.ndarray | None, dict[str, np.ndarray]]


def _dirichlet(p: ImageParams, counts: np.ndarray, seed: int) -> Split:
    return dirichlet_shares(p.n_clients, counts.size, p.concentration, counts, seed=seed), None, {}


def _two_classes(p: ImageParams, counts: np.ndarray, seed: int) -> Split:
    return two_class_shares(p.n_clients, counts.size, seed=seed), None, {}


def _two_classes_balanced(p: ImageParams, counts: np.ndarray, seed: int) -> Split:
    return two_class_balanced_shares(p.n_clients, counts.size, seed=seed), None, {}


def _iid(p: ImageParams, counts: np.ndarray, seed: int) -> Split:
    return uniform_shares(p.n_clients, counts.size), None, {}


def _label_swap(p: ImageParams, counts: np.ndarray, seed: int) -> Split:
    swap = np.arange(p.n_clients) >= p.n_clients - round(p.swap_fraction * p.n_clients)
    groups = {"original labels": ~swap, "swapped labels": swap}
    maps = np.tile(np.arange(counts.size), (p.n_clients, 1))
    maps[swap] = swap_labels(np.arange(counts.size), counts.size, seed=seed)[0]
    return uniform_shares(p.n_clients, counts.size), maps, groups


def _label_swap_clusters(p: ImageParams, counts: np.ndarray, seed: int) -> Split:
    maps, cluster = cluster_label_maps(p.n_clients, counts.size, seed=seed)
    groups = {f"cluster {j}": cluster == j for j in range(2)}
    return uniform_shares(p.n_clients, counts.size), maps, groups


SPLITS: dict[str, Callable[[ImageParams, np.ndarray, int], Split]] = {
    "dirichlet": _dirichlet,
    "two_classes": _two_classes,
    "two_classes_balanced": _two_classes_balanced,
    "iid": _iid,
    "label_swap": _label_swap,
    "label_swap_clusters": _label_swap_clusters,
}


def image_problem(images: ImageArrays, params: ImageParams, ctx: ProblemContext) -> Built:
    """(DataProblem, client groups) for ``images`` split across clients as ``params`` say."""
    images = subsample(images, params.max_train or None, params.max_test or None, seed=ctx.seed)
    counts = np.bincount(images.y_train, minlength=images.n_classes)
    shares, maps, groups = SPLITS[params.partition](params, counts, ctx.seed)
    data = federate(images, shares, seed=ctx.seed, label_maps=maps)
    if params.validation_fraction > 0:
        data = take_train(data, data.split_validation(params.validation_fraction, ctx.seed)[0])
    assert ctx.model is not None
    model = ctx.model(ModelShape(data.n_features, data.n_classes, images.shape))
    alpha = target_weights(params.alpha, data.n_clients, data.train_counts)
    problem = DataProblem(
        model, data, alpha, ctx.device, ctx.dtype, init_seed=ctx.seed, scoring=params.scoring
    )
    return problem, groups


@PROBLEMS.register("digits", params=ImageParams)
def build_digits(params: ImageParams, ctx: ProblemContext) -> Built:
    """scikit-learn's 8×8 handwritten digits (1797 images, no download)."""
    return image_problem(datasets.digits(), params, ctx)


@PROBLEMS.register("fashion_mnist", params=ImageFileParams)
def build_fashion_mnist(params: ImageFileParams, ctx: ProblemContext) -> Built:
    """Fashion-MNIST IDX files (default folder: Debian's dataset-fashion-mnist)."""
    return image_problem(datasets.idx_dataset("fashion_mnist", params.data_dir), params, ctx)


@PROBLEMS.register("mnist", params=ImageFileParams)
def build_mnist(params: ImageFileParams, ctx: ProblemContext) -> Built:
    """MNIST IDX files from ``data_dir``."""
    return image_problem(datasets.idx_dataset("mnist", params.data_dir), params, ctx)


@PROBLEMS.register("cifar10", params=ImageFileParams)
def build_cifar10(params: ImageFileParams, ctx: ProblemContext) -> Built:
    """CIFAR-10 python-pickle batches from ``data_dir`` (load only files you trust)."""
    return image_problem(datasets.cifar10(params.data_dir), params, ctx)


@PROBLEMS.register("svhn", params=ImageFileParams)
def build_svhn(params: ImageFileParams, ctx: ProblemContext) -> Built:
    """SVHN cropped digits (train_32x32.mat, test_32x32.mat) from ``data_dir``."""
    return image_problem(datasets.svhn(params.data_dir), params, ctx)
