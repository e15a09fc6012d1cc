"""Federated problems on tensors: local losses/gradients batched over (seed, client) pairs.

Both problem types expose the same small interface to the engine
(:mod:`fltheory.sim.engine`), in which a batch of M rows is a list of client indices
``clients`` (M,) with parameter vectors ``theta`` (M, P) and, for data problems, local minibatch
indices ``idx`` (M, B) (``None``: the full local data set). They also expose per-client
*definitions* (``client_loss``, ``client_objective``) written without batching, which the
reference loop (:mod:`fltheory.sim.reference`) differentiates with autograd.

F(w) = Σ_k α_k F_k(w) is the target objective, eq. (1).
"""

from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np
import torch

from fltheory.errors import InputError
from fltheory.sim import cpu_kernels
from fltheory.sim.batches import RoundBatches
from fltheory.sim.budget import chunk_bytes
from fltheory.sim.data import FederatedData
from fltheory.sim.models import LogisticRegression, Model, RandomStart, SoftmaxRegression

#: Largest number of padded feature entries a full-batch local step may gather at once.
MAX_FULL_BATCH_ENTRIES = 50_000_000
#: How test accuracy scores a model's predictions: ``model`` — the model's own rule (the first
#: maximal score; a NaN score never wins a softmax, a NaN logit of logistic regression predicts
#: 0); ``authors`` — the authors' metrics (:func:`authors_correct`), which differ only for
#: diverged (NaN) models.
Scoring = Literal["model", "authors"]
SCORINGS = ("model", "authors")


def authors_correct(
    model: Model, w: torch.Tensor, x: torch.Tensor, y: torch.Tensor
) -> torch.Tensor:
    """(R, S) bool: the authors' accuracy (arodio/CA-Fed ``utils/metrics.py``) of R models on
    samples x with labels y. Multi-class (softmax, CNNs): ``torch.max(logits, 1)`` — the
    predicted class is the first maximum, and a row with a NaN score predicts its first NaN
    class (torch's max treats NaN as the largest), so a diverged model whose scores are all NaN
    predicts class 0 and scores the share of class 0 (2.9 % on the authors' LEAF test sets).
    Binary (logistic regression): ``round(sigmoid(z)) == y`` — a NaN logit is never correct.

    >>> import torch
    >>> from fltheory.sim.models import SoftmaxRegression
    >>> m = SoftmaxRegression(2, 3)
    >>> w = torch.full((1, m.n_params), float("nan"))
    >>> authors_correct(m, w, torch.zeros(3, 2), torch.tensor([0, 1, 0])).tolist()
    [[True, False, True]]
    """
    if isinstance(model, LogisticRegression):
        z = model.logits(w, x)
        return torch.round(torch.sigmoid(z)) == y.to(z.dtype)
    # argmax and max share torch's rule: the first NaN of a row, else its first maximum.
    return model.predict(w, x) == y


#: Samples per chunk when evaluating global models (keeps the score block in cache).
EVAL_CHUNK = 2048
#: Chunks of rows are multiples of this many rows (when the budget allows that many): the SIMD
#: loops of elementwise kernels (sigmoid, exp) then split a chunk's elements where they split
#: the whole batch's (matrix kernels may still round by chunk size: see ``local_sgd``).
ALIGN_ROWS = 64


class TensorProblem(Protocol):
    """What a comparison needs to know of a problem before running it (the engine then calls
    its batched methods): :class:`QuadraticSim` and :class:`DataProblem` implement it."""

    @property
    def n_clients(self) -> int: ...

    @property
    def n_params(self) -> int: ...

    @property
    def train_counts(self) -> np.ndarray | None: ...


def _tensor(x: Any, device: str, dtype: torch.dtype) -> torch.Tensor:
    """``x`` as a tensor on the problem's device, in its dtype."""
    return torch.as_tensor(x, device=device, dtype=dtype)


def check_alpha(alpha: np.ndarray, n: int) -> np.ndarray:
    """Validate target weights α (eq. 1): n positive finite numbers, normalised to sum 1."""
    a = np.asarray(alpha, dtype=float)
    if a.shape != (n,):
        raise InputError(f"alpha must have one entry per client ({n}), got shape {a.shape}")
    if not (np.isfinite(a).all() and (a > 0).all()):
        raise InputError("alpha must hold positive finite numbers")
    return np.asarray(a / a.sum())


@dataclass(eq=False)
class QuadraticSim:
    """F_k(w) = ½(w − u_k)ᵀH_k(w − u_k) with exact gradients (no minibatches).

    ``hess`` is None (H_k = I, the FedPBC counterexample), (N, d) diagonals, or (N, d, d)
    symmetric positive definite matrices. E local gradient steps have the closed form
    w_E − u_k = (I − ηH_k)^E (w_0 − u_k), used by :meth:`local_sgd` (exact structure; the
    reference loop takes the E steps one by one).
    """

    u: np.ndarray
    alpha: np.ndarray
    hess: np.ndarray | None = None
    device: str = "cpu"
    dtype: torch.dtype = torch.float64

    def __post_init__(self) -> None:
        u = np.asarray(self.u, dtype=float)
        if u.ndim != 2:
            raise InputError(f"u must be an (N, d) array, got shape {u.shape}")
        n, d = u.shape
        self.alpha = check_alpha(self.alpha, n)
        self._u = _tensor(u, self.device, self.dtype)
        self._alpha = _tensor(self.alpha, self.device, self.dtype)
        if self.hess is None:
            self._kind, w_star, self._local = "identity", self.alpha @ u, None
        else:
            h = np.asarray(self.hess, dtype=float)
            if h.shape == (n, d):
                if not (h > 0).all():
                    raise InputError("diagonal Hessians must be positive")
                self._kind = "diag"
                w_star = (self.alpha[:, None] * h * u).sum(0) / (self.alpha @ h)
                self._h = _tensor(h, self.device, self.dtype)
            elif h.shape == (n, d, d):
                evals, evecs = np.linalg.eigh(0.5 * (h + h.transpose(0, 2, 1)))
                if not (evals > 0).all():
                    raise InputError("Hessians must be symmetric positive definite")
                self._kind = "full"
                hbar = np.einsum("k,kij->ij", self.alpha, h)
                w_star = np.linalg.solve(hbar, np.einsum("k,kij,kj->i", self.alpha, h, u))
                self._h = _tensor(h, self.device, self.dtype)
                self._evals = _tensor(evals, self.device, self.dtype)
                self._evecs = _tensor(evecs, self.device, self.dtype)
            else:
                raise InputError(f"hess must have shape ({n}, {d}) or ({n}, {d}, {d})")
        self.w_star = np.asarray(w_star, dtype=float)
        self._w_star = _tensor(self.w_star, self.device, self.dtype)

    # --- sizes -----------------------------------------------------------------------------
    @property
    def n_clients(self) -> int:
        return int(self._u.shape[0])

    @property
    def n_params(self) -> int:
        return int(self._u.shape[1])

    @property
    def train_counts(self) -> None:
        """No data: local gradients are exact, so the engine draws no minibatches."""
        return None

    @property
    def local_minima(self) -> np.ndarray:
        """F_k* = 0 exactly."""
        return np.zeros(self.n_clients)

    # --- batched ---------------------------------------------------------------------------
    def _hv(self, diff: torch.Tensor, clients: torch.Tensor) -> torch.Tensor:
        if self._kind == "identity":
            return diff
        if self._kind == "diag":
            return self._h[clients] * diff
        return torch.einsum("mij,mj->mi", self._h[clients], diff)

    def loss_grad(
        self, theta: torch.Tensor, clients: torch.Tensor, idx: Any = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        diff = theta - self._u[clients]
        g = self._hv(diff, clients)
        return 0.5 * (diff * g).sum(-1), g

    def losses(self, theta: torch.Tensor, clients: torch.Tensor, idx: Any = None) -> torch.Tensor:
        return self.loss_grad(theta, clients)[0]

    def local_sgd(
        self, theta: torch.Tensor, clients: torch.Tensor, idx: Any, lr: float, steps: int
    ) -> torch.Tensor:
        diff = theta - self._u[clients]
        if self._kind == "identity":
            return self._u[clients] + (1.0 - lr) ** steps * diff
        if self._kind == "diag":
            return self._u[clients] + (1.0 - lr * self._h[clients]) ** steps * diff
        vecs = self._evecs[clients]
        coef = (1.0 - lr * self._evals[clients]) ** steps
        rotated = torch.einsum("mji,mj->mi", vecs, diff)
        return self._u[clients] + torch.einsum("mij,mj->mi", vecs, coef * rotated)

    def objective(self, w: torch.Tensor) -> torch.Tensor:
        diff = w[:, None, :] - self._u[None]
        if self._kind == "identity":
            quad = (diff * diff).sum(-1)
        elif self._kind == "diag":
            quad = (diff * self._h[None] * diff).sum(-1)
        else:
            quad = torch.einsum("rki,kij,rkj->rk", diff, self._h, diff)
        return 0.5 * quad @ self._alpha

    def accuracy(self, w: torch.Tensor) -> None:
        return None

    def distance(self, w: torch.Tensor) -> torch.Tensor:
        norm: torch.Tensor = torch.linalg.vector_norm(w - self._w_star, dim=-1)
        return norm

    # --- per-client definitions (reference loop) -------------------------------------------
    def client_loss(self, k: int, theta: torch.Tensor, idx: Any = None) -> torch.Tensor:
        diff = theta - self._u[k]
        if self._kind == "identity":
            return 0.5 * diff @ diff
        if self._kind == "diag":
            return 0.5 * diff @ (self._h[k] * diff)
        return 0.5 * diff @ (self._h[k] @ diff)

    def client_objective(self, k: int, theta: torch.Tensor) -> torch.Tensor:
        return self.client_loss(k, theta)

    def client_accuracy(self, k: int, theta: torch.Tensor) -> None:
        return None


@dataclass(eq=False)
class DataProblem:
    """A model trained on ragged federated data; F_k = mean local loss + ridge term."""

    model: Model
    data: FederatedData
    alpha: np.ndarray
    device: str = "cpu"
    dtype: torch.dtype = torch.float32
    #: Seed of the initial parameters of models that need a random start (CNNs).
    init_seed: int = 0
    #: Bytes a run may use (None: no limit): lowers the chunks of local steps below their
    #: fixed default (:func:`fltheory.sim.budget.chunk_bytes`).
    memory_limit: int | None = None
    #: Whether plain SGD of logistic regression on CPU in float32 runs through the compiled
    #: kernels (:mod:`fltheory.sim.cpu_kernels`, numba installed; a small plan's minibatch
    #: rows then come straight from its raw words). False: the torch path alone.
    compiled: bool = True
    #: How test accuracy scores predictions (:data:`Scoring`).
    scoring: Scoring = "model"

    def __post_init__(self) -> None:
        d = self.data
        if self.scoring not in SCORINGS:
            raise InputError(f"scoring must be one of {SCORINGS}, got {self.scoring!r}")
        self.alpha = check_alpha(self.alpha, d.n_clients)
        # Linear models step on [x, 1]: the features are stored once, with the column of ones
        # and the labels as a last column ([x, 1, y]: one gather fetches a minibatch).
        bias = self.model.bias_column
        width = d.n_features + 2 * int(bias)
        self._xy = torch.ones(d.x_train.shape[0], width, device=self.device, dtype=self.dtype)
        self._xy[:, : d.n_features] = torch.as_tensor(d.x_train)
        self._y = torch.as_tensor(d.y_train, device=self.device)
        if bias:
            self._xy[:, -1] = self._y
        self._x_local = self._xy[:, : width - int(bias)]
        self._x = self._x_local[:, : d.n_features]
        self._offsets_np = FederatedData.offsets(d.train_counts)
        self._offsets = torch.as_tensor(self._offsets_np, device=self.device)
        owner = FederatedData.owners(d.train_counts)
        self._sample_w = _tensor(self.alpha[owner] / d.train_counts[owner], self.device, self.dtype)
        self._xt = _tensor(d.x_test, self.device, self.dtype)
        self._yt = torch.as_tensor(d.y_test, device=self.device)
        has_test = d.test_counts > 0
        self._test_w = None
        if has_test.any():
            a = np.where(has_test, self.alpha, 0.0)
            a /= a.sum()
            towner = FederatedData.owners(d.test_counts)
            self._test_w = _tensor(a[towner] / d.test_counts[towner], self.device, self.dtype)
        self._full: tuple[torch.Tensor, torch.Tensor] | None = None
        #: Where :meth:`_gather_rows` puts a chunk's minibatch rows, kept between rounds.
        self._gather_buf: torch.Tensor | None = None
        #: The compiled evaluation's sample sets (:meth:`kernel_eval`), made when first asked.
        self._eval_sets: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, int]] = {}

    @property
    def _logistic_kernel(self) -> bool:
        """Whether the compiled kernels (:mod:`~fltheory.sim.cpu_kernels`) run the steps:
        numba installed, plain SGD of logistic regression on CPU in float32."""
        cpu32 = self.device == "cpu" and self.dtype == torch.float32
        usable = self.compiled and cpu_kernels.AVAILABLE
        return usable and cpu32 and type(self.model) is LogisticRegression

    def linear_kernel(self) -> tuple[np.ndarray, np.ndarray, int] | None:
        """What the compiled local optimiser (:func:`~fltheory.sim.cpu_kernels.linear_local`,
        the authors' mechanics) reads — the [x, 1, y] samples (S, d + 2), each client's first
        row (N,) and the classes (1: binary logistic) — where it applies: numba installed,
        softmax or logistic regression on CPU, ``compiled``; else None (the torch path)."""
        model = self.model
        cpu = self.device == "cpu" and self.dtype in (torch.float32, torch.float64)
        if not (self.compiled and cpu_kernels.AVAILABLE and cpu):
            return None
        if type(model) is SoftmaxRegression:
            return self._xy.numpy(), self._offsets_np, model.n_classes
        if type(model) is LogisticRegression:
            return self._xy.numpy(), self._offsets_np, 1
        return None

    @property
    def n_clients(self) -> int:
        return self.data.n_clients

    @property
    def n_params(self) -> int:
        return self.model.n_params

    @property
    def train_counts(self) -> np.ndarray:
        return self.data.train_counts

    @property
    def local_minima(self) -> np.ndarray:
        """F_k* = min of mean local loss + ridge term, by full-batch L-BFGS (computed once;
        :func:`fltheory.sim.local_minima.exact_local_minima`)."""
        from fltheory.sim.local_minima import local_minima

        return local_minima(self, "oracle")

    def initial_params(self) -> np.ndarray:
        """w₀: the model's random start when it has one (CNNs), else zeros (convex models)."""
        model = self.model
        if isinstance(model, RandomStart):
            return model.initial_params(self.init_seed)
        return np.zeros(self.n_params)

    # --- batched ---------------------------------------------------------------------------
    def _full_batch(self, clients: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        if self._full is None:
            idx_np, mask = self.data.padded_indices()
            weight_np = mask / self.data.train_counts[:, None]
            self._full = (
                torch.as_tensor(idx_np, device=self.device),
                torch.as_tensor(weight_np, device=self.device, dtype=self.dtype),
            )
        idx, weight = self._full
        entries = clients.numel() * idx.shape[1] * self.data.n_features
        if entries > MAX_FULL_BATCH_ENTRIES:
            raise InputError(
                f"full local batches would gather {entries} values; use a minibatch size > 0"
            )
        return idx[clients], weight[clients]

    def _gather(
        self, clients: Any, idx: Any
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
        weight = None
        if idx is None:
            idx, weight = self._full_batch(clients)
        rows = (self._offsets[clients][:, None] + idx).reshape(-1)
        shape = (*idx.shape, self._x.shape[1])
        return self._x.index_select(0, rows).view(shape), self._y[rows].view(idx.shape), weight

    def loss_grad(
        self, theta: torch.Tensor, clients: torch.Tensor, idx: Any = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        x, y, weight = self._gather(clients, idx)
        return self.model.loss_grad(theta, x, y, weight)

    def losses(self, theta: torch.Tensor, clients: torch.Tensor, idx: Any = None) -> torch.Tensor:
        return self.model.batch_losses(theta, *self._gather(clients, idx))

    @property
    def local_bytes(self) -> int:
        """Bytes one chunk of local steps may use: fixed, or a share of an explicit memory
        limit (:func:`~fltheory.sim.budget.chunk_bytes`) — never sized from the free memory,
        so the chunks, and the results, are the same on a loaded machine."""
        return chunk_bytes(self.memory_limit)

    def _rows(self, row_bytes: int) -> int:
        rows = self.local_bytes // row_bytes
        return rows - rows % ALIGN_ROWS if rows >= ALIGN_ROWS else max(1, rows)

    def local_rows(self, steps: int, batch: int) -> int:
        """Rows (seed-client pairs) per chunk of local steps: their gathered features
        (``steps`` × ``batch`` samples a row) fit in :attr:`local_bytes`."""
        return self._rows(
            steps * batch * (self._x_local.shape[1] + 1) * self._x_local.element_size()
        )

    def update_rows(self) -> int:
        """Rows per chunk of the engine's local updates: four (rows, P) tensors (start, end,
        weighted difference, index) fit in :attr:`local_bytes`."""
        return self._rows(4 * self.n_params * self._x_local.element_size())

    def local_sgd(
        self, theta: torch.Tensor, clients: torch.Tensor, idx: Any, lr: float, steps: int
    ) -> torch.Tensor:
        """E local SGD steps (eq. 2) for M rows, in chunks of :meth:`local_rows` rows: each
        chunk's minibatches for all steps are gathered at once and the model steps them
        (:meth:`~fltheory.sim.models.Model.local_sgd`). Rows are independent, so the chunking
        changes no value — but a CPU's matrix kernels may round a chunk of rows differently
        from the whole batch in the last bit: results are bit-identical for equal chunk sizes
        (:attr:`local_bytes`, fixed by the config), equal to rounding otherwise."""
        m = clients.numel()
        if idx is None:
            chunk = self.local_rows(1, int(self.data.train_counts.max()))
        else:
            chunk = self.local_rows(steps, idx.shape[-1])
        if chunk >= m:
            return self._local_chunk(theta, clients, idx, lr, steps)
        out = torch.empty_like(theta)
        for s in range(0, m, chunk):
            part = None if idx is None else idx[:, s : s + chunk]
            out[s : s + chunk] = self._local_chunk(
                theta[s : s + chunk], clients[s : s + chunk], part, lr, steps
            )
        return out

    def local_sgd_plan(
        self, theta: torch.Tensor, clients: np.ndarray, idx: np.ndarray, lr: float, steps: int
    ) -> torch.Tensor:
        """:meth:`local_sgd` on a plan's (M, E, B) local indices of clients ``clients`` (M,), both
        numpy arrays (what the engine holds): the sample rows are computed in numpy and the
        linear models fetch [x, 1, y] in one gather (the same steps, the same numbers).

        >>> from fltheory.sim.data import binary_synthetic
        >>> from fltheory.sim.models import LogisticRegression
        >>> data = binary_synthetic(3, n_features=2, n_train=5)[0]
        >>> p = DataProblem(LogisticRegression(2), data, data.train_counts)
        >>> th, kk = torch.zeros(2, p.n_params), np.array([0, 2])
        >>> idx = np.array([[[0, 1], [2, 0]], [[1, 1], [0, 3]]])
        >>> fast = p.local_sgd_plan(th, kk, idx, 0.5, 2)
        >>> idx_t = torch.as_tensor(idx).transpose(0, 1)
        >>> slow = p.local_sgd(th, torch.as_tensor(kk), idx_t, 0.5, 2)
        >>> torch.allclose(fast, slow)
        True
        """
        if not self.model.bias_column:
            idx_t = torch.as_tensor(idx, device=self.device).transpose(0, 1)
            return self.local_sgd(
                theta, torch.as_tensor(clients, device=self.device), idx_t, lr, steps
            )
        return self._local_rows(theta, self._offsets_np[clients][:, None, None] + idx, lr, steps)

    def local_sgd_round(
        self,
        theta: torch.Tensor,
        rr: np.ndarray,
        clients: np.ndarray,
        batches: RoundBatches | np.ndarray,
        lr: float,
        steps: int,
    ) -> torch.Tensor:
        """:meth:`local_sgd_plan` for the pairs (rr, clients) of a plan's round (or of the
        (R, E, N, B) indices it stands for): with the compiled logistic kernel and a small plan
        the sample rows come straight from the plan's raw words
        (:func:`~fltheory.sim.cpu_kernels.sample_rows`: the same numbers).

        >>> from fltheory.sim.batches import BatchPlan
        >>> from fltheory.sim.data import binary_synthetic
        >>> data = binary_synthetic(3, n_features=2, n_train=5)[0]
        >>> p = DataProblem(LogisticRegression(2), data, data.train_counts)
        >>> plan = BatchPlan(0, data.train_counts, local_steps=2, batch_size=4, reps=2)
        >>> th, rr, kk = torch.zeros(1, p.n_params), np.array([1]), np.array([2])
        >>> fast = p.local_sgd_round(th, rr, kk, plan.round(5), 0.5, 2)
        >>> torch.allclose(fast, p.local_sgd_plan(th, kk, plan.round(5)[rr, :, kk], 0.5, 2))
        True
        """
        if isinstance(batches, RoundBatches) and self._logistic_kernel:
            words = batches.words()
            if words is not None:
                counts, batch = self.data.train_counts, batches.plan.batch_size
                offsets = self._offsets_np
                rows = cpu_kernels.sample_rows(*words, rr, clients, counts, offsets, steps, batch)
                return self._local_rows(theta, rows, lr, steps)
        return self.local_sgd_plan(theta, clients, batches[rr, :, clients], lr, steps)

    def _local_rows(
        self, theta: torch.Tensor, rows: np.ndarray, lr: float, steps: int
    ) -> torch.Tensor:
        """Linear models' E steps on (M, E, B) sample rows: the compiled logistic kernel
        where it applies, else torch on [x, 1, y] gathered in chunks of :meth:`local_rows`
        rows."""
        if self._logistic_kernel:
            samples, ridge = self._xy.numpy(), self.model.ridge
            return torch.from_numpy(
                cpu_kernels.logistic_sgd(theta.detach().numpy(), rows, samples, lr, ridge)
            )
        by_step = np.ascontiguousarray(rows.swapaxes(0, 1))
        chunk, m = self.local_rows(steps, rows.shape[-1]), rows.shape[0]
        out = torch.empty_like(theta) if chunk < m else None
        for s in range(0, m, chunk):
            part = torch.as_tensor(by_step[:, s : s + chunk], device=self.device)
            xy = self._gather_rows(part.reshape(-1)).view(*part.shape, -1)
            theta_s = self.model.local_sgd(
                theta[s : s + chunk], xy[..., :-1], xy[..., -1], None, lr, steps
            )
            if out is None:
                return theta_s
            out[s : s + chunk] = theta_s
        return theta.clone() if out is None else out  # (no rows: nothing moved)

    def _gather_rows(self, rows: torch.Tensor) -> torch.Tensor:
        """The [x, 1, y] samples at ``rows`` (n, f + 1), written into a buffer reused from one
        chunk to the next (valid until the next call): a fresh chunk-sized tensor per chunk is
        fresh pages the kernel must fault in and zero — on FedAR's full runs (1,000 seed-client
        pairs of 5 × 64 MNIST rows per round) as much system time as the steps' arithmetic."""
        n = rows.numel() * self._xy.shape[1]
        if self._gather_buf is None or self._gather_buf.numel() < n:
            self._gather_buf = torch.empty(n, dtype=self.dtype, device=self.device)
        out = self._gather_buf[:n].view(rows.numel(), self._xy.shape[1])
        return torch.index_select(self._xy, 0, rows, out=out)

    def _local_chunk(
        self, theta: torch.Tensor, clients: torch.Tensor, idx: Any, lr: float, steps: int
    ) -> torch.Tensor:
        weight = None
        if idx is None:
            full, weight = self._full_batch(clients)
            idx = full[None]
        # index_select, not advanced indexing: several times faster for these gathers.
        start = self._offsets.index_select(0, clients)
        rows = (start[None, :, None] + idx).reshape(-1)
        x = self._x_local if self.model.bias_column else self._x
        x = x.index_select(0, rows).view(*idx.shape, *x.shape[1:])
        y = self._y.index_select(0, rows).view(idx.shape)
        return self.model.local_sgd(theta, x, y, weight, lr, steps)

    def kernel_eval(
        self, w: torch.Tensor, which: str, *, loss: bool, correct: bool
    ) -> tuple[torch.Tensor, torch.Tensor] | None:
        """(Σ weight·loss, Σ weight·correct) per model and group through the compiled
        evaluation (:func:`~fltheory.sim.cpu_kernels.linear_eval`) where it applies
        (:meth:`linear_kernel`; for ``correct``, every :attr:`scoring` but the authors' rule on
        binary logistic regression, whose rounding of σ(z) stays with torch), else None:
        ``which`` = "objective" (training samples, weights α_k/n_k, one group), "accuracy"
        (test samples, weights of :meth:`accuracy`, one group), "clients" (test samples,
        weight 1, a group per client)."""
        kernel = self.linear_kernel()
        if kernel is None:
            return None
        authors = self.scoring == "authors"
        if correct and authors and kernel[2] == 1:
            return None
        if which not in self._eval_sets:
            d = self.data
            if which == "objective":
                xy, weight = kernel[0], self._sample_w.numpy()
                owner, groups = np.zeros(xy.shape[0], dtype=np.int64), 1
            else:
                xy = np.ones((d.x_test.shape[0], d.n_features + 2), dtype=kernel[0].dtype)
                xy[:, : d.n_features], xy[:, -1] = d.x_test, d.y_test
                if which == "accuracy":
                    assert self._test_w is not None, "no client has test data"
                    weight, groups = self._test_w.numpy(), 1
                    owner = np.zeros(xy.shape[0], dtype=np.int64)
                else:
                    weight, groups = np.ones(xy.shape[0], dtype=xy.dtype), d.n_clients
                    owner = FederatedData.owners(d.test_counts).astype(np.int64)
            self._eval_sets[which] = (xy, owner, weight, groups)
        xy, owner, weight, groups = self._eval_sets[which]
        theta = w.detach().contiguous().numpy()
        out = cpu_kernels.linear_eval(
            theta, xy, owner, weight, groups, kernel[2], loss, correct, authors
        )
        return torch.from_numpy(out[0]), torch.from_numpy(out[1])

    def objective(self, w: torch.Tensor) -> torch.Tensor:
        """F(w) = Σ_i (α_k(i)/n_k(i)) ℓ(w; ξ_i) + (ridge/2)‖w‖², in chunks of samples."""
        fast = self.kernel_eval(w, "objective", loss=True, correct=False)
        if fast is not None:
            return fast[0][:, 0].to(self.dtype) + self.model.penalty(w)
        total = self.model.penalty(w)
        for s in range(0, self._x.shape[0], EVAL_CHUNK):
            x, y = self._x[s : s + EVAL_CHUNK], self._y[s : s + EVAL_CHUNK]
            total = total + self.model.global_losses(w, x, y) @ self._sample_w[s : s + EVAL_CHUNK]
        return total

    def _correct(self, w: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        """(R, S) bool: whether each model's prediction is scored correct (:attr:`scoring`)."""
        if self.scoring == "authors":
            return authors_correct(self.model, w, x, y)
        return self.model.correct(w, x, y)

    def accuracy(self, w: torch.Tensor) -> torch.Tensor | None:
        """α-weighted mean of the clients' test accuracies (clients with test data)."""
        if self._test_w is None:
            return None
        fast = self.kernel_eval(w, "accuracy", loss=False, correct=True)
        if fast is not None:
            return fast[1][:, 0].to(self.dtype)
        total = torch.zeros(w.shape[0], device=self.device, dtype=self.dtype)
        for s in range(0, self._xt.shape[0], EVAL_CHUNK):
            x, y = self._xt[s : s + EVAL_CHUNK], self._yt[s : s + EVAL_CHUNK]
            correct = self._correct(w, x, y).to(self.dtype)
            total = total + correct @ self._test_w[s : s + EVAL_CHUNK]
        return total

    def client_accuracies(self, w: torch.Tensor) -> torch.Tensor | None:
        """(R, N) accuracy of each global model on each client's test set (NaN: no test data)."""
        if self._test_w is None:
            return None
        counts = torch.as_tensor(self.data.test_counts, device=self.device, dtype=self.dtype)
        fast = self.kernel_eval(w, "clients", loss=False, correct=True)
        if fast is not None:
            return fast[1].to(self.dtype) / counts
        n = self.n_clients
        towner = torch.as_tensor(FederatedData.owners(self.data.test_counts), device=self.device)
        hits = torch.zeros(w.shape[0], n, device=self.device, dtype=self.dtype)
        for s in range(0, self._xt.shape[0], EVAL_CHUNK):
            x, y = self._xt[s : s + EVAL_CHUNK], self._yt[s : s + EVAL_CHUNK]
            correct = self._correct(w, x, y).to(self.dtype)
            hits.index_add_(1, towner[s : s + EVAL_CHUNK], correct)
        return hits / counts

    def distance(self, w: torch.Tensor) -> None:
        return None

    # --- per-client definitions (reference loop) -------------------------------------------
    def _client_rows(self, k: int, idx: Any) -> torch.Tensor:
        start = int(self._offsets[k])
        if idx is None:
            return torch.arange(start, start + int(self.data.train_counts[k]), device=self.device)
        return start + torch.as_tensor(idx, device=self.device)

    def client_loss(self, k: int, theta: torch.Tensor, idx: Any = None) -> torch.Tensor:
        rows = self._client_rows(k, idx)
        per = self.model.sample_losses(theta, self._x[rows], self._y[rows])
        return per.mean() + self.model.penalty(theta)

    def client_objective(self, k: int, theta: torch.Tensor) -> torch.Tensor:
        return self.client_loss(k, theta, None)

    def client_accuracy(self, k: int, theta: torch.Tensor) -> torch.Tensor | None:
        n_test = int(self.data.test_counts[k])
        if n_test == 0:
            return None
        start = int(self.data.test_counts[:k].sum())
        x, y = self._xt[start : start + n_test], self._yt[start : start + n_test]
        return self._correct(theta[None], x, y)[0].to(self.dtype).mean()
