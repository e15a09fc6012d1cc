"""Regression: unbiased_weights returned NaN when some π_k is so small that α_k/π_k overflows
(found by cafed:unbiased-zero-bias's search: π₁ = 5e-324, a subnormal availability)."""

import numpy as np
import pytest

from fltheory.divergence import biased_importance
from fltheory.optimize.guidelines import unbiased_weights


@pytest.mark.parametrize("tiny", [5e-324, 1e-310, 1e-300])
def test_tiny_availability_gives_finite_weights(tiny):
    q = unbiased_weights([0.5, 0.5], [tiny, 1.0], Q=2.0)
    assert np.all(np.isfinite(q)) and q.sum() == pytest.approx(2.0)
    assert q[0] == pytest.approx(2.0) and q[1] <= 3.0 * tiny  # q ∝ α/π = (1/(2π₁), 1/2)


def test_p_still_equals_alpha_for_ordinary_availabilities():
    alpha, pi = np.array([0.2, 0.3, 0.5]), np.array([0.1, 0.7, 1.0])
    q = unbiased_weights(alpha, pi)
    np.testing.assert_allclose(q, (alpha / pi) / np.sum(alpha / pi), rtol=1e-15)
    np.testing.assert_allclose(biased_importance(q, pi), alpha, rtol=1e-15)


def test_equal_subnormal_availabilities_share_equally():
    q = unbiased_weights([0.25, 0.75], [5e-324, 5e-324])  # both ratios overflow
    np.testing.assert_array_equal(q, [0.25, 0.75])
