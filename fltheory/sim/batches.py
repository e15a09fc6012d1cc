"""Minibatch index plans: every local step's sample indices, drawn up front from seeded streams.

Batch B_{t,j}^k of eq. (2) holds ``batch_size`` local indices drawn uniformly WITH replacement
from client k's n_k samples (so ∇F_k(·, B) is unbiased, Section II). Indices for repetition r
and rounds [b·block, (b+1)·block) come from ``generator(seed, f"sim/batches/rep{r}/block{b}")``:
a pure function of (seed, r, t), so the vectorised engine and the reference loop, and every
algorithm of a comparison, consume identical batches whatever order they ask in.
"""

from collections import OrderedDict

import numpy as np

from fltheory.errors import InputError
from fltheory.rng import generator

#: Rounds per generated block (a block for one repetition holds block·E·N·B indices).
BLOCK = 16


class BatchPlan:
    """Local minibatch indices for ``reps`` repetitions of E local steps per round."""

    def __init__(
        self, seed: int, counts: np.ndarray, local_steps: int, batch_size: int, reps: int
    ) -> None:
        if local_steps < 1 or batch_size < 1 or reps < 1:
            raise InputError("local_steps, batch_size and reps must all be >= 1")
        self.seed, self.local_steps, self.batch_size, self.reps = (
            seed,
            local_steps,
            batch_size,
            reps,
        )
        self.counts = np.asarray(counts, dtype=np.int64)
        if (self.counts < 1).any():
            raise InputError("every client needs at least one sample to draw minibatches from")
        self._cache: OrderedDict[tuple[int, int], np.ndarray] = OrderedDict()

    def _block(self, rep: int, block: int) -> np.ndarray:
        key = (rep, block)
        if key not in self._cache:
            rng = generator(self.seed, f"sim/batches/rep{rep}/block{block}")
            shape = (BLOCK, self.local_steps, self.counts.size, self.batch_size)
            self._cache[key] = rng.integers(0, self.counts[None, None, :, None], size=shape)
            while len(self._cache) > 2 * self.reps:
                self._cache.popitem(last=False)
        return self._cache[key]

    def rep_round(self, rep: int, t: int) -> np.ndarray:
        """(E, N, B) indices of repetition ``rep`` at round t (0-based)."""
        return self._block(rep, t // BLOCK)[t % BLOCK]

    def round(self, t: int) -> np.ndarray:
        """(R, E, N, B) indices of every repetition at round t."""
        return np.stack([self.rep_round(r, t) for r in range(self.reps)])
