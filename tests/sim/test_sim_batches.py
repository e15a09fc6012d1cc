"""The streamed batch plan against a plain re-computation of its draws (raw 64-bit outputs,
32-bit words, multiply-shift, in Python integers), in any order of requests; uniformity."""

import numpy as np
import pytest

from fltheory.rng import generator
from fltheory.sim.batches import BLOCK, BatchPlan


def block_draw(seed: int, counts: np.ndarray, steps: int, batch: int, rep: int, t: int):
    """Round t of repetition ``rep``: its block's stream skipped to round t, then per entry
    (in C order) a 32-bit word h (the high words of ⌈E·N·B/2⌉ raw outputs, then the low
    words) and the index h·n_k // 2³²."""
    rng = generator(seed, f"sim/batches/rep{rep}/block{t // BLOCK}")
    size = steps * counts.size * batch
    half = -(-size // 2)
    raw = [int(v) for v in rng.bit_generator.random_raw(half * (t % BLOCK + 1))[-half:]]
    words = [v >> 32 for v in raw] + [v & 0xFFFFFFFF for v in raw]
    k_of = np.broadcast_to(np.arange(counts.size)[:, None], (steps, counts.size, batch)).ravel()
    out = [words[i] * int(counts[k_of[i]]) >> 32 for i in range(size)]
    return np.array(out, dtype=np.int64).reshape(steps, counts.size, batch)


@pytest.mark.parametrize("n_clients", [3, 61])
def test_streamed_rounds_equal_block_draws_in_any_order(n_clients: int) -> None:
    counts = np.random.default_rng(1).integers(1, 500, n_clients)
    plan = BatchPlan(7, counts, 2, 5, reps=3)
    order = [0, 1, 2, 17, 5, 4, 40, 16, 15, 31, 32, 3]
    for t in order:
        for r in (2, 0):
            np.testing.assert_array_equal(plan.rep_round(r, t), block_draw(7, counts, 2, 5, r, t))


@pytest.mark.parametrize("batch", [3, 4000])  # a small plan (whole blocks); a streamed one
def test_round_view_gathers_like_the_stacked_array(batch: int) -> None:
    counts = np.array([4, 9, 2, 30])
    plan = BatchPlan(3, counts, 3, batch, reps=5)
    t = 21
    full = np.stack([block_draw(3, counts, 3, batch, r, t) for r in range(5)])
    rr, kk = np.array([4, 0, 4, 2, 0]), np.array([1, 3, 0, 3, 2])
    np.testing.assert_array_equal(plan.round(t)[rr, :, kk], full[rr, :, kk])
    np.testing.assert_array_equal(plan.round(t)[rr, 0, kk], full[rr, 0, kk])
    np.testing.assert_array_equal(plan.round(t)[rr, 1:, kk], full[rr, 1:, kk])


def test_same_seed_same_bytes_and_seeds_differ() -> None:
    counts = np.array([5, 17, 1, 300])
    a, b = BatchPlan(4, counts, 2, 8, 3), BatchPlan(4, counts, 2, 8, 3)
    assert a.rep_round(2, 33).tobytes() == b.rep_round(2, 33).tobytes()
    assert a.rep_round(2, 33).tobytes() != BatchPlan(5, counts, 2, 8, 3).rep_round(2, 33).tobytes()


@pytest.mark.parametrize("n", [1, 7, 1000])
def test_draws_are_uniform_with_replacement(n: int) -> None:
    """Pearson's chi-square of the index counts of one client (n samples) over 400 rounds
    against the uniform law; a 3-sample client sees repeats within a batch."""
    from scipy.stats import chisquare

    plan = BatchPlan(11, np.array([3, n]), 2, 64, reps=1)
    idx = np.concatenate([plan.rep_round(0, t)[:, 1].ravel() for t in range(400)])
    assert idx.min() >= 0 and idx.max() < n
    if n > 1:
        assert chisquare(np.bincount(idx, minlength=n)).pvalue > 1e-4
    assert any(len(set(b)) < 64 for b in plan.rep_round(0, 0)[:, 0].tolist())
