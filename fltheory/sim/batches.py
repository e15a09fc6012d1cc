"""Minibatch index plans: every local step's sample indices, drawn from seeded streams on demand.

Batch B_{t,j}^k of eq. (2) holds ``batch_size`` local indices drawn uniformly WITH replacement
from client k's n_k samples (so ∇F_k(·, B) is unbiased, Section II). Indices for repetition r
and rounds [b·block, (b+1)·block) come from ``generator(seed, f"sim/batches/rep{r}/block{b}")``,
drawn round after round (``integers`` with per-client bounds, an (E, N, B) array per round: the
same numbers, in the same order, as one (block, E, N, B) draw): a pure function of (seed, r, t),
so the vectorised engine and the reference loop, every algorithm of a comparison, and a run
resumed from a checkpoint consume identical batches whatever order they ask in.

The plan streams: per repetition it holds the rounds of one draw, at most :data:`AHEAD`
indices or one round's (E, N, B) — never a 16-round block for every repetition — and
:meth:`BatchPlan.round` hands the engine a lazy view that draws only the repetitions the
engine asks for.
"""

from dataclasses import dataclass

import numpy as np

from fltheory.errors import InputError
from fltheory.rng import generator

#: Rounds per stream (a new seeded stream starts every BLOCK rounds).
BLOCK = 16


#: Indices one repetition may hold ahead (its stream then draws several rounds at once).
AHEAD = 2**16


@dataclass
class _Stream:
    """One repetition's position: the stream of ``block`` has produced rounds < ``next_t``,
    the last ``ahead.shape[0]`` of them held in ``ahead`` (R', E, N, B)."""

    block: int
    rng: np.random.Generator
    next_t: int
    ahead: np.ndarray


class BatchPlan:
    """Local minibatch indices for ``reps`` repetitions of E local steps per round.

    >>> plan = BatchPlan(0, np.array([5, 9]), local_steps=2, batch_size=3, reps=4)
    >>> plan.rep_round(1, 20).shape, int(plan.rep_round(1, 20)[:, 1].max()) < 9
    ((2, 2, 3), True)
    >>> rr, kk = np.array([3, 1]), np.array([0, 1])
    >>> bool((plan.round(20)[rr, :, kk][1] == plan.rep_round(1, 20)[:, 1]).all())
    True
    """

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
        self._high = self.counts[None, None, :, None]
        self._streams: dict[int, _Stream] = {}

    def _draw(self, stream: _Stream, t: int) -> None:
        """Advance ``stream`` past round t, drawing as many rounds at once as AHEAD allows."""
        per_round = self.local_steps * self.counts.size * self.batch_size
        end = (stream.block + 1) * BLOCK
        n = max(t + 1 - stream.next_t, min(end - stream.next_t, AHEAD // per_round))
        shape = (n, self.local_steps, self.counts.size, self.batch_size)
        stream.ahead = stream.rng.integers(0, self._high, size=shape)
        stream.next_t += n

    def rep_round(self, rep: int, t: int) -> np.ndarray:
        """(E, N, B) indices of repetition ``rep`` at round t (0-based)."""
        stream = self._streams.get(rep)
        block = t // BLOCK
        held = 0 if stream is None else stream.ahead.shape[0]
        if stream is None or stream.block != block or stream.next_t - held > t:
            rng = generator(self.seed, f"sim/batches/rep{rep}/block{block}")
            empty = np.empty((0,), dtype=np.int64)
            stream = self._streams[rep] = _Stream(block, rng, block * BLOCK, empty)
        if stream.next_t <= t:
            self._draw(stream, t)
        return stream.ahead[t - stream.next_t + stream.ahead.shape[0]]

    def round(self, t: int) -> "RoundBatches":
        """Round t's indices as a lazy (R, E, N, B) array (see :class:`RoundBatches`)."""
        return RoundBatches(self, t)


@dataclass(frozen=True)
class RoundBatches:
    """Round t of a plan, indexed like the (R, E, N, B) array it stands for with
    ``[rr, j, kk]`` (rr, kk: equal-length integer arrays of (repetition, client) pairs; j: a
    step or a slice of steps), the gathers the engine makes: (M, E', B) or (M, B) indices.
    Only the repetitions in ``rr`` are drawn."""

    plan: BatchPlan
    t: int

    def __getitem__(self, key: tuple[np.ndarray, int | slice, np.ndarray]) -> np.ndarray:
        rr, step, kk = key
        rr, kk = np.asarray(rr), np.asarray(kk)
        p = self.plan
        reps = np.unique(rr)
        slabs = [p.rep_round(int(r), self.t) for r in reps]
        if reps.size * p.local_steps * p.counts.size * p.batch_size <= AHEAD:
            return np.stack(slabs)[np.searchsorted(reps, rr), step, kk]  # small: one gather
        out = np.empty((rr.size, p.local_steps, p.batch_size), dtype=np.int64)
        for r, slab in zip(reps, slabs, strict=True):
            sel = rr == r
            out[sel] = slab[:, kk[sel]].transpose(1, 0, 2)
        return out[:, step]
