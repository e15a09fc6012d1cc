"""Loaders (IDX, CIFAR-10 pickles, scikit-learn digits) on files the tests write themselves,
and the partitions (Dirichlet, label swapping, two classes per client)."""

import gzip
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fltheory.errors import InputError
from fltheory.sim.datasets import (
    FASHION_MNIST_DIR,
    ImageArrays,
    cifar10,
    digits,
    idx_dataset,
    read_idx,
    write_idx,
)
from fltheory.sim.partitions import (
    dirichlet_shares,
    federate,
    split_counts,
    swap_labels,
    two_class_shares,
    uniform_shares,
)


@pytest.mark.parametrize("suffix", ["", ".gz"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float64])
def test_idx_round_trip(tmp_path, suffix, dtype):
    arr = (np.arange(24).reshape(2, 3, 4) * 7 % 251).astype(dtype)
    path = write_idx(tmp_path / f"a{suffix}", arr)
    back = read_idx(path)
    np.testing.assert_array_equal(back, arr)
    assert back.dtype == arr.dtype


def test_idx_header_by_hand(tmp_path):
    # magic 0 0 0x08 (ubyte) 1 (one dimension), size 3 big-endian, then the bytes 5 6 7.
    path = tmp_path / "labels"
    path.write_bytes(bytes([0, 0, 8, 1, 0, 0, 0, 3, 5, 6, 7]))
    np.testing.assert_array_equal(read_idx(path), [5, 6, 7])
    path.write_bytes(bytes([0, 0, 8, 1, 0, 0, 0, 4, 5, 6, 7]))
    with pytest.raises(InputError, match="truncated IDX data"):
        read_idx(path)
    path.write_bytes(b"PK\x03\x04junk")
    with pytest.raises(InputError, match="magic"):
        read_idx(path)


def _write_mnist_like(folder, n_train=12, n_test=5, gz=True):
    rng = np.random.default_rng(0)
    sfx = ".gz" if gz else ""
    images = {
        k: rng.integers(0, 256, (n, 4, 5), dtype=np.uint8)
        for k, n in (("train", n_train), ("t10k", n_test))
    }
    labels = {
        k: rng.integers(0, 10, n).astype(np.uint8)
        for k, n in (("train", n_train), ("t10k", n_test))
    }
    for k in ("train", "t10k"):
        write_idx(folder / f"{k}-images-idx3-ubyte{sfx}", images[k])
        write_idx(folder / f"{k}-labels-idx1-ubyte{sfx}", labels[k])
    return images, labels


@pytest.mark.parametrize("gz", [True, False])
def test_idx_dataset_reads_mnist_layout(tmp_path, gz):
    images, labels = _write_mnist_like(tmp_path, gz=gz)
    data = idx_dataset("mnist", tmp_path)
    assert data.shape == (1, 4, 5) and data.x_train.shape == (12, 20)
    scale = images["train"].max()
    np.testing.assert_allclose(data.x_train[3], images["train"][3].ravel() / scale, rtol=1e-6)
    np.testing.assert_array_equal(data.y_test, labels["t10k"])


def test_missing_data_says_where_and_how(tmp_path):
    with pytest.raises(InputError, match=r"apt-get install dataset-fashion-mnist") as info:
        idx_dataset("fashion_mnist", tmp_path)
    assert str(tmp_path) in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(InputError, match="data_dir"):
        idx_dataset("mnist")
    with pytest.raises(InputError, match="data_batch_1"):
        cifar10(tmp_path)


def test_cifar10_pickle_batches(tmp_path):
    rng = np.random.default_rng(1)
    batches = {}
    for name in [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]:
        data = rng.integers(0, 256, (3, 3072), dtype=np.uint8)
        labels = rng.integers(0, 10, 3).tolist()
        batches[name] = (data, labels)
        with (tmp_path / name).open("wb") as handle:
            pickle.dump({b"data": data, b"labels": labels}, handle)
    out = cifar10(tmp_path)
    assert out.shape == (3, 32, 32) and out.x_train.shape == (15, 3072)
    np.testing.assert_allclose(out.x_train[4], batches["data_batch_2"][0][1] / 255.0, rtol=1e-6)
    np.testing.assert_array_equal(out.y_test, batches["test_batch"][1])
    (tmp_path / "test_batch").write_bytes(gzip.compress(b"not a pickle"))
    with pytest.raises(InputError, match="test_batch"):
        cifar10(tmp_path)


def test_digits_ship_with_scikit_learn():
    d = digits()
    assert d.x_train.shape[0] + d.x_test.shape[0] == 1797
    assert d.x_test.shape == (359, 64) and d.shape == (1, 8, 8)
    assert d.x_train.min() == 0.0 and d.x_train.max() == 1.0
    assert set(np.unique(d.y_train)) == set(range(10))


# --- partitions ------------------------------------------------------------------------------
def _tagged(n_per_class=(7, 5, 9), n_test=(3, 2, 4)) -> ImageArrays:
    """Images whose single feature is a unique id, so every sample can be traced."""

    def build(counts, offset):
        y = np.repeat(np.arange(len(counts)), counts)
        return (np.arange(y.size, dtype=np.float32) + offset)[:, None], y

    xtr, ytr = build(n_per_class, 0)
    xte, yte = build(n_test, 1000)
    return ImageArrays(xtr, ytr, xte, yte, (1, 1, 1), len(n_per_class))


@given(st.integers(1, 8), st.lists(st.integers(0, 40), min_size=1, max_size=5), st.data())
def test_split_counts_deal_every_sample_once(n, class_counts, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 1000)))
    shares = rng.dirichlet(np.ones(n), size=len(class_counts)).T
    counts = split_counts(shares, np.array(class_counts))
    assert (counts >= 0).all()
    np.testing.assert_array_equal(counts.sum(0), class_counts)
    # Rounding the cumulative cut moves each cell by less than one sample from n_c·share.
    assert (np.abs(counts - shares * np.array(class_counts)) < 1.0 + 1e-9).all()


def test_federate_is_a_partition_following_the_shares():
    images = _tagged()
    shares = np.array([[0.5, 0.0, 1 / 3], [0.5, 0.2, 1 / 3], [0.0, 0.8, 1 / 3]])
    fed = federate(images, shares, seed=2)
    assert sorted(fed.x_train[:, 0]) == sorted(images.x_train[:, 0])
    assert sorted(fed.x_test[:, 0]) == sorted(images.x_test[:, 0])
    owner = np.repeat(np.arange(3), fed.train_counts)
    counts = np.array(
        [[np.sum((owner == k) & (fed.y_train == c)) for c in range(3)] for k in range(3)]
    )
    np.testing.assert_array_equal(counts, [[4, 0, 3], [3, 1, 3], [0, 4, 3]])
    # labels travel with their samples: feature id → original label
    np.testing.assert_array_equal(images.y_train[fed.x_train[:, 0].astype(int)], fed.y_train)


def test_dirichlet_shares_columns_and_concentration():
    counts = np.full(10, 1000)
    flat = dirichlet_shares(20, 10, 100.0, counts, seed=1)
    spiky = dirichlet_shares(20, 10, 0.1, counts, seed=1, min_samples=0)
    np.testing.assert_allclose(flat.sum(0), 1.0)
    np.testing.assert_allclose(spiky.sum(0), 1.0)
    # Dirichlet(ς): Var(S_kc) = (1/N)(1 − 1/N)/(Nς + 1); 200 cells, ratio of spreads ≈ 12.
    assert spiky.std() > 5 * flat.std()
    with pytest.raises(InputError, match="Dirichlet"):
        dirichlet_shares(50, 2, 0.01, np.array([30, 30]), seed=0, min_samples=2)


def test_two_classes_per_client_and_label_swapping():
    shares = two_class_shares(7, 3, seed=4)
    np.testing.assert_allclose(shares.sum(0), 1.0)
    assert ((shares > 0).sum(1) == 2).all()
    labels = np.arange(10)
    swapped, pairs = swap_labels(labels, 10, seed=3)
    assert pairs.shape == (2, 2) and len(set(pairs.ravel())) == 4
    for a, b in pairs:
        assert swapped[a] == b and swapped[b] == a
    untouched = np.setdiff1d(labels, pairs.ravel())
    np.testing.assert_array_equal(swapped[untouched], untouched)
    images = _tagged((6, 6, 6, 6), (2, 2, 2, 2))
    fed = federate(images, uniform_shares(2, 4), seed=0, swap_clients=np.array([False, True]))
    orig = images.y_train[fed.x_train[:, 0].astype(int)]
    first = slice(0, fed.train_counts[0])
    np.testing.assert_array_equal(fed.y_train[first], orig[first])
    assert (fed.y_train[fed.train_counts[0] :] != orig[fed.train_counts[0] :]).any()


@pytest.mark.slow
@pytest.mark.skipif(
    not (FASHION_MNIST_DIR / "t10k-labels-idx1-ubyte.gz").exists(),
    reason="Debian's dataset-fashion-mnist is not installed",
)
def test_installed_fashion_mnist():
    data = idx_dataset("fashion_mnist")
    assert data.x_train.shape == (60000, 784) and data.x_test.shape == (10000, 784)
    np.testing.assert_array_equal(np.bincount(data.y_test), [1000] * 10)
    assert data.x_train.max() == 1.0
