"""The balanced two-classes split (FedAR spec 10.2), the per-cluster swapped labels of the
INFOCOM authors' MNIST (CA-Fed spec C.10) and the validation split (C.6), checked against
direct counts and against the seeded generators they are specified to use."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fltheory.errors import InputError
from fltheory.rng import generator
from fltheory.sim.data import FederatedData
from fltheory.sim.datasets import ImageArrays
from fltheory.sim.partitions import (
    cluster_label_maps,
    federate,
    take_train,
    two_class_balanced_shares,
    uniform_shares,
    validation_split,
)
from fltheory.sim.registries import MODELS, PROBLEMS, ProblemContext


def _equal_classes(per_class: int, n_classes: int) -> ImageArrays:
    """Images whose single feature is their own row number (to trace where each one went)."""
    y = np.repeat(np.arange(n_classes), per_class)
    x = np.arange(y.size, dtype=np.float32)[:, None]
    return ImageArrays(x, y, x.copy(), y.copy(), (1, 1, 1), n_classes)


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 12), st.integers(1, 6), st.integers(0, 10**6))
def test_balanced_two_classes_every_class_in_h_clients(n_classes, h, seed):
    if (h * n_classes) % 2:
        h += 1
    n_clients = h * n_classes // 2
    shares = two_class_balanced_shares(n_clients, n_classes, seed=seed)
    held = shares > 0
    assert (held.sum(axis=1) == 2).all()  # two distinct classes per client
    assert (held.sum(axis=0) == h).all()  # each class held by 2N/C clients
    np.testing.assert_allclose(shares[held], 1.0 / h)
    np.testing.assert_array_equal(
        shares, two_class_balanced_shares(n_clients, n_classes, seed=seed)
    )


def test_balanced_two_classes_gives_equal_sizes_on_equal_classes():
    images = _equal_classes(40, 10)  # CIFAR-10 in miniature: equal classes
    shares = two_class_balanced_shares(20, 10, seed=3)  # h = 4
    data = federate(images, shares, seed=0)
    np.testing.assert_array_equal(data.train_counts, np.full(20, 2 * 40 // 4))
    starts = FederatedData.offsets(data.train_counts)
    for k in range(20):
        labels = set(data.y_train[starts[k] : starts[k] + 20].tolist())
        assert labels == set(np.flatnonzero(shares[k]).tolist())
    assert not np.array_equal(shares, two_class_balanced_shares(20, 10, seed=4))
    with pytest.raises(InputError, match="2N divisible by C"):
        two_class_balanced_shares(7, 10)
    with pytest.raises(InputError, match="at least 3 classes"):
        two_class_balanced_shares(3, 2)


def test_each_cluster_swaps_its_own_two_pairs():
    maps, cluster = cluster_label_maps(24, 10, seed=42)
    assert np.bincount(cluster).tolist() == [12, 12]
    for j in range(2):
        mapping = maps[cluster == j]
        assert (mapping == mapping[0]).all()
        m = mapping[0]
        np.testing.assert_array_equal(m[m], np.arange(10))  # an involution
        assert (m != np.arange(10)).sum() == 4  # exactly two pairs
        # the pairs are the first four of the cluster's own seeded permutation
        first4 = generator(42, f"sim/partitions/cluster-swap/{j}").permutation(10)[:4]
        assert m[first4[0]] == first4[1] and m[first4[2]] == first4[3]
    assert not np.array_equal(maps[cluster == 0][0], maps[cluster == 1][0])
    images = _equal_classes(48, 10)
    data = federate(images, uniform_shares(24, 10), seed=1, label_maps=maps)
    owners = FederatedData.owners(data.train_counts)
    original = images.y_train[data.x_train[:, 0].astype(int)]
    np.testing.assert_array_equal(data.y_train, maps[owners, original])
    test_owners = FederatedData.owners(data.test_counts)
    np.testing.assert_array_equal(
        data.y_test, maps[test_owners, images.y_test[data.x_test[:, 0].astype(int)]]
    )
    with pytest.raises(InputError, match="label_maps"):
        federate(images, uniform_shares(24, 10), label_maps=maps[:3])


def test_validation_split_follows_the_seeded_generator():
    counts = np.array([10, 1, 7, 25])
    train, val = validation_split(counts, 0.2, seed=5)
    # Independent computation: one permutation per client from (seed, "validation").
    rng = generator(5, "validation")
    expected, start = [], 0
    for n, k in zip(counts, (2, 0, 1, 5), strict=True):
        expected += (start + rng.permutation(n)[:k]).tolist()
        start += n
    np.testing.assert_array_equal(val, sorted(expected))
    np.testing.assert_array_equal(np.sort(np.concatenate([train, val])), np.arange(43))
    assert validation_split(np.array([1, 2]), 0.9, seed=0)[1].size == 1  # one kept to train
    with pytest.raises(InputError, match=r"\[0, 1\)"):
        validation_split(counts, 1.0, seed=0)
    images = _equal_classes(10, 4)
    data = federate(images, uniform_shares(4, 4), seed=0)
    rows = data.split_validation(0.2, seed=5)
    np.testing.assert_array_equal(rows[1], validation_split(data.train_counts, 0.2, 5)[1])
    kept = take_train(data, rows[0])
    np.testing.assert_array_equal(kept.train_counts, data.train_counts - 2)
    np.testing.assert_array_equal(kept.x_train, data.x_train[rows[0]])
    assert kept.x_test is data.x_test


def _build(**table):
    def model(shape):
        return MODELS.build("softmax", {}, shape)

    return PROBLEMS.build("digits", table, ProblemContext(seed=0, model=model))


def test_image_problem_partitions_and_validation():
    problem, groups = _build(n_clients=10, partition="two_classes_balanced")
    assert groups == {}
    full = problem.data.train_counts.sum()
    held, _ = _build(n_clients=10, partition="two_classes_balanced", validation_fraction=0.2)
    assert full - held.data.train_counts.sum() == sum(
        round(0.2 * n) for n in problem.data.train_counts
    )
    _, groups = _build(n_clients=6, partition="label_swap_clusters")
    assert sorted(groups) == ["cluster 0", "cluster 1"]
    assert groups["cluster 0"].sum() == 3 and not (groups["cluster 0"] & groups["cluster 1"]).any()
