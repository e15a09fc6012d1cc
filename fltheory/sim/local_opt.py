"""The authors' local mechanics (CA-Fed spec C.1, C.2, C.16): local epochs, local SGD momentum
and weight decay with persistent per-client buffers, gradient corrections (SCAFFOLD), and PyTorch's
default initialisation of the linear models.

The plain path (E minibatch steps drawn with replacement, :meth:`DataProblem.local_sgd`) is the
local method ``sgd`` (:mod:`fltheory.sim.local.sgd`); this module's :class:`LocalRunner` (the
engine) and :class:`ReferenceLocal` (the reference loop) are the steps of the local method
``torch_sgd`` (:mod:`fltheory.sim.local.torch_sgd`), which a run takes when a
:class:`LocalOptimiser` option is set or the algorithm corrects gradients.

* **Epochs** (:class:`EpochPlan`): each epoch client k visits its n_k samples in a fresh random
  order (without replacement) in ⌈n_k/B⌉ minibatches, the last one partial (its loss is the mean
  over its actual size), as a ``DataLoader(shuffle=True, drop_last=False)``. Step counts are
  ragged across clients; the runner batches every pair and, at each step, updates only the pairs
  not finished yet (they are sorted by step count, so the live ones are a prefix).
* **Optimiser** (torch SGD, no dampening, no Nesterov): d = g + c + λ·θ (c: a gradient
  correction, 0 unless given), buf = μ·buf + d, θ ← θ − η·buf (μ = 0: θ ← θ − η·d). The first
  step's buffer is d, as torch's, because buffers start at zero. One (R, N, P) buffer per run of
  an algorithm, kept across rounds and idle rounds, never reset.
"""

import functools
import math
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from fltheory.errors import InputError
from fltheory.rng import generator
from fltheory.sim import cpu_kernels
from fltheory.sim.batches import RoundBatches
from fltheory.sim.contract import CompiledLocal, DataBacked, SimProblem
from fltheory.sim.models import LinearShape, Model

#: Initialisations: the model's own (zeros for linear models) or PyTorch's nn.Linear default.
INITS = ("default", "torch_default")


@dataclass(frozen=True)
class LocalOptimiser:
    """Local work and optimiser: ``epochs`` (0: E minibatch steps with replacement instead),
    SGD ``momentum`` μ ∈ [0, 1) and ``weight_decay`` λ ≥ 0 (torch semantics, module docstring).

    >>> LocalOptimiser().active, LocalOptimiser(epochs=2, momentum=0.9).active
    (False, True)
    """

    epochs: int = 0
    momentum: float = 0.0
    weight_decay: float = 0.0

    def __post_init__(self) -> None:
        if self.epochs < 0:
            raise InputError(f"local_epochs must be >= 0 (0: local_steps), got {self.epochs}")
        if not 0.0 <= self.momentum < 1.0:
            raise InputError(f"local momentum must lie in [0, 1), got {self.momentum}")
        if not (math.isfinite(self.weight_decay) and self.weight_decay >= 0):
            raise InputError(f"local weight decay must be >= 0, got {self.weight_decay}")

    @property
    def active(self) -> bool:
        """Whether anything differs from plain local SGD."""
        return bool(self.epochs or self.momentum or self.weight_decay)


class EpochPlan:
    """Shuffled local epochs of every client, per repetition and round.

    Round t of repetition r shuffles each client's samples once per epoch (client-major,
    epochs inner) by Fisher–Yates (Durstenfeld's, as ``numpy.random.Generator.permutation``:
    for i = n−1, …, 1 swap entries i and j), j = ⌊h·(i + 1)/2³²⌋ for h the next 32-bit draw
    (multiply-shift, as the with-replacement batches of :mod:`fltheory.sim.batches`: each j
    has probability within a relative (i + 1)/2³² of 1/(i + 1), below 2.4e-5 for n_k ≤ 10⁵).
    The draws are the 32-bit halves (high half first) of the raw outputs of
    ``generator(seed, f"sim/epochs/rep{r}/round{t}")``; segment (k, e) takes n_k − 1 of them
    from a fixed position (:attr:`draw_start`), so any client's orders can be made without
    the others' (the compiled step shuffles only the participating clients). A pure function of
    (seed, r, t): the engine, the reference loop and every algorithm share the batches.
    (Before issue 23 each segment was ``rng.permutation(n_k)`` of that stream — a rejection
    sampler, so sequential and several times slower; the orders, hence a seed's results under
    local epochs, differ from those releases.)

    >>> plan = EpochPlan(0, np.array([3, 5]), epochs=2, batch_size=2, reps=1)
    >>> plan.steps.tolist()  # E·⌈n_k/B⌉
    [4, 6]
    >>> [len(b) for b in plan.client_batches(0, 0, 0)], sorted(np.concatenate(
    ...     plan.client_batches(0, 0, 1)[:3]).tolist())
    ([2, 1, 2, 1], [0, 1, 2, 3, 4])
    """

    def __init__(
        self, seed: int, counts: np.ndarray, epochs: int, batch_size: int, reps: int
    ) -> None:
        if epochs < 1 or batch_size < 1 or reps < 1:
            raise InputError("local_epochs, batch_size and reps must all be >= 1")
        self.seed, self.epochs, self.batch_size, self.reps = seed, epochs, batch_size, reps
        self.counts = np.asarray(counts, dtype=np.int64)
        if (self.counts < 1).any():
            raise InputError("every client needs at least one sample to run local epochs")
        n = self.counts.size
        #: ⌈n_k/B⌉ minibatches per epoch, E·⌈n_k/B⌉ steps per round.
        self.per_epoch = -(-self.counts // batch_size)
        self.steps = epochs * self.per_epoch
        # segment (k, e) holds client k's e-th order; segments are laid out client-major
        self._seg_len = np.repeat(self.counts, epochs)
        self._size = int(self._seg_len.sum())
        self._seg_start = np.concatenate([[0], np.cumsum(self._seg_len)[:-1]]).reshape(n, epochs)
        draws = self._seg_len - 1
        #: (N, E): index of segment (k, e)'s first 32-bit draw in its repetition-round's stream.
        self.draw_start = np.concatenate([[0], np.cumsum(draws)[:-1]]).reshape(n, epochs)
        self._n_words = -(-int(draws.sum()) // 2)
        self._cache: OrderedDict[tuple[int, int], np.ndarray] = OrderedDict()

    def rep_words(self, r: int, t: int) -> np.ndarray:
        """(W,) raw 64-bit outputs of repetition r's stream at round t: its shuffles' draws,
        two 32-bit draws a word (here (2 + 4)·2 draws: n_k − 1 per client and epoch).

        >>> EpochPlan(0, np.array([3, 5]), epochs=2, batch_size=2, reps=1).rep_words(0, 0).shape
        (6,)
        """
        rng = generator(self.seed, f"sim/epochs/rep{r}/round{t}")
        return rng.bit_generator.random_raw(self._n_words)

    def words(self, t: int) -> np.ndarray:
        """(R, W): :meth:`rep_words` of every repetition (what the compiled step reads)."""
        return np.stack([self.rep_words(r, t) for r in range(self.reps)])

    def rep_orders(self, r: int, t: int) -> np.ndarray:
        """(L,) local sample indices of repetition r at round t: the concatenated epoch orders
        (segment (k, e) at ``_seg_start[k, e]``), L = E·Σn_k."""
        key = (r, t)
        if key not in self._cache:
            self._cache[key] = cpu_kernels.epoch_orders(
                self.rep_words(r, t), self._seg_len, self.draw_start.reshape(-1)
            )
            while len(self._cache) > 2 * self.reps:
                self._cache.popitem(last=False)
        return self._cache[key]

    def orders(self, t: int) -> np.ndarray:
        """(R, L): :meth:`rep_orders` of every repetition."""
        return np.stack([self.rep_orders(r, t) for r in range(self.reps)])

    def client_batches(self, r: int, t: int, k: int) -> list[np.ndarray]:
        """Client k's minibatches of round t in repetition r, one per local step (a plain
        loop over epochs and batches: what the reference loop consumes)."""
        order = self.rep_orders(r, t)
        n, b = int(self.counts[k]), self.batch_size
        out: list[np.ndarray] = []
        for e in range(self.epochs):
            start = int(self._seg_start[k, e])
            epoch = order[start : start + n]
            out.extend(epoch[i : i + b] for i in range(0, n, b))
        return out

    def round(self, t: int) -> "EpochRound":
        """Round t's batches for any (repetition, client) pairs (what the engine consumes)."""
        return EpochRound(self, t)

    def rep_round(self, r: int, t: int) -> "RepEpochs":
        """Repetition r's batches of round t (what the reference loop consumes)."""
        return RepEpochs(self, r, t)


@dataclass(frozen=True, eq=False)
class EpochRound:
    """One round of an :class:`EpochPlan` for the vectorised engine: the orders of every
    repetition (the torch path) or their raw draws (the compiled path), each made when first
    asked for."""

    plan: EpochPlan
    t: int

    @functools.cached_property
    def orders(self) -> np.ndarray:
        """(R, L) epoch orders (:meth:`EpochPlan.orders`)."""
        return self.plan.orders(self.t)

    @functools.cached_property
    def words(self) -> np.ndarray:
        """(R, W) raw draws of the shuffles (:meth:`EpochPlan.words`)."""
        return self.plan.words(self.t)

    def batches(self, rr: np.ndarray, kk: np.ndarray, steps: int) -> tuple[np.ndarray, np.ndarray]:
        """(idx, valid), each (steps, M, B): :meth:`step` for the first ``steps`` steps."""
        parts = [self.step(rr, kk, s) for s in range(steps)]
        return np.stack([p[0] for p in parts]), np.stack([p[1] for p in parts])

    def step(self, rr: np.ndarray, kk: np.ndarray, s: int) -> tuple[np.ndarray, np.ndarray]:
        """(idx, valid), each (M, B): the local indices of step s of pairs (rr, kk) and which
        entries are real samples (a partial or finished step is padded with the last sample of
        its epoch, marked invalid)."""
        p = self.plan
        per, n = p.per_epoch[kk][:, None], p.counts[kk][:, None]
        epoch = np.minimum(s // per, p.epochs - 1)
        pos = (s % per) * p.batch_size + np.arange(p.batch_size)
        valid = (pos < n) & (s < p.steps[kk][:, None])
        start = p._seg_start[kk[:, None], epoch]
        idx = self.orders[rr[:, None], start + np.minimum(pos, n - 1)]
        return idx, valid

    def __getitem__(self, key: tuple[np.ndarray, int, np.ndarray]) -> np.ndarray:
        """``round[rr, j, kk]``: (M, B) indices of step j of pairs (rr, kk), padded (see
        :meth:`batches`) — the engine's first-minibatch loss signal reads step 0 this way."""
        rr, j, kk = key
        return self.step(np.atleast_1d(rr), np.atleast_1d(kk), j)[0]


@dataclass(frozen=True, eq=False)
class RepEpochs:
    """One repetition's round of an :class:`EpochPlan` for the reference loop."""

    plan: EpochPlan
    r: int
    t: int

    def client(self, k: int) -> list[np.ndarray]:
        """Client k's minibatches, one per local step (partial last batch of each epoch)."""
        return self.plan.client_batches(self.r, self.t, k)

    def __getitem__(self, key: tuple[int, int]) -> np.ndarray:
        """``[j, k]``: step j's indices of client k padded to B as the engine pads them (with
        the epoch's last sample: only an epoch's last batch is partial)."""
        j, k = key
        batch = self.client(k)[j]
        pad = np.full(self.plan.batch_size - batch.size, batch[-1], dtype=batch.dtype)
        return np.concatenate([batch, pad])


def sgd_direction(
    g: torch.Tensor, theta: torch.Tensor, opt: LocalOptimiser, correction: torch.Tensor | None
) -> torch.Tensor:
    """d = g + correction + λ·θ (torch SGD's weight decay on every parameter)."""
    if correction is not None:
        g = g + correction
    return g + opt.weight_decay * theta if opt.weight_decay else g


def _minibatch_grad(
    problem: SimProblem,
    theta: torch.Tensor,
    clients: torch.Tensor,
    idx: torch.Tensor | None,
    valid: torch.Tensor | None,
) -> torch.Tensor:
    """Gradients (M, P) of M minibatch losses, each the mean over its valid entries (padded
    local-epoch batches: a data problem's)."""
    if valid is None:
        return problem.loss_grad(theta, clients, idx)[1]
    assert isinstance(problem, DataBacked), "local epochs need a data problem"
    x, y, _ = problem._gather(clients, idx)
    weight = valid / valid.sum(-1, keepdim=True)
    return problem.model.loss_grad(theta, x, y, weight)[1]


@dataclass(eq=False)
class LocalRunner:
    """``local(rr, kk, theta0, correction=None)``: the local models after one round's local work
    of clients kk (M,) of repetitions rr (M,) from theta0 (M, P), with this module's optimiser;
    ``buffers`` (R, N, P) momentum buffers are read and updated in place for those pairs.

    ``batches``: the round's :class:`EpochRound`, the (R, E, N, B) with-replacement indices, or
    None (exact gradients, E steps). ``work(rr, kk)``: Σ_j η over each pair's steps (K·η_l of
    SCAFFOLD's option II).
    """

    problem: SimProblem
    batches: RoundBatches | EpochRound | np.ndarray | None
    lr: float
    local_steps: int
    opt: LocalOptimiser
    buffers: torch.Tensor | None

    def n_steps(self, kk: np.ndarray) -> np.ndarray:
        """Local steps of each client of ``kk`` this round."""
        if isinstance(self.batches, EpochRound):
            return np.asarray(self.batches.plan.steps[kk])
        return np.full(kk.shape, self.local_steps, dtype=np.int64)

    def work(self, rr: np.ndarray, kk: np.ndarray) -> np.ndarray:
        """K·η for each pair (the learning rate is constant within a round)."""
        return self.n_steps(kk) * self.lr

    def __call__(
        self,
        rr: np.ndarray,
        kk: np.ndarray,
        theta0: torch.Tensor,
        correction: torch.Tensor | None = None,
    ) -> torch.Tensor:
        problem = self.problem
        samples = problem.linear_kernel() if isinstance(problem, CompiledLocal) else None
        if samples is not None:
            return self._compiled(rr, kk, theta0, correction, *samples)
        return self._torch(rr, kk, theta0, correction)

    def _compiled(
        self,
        rr: np.ndarray,
        kk: np.ndarray,
        theta0: torch.Tensor,
        correction: torch.Tensor | None,
        xy: np.ndarray,
        offsets: np.ndarray,
        classes: int,
    ) -> torch.Tensor:
        """:meth:`_torch`'s steps through the compiled kernel
        (:func:`~fltheory.sim.cpu_kernels.linear_local`): each pair runs all its steps in
        one pass, reading its samples straight from the round's epoch orders (or its
        with-replacement rows, or its full local set), its momentum buffer updated in place."""
        dt = xy.dtype
        p = theta0.shape[1]
        theta = theta0.detach().contiguous().numpy()
        bufs = np.zeros((1, 1, p), dt)
        if self.opt.momentum:
            assert self.buffers is not None, "momentum needs the per-client buffers"
            bufs = self.buffers.numpy()
        corr = np.zeros((0, p), dt)
        if correction is not None:
            corr = correction.detach().contiguous().numpy()
        counts = np.asarray(self.problem.train_counts, dtype=np.int64)
        rows = np.zeros((0, 1, 1), dtype=np.int64)
        words = np.zeros((1, 1), dtype=np.uint64)
        draw_start, epochs, batch = np.zeros((1, 1), dtype=np.int64), 0, 1
        if isinstance(self.batches, EpochRound):
            plan = self.batches.plan
            words, draw_start = self.batches.words, plan.draw_start
            epochs, batch = plan.epochs, plan.batch_size
        elif self.batches is not None:
            rows = offsets[kk][:, None, None] + np.asarray(self.batches[rr, :, kk])
        problem = self.problem
        assert isinstance(problem, DataBacked), "the compiled kernel trains a data problem's model"
        ridge = problem.model.ridge
        out = cpu_kernels.linear_local(
            theta,
            bufs,
            rr.astype(np.int64),
            kk.astype(np.int64),
            corr,
            rows,
            words,
            draw_start,
            counts,
            offsets,
            epochs,
            batch,
            self.local_steps,
            xy,
            classes,
            self.lr,
            self.opt.momentum,
            self.opt.weight_decay,
            ridge,
        )
        return torch.from_numpy(out)

    def _torch(
        self,
        rr: np.ndarray,
        kk: np.ndarray,
        theta0: torch.Tensor,
        correction: torch.Tensor | None = None,
    ) -> torch.Tensor:
        """The steps in torch, every pair batched (the twin of :meth:`_compiled`, and the
        path on CUDA, for other models and without numba)."""
        device = theta0.device
        steps = self.n_steps(kk)
        order = np.argsort(-steps, kind="stable")  # live pairs form a prefix at every step
        rr_o, kk_o, steps_o = rr[order], kk[order], steps[order]
        order_t = torch.as_tensor(order, device=device)
        theta = theta0[order_t].clone()
        corr = None if correction is None else correction[order_t]
        rr_t, kk_t = torch.as_tensor(rr_o, device=device), torch.as_tensor(kk_o, device=device)
        mu = self.opt.momentum
        buf = None
        if mu:
            assert self.buffers is not None, "momentum needs the per-client buffers"
            buf = self.buffers[rr_t, kk_t].clone()
        total = int(steps_o.max()) if steps_o.size else 0
        epochs = self.batches if isinstance(self.batches, EpochRound) else None
        idx_all, batches = None, self.batches
        if batches is not None and not isinstance(batches, EpochRound):
            idx_all = torch.as_tensor(batches[rr_o, :, kk_o], device=device).transpose(0, 1)
        live_at = np.searchsorted(-steps_o, -np.arange(total), side="left")  # pairs with > s
        for s in range(total):
            live = int(live_at[s])
            th = theta[:live]
            idx = valid = None
            if epochs is not None:
                idx_np, valid_np = epochs.step(rr_o[:live], kk_o[:live], s)
                idx = torch.as_tensor(idx_np, device=device)
                valid = torch.as_tensor(valid_np, device=device, dtype=theta.dtype)
            elif idx_all is not None:
                idx = idx_all[s, :live]
            g = _minibatch_grad(self.problem, th, kk_t[:live], idx, valid)
            d = sgd_direction(g, th, self.opt, None if corr is None else corr[:live])
            if buf is not None:
                d = mu * buf[:live] + d
                buf[:live] = d
            theta[:live] = th - self.lr * d
        back = torch.empty_like(order_t)
        back[order_t] = torch.arange(order.size, device=device)
        if buf is not None and self.buffers is not None:
            self.buffers[rr_t, kk_t] = buf
        return theta[back]


@dataclass(eq=False)
class ReferenceLocal:
    """The reference loop's local work of one repetition and round, one client at a time:
    ``local(k, x, correction=None)`` with autograd gradients of the per-client loss definition,
    explicit steps and the client's momentum buffer in ``buffers[k]`` (updated)."""

    problem: SimProblem
    batches: np.ndarray | RepEpochs | None
    lr: float
    local_steps: int
    opt: LocalOptimiser
    buffers: list[torch.Tensor]

    def _batches(self, k: int) -> list[Any]:
        if isinstance(self.batches, RepEpochs):
            return self.batches.client(k)
        if self.batches is None:
            return [None] * self.local_steps
        return [self.batches[j, k] for j in range(self.local_steps)]

    def work(self, k: int) -> float:
        """K·η of client k this round."""
        return len(self._batches(k)) * self.lr

    def __call__(
        self, k: int, x: torch.Tensor, correction: torch.Tensor | None = None
    ) -> torch.Tensor:
        x = x.clone()
        for idx in self._batches(k):
            x = x.detach().requires_grad_(True)
            (g,) = torch.autograd.grad(self.problem.client_loss(k, x, idx), x)
            x = x.detach()
            if correction is not None:
                g = g + correction
            d = g + self.opt.weight_decay * x
            if self.opt.momentum:
                self.buffers[k] = self.opt.momentum * self.buffers[k] + d
                d = self.buffers[k]
            x = x - self.lr * d
        return x.detach()


def torch_default_init(model: Model | None, n_params: int, seed: int) -> np.ndarray:
    """w₀ as ``torch.nn.Linear``'s default: every weight and bias U(−1/√fan_in, 1/√fan_in) with
    fan_in = the number of features, from ``generator(seed, "sim/init")`` (CNNs have their own
    random start, already torch's default per layer).

    >>> from fltheory.sim.models import SoftmaxRegression
    >>> w0 = torch_default_init(SoftmaxRegression(4, 3), 15, seed=0)
    >>> w0.shape, bool(np.abs(w0).max() <= 0.5), bool((w0 != 0).all())
    ((15,), True, True)
    """
    if not isinstance(model, LinearShape):
        raise InputError("init = 'torch_default' needs a linear model of a data problem")
    bound = 1.0 / math.sqrt(model.n_features)
    return generator(seed, "sim/init").uniform(-bound, bound, n_params)
