"""Seeded streams: same (seed, purpose) gives the same numbers; different keys differ."""

import numpy as np
import pytest

from fltheory.rng import generator


def test_same_key_same_stream():
    a = generator(7, "availability").random(5)
    b = generator(7, "availability").random(5)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(("key_a", "key_b"), [((7, "a"), (7, "b")), ((7, "a"), (8, "a"))])
def test_different_keys_differ(key_a, key_b):
    assert not np.array_equal(generator(*key_a).random(5), generator(*key_b).random(5))


def test_negative_seed_rejected():
    with pytest.raises(ValueError, match="non-negative"):
        generator(-1, "x")
