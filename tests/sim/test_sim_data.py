"""Data generators: structure, determinism and distributional checks with stated bands."""

import numpy as np
import pytest

from fltheory.errors import InputError
from fltheory.sim.data import (
    FederatedData,
    binary_synthetic,
    fedpbc_quadratic_centers,
    synthetic_leaf,
)


def test_synthetic_leaf_layout_and_determinism():
    a = synthetic_leaf(0.5, 0.5, 12, seed=4, n_features=6, n_classes=4)
    b = synthetic_leaf(0.5, 0.5, 12, seed=4, n_features=6, n_classes=4)
    assert all((getattr(a, f) == getattr(b, f)).all() for f in ("x_train", "y_train", "x_test"))
    total = a.train_counts + a.test_counts
    assert (total >= 50).all()
    np.testing.assert_array_equal(a.test_counts, total - np.round(0.9 * total).astype(int))
    assert a.y_train.min() >= 0 and a.y_train.max() < 4
    capped = synthetic_leaf(0.5, 0.5, 30, seed=4, max_samples=80)
    assert (capped.train_counts + capped.test_counts <= 80).all()


def test_synthetic_leaf_feature_variances_follow_the_power_law():
    """Within a client, x_j − v_kj ~ N(0, j^−1.2): the pooled within-client sample variance
    of coordinate j has sd ≈ σ_j²·sqrt(2/dof); we allow 5 sd."""
    data = synthetic_leaf(0.5, 0.5, 40, seed=1, n_features=10, n_classes=3)
    counts = data.train_counts
    owners = FederatedData.owners(counts)
    means = np.zeros((counts.size, 10))
    np.add.at(means, owners, data.x_train)
    means /= counts[:, None]
    resid = data.x_train - means[owners]
    dof = counts.sum() - counts.size
    var = (resid**2).sum(0) / dof
    target = np.arange(1, 11) ** -1.2
    assert (np.abs(var - target) < 5 * target * np.sqrt(2 / dof)).all()


def test_synthetic_leaf_delta_spreads_the_client_means():
    """mean_j v_kj ~ N(B_k, 1/d) with B_k ~ N(0, δ²): its across-client variance is δ² + 1/d."""
    for delta in (0.0, 2.0):
        data = synthetic_leaf(0.0, delta, 200, seed=2, n_features=20, n_classes=3, max_samples=60)
        owners = FederatedData.owners(data.train_counts)
        sums = np.zeros(200)
        np.add.at(sums, owners, data.x_train.mean(1))
        spread = (sums / data.train_counts).var(ddof=1)
        expected = delta**2 + 1 / 20 + np.mean(np.arange(1, 21) ** -1.2) / 20 / 50
        assert abs(spread / expected - 1) < 5 * np.sqrt(2 / 199)


def test_binary_synthetic_flips_labels_of_group_one_only():
    plain, groups = binary_synthetic(10, seed=3, flip=0.0)
    flipped, groups2 = binary_synthetic(10, seed=3, flip=1.0)
    np.testing.assert_array_equal(groups, groups2)
    np.testing.assert_array_equal(plain.x_train, flipped.x_train)
    owners = FederatedData.owners(plain.train_counts)
    same = plain.y_train == flipped.y_train
    assert same[groups[owners] == 0].all()
    # With p' = 1 − p, y = 1{u < p} and y' = 1{u < 1 − p} from the same uniform u differ with
    # probability |1 − 2p| > 0 for almost every x: most labels of group 1 change.
    assert same[groups[owners] == 1].mean() < 0.8
    assert groups.any() and not groups.all()


def test_fedpbc_centers_have_the_stated_law():
    u = fedpbc_quadratic_centers(100, 100, seed=0)
    resid = u - (np.arange(1, 101) / 1000)[:, None]
    assert abs(resid.mean()) < 5 * 0.1 / 100
    assert abs(resid.var() - 0.01) < 5 * 0.01 * np.sqrt(2 / 10_000)


def test_generator_arguments_are_validated():
    with pytest.raises(InputError):
        synthetic_leaf(-1.0, 0.5)
    with pytest.raises(InputError):
        binary_synthetic(flip=1.5)
    with pytest.raises(InputError):
        fedpbc_quadratic_centers(0)
