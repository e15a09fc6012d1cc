"""Minibatch index plans: every local step's sample indices, drawn from seeded streams on demand.

Batch B_{t,j}^k of eq. (2) holds ``batch_size`` local indices drawn uniformly WITH replacement
from client k's n_k samples (so ∇F_k(·, B) is unbiased, Section II). Indices for repetition r
and rounds [b·block, (b+1)·block) come from ``generator(seed, f"sim/batches/rep{r}/block{b}")``,
drawn round after round by :func:`draw_indices` (multiply-shift of 32-bit words of the
stream's raw outputs, an (E, N, B) array per round: the same numbers, in the same order, as one
(block, E, N, B) draw): a pure function of (seed, r, t), so the vectorised engine and the
reference loop, every algorithm of a comparison, and a run resumed from a checkpoint consume
identical batches whatever order they ask in. (Before issue 14's part b the indices came from
numpy's bounded ``integers`` with per-client bounds, several times slower to draw; the
batches, hence a seed's results, differ from those releases.)

The plan streams: per repetition it holds the rounds of one draw, at most :data:`AHEAD`
indices or one round's (E, N, B) — never a 16-round block for every repetition, unless all
of them together hold at most :data:`SMALL` indices (then one block of all is held, as raw
words, the indices computed when asked for) — and :meth:`BatchPlan.round` hands the engine a
lazy view that draws only the repetitions the engine asks for. The compiled logistic step
(:mod:`fltheory.sim.cpu_kernels`) reads a small plan's raw words directly (the multiply-shift
of the participating pairs only, the same numbers).
"""

from dataclasses import dataclass

import numpy as np

from fltheory.errors import InputError
from fltheory.rng import generator

#: Rounds per stream (a new seeded stream starts every BLOCK rounds).
BLOCK = 16


#: Indices one repetition may hold ahead (its stream then draws several rounds at once).
AHEAD = 2**16

#: Plans with at most this many indices per block of every repetition hold whole blocks.
SMALL = 2**18


def raw_words(rng: np.random.Generator, rounds: int, per_round: int) -> np.ndarray:
    """(rounds, ⌈per_round/2⌉) raw 64-bit outputs of ``rng``'s bit generator: the words
    :func:`draw_indices` turns into ``per_round`` indices a round.

    >>> from fltheory.rng import generator
    >>> raw_words(generator(0, "doc"), 3, 5).shape
    (3, 3)
    """
    return rng.bit_generator.random_raw(rounds * -(-per_round // 2)).reshape(rounds, -1)


def words_to_indices(raw: np.ndarray, counts: np.ndarray, steps: int, batch: int) -> np.ndarray:
    """(rounds, steps, N, batch) indices of (rounds, half) raw words (:func:`raw_words`): entry
    p of a round (C order) is ⌊h·n_k / 2³²⌋, h the high word of raw[p] for p < half, else the
    low word of raw[p − half].

    >>> raw = np.array([[(3 << 32) + 5]], dtype=np.uint64)
    >>> words_to_indices(raw, np.array([2**31]), 1, 2).ravel().tolist()  # 3·2³¹ >> 32, 5·2³¹ >> 32
    [1, 2]
    """
    rounds, half = raw.shape
    per_round = steps * len(counts) * batch
    words = np.empty((rounds, 2 * half), dtype=np.uint64)
    np.right_shift(raw, np.uint64(32), out=words[:, :half])
    np.bitwise_and(raw, np.uint64(0xFFFFFFFF), out=words[:, half:])
    out = words[:, :per_round].reshape(rounds, steps, len(counts), batch)
    out *= np.asarray(counts, dtype=np.uint64)[:, None]
    out >>= np.uint64(32)
    return out.view(np.int64)


def draw_indices(
    rng: np.random.Generator, counts: np.ndarray, rounds: int, steps: int, batch: int
) -> np.ndarray:
    """(rounds, steps, N, batch) indices, entry [t, j, k, i] uniform on {0, …, n_k − 1} (n_k =
    ``counts[k]``), all independent: ⌊h·n_k / 2³²⌋ for h a 32-bit word (multiply-shift; each
    index has probability within a relative n_k/2³² of 1/n_k, below 2.4e-5 for n_k ≤ 10⁵).
    Each round takes ⌈steps·N·batch/2⌉ raw 64-bit outputs of ``rng``'s bit generator, high
    words for the first half of its entries, low words for the rest, so drawing rounds one by
    one or several at once gives the same numbers (:func:`raw_words`, then
    :func:`words_to_indices`). Raw outputs, not a ``Generator`` method: the stream is fixed by
    the bit generator alone. Every plan draws through these functions (the compiled CPU step
    of :mod:`fltheory.sim.cpu_kernels` applies the same multiply-shift to the same words), so
    the engine and the reference loop see the same numbers.

    >>> from fltheory.rng import generator
    >>> idx = draw_indices(generator(0, "doc"), np.array([1, 3]), 1000, 2, 5)
    >>> idx.shape, int(idx[:, :, 0].max()), sorted(set(idx[:, :, 1].ravel().tolist()))
    ((1000, 2, 2, 5), 0, [0, 1, 2])
    """
    raw = raw_words(rng, rounds, steps * len(counts) * batch)
    return words_to_indices(raw, counts, steps, batch)


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
        self._streams: dict[int, _Stream] = {}
        per_block = reps * BLOCK * local_steps * self.counts.size * batch_size
        #: Small plans hold one block of every repetition, (R, BLOCK, E, N, B), at a time.
        self.small = per_block <= SMALL
        self._block: tuple[int, np.ndarray] | None = None
        self._words: tuple[int, np.ndarray] | None = None

    def _draw(self, stream: _Stream, t: int) -> None:
        """Advance ``stream`` past round t, drawing as many rounds at once as AHEAD allows."""
        per_round = self.local_steps * self.counts.size * self.batch_size
        end = (stream.block + 1) * BLOCK
        n = max(t + 1 - stream.next_t, min(end - stream.next_t, AHEAD // per_round))
        stream.ahead = draw_indices(stream.rng, self.counts, n, self.local_steps, self.batch_size)
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
        return np.asarray(stream.ahead[t - stream.next_t + stream.ahead.shape[0]])

    def words(self, b: int) -> np.ndarray:
        """(R, BLOCK, half) raw words of rounds [b·BLOCK, (b+1)·BLOCK) of every repetition
        (small plans; the last block is kept, in one buffer that the next block's words
        overwrite): :meth:`block`'s indices before the multiply-shift."""
        if self._words is None or self._words[0] != b:
            per_round = self.local_steps * self.counts.size * self.batch_size
            if self._words is None:
                shape = (self.reps, BLOCK, -(-per_round // 2))
                self._words = (b, np.empty(shape, dtype=np.uint64))
            buf = self._words[1]
            for r in range(self.reps):
                rng = generator(self.seed, f"sim/batches/rep{r}/block{b}")
                buf[r] = raw_words(rng, BLOCK, per_round)
            self._words, self._block = (b, buf), None
        return self._words[1]

    def block(self, b: int) -> np.ndarray:
        """(R, BLOCK, E, N, B): rounds [b·BLOCK, (b+1)·BLOCK) of every repetition, the numbers
        :meth:`rep_round` streams (small plans; the last block is kept)."""
        if self._block is None or self._block[0] != b:
            raw = self.words(b)
            flat = raw.reshape(-1, raw.shape[-1])
            out = words_to_indices(flat, self.counts, self.local_steps, self.batch_size)
            self._block = (b, out.reshape(self.reps, BLOCK, *out.shape[1:]))
        return self._block[1]

    def round(self, t: int) -> "RoundBatches":
        """Round t's indices as a lazy (R, E, N, B) array (see :class:`RoundBatches`)."""
        return RoundBatches(self, t)


@dataclass(frozen=True)
class RoundBatches:
    """Round t of a plan, indexed like the (R, E, N, B) array it stands for with
    ``[rr, j, kk]`` (rr, kk: equal-length integer arrays of (repetition, client) pairs; j: a
    step or a slice of steps), the gathers the engine makes: (M, E', B) or (M, B) indices.
    Small plans gather from :meth:`BatchPlan.block`; larger ones draw only the repetitions in
    ``rr``."""

    plan: BatchPlan
    t: int

    def words(self) -> tuple[np.ndarray, int] | None:
        """(the plan's (R, BLOCK, half) raw words of this round's block, the round's slot in
        it) for small plans, else None: what the compiled CPU step draws from."""
        p = self.plan
        return (p.words(self.t // BLOCK), self.t % BLOCK) if p.small else None

    def __getitem__(self, key: tuple[np.ndarray, int | slice, np.ndarray]) -> np.ndarray:
        rr, step, kk = key
        rr, kk = np.asarray(rr), np.asarray(kk)
        p = self.plan
        if p.small:
            return p.block(self.t // BLOCK)[rr, self.t % BLOCK, step, kk]  # one gather
        reps = np.unique(rr)
        slabs = [p.rep_round(int(r), self.t) for r in reps]
        out = np.empty((rr.size, p.local_steps, p.batch_size), dtype=np.int64)
        for r, slab in zip(reps, slabs, strict=True):
            sel = rr == r
            out[sel] = slab[:, kk[sel]].transpose(1, 0, 2)
        return out[:, step]
