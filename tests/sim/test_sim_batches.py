"""The streamed batch plan against the 16-round block draws it replaces (an independent
computation of the same numbers), in any order of requests."""

import numpy as np
import pytest

from fltheory.rng import generator
from fltheory.sim.batches import BLOCK, BatchPlan


def block_draw(seed: int, counts: np.ndarray, steps: int, batch: int, rep: int, t: int):
    """Round t of repetition ``rep`` as the former plan drew it: one (BLOCK, E, N, B) array."""
    rng = generator(seed, f"sim/batches/rep{rep}/block{t // BLOCK}")
    shape = (BLOCK, steps, counts.size, batch)
    return rng.integers(0, counts[None, None, :, None], size=shape)[t % BLOCK]


@pytest.mark.parametrize("n_clients", [3, 700])
def test_streamed_rounds_equal_block_draws_in_any_order(n_clients: int) -> None:
    counts = np.random.default_rng(1).integers(1, 500, n_clients)
    plan = BatchPlan(7, counts, 2, 5, reps=3)
    order = [0, 1, 2, 17, 5, 4, 40, 16, 15, 31, 32, 3]
    for t in order:
        for r in (2, 0):
            np.testing.assert_array_equal(plan.rep_round(r, t), block_draw(7, counts, 2, 5, r, t))


@pytest.mark.parametrize("batch", [2, 4000])  # one stacked gather; one gather per repetition
def test_round_view_gathers_like_the_stacked_array(batch: int) -> None:
    counts = np.array([4, 9, 2, 30])
    plan = BatchPlan(3, counts, 3, batch, reps=5)
    t = 21
    full = np.stack([block_draw(3, counts, 3, batch, r, t) for r in range(5)])
    rr, kk = np.array([4, 0, 4, 2, 0]), np.array([1, 3, 0, 3, 2])
    np.testing.assert_array_equal(plan.round(t)[rr, :, kk], full[rr, :, kk])
    np.testing.assert_array_equal(plan.round(t)[rr, 0, kk], full[rr, 0, kk])
    np.testing.assert_array_equal(plan.round(t)[rr, 1:, kk], full[rr, 1:, kk])
