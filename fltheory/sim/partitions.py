"""Splitting a labelled data set across clients (non-IID federated partitions).

Every partition is a share matrix S (N, C): client k receives the fraction S[k, c] of the
samples of class c, for the training AND the test pool alike (so each client's test set follows
its training label distribution, as needed for per-client accuracies, FedAR Table 3). Columns sum
to one. :func:`federate` cuts each class's shuffled samples at the cumulative shares.

* :func:`dirichlet_shares` — S[:, c] ~ Dirichlet(ς·1_N) per class (CA-Fed ToN Section V-A(b),
  Appendix G1, following its [39]); resampled until every client gets ``min_samples`` samples.
* :func:`uniform_shares` with :func:`swap_labels` — the INFOCOM version's MNIST setting
  (Section V-A): random equal subsets, then the clients of the second group see two pairs of
  labels swapped (the pairs are drawn once and shared by the whole group).
* :func:`two_class_shares` — FedAR Section 6.1: "each client contains only two classes";
  client k holds classes k mod C and a second distinct class drawn at random, each class split
  equally among its holders.
* :func:`two_class_balanced_shares` — the balanced reading of FedAR's split ("evenly
  distributed"): every class is held by exactly h = 2N/C clients, each holding 1/h of it, so
  clients of a data set with equal classes (CIFAR-10) get equal sizes.
* :func:`cluster_label_maps` — CA-Fed INFOCOM's MNIST (public code): the clients fall into two
  random clusters of equal size and **each** cluster swaps its own two label pairs, in train and
  test labels alike (``federate(label_maps=...)``).
* :func:`take_train` — keeps the training rows of a validation split
  (:func:`~fltheory.sim.data.validation_split`, importable from here too).
"""

import numpy as np

from fltheory.errors import InputError
from fltheory.rng import generator
from fltheory.sim.data import FederatedData
from fltheory.sim.data import validation_split as validation_split  # its former home
from fltheory.sim.datasets import ImageArrays

MAX_TRIES = 100


def dirichlet_shares(
    n_clients: int,
    n_classes: int,
    concentration: float,
    class_counts: np.ndarray,
    *,
    seed: int = 0,
    min_samples: int = 2,
) -> np.ndarray:
    """(N, C) shares, columns ~ Dirichlet(ς); retried until each client gets ``min_samples``
    training samples (InputError after 100 tries)."""
    if not concentration > 0:
        raise InputError(f"Dirichlet concentration must be positive, got {concentration}")
    rng = generator(seed, "sim/partitions/dirichlet")
    for _ in range(MAX_TRIES):
        shares = rng.dirichlet(np.full(n_clients, concentration), size=n_classes).T
        if (split_counts(shares, class_counts).sum(axis=1) >= min_samples).all():
            return shares
    raise InputError(
        f"no Dirichlet({concentration}) split in {MAX_TRIES} tries gives every one of "
        f"{n_clients} clients {min_samples} samples: use fewer clients or a larger concentration"
    )


def uniform_shares(n_clients: int, n_classes: int) -> np.ndarray:
    """IID split: every client gets 1/N of every class."""
    return np.full((n_clients, n_classes), 1.0 / n_clients)


def two_class_shares(n_clients: int, n_classes: int, *, seed: int = 0) -> np.ndarray:
    """Client k holds class k mod C and one other random class; classes split equally."""
    if n_classes < 2:
        raise InputError("two classes per client need at least two classes")
    rng = generator(seed, "sim/partitions/two-classes")
    first = np.arange(n_clients) % n_classes
    second = (first + rng.integers(1, n_classes, n_clients)) % n_classes
    holds = np.zeros((n_clients, n_classes))
    holds[np.arange(n_clients), first] = 1.0
    holds[np.arange(n_clients), second] = 1.0
    holders = holds.sum(axis=0)
    if (holders == 0).any():
        raise InputError(f"{n_clients} clients with two classes each leave a class unused")
    return np.asarray(holds / holders)


def two_class_balanced_shares(n_clients: int, n_classes: int, *, seed: int = 0) -> np.ndarray:
    """(N, C) shares: each class in h = 2N/C slots, shuffled, slots (2k, 2k+1) to client k,
    duplicate pairs repaired by swaps with other pairs; each holder gets 1/h of its classes.

    >>> shares = two_class_balanced_shares(10, 5, seed=0)  # h = 4 holders per class
    >>> (shares > 0).sum(axis=1).tolist(), (shares > 0).sum(axis=0).tolist()
    ([2, 2, 2, 2, 2, 2, 2, 2, 2, 2], [4, 4, 4, 4, 4])
    """
    if n_classes < 3 or (2 * n_clients) % n_classes:
        raise InputError(
            f"a balanced two-classes split needs at least 3 classes and 2N divisible by C "
            f"(N = {n_clients}, C = {n_classes})"
        )
    h = 2 * n_clients // n_classes
    rng = generator(seed, "sim/partitions/two-classes-balanced")
    slots = rng.permutation(np.repeat(np.arange(n_classes), h)).reshape(n_clients, 2)
    for _ in range(100 * n_clients):
        same = np.flatnonzero(slots[:, 0] == slots[:, 1])
        if same.size == 0:
            break
        k = same[0]
        other = int(rng.integers(2 * n_clients))
        j, side = divmod(other, 2)
        # Swap slot (k, 1) with slot (j, side) when that leaves both pairs distinct.
        a, b = slots[k, 1], slots[j, side]
        if j != k and b != slots[k, 0] and a != slots[j, 1 - side]:
            slots[k, 1], slots[j, side] = b, a
    else:  # pragma: no cover - 100·N random swaps always repair the pairs for C ≥ 3
        raise InputError("could not repair the two-classes pairs")
    shares = np.zeros((n_clients, n_classes))
    np.add.at(shares, (np.repeat(np.arange(n_clients), 2), slots.ravel()), 1.0 / h)
    return shares


def cluster_label_maps(
    n_clients: int, n_classes: int, *, seed: int = 0, pairs: int = 2, clusters: int = 2
) -> tuple[np.ndarray, np.ndarray]:
    """(label maps (N, C), cluster of each client (N,)): the clients are dealt to ``clusters``
    random clusters of equal size (±1) and cluster j swaps ``pairs`` disjoint label pairs of
    its own, drawn from ``generator(seed, "sim/partitions/cluster-swap/j")``.

    >>> maps, cluster = cluster_label_maps(4, 10, seed=0)
    >>> sorted(np.bincount(cluster).tolist()), maps.shape
    ([2, 2], (4, 10))
    """
    if clusters < 1 or clusters > n_clients:
        raise InputError(f"cannot deal {n_clients} clients to {clusters} clusters")
    order = generator(seed, "sim/partitions/cluster-assign").permutation(n_clients)
    cluster = np.empty(n_clients, dtype=np.int64)
    cluster[order] = np.arange(n_clients) % clusters
    maps = np.empty((n_clients, n_classes), dtype=np.int64)
    for j in range(clusters):
        chosen = generator(seed, f"sim/partitions/cluster-swap/{j}").permutation(n_classes)
        if 2 * pairs > n_classes:
            raise InputError(f"cannot swap {pairs} disjoint pairs among {n_classes} classes")
        mapping = np.arange(n_classes)
        a, b = chosen[: 2 * pairs : 2], chosen[1 : 2 * pairs : 2]
        mapping[a], mapping[b] = b, a
        maps[cluster == j] = mapping
    return maps, cluster


def take_train(data: FederatedData, rows: np.ndarray) -> FederatedData:
    """``data`` with only the training ``rows`` (sorted global indices) kept; test unchanged."""
    rows = np.asarray(rows, dtype=np.int64)
    owners = FederatedData.owners(data.train_counts)[rows]
    return FederatedData(
        x_train=data.x_train[rows],
        y_train=data.y_train[rows],
        train_counts=np.bincount(owners, minlength=data.n_clients).astype(np.int64),
        x_test=data.x_test,
        y_test=data.y_test,
        test_counts=data.test_counts,
        n_classes=data.n_classes,
    )


def split_counts(shares: np.ndarray, class_counts: np.ndarray) -> np.ndarray:
    """(N, C) sample counts: class c's n_c samples cut at ⌊n_c · cumulative share⌉."""
    cuts = np.rint(np.cumsum(shares, axis=0) * class_counts).astype(np.int64)
    cuts[-1] = class_counts
    return np.diff(np.vstack([np.zeros_like(cuts[:1]), cuts]), axis=0)


def swap_labels(
    labels: np.ndarray, n_classes: int, *, seed: int = 0, pairs: int = 2
) -> tuple[np.ndarray, np.ndarray]:
    """(relabelled copy, the swapped pairs (pairs, 2)): ``pairs`` disjoint label pairs."""
    if 2 * pairs > n_classes:
        raise InputError(f"cannot swap {pairs} disjoint pairs among {n_classes} classes")
    chosen = generator(seed, "sim/partitions/label-swap").permutation(n_classes)[: 2 * pairs]
    mapping = np.arange(n_classes)
    mapping[chosen[0::2]], mapping[chosen[1::2]] = chosen[1::2], chosen[0::2]
    return mapping[labels], chosen.reshape(pairs, 2)


def federate(
    images: ImageArrays,
    shares: np.ndarray,
    *,
    seed: int = 0,
    swap_clients: np.ndarray | None = None,
    label_maps: np.ndarray | None = None,
) -> FederatedData:
    """Deal each class's shuffled train and test samples to the clients by ``shares``; the
    clients in ``swap_clients`` (bool mask) see two label pairs swapped (INFOCOM setting), and
    client k's labels y become ``label_maps[k, y]`` (N × C, e.g. :func:`cluster_label_maps`)."""
    n, c = shares.shape
    if c != images.n_classes or not np.allclose(shares.sum(axis=0), 1.0):
        raise InputError(f"shares must be ({n}, {images.n_classes}) with columns summing to 1")
    rng = generator(seed, "sim/partitions/deal")
    swapped = np.zeros(n, dtype=bool) if swap_clients is None else np.asarray(swap_clients, bool)
    if swapped.shape != (n,):
        raise InputError(f"swap_clients must be {n} booleans")
    if label_maps is not None:
        label_maps = np.asarray(label_maps, dtype=np.int64)
        if label_maps.shape != (n, c) or label_maps.min() < 0 or label_maps.max() >= c:
            raise InputError(f"label_maps must be ({n}, {c}) labels in 0..{c - 1}")
    parts: list[list[np.ndarray]] = [[], [], [], []]
    for x, y, slot in ((images.x_train, images.y_train, 0), (images.x_test, images.y_test, 2)):
        by_class = [rng.permutation(np.flatnonzero(y == k)) for k in range(c)]
        counts = split_counts(shares, np.array([len(b) for b in by_class]))
        starts = np.vstack([np.zeros((1, c), np.int64), np.cumsum(counts, axis=0)])
        for k in range(n):
            rows = np.concatenate([by_class[j][starts[k, j] : starts[k + 1, j]] for j in range(c)])
            labels = y[rows]
            if swapped[k]:
                labels = swap_labels(labels, c, seed=seed)[0]
            if label_maps is not None:
                labels = label_maps[k, labels]
            parts[slot].append(x[rows])
            parts[slot + 1].append(labels)
    train_counts = np.array([len(p) for p in parts[1]], dtype=np.int64)
    if (train_counts == 0).any():
        raise InputError("some client received no training sample: use fewer clients")
    return FederatedData(
        x_train=np.concatenate(parts[0]),
        y_train=np.concatenate(parts[1]).astype(np.int64),
        train_counts=train_counts,
        x_test=np.concatenate(parts[2]),
        y_test=np.concatenate(parts[3]).astype(np.int64),
        test_counts=np.array([len(p) for p in parts[3]], dtype=np.int64),
        n_classes=c,
    )


def subsample(
    images: ImageArrays, n_train: int | None, n_test: int | None, seed: int = 0
) -> ImageArrays:
    """A random subset of at most ``n_train`` / ``n_test`` images (None: all)."""
    rng = generator(seed, "sim/partitions/subsample")

    def pick(size: int, limit: int | None) -> np.ndarray:
        return np.arange(size) if limit is None or limit >= size else rng.choice(size, limit, False)

    tr, te = pick(images.y_train.size, n_train), pick(images.y_test.size, n_test)
    return ImageArrays(
        images.x_train[tr],
        images.y_train[tr],
        images.x_test[te],
        images.y_test[te],
        images.shape,
        images.n_classes,
    )
