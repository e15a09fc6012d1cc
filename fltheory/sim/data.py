"""Federated data sets for the simulator, stored ragged: all samples in one array + counts.

Client k owns rows offsets[k] : offsets[k] + counts[k]. Ragged storage (rather than padding to
the largest client) keeps power-law data sets small; minibatches are gathered by
``offsets[k] + local index``, and full local batches are padded on demand
(:meth:`FederatedData.padded_indices`).

Generators (all randomness from ``generator(seed, "sim/data/...")``):
* :func:`synthetic_leaf` — LEAF Synthetic(γ, δ), CA-Fed ToN Appendix G1 (setup of [23], [24]);
* :func:`binary_synthetic` — the INFOCOM version's binary data set (Appendix F): two groups,
  the second with labels flipped with probability h;
* :func:`validation_split` — the rows of a 20 % (say) validation split of each client's training
  set, seeded by (seed, "validation").
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from fltheory.errors import InputError
from fltheory.markov.population import Population
from fltheory.markov.two_state import check_two_state
from fltheory.rng import generator


@dataclass(frozen=True, eq=False)
class FederatedData:
    """Ragged per-client train/test samples for a classifier with ``n_classes`` labels."""

    x_train: np.ndarray
    y_train: np.ndarray
    train_counts: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray
    test_counts: np.ndarray
    n_classes: int

    def __post_init__(self) -> None:
        for x, y, c, name in (
            (self.x_train, self.y_train, self.train_counts, "train"),
            (self.x_test, self.y_test, self.test_counts, "test"),
        ):
            if x.ndim != 2 or y.shape != (x.shape[0],) or int(c.sum()) != x.shape[0]:
                raise InputError(f"{name} data: features, labels and counts do not match")
        if (self.train_counts < 1).any():
            raise InputError("every client needs at least one training sample")
        if self.train_counts.shape != self.test_counts.shape:
            raise InputError("train and test counts must cover the same clients")

    @property
    def n_clients(self) -> int:
        return int(self.train_counts.size)

    @property
    def n_features(self) -> int:
        return int(self.x_train.shape[1])

    @staticmethod
    def offsets(counts: np.ndarray) -> np.ndarray:
        """Start row of each client: [0, c0, c0 + c1, ...]."""
        return np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)

    @staticmethod
    def owners(counts: np.ndarray) -> np.ndarray:
        """Client index of every row."""
        return np.repeat(np.arange(counts.size), counts)

    def split_validation(self, fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
        """(train rows, validation rows) of x_train: ``fraction`` of each client's samples,
        seeded by (seed, "validation") (:func:`validation_split`)."""
        return validation_split(self.train_counts, fraction, seed)

    def padded_indices(self) -> tuple[np.ndarray, np.ndarray]:
        """(N, n_max) local indices of every training sample (0-padded) and the 0/1 mask."""
        n_max = int(self.train_counts.max())
        idx = np.arange(n_max)[None, :].repeat(self.n_clients, 0)
        mask = idx < self.train_counts[:, None]
        return np.where(mask, idx, 0), mask


def validation_split(
    train_counts: np.ndarray, fraction: float, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """(train rows, validation rows), sorted, of a ragged training set with ``train_counts``
    samples per client: client k gives round(fraction·n_k) random rows (keeping at least one
    for training) to validation, drawn from ``generator(seed, "validation")``.

    >>> train, val = validation_split(np.array([5, 10]), 0.2, seed=0)
    >>> len(train), len(val), bool(((val >= 5).sum(), (val < 5).sum()) == (2, 1))
    (12, 3, True)
    """
    if not 0.0 <= fraction < 1.0:
        raise InputError(f"the validation fraction must lie in [0, 1), got {fraction}")
    counts = np.asarray(train_counts, dtype=np.int64)
    rng = generator(seed, "validation")
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    val = []
    for start, n in zip(starts, counts, strict=True):
        k = min(round(fraction * float(n)), int(n) - 1)
        val.append(start + rng.permutation(int(n))[:k])
    val_rows = np.sort(np.concatenate(val)).astype(np.int64) if val else np.zeros(0, np.int64)
    train_rows = np.setdiff1d(np.arange(int(counts.sum()), dtype=np.int64), val_rows)
    return train_rows, val_rows


def _split(
    x: np.ndarray, y: np.ndarray, test_fraction: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    n_train = max(1, round((1.0 - test_fraction) * len(y)))
    return x[:n_train], y[:n_train], x[n_train:], y[n_train:]


def _assemble(parts: Sequence[tuple[np.ndarray, ...]], n_classes: int) -> FederatedData:
    xs_tr, ys_tr, xs_te, ys_te = zip(*parts, strict=True)
    return FederatedData(
        x_train=np.concatenate(xs_tr),
        y_train=np.concatenate(ys_tr).astype(np.int64),
        train_counts=np.array([len(y) for y in ys_tr], dtype=np.int64),
        x_test=np.concatenate(xs_te),
        y_test=np.concatenate(ys_te).astype(np.int64),
        test_counts=np.array([len(y) for y in ys_te], dtype=np.int64),
        n_classes=n_classes,
    )


def _check_fraction(test_fraction: float) -> None:
    if not 0.0 <= test_fraction < 1.0:
        raise InputError(f"test_fraction must lie in [0, 1), got {test_fraction}")


def synthetic_leaf(
    gamma: float,
    delta: float,
    n_clients: int = 100,
    *,
    seed: int = 0,
    n_features: int = 60,
    n_classes: int = 10,
    test_fraction: float = 0.1,
    min_samples: int = 50,
    max_samples: int | None = None,
    rng_layout: Literal["fltheory", "authors"] = "fltheory",
) -> FederatedData:
    """LEAF Synthetic(γ, δ) (CA-Fed ToN Appendix G1; FedProx's generator).

    ``rng_layout="authors"``: the authors' generator draw for draw (:func:`authors_leaf`; the
    sizes of their seed-42 data set at seed 42); ``test_fraction`` is then theirs (floor split).

    For client k: μ_k ~ N(0, γ²), W_k (C × d) and b_k with entries ~ N(μ_k, 1); B_k ~ N(0, δ²),
    v_k ~ N(B_k, I); x ~ N(v_k, Σ) with Σ = diag(j^−1.2); y = argmax(W_k x + b_k). Sample
    counts follow the LEAF power law ⌊LogNormal(4, 2)⌋ + ``min_samples`` (optionally capped),
    and the last ``test_fraction`` of each client's samples form its test set.

    Reading of garbled text: Appendix G1 writes N(0, γ) and "standard deviation 1/j^1.2"; we
    follow the reference generator of [24] (γ, δ are standard deviations; j^−1.2 is the
    variance), which FedPBC Section VI also states (Σ_jj = j^−1.2).
    """
    if gamma < 0 or delta < 0:
        raise InputError(f"gamma and delta must be >= 0, got {gamma}, {delta}")
    if n_clients < 1 or n_features < 1 or n_classes < 2 or min_samples < 2:
        raise InputError("need n_clients >= 1, n_features >= 1, n_classes >= 2, min_samples >= 2")
    _check_fraction(test_fraction)
    if rng_layout == "authors":
        return authors_leaf(
            gamma, delta, n_clients, seed=seed, n_features=n_features, n_classes=n_classes,
            max_samples=max_samples,
        )[0]  # fmt: skip
    if rng_layout != "fltheory":
        raise InputError(f"rng_layout must be 'fltheory' or 'authors', got {rng_layout!r}")
    rng = generator(seed, "sim/data/synthetic-leaf")
    counts = rng.lognormal(4.0, 2.0, n_clients).astype(np.int64) + min_samples
    if max_samples is not None:
        counts = np.minimum(counts, max(int(max_samples), min_samples))
    mean_w = rng.normal(0.0, gamma, n_clients)
    centers = rng.normal(0.0, delta, n_clients)
    scale = np.arange(1, n_features + 1, dtype=float) ** (-0.6)  # std = sqrt(j^-1.2)
    parts = []
    for k in range(n_clients):
        v = rng.normal(centers[k], 1.0, n_features)
        W = rng.normal(mean_w[k], 1.0, (n_classes, n_features))
        b = rng.normal(mean_w[k], 1.0, n_classes)
        x = v + rng.standard_normal((counts[k], n_features)) * scale
        y = np.argmax(x @ W.T + b, axis=1)
        parts.append(_split(x, y, test_fraction))
    return _assemble(parts, n_classes)


def authors_leaf(
    gamma: float,
    delta: float,
    n_clients: int = 100,
    *,
    seed: int = 42,
    n_features: int = 60,
    n_classes: int = 10,
    max_samples: int | None = None,
    g: float = 0.4,
    nu: float = 0.9,
    deterministic_split: bool = False,
) -> tuple[FederatedData, Population]:
    """The authors' ``generate_synthetic_leaf`` (arodio/CA-Fed ``data/utils.py``, spec A.5) with
    one ``np.random.default_rng(seed)`` consumed in their order: client types
    (:func:`~fltheory.markov.population.authors_types`), n_k = ⌊LogNormal(4, 2)⌋ + 50, μ_k ~
    N(0, γ), B_k ~ N(0, δ), every v_k, then per client W (d × C), b, x by
    ``multivariate_normal`` (SVD), y = argmax(xW + b); then per client a shuffle, the floor
    split ⌊0.9 n_k⌋ train / rest test and the client's λ₂ (a shifting client's draw comes
    after its shuffle). Returns the data and the availability population drawn with it.
    ``max_samples`` caps n_k (not the authors'; for quick runs).

    >>> data, pop = authors_leaf(0.0, 0.0, 24, seed=42, n_features=60)
    >>> int(data.train_counts.sum()), int(data.test_counts.sum()), int(data.train_counts.max())
    (7157, 804, 3606)
    """
    from fltheory.markov.population import authors_lambda, authors_types

    if gamma < 0 or delta < 0 or n_clients < 1 or n_features < 1 or n_classes < 2:
        raise InputError("need gamma, delta >= 0, n_clients, n_features >= 1, n_classes >= 2")
    rng = np.random.default_rng(seed)
    avail, stab = authors_types(rng, n_clients, deterministic_split)
    counts = rng.lognormal(4, 2, n_clients).astype(int) + 50
    if max_samples is not None:
        counts = np.minimum(counts, max(int(max_samples), 50))
    mean_w = rng.normal(0, gamma, n_clients)
    centers = rng.normal(0, delta, n_clients)
    cov = np.diag(np.arange(1, n_features + 1, dtype=float) ** -1.2)
    v = np.stack([rng.normal(centers[k], 1, n_features) for k in range(n_clients)])
    xs, ys = [], []
    for k in range(n_clients):
        w = rng.normal(mean_w[k], 1, (n_features, n_classes))
        b = rng.normal(mean_w[k], 1, n_classes)
        x = rng.multivariate_normal(v[k], cov, int(counts[k]))
        xs.append(x)
        ys.append(np.argmax(x @ w + b, axis=1))
    pi = np.where(avail == 0, 0.5 + g, 0.5 - g)
    lam = np.empty(n_clients)
    parts = []
    for k in range(n_clients):
        order = np.arange(int(counts[k]))
        rng.shuffle(order)
        x, y = xs[k][order], ys[k][order]
        n_train = int(0.9 * counts[k])
        parts.append((x[:n_train], y[:n_train], x[n_train:], y[n_train:]))
        lam[k] = authors_lambda(int(stab[k]), float(pi[k]), nu, 0.01, rng)
    pi, lam = check_two_state(pi, lam)
    population = Population(pi=pi, lambda2=lam, labels=2 * avail + (stab != 0))
    return _assemble(parts, n_classes), population


def binary_synthetic(
    n_clients: int = 24,
    *,
    seed: int = 0,
    n_features: int = 10,
    n_train: int = 100,
    n_test: int = 100,
    flip: float = 0.5,
    group_fraction: float = 0.5,
    deterministic_groups: bool = False,
) -> tuple[FederatedData, np.ndarray]:
    """The INFOCOM version's binary data set (Appendix F) and the clients' group labels.

    Group g_k ~ Bernoulli(``group_fraction``); θ ~ N(0, I_d) shared; x ~ N(0, I_d); the label is
    Bernoulli(σ(θᵀx)) in group 0 and Bernoulli(h(1 − σ) + (1 − h)σ) in group 1 (labels flipped
    with probability h = ``flip``). The formulas were lost in the extraction of Appendix F; this
    reading follows the steps listed there and the authors' generator. Sizes are our defaults.
    ``deterministic_groups``: the last round(N·``group_fraction``) clients form group 1 (the
    authors' ``--deterministic_split``: 12/12 for N = 24); the stream is unchanged.

    >>> _, groups = binary_synthetic(24, n_train=2, n_test=1, deterministic_groups=True)
    >>> int(groups.sum()), int(groups[-12:].sum())
    (12, 12)
    """
    if not (0.0 <= flip <= 1.0 and 0.0 <= group_fraction <= 1.0):
        raise InputError("flip and group_fraction must lie in [0, 1]")
    if n_clients < 1 or n_features < 1 or n_train < 1 or n_test < 0:
        raise InputError("need n_clients, n_features, n_train >= 1 and n_test >= 0")
    rng = generator(seed, "sim/data/binary-synthetic")
    groups = (rng.random(n_clients) < group_fraction).astype(np.int64)
    if deterministic_groups:
        groups = (np.arange(n_clients) >= n_clients - round(n_clients * group_fraction)).astype(
            np.int64
        )
    theta = rng.standard_normal(n_features)
    parts = []
    for k in range(n_clients):
        x = rng.standard_normal((n_train + n_test, n_features))
        p = 1.0 / (1.0 + np.exp(-(x @ theta)))
        if groups[k]:
            p = flip * (1.0 - p) + (1.0 - flip) * p
        y = (rng.random(n_train + n_test) < p).astype(np.int64)
        parts.append((x[:n_train], y[:n_train], x[n_train:], y[n_train:]))
    return _assemble(parts, 2), groups


def fedpbc_quadratic_centers(m: int = 100, d: int = 100, *, seed: int = 0) -> np.ndarray:
    """FedPBC Section VI counterexample: u_i ~ N((i/1000)·1, 0.01·I), i = 1..m, shape (m, d)."""
    if m < 1 or d < 1:
        raise InputError("need m >= 1 clients and dimension d >= 1")
    rng = generator(seed, "sim/data/fedpbc-quadratic")
    means = (np.arange(1, m + 1, dtype=float) / 1000.0)[:, None]
    return means + 0.1 * rng.standard_normal((m, d))
